//! The subcommands of the `cutoff` binary, one file each, and their shared output.

pub mod judge;
pub mod output;
pub mod solve;
pub mod tree;

/// A subcommand's outcome: `Err` carries a one-line message naming what is wrong.
pub type CliResult = Result<(), String>;
