//! Random trees with chance nodes (Ballard's *-minimax trees), never stored: every node is
//! computed from the seed and the path of child indices leading to it, as in
//! [`random_tree`](crate::games::perfect::random_tree).
//!
//! # Shape
//!
//! Levels alternate decision and chance: MAX, CHANCE, MIN, CHANCE, MAX, ... Player 0 (MAX)
//! moves at the root, and the player after a chance node is the other one. A decision node has
//! `b` moves, a chance node `c` outcomes, and the tree is `d` plies deep, chance levels
//! included, so it has `b^ceil(d/2) * c^floor(d/2)` leaves. Outcome probabilities are uniform
//! or random ([`Probs`]). The game is zero-sum: a leaf of value `v` (player 0's) pays
//! `(v, -v)`, and every leaf value lies in the bounds `[L, U]` ([`DEFAULT_BOUNDS`] unless set),
//! which [`MultiGame::payoff_bounds`] reports for Star1 and Star2 to prune with.
//!
//! # Order
//!
//! [`Order`] is shared with the two-player random trees and means the same at decision nodes:
//!
//! - [`Order::Random`]: independent leaf values, uniform in `[L, U]`; the i.i.d. model.
//! - [`Order::BestFirst`]: at every decision node the first move is the best for the mover and
//!   the others strictly worse in order.
//! - [`Order::WorstFirst`]: the same values with the moves reversed, the worst first. Unlike
//!   the two-player worst-first trees, no claim is made that nothing can be pruned: Star1 and
//!   Star2 also prune at chance nodes with the leaf bounds, which no move order takes away.
//!
//! Chance outcomes are in no particular order in any tree.
//!
//! # Values of the ordered trees
//!
//! Values are assigned top-down, and every node's assigned value is its exact expectiminimax
//! value (up to the rounding of the probability-weighted sums, far below 1e-9):
//!
//! - The root gets a value from the seed's hash in the middle half of `[L, U]`.
//! - A decision node of value `v` gives its best child `v` and its child of rank `k >= 1` the
//!   value `v - (v - L) * phi_k` (MAX) or `v + (U - v) * phi_k` (MIN), where
//!   `phi_k = STEP * (k - 3/4 + u/2) / (b - 1)` with `u` in `[0, 1)` from the child's hash and
//!   [`STEP`] = 1/2: the `phi_k` lie in disjoint intervals inside `(0, STEP)`, so the ranks are
//!   strictly ordered and every child stays strictly inside `(L, U)`.
//! - A chance node of value `v` draws an offset `e_j` in `[-1, 1)` per outcome, re-centres it on
//!   the probability-weighted mean (`e'_j = e_j - sum p_i e_i`, so `sum p_j e'_j = 0`) and
//!   gives outcome `j` the value `v + s * e'_j`, with the scale `s` the largest that keeps every
//!   child within [`SPREAD`] of the way to the nearer bound. The mean is then exactly `v` and
//!   the children stay strictly inside `(L, U)`.
//!
//! A node's assigned value is also its evaluation at a search's horizon, so depth-limited
//! searches see the true values too; in random trees the evaluation of an inner node is noise
//! from its hash, as in the two-player random trees.
//!
//! Random probabilities are dyadic (multiples of `2^-32`) and sum to exactly 1. Each child
//! costs `O(c)` work at a chance node (its siblings' offsets set the scale) and `O(1)` at a
//! decision node; nothing is allocated.

use crate::game::{quote, GameError, MoveBuffer, MoveList};
use crate::games::perfect::random_tree::child_hash;
use crate::multi::{ChanceOutcome, MultiGame, Outcomes, MAX_OUTCOMES};
use crate::players::{Payoffs, Turn};
use crate::rng::{mix, splitmix64};
use std::fmt;
use std::str::FromStr;

pub use crate::games::perfect::random_tree::Order;

/// Largest branching factor at decision nodes (the capacity of the inline move list).
pub const MAX_BRANCHING: usize = 64;

/// Largest number of outcomes at a chance node.
pub const MAX_CHANCE: usize = MAX_OUTCOMES;

/// Largest depth, in plies (decision and chance levels both count).
pub const MAX_DEPTH: usize = 40;

/// The leaf bounds `[L, U]` of a tree unless [`RandomChanceTree::with_bounds`] sets others.
pub const DEFAULT_BOUNDS: (f64, f64) = (-100.0, 100.0);

