//! The arguments several subcommands share, as clap reads them, and their conversion into
//! the application's options ([`cutoff_app::options`], [`cutoff_app::position`]); the
//! value types clap checks, lists and suggests from (games, algorithms, backends).

use cutoff::games::perfect::random_tree::Order;
use cutoff::{Algorithm, Player};
use cutoff_app::distribute::Backend;
use cutoff_app::options::{SearchOptions, SplitOptions, TableFileOptions};
use cutoff_app::position::{
    parse_any_algo, parse_board, parse_order, parse_root, AnyAlgo, GameKind, GameOptions,
    ShapeOptions,
};

pub use cutoff_app::options::{parse_seconds, parse_window};

/// Reads how the threads share the work (`--parallel`: ybwc, abdada, lazysmp or root).
pub fn parse_mode(s: &str) -> Result<cutoff::solver::Mode, String> {
    s.parse()
}

/// A game as a command-line value: the names and one-line help come from the registry
/// ([`cutoff_app::games`]), so clap checks, lists and suggests from the application's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameArg(pub GameKind);

/// Every game, as command-line values.
const GAMES: [GameArg; GameKind::ALL.len()] = {
    let mut out = [GameArg(GameKind::ALL[0]); GameKind::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = GameArg(GameKind::ALL[i]);
        i += 1;
    }
    out
};

impl clap::ValueEnum for GameArg {
    fn value_variants<'a>() -> &'a [Self] {
        &GAMES
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.help()))
    }
}

/// Where `distribute`'s workers run, as a command-line value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// Long-lived worker processes on this machine, over pipes.
    Local,
    /// Long-lived workers as MPI ranks, rank 0 driving (`mpirun`, `srun`; built with the
    /// `mpi` feature).
    Mpi,
    /// Virtual workers in this process on a simulated clock (`--latency`).
    Simulate,
    /// A job array a round on a Slurm cluster (`sbatch --array`, `scancel`).
    Slurm,
    /// A round at a time, each task a process of this machine (the Slurm backend's rounds
    /// without Slurm).
    LocalRounds,
}

impl From<BackendArg> for Backend {
    fn from(b: BackendArg) -> Backend {
        match b {
            BackendArg::Local => Backend::Local,
            BackendArg::Slurm => Backend::Slurm,
            BackendArg::Mpi => Backend::Mpi,
            BackendArg::Simulate => Backend::Simulate,
            BackendArg::LocalRounds => Backend::LocalRounds,
        }
    }
}

/// An algorithm as a command-line value: the names come from the engine's
/// [`Algorithm::ALL`] and [`Algorithm::name`], so the list clap checks, shows and suggests
/// from is the engine's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgoArg(pub Algorithm);

/// Every algorithm, as command-line values.
const ALGOS: [AlgoArg; Algorithm::ALL.len()] = {
    let mut out = [AlgoArg(Algorithm::ALL[0]); Algorithm::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = AlgoArg(Algorithm::ALL[i]);
        i += 1;
    }
    out
};

impl clap::ValueEnum for AlgoArg {
    fn value_variants<'a>() -> &'a [Self] {
        &ALGOS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()))
    }
}

/// A game and its position as the command line gives them, with the options that only the
/// tree games read. Flatten it into a subcommand's arguments (`#[command(flatten)]`).
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// The game.
    #[arg(value_enum)]
    pub game: GameArg,
    /// The position: the number of items (matchsticks, stones), a board of 9 cells
    /// (tictactoe, optional), an adjacency matrix as rows joined by '/' or a file holding it
    /// (control), a tree file (tree), the columns played so far (connect4, optional), the
    /// edges coloured so far like "12 34" (sim, optional). Not used by random.
    pub position: Option<String>,
    /// Random trees: branching factor.
    #[arg(long)]
    pub branching: Option<usize>,
    /// Random trees: the tree's depth in plies.
    #[arg(long)]
    pub depth: Option<usize>,
    /// Random trees: seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random trees: move ordering (random, best-first, worst-first).
    #[arg(long, default_value = "random", value_parser = parse_order)]
    pub order: Order,
    /// Trees: whether the root is a MAX or a MIN node.
    #[arg(long, default_value = "max", value_parser = parse_root)]
    pub root: Player,
    /// Pig: number of players (2 to 8; default 2).
    #[arg(long, allow_negative_numbers = true)]
    pub players: Option<i64>,
    /// Pig: the score that wins (default 100).
    #[arg(long, allow_negative_numbers = true)]
    pub win_score: Option<i64>,
    /// Pig: faces of the die (Piglet: tails comes up one time in FACES; default 6).
    #[arg(long, allow_negative_numbers = true)]
    pub faces: Option<i64>,
    /// Pig: the game ends in a draw after this many moves (rolls and stops).
    #[arg(long, allow_negative_numbers = true)]
    pub horizon: Option<i64>,
    /// Pig: play Piglet, with a coin instead of the die.
    #[arg(long)]
    pub piglet: bool,
    /// Chance trees: outcomes of each chance node.
    #[arg(long)]
    pub outcomes: Option<usize>,
    /// Chance trees: outcome probabilities, uniform (the default) or random.
    #[arg(long)]
    pub probs: Option<String>,
    /// Connect Four's board and rule.
    #[command(flatten)]
    pub shape: BoardArgs,
}

