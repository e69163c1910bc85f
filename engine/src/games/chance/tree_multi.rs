//! Hand-written general trees: chance nodes with probabilities, any number of players (vector
//! leaves), decimal leaves. The course's expectiminimax and max^n examples, searched through
//! [`crate::multi`].
//!
//! # File format
//!
//! Everything of the two-player format ([`tree`](crate::games::perfect::tree)) holds: a parenthesised list is a
//! node where a player moves, labels `name:`, `#` comments, several top-level items are the
//! root's children, the same limits ([`MAX_DEPTH`] levels, [`MAX_CHILDREN`] children, values
//! within ±[`MAX_ABS_VALUE`]). Three things are added:
//!
//! - A **chance node** is a bracketed list of probability and outcome, alternating:
//!   `[0.5 (3 5) 0.5 (2 9)]`, `[1/3 A:(2 5) 2/3 7]`. A probability is a decimal or a fraction
//!   `a/b`, in `(0, 1]`; those of one node sum to 1 within [`PROB_TOLERANCE`]. A label goes on
//!   the outcome, after its probability; a chance node may carry one too (`C:[..]`). At most
//!   [`MAX_OUTCOMES`] outcomes.
//! - A **vector leaf** holds one payoff per player: `<3 1 4>`. Every vector leaf of a file has
//!   the same length, the number of players (2 to [`MAX_PLAYERS`]); a file with vector leaves
//!   has no scalar ones (a scalar would not say what the other players get).
//! - **Decimal leaves**: `2.5`, `-0.25`. A scalar leaf `v` is player 0's (MAX's) payoff in a
//!   two-player zero-sum game: the payoffs are `(v, -v)`.
//!
//! A file with neither vector leaves nor decimals and no chance node is a plain two-player
//! tree ([`MultiTree::as_plain`]), which the two-player searches take as well.
//!
//! # Who moves
//!
//! Chance nodes do not count in the turn order: the decision nodes rotate through the players.
//! The root (or, under a chance root, each first decision node) belongs to the root player
//! (player 0, or the one given to [`MultiTree::parse`]; in a two-player tree player 1 makes a
//! MIN root), and every other decision node to the player after the one of its nearest
//! decision ancestor. So `[0.5 (3 5) 0.5 (2 9)]` under a MAX root holds MIN nodes, and in a
//! three-player tree the levels below player 0's root go 1, 2, 0, ... whatever chance nodes
//! lie between.

use crate::game::{GameError, MoveBuffer, MoveList, Player};
use crate::games::perfect::tree::{line_col, parse_items, trim_number, Kind, Tree, NONE};
pub use crate::games::perfect::tree::{MAX_ABS_VALUE, MAX_CHILDREN, MAX_DEPTH, PROB_TOLERANCE};
pub use crate::multi::MAX_OUTCOMES;
use crate::multi::{ChanceOutcome, MultiGame, Outcomes};
pub use crate::players::MAX_PLAYERS;
use crate::players::{Payoffs, Turn};
use std::ops::Range;

/// The `who` of a chance node.
const CHANCE: u8 = u8::MAX;
/// The `who` of a leaf.
const LEAF: u8 = u8::MAX - 1;

/// A hand-written tree with chance nodes, vector or decimal leaves, or both (see the module
/// comment), in the flat arena of [`Tree`]: the shape and the labels are a [`Tree`]'s, the
/// rest lies in arrays beside it, indexed by node.
#[derive(Clone, Debug)]
pub struct MultiTree {
    /// Nodes, children, labels and heights (its leaf values are those of the integer leaves).
    shape: Tree,
    /// Per node: the player to move, [`CHANCE`] or [`LEAF`].
    who: Vec<u8>,
    /// Per node: the probability of reaching it from its chance parent (1 otherwise).
    prob: Vec<f64>,
    /// Per node: its probability as written, a byte range of `prob_text` (empty: none).
    prob_span: Vec<(u32, u32)>,
    prob_text: String,
    /// Per node: where its payoffs start in `payoffs` ([`NONE`] for inner nodes).
    pay_at: Vec<u32>,
    /// `players` payoffs per leaf.
    payoffs: Vec<f64>,
    players: usize,
    root_player: usize,
    chance_nodes: usize,
    vectors: bool,
    decimals: bool,
    bounds: (f64, f64),
    sum: Option<f64>,
}