/// How far towards the nearer bound a chance node's children may spread, as a share of the
/// room between the node's value and that bound: below 1 so that no value reaches a bound.
pub const SPREAD: f64 = 0.5;

/// How far towards the bound beyond them a decision node's worse children may lie, as a share
/// of the room between the node's value and that bound. With this and [`SPREAD`] at 1/2 the
/// leaves of ordered trees spread over the whole range without piling up at the bounds (with
/// `SPREAD` 3/4 and `STEP` 1, a fifth of the leaves of a 12-ply tree lay within 0.5% of the
/// range from a bound, which makes pruning with the bounds unrealistically easy).
pub const STEP: f64 = 0.5;

/// Salts that keep the draws of one node independent of one another.
const SALT_JITTER: u64 = 0x6A09_E667_F3BC_C908;
const SALT_OFFSET: u64 = 0xBB67_AE85_84CA_A73B;
const SALT_WEIGHT: u64 = 0x3C6E_F372_FE94_F82B;
const SALT_ROOT: u64 = 0xA54F_F53A_5F1D_36F1;

/// The denominator of random probabilities: every one is a multiple of its inverse.
const PROB_ONE: u64 = 1 << 32;

/// How the probabilities of a chance node's outcomes are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Probs {
    /// Every outcome `1/c`.
    Uniform,
    /// Random positive probabilities from the node's hash (weights 1 to 1024, normalised),
    /// dyadic and summing to exactly 1.
    Random,
}

crate::names::named_choices!(Probs, "probabilities", GameError, GameError::new, {
    Uniform => "uniform",
    Random => "random",
});

/// A node of a random chance tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChancePos {
    /// Hash of the seed and the path of child indices from the root.
    pub hash: u64,
    /// Player 0's value of the node: in the ordered trees the assigned value, which is exact;
    /// in random trees the leaf value at a leaf and a hash-based estimate elsewhere.
    pub value: f64,
    /// Plies from the root (even: a decision node, odd: a chance node).
    pub ply: u8,
}

/// A random tree with chance nodes (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct RandomChanceTree {
    branching: usize,
    chance: usize,
    depth: usize,
    seed: u64,
    order: Order,
    probs: Probs,
    lo: f64,
    hi: f64,
}

