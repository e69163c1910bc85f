//! Parallel alpha-beta on rayon: Young Brothers Wait ([`Mode::Ybwc`]), with Lazy SMP
//! ([`Mode::LazySmp`]) and root splitting ([`Mode::Root`]) as baselines, all sharing one
//! lock-free transposition table and all giving exactly the serial value.
//!
//! The searches themselves are the serial node routine (`search/pvs.rs`), run with a
//! `Task` policy instead of the serial one: the policy is what makes them parallel. Every
//! worker task runs in a [`Searcher`] of its own, taken from a lock-free pool and given back
//! afterwards, so no task allocates in steady state and killer and history tables are never
//! shared: a task stolen by a thread working at another depth brings its own, indexed by
//! absolute ply. Split points get an abort flag from a fixed array; a task checks the flags
//! of every split point above it at every node, so a cutoff anywhere stops everything below
//! it.

mod abdada;
mod deepening;
mod lazysmp;
mod ybwc;

pub use deepening::parallel_iterative_deepening;

use crate::game::{Game, Value};
use crate::search::policy::{Best, Node};
use crate::search::policy::{Brothers, Policy, Split};
use crate::search::{Algorithm, Limits, NoObserver, Searcher, Stats};
use crate::tt::{TranspositionTable, TtStats};
use crossbeam::queue::ArrayQueue;
use crossbeam::utils::CachePadded;
use serde::Serialize;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// How the work is shared among threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// Young Brothers Wait: at every node with enough work left, the eldest child alone
    /// first, then the younger ones in parallel.
    Ybwc,
    /// Lazy SMP: every thread searches the whole root, diverging by move order; the first to
    /// finish answers.
    LazySmp,
    /// Root splitting: the root's moves shared among threads, each subtree searched serially.
    Root,
    /// ABDADA: every thread searches the whole root in one order, putting off the younger
    /// brothers another thread is searching; the first to finish answers.
    Abdada,
}

crate::names::named_choices!(Mode, "parallel mode", String, |m| m, {
    Ybwc => "ybwc",
    LazySmp => "lazysmp",
    Root => "root",
    Abdada => "abdada",
});

/// A driver's answer: value, best move and line; `None` when a limit stopped it.
type RootResult<M> = Option<(Value, Option<M>, Vec<M>)>;

/// The most split points that can be open at once; beyond it a node simply runs serially.
const SLOTS: usize = 4096;
/// The most split points above one task.
const MAX_NEST: usize = 64;

/// The split points above a task, as indices into the shared abort flags.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SplitChain {
    slots: [u16; MAX_NEST],
    len: usize,
}

impl Default for SplitChain {
    fn default() -> Self {
        SplitChain {
            slots: [0; MAX_NEST],
            len: 0,
        }
    }
}

impl SplitChain {
    /// The chain with one more split point below, `None` if it is full.
    fn with(&self, slot: u16) -> Option<SplitChain> {
        let mut c = *self;
        *c.slots.get_mut(c.len)? = slot;
        c.len += 1;
        Some(c)
    }
}

/// State shared by every worker of one parallel search.
pub(crate) struct Shared {
    aborts: Box<[AtomicBool]>,
    free: ArrayQueue<u16>,
    stop: AtomicBool,
    /// Set when a worker met a game that broke its `max_plies` promise
    /// ([`Searcher::unfinished`]): the search proved nothing.
    broken: AtomicBool,
    nodes: AtomicU64,
    node_limit: Option<u64>,
    threads: u64,
    totals: [AtomicU64; 7],
    tt_totals: [AtomicU64; 4],
    /// Split points opened, and tasks run under them.
    splits: AtomicU64,
    tasks: AtomicU64,
}

impl Shared {
    fn new(node_limit: Option<u64>, threads: usize) -> Self {
        let free = ArrayQueue::new(SLOTS);
        for i in 0..SLOTS {
            // The queue was made with room for exactly these.
            let _ = free.push(i as u16);
        }
        Shared {
            aborts: (0..SLOTS).map(|_| AtomicBool::new(false)).collect(),
            free,
            stop: AtomicBool::new(false),
            broken: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit,
            threads: threads.max(1) as u64,
            totals: Default::default(),
            tt_totals: Default::default(),
            splits: AtomicU64::new(0),
            tasks: AtomicU64::new(0),
        }
    }

