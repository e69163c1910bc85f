//! Ballard's Star1 and Star2: alpha-beta through chance nodes (Ballard 1983, "The *-minimax
//! search procedure for trees containing chance nodes"), in negamax form, with the table, move
//! ordering and the engine's iterative deepening (see [`super::search`]).
//!
//! # Star1
//!
//! Every leaf value lies in `[L, U]`. At a chance node with window `(alpha, beta)`, after the
//! outcomes before `i` have been searched (their weighted sum is `S`), outcome `i` of
//! probability `p` can only pull the node below `alpha` if its value `v` satisfies
//! `S + p*v + U*rest <= alpha`, and above `beta` if `S + p*v + L*rest >= beta` (`rest`: the
//! probability of the outcomes after `i`). So the child is searched with the window
//! `((alpha - S - U*rest)/p, (beta - S - L*rest)/p)`, clipped to `[L, U]`, and a result outside
//! it cuts the chance node off with a bound. With `L` and `U` infinite the windows are infinite
//! and no chance node is cut; decision nodes still cut where their window allows, so on trees
//! whose decision nodes only lead to chance nodes and leaves, Star1 then visits exactly
//! expectiminimax's nodes.
//!
//! # Star2
//!
//! Before Star1's pass, Star2 probes each outcome: it searches only the first move of the
//! decision node the outcome leads to. That move's value bounds the node for its mover from
//! below, which is a lower bound for the chance node's owner where the same player moves next,
//! and an upper bound where the other does. If the lower bounds already reach `beta`, or the
//! upper bounds stay under `alpha`, the chance node is cut off without a full search; otherwise
//! the bounds narrow the windows of Star1's pass (`L` and `U` for the later outcomes are
//! replaced by what the probes proved), and the pass starts each probed node from its probed
//! move's value rather than searching that move again (without this, every chance level would
//! search the first move twice, and Star2 without a table would visit more nodes than
//! expectiminimax). A probed node is counted once. With good move ordering the probed move is
//! the best one, and the probe is nearly the whole work.
//!
//! # Values
//!
//! A node's value is for its owner: the player to move, or at a chance node the player who
//! moved into it (the side to move after a chance node depends on the outcome: Pig's 1 passes
//! the turn). A child owned by the other player is negated with its window. Results are
//! fail-soft: at most `alpha` means an upper bound, at least `beta` a lower bound. The sums
//! are floating point, so a bound may overshoot the window by a rounding error (about 1e-16).

pub use super::context::Seed;
use super::table::Bounds;
use super::{owner, Aborted, Ctx, Cut, MultiGame, MultiObserver, Payoffs, Turn, Window};
use crate::game::MoveBuffer;
use crate::rng::GOLDEN;

/// Star1 (`probe` false) or Star2 (`probe` true), `depth` plies deep with the full window
/// `[L, U]`: the root's payoffs (the zero-sum pair) and its best move.
pub fn star<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    depth: usize,
    probe: bool,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    // In a zero-sum game both players' payoffs lie in [L, U], so each lies in [-U, -L] too.
    let (l, u) = ctx.bounds;
    let (l, u) = (l.max(-u), u.min(-l));
    let mut s = Star { l, u, probe, ctx };
    let me = owner(s.ctx.game.turn(root), 0);
    let (v, best) = s.node(root, me, 0, depth, Window::new(l, u), None)?;
    let best_move = best.map(|i| s.ctx.frames[0].moves.as_slice()[i]);
    Ok((Payoffs::zero_sum2(me, v), best_move))
}

/// The fail-soft value of `root` for its owner under Star1 or Star2 with the window
/// `(alpha, beta)`, `depth` plies deep: at most `alpha` is an upper bound on the true value,
/// at least `beta` a lower bound, anything between is exact (up to rounding).
pub fn star_window<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    depth: usize,
    probe: bool,
    alpha: f64,
    beta: f64,
) -> Result<f64, Aborted> {
    let (l, u) = ctx.bounds;
    let (l, u) = (l.max(-u), u.min(-l));
    let mut s = Star { l, u, probe, ctx };
    let me = owner(s.ctx.game.turn(root), 0);
    let (v, _) = s.node(root, me, 0, depth, Window::new(alpha, beta), None)?;
    Ok(v)
}

