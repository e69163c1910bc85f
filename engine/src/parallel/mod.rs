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
mod config;
mod deepening;
mod lazysmp;
mod run;
mod shared;
mod ybwc;

pub(crate) use config::on_cores;
pub use config::{Mode, ParallelConfig};
pub use deepening::parallel_iterative_deepening;

use crate::game::{Game, Value};
use crate::search::{Algorithm, Limits, Searcher, Stats};
use crate::tt::{TranspositionTable, TtStats};
use crossbeam::utils::CachePadded;
use run::Run;
use shared::Shared;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

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
