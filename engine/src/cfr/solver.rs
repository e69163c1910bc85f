//! Counterfactual regret minimisation on a [`ExtensiveTree`]: vanilla CFR, CFR+, linear CFR and
//! discounted CFR, one code path set by [`Params`].
//!
//! # An iteration
//!
//! Updates alternate: iteration `t` updates player 0 from a full walk of the tree, then player
//! 1 from a second walk that already sees player 0's new strategy, and so on. Each walk for
//! player `p` is two loops over the non-terminal nodes:
//!
//! 1. forward, breadth first: each node's reach by the other players (`p`'s actions and
//!    chance's outcomes count 1; the chance reach is a constant of the tree);
//! 2. backward, depth by depth from the deepest: the value of each node for `p` under the
//!    current strategies, and at each of `p`'s nodes `h` the regrets `cf(h) * (value(h, a) -
//!    value(h))` added to the cumulative regrets, where `cf(h)` is the other players' reach
//!    times the chance reach. A node the other players reach with probability 0 is skipped:
//!    its weight in its parent is 0, so its value is never needed, and it adds 0 to every
//!    regret. (Regret matching makes exact zeros, so this prunes part of the tree once the
//!    strategies sharpen: about 10% of vanilla CFR's time on Leduc. A reach that underflows
//!    to 0 is skipped too, with an error below `1e-308` times the payoffs.)
//!
//! Then one pass over `p`'s information sets adds `p`'s current strategy to the average,
//! weighted by `p`'s own reach of the set (a product along
//! [`Infoset::parent_slot`](super::Infoset)), discounts or clips the cumulative regrets, and
//! runs regret matching (uniform when no regret is positive) for the next strategy. Nothing
//! is allocated, hashed or recursed into.
//!
//! # The same arithmetic as a recursive CFR
//!
//! CFR's trajectory is not continuous in rounding: an action whose cumulative regret should be
//! exactly 0 but comes out `1e-18` gets all of regret matching's probability instead of a
//! share, and after a few hundred iterations two correct implementations that add the same
//! numbers in different orders report exploitabilities that differ in the third digit (CFR+
//! on Leduc after 1000 iterations: 2.513e-4 against 2.572e-4). So the walk does every
//! floating-point operation of the textbook recursive CFR (as in OpenSpiel) in the same
//! order: node values summed over actions in order; `cf(h)` as the other player's reach
//! times the chance reach, each a product along the path; each history's regret added
//! straight into the cumulative regret. Within one depth the backward loop visits the
//! histories of an information set in breadth-first order, which among the nodes of one
//! depth is the depth-first order of the recursion; so for games whose information sets keep
//! their histories at one depth (Kuhn, Leduc) the regrets, and so the strategies, are bit for
//! bit those of the recursive CFR.
//!
//! # The variants
//!
//! | variant | regret matching | regret discount after iteration `t` | weight of iteration `t` in the average |
//! |---|---|---|---|
//! | vanilla CFR | plain | none | 1 |
//! | CFR+ | + (clip at 0) | none | `t` |
//! | linear CFR | plain | `t / (t + 1)` on all regrets | `t` |
//! | discounted CFR (1.5, 0, 2) | plain | positive `t^1.5 / (t^1.5 + 1)`, negative `1/2` | `t^2` |
//!
//! Linear CFR weighs iteration `t`'s regrets by `t`; scaling the cumulative regrets by
//! `t / (t + 1)` after each iteration gives the same regrets up to a positive factor, which
//! regret matching ignores, and keeps them from growing. Discounting the average strategy by
//! `(t / (t + 1))^gamma` each iteration, as in the discounted CFR paper, is likewise the
//! weight `t^gamma` up to a factor, so the average is kept with that weight directly.

pub use super::params::{Params, Variant};

use super::tree::{ExtensiveTree, Inner, CHANCE, NO_SLOT, TERMINAL};

