//! Uniform random trees that are never stored: every node is computed from the seed and the path
//! of child indices leading to it, so a tree of `b^d` leaves costs nothing until it is searched.
//!
//! Three kinds of tree, chosen by [`Order`]:
//!
//! - [`Order::Random`]: independent leaf values, uniform in `-LEAF_RANGE..=LEAF_RANGE`
//!   (duplicates possible), children in generation order. This is the i.i.d. model of the
//!   classical analyses (Pearl's branching factor of alpha-beta).
//! - [`Order::BestFirst`]: values assigned top-down so that the first child of every node is
//!   strictly its best and the others strictly worse in order: the perfectly ordered tree, on
//!   which alpha-beta evaluates exactly the Knuth-Moore minimal tree of
//!   `b^ceil(d/2) + b^floor(d/2) - 1` leaves.
//! - [`Order::WorstFirst`]: children in the reverse order (the worst first), with gaps between
//!   sibling values wide enough that plain alpha-beta prunes nothing at all: it evaluates every
//!   one of the `b^d` leaves.
//!
//! # Values of the ordered trees
//!
//! The root gets a value `v0` from the seed's hash, in `-LEAF_RANGE..=LEAF_RANGE`. A node of
//! height `h` (plies left) and value `v` (negamax: from its side to move) gives its child of rank
//! `r` (0 = best for the node) the value
//!
//! ```text
//! rank 0:      -v
//! rank r >= 1: -v + r*G(h) + (hash(child) mod K)      with K = 4, G(h) >= K
//! ```
//!
//! so the node's value is `max(-child) = v`, rank 0 is strictly best and the ranks are strictly
//! ordered (`r*G + K - 1 < (r+1)*G`). A leaf's utility, and the evaluation of a position at a
//! search's horizon, is its assigned value: exact, so depth-limited searches return the true
//! value too. Each child costs O(1) work and nothing is allocated.
//!
//! Best-first trees use the constant gap `G(h) = K`: any node's value lies within
//! `LEAF_RANGE + d * (b*K - 1)` of zero (11,200 at `b = 64`, `d = 40`; the transposition table
//! stores values up to 32,767 exactly).
//!
//! Worst-first trees need more. Searching the children worst first, every node's running value
//! only rises, so alpha-beta prunes a child only if the second-best child of some node `N`
//! reaches the bound `beta` that an ancestor `A` an odd number of plies above took from its
//! previously searched child (one rank worse than the path's child, so better for `N`'s side
//! by `A`'s sibling gap). Going down from `A`, the nodes at an even distance from `A` move the
//! value towards that bound by their offsets. With a constant gap this drift crosses the bound
//! and deep cutoffs happen (already on binary trees of depth 6), so the gap at height `h` is
//! made larger than the largest drift below it:
//!
//! ```text
//! G(h) = K + sum over i >= 1 with h - 2i >= 2 of ((b-1) * G(h-2i) + K - 1)
//! ```
//!
//! which grows like `b^(h/2)`; any worst-first construction must, since each level of the
//! drift multiplies the required gap by about `b`. Gaps are capped so that every value stays
//! within `MAX_VALUE` (2^28, well inside `INF`). The cap bites only on trees far too large to
//! search completely anyway, of more than 2^50 leaves (`b = 2` never; `b = 3` from `d = 32`,
//! `b = 4` from 26, `b = 8` from 18, `b = 64` from 10), and [`RandomTree::prunes_nothing`] tells
//! whether the no-pruning guarantee holds for a given tree.

use crate::game::{quote, Game, GameError, MoveList, Notation, Player, Value};
use crate::rng::{mix, splitmix64, GOLDEN};

/// Largest branching factor (the capacity of the inline move list).
pub const MAX_BRANCHING: usize = 64;

/// Largest depth.
pub const MAX_DEPTH: usize = 40;

/// Random leaf values, and the root value of the ordered trees, lie in
/// `-LEAF_RANGE..=LEAF_RANGE`.
pub const LEAF_RANGE: Value = 1000;

/// Every value of every tree lies in `-MAX_VALUE..=MAX_VALUE` (2^28, well inside `INF`).
pub const MAX_VALUE: Value = 1 << 28;

/// The spread of the per-child jitter in the ordered trees (`K` in the module comment).
const JITTER: Value = 4;

/// How the children of a node are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Independent random leaf values, children in generation order.
    Random,
    /// The best child first: the perfectly ordered tree.
    BestFirst,
    /// The worst child first: plain alpha-beta prunes nothing.
    WorstFirst,
}

crate::names::named_choices!(Order, "order", GameError, GameError::new, {
    Random => "random",
    BestFirst => "best-first",
    WorstFirst => "worst-first",
});

/// A node of a random tree: the hash of its path, its value, the plies left and the side to
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPos {
    /// Hash of the seed and the path of child indices from the root.
    pub hash: u64,
    /// The node's value from its side to move: the assigned (exact) value in the ordered trees;
    /// in random trees the leaf value at a leaf and a hash-based estimate elsewhere.
    pub value: Value,
    /// Plies left to the leaves (the node's height).
    pub depth: u8,
    /// The side to move.
    pub side: Player,
}

