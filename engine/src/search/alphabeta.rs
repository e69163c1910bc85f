//! Alpha-beta with an (alpha, beta) window in negamax form, fail-soft or fail-hard.
//!
//! Fail-soft returns the best value it saw even when that lies outside the window (a tighter
//! bound for the caller and for a later table); fail-hard clamps every result into
//! `[alpha, beta]`. With the full window both return the exact minimax value at the root.

use super::{Observer, Searcher};
use crate::game::{Game, Value, INF};

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// Alpha-beta value of the node at `ply` within `(alpha, beta)`; `hard` selects fail-hard.
    pub(crate) fn alphabeta(&mut self, ply: usize, alpha: Value, beta: Value, hard: bool) -> Value {
        self.opened(ply, alpha, beta);
        if let Some(v) = self.enter(ply) {
            return if hard { v.clamp(alpha, beta) } else { v };
        }
        let mut a = alpha;
        let mut best = -INF;
        let n = self.expand(ply);
        for i in 0..n {
            let mv = self.descend(ply, i);
            let v = -self.alphabeta(ply + 1, -beta, -a, hard);
            if self.stopped {
                // The game broke its `max_plies` promise (`Searcher::unfinished`): no value.
                return 0;
            }
            if v > best {
                best = v;
                if v > a {
                    a = v;
                    self.arena.update_pv(ply, mv);
                }
            }
            if best >= beta {
                self.cutoff(ply, i, beta);
                break;
            }
        }
        let result = if hard { best.clamp(alpha, beta) } else { best };
        self.settle(ply, result);
        result
    }
}