/// `x` for people: at most 6 decimals, trailing zeros dropped (`3`, `4.5`, `3.333333`).
pub fn format_value(x: f64) -> String {
    trim_number(x, 6)
}

/// A payoff vector for people: `(3, 1, 4)`.
pub fn format_payoffs(p: &Payoffs) -> String {
    let parts: Vec<String> = p.as_slice().iter().map(|&x| format_value(x)).collect();
    format!("({})", parts.join(", "))
}

impl MultiTree {
    /// Parses a tree file in the general format (see the module comment) with
    /// `root_player` to move first. Every problem is a one-line error naming where it is.
    pub fn parse(text: &str, root_player: usize) -> Result<MultiTree, GameError> {
        let p = parse_items(text)?;
        let b = &p.b;
        // The number of players: the first vector's length, else 2 (scalar leaves).
        let first_vector = b.pending.iter().find_map(|n| match n.kind {
            Kind::Vector { len } => Some((len as usize, n.at)),
            _ => None,
        });
        let players = first_vector.map_or(2, |(n, _)| n);
        if let Some((n, first_at)) = first_vector {
            for node in &b.pending {
                match node.kind {
                    Kind::Scalar { .. } => {
                        return Err(GameError::new(format!(
                            "scalar leaf at {} in a tree of vector leaves (the first at {}): write every leaf as <..> with {n} payoffs",
                            p.locate(node.at),
                            p.locate(first_at)
                        )))
                    }
                    Kind::Vector { len } if len as usize != n => {
                        return Err(GameError::new(format!(
                            "the vector leaf at {} has {len} payoffs, the first one (at {}) {n}: one payoff per player in every leaf",
                            p.locate(node.at),
                            p.locate(first_at)
                        )))
                    }
                    _ => {}
                }
            }
        }
        if root_player >= players {
            return Err(GameError::new(format!(
                "root player {root_player} out of range: this tree has {players} players (0 to {})",
                players - 1
            )));
        }
        let side = if root_player == 1 {
            Player::Second
        } else {
            Player::First
        };
        let (shape, order) = b.layout(p.top, side, &|o| line_col(p.text, o))?;
        let n = order.len();
        let mut who = vec![LEAF; n];
        let mut prob = vec![1.0; n];
        let mut prob_span = vec![(0u32, 0u32); n];
        let mut prob_text = String::new();
        let mut pay_at = vec![NONE; n];
        let mut payoffs = Vec::new();
        // Per node: the player who moved last at or above it (the player before the root
        // player above the root), so that a decision node's player is the next one.
        let mut last = vec![0usize; n];
        let before_root = (root_player + players - 1) % players;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut sum: Option<(f64, bool)> = None;
        let (mut chance_nodes, mut decimals) = (0, false);
        for (k, &t) in order.iter().enumerate() {
            let node = &b.pending[t as usize];
            let above = shape
                .parent(k as u32)
                .map_or(before_root, |q| last[q as usize]);
            last[k] = above;
            if node.prob != NONE {
                prob[k] = b.probs[node.prob as usize].value;
                let s = prob_text.len() as u32;
                prob_text.push_str(b.prob_text(node.prob));
                prob_span[k] = (s, prob_text.len() as u32);
            }
            let leaf: Option<&[f64]> = match node.kind {
                Kind::Inner => {
                    let me = (above + 1) % players;
                    who[k] = me as u8;
                    last[k] = me;
                    None
                }
                Kind::Chance => {
                    who[k] = CHANCE;
                    chance_nodes += 1;
                    None
                }
                Kind::Scalar { int } => {
                    decimals |= !int;
                    let v = b.numbers[node.data as usize];
                    pay_at[k] = payoffs.len() as u32;
                    payoffs.extend([v, -v]);
                    Some(&payoffs[payoffs.len() - 2..])
                }
                Kind::Vector { len } => {
                    let a = node.data as usize;
                    pay_at[k] = payoffs.len() as u32;
                    payoffs.extend_from_slice(&b.numbers[a..a + len as usize]);
                    Some(&payoffs[payoffs.len() - len as usize..])
                }
            };
            if let Some(v) = leaf {
                for &x in v {
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
                let s: f64 = v.iter().sum();
                sum = Some(match sum {
                    None => (s, true),
                    Some((first, same)) => (first, same && (s - first).abs() <= 1e-9),
                });
            }
        }
        Ok(MultiTree {
            shape,
            who,
            prob,
            prob_span,
            prob_text,
            pay_at,
            payoffs,
            players,
            root_player,
            chance_nodes,
            vectors: first_vector.is_some(),
            decimals,
            bounds: (lo, hi),
            sum: sum.and_then(|(s, same)| same.then_some(s)),
        })
    }

    /// The plain two-player tree this one is, when it is one: two players, no chance node,
    /// no vector leaf and integer leaves. The same nodes and labels, the root's side the root
    /// player, for the two-player searches ([`crate::Game`]).
    pub fn as_plain(&self) -> Option<&Tree> {
        (self.chance_nodes == 0 && !self.vectors && !self.decimals).then_some(&self.shape)
    }

    /// Number of players: the vector leaves' length, 2 for scalar leaves.
    pub fn player_count(&self) -> usize {
        self.players
    }

    /// The player to move first (at the root, or at the first decision nodes under a chance
    /// root).
    pub fn root_player(&self) -> usize {
        self.root_player
    }

    /// True when the leaves are vectors `<..>` (false: scalars from player 0's view).
    pub fn has_vectors(&self) -> bool {
        self.vectors
    }

    /// Number of chance nodes.
    pub fn chance_nodes(&self) -> usize {
        self.chance_nodes
    }

    /// The root's index (always 0).
    pub fn root(&self) -> u32 {
        0
    }

    /// Number of nodes, leaves included.
    pub fn len(&self) -> usize {
        self.shape.len()
    }

    /// Always false: a tree has at least its root.
    pub fn is_empty(&self) -> bool {
        self.shape.is_empty()
    }

    /// Number of leaves.
    pub fn leaves(&self) -> usize {
        self.shape.leaves()
    }

    /// Plies (moves and outcomes) from the root to the deepest leaf.
    pub fn height(&self) -> usize {
        self.shape.height()
    }

    /// True if `node` is a leaf.
    pub fn is_leaf(&self, node: u32) -> bool {
        self.shape.is_leaf(node)
    }

    /// True if `node` is a chance node.
    pub fn is_chance(&self, node: u32) -> bool {
        self.who[node as usize] == CHANCE
    }

    /// The player to move at `node` (`None` at a chance node or a leaf).
    pub fn player(&self, node: u32) -> Option<usize> {
        let w = self.who[node as usize];
        (w != CHANCE && w != LEAF).then_some(w as usize)
    }

    /// The children of `node`, in file order (empty for a leaf).
    pub fn children(&self, node: u32) -> Range<u32> {
        self.shape.children(node)
    }

    /// The parent of `node` (`None` for the root).
    pub fn parent(&self, node: u32) -> Option<u32> {
        self.shape.parent(node)
    }

    /// The probability of `node` when it is an outcome of a chance node.
    pub fn prob(&self, node: u32) -> Option<f64> {
        let p = self.parent(node)?;
        self.is_chance(p).then(|| self.prob[node as usize])
    }

    /// The probability of `node` as the file writes it (`1/3`, `0.5`), when it is an outcome.
    pub fn prob_text(&self, node: u32) -> Option<&str> {
        let (s, e) = self.prob_span[node as usize];
        (s != e).then(|| &self.prob_text[s as usize..e as usize])
    }

    /// The payoffs of a leaf, one per player (`None` for an inner node).
    pub fn leaf_payoffs(&self, node: u32) -> Option<Payoffs> {
        let a = self.pay_at[node as usize];
        (a != NONE).then(|| {
            let a = a as usize;
            Payoffs::from_slice(&self.payoffs[a..a + self.players])
        })
    }

    /// The label written before `node`, if any.
    pub fn label(&self, node: u32) -> Option<&str> {
        self.shape.label(node)
    }

    /// The node's name: its label, else the path of 1-based child indices (`"1.2.3"`),
    /// `"root"` for an unlabelled root.
    pub fn name(&self, node: u32) -> String {
        self.shape.name(node)
    }

    /// Number of nodes in the subtree rooted at `node`, `node` included.
    pub fn subtree_size(&self, node: u32) -> usize {
        self.shape.subtree_size(node)
    }

    /// The child of `node` named `text`: a label or a 1-based index.
    pub fn find_child(&self, node: u32, text: &str) -> Option<u32> {
        self.shape.find_child(node, text)
    }
}

impl MultiGame for MultiTree {
    type Pos = u32;
    type Move = u32;
    type Moves = MoveList<u32, MAX_CHILDREN>;