/// `--board WxH` and `--connect K`: the shape of a Connect Four game, for every command that
/// takes a Connect Four position or file.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct BoardArgs {
    /// Connect Four: the board, WIDTHxHEIGHT (default 7x6): both at least 4, and
    /// width x (height + 1) at most 128. On boards wider than 9, separate the columns of the
    /// position with commas.
    #[arg(long, value_parser = parse_board)]
    pub board: Option<(u32, u32)>,
    /// Connect Four: stones in a winning line, 3 to 6 (default 4).
    #[arg(long)]
    pub connect: Option<u32>,
}

impl GameArgs {
    /// The options these arguments ask for.
    pub fn options(&self) -> GameOptions {
        GameOptions {
            game: self.game.0,
            position: self.position.clone(),
            branching: self.branching,
            depth: self.depth,
            seed: self.seed,
            order: self.order,
            root: self.root,
            players: self.players,
            win_score: self.win_score,
            faces: self.faces,
            horizon: self.horizon,
            piglet: self.piglet,
            outcomes: self.outcomes,
            probs: self.probs.clone(),
            shape: self.shape.options(),
        }
    }
}

impl BoardArgs {
    /// The options these arguments ask for.
    pub fn options(&self) -> ShapeOptions {
        ShapeOptions {
            board: self.board,
            connect: self.connect,
        }
    }
}

/// YBWC's split thresholds, shared by `solve` and `suite` (tuning knobs; the defaults are
/// [`cutoff::solver::ParallelConfig`]'s).
#[derive(clap::Args)]
pub struct SplitArgs {
    /// YBWC splits only with at least this many plies left (tuning).
    #[arg(id = "split_depth", long = "split-depth", value_name = "N", default_value_t = cutoff::solver::ParallelConfig::default().min_split_depth)]
    pub depth: usize,
    /// YBWC splits only at most this many plies below the root (tuning).
    #[arg(id = "split_ply", long = "split-ply", value_name = "N", default_value_t = cutoff::solver::ParallelConfig::default().max_split_ply)]
    pub ply: usize,
    /// YBWC splits only after an eldest brother of at least this many nodes (tuning).
    #[arg(id = "split_nodes", long = "split-nodes", value_name = "N", default_value_t = cutoff::solver::ParallelConfig::default().min_split_nodes)]
    pub nodes: u64,
    /// YBWC searches this many brothers serially before splitting the rest (tuning).
    #[arg(id = "split_after", long = "split-after", value_name = "N", default_value_t = cutoff::solver::ParallelConfig::default().eldest)]
    pub after: usize,
}

impl SplitArgs {
    /// The options these arguments ask for.
    pub fn options(&self) -> SplitOptions {
        SplitOptions {
            depth: self.depth,
            ply: self.ply,
            nodes: self.nodes,
            after: self.after,
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
    #[arg(long, value_parser = parse_any_algo)]
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

impl SearchArgs {
    /// The options these arguments ask for (the display's, `quiet` and `progress_every`,
    /// are the command's own).
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            algo: self.algo,
            weak: self.weak,
            tt_mb: self.tt_mb,
            time_ms: self.time_ms,
            nodes: self.nodes,
            threads: self.threads,
        }
    }
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

impl TableFileArgs {
    /// The options these arguments ask for.
    pub fn options(&self) -> TableFileOptions {
        TableFileOptions {
            table_file: self.table_file.clone(),
            table_file_nodes: self.table_file_nodes,
        }
    }
}