/// A CFR solver on one tree: cumulative regrets, the current and the average strategy, and
/// the scratch arrays of the walks, all allocated once by [`Cfr::new`].
#[derive(Clone, Debug)]
pub struct Cfr<'t> {
    tree: &'t ExtensiveTree,
    params: Params,
    iteration: u64,
    /// The current strategy (the first `tree.slots()` entries), then the chance
    /// probabilities, then a 1: the walks read every node's distribution from here.
    probs: Vec<f64>,
    /// Cumulative regrets, one per slot.
    regret: Vec<f64>,
    /// Cumulative (weighted, unnormalised) average strategy, one per slot.
    avg: Vec<f64>,
    /// The other players' reach of each non-terminal node (chance left out), for the player
    /// being updated, indexed like [`ExtensiveTree::inner`].
    reach: Vec<f64>,
    /// For player `p` and non-terminal node `i` (at `p * inner + i`): the index of its parent
    /// in [`ExtensiveTree::inner`] and the slot of its edge's probability in `probs`, or the slot of
    /// a 1 where the edge is `p`'s own or chance's. The forward loop is one multiply a node.
    down: Vec<[u32; 2]>,
    /// Node values, one array of `tree.nodes()` per player; terminal entries hold the
    /// player's payoffs once and for all, so a walk only writes non-terminal entries.
    values: Vec<f64>,
    /// Own reach probability of each information set (scratch of the update).
    own: Vec<f64>,
}

impl<'t> Cfr<'t> {
    /// A vanilla CFR solver on `tree`, starting from the uniform strategy;
    /// [`variant`](Self::variant) or [`params`](Self::params) choose another, in the builder
    /// style of [`Solver`](crate::Solver).
    pub fn new(tree: &'t ExtensiveTree) -> Cfr<'t> {
        let n = tree.nodes();
        let players = tree.players();
        let mut values = vec![0.0; n * players];
        for node in 0..n {
            if tree.owner(node) == TERMINAL {
                for (p, &x) in tree.node_payoffs(node).iter().enumerate() {
                    values[p * n + node] = x;
                }
            }
        }
        let mut probs = tree.with_chance(&tree.uniform_strategy());
        // The slot of probability 1, for the edges that do not change the other players' reach.
        let one = probs.len() as u32;
        probs.push(1.0);
        let inner = tree.inner();
        let mut inner_of = vec![u32::MAX; n];
        for (i, e) in inner.iter().enumerate() {
            inner_of[e.node as usize] = i as u32;
        }
        let m = inner.len();
        let mut down = vec![[0, one]; m * players];
        for (i, e) in inner.iter().enumerate() {
            for k in 0..e.count as u32 {
                let j = inner_of[(e.first_child + k) as usize];
                if j == u32::MAX {
                    continue;
                }
                for p in 0..players {
                    let slot = if e.owner as usize == p || e.owner == CHANCE {
                        one
                    } else {
                        e.slot + k
                    };
                    down[p * m + j as usize] = [i as u32, slot];
                }
            }
        }
        let slots = tree.slots();
        Cfr {
            tree,
            params: Params::VANILLA,
            iteration: 0,
            probs,
            regret: vec![0.0; slots],
            avg: vec![0.0; slots],
            reach: vec![0.0; m],
            down,
            values,
            own: vec![0.0; tree.infosets().len()],
        }
    }

    /// The tree.
    pub fn tree(&self) -> &'t ExtensiveTree {
        self.tree
    }

    /// Runs the variant `variant`. Set it before the first iteration: a change later
    /// applies from the next one.
    pub fn variant(self, variant: Variant) -> Self {
        self.params(variant.params())
    }

    /// Runs with the parameters `params` (see [`variant`](Self::variant)).
    pub fn params(mut self, params: Params) -> Self {
        self.params = params;
        self
    }

    /// The parameters in force.
    pub fn settings(&self) -> Params {
        self.params
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iteration
    }

    /// Runs `n` iterations (each updates every player once, in order 0, 1, ...), or fewer
    /// if they would take it past [`MAX_ITERATIONS`](super::state::MAX_ITERATIONS).
    pub fn run(&mut self, n: u64) {
        let room = super::state::MAX_ITERATIONS.saturating_sub(self.iteration);
        for _ in 0..n.min(room) {
            self.iterate();
        }
    }