/// The state of one Star search: the context and the bounds on leaf values.
struct Star<'c, 'a, G: MultiGame, O: MultiObserver<G>> {
    ctx: &'c mut Ctx<'a, G, O>,
    l: f64,
    u: f64,
    probe: bool,
}

/// `bound * mass`, with an empty mass contributing nothing even for an infinite bound.
#[inline]
fn weigh(bound: f64, mass: f64) -> f64 {
    if mass > 0.0 {
        bound * mass
    } else {
        0.0
    }
}

impl<G: MultiGame, O: MultiObserver<G>> Star<'_, '_, G, O> {
    /// The table key of `pos` scored for `me` (a chance node reached by either player is two
    /// entries).
    #[inline]
    fn key(&self, pos: &G::Pos, me: usize) -> u64 {
        self.ctx.game.key(pos) ^ (me as u64 + 1).wrapping_mul(GOLDEN)
    }

    /// The value of `child` for `me`, searched with `me`'s window `w`.
    #[inline]
    fn child(
        &mut self,
        child: &G::Pos,
        me: usize,
        ply: usize,
        depth: usize,
        w: Window,
    ) -> Result<f64, Aborted> {
        self.child_seeded(child, me, ply, depth, w, None)
    }

    /// [`Star::child`] for a decision node Star2 has probed (`seed`, in its mover's view).
    #[inline]
    fn child_seeded(
        &mut self,
        child: &G::Pos,
        me: usize,
        ply: usize,
        depth: usize,
        w: Window,
        seed: Option<Seed>,
    ) -> Result<f64, Aborted> {
        let them = owner(self.ctx.game.turn(child), me);
        if them == me {
            Ok(self.node(child, me, ply, depth, w, seed)?.0)
        } else {
            Ok(-self.node(child, them, ply, depth, w.flip(), seed)?.0)
        }
    }

    /// The value of `pos` for its owner `me` with window `w` (fail-soft), and the index of the
    /// best move when a player is to move. A `seed` (Star2's probe of this node) means the node
    /// was counted when probed and its probed move need not be searched again.
    fn node(
        &mut self,
        pos: &G::Pos,
        me: usize,
        ply: usize,
        depth: usize,
        w: Window,
        seed: Option<Seed>,
    ) -> Result<(f64, Option<usize>), Aborted> {
        let Window { alpha, beta } = w;
        self.ctx.obs.entered(ply, pos, me, (alpha, beta));
        let turn = self.ctx.game.turn(pos);
        if turn == Turn::Terminal || depth == 0 {
            let v = self.ctx.leaf(ply, pos, turn == Turn::Terminal)?.get(me);
            self.ctx
                .obs
                .settled(ply, pos, &Payoffs::zero_sum2(me, v), true);
            return Ok((v, None));
        }
        if seed.is_none() {
            self.ctx.visit(ply, turn)?;
        }
        // A window outside the leaf bounds is answered by the bounds themselves.
        if beta <= self.l {
            return Ok((self.l, None));
        }
        if alpha >= self.u {
            return Ok((self.u, None));
        }
        let key = self.key(pos, me);
        let mut first = None;
        if let Some(t) = self.ctx.table {
            if let Some(b) = t.probe(key) {
                first = b.best.map(|m| m as usize);
                if !b.cut || b.depth as usize >= depth {
                    let hit = if b.lo >= beta {
                        Some((b.lo, false))
                    } else if b.hi <= alpha {
                        Some((b.hi, false))
                    } else if b.lo == b.hi {
                        Some((b.lo, true))
                    } else {
                        None
                    };
                    if let Some((v, exact)) = hit {
                        self.ctx.stats.table_cutoffs += 1;
                        self.ctx.horizon_hit |= b.cut;
                        self.ctx
                            .obs
                            .settled(ply, pos, &Payoffs::zero_sum2(me, v), exact);
                        return Ok((v, first));
                    }
                }
            }
        }
        // Whether this subtree meets the horizon, kept apart from the rest of the search.
        let outer_hit = std::mem::replace(&mut self.ctx.horizon_hit, false);
        let (v, best) = match turn {
            Turn::Player(_) => {
                let first = seed.map_or(first, |s| Some(s.idx as usize));
                self.ctx.order(ply, pos, first);
                self.decision(pos, me, ply, depth, w, seed)?
            }
            _ => (self.chance(pos, me, ply, depth, w)?, None),
        };
        let cut = self.ctx.horizon_hit;
        self.ctx.horizon_hit |= outer_hit;
        let exact = alpha < v && v < beta;
        if let Some(t) = self.ctx.table {
            let (lo, hi) = if v <= alpha {
                (self.l, v)
            } else if v >= beta {
                (v, self.u)
            } else {
                (v, v)
            };
            t.store(
                key,
                Bounds {
                    lo,
                    hi,
                    depth: depth.min(u16::MAX as usize - 1) as u16,
                    best: best.and_then(|i| u8::try_from(i).ok()),
                    cut,
                },
            );
        }
        self.ctx
            .obs
            .settled(ply, pos, &Payoffs::zero_sum2(me, v), exact);
        Ok((v, best))
    }