/// A number in `[0, 1)` from a hash and a salt, a multiple of `2^-53`.
#[inline]
fn unit(hash: u64, salt: u64) -> f64 {
    (mix(hash ^ salt) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

impl RandomChanceTree {
    /// A tree with `branching` (1..=64) moves per decision node, `chance` (1..=64) outcomes per
    /// chance node, `depth` (0..=40) plies, the given seed, order and probabilities, and leaf
    /// values in [`DEFAULT_BOUNDS`]. The same arguments always give the same tree.
    pub fn new(
        branching: usize,
        chance: usize,
        depth: usize,
        seed: u64,
        order: Order,
        probs: Probs,
    ) -> Result<RandomChanceTree, GameError> {
        if !(1..=MAX_BRANCHING).contains(&branching) {
            return Err(GameError::new(format!(
                "branching factor {branching} out of range (expected 1..={MAX_BRANCHING})"
            )));
        }
        if !(1..=MAX_CHANCE).contains(&chance) {
            return Err(GameError::new(format!(
                "chance outcomes {chance} out of range (expected 1..={MAX_CHANCE})"
            )));
        }
        if depth > MAX_DEPTH {
            return Err(GameError::new(format!(
                "depth {depth} out of range (expected 0..={MAX_DEPTH})"
            )));
        }
        Ok(RandomChanceTree {
            branching,
            chance,
            depth,
            seed,
            order,
            probs,
            lo: DEFAULT_BOUNDS.0,
            hi: DEFAULT_BOUNDS.1,
        })
    }

    /// The same tree shape with leaf values in `[lo, hi]` (finite, `lo < hi`).
    pub fn with_bounds(mut self, lo: f64, hi: f64) -> Result<RandomChanceTree, GameError> {
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(GameError::new(format!(
                "leaf bounds [{lo}, {hi}] are not a finite interval with lo < hi"
            )));
        }
        self.lo = lo;
        self.hi = hi;
        Ok(self)
    }

    /// Reads a spec of comma-separated `key=value` pairs: `b` (moves), `c` (outcomes) and `d`
    /// (plies) are required; `seed` (default 1), `order` (random, best-first, worst-first;
    /// default random), `probs` (uniform, random; default uniform), `lo` and `hi` (the leaf
    /// bounds, default -100 and 100) are optional. Example: `b=3,c=2,d=6,seed=1,order=random`.
    /// [`RandomChanceTree::spec`] writes it back.
    pub fn parse(spec: &str) -> Result<RandomChanceTree, GameError> {
        let (mut b, mut c, mut d) = (None, None, None);
        let mut seed = 1u64;
        let mut order = Order::Random;
        let mut probs = Probs::Uniform;
        let (mut lo, mut hi) = DEFAULT_BOUNDS;
        let mut seen: Vec<&str> = Vec::new();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                GameError::new(format!(
                    "expected key=value in the chance tree spec, got '{}'",
                    quote(part)
                ))
            })?;
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(GameError::new(format!(
                    "'{}' is given twice in the chance tree spec",
                    quote(key)
                )));
            }
            let int = |what: &str| -> Result<usize, GameError> {
                value.parse::<usize>().map_err(|_| {
                    GameError::new(format!(
                        "invalid {what} '{}' in the chance tree spec (expected a whole number)",
                        quote(value)
                    ))
                })
            };
            let real = |what: &str| -> Result<f64, GameError> {
                value.parse::<f64>().map_err(|_| {
                    GameError::new(format!(
                        "invalid {what} '{}' in the chance tree spec (expected a number)",
                        quote(value)
                    ))
                })
            };
            match key {
                "b" => b = Some(int("branching factor b")?),
                "c" => c = Some(int("outcome count c")?),
                "d" => d = Some(int("depth d")?),
                "seed" => {
                    seed = value.parse::<u64>().map_err(|_| {
                        GameError::new(format!(
                            "invalid seed '{}' in the chance tree spec (expected 0..=2^64-1)",
                            quote(value)
                        ))
                    })?
                }
                "order" => order = value.parse()?,
                "probs" => probs = value.parse()?,
                "lo" => lo = real("lower bound lo")?,
                "hi" => hi = real("upper bound hi")?,
                _ => {
                    return Err(GameError::new(format!(
                        "unknown key '{}' in the chance tree spec (expected b, c, d, seed, \
                         order, probs, lo or hi)",
                        quote(key)
                    )))
                }
            }
            seen.push(key);
        }
        let need = |v: Option<usize>, what: &str| {
            v.ok_or_else(|| {
                GameError::new(format!(
                    "the chance tree spec needs {what} (e.g. b=3,c=2,d=6)"
                ))
            })
        };
        let (b, c, d) = (need(b, "b")?, need(c, "c")?, need(d, "d")?);
        RandomChanceTree::new(b, c, d, seed, order, probs)?.with_bounds(lo, hi)
    }

    /// The spec [`RandomChanceTree::parse`] reads, with every key.
    pub fn spec(&self) -> String {
        format!(
            "b={},c={},d={},seed={},order={},probs={},lo={},hi={}",
            self.branching,
            self.chance,
            self.depth,
            self.seed,
            self.order,
            self.probs,
            self.lo,
            self.hi
        )
    }

    /// Moves per decision node.
    pub fn branching(&self) -> usize {
        self.branching
    }

    /// Outcomes per chance node.
    pub fn chance(&self) -> usize {
        self.chance
    }

    /// Plies from the root to every leaf.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The order of the moves at decision nodes.
    pub fn order(&self) -> Order {
        self.order
    }

    /// How the outcome probabilities are chosen.
    pub fn probs(&self) -> Probs {
        self.probs
    }

    /// The children of a node at `ply`: `b` at decision plies (even), `c` at chance plies.
    fn width(&self, ply: usize) -> u64 {
        if ply & 1 == 0 {
            self.branching as u64
        } else {
            self.chance as u64
        }
    }

    /// Number of leaves, `b^ceil(d/2) * c^floor(d/2)` (saturating).
    pub fn leaves(&self) -> u64 {
        (0..self.depth).fold(1u64, |n, p| n.saturating_mul(self.width(p)))
    }

    /// Every node of the whole tree, leaves included (saturating): what expectiminimax visits.
    pub fn full_nodes(&self) -> u64 {
        let mut level = 1u64;
        let mut total = 1u64;
        for p in 0..self.depth {
            level = level.saturating_mul(self.width(p));
            total = total.saturating_add(level);
        }
        total
    }

    /// A value in `[L, U]` from a hash: random trees' leaves and estimates.
    #[inline]
    fn hash_value(&self, hash: u64) -> f64 {
        self.lo + (self.hi - self.lo) * unit(hash, 0)
    }

    /// The probabilities of the outcomes of the chance node with hash `hash`, into `p`.
    #[inline]
    fn probabilities(&self, hash: u64, p: &mut [f64; MAX_OUTCOMES]) {
        let c = self.chance;
        match self.probs {
            Probs::Uniform => p[..c].fill(1.0 / c as f64),
            Probs::Random => {
                // Integer weights scaled to a total of exactly 2^32, the rounding left over
                // going to outcome 0, so the probabilities are exact and sum to exactly 1.
                let weight = |j: usize| 1 + (mix(child_hash(hash, j) ^ SALT_WEIGHT) >> 54);
                let total: u64 = (0..c).map(weight).sum();
                let mut rest = PROB_ONE;
                for (j, pj) in p[..c].iter_mut().enumerate().skip(1) {
                    let w = weight(j) * PROB_ONE / total;
                    rest -= w;
                    *pj = w as f64 / PROB_ONE as f64;
                }
                p[0] = rest as f64 / PROB_ONE as f64;
            }
        }
    }

    /// The assigned value of outcome `index` of the ordered trees' chance node `pos`.
    fn chance_child_value(&self, pos: &ChancePos, index: usize) -> f64 {
        let c = self.chance;
        let mut p = [0.0; MAX_OUTCOMES];
        self.probabilities(pos.hash, &mut p);
        let mut e = [0.0; MAX_OUTCOMES];
        let mut mean = 0.0;
        for j in 0..c {
            e[j] = 2.0 * unit(child_hash(pos.hash, j), SALT_OFFSET) - 1.0;
            mean += p[j] * e[j];
        }
        let (mut up, mut down) = (0.0f64, 0.0f64);
        for ej in &e[..c] {
            up = up.max(ej - mean);
            down = down.max(mean - ej);
        }
        // The largest scale that keeps every child within SPREAD of the way to each bound.
        let v = pos.value;
        let mut scale = f64::INFINITY;
        if up > 0.0 {
            scale = scale.min((self.hi - v) / up);
        }
        if down > 0.0 {
            scale = scale.min((v - self.lo) / down);
        }
        if !scale.is_finite() {
            return v;
        }
        v + SPREAD * scale * (e[index] - mean)
    }
}