    /// True if the innermost split point of `chain` was aborted, or the whole search was
    /// stopped: the check made at every node. An abort further up is seen by
    /// [`Shared::aborted`], made every few hundred nodes, or by the innermost split point's
    /// own tasks as they start.
    #[inline]
    pub(crate) fn innermost_aborted(&self, chain: &SplitChain) -> bool {
        self.stop.load(Relaxed)
            || chain.len > 0 && self.aborts[chain.slots[chain.len - 1] as usize].load(Relaxed)
    }

    /// True if any split point of `chain` was aborted, or the whole search was stopped.
    #[inline]
    pub(crate) fn aborted(&self, chain: &SplitChain) -> bool {
        self.stop.load(Relaxed)
            || chain.slots[..chain.len]
                .iter()
                .any(|&s| self.aborts[s as usize].load(Relaxed))
    }

    /// Counts `n` more nodes; true once the node budget is spent.
    pub(crate) fn add_nodes(&self, n: u64) -> bool {
        let total = self.nodes.fetch_add(n, Relaxed) + n;
        self.node_limit.is_some_and(|l| total >= l)
    }

    /// How many nodes a worker may search before its next look at the shared count: `every`
    /// without a node budget; with one, a share of what is left, so that all the workers
    /// together overshoot the budget by a few nodes each, not by `every` each.
    #[inline]
    pub(crate) fn check_every(&self, every: u64) -> u64 {
        match self.node_limit {
            None => every,
            Some(limit) => {
                let left = limit.saturating_sub(self.nodes.load(Relaxed));
                (left / (2 * self.threads)).clamp(1, every)
            }
        }
    }

    /// Stops every worker.
    pub(crate) fn stop_all(&self) {
        self.stop.store(true, Relaxed);
    }

    /// A worker met a game that broke its `max_plies` promise: every worker stops, and no
    /// worker's value is the answer (a racing thread may still finish, on table entries
    /// built over that position).
    pub(crate) fn unfinished(&self) {
        self.broken.store(true, Relaxed);
        self.stop_all();
    }

    /// A free split point with its abort flag cleared, `None` if all are in use.
    fn take_slot(&self) -> Option<u16> {
        let s = self.free.pop()?;
        self.aborts[s as usize].store(false, Relaxed);
        self.splits.fetch_add(1, Relaxed);
        Some(s)
    }

    fn release(&self, slot: u16) {
        // Every slot came from this queue, so there is room for it.
        let _ = self.free.push(slot);
    }

    /// Adds a searcher's counters to the totals (once, when the search is over, or when a
    /// searcher is dropped) and resets them.
    fn harvest<G: Game>(&self, s: &mut Searcher<'_, G>) {
        let (st, tt) = s.take_counts();
        for (t, v) in self.totals.iter().zip([
            st.nodes,
            st.leaves,
            st.cutoffs,
            st.first_move_cutoffs,
            0,
            st.forced,
            st.etc_cutoffs,
        ]) {
            t.fetch_add(v, Relaxed);
        }
        self.totals[4].fetch_max(st.max_ply as u64, Relaxed);
        for (t, v) in self
            .tt_totals
            .iter()
            .zip([tt.probes, tt.hits, tt.stores, tt.replacements])
        {
            t.fetch_add(v, Relaxed);
        }
    }

    fn totals(&self) -> (Stats, TtStats) {
        let t = |i: usize| self.totals[i].load(Relaxed);
        let u = |i: usize| self.tt_totals[i].load(Relaxed);
        (
            Stats {
                nodes: t(0),
                leaves: t(1),
                cutoffs: t(2),
                first_move_cutoffs: t(3),
                max_ply: t(4) as u32,
                forced: t(5),
                etc_cutoffs: t(6),
            },
            TtStats {
                probes: u(0),
                hits: u(1),
                stores: u(2),
                replacements: u(3),
            },
        )
    }
}

/// What a parallel search returns.
#[derive(Clone, Debug)]
pub struct ParallelResult<M> {
    /// The root value (the sign only when weak); meaningless if `stopped`.
    pub value: Value,
    /// A best root move.
    pub best_move: Option<M>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Counts over all threads.
    pub stats: Stats,
    /// Nodes searched by each thread of the pool.
    pub nodes_per_thread: Vec<u64>,
    /// Table counters over all threads.
    pub tt: TtStats,
    /// Split points opened (YBWC, root splitting).
    pub splits: u64,
    /// Tasks run under split points.
    pub tasks: u64,
    /// True if a limit stopped the search before it finished, or a thread met a game that
    /// broke its `max_plies` promise (see [`Searcher::unfinished`]; the solver names the line).
    pub stopped: bool,
}

