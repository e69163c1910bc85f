//! Principal variation search (NegaScout) with the transposition table, move ordering and the
//! game's knowledge hooks. It is also the null-window engine that MTD(f) and the null-window
//! solver call: with `beta == alpha + 1` it is plain null-window alpha-beta.
//!
//! The first move of a node is searched with the full window; the others with a null window
//! around alpha, re-searched with the full window only when they beat alpha. Fail-soft
//! throughout, so table entries get the tightest bounds seen.
//!
//! This is the one node routine of the table-driven searches, serial and parallel alike:
//! [`Searcher::node`] is generic over a [`Policy`], which decides when to stop and whether the
//! moves after the eldest are searched by other threads (see `policy.rs`). A node's work
//! before and after its move loop (leaf and budget checks, game knowledge, table probe, move
//! generation; table store) lives in [`Searcher::prologue`] and [`Searcher::epilogue`], and
//! the null-window search of a child with its re-search in [`Searcher::scout`], which the
//! parallel tasks call too.

use super::policy::{Best, Node, Policy, Serial, Split};
use super::{Ending, Observer, Searcher};
use crate::game::{Game, MoveBuffer, Value, NO_CODE};
use crate::knowledge::{Assessment, Knowledge};
use crate::tt::{Bound, Entry};

/// Table depth meaning "searched to the end of the game": valid at any horizon.
const TO_THE_END: u8 = u8::MAX;

impl<'g, G: Game, O: Observer<G>> Searcher<'g, G, O> {
    /// Serial PVS value of the node at `ply` within `(alpha, beta)`, fail-soft.
    pub(crate) fn pvs(&mut self, ply: usize, alpha: Value, beta: Value) -> Value {
        self.node(ply, alpha, beta, &Serial)
    }

