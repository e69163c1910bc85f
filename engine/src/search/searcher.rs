//! The [`Searcher`]'s fields and the [`Limits`] it stops at (its methods: `mod.rs` and one
//! file per algorithm).

use super::observer::{NoObserver, Observer};
use super::progress::Progress;
use super::stats::Stats;
use crate::arena::Arena;
use crate::clock::Instant;
use crate::game::{Game, Value};
use crate::ordering::MoveOrdering;
use crate::tt::{TranspositionTable, TtStats};
use std::sync::atomic::AtomicBool;

/// A serial search in progress: the game, the per-ply arena, the statistics and an observer.
/// Build it once (this allocates), then [`Searcher::run`] as often as wanted without
/// allocating.
pub struct Searcher<'g, G: Game, O: Observer<G> = NoObserver> {
    pub(super) game: &'g G,
    pub(super) arena: Arena<G>,
    /// Ply at which positions are evaluated instead of expanded.
    pub(super) horizon: usize,
    /// `max_plies` of the root: a run whose horizon reaches it searches to the end of the
    /// game, and a position there without an outcome breaks the game's promise.
    pub(super) end: usize,
    /// The line from the root to the first position such a run met at its horizon without an
    /// outcome (see [`Searcher::unfinished`]); `None` while none was met.
    pub(super) unfinished: Option<Vec<G::Move>>,
    pub(super) stats: Stats,
    pub(super) obs: O,
    /// The shared table, for the table-driven searches.
    pub(super) tt: Option<&'g TranspositionTable>,
    pub(super) tt_stats: TtStats,
    pub(super) ordering: MoveOrdering,
    pub(super) limits: Limits<'g>,
    /// Set once a limit is hit: every search unwinds at once and its result is discarded.
    pub(super) stopped: bool,
    /// Node count at which the limits are next checked.
    pub(super) next_check: u64,
    /// Solve only win, draw or loss (the null-window solver bisects -1..=1).
    pub(super) weak: bool,
    /// The null-window solver's window: it bisects this range only (see [`Searcher::window`]).
    pub(super) window: Option<(Value, Value)>,
    /// Whether the null-window solver also finds a best move and line (an extra pass).
    pub(super) want_move: bool,
    /// Whether nodes keep their principal variation. The null-window solver turns it off:
    /// its probes fail high or low, and it rebuilds the line itself (`root_move`).
    pub(super) track_pv: bool,
    /// Nodes already published to `limits.progress`.
    pub(super) published: u64,
    /// Per ply, the nodes other searchers took for the subtrees split off below the node
    /// being searched there (YBWC): with the node count, what a split node's whole subtree
    /// took, for `Limits::keep`. A split adds to its node's ply; a node handed to `keep`
    /// passes its figure up to its parent's ply ([`Searcher::take_helped`]). Written at splits
    /// and read only where `keep` is set: the serial node loop never touches it.
    pub(crate) helped: Vec<u64>,
}

/// When a search must stop early. A stopped search's result is thrown away by its caller
/// (iterative deepening keeps the last finished iteration).
#[derive(Clone, Copy, Default)]
pub struct Limits<'a> {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this flag is raised (by another thread, a signal handler, a timer).
    pub stop: Option<&'a AtomicBool>,
    /// Publish the nodes searched, the solver's window and the depths finished here, for
    /// another thread to read while the search runs.
    pub progress: Option<&'a Progress>,
    /// Hand the table entries of subtrees that took at least its threshold of nodes here,
    /// to be written to a table file ([`crate::tt::file`]).
    pub keep: Option<&'a crate::tt::file::Keep>,
}
