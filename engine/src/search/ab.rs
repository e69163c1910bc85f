//! The course's two-bound alpha-beta `AB(X, h, LB, D)` (Knuth and Moore's F2).
//!
//! `LB` is the lower bound the node must beat to matter and `D` the upper bound at which its
//! caller stops caring. The running value starts at `LB` and is passed down as the child's
//! upper bound, so cutoffs reach any depth (deep cutoffs), unlike `VEB`.

use super::{Observer, Searcher};
use crate::game::{Game, Value};

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// `AB(X, h, LB, D)` for the node at `ply` with bounds `lb` and `d`.
    pub(crate) fn ab(&mut self, ply: usize, lb: Value, d: Value) -> Value {
        self.opened(ply, lb, d);
        if let Some(v) = self.enter(ply) {
            return v;
        }
        let mut m = lb;
        let n = self.expand(ply);
        for i in 0..n {
            let mv = self.descend(ply, i);
            let t = -self.ab(ply + 1, -d, -m);
            if self.stopped {
                // The game broke its `max_plies` promise (`Searcher::unfinished`): no value.
                return 0;
            }
            if t > m {
                m = t;
                self.arena.update_pv(ply, mv);
                if m >= d {
                    self.cutoff(ply, i, d);
                    break;
                }
            }
        }
        self.settle(ply, m);
        m
    }
}