    /// The PVS value of the node at `ply` within `(alpha, beta)`, fail-soft, its work shared
    /// as `policy` says: the node routine.
    pub(crate) fn node<P: Policy<'g, G, O>>(
        &mut self,
        ply: usize,
        alpha: Value,
        beta: Value,
        policy: &P,
    ) -> Value {
        if P::EVERY_NODE && self.horizon - ply < policy.quiet_below() {
            return policy.quietly(self, ply, alpha, beta);
        }
        let node = match self.prologue(ply, alpha, beta, policy) {
            Ok(node) => node,
            Err(v) => return v,
        };
        // A forced move's node is not a node (see `prologue`).
        self.stats.searched += u64::from(!node.forced);
        let mut best = Best::none();
        let mut a = node.alpha;
        let split_after = policy.split_after(self, ply, &node);
        let before = self.stats.nodes;
        // ABDADA: younger brothers another thread is searching now are put off (a bit each)
        // and searched after the others, when their values are likely in the table.
        let defer = P::DEFERS && node.moves > 1 && policy.defers(self.horizon - ply);
        let mut deferred = 0u64;
        // Moves this thread searched, for the observer's profile.
        let mut tried = 0;
        let refutation = self
            .ordering
            .config
            .refutation
            .filter(|r| ply >= r.min_ply && node.moves > 2);
        if refutation.is_some() {
            // Whatever an earlier node's child left here is not this node's children's.
            self.arena.ply_mut(ply + 1).refutation = NO_CODE;
        }
        for i in 0..node.moves {
            if split_after == Some(i) {
                let rest = super::policy::Brothers {
                    ply,
                    node: &node,
                    first: i,
                    eldest_nodes: self.stats.nodes - before,
                };
                match policy.split(self, rest, &mut best, &mut a) {
                    Split::Declined => {}
                    Split::Done => break,
                    Split::Stopped => return 0,
                }
            }
            let claim = if defer && i > 0 && i < 64 {
                let key = self.move_key(ply, i, &node);
                if !policy.enter(key) {
                    deferred |= 1 << i;
                    continue;
                }
                Some(key)
            } else {
                None
            };
            let v = self.child(ply, i, a, node.beta, policy);
            tried += usize::from(O::ENDINGS);
            if let Some(key) = claim {
                policy.leave(key);
            }
            if self.stopped {
                return 0;
            }
            if self.improve(ply, i, v, &mut best, &mut a, node.beta) {
                deferred = 0;
                break;
            }
            if let Some(r) = refutation {
                self.try_refutation_next(ply, i, r.slack);
            }
        }
        while deferred != 0 {
            let i = deferred.trailing_zeros() as usize;
            deferred &= deferred - 1;
            let v = self.child(ply, i, a, node.beta, policy);
            tried += usize::from(O::ENDINGS);
            if self.stopped {
                return 0;
            }
            if self.improve(ply, i, v, &mut best, &mut a, node.beta) {
                break;
            }
        }
        // The node's value is its children's best clamped into the game's bounds. Searched
        // to the end, the best always lies within them and this changes nothing; short of
        // the end, horizon values can fall outside (a claimeven bound of -1 over leaves
        // evaluated 0), and without the clamp a fail-soft value outside the bounds would
        // depend on the window the node was searched with: threads sharing the table, or
        // another move order, could then find another depth-limited value.
        best.value = best.value.max(node.lo).min(node.hi);
        if self.ordering.config.refutation.is_some() && best.value >= node.beta && !node.forced {
            self.arena.ply_mut(ply).refutation = best.code;
        }
        if O::ENDINGS && !node.forced {
            let how = Ending::Searched {
                tried,
                cutoff: best.value >= node.beta,
            };
            self.obs.ended(ply, how);
        }
        self.epilogue(ply, &node, &best, policy);
        best.value
    }

    /// A key for move `i` of the node at `ply`, the same in every thread: the node's table key
    /// mixed with the move's code (in the table's orientation), or with its index for a game
    /// without move codes.
    #[inline]
    fn move_key(&self, ply: usize, i: usize, node: &Node) -> u64 {
        let mv = self.arena.ply(ply).moves.as_slice()[i];
        let code = self.game.move_code(mv);
        let m = if code == NO_CODE {
            256 + i as u64
        } else if node.mirrored {
            u64::from(G::Knowledge::mirror_code(self.game, code))
        } else {
            u64::from(code)
        };
        crate::rng::splitmix64(node.key ^ m.wrapping_mul(crate::rng::GOLDEN))
    }

    /// After move `i` of the node at `ply` failed to cut it off: if the move that cut that
    /// child off is among the moves after the next and its hint is at most `slack` below the
    /// next one's, it moves up to be tried next (see [`crate::game::Refutation`]).
    #[inline(always)]
    fn try_refutation_next(&mut self, ply: usize, i: usize, slack: i32) {
        let code = self.arena.ply(ply + 1).refutation;
        if code == NO_CODE {
            return;
        }
        // Read once: the next child leaves its own, or nothing.
        self.arena.ply_mut(ply + 1).refutation = NO_CODE;
        let game = self.game;
        let p = self.arena.ply_mut(ply);
        let n = p.moves.len();
        if i + 2 >= n {
            return;
        }
        let list = p.moves.as_mut_slice();
        let mut j = i + 2;
        while j < n && game.move_code(list[j]) != code {
            j += 1;
        }
        if j < n && p.hints[j] + slack >= p.hints[i + 1] {
            crate::ordering::move_up(list, j, i + 1);
            crate::ordering::move_up(&mut p.hints, j, i + 1);
        }
    }

    /// Searches move `i` of the node at `ply` (see [`Searcher::scout`]). Returns its value
    /// from `ply`'s side.
    #[inline(always)]
    fn child<P: Policy<'g, G, O>>(
        &mut self,
        ply: usize,
        i: usize,
        a: Value,
        beta: Value,
        policy: &P,
    ) -> Value {
        self.descend_analysed(ply, i);
        if i > 0 && G::Knowledge::settle_children_from_table(self.game, &self.arena.ply(ply).pos) {
            if let Some(v) = self.settled_child(ply + 1, a, beta) {
                self.obs.ended(ply + 1, Ending::SettledByParent);
                return v;
            }
        }
        self.scout(ply + 1, a, beta, i == 0, policy)
    }

    /// The value, from its parent's side, of the child placed at `ply` if its table entry
    /// settles it under the parent's window `(a, beta)`, as its own prologue's probe would
    /// (see [`Knowledge::settle_children_from_table`]): `None` if it does not.
    #[inline(always)]
    fn settled_child(&mut self, ply: usize, a: Value, beta: Value) -> Option<Value> {
        let tt = self.tt?;
        let pos = self.arena.ply(ply).pos;
        let (key, _) = G::Knowledge::table_key(self.game, &pos);
        let (e, age) = tt.probe_aged(key, &mut self.tt_stats)?;
        if e.depth < self.table_depth(self.horizon - ply, &pos) || !self.trusts(tt, e.depth, age) {
            return None;
        }
        // The child's window is (-beta, -a); a fail-soft bound outside it is as good as the
        // child's own answer.
        let v = e.value as Value;
        let settled = match e.bound {
            Bound::Exact => true,
            Bound::Lower => v >= -a,
            Bound::Upper => v <= -beta,
        };
        settled.then_some(-v)
    }

    /// The value, from its parent's side, of the child already placed at `ply`, searched the
    /// PVS way under the parent's window `(a, beta)`: the eldest with the full window, a
    /// younger brother with a null window around `a` first and again with the full window
    /// only if it beats `a`.
    #[inline(always)]
    pub(crate) fn scout<P: Policy<'g, G, O>>(
        &mut self,
        ply: usize,
        a: Value,
        beta: Value,
        eldest: bool,
        policy: &P,
    ) -> Value {
        if eldest {
            return -self.node(ply, -beta, -a, policy);
        }
        let probe = -self.node(ply, -a - 1, -a, policy);
        if probe > a && probe < beta && !self.stopped {
            -self.node(ply, -beta, -probe, policy)
        } else {
            probe
        }
    }

    /// Takes the value `v` of move `i` at `ply`, found by another thread's search of that
    /// brother, into the node's best and alpha.
    pub(crate) fn join_brother(
        &mut self,
        ply: usize,
        i: usize,
        v: Value,
        best: &mut Best<G::Move>,
        a: &mut Value,
        beta: Value,
    ) {
        let raises = v > *a;
        self.improve(ply, i, v, best, a, beta);
        if raises {
            // The brother's line stayed in its own searcher: keep its move.
            let mv = self.arena.ply(ply).moves.as_slice()[i];
            self.arena.set_single(ply, mv);
        }
    }

    /// Publishes that move `i` at `ply`, near the root, is settled (a cutoff: all of them):
    /// what the progress line's settled moves count. Out of line, so that the node loop it
    /// is called from stays as tight as without it.
    #[cold]
    #[inline(never)]
    fn settled_near_root(&self, ply: usize, i: usize, cutoff: bool) {
        if let Some(p) = self.limits.progress {
            p.settle(ply, i, self.arena.ply(ply).moves.len(), cutoff);
        }
    }

    /// Takes the value `v` of move `i` at `ply` into the node's best and alpha; on a cutoff
    /// records it and returns true.
    #[inline(always)]
    fn improve(
        &mut self,
        ply: usize,
        i: usize,
        v: Value,
        best: &mut Best<G::Move>,
        a: &mut Value,
        beta: Value,
    ) -> bool {
        if ply < super::progress::SETTLED_PLIES {
            self.settled_near_root(ply, i, v >= beta);
        }
        if v <= best.value {
            return false;
        }
        let mv = self.arena.ply(ply).moves.as_slice()[i];
        best.value = v;
        best.mv = Some(mv);
        best.code = self.game.move_code(mv);
        if v > *a {
            *a = v;
            if self.track_pv {
                self.arena.update_pv(ply, mv);
            }
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

    /// A node's work before its move loop: leaf and budget checks, the game's analysis (its
    /// per-move half only with a choice of moves), the window narrowed by the game's bounds
    /// and the table, enhanced transposition cutoffs where the game asks for them, then the
    /// moves ordered. `Err(value)` when the node is settled without searching its moves.
    #[inline(always)]
    fn prologue<P: Policy<'g, G, O>>(
        &mut self,
        ply: usize,
        mut alpha: Value,
        mut beta: Value,
        policy: &P,
    ) -> Result<Node, Value> {
        self.opened(ply, alpha, beta);
        // Below the root `analyse` tests for the end of the game (see its contract).
        if let Some(v) = self.enter_with(ply, ply == 0) {
            self.obs.ended(ply, Ending::Analysis);
            return Err(v);
        }
        if self.poll_stop(policy) {
            return Err(0);
        }
        let nodes_before = self.stats.nodes;
        let pos = self.arena.ply(ply).pos;
        let tt = self.tt;
        let (key, mirrored) = G::Knowledge::table_key(self.game, &pos);
        if let Some(tt) = tt {
            // The probe comes after the game's analysis (both halves): memory works meanwhile.
            // Asking only once the node is known to probe spared forced and settled nodes a
            // load, but left too little work to hide the probe's own (see docs/measurements/connect4-knowledge.md, "The node's cost").
            tt.prefetch(key);
        }
        let knowledge = {
            let p = self.arena.ply_mut(ply);
            G::Knowledge::analyse(
                self.game,
                &p.pos,
                &mut p.moves,
                &mut p.hints,
                &mut p.scratch,
            )
        };
        let (lo, hi) = match knowledge {
            Assessment::Value(v) => return Err(self.known(ply, v)),
            Assessment::Bounds(lo, hi) => (lo, hi),
        };
        if let Some(v) = self.narrow(ply, &mut alpha, &mut beta, lo, hi) {
            return Err(v);
        }
        let moves = self.arena.ply(ply).moves.len();
        let left = self.horizon - ply;
        let depth = self.table_depth(left, &pos);
        let node = |alpha, beta, lo, hi, forced, work| Node {
            alpha,
            beta,
            lo,
            hi,
            key,
            depth,
            moves,
            nodes_before,
            mirrored,
            forced,
            work,
        };
        if moves == 1 && G::Knowledge::forced_lines_static(self.game) {
            // A forced move: passed through without a node, a probe or a store of its own.
            self.stats.nodes -= 1;
            self.stats.forced += 1;
            self.obs.ended(ply, Ending::Forced);
            return Ok(node(alpha, beta, lo, hi, true, 0));
        }

        // The per-move half of the game's analysis, for a node with a choice of moves.
        let knowledge = {
            let p = self.arena.ply_mut(ply);
            G::Knowledge::analyse_moves(self.game, &p.pos, &p.moves, &mut p.hints, &mut p.scratch)
        };
        let (lo, hi) = match knowledge {
            Assessment::Value(v) => return Err(self.known(ply, v)),
            Assessment::Bounds(lo2, hi2) => {
                if let Some(v) = self.narrow(ply, &mut alpha, &mut beta, lo2, hi2) {
                    return Err(v);
                }
                (lo.max(lo2), hi.min(hi2))
            }
        };
        let mut table_move = NO_CODE;
        let mut work = 0;
        if let Some(tt) = tt {
            if let Some((e, age)) = tt.probe_aged(key, &mut self.tt_stats) {
                work = e.work;
                table_move = if mirrored && e.mv != NO_CODE {
                    G::Knowledge::mirror_code(self.game, e.mv)
                } else {
                    e.mv
                };
                if e.depth >= depth && self.trusts(tt, e.depth, age) {
                    let v = e.value as Value;
                    match e.bound {
                        Bound::Exact => {
                            self.obs.ended(ply, Ending::Table);
                            self.settle(ply, v);
                            return Err(v);
                        }
                        Bound::Lower => alpha = alpha.max(v),
                        Bound::Upper => beta = beta.min(v),
                    }
                    if alpha >= beta {
                        self.obs.ended(ply, Ending::Table);
                        self.settle(ply, v);
                        return Err(v);
                    }
                }
            }
        }
        if let Some(tt) = tt {
            if left > 0 && G::Knowledge::enhanced_cutoffs(self.game, &pos) {
                if let Some(v) = self.enhanced_cutoff(tt, ply, left - 1, beta) {
                    // A fail high, clamped like the loop's values (see `node`).
                    let v = v.min(hi);
                    self.obs.ended(ply, Ending::EnhancedCutoff);
                    self.settle(ply, v);
                    return Err(v);
                }
            }
        }

        let p = self.arena.ply_mut(ply);
        self.ordering.sort(
            self.game,
            &p.pos,
            ply,
            &mut p.moves,
            table_move,
            &mut p.hints,
        );
        if let Some(tt) = tt {
            // Later children's probes then find their clusters already loading.
            for &mv in p.moves.as_slice().iter() {
                tt.prefetch(G::Knowledge::table_key(self.game, &self.game.play(&p.pos, mv)).0);
            }
        }
        Ok(node(alpha, beta, lo, hi, false, work))
    }

    /// Settles the node at `ply` on the value the game's analysis gave: a leaf.
    #[inline(always)]
    fn known(&mut self, ply: usize, v: Value) -> Value {
        self.obs.ended(ply, Ending::Analysis);
        self.stats.leaves += 1;
        self.settle(ply, v);
        v
    }

    /// Narrows the window `(alpha, beta)` of the node at `ply` by the game's bounds `lo..=hi`;
    /// an emptied window is answered by the bound that emptied it (the node is settled).
    #[inline(always)]
    fn narrow(
        &mut self,
        ply: usize,
        alpha: &mut Value,
        beta: &mut Value,
        lo: Value,
        hi: Value,
    ) -> Option<Value> {
        if *alpha < lo {
            *alpha = lo;
            if *alpha >= *beta {
                self.obs.ended(ply, Ending::Bounds);
                self.settle(ply, lo);
                return Some(lo);
            }
        }
        if *beta > hi {
            *beta = hi;
            if *alpha >= *beta {
                self.obs.ended(ply, Ending::Bounds);
                self.settle(ply, hi);
                return Some(hi);
            }
        }
        None
    }

    /// The depth a node with `left` plies to the horizon is searched to, as the table records
    /// it.
    #[inline]
    fn table_depth(&self, left: usize, pos: &G::Pos) -> u8 {
        if left >= self.game.max_plies(pos) {
            TO_THE_END
        } else {
            left.min(TO_THE_END as usize - 1) as u8
        }
    }

    /// Whether a table entry of `depth`, written by the search of `age`, deep enough for a
    /// node, may settle it. A search to the game's cap takes no value from an entry that an
    /// earlier search (a depth-limited iteration) wrote short of the end: under an honest game
    /// such an entry is exact there (every line ends before its horizon), but under a game
    /// that broke its `max_plies` promise it rests on evaluations past the cap, which this
    /// search must meet itself to see the broken promise (`Searcher::promise_broken`). Honest
    /// games whose `max_plies` falls by one a ply (Connect Four) never come here: to the end,
    /// their nodes ask for [`TO_THE_END`].
    #[inline(always)]
    fn trusts(&self, tt: &crate::tt::TranspositionTable, depth: u8, age: u8) -> bool {
        depth == TO_THE_END || self.horizon < self.end || age == tt.age()
    }

    /// Enhanced transposition cutoff: a child whose table entry shows that its value is at
    /// most `-beta` refutes the window at once. Returns the node's (fail-high) value then.
    fn enhanced_cutoff(
        &mut self,
        tt: &crate::tt::TranspositionTable,
        ply: usize,
        child_left: usize,
        beta: Value,
    ) -> Option<Value> {
        let p = self.arena.ply(ply);
        // All the children's clusters are asked for first, so their misses overlap.
        let mut keys = [0u64; crate::arena::MAX_MOVES];
        let moves = p.moves.as_slice();
        let keys = &mut keys[..moves.len()];
        for (k, &mv) in keys.iter_mut().zip(moves) {
            *k = G::Knowledge::table_key(self.game, &self.game.play(&p.pos, mv)).0;
            tt.prefetch(*k);
        }
        for (&key, &mv) in keys.iter().zip(moves) {
            let Some((e, age)) = tt.probe_aged(key, &mut self.tt_stats) else {
                continue;
            };
            let v = -(e.value as Value);
            if e.bound != Bound::Lower
                && v >= beta
                && e.depth >= self.table_depth(child_left, &self.game.play(&p.pos, mv))
                && self.trusts(tt, e.depth, age)
            {
                self.stats.etc_cutoffs += 1;
                return Some(v);
            }
        }
        None
    }

    /// A node's work after its move loop: the table store, the trace. (A root whose moves
    /// all failed low names no move here: the move with the best upper bound need not reach
    /// the value, so the caller finds one that provably does.)
    #[inline(always)]
    fn epilogue<P: Policy<'g, G, O>>(
        &mut self,
        ply: usize,
        node: &Node,
        best: &Best<G::Move>,
        policy: &P,
    ) {
        if node.forced {
            if best.value >= node.beta {
                // Not a node, so not a cutoff either: its one move says nothing of the move
                // order (`improve` counted it).
                self.stats.cutoffs -= 1;
                self.stats.first_move_cutoffs -= 1;
            }
            self.settle(ply, best.value);
            return;
        }
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
                let mv = if !policy.stores_moves() {
                    NO_CODE
                } else if node.mirrored && best.code != NO_CODE {
                    G::Knowledge::mirror_code(self.game, best.code)
                } else {
                    best.code
                };
                let entry = Entry {
                    value,
                    bound,
                    mv,
                    depth: node.depth,
                    work,
                };
                tt.store(node.key, entry, &mut self.tt_stats);
                if let Some(keep) = self.limits.keep {
                    // The whole subtree's nodes: this searcher's and, where it split, the
                    // other searchers' (see `Searcher::helped`).
                    let helped = self.take_helped(ply);
                    if self.stats.nodes - node.nodes_before + helped >= keep.min_nodes() {
                        keep.offer(node.key, entry);
                    }
                }
            }
        }
        self.settle(ply, best.value);
    }
}
