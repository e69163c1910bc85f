//! Exact solving by bisecting the value range with null-window searches, as strong Connect
//! Four solvers do: each probe `pvs(med, med + 1)` says whether the value exceeds `med`, and
//! the table is reused between probes. Weak solving bisects -1..=1 only: win, draw or loss.

use super::{Observer, Searcher};
use crate::game::{Game, MoveBuffer, Value};

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// Solves the root: its value (the sign only when weak) and a best move.
    pub(crate) fn solve(&mut self) -> (Value, Option<G::Move>) {
        self.solve_with(|s, alpha, beta| s.pvs(0, alpha, beta))
    }

    /// The bisection, with `probe(self, alpha, beta)` searching the root (the parallel
    /// searches bring their own probe).
    pub(crate) fn solve_with(
        &mut self,
        mut probe: impl FnMut(&mut Self, Value, Value) -> Value,
    ) -> (Value, Option<G::Move>) {
        let (mut lo, mut hi) = if self.weak {
            (-1, 1)
        } else {
            self.game.value_range()
        };
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            // Probe nearer zero first: most positions are decided by small margins.
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let r = probe(self, med, med + 1);
            if self.stopped {
                return (0, None);
            }
            if r <= med {
                hi = r.max(lo);
            } else {
                lo = r.min(hi);
            }
        }
        let best = if self.want_move {
            self.root_move(lo)
        } else {
            None
        };
        (lo, best)
    }

    /// A root move achieving `value` (a win, when weak), with its line in the PV; the first
    /// move when none can be shown to (a weak loss), `None` at a terminal root.
    pub(crate) fn root_move(&mut self, value: Value) -> Option<G::Move> {
        let root = self.arena.ply(0).pos;
        self.arena.ply_mut(0).pv.clear();
        if self.game.outcome(&root).is_some() || self.horizon == 0 {
            return None;
        }
        // All legal moves, not the game's pruned list: an immediate win must be found too.
        let n = {
            let p = self.arena.ply_mut(0);
            self.game.moves(&p.pos, &mut p.moves);
            let n = p.moves.len();
            self.ordering
                .sort(self.game, &p.pos, 0, &mut p.moves, crate::game::NO_CODE);
            n
        };
        for i in 0..n {
            let mv = self.descend(0, i);
            let v = -self.pvs(1, -value - 1, -value + 1);
            if self.stopped {
                return None;
            }
            if v >= value {
                self.arena.update_pv(0, mv);
                return Some(mv);
            }
        }
        Some(self.arena.ply(0).moves.as_slice()[0])
    }
}