/// The settings of a parallel search.
#[derive(Clone, Copy, Debug)]
pub struct ParallelConfig {
    /// How the work is shared.
    pub mode: Mode,
    /// Splitting needs at least this many plies left to the horizon (YBWC).
    pub min_split_depth: usize,
    /// ... and an eldest brother whose search took at least this many nodes: the size
    /// estimate that keeps small subtrees serial (depth alone says little where pruning and
    /// the table cut most subtrees down to a handful of nodes).
    pub min_split_nodes: u64,
    /// Brothers searched serially, eldest first, before the others are searched in parallel
    /// (YBWC's "wait" generalised; 1 is classic YBWC).
    pub eldest: usize,
    /// Weak solving (win, draw or loss).
    pub weak: bool,
    /// Also find a best move and its line.
    pub want_move: bool,
    /// Search this many plies deep (`None`: to the end of the game), evaluating at the
    /// horizon; iterative deepening sets it.
    pub depth: Option<usize>,
    /// The null-window solver's window (see [`Searcher::window`]); `None`: the game's range.
    pub window: Option<(Value, Value)>,
    /// Keep every pool thread busy even beyond the machine's cores (see `on_cores`); tests set
    /// it so that they interleave as many threads as they ask for on any machine. Hidden: a
    /// testing knob, not part of the supported API.
    #[doc(hidden)]
    pub oversubscribe: bool,
}

impl Default for ParallelConfig {
    fn default() -> Self {
        ParallelConfig {
            mode: Mode::Ybwc,
            min_split_depth: 4,
            min_split_nodes: 256,
            eldest: 1,
            weak: false,
            want_move: true,
            depth: None,
            window: None,
            oversubscribe: false,
        }
    }
}

/// Searches `root` with `algo` on the threads of `pool`, sharing `tt`, within `limits` (their
/// stop flag is honoured, and raised by the search itself when a budget runs out). `Pvs` and
/// `Solve` run in parallel; every other algorithm runs serially on the calling thread, as
/// asked (its node counts are then the serial figures), with the table only if it uses one.
pub fn parallel_search<G: Game>(
    game: &G,
    root: G::Pos,
    algo: Algorithm,
    tt: &TranspositionTable,
    pool: &rayon::ThreadPool,
    config: ParallelConfig,
    limits: Limits<'_>,
) -> ParallelResult<G::Move> {
    if !matches!(algo, Algorithm::Pvs | Algorithm::Solve) {
        return serial(
            game,
            root,
            algo,
            tt,
            config,
            limits,
            pool.current_num_threads(),
        );
    }
    let threads = pool.current_num_threads();
    let shared = Shared::new(limits.nodes, threads);
    let per_thread: Vec<CachePadded<AtomicU64>> = (0..threads)
        .map(|_| CachePadded::new(AtomicU64::new(0)))
        .collect();
    tt.new_search();
    let run = Run {
        game,
        root,
        algo,
        tt,
        config,
        limits,
        shared: &shared,
        per_thread: &per_thread,
    };
    let outcome = pool.install(|| match config.mode {
        Mode::LazySmp | Mode::Abdada => {
            // ABDADA is Lazy SMP's race in one order, with busy moves put off.
            let busy = (config.mode == Mode::Abdada).then(abdada::Busy::new);
            lazysmp::race(&run, on_cores(threads, &config), busy.as_ref())
        }
        Mode::Ybwc | Mode::Root => ybwc::search(&run),
    });
    let (stats, tt_stats) = shared.totals();
    let stopped = outcome.is_none() || shared.broken.load(Relaxed);
    let (value, best_move, pv) = outcome.unwrap_or((0, None, Vec::new()));
    ParallelResult {
        value,
        best_move,
        pv,
        stats,
        nodes_per_thread: per_thread.iter().map(|n| n.load(Relaxed)).collect(),
        tt: tt_stats,
        splits: shared.splits.load(Relaxed),
        tasks: shared.tasks.load(Relaxed),
        stopped,
    }
}

