//! `cutoff distribute`: its arguments, converted into
//! [`cutoff_app::commands::distribute`]'s options, and its printing.

use crate::args::{BackendArg, GameArgs};
use cutoff_app::commands::distribute;
use std::path::PathBuf;

/// Arguments of `cutoff distribute`.
#[derive(clap::Args)]
pub struct Args {
    /// The game, the position to solve (its `--depth K`: plies from the position to the
    /// frontier; default 2 on up to 8 workers, 3 on up to 32, else 4) and the tree games'
    /// options.
    #[command(flatten)]
    pub game: GameArgs,
    /// The run folder: every file of the run, written atomically; a run stopped and started
    /// again with the same arguments resumes from it.
    #[arg(long)]
    pub dir: PathBuf,
    /// Where the workers run: processes on this machine, or a Slurm job array a round.
    #[arg(long, value_enum, default_value_t = BackendArg::Local)]
    pub backend: BackendArg,
    /// Workers at once (local: processes; slurm: the array's throttle). Default: every core.
    #[arg(long)]
    pub workers: Option<usize>,
    /// Node budget of each frontier position's guessing search.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..))]
    pub guess_nodes: u64,
    /// Each task's transposition table, in MiB.
    #[arg(long, default_value_t = 16)]
    pub tt_mb: usize,
    /// Table entries of subtrees of at least this many nodes are kept and loaded by every
    /// later task (Connect Four).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub hard_nodes: u64,
    /// Split a test a ply deeper before sending it when the position cost more than this
    /// percentage of its round's expected nodes before (0: never).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub split_percent: u32,
    /// An opening book (`cutoff book`; `builtin`: the Connect Four book in the binary) whose
    /// values are the guesses of the frontier positions it holds, instead of a guessing
    /// search. Guesses only: every bound is still proved by a test.
    #[arg(long, value_name = "BOOK")]
    pub book: Option<String>,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
    /// No line per round on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// The latency of each message between driver and worker, in milliseconds
    /// (`--backend simulate`; 1 is an MPI network, 1000 a batch system's).
    #[arg(long, default_value_t = 1.0, value_name = "MS", value_parser = latency)]
    pub latency: f64,
    /// The first node budget of each test: a test that runs out returns, and the driver
    /// opens its position a ply deeper where a worker would sit idle, else sends it again
    /// with twice the budget. Default: the work so far shared among the workers, at least
    /// 262144.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub job_nodes: Option<u64>,
    /// Never run a brother the proof may need next on a worker that would sit idle.
    #[arg(long)]
    pub no_speculate: bool,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> distribute::Options {
        distribute::Options {
            game: self.game.options(),
            dir: self.dir.clone(),
            backend: self.backend.into(),
            workers: self.workers,
            guess_nodes: self.guess_nodes,
            tt_mb: self.tt_mb,
            hard_nodes: self.hard_nodes,
            split_percent: self.split_percent,
            book: self.book.clone(),
            quiet: self.quiet,
            latency: std::time::Duration::from_secs_f64(self.latency / 1e3),
            job_nodes: self.job_nodes,
            speculate: !self.no_speculate,
            worker: std::env::current_exe()
                .ok()
                .map(|program| distribute::WorkerCommand {
                    program,
                    args: vec!["distribute-worker".into()],
                }),
            #[cfg(feature = "mpi")]
            mpi: Some(crate::mpi::start),
            #[cfg(not(feature = "mpi"))]
            mpi: None,
        }
    }
}

/// Arguments of `cutoff distribute-task`.
#[derive(clap::Args)]
pub struct TaskArgs {
    /// The run folder.
    pub dir: PathBuf,
    /// The round.
    pub round: usize,
    /// The task, from 0 (default: $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX).
    #[arg(long)]
    pub index: Option<usize>,
}

impl TaskArgs {
    /// The options these arguments ask for.
    pub fn options(&self) -> distribute::TaskOptions {
        distribute::TaskOptions {
            dir: self.dir.clone(),
            round: self.round,
            index: self.index,
        }
    }
}

/// Runs `cutoff distribute`.
pub fn run(args: &Args) -> super::CliResult {
    super::print(
        distribute::run(&args.options(), super::control(true, None))?,
        args.json,
    )
}

/// Runs `cutoff distribute-worker`.
pub fn run_worker() -> Result<(), super::CliError> {
    Ok(distribute::run_worker(super::control(true, None))?)
}

/// Runs `cutoff distribute-task`.
pub fn run_task(args: &TaskArgs) -> super::CliResult {
    Ok(distribute::run_task(
        &args.options(),
        super::control(true, None),
    )?)
}

/// A latency in milliseconds: a finite number from 0 to an hour.
fn latency(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(ms) if ms.is_finite() && (0.0..=3.6e6).contains(&ms) => Ok(ms),
        _ => Err(format!(
            "expected milliseconds from 0 to 3600000, got {text:?}"
        )),
    }
}
