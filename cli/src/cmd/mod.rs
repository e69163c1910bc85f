//! The subcommands of the `cutoff` binary, one file each, and their shared output.


pub mod judge;

pub mod solve;
pub mod suite;
pub mod tree;

/// A subcommand's outcome: `Err` carries a one-line message naming what is wrong.
pub type CliResult = Result<(), String>;

/// Reads a whole file, with an error naming it.
pub fn read_file(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))
}

/// The thread count asked for, or every core; an error outside 1..=1024.
pub fn threads(asked: Option<usize>) -> Result<usize, String> {
    let n = asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if n == 0 || n > 1024 {
        return Err(format!("--threads must be between 1 and 1024, got {n}"));
    }
    Ok(n)
}

/// YBWC's split thresholds, shared by `solve` and `suite` (tuning knobs; the defaults are
/// [`cutoff::parallel::ParallelConfig`]'s).
#[derive(clap::Args)]
pub struct SplitArgs {
    /// YBWC splits only with at least this many plies left (tuning).
    #[arg(id = "split_depth", long = "split-depth", value_name = "N", default_value_t = cutoff::parallel::ParallelConfig::default().min_split_depth)]
    pub depth: usize,
    /// YBWC splits only after an eldest brother of at least this many nodes (tuning).
    #[arg(id = "split_nodes", long = "split-nodes", value_name = "N", default_value_t = cutoff::parallel::ParallelConfig::default().min_split_nodes)]
    pub nodes: u64,
    /// YBWC searches this many brothers serially before splitting the rest (tuning).
    #[arg(id = "split_after", long = "split-after", value_name = "N", default_value_t = cutoff::parallel::ParallelConfig::default().eldest)]
    pub after: usize,
}

impl SplitArgs {
    /// The parallel settings for `mode` and `weak` with these thresholds.
    pub fn config(
        &self,
        mode: cutoff::parallel::Mode,
        weak: bool,
    ) -> cutoff::parallel::ParallelConfig {
        cutoff::parallel::ParallelConfig {
            mode,
            weak,
            min_split_depth: self.depth,
            min_split_nodes: self.nodes,
            eldest: self.after,
            ..Default::default()
        }
    }
}