    /// Alpha-beta at a decision node of `me`, its moves already ordered (by [`Star::node`]).
    fn decision(
        &mut self,
        pos: &G::Pos,
        me: usize,
        ply: usize,
        depth: usize,
        w: Window,
        seed: Option<Seed>,
    ) -> Result<(f64, Option<usize>), Aborted> {
        let Window { alpha, beta } = w;
        let n = self.ctx.frames[ply].perm.len();
        let mut best = f64::NEG_INFINITY;
        let mut best_i = None;
        let mut a = alpha;
        for k in 0..n {
            let i = self.ctx.frames[ply].perm[k] as usize;
            let mv = self.ctx.frames[ply].moves.as_slice()[i];
            // The probed move is not searched again where its value is exact, or a lower
            // bound that already reaches beta.
            let reuse =
                seed.filter(|s| k == 0 && s.idx as usize == i && (s.exact || s.value >= beta));
            let v = match reuse {
                Some(s) => {
                    self.ctx.horizon_hit |= s.cut;
                    s.value
                }
                None => {
                    let child = self.ctx.game.play(pos, mv);
                    self.child(&child, me, ply + 1, depth - 1, Window::new(a, beta))?
                }
            };
            if v > best {
                best = v;
                best_i = Some(i);
            }
            if best > a {
                a = best;
            }
            if a >= beta {
                self.ctx.stats.cutoffs += 1;
                if k + 1 < n {
                    let next = self.ctx.frames[ply].perm[k + 1] as usize;
                    self.ctx.obs.pruned(ply, pos, next, Cut::Decision(best));
                }
                break;
            }
        }
        if best_i.is_none() {
            // A player with no move: the game treats the position as terminal.
            best = self.ctx.game.payoffs(pos).get(me);
        }
        Ok((best, best_i))
    }