impl fmt::Display for RandomChanceTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spec())
    }
}

impl FromStr for RandomChanceTree {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Self, GameError> {
        RandomChanceTree::parse(s)
    }
}

impl MultiGame for RandomChanceTree {
    type Pos = ChancePos;
    type Move = u8;
    type Moves = MoveList<u8, MAX_BRANCHING>;

    fn players(&self) -> usize {
        2
    }

    fn initial(&self) -> ChancePos {
        let hash = splitmix64(self.seed);
        let value = match self.order {
            Order::Random => self.hash_value(hash),
            // The middle half of [L, U], so that the first levels have room on both sides.
            _ => {
                let (mid, half) = ((self.lo + self.hi) / 2.0, (self.hi - self.lo) / 2.0);
                mid + half * (unit(hash, SALT_ROOT) - 0.5)
            }
        };
        ChancePos {
            hash,
            value,
            ply: 0,
        }
    }

    #[inline]
    fn turn(&self, pos: &ChancePos) -> Turn {
        let ply = pos.ply as usize;
        if ply >= self.depth {
            Turn::Terminal
        } else if ply & 1 == 1 {
            Turn::Chance
        } else {
            Turn::Player((ply / 2) % 2)
        }
    }

    fn payoffs(&self, pos: &ChancePos) -> Payoffs {
        Payoffs::zero_sum2(0, pos.value)
    }

    #[inline]
    fn moves(&self, pos: &ChancePos, out: &mut Self::Moves) {
        out.clear();
        if matches!(self.turn(pos), Turn::Player(_)) {
            for i in 0..self.branching {
                out.push(i as u8);
            }
        }
    }

    fn outcomes(&self, pos: &ChancePos, out: &mut Outcomes<u8>) {
        out.clear();
        if self.turn(pos) != Turn::Chance {
            return;
        }
        let mut p = [0.0; MAX_OUTCOMES];
        self.probabilities(pos.hash, &mut p);
        for (i, &prob) in p[..self.chance].iter().enumerate() {
            out.push(ChanceOutcome { mv: i as u8, prob });
        }
    }

