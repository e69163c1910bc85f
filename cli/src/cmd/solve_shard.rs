//! `cutoff solve-shard`: its arguments, converted into
//! [`cutoff_app::commands::solve_shard`]'s options, and its printing.

use cutoff_app::commands::solve_shard;

/// Arguments of `cutoff solve-shard`.
#[derive(clap::Args)]
pub struct Args {
    /// The split file (from `cutoff split`).
    pub file: String,
    /// The shard to solve, from 0 (default: $SLURM_ARRAY_TASK_ID, else
    /// $JOB_COMPLETION_INDEX).
    #[arg(long)]
    pub index: Option<usize>,
    /// The results folder (default: FILE.results), created if missing.
    #[arg(long)]
    pub out: Option<String>,
    /// Threads for each line's search (default: one first, every core once a search proves
    /// large).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB, one table kept warm across the shard's lines.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Solve every line only within this window, `A,B`, instead of the split file's
    /// windows: a line then gets its value if it lies strictly between A and B, else the
    /// bound proved.
    #[arg(long, value_name = "A,B", value_parser = crate::args::parse_window, allow_hyphen_values = true)]
    pub window: Option<[cutoff::Value; 2]>,
    /// No line per solved position on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> solve_shard::Options {
        solve_shard::Options {
            file: self.file.clone(),
            index: self.index,
            out: self.out.clone(),
            threads: self.threads,
            tt_mb: self.tt_mb,
            window: self.window,
            quiet: self.quiet,
        }
    }
}

/// Runs `cutoff solve-shard`.
pub fn run(args: &Args) -> super::CliResult {
    Ok(solve_shard::run(
        &args.options(),
        super::control(true, None),
    )?)
}