    /// Star1 (after Star2's probes, when on) at a chance node owned by `me`.
    fn chance(
        &mut self,
        pos: &G::Pos,
        me: usize,
        ply: usize,
        depth: usize,
        w: Window,
    ) -> Result<f64, Aborted> {
        let Window { alpha, beta } = w;
        self.ctx
            .game
            .outcomes(pos, &mut self.ctx.frames[ply].outcomes);
        let n = self.ctx.frames[ply].outcomes.len();
        {
            let f = &mut self.ctx.frames[ply];
            f.lo[..n].fill(self.l);
            f.hi[..n].fill(self.u);
            f.seeds[..n].fill(None);
        }
        // Outcomes whose value is already exact (a leaf met while probing): bit i.
        let mut known: u64 = 0;
        if self.probe {
            if let Some(v) = self.probe_all(pos, me, ply, depth, w, &mut known)? {
                return Ok(v);
            }
        }
        let mut sum = 0.0;
        for i in 0..n {
            let f = &self.ctx.frames[ply];
            let o = f.outcomes.as_slice()[i];
            let (mut rest_lo, mut rest_hi) = (0.0, 0.0);
            for j in i + 1..n {
                let pj = f.outcomes.as_slice()[j].prob;
                rest_lo += weigh(f.lo[j], pj);
                rest_hi += weigh(f.hi[j], pj);
            }
            let p = o.prob;
            let mut a = (alpha - sum - rest_hi) / p;
            let mut b = (beta - sum - rest_lo) / p;
            // An infinite bound proves nothing about a chance node, not even at its last
            // outcome: the window stays open, as in Ballard's incremental form, where
            // `A = N(alpha - U) + U` is already unbounded.
            if self.u == f64::INFINITY {
                a = f64::NEG_INFINITY;
            }
            if self.l == f64::NEG_INFINITY {
                b = f64::INFINITY;
            }
            let (lo_i, hi_i) = (f.lo[i], f.hi[i]);
            // Rounding aside, what is known already decides the node when the window for
            // this outcome is empty.
            if b <= lo_i {
                self.ctx.stats.chance_cutoffs += 1;
                return Ok(sum + p * lo_i + rest_lo);
            }
            if a >= hi_i {
                self.ctx.stats.chance_cutoffs += 1;
                return Ok(sum + p * hi_i + rest_hi);
            }
            let v = if known >> i & 1 == 1 {
                lo_i
            } else {
                let seed = f.seeds[i];
                let child = self.ctx.game.play(pos, o.mv);
                let w = Window::new(a.max(self.l), b.min(self.u));
                self.child_seeded(&child, me, ply + 1, depth - 1, w, seed)?
            };
            if v <= a {
                self.ctx.stats.chance_cutoffs += 1;
                let bound = sum + p * v + rest_hi;
                if i + 1 < n {
                    self.ctx.obs.pruned(ply, pos, i + 1, Cut::Chance(bound));
                }
                return Ok(bound);
            }
            if v >= b {
                self.ctx.stats.chance_cutoffs += 1;
                let bound = sum + p * v + rest_lo;
                if i + 1 < n {
                    self.ctx.obs.pruned(ply, pos, i + 1, Cut::Chance(bound));
                }
                return Ok(bound);
            }
            sum += p * v;
        }
        Ok(sum)
    }

