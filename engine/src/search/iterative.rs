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
        .with_table(tt)
        .with_limits(limits);
    let mut out = Deepening::empty();
    for depth in 1..=last_depth {
        s.set_horizon(depth);
        // The node budget covers all iterations together.
        if let Some(budget) = limits.nodes {
            s.limits.nodes = Some(budget.saturating_sub(out.stats.nodes));
        }
        let (value, best_move) = s.run(Algorithm::Pvs);
        out.stats.add(&s.stats());
        if s.stopped() {
            break;
        }
        out.finished(depth, value, best_move, s.pv().to_vec(), full);
        if let Some(p) = limits.progress {
            p.finished_depth(depth);
        }
    }
    if last_depth == 0 {
        let (value, best_move) = s.run(Algorithm::Pvs);
        out.last = Some(Iteration {
            depth: 0,
            value,
            best_move,
            pv: Vec::new(),
            exact: full == 0,
        });
    }
    out.tt = s.tt_stats();
    out
}
