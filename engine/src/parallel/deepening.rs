//! Iterative deepening on many threads: each depth is one parallel PVS search (YBWC, Lazy
//! SMP or root splitting, as configured) sharing the table with the depths before it, so the
//! table moves of one depth order the next. A node or time budget, or the stop flag, ends the
//! depth in progress; the result is the last finished depth's, as in the serial version.

use super::{parallel_search, ParallelConfig};
use crate::game::Game;
use crate::search::{iterative_deepening, Algorithm, Deepening, Limits};
use crate::tt::TranspositionTable;

/// Iterative deepening from `root` up to `max_depth` plies (`None`: to the end of the game)
/// on the threads of `pool` within `limits`, sharing `tt`. A root with nothing to search
/// (already over) is left to the serial version.
pub fn parallel_iterative_deepening<G: Game>(
    game: &G,
    root: G::Pos,
    tt: &TranspositionTable,
    pool: &rayon::ThreadPool,
    config: ParallelConfig,
    limits: Limits<'_>,
    max_depth: Option<usize>,
) -> Deepening<G::Move> {
    let full = game.max_plies(&root);
    let last_depth = max_depth.map_or(full, |d| d.min(full));
    if last_depth == 0 {
        return iterative_deepening(game, root, tt, limits, max_depth);
    }
    let mut out = Deepening::empty();
    for depth in 1..=last_depth {
        // The node budget covers all depths together.
        let nodes = limits.nodes.map(|n| n.saturating_sub(out.stats.nodes));
        if nodes == Some(0) {
            break;
        }
        let config = ParallelConfig {
            depth: Some(depth),
            want_move: true,
            ..config
        };
        let r = parallel_search(
            game,
            root,
            Algorithm::Pvs,
            tt,
            pool,
            config,
            Limits { nodes, ..limits },
        );
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
