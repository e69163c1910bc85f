//! One timed serial search: the figures every report here is built from.

use cutoff::advanced::Searcher;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game, Value};
use std::time::{Duration, Instant};

/// What one search found and counted, and how long it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measured {
    /// The root's value, from the side to move.
    pub value: Value,
    /// Nodes visited.
    pub nodes: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Deepest ply reached.
    pub max_ply: u32,
    /// Wall time of the search alone (building the searcher excluded).
    pub time: Duration,
}

/// Searches `root` with `algo` to `depth` plies (`None`: to the end) on one thread. The
/// table-driven searches use `tt`, which the caller must pass empty (a fresh or cleared table,
/// so that counts do not depend on what ran before); the plain searches ignore it. Only the
/// value is wanted, so the solver skips its extra best-move pass.
pub fn measure<G: Game>(
    game: &G,
    root: G::Pos,
    algo: Algorithm,
    depth: Option<usize>,
    tt: Option<&TranspositionTable>,
) -> Result<Measured, String> {
    let mut s = Searcher::new(game, root, depth).want_move(false);
    if algo.uses_table() {
        let tt = tt.ok_or_else(|| format!("{algo} needs a transposition table"))?;
        s = s.table(tt);
    }
    let start = Instant::now();
    let (value, _) = s.run(algo);
    let time = start.elapsed();
    let stats = s.stats();
    Ok(Measured {
        value,
        nodes: stats.nodes,
        leaves: stats.leaves,
        max_ply: stats.max_ply,
        time,
    })
}