    /// Star2's probing phase: bounds on every outcome from one move each, written into the
    /// frame's `lo` and `hi`; `Some(bound)` when they alone cut the chance node off.
    fn probe_all(
        &mut self,
        pos: &G::Pos,
        me: usize,
        ply: usize,
        depth: usize,
        w: Window,
        known: &mut u64,
    ) -> Result<Option<f64>, Aborted> {
        let Window { alpha, beta } = w;
        let n = self.ctx.frames[ply].outcomes.len();
        for i in 0..n {
            let o = self.ctx.frames[ply].outcomes.as_slice()[i];
            let child = self.ctx.game.play(pos, o.mv);
            let turn = self.ctx.game.turn(&child);
            let q = match turn {
                Turn::Player(q) => q,
                Turn::Terminal => {
                    let full = Window::new(self.l, self.u);
                    let v = self.child(&child, me, ply + 1, depth - 1, full)?;
                    let f = &mut self.ctx.frames[ply];
                    f.lo[i] = v;
                    f.hi[i] = v;
                    *known |= 1 << i;
                    continue;
                }
                // A chance node right after a chance node has no move to probe.
                Turn::Chance => continue,
            };
            if depth == 1 {
                // The outcome is a leaf at the horizon: its value is exact now.
                let v = self.child(&child, me, ply + 1, 0, Window::new(self.l, self.u))?;
                let f = &mut self.ctx.frames[ply];
                f.lo[i] = v;
                f.hi[i] = v;
                *known |= 1 << i;
                continue;
            }
            // The thresholds a bound on outcome i must pass to cut the node off, given what
            // is known of the others.
            let (mut others_lo, mut others_hi) = (0.0, 0.0);
            {
                let f = &self.ctx.frames[ply];
                for j in (0..n).filter(|&j| j != i) {
                    let pj = f.outcomes.as_slice()[j].prob;
                    others_lo += weigh(f.lo[j], pj);
                    others_hi += weigh(f.hi[j], pj);
                }
            }
            let a = (alpha - others_hi) / o.prob;
            let b = (beta - others_lo) / o.prob;
            if a.max(self.l) >= b.min(self.u) {
                continue;
            }
            if q == me {
                // The outcome's mover is the owner: one move bounds it from below.
                let w = Window::new(a.max(self.l), b.min(self.u));
                if let Some(r) = self.probe_first(&child, q, ply + 1, depth - 1, w)? {
                    let f = &mut self.ctx.frames[ply];
                    f.lo[i] = f.lo[i].max(r.value);
                    f.seeds[i] = Some(r);
                }
            } else {
                // The other player moves: one move bounds it from above for the owner.
                let w = Window::new((-b).max(self.l), (-a).min(self.u));
                if let Some(r) = self.probe_first(&child, q, ply + 1, depth - 1, w)? {
                    let f = &mut self.ctx.frames[ply];
                    f.hi[i] = f.hi[i].min(-r.value);
                    f.seeds[i] = Some(r);
                }
            }
            let f = &self.ctx.frames[ply];
            let (mut all_lo, mut all_hi) = (0.0, 0.0);
            for j in 0..n {
                let pj = f.outcomes.as_slice()[j].prob;
                all_lo += weigh(f.lo[j], pj);
                all_hi += weigh(f.hi[j], pj);
            }
            if all_lo >= beta || all_hi <= alpha {
                self.ctx.stats.probe_cutoffs += 1;
                let bound = if all_lo >= beta { all_lo } else { all_hi };
                self.ctx.obs.pruned(ply, pos, 0, Cut::Probe(bound));
                return Ok(Some(bound));
            }
        }
        Ok(None)
    }

    /// Searches only the first move (the table's, else the best by hint) of the decision node
    /// `pos` of player `q`, with `q`'s window `w`: that move's value, a lower bound on the
    /// node's value for `q`, or `None` when the probe failed low and proved nothing.
    fn probe_first(
        &mut self,
        pos: &G::Pos,
        q: usize,
        ply: usize,
        depth: usize,
        w: Window,
    ) -> Result<Option<Seed>, Aborted> {
        let Window { alpha, beta } = w;
        let mut first = None;
        if let Some(t) = self.ctx.table {
            if let Some(b) = t.probe(self.key(pos, q)) {
                first = b.best.map(|m| m as usize);
            }
        }
        self.ctx.visit(ply, Turn::Player(q))?;
        self.ctx.order(ply, pos, first);
        if self.ctx.frames[ply].perm.is_empty() {
            return Ok(None);
        }
        let i = self.ctx.frames[ply].perm[0] as usize;
        let mv = self.ctx.frames[ply].moves.as_slice()[i];
        let child = self.ctx.game.play(pos, mv);
        let outer_hit = std::mem::replace(&mut self.ctx.horizon_hit, false);
        let r = self.child(&child, q, ply + 1, depth - 1, w)?;
        let cut = self.ctx.horizon_hit;
        self.ctx.horizon_hit |= outer_hit;
        Ok((r > alpha).then_some(Seed {
            idx: i as u16,
            value: r,
            exact: r < beta,
            cut,
        }))
    }
}
