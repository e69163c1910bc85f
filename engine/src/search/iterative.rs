//! Iterative deepening under a budget: PVS to depth 1, 2, 3, ... with the table carrying
//! ordering information from one iteration to the next, until the game's end is reached or
//! the node or time budget runs out. The result is that of the last finished iteration.

use super::{Algorithm, Limits, Searcher, Stats};
use crate::game::{Game, Value};
use crate::tt::{TranspositionTable, TtStats};

/// The result of one finished iteration.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// Depth searched, in plies.
    pub depth: usize,
    /// The root value at that depth, from the side to move.
    pub value: Value,
    /// The best root move at that depth.
    pub best_move: Option<M>,
    /// The principal variation at that depth.
    pub pv: Vec<M>,
    /// True when the depth reached the end of the game: the value is exact.
    pub exact: bool,
}

/// What iterative deepening returns: the last finished iteration (if any), every node counted
/// across all iterations (the unfinished one included) and the table counters.
pub struct Deepening<M> {
    /// The last finished iteration, `None` if the budget ran out during the first.
    pub last: Option<Iteration<M>>,
    /// Every iteration's depth and value, in order.
    pub history: Vec<(usize, Value)>,
    /// Counts summed over all iterations.
    pub stats: Stats,
    /// Table counters.
    pub tt: TtStats,
}

impl<M> Deepening<M> {
    /// Nothing finished, nothing counted yet.
    pub(crate) fn empty() -> Self {
        Deepening {
            last: None,
            history: Vec::new(),
            stats: Stats::default(),
            tt: TtStats::default(),
        }
    }

    /// Records a finished iteration (`full`: the plies left to the end of the game).
    pub(crate) fn finished(
        &mut self,
        depth: usize,
        value: Value,
        best_move: Option<M>,
        pv: Vec<M>,
        full: usize,
    ) {
        self.history.push((depth, value));
        self.last = Some(Iteration {
            depth,
            value,
            best_move,
            pv,
            exact: depth >= full,
        });
    }
}

/// What one depth's search reports to [`deepen`].
pub(crate) struct DepthRun<M> {
    /// The root value at that depth.
    pub value: Value,
    /// The best root move.
    pub best_move: Option<M>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// What the depth's search counted.
    pub stats: Stats,
    /// Its table counters.
    pub tt: TtStats,
    /// True if a limit stopped it: its result is not used.
    pub stopped: bool,
}

/// The iterative-deepening loop, serial and parallel alike: `search(depth, nodes)` searches
/// the root to `depth` plies within a node budget of `nodes` (what is left of `limits.nodes`),
/// for depths 1, 2, ... up to `max_depth` or the game's end (`full` plies), until a depth is
/// stopped.
pub(crate) fn deepen<M>(
    full: usize,
    limits: Limits<'_>,
    max_depth: Option<usize>,
    mut search: impl FnMut(usize, Option<u64>) -> DepthRun<M>,
) -> Deepening<M> {
    let last_depth = max_depth.map_or(full, |d| d.min(full));
    let mut out = Deepening::empty();
    if last_depth == 0 {
        // Nothing to deepen: one search at the root, which is over or at the horizon.
        let r = search(0, limits.nodes);
        out.tt.add(&r.tt);
        out.last = Some(Iteration {
            depth: 0,
            value: r.value,
            best_move: r.best_move,
            pv: Vec::new(),
            exact: full == 0,
        });
        return out;
    }
    for depth in 1..=last_depth {
        // The node budget covers all depths together.
        let nodes = limits.nodes.map(|n| n.saturating_sub(out.stats.nodes));
        if nodes == Some(0) {
            break;
        }
        let r = search(depth, nodes);
        out.stats.add(&r.stats);
        out.tt.add(&r.tt);
        if r.stopped {
            break;
        }
        out.finished(depth, r.value, r.best_move, r.pv, full);
        if let Some(p) = limits.progress {
            p.finished_depth(depth);
        }
    }
    out
}

/// Iterative deepening with PVS from `root` up to `max_depth` plies (`None`: to the end of
/// the game) within `limits`, sharing `tt`.
pub fn iterative_deepening<G: Game>(
    game: &G,
    root: G::Pos,
    tt: &TranspositionTable,
    limits: Limits<'_>,
    max_depth: Option<usize>,
) -> Deepening<G::Move> {
    let full = game.max_plies(&root);
    let last_depth = max_depth.map_or(full, |d| d.min(full));
    let mut s = Searcher::new(game, root, Some(last_depth))
        .table(tt)
        .limits(limits);
    deepen(full, limits, max_depth, |depth, nodes| {
        s.set_horizon(depth);
        s.limits.nodes = nodes;
        let (value, best_move) = s.run(Algorithm::Pvs);
        let stopped = s.stopped();
        let pv = s.pv().to_vec();
        let (stats, tt) = s.take_counts();
        DepthRun {
            value,
            best_move,
            pv,
            stats,
            tt,
            stopped,
        }
    })
}
