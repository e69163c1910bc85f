//! One way to run a search, serial or parallel: [`Solver`] gathers the settings (algorithm,
//! depth, table, threads, budgets, stop flag, progress), checks them, picks serial or
//! parallel and returns one [`Report`] that says what the value is: exact, limited by a
//! depth, or only bounded because the search was stopped.
//!
//! ```
//! use cutoff::games::perfect::connect4::Connect4;
//! use cutoff::solver::{Solver, Verdict};
//!
//! let game = Connect4::from_moves("4453").unwrap();
//! let out = Solver::new(&game).threads(1).table_mib(16).run().unwrap();
//! assert!(matches!(out.verdict, Verdict::Exact(_)));
//! ```
//!
//! With [`Threads::Auto`] (the default), a search that uses the table starts on one thread
//! and goes parallel only if it is still running after [`AUTO_SERIAL_NODES`] nodes, keeping
//! the table it filled: small searches never pay for starting the parallel search, and large
//! ones lose a few milliseconds at most.

use crate::game::{Game, Value};
use crate::parallel::{parallel_iterative_deepening, parallel_search, ParallelResult};
use crate::profile::Profile;
use crate::search::{iterative_deepening, Algorithm, Limits, Observer, Searcher, Stats};

// The settings and progress types of the solver's builder, at home beside it.
use crate::clock::Instant;
pub use crate::parallel::{Mode, ParallelConfig};
pub use crate::search::{MoveProgress, Progress, Snapshot};
use crate::tt::file::Keep;
use crate::tt::{TableError, TranspositionTable, TtStats};

mod analyse;
pub use analyse::{Analysis, MoveScore};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Nodes a [`Threads::Auto`] search runs on one thread before it goes parallel: about 2.5 ms
/// of Connect Four solving, many times the cost of starting the parallel search (tens of
/// microseconds). With 131,072 instead, Begin-Medium's first 200 positions took 48 ms a
/// position against 41 ms on two threads; with this, 38.5 ms against 36.0 ms, while End-Easy,
/// Middle-Easy and Middle-Medium stay as fast as on one thread.
pub const AUTO_SERIAL_NODES: u64 = 1 << 15;

/// How many threads a [`Solver`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// One thread first; every core once the search has shown it is large (see the module).
    Auto,
    /// Exactly this many (1: the serial search).
    Exactly(usize),
}

/// What the value of an [`Report`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game-theoretic value of the position (its sign only, for a weak solve).
    Exact(Value),
    /// The value of a search to `depth` plies, evaluated at the horizon: not the
    /// game-theoretic value.
    DepthLimited {
        /// The value at that depth.
        value: Value,
        /// Plies searched.
        depth: usize,
    },
    /// A search stopped before it settled the value; it proved `lo <= value <= hi` (the
    /// game's whole range if it proved nothing).
    Bounds {
        /// Lower bound on the value.
        lo: Value,
        /// Upper bound on the value.
        hi: Value,
    },
}

impl Verdict {
    /// The value, if the search settled one (exact or depth-limited).
    pub fn value(self) -> Option<Value> {
        match self {
            Verdict::Exact(v) | Verdict::DepthLimited { value: v, .. } => Some(v),
            Verdict::Bounds { .. } => None,
        }
    }

    /// True for [`Verdict::Exact`].
    pub fn is_exact(self) -> bool {
        matches!(self, Verdict::Exact(_))
    }
}

/// Why a search ended before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The stop flag was raised (Ctrl-C, SIGTERM, the caller).
    Interrupted,
    /// The node or time budget ran out.
    Budget,
}

/// The outcome of a [`Solver`] run.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// What the value is.
    pub verdict: Verdict,
    /// The best root move found (`None` at a terminal root, or when nothing finished).
    pub best_move: Option<M>,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Counts over every thread, iteration and probe.
    pub stats: Stats,
    /// Table counters (zero where no table was used).
    pub tt: TtStats,
    /// The algorithm that ran (iterative deepening runs PVS).
    pub algo: Algorithm,
    /// Threads that searched: 1, or the pool's size if the search went parallel.
    pub threads: usize,
    /// Nodes searched by each thread (one entry for a serial search).
    pub nodes_per_thread: Vec<u64>,
    /// Why the search stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// Where the work went, ply by ply, if [`Solver::profile`] asked for it.
    pub profile: Option<Profile>,
    /// The bounds on the game-theoretic value that a [`Verdict::DepthLimited`] value proves,
    /// where the game can tell ([`Game::horizon_bounds`]); `None` for other verdicts, and
    /// through a window or weak solving, whose depth-limited values may be bounds of that
    /// value rather than the value.
    pub horizon_bounds: Option<(Value, Value)>,
}

