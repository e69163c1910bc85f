//! One parallel search as its drivers start it ([`Run`]), their answer ([`RootResult`]) and
//! the per-thread node tallies ([`tally`]).

use super::config::ParallelConfig;
use super::shared::Shared;
use crate::game::{Game, Value};
use crate::search::{Algorithm, Limits, Searcher};
use crate::tt::TranspositionTable;
use crossbeam::utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A driver's answer: value, best move and line; `None` when a limit stopped it.
pub(super) type RootResult<M> = Option<(Value, Option<M>, Vec<M>)>;

/// One parallel search as [`parallel_search`] was asked for it, with the state its threads
/// share: what a driver (`ybwc::search`, `lazysmp::race`) starts its workers from.
pub(super) struct Run<'a, G: Game> {
    /// What is searched: the game from `root`, with `algo`.
    pub(super) game: &'a G,
    pub(super) root: G::Pos,
    pub(super) algo: Algorithm,
    /// The table every worker uses.
    pub(super) tt: &'a TranspositionTable,
    /// How the threads share the work, and how each worker searches.
    pub(super) config: ParallelConfig,
    /// The caller's limits.
    pub(super) limits: Limits<'a>,
    /// The node count, stop flag and split points the threads share.
    pub(super) shared: &'a Shared,
    /// The nodes each thread of the pool searched.
    pub(super) per_thread: &'a Tallies,
}

impl<'a, G: Game> Run<'a, G> {
    /// A searcher for a worker: the shared table, and the caller's limits but for the node
    /// budget, which the tasks' policies count across all workers.
    pub(super) fn worker(&self) -> Searcher<'a, G> {
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

/// Per-thread node tallies, each on its own cache line so that threads never contend.
pub(super) type Tallies = [CachePadded<AtomicU64>];

/// Adds `nodes` to the running thread's tally.
pub(super) fn tally(per_thread: &Tallies, nodes: u64) {
    let i = rayon::current_thread_index().unwrap_or(0) % per_thread.len().max(1);
    if let Some(slot) = per_thread.get(i) {
        slot.fetch_add(nodes, Relaxed);
    }
}
