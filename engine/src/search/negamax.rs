//! Negamax: `V'(X) = max over children C of -V'(C)`, every value seen from the side to move.
//! One rule serves both players; with a depth limit, positions at the horizon get the game's
//! static evaluation. No pruning.

use super::{Observer, Searcher};
use crate::game::{Game, Value, INF};

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// The negamax value of the node at `ply`, from its side to move.
    pub(crate) fn negamax(&mut self, ply: usize) -> Value {
        self.opened(ply, -INF, INF);
        if let Some(v) = self.enter(ply) {
            return v;
        }
        let mut best = -INF;
        let n = self.expand(ply);
        for i in 0..n {
            let mv = self.descend(ply, i);
            let v = -self.negamax(ply + 1);
            if self.stopped {
                // The game broke its `max_plies` promise (`Searcher::unfinished`): no value.
                return 0;
            }
            if v > best {
                best = v;
                self.arena.update_pv(ply, mv);
            }
        }
        self.settle(ply, best);
        best
    }
}
