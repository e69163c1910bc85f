//! The course's single-bound alpha-beta `VEB(X, h, D)` (Knuth and Moore's F1).
//!
//! `D` is the one bound: as soon as the node's value reaches `D` the caller cannot use it, so
//! the remaining children are skipped. Each child is searched with the bound `-m`, where `m` is
//! the best value found so far, so only shallow cutoffs happen: the bound is never passed two
//! levels down. `h`, the remaining depth, is the distance from `ply` to the horizon.

use super::{Observer, Searcher};
use crate::game::{Game, Value, INF};

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// `VEB(X, h, D)` for the node at `ply` with the bound `d`.
    pub(crate) fn veb(&mut self, ply: usize, d: Value) -> Value {
        self.opened(ply, -INF, d);
        if let Some(v) = self.enter(ply) {
            return v;
        }
        let mut m = -INF;
        let n = self.expand(ply);
        for i in 0..n {
            let mv = self.descend(ply, i);
            let t = -self.veb(ply + 1, -m);
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