    fn players(&self) -> usize {
        self.players
    }

    fn initial(&self) -> u32 {
        0
    }

    #[inline]
    fn turn(&self, pos: &u32) -> Turn {
        match self.who[*pos as usize] {
            LEAF => Turn::Terminal,
            CHANCE => Turn::Chance,
            p => Turn::Player(p as usize),
        }
    }

    fn payoffs(&self, pos: &u32) -> Payoffs {
        // A search asks only at leaves; an inner node has no payoffs of its own.
        self.leaf_payoffs(*pos)
            .unwrap_or_else(|| Payoffs::zeros(self.players))
    }

    #[inline]
    fn moves(&self, pos: &u32, out: &mut Self::Moves) {
        out.clear();
        if self.player(*pos).is_some() {
            for k in self.children(*pos) {
                out.push(k);
            }
        }
    }

    fn outcomes(&self, pos: &u32, out: &mut Outcomes<u32>) {
        out.clear();
        if self.is_chance(*pos) {
            for k in self.children(*pos) {
                out.push(ChanceOutcome {
                    mv: k,
                    prob: self.prob[k as usize],
                });
            }
        }
    }

    #[inline]
    fn play(&self, _pos: &u32, mv: u32) -> u32 {
        mv
    }

    fn key(&self, pos: &u32) -> u64 {
        // The node alone names the position: its player is fixed by the tree.
        crate::rng::splitmix64(u64::from(*pos))
    }

