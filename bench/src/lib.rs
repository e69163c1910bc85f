//! Benchmarks, sweeps and regression runs for cutoff.
//!
//! - [`chance`]: expectiminimax, Star1 and Star2 on random chance trees and Pig.
//! - [`theory`]: `b^d`, the Knuth-Moore minimal tree, Pearl's branching factor.
//! - [`sweep`]: the grid of uniform random trees and its table; [`games`]: the same
//!   comparison on real games; [`plot`]: the figure.
//! - [`workload`]: the named suites of `cutoff-bench run`; [`record`]: the JSON a run writes;
//!   [`compare`]: two runs side by side; [`build_info`]: the build a run measured.
//! - [`distributed`]: a `cutoff distribute` run replayed on N simulated workers.
//! - [`scaling`]: the thread-scaling figure of `scripts/scaling.sh`.
//! - [`measure`], [`positions`], [`table`]: one timed search, the fixed positions, text tables.

#![deny(missing_docs)]

pub mod build_info;
pub mod chance;
pub mod compare;
pub mod distributed;
pub mod games;
pub mod measure;
pub mod plot;
pub mod positions;
pub mod record;
pub mod scaling;
pub mod sweep;
pub mod table;
pub mod theory;
pub mod workload;