/// A uniform random tree of `branching^depth` leaves (see the module comment).
///
/// Value range: random trees' leaves and estimates lie in `-LEAF_RANGE..=LEAF_RANGE`; the
/// ordered trees' values within `LEAF_RANGE` plus the largest offsets of every level, never
/// beyond `MAX_VALUE`. [`Game::value_range`] gives the exact bound of each tree.
#[derive(Clone, Debug)]
pub struct RandomTree {
    branching: usize,
    depth: usize,
    seed: u64,
    order: Order,
    /// Sibling gap `G(h)` of the ordered trees, by the parent's height.
    gap: [Value; MAX_DEPTH + 1],
    /// Bound on the absolute value of every node.
    bound: Value,
    /// Whether the worst-first gaps are uncapped (plain alpha-beta then prunes nothing).
    exact_gaps: bool,
}

/// The hash of child `index` of the node with hash `parent`.
#[inline]
pub(crate) fn child_hash(parent: u64, index: usize) -> u64 {
    mix(parent.wrapping_add(GOLDEN.wrapping_mul(index as u64 + 1)))
}

/// A value in `-LEAF_RANGE..=LEAF_RANGE` from a hash.
#[inline]
fn hash_value(hash: u64) -> Value {
    ((hash >> 11) % (2 * LEAF_RANGE as u64 + 1)) as Value - LEAF_RANGE
}

/// Leaves plain alpha-beta evaluates on the perfectly ordered uniform tree of branching `b`
/// and depth `d` (the Knuth-Moore minimal tree): `b^ceil(d/2) + b^floor(d/2) - 1`
/// (saturating).
pub fn minimal_leaves(b: u64, d: u32) -> u64 {
    b.saturating_pow(d.div_ceil(2))
        .saturating_add(b.saturating_pow(d / 2))
        - 1
}

impl RandomTree {
    /// A tree with `branching` (1..=64) children per inner node, `depth` (0..=40) plies, the
    /// given seed and order. The same arguments always give the same tree.
    pub fn new(
        branching: usize,
        depth: usize,
        seed: u64,
        order: Order,
    ) -> Result<RandomTree, GameError> {
        if !(1..=MAX_BRANCHING).contains(&branching) {
            return Err(GameError::new(format!(
                "branching factor {branching} out of range (expected 1..={MAX_BRANCHING})"
            )));
        }
        if depth > MAX_DEPTH {
            return Err(GameError::new(format!(
                "depth {depth} out of range (expected 0..={MAX_DEPTH})"
            )));
        }
        let (gap, exact_gaps) = match order {
            Order::WorstFirst => worst_first_gaps(branching, depth),
            _ => ([JITTER; MAX_DEPTH + 1], true),
        };
        let bound = match order {
            Order::Random => LEAF_RANGE,
            _ => {
                let spread: i64 = (1..=depth).map(|h| max_offset(branching, gap[h])).sum();
                (i64::from(LEAF_RANGE) + spread) as Value
            }
        };
        debug_assert!(bound <= MAX_VALUE);
        Ok(RandomTree {
            branching,
            depth,
            seed,
            order,
            gap,
            bound,
            exact_gaps,
        })
    }

    /// The branching factor.
    pub fn branching(&self) -> usize {
        self.branching
    }

    /// The depth: plies from the root to every leaf.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The order of the children.
    pub fn order(&self) -> Order {
        self.order
    }

    /// Number of leaves, `branching^depth` (saturating).
    pub fn leaves(&self) -> u64 {
        (self.branching as u64).saturating_pow(self.depth as u32)
    }

    /// Leaves plain alpha-beta evaluates on the perfectly ordered tree of this shape (the
    /// Knuth-Moore minimal tree): `b^ceil(d/2) + b^floor(d/2) - 1` (saturating).
    pub fn minimal_leaves(&self) -> u64 {
        minimal_leaves(self.branching as u64, self.depth as u32)
    }

    /// For a worst-first tree, whether the sibling gaps are large enough that plain alpha-beta
    /// prunes nothing (false only when they had to be capped to keep the values inside
    /// `MAX_VALUE`); true for the other orders, which promise nothing of the kind.
    pub fn prunes_nothing(&self) -> bool {
        self.exact_gaps
    }

    /// The offset of the child of rank `rank` of a node at height `height` (see the module
    /// comment).
    #[inline]
    fn offset(&self, height: usize, rank: usize, hash: u64) -> Value {
        if rank == 0 {
            0
        } else {
            rank as Value * self.gap[height] + ((hash >> 7) % JITTER as u64) as Value
        }
    }
}

/// The largest offset of a child of a node with sibling gap `gap`.
fn max_offset(branching: usize, gap: Value) -> i64 {
    (branching as i64 - 1) * i64::from(gap)
        + if branching > 1 {
            i64::from(JITTER) - 1
        } else {
            0
        }
}

