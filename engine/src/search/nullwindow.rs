//! Exact solving by bisecting the value range with null-window searches, as strong Connect
//! Four solvers do: each probe `pvs(med, med + 1)` says whether the value exceeds `med`, and
//! the table is reused between probes. Weak solving bisects -1..=1 only: win, draw or loss.

use super::policy::Policy;
use super::{Observer, Searcher};
use crate::game::{Game, MoveBuffer, Value};
use crate::knowledge::Knowledge;

impl<'g, G: Game, O: Observer<G>> Searcher<'g, G, O> {
    /// Solves the root, each probe's work shared as `policy` says: its value (the sign only
    /// when weak) and a best move.
    pub(crate) fn solve<P: Policy<'g, G, O>>(&mut self, policy: &P) -> (Value, Option<G::Move>) {
        let track = std::mem::replace(&mut self.track_pv, false);
        let result = self.bisect(|s, alpha, beta| s.node(0, alpha, beta, policy));
        self.track_pv = track;
        result
    }

    /// The bisection, with `probe(self, alpha, beta)` searching the root.
    fn bisect(
        &mut self,
        mut probe: impl FnMut(&mut Self, Value, Value) -> Value,
    ) -> (Value, Option<G::Move>) {
        // Weak solving runs the same bisection over the whole range and stops once the sign
        // is known. Bisecting -1..=1 instead would start with the window (0, 1), where any
        // win, however slow, must be proved; probes near the ends of the range admit only
        // quick wins, which the game's bounds prove in a few nodes (Begin-Easy: 25 times the
        // nodes of an exact solve with the narrow range, fewer than exact with this one).
        let (mut lo, mut hi) = self.game.value_range();
        if let Some((a, b)) = self.window {
            // Clipped to the game's range; an empty window settles at once.
            lo = a.clamp(lo, hi);
            hi = b.clamp(lo, hi);
        }
        let mut guess = G::Knowledge::first_probe(self.game, &self.arena.ply(0).pos);
        let steps = G::Knowledge::probe_steps(self.game, &self.arena.ply(0).pos);
        if steps {
            // Stepping starts where values most often lie.
            guess = guess.or(Some(0));
        }
        // Whether the last probe failed high (`None` before the first).
        let mut last_high = None;
        let settled = |lo: Value, hi: Value| lo > 0 || hi < 0 || (lo == 0 && hi == 0);
        while lo < hi && !(self.weak && settled(lo, hi)) {
            let mut med = lo + (hi - lo) / 2;
            // Split the interval unevenly, towards its far end from zero (as the reference
            // solvers do): most positions are decided by small margins, and a probe far from
            // zero is cheap because only quick wins or losses can pass it.
            if let Some(g) = guess.take().filter(|&g| lo <= g && g < hi) {
                med = g;
            } else if let (true, Some(high)) = (steps, last_high) {
                // Right at the bound the last probe returned, on the side it moved to.
                med = if high { lo } else { hi - 1 };
            } else if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            if let Some(p) = self.limits.progress {
                let mut moves = G::Moves::default();
                self.game.moves(&self.arena.ply(0).pos, &mut moves);
                p.start_probe(med, moves.len());
            }
            let r = probe(self, med, med + 1);
            if self.stopped {
                return (0, None);
            }
            last_high = Some(r > med);
            if r <= med {
                hi = r.max(lo);
            } else {
                lo = r.min(hi);
            }
            if let Some(p) = self.limits.progress {
                p.narrow(lo, hi);
            }
        }
        if self.weak {
            lo = if lo > 0 {
                1
            } else if hi < 0 {
                -1
            } else {
                0
            };
        }
        let best = if self.want_move {
            self.root_move(lo)
        } else {
            None
        };
        (lo, best)
    }

    /// A root move achieving `value` (a win, when weak), with the line that follows in the
    /// PV; the first move when none can be shown to (a weak loss), `None` at a terminal root.
    ///
    /// With an exact value the whole line is rebuilt move by move, each one a move shown by a
    /// search of its siblings (cheap with the table warm) to keep the value, so the line runs
    /// to the end of the game or the horizon rather than stopping at the first table hit.
    pub(crate) fn root_move(&mut self, value: Value) -> Option<G::Move> {
        self.arena.ply_mut(0).pv.clear();
        let first = self.line_move(0, value)?;
        if self.weak {
            // A sign is not a value to follow down the line.
            self.arena.ply_mut(0).pv.push(first);
            return Some(first);
        }
        let mut v = value;
        let mut mv = first;
        let mut ply = 0;
        loop {
            self.arena.ply_mut(0).pv.push(mv);
            let child = self.game.play(&self.arena.ply(ply).pos, mv);
            ply += 1;
            self.arena.ply_mut(ply).pos = child;
            v = -v;
            match self.line_move(ply, v) {
                Some(next) => mv = next,
                None => break,
            }
        }
        Some(first)
    }

    /// A move at `ply` that keeps the node's exact `value` (the first move if none is shown
    /// to); `None` at a terminal node or the horizon, or when stopped.
    fn line_move(&mut self, ply: usize, value: Value) -> Option<G::Move> {
        let pos = self.arena.ply(ply).pos;
        if self.game.outcome(&pos).is_some() || ply >= self.horizon {
            return None;
        }
        // All legal moves, not the game's pruned list: an immediate win must be found too.
        let n = {
            let p = self.arena.ply_mut(ply);
            self.game.moves(&p.pos, &mut p.moves);
            let n = p.moves.len();
            for (h, &mv) in p.hints.iter_mut().zip(p.moves.as_slice()) {
                *h = G::Knowledge::move_hint(self.game, &p.pos, mv);
            }
            self.ordering.sort(
                self.game,
                &p.pos,
                ply,
                &mut p.moves,
                crate::game::NO_CODE,
                &mut p.hints,
            );
            n
        };
        for i in 0..n {
            let mv = self.descend(ply, i);
            // Every legal move is tried here, a game-ending one too, which `analyse` is not
            // asked to recognise.
            let child = self.arena.ply(ply + 1).pos;
            let v = match self.game.outcome(&child) {
                Some(u) => -u,
                None => -self.pvs(ply + 1, -value - 1, -value + 1),
            };
            if self.stopped {
                return None;
            }
            if v >= value {
                return Some(mv);
            }
        }
        Some(self.arena.ply(ply).moves.as_slice()[0])
    }
}