    #[inline]
    fn play(&self, pos: &ChancePos, mv: u8) -> ChancePos {
        let index = mv as usize;
        let hash = child_hash(pos.hash, index);
        let value = match (self.order, self.turn(pos)) {
            (Order::Random, _) => self.hash_value(hash),
            (_, Turn::Chance) => self.chance_child_value(pos, index),
            (order, turn) => {
                let rank = if order == Order::WorstFirst {
                    self.branching - 1 - index
                } else {
                    index
                };
                if rank == 0 {
                    pos.value
                } else {
                    let u = unit(hash, SALT_JITTER);
                    let phi = STEP * (rank as f64 - 0.75 + 0.5 * u) / (self.branching - 1) as f64;
                    if turn == Turn::Player(0) {
                        pos.value - (pos.value - self.lo) * phi
                    } else {
                        pos.value + (self.hi - pos.value) * phi
                    }
                }
            }
        };
        ChancePos {
            hash,
            value,
            ply: pos.ply + 1,
        }
    }

    fn key(&self, pos: &ChancePos) -> u64 {
        // The path hash names the node.
        pos.hash
    }

    fn max_plies(&self, pos: &ChancePos) -> usize {
        self.depth.saturating_sub(pos.ply as usize)
    }

    fn payoff_bounds(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    fn payoff_sum(&self) -> Option<f64> {
        Some(0.0)
    }

    /// The ordered trees' assigned value (exact); in random trees noise from the node's hash.
    fn evaluate(&self, pos: &ChancePos) -> Payoffs {
        Payoffs::zero_sum2(0, pos.value)
    }

    fn format_move(&self, pos: &ChancePos, mv: u8) -> String {
        match self.turn(pos) {
            Turn::Chance => format!("outcome {}", mv as usize + 1),
            _ => (mv as usize + 1).to_string(),
        }
    }

    fn name(&self) -> &'static str {
        "random-chance"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::{search, MultiAlgorithm, MultiLimits};
    use std::collections::HashSet;

    /// Player 0's expectiminimax value of `pos`, searched to the end.
    fn emm(t: &RandomChanceTree, pos: &ChancePos) -> f64 {
        let r = search(
            t,
            pos,
            MultiAlgorithm::Expectiminimax,
            &MultiLimits::default(),
            None,
        )
        .unwrap();
        assert!(r.exact);
        r.values.get(0)
    }

    /// Every node of the tree, depth first.
    fn walk(t: &RandomChanceTree, pos: &ChancePos, f: &mut dyn FnMut(&ChancePos)) {
        f(pos);
        let n = match t.turn(pos) {
            Turn::Terminal => 0,
            Turn::Chance => t.chance,
            Turn::Player(_) => t.branching,
        };
        for i in 0..n {
            walk(t, &t.play(pos, i as u8), f);
        }
    }

    fn shapes() -> Vec<(usize, usize, usize)> {
        vec![
            (1, 1, 3),
            (2, 2, 6),
            (3, 2, 5),
            (2, 3, 7),
            (3, 3, 6),
            (4, 5, 4),
            (5, 1, 4),
        ]
    }

    #[test]
    fn expectiminimax_finds_the_assigned_value_of_ordered_trees() {
        for order in [Order::BestFirst, Order::WorstFirst] {
            for probs in Probs::ALL {
                for (b, c, d) in shapes() {
                    for seed in 0..4 {
                        let t = RandomChanceTree::new(b, c, d, seed, order, probs).unwrap();
                        // Every node, not just the root: its value is what it was given.
                        walk(&t, &t.initial(), &mut |pos| {
                            if pos.ply <= 2 {
                                let v = emm(&t, pos);
                                assert!(
                                    (v - pos.value).abs() < 1e-9,
                                    "{t} ply {}: {v} != {}",
                                    pos.ply,
                                    pos.value
                                );
                            }
                        });
                    }
                }
            }
        }
    }

    #[test]
    fn moves_are_ordered_best_first_or_worst_first() {
        for order in [Order::BestFirst, Order::WorstFirst] {
            for (b, c, d) in shapes() {
                for seed in 0..3 {
                    let t = RandomChanceTree::new(b, c, d, seed, order, Probs::Random).unwrap();
                    walk(&t, &t.initial(), &mut |pos| {
                        let Turn::Player(p) = t.turn(pos) else {
                            return;
                        };
                        // The children's values for the mover, in move order.
                        let sign = if p == 0 { 1.0 } else { -1.0 };
                        let vals: Vec<f64> = (0..b)
                            .map(|i| sign * emm(&t, &t.play(pos, i as u8)))
                            .collect();
                        for w in vals.windows(2) {
                            let ok = match order {
                                Order::BestFirst => w[0] > w[1] + 1e-9,
                                _ => w[0] < w[1] - 1e-9,
                            };
                            assert!(ok, "{t}: {vals:?} at ply {}", pos.ply);
                        }
                    });
                }
            }
        }
    }

    #[test]
    fn values_stay_inside_the_bounds() {
        for order in Order::ALL {
            for probs in Probs::ALL {
                let t = RandomChanceTree::new(3, 4, 8, 9, order, probs)
                    .unwrap()
                    .with_bounds(-1.0, 3.0)
                    .unwrap();
                walk(&t, &t.initial(), &mut |pos| {
                    assert!((-1.0..=3.0).contains(&pos.value), "{t}: {}", pos.value)
                });
            }
        }
    }

    #[test]
    fn levels_alternate_max_chance_min_chance() {
        let t = RandomChanceTree::new(2, 3, 5, 1, Order::Random, Probs::Uniform).unwrap();
        let mut pos = t.initial();
        let want = [
            Turn::Player(0),
            Turn::Chance,
            Turn::Player(1),
            Turn::Chance,
            Turn::Player(0),
            Turn::Terminal,
        ];
        for (ply, w) in want.into_iter().enumerate() {
            assert_eq!(t.turn(&pos), w, "ply {ply}");
            assert_eq!(t.max_plies(&pos), 5 - ply);
            if ply < 5 {
                pos = t.play(&pos, 1);
            }
        }
        let mut moves = MoveList::default();
        t.moves(&pos, &mut moves);
        assert!(moves.is_empty());
        assert_eq!(t.leaves(), 2 * 3 * 2 * 3 * 2);
        assert_eq!(t.full_nodes(), 1 + 2 + 6 + 12 + 36 + 72);
    }

    #[test]
    fn probabilities_are_positive_and_sum_to_one() {
        for c in [1, 2, 3, 6, 7, 64] {
            for probs in Probs::ALL {
                let t = RandomChanceTree::new(2, c, 4, 5, Order::Random, probs).unwrap();
                let chance = t.play(&t.initial(), 0);
                let mut out = Outcomes::default();
                t.outcomes(&chance, &mut out);
                assert_eq!(out.len(), c);
                assert!(out.as_slice().iter().all(|o| o.prob > 0.0));
                let sum: f64 = out.as_slice().iter().map(|o| o.prob).sum();
                if probs == Probs::Random || c.is_power_of_two() {
                    assert_eq!(sum, 1.0, "c={c} {probs}");
                } else {
                    assert!((sum - 1.0).abs() < 1e-12);
                }
                if probs == Probs::Random && c > 2 {
                    let first = out.as_slice()[0].prob;
                    assert!(out.as_slice().iter().any(|o| o.prob != first));
                }
            }
        }
    }

    #[test]
    fn the_seed_decides_the_tree() {
        for order in Order::ALL {
            let t = RandomChanceTree::new(3, 2, 6, 7, order, Probs::Random).unwrap();
            let leaves = |t: &RandomChanceTree| {
                let mut v = Vec::new();
                walk(t, &t.initial(), &mut |p| {
                    if t.turn(p) == Turn::Terminal {
                        v.push(p.value.to_bits())
                    }
                });
                v
            };
            assert_eq!(leaves(&t), leaves(&t.clone()));
            let same = RandomChanceTree::new(3, 2, 6, 7, order, Probs::Random).unwrap();
            assert_eq!(leaves(&t), leaves(&same));
            let other = RandomChanceTree::new(3, 2, 6, 8, order, Probs::Random).unwrap();
            assert_ne!(leaves(&t), leaves(&other));
            assert_eq!(leaves(&t).len() as u64, t.leaves());
        }
    }

    #[test]
    fn keys_tell_nodes_apart() {
        let t = RandomChanceTree::new(4, 3, 6, 2, Order::BestFirst, Probs::Uniform).unwrap();
        let mut keys = HashSet::new();
        let mut n = 0u64;
        walk(&t, &t.initial(), &mut |p| {
            keys.insert(t.key(p));
            n += 1;
        });
        assert_eq!(n, t.full_nodes());
        assert_eq!(keys.len() as u64, n);
    }

    #[test]
    fn bad_parameters_are_refused() {
        let bad = |r: Result<RandomChanceTree, GameError>, what: &str| {
            let e = r.unwrap_err().0;
            assert!(e.contains(what), "{e}");
        };
        let new = |b, c, d| RandomChanceTree::new(b, c, d, 1, Order::Random, Probs::Uniform);
        bad(new(0, 2, 4), "branching factor 0 out of range");
        bad(new(65, 2, 4), "branching factor 65 out of range");
        bad(new(2, 0, 4), "chance outcomes 0 out of range");
        bad(new(2, 65, 4), "chance outcomes 65 out of range");
        bad(new(2, 2, 41), "depth 41 out of range");
        bad(new(2, 2, 4).unwrap().with_bounds(1.0, 1.0), "lo < hi");
        bad(
            new(2, 2, 4).unwrap().with_bounds(f64::NEG_INFINITY, 0.0),
            "finite",
        );
        bad(RandomChanceTree::parse("b=3,c=2"), "needs d");
        bad(
            RandomChanceTree::parse("b=3,c=2,d=x"),
            "invalid depth d 'x'",
        );
        bad(
            RandomChanceTree::parse("b=3,c=2,d=4,e=1"),
            "unknown key 'e'",
        );
        bad(
            RandomChanceTree::parse("b=3,b=2,c=2,d=4"),
            "'b' is given twice",
        );
        bad(
            RandomChanceTree::parse("b=3,c=2,d=4,order=best"),
            "unknown order",
        );
        bad(
            RandomChanceTree::parse("b=3,c=2,d=4,probs=x"),
            "unknown probabilities",
        );
        bad(
            RandomChanceTree::parse("b=3,c=2,d=4,seed=-1"),
            "invalid seed",
        );
        bad(RandomChanceTree::parse("b=3,c2"), "expected key=value");
        bad(RandomChanceTree::parse("b=3,c=2,d=4,lo=5,hi=1"), "lo < hi");
    }

    #[test]
    fn specs_round_trip() {
        let t = RandomChanceTree::parse("b=3,c=2,d=6,seed=1,order=random").unwrap();
        assert_eq!(
            t,
            RandomChanceTree::new(3, 2, 6, 1, Order::Random, Probs::Uniform).unwrap()
        );
        let u: RandomChanceTree = " b=4, c=3, d=5, seed=9, order=worst-first, probs=random, \
                                   lo=-1.5, hi=2 "
            .parse()
            .unwrap();
        assert_eq!(u.payoff_bounds(), (-1.5, 2.0));
        assert_eq!(u.order(), Order::WorstFirst);
        assert_eq!(RandomChanceTree::parse(&u.spec()).unwrap(), u);
        assert_eq!(u.to_string(), u.spec());
    }

    #[test]
    fn random_trees_have_leaves_spread_over_the_bounds() {
        let t = RandomChanceTree::new(4, 4, 6, 3, Order::Random, Probs::Uniform).unwrap();
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        walk(&t, &t.initial(), &mut |p| {
            if t.turn(p) == Turn::Terminal {
                lo = lo.min(p.value);
                hi = hi.max(p.value);
            }
        });
        assert!(lo < -95.0 && hi > 95.0, "{lo} {hi}");
    }

    #[test]
    fn star1_and_star2_agree_with_expectiminimax() {
        use crate::multi::BoundsTable;
        let table = BoundsTable::new(1);
        for order in Order::ALL {
            for probs in Probs::ALL {
                for (b, c, d) in shapes() {
                    for seed in 0..3 {
                        let t = RandomChanceTree::new(b, c, d, seed, order, probs).unwrap();
                        let root = t.initial();
                        let want = emm(&t, &root);
                        for algo in [MultiAlgorithm::Star1, MultiAlgorithm::Star2] {
                            for tt in [None, Some(&table)] {
                                table.clear();
                                let limits = MultiLimits::default();
                                let r = search(&t, &root, algo, &limits, tt).unwrap();
                                assert!(
                                    (r.values.get(0) - want).abs() < 1e-9,
                                    "{t} {algo} table {}: {} != {want}",
                                    tt.is_some(),
                                    r.values.get(0)
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
