//! Principal variation search (NegaScout) with the transposition table, move ordering and the
//! game's knowledge hooks. It is also the null-window engine that MTD(f) and the null-window
//! solver call: with `beta == alpha + 1` it is plain null-window alpha-beta.
//!
//! The first move of a node is searched with the full window; the others with a null window
//! around alpha, re-searched with the full window only when they beat alpha. Fail-soft
//! throughout, so table entries get the tightest bounds seen.
//!
//! A node's work before and after its move loop (leaf and budget checks, game knowledge, table
//! probe, move generation; table store) lives in [`Searcher::prologue`] and
//! [`Searcher::epilogue`], which the parallel search shares.

use super::{Observer, Searcher};
use crate::game::{Game, MoveBuffer, Value, INF, NO_CODE};
use crate::tt::{Bound, Entry};

/// Table depth meaning "searched to the end of the game": valid at any horizon.
const TO_THE_END: u8 = u8::MAX;

/// What a node's prologue leaves for its move loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// The window, narrowed by the game's bounds and the table.
    pub alpha: Value,
    pub beta: Value,
    pub key: u64,
    /// The depth the node is searched to, as the table records it.
    pub depth: u8,
    /// Number of moves, generated and ordered at the node's ply.
    pub moves: usize,
    /// Node count when the node started (its subtree size goes into the table).
    pub nodes_before: u64,
}

/// The best move found by a node's loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best<M> {
    pub value: Value,
    pub mv: Option<M>,
    pub code: u8,
}

impl<M> Best<M> {
    pub(crate) fn none() -> Self {
        Best {
            value: -INF,
            mv: None,
            code: NO_CODE,
        }
    }
}

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// PVS value of the node at `ply` within `(alpha, beta)`, fail-soft.
    pub(crate) fn pvs(&mut self, ply: usize, alpha: Value, beta: Value) -> Value {
        let node = match self.prologue(ply, alpha, beta) {
            Ok(node) => node,
            Err(v) => return v,
        };
        let mut best = Best::none();
        let mut a = node.alpha;
        for i in 0..node.moves {
            let v = self.pvs_child(ply, i, a, node.beta);
            if self.stopped {
                return 0;
            }
            if self.improve(ply, i, v, &mut best, &mut a, node.beta) {
                break;
            }
        }
        self.epilogue(ply, &node, &best);
        best.value
    }

    /// Searches move `i` of the node at `ply` the PVS way: the first with the full window
    /// `(a, beta)`, the others with a null window first. Returns its value from `ply`'s side.
    #[inline]
    pub(crate) fn pvs_child(&mut self, ply: usize, i: usize, a: Value, beta: Value) -> Value {
        self.descend(ply, i);
        if i == 0 {
            return -self.pvs(ply + 1, -beta, -a);
        }
        let probe = -self.pvs(ply + 1, -a - 1, -a);
        if probe > a && probe < beta && !self.stopped {
            -self.pvs(ply + 1, -beta, -probe)
        } else {
            probe
        }
    }

    /// Takes the value `v` of move `i` at `ply` into the node's best and alpha; on a cutoff
    /// records it and returns true.
    #[inline]
    pub(crate) fn improve(
        &mut self,
        ply: usize,
        i: usize,
        v: Value,
        best: &mut Best<G::Move>,
        a: &mut Value,
        beta: Value,
    ) -> bool {
        if v <= best.value {
            return false;
        }
        let mv = self.arena.ply(ply).moves.as_slice()[i];
        best.value = v;
        best.mv = Some(mv);
        best.code = self.game.move_code(mv);
        if v > *a {
            *a = v;
            self.arena.update_pv(ply, mv);
        }
        if v >= beta {
            self.cutoff(ply, i, beta);
            let side = self.game.to_move(&self.arena.ply(ply).pos);
            let left = self.horizon - ply;
            self.ordering.record_cutoff(side, ply, best.code, left);
            return true;
        }
        false
    }

    /// A node's work before its move loop: leaf and budget checks, the game's knowledge, the
    /// window narrowed by the game's bounds and the table, then the moves generated and
    /// ordered. `Err(value)` when the node is settled without searching its moves.
    pub(crate) fn prologue(
        &mut self,
        ply: usize,
        mut alpha: Value,
        mut beta: Value,
    ) -> Result<Node, Value> {
        if let Some(v) = self.enter(ply) {
            return Err(v);
        }
        if self.poll_stop() {
            return Err(0);
        }
        let nodes_before = self.stats.nodes;
        let pos = self.arena.ply(ply).pos;
        let key = self.game.key(&pos);
        if let Some(tt) = self.tt {
            // The probe comes after the game's quick checks: let memory work meanwhile.
            tt.prefetch(key);
        }
        if let Some(v) = self.game.quick_value(&pos) {
            self.stats.leaves += 1;
            self.settle(ply, v);
            return Err(v);
        }
        // The game's bounds narrow the window; an empty window is answered by the bound.
        let (lo, hi) = self.game.value_bounds(&pos);
        if alpha < lo {
            alpha = lo;
            if alpha >= beta {
                self.settle(ply, alpha);
                return Err(alpha);
            }
        }
        if beta > hi {
            beta = hi;
            if alpha >= beta {
                self.settle(ply, beta);
                return Err(beta);
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
                            return Err(v);
                        }
                        Bound::Lower => alpha = alpha.max(v),
                        Bound::Upper => beta = beta.min(v),
                    }
                    if alpha >= beta {
                        self.settle(ply, v);
                        return Err(v);
                    }
                }
            }
        }

        let p = self.arena.ply_mut(ply);
        self.game.search_moves(&p.pos, &mut p.moves);
        let moves = p.moves.len();
        self.ordering
            .sort(self.game, &p.pos, ply, &mut p.moves, table_move);
        if let Some(tt) = self.tt {
            // Later children's probes then find their clusters already loading.
            for &mv in p.moves.as_slice() {
                tt.prefetch(self.game.key(&self.game.play(&p.pos, mv)));
            }
        }
        Ok(Node {
            alpha,
            beta,
            key,
            depth,
            moves,
            nodes_before,
        })
    }

    /// A node's work after its move loop: the table store, the trace. (A root whose moves
    /// all failed low names no move here: the move with the best upper bound need not reach
    /// the value, so the caller finds one that provably does.)
    pub(crate) fn epilogue(&mut self, ply: usize, node: &Node, best: &Best<G::Move>) {
        if let Some(tt) = self.tt {
            // Values outside the table's 16 bits are simply not stored.
            if let Ok(value) = i16::try_from(best.value) {
                let bound = if best.value <= node.alpha {
                    Bound::Upper
                } else if best.value >= node.beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                let work = (self.stats.nodes - node.nodes_before).max(1).ilog2() as u8;
                let entry = Entry {
                    value,
                    bound,
                    mv: best.code,
                    depth: node.depth,
                    work,
                };
                tt.store(node.key, entry, &mut self.tt_stats);
            }
        }
        self.settle(ply, best.value);
    }
}