/// A bad setting, or a resource the search could not get.
#[derive(Debug)]
pub enum SolveError {
    /// The transposition table could not be allocated.
    Table(TableError),
    /// The thread pool could not be started.
    Threads(String),
    /// Settings that do not go together (weak solving with an algorithm other than `solve`,
    /// zero threads).
    Settings(String),
    /// A search to the end of the game met a position at the game's cap, `max_plies` of the
    /// root, that has no outcome: the game does not end within the plies
    /// [`Game::max_plies`] promises (its moves can cycle, or the bound is too small), so the
    /// search proved nothing. A search to a depth below the cap never gives this.
    Unfinished {
        /// `max_plies` of the root.
        max_plies: usize,
        /// The moves from the root to that position, each as its `Debug` text (the first
        /// such line any thread met).
        line: Vec<String>,
    },
}

/// At most this many moves of an [`SolveError::Unfinished`] line are written out, the first
/// and last halves of them, so that the message stays one line.
const LINE_SHOWN: usize = 10;

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Table(e) => write!(f, "{e}"),
            SolveError::Threads(e) => write!(f, "cannot start the threads: {e}"),
            SolveError::Settings(e) => f.write_str(e),
            SolveError::Unfinished { max_plies, line } => {
                let shown = if line.len() <= LINE_SHOWN {
                    line.join(" ")
                } else {
                    let half = LINE_SHOWN / 2;
                    format!(
                        "{} ... {} ({} moves)",
                        line[..half].join(" "),
                        line[line.len() - half..].join(" "),
                        line.len()
                    )
                };
                let shown = if line.is_empty() {
                    "at the root".to_string()
                } else {
                    format!("after the line {shown}")
                };
                write!(
                    f,
                    "the game did not end within max_plies = {max_plies} plies: {shown}, a \
                     position has no outcome; max_plies must bound every line (a game that \
                     can repeat needs a move counter, or an outcome on repetition)"
                )
            }
        }
    }
}

impl std::error::Error for SolveError {}

impl From<TableError> for SolveError {
    fn from(e: TableError) -> Self {
        SolveError::Table(e)
    }
}

/// The table a [`Solver`] searches with.
#[derive(Clone, Copy)]
enum Table<'a> {
    /// A new table of this many MiB, made for the run.
    Mib(usize),
    /// The caller's table, kept between runs.
    Shared(&'a TranspositionTable),
}

impl<'a> Table<'a> {
    /// The table to search with: the shared one, or a new one of the asked size kept in
    /// `owned`, which the caller holds for as long as it searches.
    fn open<'b>(
        self,
        owned: &'b mut Option<TranspositionTable>,
    ) -> Result<&'b TranspositionTable, SolveError>
    where
        'a: 'b,
    {
        Ok(match self {
            Table::Shared(tt) => tt,
            Table::Mib(mib) => owned.insert(TranspositionTable::try_new(mib)?),
        })
    }
}

/// A search to run: build it with the setters, then [`Solver::run`].
pub struct Solver<'a, G: Game> {
    game: &'a G,
    root: G::Pos,
    algo: Option<Algorithm>,
    depth: Option<usize>,
    weak: bool,
    window: Option<(Value, Value)>,
    threads: Threads,
    pool: Option<&'a rayon::ThreadPool>,
    parallel: ParallelConfig,
    table: Table<'a>,
    time: Option<Duration>,
    nodes: Option<u64>,
    exact_nodes: Option<u64>,
    exact_time: Option<Duration>,
    stop: Option<&'a AtomicBool>,
    progress: Option<&'a Progress>,
    keep: Option<&'a Keep>,
    known: Option<Known<'a, G>>,
    move_progress: Option<&'a MoveProgress>,
    want_move: bool,
    profile: bool,
}