/// The worst-first gaps `G(h)` for `h` in `0..=depth` (module comment), capped so that every
/// value stays within `MAX_VALUE`; also whether no cap was needed.
fn worst_first_gaps(branching: usize, depth: usize) -> ([Value; MAX_DEPTH + 1], bool) {
    let mut wanted = [i64::from(JITTER); MAX_DEPTH + 1];
    for h in 1..=depth {
        let drift: i64 = (1..)
            .map(|i| h as i64 - 2 * i)
            .take_while(|&k| k >= 2)
            .map(|k| max_offset(branching, wanted[k as usize] as Value))
            .sum();
        // Saturate well below i32 so max_offset never overflows i64 either.
        wanted[h] = (i64::from(JITTER) + drift).min(i64::from(MAX_VALUE));
    }
    let spread = |g: &[i64]| -> i64 {
        (1..=depth)
            .map(|h| max_offset(branching, g[h] as Value))
            .sum()
    };
    let budget = i64::from(MAX_VALUE - LEAF_RANGE);
    let exact = spread(&wanted) <= budget;
    if !exact {
        // One cap for every height, the largest that keeps the total spread within budget.
        let per_level = budget / depth as i64;
        let cap = ((per_level - i64::from(JITTER)) / (branching as i64 - 1).max(1))
            .max(i64::from(JITTER));
        for g in wanted.iter_mut() {
            *g = (*g).min(cap);
        }
    }
    let mut gap = [JITTER; MAX_DEPTH + 1];
    for (g, w) in gap.iter_mut().zip(wanted) {
        *g = w as Value;
    }
    (gap, exact)
}

impl Game for RandomTree {
    type Pos = RandomPos;
    type Move = u8;
    type Moves = MoveList<u8, MAX_BRANCHING>;
    type Knowledge = crate::knowledge::NoKnowledge;

    fn initial(&self) -> RandomPos {
        let hash = splitmix64(self.seed);
        RandomPos {
            hash,
            value: hash_value(hash),
            depth: self.depth as u8,
            side: Player::First,
        }
    }

    fn to_move(&self, pos: &RandomPos) -> Player {
        pos.side
    }

    #[inline]
    fn outcome(&self, pos: &RandomPos) -> Option<Value> {
        (pos.depth == 0).then_some(pos.value)
    }

    #[inline]
    fn moves(&self, pos: &RandomPos, out: &mut Self::Moves) {
        use crate::game::MoveBuffer;
        out.clear();
        if pos.depth > 0 {
            for i in 0..self.branching {
                out.push(i as u8);
            }
        }
    }

    #[inline]
    fn play(&self, pos: &RandomPos, mv: u8) -> RandomPos {
        let index = mv as usize;
        let hash = child_hash(pos.hash, index);
        let value = match self.order {
            Order::Random => hash_value(hash),
            Order::BestFirst => -pos.value + self.offset(pos.depth as usize, index, hash),
            Order::WorstFirst => {
                let rank = self.branching - 1 - index;
                -pos.value + self.offset(pos.depth as usize, rank, hash)
            }
        };
        RandomPos {
            hash,
            value,
            depth: pos.depth - 1,
            side: pos.side.other(),
        }
    }

    fn key(&self, pos: &RandomPos) -> u64 {
        // The path hash already names the node; the side is mixed in for form's sake.
        pos.hash ^ u64::from(pos.side == Player::Second).wrapping_mul(GOLDEN)
    }

    /// At a search's horizon: the ordered trees' assigned value, which is the node's exact
    /// value; in random trees a pseudo-random estimate from the node's hash, in
    /// `-LEAF_RANGE..=LEAF_RANGE`, uncorrelated with the subtree below (pure noise, as an
    /// i.i.d. model has no better evaluation to offer).
    fn evaluate(&self, pos: &RandomPos) -> Value {
        pos.value
    }

    fn max_plies(&self, pos: &RandomPos) -> usize {
        pos.depth as usize
    }

    fn move_code(&self, mv: u8) -> u8 {
        mv
    }

    /// `-LEAF_RANGE..=LEAF_RANGE` for random trees; for the ordered ones the root's range
    /// widened by the largest offsets of every level (at most `MAX_VALUE`).
    fn value_range(&self) -> (Value, Value) {
        (-self.bound, self.bound)
    }
}

impl Notation for RandomTree {
    fn name(&self) -> &'static str {
        "random"
    }

    fn format_move(&self, _pos: &RandomPos, mv: u8) -> String {
        (mv as usize + 1).to_string()
    }

    fn parse_move(&self, pos: &RandomPos, text: &str) -> Result<u8, GameError> {
        if pos.depth == 0 {
            return Err(GameError::new("the node is a leaf: it has no moves"));
        }
        let b = self.branching;
        match text.trim().parse::<usize>() {
            Ok(i) if (1..=b).contains(&i) => Ok((i - 1) as u8),
            _ => Err(GameError::new(format!(
                "invalid move '{}' (expected a child index 1..={b})",
                quote(text)
            ))),
        }
    }
}