/// How many of a pool's `threads` a search keeps busy: no more than the machine's cores. The
/// racing modes (Lazy SMP, ABDADA) run this many whole searches of the root, and YBWC forks
/// this many claimants at a split. Work beyond the cores only takes turns on them: a racer
/// slows the one that would have finished first, and a preempted YBWC task holds up the
/// split waiting on it (8 threads on 2 cores ran Lazy SMP at a third of one thread's speed
/// and YBWC at 0.94 of it; see docs/measurements/thread-scaling.md). The extra pool threads stay idle.
pub(crate) fn on_cores(threads: usize, config: &ParallelConfig) -> usize {
    if config.oversubscribe {
        return threads.max(1);
    }
    static CORES: OnceLock<usize> = OnceLock::new();
    let cores = *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    threads.clamp(1, cores.max(1))
}

/// [`parallel_search`] for the algorithms that have no parallel form: one searcher on the
/// calling thread, its counts reported as the first thread's.
fn serial<G: Game>(
    game: &G,
    root: G::Pos,
    algo: Algorithm,
    tt: &TranspositionTable,
    config: ParallelConfig,
    limits: Limits<'_>,
    threads: usize,
) -> ParallelResult<G::Move> {
    let mut s = Searcher::new(game, root, config.depth)
        .limits(limits)
        .weak(config.weak)
        .window(config.window)
        .want_move(config.want_move);
    if algo.uses_table() {
        s = s.table(tt);
    }
    let (value, best_move) = s.run(algo);
    let stats = s.stats();
    let mut nodes_per_thread = vec![0; threads.max(1)];
    nodes_per_thread[0] = stats.nodes;
    ParallelResult {
        value,
        best_move,
        pv: s.pv().to_vec(),
        stats,
        nodes_per_thread,
        tt: s.tt_stats(),
        splits: 0,
        tasks: 0,
        stopped: s.stopped(),
    }
}

/// One parallel search as [`parallel_search`] was asked for it, with the state its threads
/// share: what a driver (`ybwc::search`, `lazysmp::race`) starts its workers from.
struct Run<'a, G: Game> {
    /// What is searched: the game from `root`, with `algo`.
    game: &'a G,
    root: G::Pos,
    algo: Algorithm,
    /// The table every worker uses.
    tt: &'a TranspositionTable,
    /// How the threads share the work, and how each worker searches.
    config: ParallelConfig,
    /// The caller's limits.
    limits: Limits<'a>,
    /// The node count, stop flag and split points the threads share.
    shared: &'a Shared,
    /// The nodes each thread of the pool searched.
    per_thread: &'a Tallies,
}

impl<'a, G: Game> Run<'a, G> {
    /// A searcher for a worker: the shared table, and the caller's limits but for the node
    /// budget, which the tasks' policies count across all workers.
    fn worker(&self) -> Searcher<'a, G> {
        let (limits, config) = (self.limits, self.config);
        let mut s = Searcher::new(self.game, self.root, config.depth)
            .table(self.tt)
            .limits(Limits {
                // The node budget is counted across all workers by `Shared`.
                nodes: None,
                deadline: limits.deadline,
                stop: limits.stop,
                progress: limits.progress,
                keep: limits.keep,
            })
            .weak(config.weak)
            .window(config.window)
            .want_move(config.want_move);
        // The first poll looks at the shared count at once and spaces the next ones by what a
        // node budget has left (see `Shared::check_every`).
        s.check_now();
        s
    }
}

/// The policy of one parallel task: the shared state, the split points above it, and, for
/// YBWC, how to split (Lazy SMP's tasks never do).
pub(crate) struct Task<'a, 'g, G: Game> {
    shared: &'g Shared,
    /// The split points above this task: it stops when any of them aborts.
    chain: SplitChain,
    /// The searcher's node count already handed to the shared count.
    reported: Cell<u64>,
    /// YBWC's settings and searcher pool; `None`: this task never splits.
    ybwc: Option<&'a ybwc::Ctx<'a, 'g, G>>,
    /// A Lazy SMP helper: its best moves stay out of the table.
    helper: bool,
    /// ABDADA's busy moves, and the plies to the horizon a node needs for its younger
    /// brothers to be put off; `None`: nothing is put off.
    busy: Option<(&'a abdada::Busy, usize)>,
}

impl<'a, 'g, G: Game> Task<'a, 'g, G> {
    /// A task under `chain`, in a searcher that has counted `nodes` so far.
    fn new(
        shared: &'g Shared,
        chain: SplitChain,
        nodes: u64,
        ybwc: Option<&'a ybwc::Ctx<'a, 'g, G>>,
    ) -> Self {
        Task {
            shared,
            chain,
            reported: Cell::new(nodes),
            ybwc,
            helper: false,
            busy: None,
        }
    }

