//! The `cutoff` command's own part, thin over the application library (`cutoff_app`): the
//! subcommands' clap arguments and their conversion into the application's options
//! structs ([`cmd`], [`args`]), printing and progress ([`progress`]), signals ([`interrupt`]) and the HTTP layer of
//! `cutoff serve` ([`serve`]).

#![deny(missing_docs)]

pub mod args;
pub mod cmd;
pub mod interrupt;
pub mod progress;
#[cfg(feature = "serve")]
pub mod serve;