/// Exact values known without a search (see [`Solver::known_values`]).
type Known<'a, G> = &'a (dyn Fn(&<G as Game>::Pos) -> Option<Value> + Sync + 'a);

impl<'a, G: Game> Solver<'a, G> {
    /// A search of `game`'s initial position: exact solving with the null-window solver,
    /// [`Threads::Auto`], a 64 MiB table, no budget.
    pub fn new(game: &'a G) -> Self {
        Solver {
            game,
            root: game.initial(),
            algo: None,
            depth: None,
            weak: false,
            window: None,
            threads: Threads::Auto,
            pool: None,
            parallel: ParallelConfig::default(),
            table: Table::Mib(64),
            time: None,
            nodes: None,
            exact_nodes: None,
            exact_time: None,
            stop: None,
            progress: None,
            keep: None,
            known: None,
            move_progress: None,
            want_move: true,
            profile: false,
        }
    }

    /// Searches `root` instead of the initial position.
    pub fn position(mut self, root: G::Pos) -> Self {
        self.root = root;
        self
    }

    /// The algorithm (default: [`Algorithm::Solve`]).
    pub fn algorithm(mut self, algo: Algorithm) -> Self {
        self.algo = Some(algo);
        self
    }

    /// Searches at most `depth` plies, evaluating at the horizon (`None`: to the end).
    pub fn depth(mut self, depth: Option<usize>) -> Self {
        self.depth = depth;
        self
    }

    /// Weak solving: win, draw or loss only (the null-window solver only).
    pub fn weak(mut self, weak: bool) -> Self {
        self.weak = weak;
        self
    }

    /// Bisects only `lo..=hi` (the null-window solver): the verdict is exact when the value
    /// lies strictly between them, else the bound proved (at most `lo`, or at least `hi`).
    pub fn window(mut self, window: Option<(Value, Value)>) -> Self {
        self.window = window;
        self
    }

    /// Whether to find a best move and its line once the value is known (default true). A
    /// test that needs only the value or bound skips the searches that rebuild the line.
    pub fn want_move(mut self, want: bool) -> Self {
        self.want_move = want;
        self
    }

    /// Exactly `n` threads (1: serial).
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = Threads::Exactly(n);
        self
    }

    /// The thread setting.
    pub fn thread_policy(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// Runs the parallel part on `pool` instead of a pool made for the run (its size is then
    /// the thread count of [`Threads::Auto`]).
    pub fn pool(mut self, pool: &'a rayon::ThreadPool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// How the threads share the work, and YBWC's split thresholds (its `depth`, `weak` and
    /// `want_move` are the solver's own).
    pub fn parallel(mut self, config: ParallelConfig) -> Self {
        self.parallel = config;
        self
    }

    /// A new table of `mib` MiB for the run.
    pub fn table_mib(mut self, mib: usize) -> Self {
        self.table = Table::Mib(mib);
        self
    }

    /// Searches with the caller's table (kept warm between runs).
    pub fn table(mut self, tt: &'a TranspositionTable) -> Self {
        self.table = Table::Shared(tt);
        self
    }

    /// A time budget: iterative deepening, keeping the last finished depth.
    pub fn time(mut self, budget: Option<Duration>) -> Self {
        self.time = budget;
        self
    }

    /// A node budget (hard on one thread; on several, overshot by at most a few nodes per
    /// thread): iterative deepening, keeping the last finished depth.
    pub fn nodes(mut self, budget: Option<u64>) -> Self {
        self.nodes = budget;
        self
    }

    /// Stops an exact solve (no [`Solver::nodes`] or time budget) after about this many
    /// nodes, with the bounds it proved so far ([`Verdict::Bounds`], [`Stop::Budget`]): a
    /// job with a share of a larger proof (`crate::proof`), or one move's share of a
    /// budgeted [`Solver::analyse`]. The search checks it every few thousand nodes (on
    /// several threads, each overshoots it by a few nodes).
    pub fn exact_nodes(mut self, cap: Option<u64>) -> Self {
        self.exact_nodes = cap;
        self
    }

    /// Stops an exact solve (no [`Solver::nodes`] or time budget) after about this long, as
    /// [`Solver::exact_nodes`] does after its nodes: the value if it was proved in time, else
    /// the bounds proved so far.
    pub fn exact_time(mut self, cap: Option<Duration>) -> Self {
        self.exact_time = cap;
        self
    }

    /// Stops when `flag` is raised (by a signal handler, another thread).
    pub fn stop_flag(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Publishes nodes, the solver's window and finished depths to `progress` while running.
    pub fn progress(mut self, progress: &'a Progress) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Hands the entries of subtrees that took at least `keep`'s threshold of nodes to it, to
    /// be written to a table file as they are found ([`crate::tt::file::Recorder`]).
    pub fn keep(mut self, keep: &'a Keep) -> Self {
        self.keep = Some(keep);
        self
    }

    /// Exact values known without a search, an opening book's say: [`Solver::analyse`] looks
    /// each move's position up with `known` and searches it only where that gives `None`.
    /// The values are from the side to move at the position looked up, and are believed.
    pub fn known_values(mut self, known: Known<'a, G>) -> Self {
        self.known = Some(known);
        self
    }

    /// Publishes what [`Solver::analyse`] has done into `progress`.
    pub fn move_progress(mut self, progress: &'a MoveProgress) -> Self {
        self.move_progress = Some(progress);
        self
    }

    /// Profiles the search: the [`Report`] then says how the nodes of each ply ended
    /// ([`Profile`]). A profile is taken on one thread, of a search without a budget.
    pub fn profile(mut self, profile: bool) -> Self {
        self.profile = profile;
        self
    }

    /// Runs the search.
    pub fn run(self) -> Result<Report<G::Move>, SolveError> {
        let budget = self.time.is_some() || self.nodes.is_some();
        let algo = if budget {
            Algorithm::Pvs
        } else {
            self.algo.unwrap_or(Algorithm::Solve)
        };
        if self.weak && (algo != Algorithm::Solve || budget) {
            return Err(SolveError::Settings(format!(
                "weak solving needs the null-window solver (solve), not {}",
                if budget { "a budget" } else { algo.name() }
            )));
        }
        if self.window.is_some() && (self.weak || algo != Algorithm::Solve || budget) {
            return Err(SolveError::Settings(
                "a window needs the null-window solver (solve), exact, without a budget".into(),
            ));
        }
        if self.threads == Threads::Exactly(0) {
            return Err(SolveError::Settings("0 threads asked for".into()));
        }
        if self.profile && (budget || matches!(self.threads, Threads::Exactly(n) if n > 1)) {
            return Err(SolveError::Settings(
                "a profile is taken of a search on one thread, without a budget".into(),
            ));
        }
        let mut owned = None;
        let tt = self.table.open(&mut owned)?;
        // Our own progress, if the caller gave none: the proven bounds of a stopped exact
        // solve are read from it.
        let local = Progress::new(self.game.value_range());
        let progress = self.progress.unwrap_or(&local);
        // A line left by an earlier run with the caller's progress is not this run's.
        progress.take_unfinished();
        // A game that broke its `max_plies` promise in any search below, on any thread: the
        // search proved nothing, whatever it returned (a racing thread may have finished on
        // table entries built over that position).
        let unfinished = || match progress.take_unfinished() {
            Some((max_plies, line)) => Err(SolveError::Unfinished { max_plies, line }),
            None => Ok(()),
        };
        let start = Instant::now();
        // An exact solve's own time cap (`exact_time`) ends it as a budget does, with bounds.
        let exact_deadline = if budget {
            None
        } else {
            self.exact_time.map(|t| start + t)
        };
        let limits = Limits {
            nodes: self.nodes,
            deadline: self.time.map(|t| start + t).or(exact_deadline),
            stop: self.stop,
            progress: Some(progress),
            keep: self.keep,
        };
        let full = self.game.max_plies(&self.root);
        let horizon = self.depth.map_or(full, |d| d.min(full));
        let parallel_algo = budget || matches!(algo, Algorithm::Pvs | Algorithm::Solve);
        let want = match self.threads {
            Threads::Exactly(n) => n,
            Threads::Auto => self.pool.map_or_else(
                || {
                    std::thread::available_parallelism()
                        .map(|n| n.get())
                        .unwrap_or(1)
                },
                |p| p.current_num_threads(),
            ),
        };
        let config = ParallelConfig {
            weak: self.weak,
            window: self.window,
            want_move: self.want_move,
            depth: self.depth,
            ..self.parallel
        };
        let mut out = Report {
            verdict: Verdict::Bounds { lo: 0, hi: 0 },
            best_move: None,
            pv: Vec::new(),
            stats: Stats::default(),
            tt: TtStats::default(),
            algo,
            threads: 1,
            nodes_per_thread: Vec::new(),
            stopped: None,
            elapsed: Duration::ZERO,
            profile: None,
            horizon_bounds: None,
        };
        let interrupted = || {
            self.stop
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        };
        let stop_reason = || {
            if interrupted() {
                Stop::Interrupted
            } else {
                Stop::Budget
            }
        };

        if budget {
            let go_parallel = want > 1 && !(self.threads == Threads::Auto && small_budget(&self));
            let d = if go_parallel {
                let owned_pool;
                let pool = match self.pool {
                    Some(p) => p,
                    None => {
                        owned_pool = make_pool(want)?;
                        &owned_pool
                    }
                };
                out.threads = pool.current_num_threads();
                parallel_iterative_deepening(
                    self.game, self.root, tt, pool, config, limits, self.depth,
                )
            } else {
                iterative_deepening(self.game, self.root, tt, limits, self.depth)
            };
            unfinished()?;
            out.stats = d.stats;
            out.tt = d.tt;
            out.nodes_per_thread = vec![d.stats.nodes];
            let all_done = d.last.as_ref().is_some_and(|l| l.depth >= horizon);
            if !all_done {
                out.stopped = Some(stop_reason());
            }
            match d.last {
                Some(last) => {
                    out.verdict = if last.exact {
                        Verdict::Exact(last.value)
                    } else {
                        Verdict::DepthLimited {
                            value: last.value,
                            depth: last.depth,
                        }
                    };
                    out.best_move = last.best_move;
                    out.pv = last.pv;
                }
                None => {
                    let (lo, hi) = self.game.value_range();
                    out.verdict = Verdict::Bounds { lo, hi };
                }
            }
            out.horizon_bounds = self.horizon_bounds(out.verdict);
            out.elapsed = start.elapsed();
            return Ok(out);
        }

        let serial_first = match self.threads {
            Threads::Exactly(n) => n <= 1 || !parallel_algo,
            Threads::Auto => true,
        };
        // A profile is taken on one thread: an automatic choice of threads stays serial.
        let auto_parallel = !self.profile && parallel_algo && want > 1;
        let mut finished = false;
        if serial_first {
            let auto = match self.threads {
                Threads::Auto if auto_parallel => Some(AUTO_SERIAL_NODES),
                _ => None,
            };
            let cap = match (auto, self.exact_nodes) {
                (Some(a), Some(n)) => Some(a.min(n)),
                (a, n) => a.or(n),
            };
            let limits = Limits {
                nodes: cap,
                ..limits
            };
            let serial = if self.profile {
                let (serial, profile) = self.serial(algo, tt, limits, Profile::default());
                out.profile = Some(profile);
                serial
            } else {
                self.serial(algo, tt, limits, crate::search::NoObserver).0
            };
            unfinished()?;
            out.stats = serial.stats;
            out.tt = serial.tt;
            out.nodes_per_thread = vec![out.stats.nodes];
            if !serial.stopped {
                finished = true;
                out.verdict = settled(serial.value, horizon, full);
                out.best_move = serial.best;
                out.pv = serial.pv;
            } else if auto.is_none()
                || interrupted()
                || self.exact_nodes.is_some_and(|n| out.stats.nodes >= n)
                || exact_deadline.is_some_and(|d| Instant::now() >= d)
            {
                // A cap the caller set ends the search where it stands, as a budget does;
                // only the automatic one hands it on to the parallel search.
                out.stopped = Some(stop_reason());
                let snap = progress.snapshot();
                out.verdict = Verdict::Bounds {
                    lo: snap.lo,
                    hi: snap.hi,
                };
                out.elapsed = start.elapsed();
                return Ok(out);
            }
        }
        if !finished {
            let owned_pool;
            let pool = match self.pool {
                Some(p) => p,
                None => {
                    owned_pool = make_pool(want)?;
                    &owned_pool
                }
            };
            // What is left of the caller's cap after the serial start.
            let spent = out.stats.nodes;
            let limits = Limits {
                nodes: self
                    .exact_nodes
                    .map(|n| n.saturating_sub(spent).max(1))
                    .or(limits.nodes),
                ..limits
            };
            let r: ParallelResult<G::Move> =
                parallel_search(self.game, self.root, algo, tt, pool, config, limits);
            unfinished()?;
            out.stats.add(&r.stats);
            out.tt.add(&r.tt);
            out.threads = pool.current_num_threads();
            let serial_nodes = out.nodes_per_thread.first().copied().unwrap_or(0);
            out.nodes_per_thread = r.nodes_per_thread;
            // The serial start ran on the calling thread: count it as the first thread's.
            if let Some(first) = out.nodes_per_thread.first_mut() {
                *first += serial_nodes;
            }
            if r.stopped {
                out.stopped = Some(stop_reason());
                let snap = progress.snapshot();
                out.verdict = Verdict::Bounds {
                    lo: snap.lo,
                    hi: snap.hi,
                };
            } else {
                out.verdict = settled(r.value, horizon, full);
                out.best_move = r.best_move;
                out.pv = r.pv;
            }
        }
        if let (Some((a, b)), Verdict::Exact(v)) = (self.window, out.verdict) {
            // A result on the window's edge is the bound it proved (see `Searcher::window`).
            let (lo, hi) = self.game.value_range();
            if v <= a {
                out.verdict = Verdict::Bounds { lo, hi: v };
            } else if v >= b {
                out.verdict = Verdict::Bounds { lo: v, hi };
            }
        }
        out.horizon_bounds = self.horizon_bounds(out.verdict);
        out.elapsed = start.elapsed();
        Ok(out)
    }

    /// What `verdict` proves of the root's value, if depth-limited ([`Report::horizon_bounds`]).
    fn horizon_bounds(&self, verdict: Verdict) -> Option<(Value, Value)> {
        match verdict {
            Verdict::DepthLimited { value, depth } if self.window.is_none() && !self.weak => {
                self.game.horizon_bounds(&self.root, depth, value)
            }
            _ => None,
        }
    }
}

/// What a serial search found (see [`Solver::serial`]).
struct Serial<M> {
    value: Value,
    best: Option<M>,
    pv: Vec<M>,
    stats: Stats,
    tt: TtStats,
    stopped: bool,
}

impl<'a, G: Game> Solver<'a, G> {
    /// Runs `algo` serially on the calling thread under `limits`, with the table `tt` if the
    /// algorithm uses one, reporting to `obs`; returns what it found and the observer.
    fn serial<O: Observer<G>>(
        &self,
        algo: Algorithm,
        tt: &'a TranspositionTable,
        limits: Limits<'a>,
        obs: O,
    ) -> (Serial<G::Move>, O) {
        let mut s = Searcher::with_observer(self.game, self.root, self.depth, obs)
            .weak(self.weak)
            .window(self.window)
            .want_move(self.want_move)
            .limits(limits);
        if algo.uses_table() {
            s = s.table(tt);
        }
        let (value, best) = s.run(algo);
        let serial = Serial {
            value,
            best,
            pv: s.pv().to_vec(),
            stats: s.stats(),
            tt: s.tt_stats(),
            stopped: s.stopped(),
        };
        (serial, s.into_observer())
    }
}

/// A finished search's value: exact if it saw the end of the game.
fn settled(value: Value, horizon: usize, full: usize) -> Verdict {
    if horizon >= full {
        Verdict::Exact(value)
    } else {
        Verdict::DepthLimited {
            value,
            depth: horizon,
        }
    }
}

/// Whether a budget is too small for the parallel search to pay ([`Threads::Auto`]).
fn small_budget<G: Game>(s: &Solver<'_, G>) -> bool {
    s.nodes.is_some_and(|n| n <= 8 * AUTO_SERIAL_NODES)
        || s.time.is_some_and(|t| t <= Duration::from_millis(20))
}

fn make_pool(threads: usize) -> Result<rayon::ThreadPool, SolveError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SolveError::Threads(e.to_string()))
}