    /// One iteration: for each player in turn, a walk and an update. Nothing at
    /// [`MAX_ITERATIONS`](super::state::MAX_ITERATIONS): the bounds that make a saved state
    /// safe to resume hold up to there (see [`super::state`]), and no run gets near it.
    pub fn iterate(&mut self) {
        if self.iteration >= super::state::MAX_ITERATIONS {
            return;
        }
        self.iteration += 1;
        for p in 0..self.tree.players() {
            self.walk(p);
            self.update(p);
        }
    }

    /// The current strategy (the one the next iteration plays), one probability per slot.
    pub fn current_strategy(&self) -> &[f64] {
        &self.probs[..self.tree.slots()]
    }

    /// The cumulative regrets, one per slot (for the discounting variants, discounted).
    pub fn regrets(&self) -> &[f64] {
        &self.regret
    }

    /// The average strategy: the answer, converging to an equilibrium in two-player zero-sum
    /// games. An information set never reached with positive weight gets the uniform
    /// strategy.
    pub fn average_strategy(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.tree.slots()];
        self.average_strategy_into(&mut out);
        out
    }

    /// [`Cfr::average_strategy`] written into `out` (one entry per slot), allocating
    /// nothing.
    pub fn average_strategy_into(&self, out: &mut [f64]) {
        assert_eq!(out.len(), self.tree.slots());
        for set in self.tree.infosets() {
            let f = set.first_slot as usize;
            let n = set.actions as usize;
            super::normalise(&self.avg[f..f + n], &mut out[f..f + n]);
        }
    }

    /// The walk for player `p` (see the module comment): fills `reach` and `p`'s node
    /// values, and adds the iteration's regrets to `p`'s cumulative regrets.
    fn walk(&mut self, p: usize) {
        let tree = self.tree;
        let inner = tree.inner();
        let m = inner.len();
        if m == 0 {
            return;
        }
        let n = tree.nodes();
        let probs = &self.probs[..];
        let chance = tree.chance_reaches();
        let reach = &mut self.reach[..m];
        let val = &mut self.values[p * n..(p + 1) * n];
        let regret = &mut self.regret[..];
        let me = p as u8;
        reach[0] = 1.0;
        for (i, &[parent, slot]) in self.down[p * m..(p + 1) * m].iter().enumerate().skip(1) {
            reach[i] = reach[parent as usize] * probs[slot as usize];
        }
        for level in tree.levels().rev() {
            for i in level {
                let r = reach[i];
                if r == 0.0 {
                    continue;
                }
                let e = &inner[i];
                let own = e.owner == me;
                let cf = r * chance[e.node as usize];
                let (f, s, node) = (e.first_child as usize, e.slot as usize, e.node as usize);
                val[node] = match e.count {
                    2 => back::<2>(probs, val, regret, f, s, own, cf),
                    3 => back::<3>(probs, val, regret, f, s, own, cf),
                    _ => back_any(probs, val, regret, e, own, cf),
                };
            }
        }
    }

    /// The update of player `p` after its walk (see the module comment).
    fn update(&mut self, p: usize) {
        let tree = self.tree;
        let sets = tree.player_infosets(p);
        let infosets = tree.infosets();
        let t = self.iteration as f64;
        let Params {
            plus,
            alpha,
            beta,
            gamma,
        } = self.params;
        let weight = if gamma == 0.0 { 1.0 } else { t.powf(gamma) };
        let discount = |e: Option<f64>| {
            e.map_or(1.0, |e| {
                let x = t.powf(e);
                x / (x + 1.0)
            })
        };
        let (pos, neg) = (discount(alpha), discount(beta));
        // The average first, with the strategy this iteration played: parents come before
        // children, and their strategies must not have been updated yet.
        for &i in sets {
            let set = &infosets[i as usize];
            let own = if set.parent_slot == NO_SLOT {
                1.0
            } else {
                let ps = set.parent_slot as usize;
                self.own[tree.slot_infoset(ps)] * self.probs[ps]
            };
            self.own[i as usize] = own;
            let k = own * weight;
            let f = set.first_slot as usize;
            let n = set.actions as usize;
            for (a, &s) in self.avg[f..f + n].iter_mut().zip(&self.probs[f..f + n]) {
                *a += k * s;
            }
        }
        for &i in sets {
            let set = &infosets[i as usize];
            let f = set.first_slot as usize;
            let n = set.actions as usize;
            let sigma = &mut self.probs[f..f + n];
            let regret = &mut self.regret[f..f + n];
            let mut positive = 0.0;
            for r in regret.iter_mut() {
                let mut x = *r;
                if x > 0.0 {
                    x *= pos;
                } else if x < 0.0 {
                    x = if plus { 0.0 } else { x * neg };
                }
                *r = x;
                if x > 0.0 {
                    positive += x;
                }
            }
            if positive > 0.0 {
                for (s, &r) in sigma.iter_mut().zip(regret.iter()) {
                    *s = r.max(0.0) / positive;
                }
            } else {
                sigma.fill(1.0 / n as f64);
            }
        }
    }
}

