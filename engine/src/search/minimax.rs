//! Minimax with explicit MAX and MIN levels: MAX (the first player) takes the largest child
//! value, MIN the smallest, every value seen from MAX. No pruning: it visits the whole tree and
//! is the oracle the other searches are checked against.

use super::{Observer, Searcher};
use crate::game::{Game, Player, Value, INF};

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// The minimax value of the node at `ply`, from MAX's (the first player's) point of view.
    pub(crate) fn minimax(&mut self, ply: usize) -> Value {
        let side = self.game.to_move(&self.arena.ply(ply).pos);
        self.opened(ply, -INF, INF);
        if let Some(v) = self.enter(ply) {
            // Utilities are from the side to move; MAX's view flips them at MIN's nodes.
            return side.sign() * v;
        }
        let maximizing = side == Player::First;
        let mut best = if maximizing { -INF } else { INF };
        let n = self.expand(ply);
        for i in 0..n {
            let mv = self.descend(ply, i);
            let v = self.minimax(ply + 1);
            if self.stopped {
                // The game broke its `max_plies` promise (`Searcher::unfinished`): no value.
                return 0;
            }
            let better = if maximizing { v > best } else { v < best };
            if better {
                best = v;
                self.arena.update_pv(ply, mv);
            }
        }
        self.settle(ply, side.sign() * best);
        best
    }
}