    /// An ABDADA task's policy: claims moves in `busy` at nodes `min_depth` or more plies
    /// from the horizon.
    fn abdada(shared: &'g Shared, busy: &'a abdada::Busy, min_depth: usize) -> Self {
        Task {
            busy: Some((busy, min_depth.max(1))),
            ..Task::new(shared, SplitChain::default(), 0, None)
        }
    }

    /// A Lazy SMP helper's policy (see [`Policy::stores_moves`]).
    fn helper(shared: &'g Shared) -> Self {
        Task {
            helper: true,
            ..Task::new(shared, SplitChain::default(), 0, None)
        }
    }

    /// Hands in the nodes not reported yet, when a node budget needs them counted promptly
    /// (a finished task's leftovers would otherwise wait in the pool); a spent budget stops
    /// every worker.
    fn finish(&self, nodes: u64) {
        if self.shared.node_limit.is_some() {
            self.report(nodes, false);
        }
    }
}

impl<'g, G: Game> Policy<'g, G, NoObserver> for Task<'_, 'g, G> {
    const EVERY_NODE: bool = true;

    #[inline(always)]
    fn aborted(&self, nodes: u64) -> bool {
        // The innermost split point every node, the whole chain every 256 nodes: deep chains
        // would otherwise cost dozens of loads per node.
        let full = nodes & 255 == 0;
        self.shared.innermost_aborted(&self.chain) || full && self.shared.aborted(&self.chain)
    }

    #[inline(always)]
    fn check_every(&self, every: u64) -> u64 {
        self.shared.check_every(every)
    }

    fn report(&self, nodes: u64, stopped: bool) -> bool {
        let fresh = nodes - self.reported.get();
        self.reported.set(nodes);
        if self.shared.add_nodes(fresh) || stopped {
            self.shared.stop_all();
            return true;
        }
        false
    }

    #[inline(always)]
    fn stores_moves(&self) -> bool {
        !self.helper
    }

    const DEFERS: bool = true;

    #[inline(always)]
    fn defers(&self, left: usize) -> bool {
        self.busy.is_some_and(|(_, d)| left >= d)
    }

    #[inline(always)]
    fn enter(&self, key: u64) -> bool {
        self.busy.is_none_or(|(b, _)| b.enter(key))
    }

    #[inline(always)]
    fn leave(&self, key: u64) {
        if let Some((b, _)) = self.busy {
            b.leave(key);
        }
    }

    #[inline(always)]
    fn split_after(&self, s: &Searcher<'g, G>, ply: usize, node: &Node) -> Option<usize> {
        self.ybwc?.split_after(s.horizon() - ply, ply, node)
    }

    fn split(
        &self,
        s: &mut Searcher<'g, G>,
        rest: Brothers<'_>,
        best: &mut Best<G::Move>,
        alpha: &mut Value,
    ) -> Split {
        match self.ybwc {
            Some(cx) => cx.split(self, s, rest, best, alpha),
            None => Split::Declined,
        }
    }
}

/// Per-thread node tallies, each on its own cache line so that threads never contend.
type Tallies = [CachePadded<AtomicU64>];

/// Adds `nodes` to the running thread's tally.
fn tally(per_thread: &Tallies, nodes: u64) {
    let i = rayon::current_thread_index().unwrap_or(0) % per_thread.len().max(1);
    if let Some(slot) = per_thread.get(i) {
        slot.fetch_add(nodes, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::{on_cores, ParallelConfig};

    #[test]
    fn searches_keep_no_more_threads_busy_than_cores_unless_told() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let config = ParallelConfig::default();
        assert_eq!(on_cores(4 * cores, &config), cores);
        assert_eq!(on_cores(1, &config), 1);
        let over = ParallelConfig {
            oversubscribe: true,
            ..config
        };
        assert_eq!(on_cores(4 * cores, &over), 4 * cores);
    }
}
