//! Iterative deepening on many threads: each depth is one parallel PVS search (YBWC, Lazy
//! SMP or root splitting, as configured) sharing the table with the depths before it, so the
//! table moves of one depth order the next. A node or time budget, or the stop flag, ends the
//! depth in progress; the result is the last finished depth's, as in the serial version.

use super::{parallel_search, ParallelConfig};
use crate::game::Game;
use crate::search::iterative::{deepen, DepthRun};
use crate::search::{iterative_deepening, Algorithm, Deepening, Limits};
use crate::tt::TranspositionTable;

/// Iterative deepening from `root` up to `max_depth` plies (`None`: to the end of the game)
/// on the threads of `pool` within `limits`, sharing `tt`: the serial loop (`deepen`), each
/// depth one parallel search. A root with nothing to search (already over) is left to the
/// serial version.
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
    if max_depth.map_or(full, |d| d.min(full)) == 0 {
        return iterative_deepening(game, root, tt, limits, max_depth);
    }
    deepen(full, limits, max_depth, |depth, nodes| {
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
        DepthRun {
            value: r.value,
            best_move: r.best_move,
            pv: r.pv,
            stats: r.stats,
            tt: r.tt,
            stopped: r.stopped,
        }
    })
}
