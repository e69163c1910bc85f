//! The `cutoff` command's own part, thin over the application library (`cutoff_app`): the
//! subcommands' clap arguments and their conversion into the application's options
//! structs ([`cmd`], [`args`]), printing and progress ([`progress`]), signals ([`interrupt`]),
//! the HTTP layer of `cutoff serve` ([`serve`]) and the MPI ranks of `cutoff distribute`
//! (`mpi`, the `mpi` feature).

#![deny(missing_docs)]

pub mod args;
pub mod cmd;
pub mod interrupt;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod progress;
#[cfg(feature = "serve")]
pub mod serve;
