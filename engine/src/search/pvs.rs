//! Principal variation search (NegaScout) with the transposition table, move ordering and the
//! game's knowledge hooks. It is also the null-window engine that MTD(f) and the null-window
//! solver call: with `beta == alpha + 1` it is plain null-window alpha-beta.
//!
//! The first move of a node is searched with the full window; the others with a null window
//! around alpha, re-searched with the full window only when they beat alpha. Fail-soft
//! throughout, so table entries get the tightest bounds seen.

use super::{Observer, Searcher};
use crate::game::{Game, MoveBuffer, Value, INF, NO_CODE};
use crate::tt::{Bound, Entry};

/// Table depth meaning "searched to the end of the game": valid at any horizon.
const TO_THE_END: u8 = u8::MAX;

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// PVS value of the node at `ply` within `(alpha, beta)`, fail-soft.
    pub(crate) fn pvs(&mut self, ply: usize, mut alpha: Value, mut beta: Value) -> Value {
        if let Some(v) = self.enter(ply) {
            return v;
        }
        if self.poll_stop() {
            return 0;
        }
        let pos = self.arena.ply(ply).pos;
        let key = self.game.key(&pos);
        if let Some(tt) = self.tt {
            // The probe comes after the game's quick checks: let memory work meanwhile.
            tt.prefetch(key);
        }
        if let Some(v) = self.game.quick_value(&pos) {
            self.stats.leaves += 1;
            self.settle(ply, v);
            return v;
        }
        // The game's bounds narrow the window; an empty window is answered by the bound.
        let (lo, hi) = self.game.value_bounds(&pos);
        if alpha < lo {
            alpha = lo;
            if alpha >= beta {
                self.settle(ply, alpha);
                return alpha;
            }
        }
        if beta > hi {
            beta = hi;
            if alpha >= beta {
                self.settle(ply, beta);
                return beta;
            }
        }

        let left = self.horizon - ply;
        let depth = if left >= self.game.max_plies(&pos) {
            TO_THE_END
        } else {
            left.min(TO_THE_END as usize - 1) as u8
        };
        let mut table_move = NO_CODE;
        if let Some(tt) = self.tt {
            if let Some(e) = tt.probe(key, &mut self.tt_stats) {
                table_move = e.mv;
                if e.depth >= depth {
                    let v = e.value as Value;
                    match e.bound {
                        Bound::Exact => {
                            self.settle(ply, v);
                            return v;
                        }
                        Bound::Lower => alpha = alpha.max(v),
                        Bound::Upper => beta = beta.min(v),
                    }
                    if alpha >= beta {
                        self.settle(ply, v);
                        return v;
                    }
                }
            }
        }

        let n = {
            let p = self.arena.ply_mut(ply);
            self.game.search_moves(&p.pos, &mut p.moves);
            let n = p.moves.len();
            self.ordering
                .sort(self.game, &p.pos, ply, &mut p.moves, table_move);
            if let Some(tt) = self.tt {
                // Later children's probes then find their clusters already loading.
                for &mv in p.moves.as_slice() {
                    tt.prefetch(self.game.key(&self.game.play(&p.pos, mv)));
                }
            }
            n
        };
        let nodes_before = self.stats.nodes;
        let mut best = -INF;
        let mut best_code = NO_CODE;
        let mut best_move = None;
        let mut a = alpha;
        for i in 0..n {
            let mv = self.descend(ply, i);
            let v = if i == 0 {
                -self.pvs(ply + 1, -beta, -a)
            } else {
                let probe = -self.pvs(ply + 1, -a - 1, -a);
                if probe > a && probe < beta && !self.stopped {
                    -self.pvs(ply + 1, -beta, -probe)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                best_code = self.game.move_code(mv);
                if v > a {
                    a = v;
                    self.arena.update_pv(ply, mv);
                }
            }
            if best >= beta {
                self.cutoff(ply, i, beta);
                let side = self.game.to_move(&pos);
                self.ordering.record_cutoff(side, ply, best_code, left);
                break;
            }
        }

        if ply == 0 && self.arena.pv().is_empty() {
            // Every root move failed low: still name the best of them.
            if let Some(mv) = best_move {
                self.arena.set_single(0, mv);
            }
        }
        if let Some(tt) = self.tt {
            // Values outside the table's 16 bits are simply not stored.
            if let Ok(value) = i16::try_from(best) {
                let bound = if best <= alpha {
                    Bound::Upper
                } else if best >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                let work = (self.stats.nodes - nodes_before).max(1).ilog2() as u8;
                let entry = Entry {
                    value,
                    bound,
                    mv: best_code,
                    depth,
                    work,
                };
                tt.store(key, entry, &mut self.tt_stats);
            }
        }
        self.settle(ply, best);
        best
    }
}
