//! The `cutoff` command's library: the subcommands and the application code built on the
//! engine (the judge problems' formats, the Connect Four test-set runner, the textbook
//! walk-through of hand-written trees).

#![deny(missing_docs)]

pub mod analysis;
pub mod api;
pub mod book;
pub mod cmd;
pub mod distribute;
pub mod files;
pub mod games;
pub mod interrupt;
pub mod judge;
pub mod message;
pub mod output;
pub mod position;
pub mod progress;
#[cfg(feature = "serve")]
pub mod serve;
pub mod shard;
pub mod suite;
pub mod trees;
pub mod walk;
