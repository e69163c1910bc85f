//! The subcommands of the `cutoff` binary, one file each, and their shared output.

pub mod judge;
pub mod output;
pub mod solve;
pub mod suite;
pub mod tree;

/// A subcommand's outcome: `Err` carries a one-line message naming what is wrong.
pub type CliResult = Result<(), String>;

/// Reads a whole file, with an error naming it.
pub fn read_file(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))
}
