//! The subcommands of the `cutoff` binary, one file each: their arguments and their printing,
//! over the application code beneath (the modules outside `cmd/`), and the argument checks
//! they share.

pub mod analyse;
pub mod book;
pub mod cfr;
pub mod distribute;
pub mod judge;
pub mod merge;
pub mod plan;
pub mod play;

pub mod solve;
pub mod solve_multi;
pub mod solve_shard;
pub mod split;
pub mod suite;
pub mod tree;

use crate::analysis::{cores, PoolError};
use crate::book::BookError;
use crate::files::FileError;
use crate::position::AnyAlgo;
use crate::position::PositionError;
use crate::shard::ShardError;
use crate::suite::SuiteError;
use crate::trees::TreeError;
use std::sync::atomic::AtomicBool;

/// Why a subcommand failed: the errors of the code beneath it, and the command's own (its
/// arguments, its output). `main` prints the message as one line, `error: ...`.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file or standard input could not be read, or a file written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The game or its position could not be set up.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// An opening book could not be read, checked or built.
    #[error(transparent)]
    Book(#[from] BookError),
    /// A split file, a shard's result or a pass could not be read, checked or written.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// A tree cannot be searched as asked.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// A test set's run failed.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The threads would not start.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The engine refused a game, a position or an input.
    #[error(transparent)]
    Game(#[from] cutoff::GameError),
    /// The engine's solver refused its settings or could not get its resources.
    #[error(transparent)]
    Solve(#[from] cutoff::solver::SolveError),
    /// A transposition table could not be allocated.
    #[error(transparent)]
    Table(#[from] cutoff::tt::TableError),
    /// A table file could not be read or written.
    #[error(transparent)]
    TableFile(#[from] cutoff::tt::file::TableFileError),
    /// A search of the chance and n-player model failed.
    #[error(transparent)]
    Multi(#[from] cutoff::multi::MultiError),
    /// A distributed run could not go on.
    #[error(transparent)]
    Distribute(#[from] crate::distribute::DistributeError),
    /// A CFR run could not start, resume, save or draw.
    #[error(transparent)]
    Cfr(#[from] cfr::CfrError),
    /// The server could not start.
    #[cfg(feature = "serve")]
    #[error(transparent)]
    Serve(#[from] crate::serve::ServeError),
    /// What is wrong with the file `path` (a tree, a test set).
    #[error("{}: {source}", crate::message::shown_path(.path))]
    InFile {
        /// The file, as given.
        path: String,
        /// What is wrong with it.
        source: Box<CliError>,
    },
    /// `--threads 0`.
    #[error("--threads must be at least 1")]
    NoThreads,
    /// More threads than [`max_threads`].
    #[error(
        "--threads {asked} is too many: at most {max} on this machine ({cores} cores; 4 threads \
         per core, at least 16)"
    )]
    TooManyThreads {
        /// The threads asked for.
        asked: usize,
        /// The most accepted.
        max: usize,
        /// The machine's cores.
        cores: usize,
    },
    /// A `--tt-mb` outside the accepted range.
    #[error("--tt-mb must be between 1 and 1048576, got {0}")]
    TableSize(usize),
    /// Stopped by Ctrl-C (or SIGTERM) before the work was done.
    #[error("interrupted after {nodes} nodes{}", .before.as_ref().map_or(String::new(), |b| format!(", before {b}")))]
    Interrupted {
        /// Nodes searched by then.
        nodes: u64,
        /// What was not done yet, if the message says.
        before: Option<String>,
    },
    /// Stopped by Ctrl-C (or SIGTERM) during a step that counts no nodes.
    #[error("interrupted while {0}")]
    InterruptedWhile(String),
    /// A report could not be written as JSON.
    #[error("cannot write JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// Standard output could not be written.
    #[error("cannot write the output: {0}")]
    Output(#[source] std::io::Error),
    /// The judge's answer could not be written.
    #[error("cannot write the answer: {0}")]
    Answer(#[source] std::io::Error),
    /// An argument, or a combination of them, that the command refuses; the message, made
    /// where the check is, says which and why.
    #[error("{0}")]
    Invalid(String),
}

impl CliError {
    /// The command's own refusal, `msg`.
    pub fn invalid(msg: impl Into<String>) -> CliError {
        CliError::Invalid(msg.into())
    }
}

/// A subcommand's outcome: `Err` says what is wrong, in one line.
pub type CliResult = Result<(), CliError>;

/// How a caller watches and stops a subcommand's work: the command's own way
/// ([`Control::command`]: Ctrl-C and SIGTERM, standard error) or another front end's (the
/// Python package raises `stop` on KeyboardInterrupt and shows progress with a callback).
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// Raised to stop the work early; the report then says what was done or proved.
    pub stop: &'a AtomicBool,
    /// How a search's progress is shown.
    pub display: crate::progress::Display<'a>,
    /// Told at each CFR checkpoint: the iterations run and the exploitability.
    pub checkpoint: Option<&'a (dyn Fn(u64, f64) + Sync)>,
}

impl Control<'_> {
    /// True once the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Control<'static> {
    /// The command's control: the flag Ctrl-C and SIGTERM raise ([`crate::interrupt`]), and
    /// progress on standard error as `--quiet` and `--progress-every` ask.
    pub fn command(quiet: bool, every: Option<f64>) -> Self {
        Control {
            stop: crate::interrupt::install(),
            display: crate::progress::Display::choose(quiet, every),
            checkpoint: None,
        }
    }

    /// A control that nothing raises and nothing watches.
    pub fn none() -> Self {
        static NEVER: AtomicBool = AtomicBool::new(false);
        Control {
            stop: &NEVER,
            display: crate::progress::Display::Off,
            checkpoint: None,
        }
    }
}

/// What a subcommand found, before it is shown: its report as text and as the JSON of
/// `--json`, and the error it ends with once the report is out (a search stopped before it
/// settled its value: the report says what it proved).
#[derive(Debug)]
pub struct Outcome {
    /// The text report, ending with a newline.
    pub text: String,
    /// The report as `--json` prints it.
    pub json: String,
    /// The error after the report, if any.
    pub after: Option<CliError>,
}

impl Outcome {
    /// Prints the report (JSON if `json`) on standard output, then returns the error after
    /// it, if any.
    pub fn print(self, json: bool) -> CliResult {
        if json {
            println!("{}", self.json);
        } else {
            print!("{}", self.text);
        }
        match self.after {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The transposition table of `mib` MiB, or a one-line error naming the size and the memory
/// available (see [`cutoff::tt::TranspositionTable::try_new`]): never an abort.
pub fn table(mib: usize) -> Result<cutoff::tt::TranspositionTable, CliError> {
    Ok(cutoff::tt::TranspositionTable::try_new(mib)?)
}

/// The most threads `--threads` accepts: 4 per core, and at least 16 on any machine (for
/// experiments with more threads than cores). More only slow every search down, the threads
/// taking turns on the cores, and a slip like `--threads 1024` would start a thousand.
pub fn max_threads() -> usize {
    (4 * cores()).max(16)
}

/// The thread count asked for, or every core; an error below 1 or above [`max_threads`].
pub fn threads(asked: Option<usize>) -> Result<usize, CliError> {
    let n = asked.unwrap_or_else(cores);
    let max = max_threads();
    if n == 0 {
        return Err(CliError::NoThreads);
    }
    if n > max {
        return Err(CliError::TooManyThreads {
            asked: n,
            max,
            cores: cores(),
        });
    }
    Ok(n)
}

/// clap's rendering of a usage error, each line passed through
/// [`error_line`](crate::message::error_line): unchanged
/// unless a line quotes input with control characters or runs over [`MAX_ERROR_BYTES`](crate::message::MAX_ERROR_BYTES).
pub fn usage_text(rendered: &str) -> String {
    let mut out: String = rendered
        .lines()
        .map(crate::message::error_line)
        .collect::<Vec<_>>()
        .join("\n");
    if rendered.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// YBWC's split thresholds, shared by `solve` and `suite` (tuning knobs; the defaults are
/// [`cutoff::solver::ParallelConfig`]'s).
#[derive(clap::Args)]
pub struct SplitArgs {
    /// YBWC splits only with at least this many plies left (tuning).
    #[arg(id = "split_depth", long = "split-depth", value_name = "N", default_value_t = cutoff::solver::ParallelConfig::default().min_split_depth)]
    pub depth: usize,
    /// YBWC splits only after an eldest brother of at least this many nodes (tuning).
    #[arg(id = "split_nodes", long = "split-nodes", value_name = "N", default_value_t = cutoff::solver::ParallelConfig::default().min_split_nodes)]
    pub nodes: u64,
    /// YBWC searches this many brothers serially before splitting the rest (tuning).
    #[arg(id = "split_after", long = "split-after", value_name = "N", default_value_t = cutoff::solver::ParallelConfig::default().eldest)]
    pub after: usize,
}

impl SplitArgs {
    /// The parallel settings for `mode` and `weak` with these thresholds.
    pub fn config(&self, mode: cutoff::solver::Mode, weak: bool) -> cutoff::solver::ParallelConfig {
        cutoff::solver::ParallelConfig {
            mode,
            weak,
            min_split_depth: self.depth,
            min_split_nodes: self.nodes,
            eldest: self.after,
            ..Default::default()
        }
    }
}

/// The search settings of `solve`, which both of its models take (the two-player engine's
/// searches and those of [`cutoff::multi`]; see `solve_multi`).
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Search algorithm (default: the game's fastest exact one; see docs/guide/solve.md). Two-player
    /// games: minimax, negamax, alphabeta, alphabeta-hard, veb, ab, pvs, mtdf, solve, theory.
    /// Pig and chance trees: expectiminimax, expectinegamax, star1, star2 (the default for two
    /// players), maxn (the default for more), maxn-plain, paranoid, brs.
    #[arg(long, value_parser = crate::position::parse_any_algo)]
    pub algo: Option<AnyAlgo>,
    /// Weak solving (win, draw or loss only) with the null-window solver.
    #[arg(long)]
    pub weak: bool,
    /// Transposition table size in MiB (pvs, mtdf, solve and budgeted searches).
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Time budget in milliseconds: iterative deepening with PVS, keeping the last finished depth.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node budget: iterative deepening with PVS, keeping the last finished depth (hard on
    /// one thread; a few percent over at most on several).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Threads for pvs, solve and budgets (default: one thread first, every core once the
    /// search proves large); 1 runs the serial search.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress line on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print a progress line on standard error every SECS seconds (for logs and batch jobs).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub progress_every: Option<f64>,
}

/// The thread setting of `solve`: the count asked for, checked, or automatic (one thread
/// first, every core once the search proves large; see [`cutoff::solver::Threads::Auto`]).
pub fn thread_policy(asked: Option<usize>) -> Result<cutoff::solver::Threads, CliError> {
    match asked {
        None => Ok(cutoff::solver::Threads::Auto),
        Some(n) => threads(Some(n)).map(cutoff::solver::Threads::Exactly),
    }
}

/// The table size asked for with `--tt-mb`, checked against the accepted range (the memory
/// the machine has is checked when the table is made).
pub fn table_mib(mib: usize) -> Result<usize, CliError> {
    if mib == 0 || mib > 1 << 20 {
        return Err(CliError::TableSize(mib));
    }
    Ok(mib)
}

/// `--table-file FILE` and `--table-file-nodes N`: keep the expensive table entries across
/// runs ([`cutoff::tt::file`]).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TableFileArgs {
    /// Load the table entries kept in FILE before searching, and append to it every entry
    /// whose subtree takes at least --table-file-nodes nodes, as the search finds it: a
    /// solve stopped and started again does not redo its hardest subtrees. The file names
    /// its board and rules; one for another is refused (Connect Four).
    #[arg(long, value_name = "FILE")]
    pub table_file: Option<std::path::PathBuf>,
    /// The nodes a subtree must take for its entry to go into --table-file.
    #[arg(long, value_name = "N", default_value_t = cutoff::tt::file::DEFAULT_MIN_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub table_file_nodes: u64,
}

/// A table file in use: what was loaded from it, and the recorder appending to it.
pub struct TableFile {
    /// What the load found.
    pub loaded: cutoff::tt::file::Loaded,
    /// Appends the entries the search keeps.
    pub recorder: cutoff::tt::file::Recorder,
}

impl TableFileArgs {
    /// Loads the file into `tt` and starts recording, if a file was given: for a game with
    /// a table identity (`identity`, else an error naming `game`).
    pub fn open(
        &self,
        game: &str,
        identity: Option<String>,
        tt: &cutoff::tt::TranspositionTable,
    ) -> Result<Option<TableFile>, CliError> {
        let Some(path) = &self.table_file else {
            return Ok(None);
        };
        let Some(id) = identity else {
            return Err(CliError::invalid(format!(
                "--table-file keeps Connect Four tables; {game} keeps none"
            )));
        };
        let loaded = cutoff::tt::file::load(path, &id, tt)?;
        let recorder = cutoff::tt::file::Recorder::start(path, &id, self.table_file_nodes)?;
        Ok(Some(TableFile { loaded, recorder }))
    }
}

/// Reads a positive number of seconds, at most a day (`--progress-every`).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most 86400, got '{}'",
            cutoff::game::quote(s)
        )),
    }
}

/// Reads a window `A,B` with A < B (`split --window`, `solve-shard --window`).
pub fn parse_window(s: &str) -> Result<[cutoff::Value; 2], String> {
    let bad = || {
        format!(
            "expected a window A,B of two integers with A < B, got '{}'",
            cutoff::game::quote(s)
        )
    };
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let a: cutoff::Value = a.trim().parse().map_err(|_| bad())?;
    let b: cutoff::Value = b.trim().parse().map_err(|_| bad())?;
    if a >= b || a.abs() > crate::shard::MAX_WINDOW || b.abs() > crate::shard::MAX_WINDOW {
        return Err(bad());
    }
    Ok([a, b])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_capped_at_a_multiple_of_the_cores() {
        let max = max_threads();
        assert!(max >= 16 && max >= 4 * cores());
        assert_eq!(threads(Some(max)).unwrap(), max);
        let e = threads(Some(max + 1)).unwrap_err();
        assert!(matches!(e, CliError::TooManyThreads { .. }), "{e:?}");
        assert!(e.to_string().contains("too many"), "{e}");
        assert!(matches!(threads(Some(0)), Err(CliError::NoThreads)));
        assert_eq!(threads(None).unwrap(), cores());
    }

    #[test]
    fn usage_text_keeps_clap_s_lines_and_makes_them_safe() {
        let clap = "error: invalid value 'x' for '--algo'\n\nUsage: cutoff\n";
        assert_eq!(usage_text(clap), clap);
        let bad = "error: invalid value '\u{1b}[31m' for '--root'\n\nUsage: cutoff\n";
        assert_eq!(
            usage_text(bad),
            "error: invalid value '\\x1b[31m' for '--root'\n\nUsage: cutoff\n"
        );
    }
}