    fn max_plies(&self, pos: &u32) -> usize {
        self.shape.node_height(*pos)
    }

    /// The smallest and largest payoff of any player at any leaf (scalar leaves count `v` and
    /// `-v`).
    fn payoff_bounds(&self) -> (f64, f64) {
        self.bounds
    }

    /// The sum of every leaf's payoffs when it is the same at every leaf (within 1e-9): 0 for
    /// scalar leaves.
    fn payoff_sum(&self) -> Option<f64> {
        self.sum
    }

    fn format_move(&self, _pos: &u32, mv: u32) -> String {
        match self.label(mv) {
            Some(l) => l.to_string(),
            None => self.shape.index_in_parent(mv).to_string(),
        }
    }

    fn name(&self) -> &'static str {
        "tree"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::{search, MultiAlgorithm, MultiLimits};

    fn parse(text: &str) -> MultiTree {
        MultiTree::parse(text, 0).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn error_of(text: &str) -> String {
        match MultiTree::parse(text, 0) {
            Ok(t) => panic!("{text:?} parsed into {} nodes", t.len()),
            Err(e) => {
                assert!(!e.0.contains('\n'), "one line: {e}");
                assert!(e.0.len() <= 200, "short: {e}");
                e.0
            }
        }
    }

    fn value(t: &MultiTree, algo: MultiAlgorithm) -> Payoffs {
        search(t, &t.initial(), algo, &MultiLimits::default(), None)
            .unwrap_or_else(|e| panic!("{algo}: {e}"))
            .values
    }

    #[test]
    fn chance_nodes_rotate_no_turn() {
        // MAX root, chance, then MIN nodes, then leaves.
        let t = parse("A:[0.5 (3 5) 0.5 B:(2 9)] [1/3 (0 4) 2/3 6]");
        assert_eq!(t.player_count(), 2);
        assert_eq!(t.player(0), Some(0));
        assert!(t.is_chance(1) && t.is_chance(2));
        assert_eq!(t.name(1), "A");
        let a_kids: Vec<u32> = t.children(1).collect();
        assert_eq!(t.player(a_kids[0]), Some(1));
        assert_eq!(t.name(a_kids[1]), "B");
        assert_eq!(t.prob(a_kids[1]), Some(0.5));
        assert_eq!(t.prob_text(a_kids[1]), Some("0.5"));
        let c_kids: Vec<u32> = t.children(2).collect();
        assert_eq!(t.prob_text(c_kids[0]), Some("1/3"));
        assert!((t.prob(c_kids[0]).unwrap() - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(t.leaf_payoffs(c_kids[1]).unwrap().as_slice(), [6.0, -6.0]);
        assert_eq!(t.prob(1), None);
        assert_eq!(t.payoff_bounds(), (-9.0, 9.0));
        assert_eq!(t.payoff_sum(), Some(0.0));
        assert!(t.as_plain().is_none());
        // A = 0.5 * min(3, 5) + 0.5 * min(2, 9) = 2.5; the second chance node
        // 1/3 * min(0, 4) + 2/3 * 6 = 4; MAX takes 4.
        for algo in [
            MultiAlgorithm::Expectiminimax,
            MultiAlgorithm::Expectinegamax,
        ] {
            let v = value(&t, algo);
            assert!((v.get(0) - 4.0).abs() < 1e-12, "{algo}: {v:?}");
        }
    }

    #[test]
    fn a_chance_root_hands_the_first_move_to_the_root_player() {
        let t = parse("[0.25 (1 2) 0.75 (3 (4 5))]");
        assert!(t.is_chance(0));
        let kids: Vec<u32> = t.children(0).collect();
        assert_eq!(t.player(kids[0]), Some(0));
        assert_eq!(t.player(kids[1]), Some(0));
        let inner = t.children(kids[1]).last().unwrap();
        assert_eq!(t.player(inner), Some(1));
        // 0.25 * max(1, 2) + 0.75 * max(3, min(4, 5)) = 0.5 + 3 = 3.5.
        let v = value(&t, MultiAlgorithm::Expectiminimax);
        assert!((v.get(0) - 3.5).abs() < 1e-12, "{v:?}");
        let min = MultiTree::parse("[0.25 (1 2) 0.75 (3 (4 5))]", 1).unwrap();
        assert_eq!(min.player(min.children(0).start), Some(1));
    }

    #[test]
    fn vector_leaves_set_the_players_and_the_turns() {
        let t = parse("((<1 2 3> <3 2 1>) (<0 0 6> <2 2 2>)) (<6 0 0>)");
        assert_eq!(t.player_count(), 3);
        assert!(t.has_vectors());
        assert_eq!(t.player(0), Some(0));
        assert_eq!(t.player(1), Some(1));
        assert_eq!(t.player(t.children(1).start), Some(2));
        assert_eq!(t.payoff_sum(), Some(6.0));
        assert_eq!(t.payoff_bounds(), (0.0, 6.0));
        let ragged_sum = parse("<1 2> <3 4>");
        assert_eq!(ragged_sum.payoff_sum(), None);
        assert_eq!(ragged_sum.player_count(), 2);
        assert!(MultiTree::parse("(<1 2 3>)", 2).is_ok());
        let e = MultiTree::parse("(<1 2 3>)", 3).unwrap_err().0;
        assert!(e.contains("root player 3 out of range"), "{e}");
    }

    #[test]
    fn plain_trees_are_plain() {
        let t = parse("((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))");
        let plain = t.as_plain().expect("a plain tree");
        assert_eq!(plain.len(), 19);
        assert_eq!(plain.value(plain.children(3).start), Some(3));
        assert_eq!(
            value(&t, MultiAlgorithm::Expectiminimax).as_slice(),
            [11.0, -11.0]
        );
        assert!(parse("(1 2.5)").as_plain().is_none());
        assert!(parse("(1 -0.0)").as_plain().is_none());
        // The two-player parser takes the plain subset only.
        for (text, what) in [
            ("[1 (1 2)]", "chance node at 1:1"),
            ("(1 <1 2>)", "vector leaf at 1:4"),
            ("(1 A:2.5)", "decimal leaf 2.5 at 1:4"),
        ] {
            let e = Tree::parse(text, Player::First).unwrap_err().0;
            assert!(e.contains(what) && e.contains("cutoff tree"), "{e}");
        }
    }

    #[test]
    fn probabilities_are_checked() {
        let m = error_of("[0.5 1\n 0.4 2]");
        assert_eq!(
            m,
            "probabilities of the chance node at 1:1 sum to 0.9, not 1"
        );
        let m = error_of("(1\n  [1/3 1 1/3 2])");
        assert!(
            m.contains("chance node at 2:3 sum to 0.666666666667"),
            "{m}"
        );
        // Thirds sum to 1 within the tolerance.
        parse("[1/3 1 1/3 2 1/3 3]");
        parse("[0.1 1 0.2 2 0.7 3]");
        for bad in [
            "0", "0/3", "1.5", "3/2", "1/0", "-0.5", ".5", "x", "1/", "0.5.5",
        ] {
            let m = error_of(&format!("[{bad} 1 1 2]"));
            assert!(
                m.contains("bad probability") && m.contains("1:2"),
                "{bad}: {m}"
            );
        }
        let m = error_of("[0.5 1 0.5]");
        assert!(m.contains("probability '0.5' at 1:8 has no outcome"), "{m}");
        let m = error_of("[0.5 1 (2 3)]");
        assert!(m.contains("expected a probability at 1:8"), "{m}");
        let m = error_of("[A:0.5 1]");
        assert!(m.contains("a label goes after the probability"), "{m}");
        let m = error_of("[]");
        assert!(m.contains("empty chance node"), "{m}");
        let m = error_of("[1 (2 3)");
        assert!(m.contains("unclosed '[' opened at 1:1"), "{m}");
        let m = error_of("[1 (2 3]");
        assert!(m.contains("']' at 1:8 does not close the '('"), "{m}");
        let m = error_of("(1 2]");
        assert!(m.contains("does not close the '(' opened at 1:1"), "{m}");
        let m = error_of("1 2]");
        assert!(m.contains("unexpected ']' at 1:4: no '['"), "{m}");
        let outcomes = |n: usize| {
            let pairs: Vec<String> = (0..n).map(|i| format!("1/{n} {i}")).collect();
            format!("[{}]", pairs.join(" "))
        };
        let t = parse(&outcomes(MAX_OUTCOMES));
        assert_eq!(t.children(0).len(), MAX_OUTCOMES);
        let m = error_of(&outcomes(MAX_OUTCOMES + 1));
        assert!(m.contains("more than 64"), "{m}");
    }

    #[test]
    fn vectors_are_checked() {
        let m = error_of("(<1 2 3> <1 2>)");
        assert!(m.contains("has 2 payoffs, the first one (at 1:2) 3"), "{m}");
        let m = error_of("(<1 2 3> 4)");
        assert!(m.contains("scalar leaf at 1:10"), "{m}");
        let m = error_of("(4 <1 2 3>)");
        assert!(m.contains("scalar leaf at 1:2"), "{m}");
        let m = error_of("(<3> <4>)");
        assert!(m.contains("has 1 payoff: one per player, 2 to 8"), "{m}");
        let m = error_of("(<> 1)");
        assert!(m.contains("has 0 payoffs"), "{m}");
        let m = error_of("(<1 2 3 4 5 6 7 8 9>)");
        assert!(m.contains("more than 8 payoffs"), "{m}");
        let m = error_of("(<1 2 x>)");
        assert!(m.contains("bad token 'x' at 1:7"), "{m}");
        let m = error_of("(<1 (2)>)");
        assert!(m.contains("inside the vector leaf"), "{m}");
        let m = error_of("(<1 2");
        assert!(m.contains("unclosed '<'"), "{m}");
        let m = error_of("(<1 2000000000>)");
        assert!(m.contains("out of range"), "{m}");
        let m = error_of("(1 2.)");
        assert!(m.contains("bad token '2.'"), "{m}");
        // Labels and comments around vectors.
        let t = parse("(A:<1 2> # a comment\n B:<-1.5 # inside\n 0>)");
        assert_eq!(t.name(2), "B");
        assert_eq!(t.leaf_payoffs(2).unwrap().as_slice(), [-1.5, 0.0]);
    }

    #[test]
    fn deep_chance_nesting_is_an_error_not_a_crash() {
        let m = error_of(&"[1 ".repeat(1_000_000));
        assert!(m.contains("nesting deeper than 1000"), "{m}");
        let ok = format!("{}1{}", "[1 ".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        let t = parse(&ok);
        assert_eq!(t.height(), MAX_DEPTH);
        assert_eq!(value(&t, MultiAlgorithm::Expectiminimax).get(0), 1.0);
    }

    #[test]
    fn format_value_is_short() {
        assert_eq!(format_value(3.0), "3");
        assert_eq!(format_value(-0.0), "0");
        assert_eq!(format_value(2.5), "2.5");
        assert_eq!(format_value(10.0 / 3.0), "3.333333");
        assert_eq!(
            format_payoffs(&Payoffs::from_slice(&[3.0, 1.0, 4.5])),
            "(3, 1, 4.5)"
        );
    }
}