/// One node of the backward loop, with `N` children from `first` and probabilities from
/// `slot`: returns the node's value and, at the updated player's own node (`own`), adds
/// `cf * (child value - node value)` to each action's regret. The value sums in child order
/// from 0, as a recursive CFR does.
#[inline(always)]
fn back<const N: usize>(
    probs: &[f64],
    val: &[f64],
    regret: &mut [f64],
    first: usize,
    slot: usize,
    own: bool,
    cf: f64,
) -> f64 {
    let w: &[f64; N] = probs[slot..slot + N].try_into().expect("N probabilities");
    let ch: &[f64; N] = val[first..first + N].try_into().expect("N children");
    let mut v = 0.0;
    for (&w, &c) in w.iter().zip(ch) {
        v += w * c;
    }
    if own {
        let rg: &mut [f64; N] = (&mut regret[slot..slot + N]).try_into().expect("N regrets");
        for (r, &c) in rg.iter_mut().zip(ch) {
            *r += cf * (c - v);
        }
    }
    v
}

/// [`back`] for any number of children, the node's entry `e` giving where they and their
/// probabilities start and how many there are.
#[inline(always)]
fn back_any(probs: &[f64], val: &[f64], regret: &mut [f64], e: &Inner, own: bool, cf: f64) -> f64 {
    let (first, slot, count) = (e.first_child as usize, e.slot as usize, e.count as usize);
    let ch = &val[first..first + count];
    let mut v = 0.0;
    for (&w, &c) in probs[slot..slot + count].iter().zip(ch) {
        v += w * c;
    }
    if own {
        for (r, &c) in regret[slot..slot + count].iter_mut().zip(ch) {
            *r += cf * (c - v);
        }
    }
    v
}

/// Saving and resuming (see [`super::state`]).
impl<'t> Cfr<'t> {
    /// The state to save: with [`Cfr::from_state`], a resumed run equals the run that was
    /// never stopped, bit for bit.
    pub fn state(&self) -> super::state::CfrState {
        let algo = super::state::variant_for(self.params).map_or("custom", Variant::name);
        super::state::CfrState {
            game: self.tree.name().to_string(),
            algo: algo.to_string(),
            params: self.params,
            fingerprint: super::state::Fingerprint::of(self.tree),
            iterations: self.iteration,
            current: self.current_strategy().to_vec(),
            regret: self.regret.clone(),
            avg: self.avg.clone(),
        }
    }

    /// A solver on `tree` that goes on from `state`; an error if the state belongs to
    /// another game or tree.
    pub fn from_state(
        tree: &'t ExtensiveTree,
        state: &super::state::CfrState,
    ) -> Result<Cfr<'t>, super::state::StateError> {
        state.check(tree)?;
        // Everything else (reaches, node values, own reaches) is scratch that each walk
        // writes before it reads.
        let mut s = Cfr::new(tree).params(state.params);
        s.iteration = state.iterations;
        s.probs[..tree.slots()].copy_from_slice(&state.current);
        s.regret.copy_from_slice(&state.regret);
        s.avg.copy_from_slice(&state.avg);
        Ok(s)
    }
}
