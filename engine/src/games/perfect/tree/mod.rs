//! Hand-written game trees, as in textbook walk-throughs of minimax and alpha-beta.
//!
//! # File format
//!
//! - A leaf is an integer with an optional leading `-`: its value from MAX's point of view
//!   (at most [`MAX_ABS_VALUE`] in absolute value).
//! - An inner node is a parenthesised list of its children separated by whitespace:
//!   `((3 11) (2 13 7 8 6))`. An empty list `()` is an error.
//! - Any node may carry a label written `name:` before it: `P11:(P21:(3 11) P22:(2 13))`,
//!   `A:3`. A label starts with an ASCII letter or `_` and goes on with letters, digits, `_`,
//!   `-` and `.`. Two children of one node may not share a label.
//! - `#` starts a comment that runs to the end of the line.
//! - A file holds one tree. A single top-level item is the root; several top-level items are
//!   the root's children, so `(3 5 1) (2 9) (0 8)` is a root with three children.
//! - Parentheses nest at most [`MAX_DEPTH`] deep and a node has at most [`MAX_CHILDREN`]
//!   children (the capacity of the inline move list).
//!
//! The same parser reads the general trees of [`crate::games::chance::tree_multi`]: chance nodes
//! `[0.5 (3 5) 0.5 (2 9)]`, vector leaves `<3 1 4>` and decimal leaves. [`Tree`] is the plain
//! two-player subset and rejects those with a one-line error; one parser for both keeps the
//! two formats from drifting apart.
//!
//! The parser works with an explicit stack, never recursing on the input's depth, so hostile
//! input cannot overflow the thread's stack.
//!
//! # Layout
//!
//! The tree lives in one flat arena: a `Vec` of fixed-size nodes in breadth-first order, every
//! inner node's children stored contiguously (first child index and count), labels in one side
//! string. There is no allocation per node.
//!
//! # Values
//!
//! Leaf values are written from MAX's view; [`Game::outcome`] gives them from the side to move
//! (`value * side.sign()`), as every search expects. A search's root value is therefore from
//! the root's side; the tree's value in the leaf scale is `root_side().sign()` times it.

use crate::game::{quote, Game, GameError, MoveBuffer, MoveList, Notation, Player, Value};
use std::ops::Range;

mod arena;
mod parse;

pub(crate) use arena::NONE;
pub use arena::{Tree, MAX_ABS_VALUE, MAX_CHILDREN, MAX_DEPTH, PROB_TOLERANCE};
pub(crate) use parse::{line_col, parse_items, trim_number, Builder, Kind};

/// A position in a tree: a node and the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreePos {
    /// The node's index in the arena.
    pub node: u32,
    /// The side to move at the node.
    pub side: Player,
}

/// A tree described in code, for tests and generators: leaves hold MAX's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// A leaf with its value from MAX's view.
    Leaf(Value),
    /// An inner node with its children in order.
    Inner(Vec<Spec>),
}

impl Tree {
    /// Parses a tree file (see the module comment) with `root` to move at the root. Chance
    /// nodes, vector leaves and decimal leaves are errors here: they make a general tree
    /// ([`crate::games::chance::tree_multi::MultiTree`]).
    pub fn parse(text: &str, root: Player) -> Result<Tree, GameError> {
        let p = parse_items(text)?;
        let general =
            p.b.pending
                .iter()
                .find(|n| !matches!(n.kind, Kind::Inner | Kind::Scalar { int: true }));
        if let Some(n) = general {
            let what = match n.kind {
                Kind::Chance => "chance node".to_string(),
                Kind::Vector { .. } => "vector leaf".to_string(),
                _ => {
                    // Short whatever the input: a tiny value in scientific notation.
                    let x = p.b.numbers[n.data as usize];
                    if x != 0.0 && x.abs() < 1e-6 {
                        format!("decimal leaf {x:e}")
                    } else {
                        format!("decimal leaf {}", trim_number(x, 12))
                    }
                }
            };
            return Err(GameError::new(format!(
                "{what} at {}: a two-player tree has integer leaves and no chance nodes (`cutoff tree FILE` searches this one)",
                p.locate(n.at)
            )));
        }
        let (tree, _) = p.b.layout(p.top, root, &|o| p.locate(o))?;
        Ok(tree)
    }

    /// Builds a tree from a [`Spec`] with `root` to move at the root, with the same limits as
    /// the parser (no empty inner node, at most [`MAX_CHILDREN`] children, height at most
    /// [`MAX_DEPTH`], values within ±[`MAX_ABS_VALUE`]). Walks the spec without recursion.
    pub fn from_spec(spec: &Spec, root: Player) -> Result<Tree, GameError> {
        let mut b = Builder::default();
        // (spec, parent id, depth)
        let mut stack: Vec<(&Spec, u32, usize)> = vec![(spec, NONE, 0)];
        while let Some((s, parent, depth)) = stack.pop() {
            match s {
                Spec::Leaf(v) => {
                    if v.abs() > MAX_ABS_VALUE {
                        return Err(GameError::new(format!(
                            "leaf value {v} out of range: leaf values must lie within ±{MAX_ABS_VALUE}"
                        )));
                    }
                    let data = b.numbers.len() as u32;
                    b.numbers.push(f64::from(*v));
                    b.push(parent, Kind::Scalar { int: true }, data, NONE, None, 0);
                }
                Spec::Inner(children) => {
                    if children.is_empty() {
                        return Err(GameError::new(
                            "empty list: an inner node needs at least one child",
                        ));
                    }
                    if children.len() > MAX_CHILDREN {
                        return Err(GameError::new(format!(
                            "a node has {} children: at most {MAX_CHILDREN} (the move list capacity)",
                            children.len()
                        )));
                    }
                    if depth >= MAX_DEPTH {
                        return Err(GameError::new(format!(
                            "nesting deeper than {MAX_DEPTH} levels"
                        )));
                    }
                    let id = b.push(parent, Kind::Inner, 0, NONE, None, 0);
                    // Reversed, so the first child is popped (and numbered) first.
                    for c in children.iter().rev() {
                        stack.push((c, id, depth + 1));
                    }
                }
            }
        }
        Ok(b.layout(0, root, &|_| String::new())?.0)
    }

    /// The side to move at the root.
    pub fn root_side(&self) -> Player {
        self.root_side
    }

    /// The root's index (always 0).
    pub fn root(&self) -> u32 {
        0
    }

    /// Number of nodes, leaves included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has at least its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of leaves.
    pub fn leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.count == 0).count()
    }

    /// Plies from the root to the deepest leaf.
    pub fn height(&self) -> usize {
        self.nodes[0].height as usize
    }

    /// Plies from `node` to the deepest leaf below it.
    pub fn node_height(&self, node: u32) -> usize {
        self.nodes[node as usize].height as usize
    }

    /// True if `node` is a leaf.
    pub fn is_leaf(&self, node: u32) -> bool {
        self.nodes[node as usize].count == 0
    }

    /// The value of a leaf from MAX's view (`None` for an inner node).
    pub fn value(&self, node: u32) -> Option<Value> {
        let n = &self.nodes[node as usize];
        (n.count == 0).then_some(n.value)
    }

    /// The children of `node`, in file order (empty for a leaf).
    pub fn children(&self, node: u32) -> Range<u32> {
        let n = &self.nodes[node as usize];
        n.first..n.first + n.count
    }

    /// The parent of `node` (`None` for the root).
    pub fn parent(&self, node: u32) -> Option<u32> {
        let p = self.nodes[node as usize].parent;
        (p != NONE).then_some(p)
    }

    /// Plies from the root to `node`.
    pub fn depth(&self, node: u32) -> usize {
        self.nodes[node as usize].depth as usize
    }

    /// The side to move at `node`.
    pub fn side(&self, node: u32) -> Player {
        if self.depth(node) & 1 == 0 {
            self.root_side
        } else {
            self.root_side.other()
        }
    }

    /// The minimax value of every node from MAX's view, indexed by node.
    pub fn minimax_values(&self) -> Vec<Value> {
        let mut val = vec![0; self.len()];
        // Breadth-first layout: every child has a larger index than its parent.
        for k in (0..self.len() as u32).rev() {
            val[k as usize] = match self.value(k) {
                Some(v) => v,
                None => {
                    let kids = self.children(k).map(|c| val[c as usize]);
                    if self.side(k) == Player::First {
                        kids.max()
                    } else {
                        kids.min()
                    }
                    .unwrap_or(0)
                }
            };
        }
        val
    }

    /// The fewest leaves that prove the root's value: the smallest set of leaves whose values
    /// fix the root's minimax value whatever the others hold. No search can evaluate fewer
    /// (what it has not evaluated could be anything). This is Knuth and Moore's minimal tree
    /// for this tree's shape and values.
    ///
    /// The root is at least its value `v` exactly when some strategy for MAX (one child at
    /// MAX's nodes, every child at MIN's) has only leaves of at least `v`, and at most `v`
    /// when some strategy for MIN has only leaves of at most `v`. A strategy of each side
    /// meet in exactly one leaf, so the smallest proof is the smallest such MAX strategy and
    /// the smallest such MIN strategy, less the leaf they share. On a uniform tree of
    /// branching `b` and depth `d` that is `b^floor(d/2) + b^ceil(d/2) - 1` whatever the
    /// values ([`crate::games::perfect::random_tree::minimal_leaves`]); on other shapes the cheapest
    /// subtrees are chosen. Each node is visited at most twice.
    pub fn minimal_leaves(&self) -> u64 {
        let val = self.minimax_values();
        let v = val[0];
        self.prove_bound(&val, self.root(), v, false)
            .saturating_add(self.prove_bound(&val, self.root(), v, true))
            - 1
    }

    /// Leaves of the smallest proof that `node`'s value is at most `v` (`upper`) or at least
    /// `v`; its minimax value must be on that side of `v`.
    fn prove_bound(&self, val: &[Value], node: u32, v: Value, upper: bool) -> u64 {
        if self.is_leaf(node) {
            return 1;
        }
        // An upper bound at MAX (a lower one at MIN) needs every child; the other kind needs
        // one child on the right side of `v`, the cheapest.
        if (self.side(node) == Player::First) == upper {
            self.children(node)
                .map(|c| self.prove_bound(val, c, v, upper))
                .fold(0, u64::saturating_add)
        } else {
            self.children(node)
                .filter(|&c| {
                    let cv = val[c as usize];
                    if upper {
                        cv <= v
                    } else {
                        cv >= v
                    }
                })
                .map(|c| self.prove_bound(val, c, v, upper))
                .min()
                .unwrap_or(0)
        }
    }

    /// The position at `node`.
    pub fn pos(&self, node: u32) -> TreePos {
        TreePos {
            node,
            side: self.side(node),
        }
    }

    /// The label written before `node`, if any.
    pub fn label(&self, node: u32) -> Option<&str> {
        let (s, e) = self.label_span[node as usize];
        (s != e).then(|| &self.label_text[s as usize..e as usize])
    }

    /// The 1-based index of `node` among its siblings (1 for the root).
    pub fn index_in_parent(&self, node: u32) -> usize {
        match self.parent(node) {
            Some(p) => (node - self.nodes[p as usize].first) as usize + 1,
            None => 1,
        }
    }

    /// The node's name: its label if it has one, else the path of 1-based child indices from
    /// the root (`"1.2.3"`), `"root"` for an unlabelled root.
    pub fn name(&self, node: u32) -> String {
        if let Some(l) = self.label(node) {
            return l.to_string();
        }
        if node == 0 {
            return "root".to_string();
        }
        let mut path = Vec::with_capacity(self.depth(node));
        let mut n = node;
        while let Some(p) = self.parent(n) {
            path.push(self.index_in_parent(n).to_string());
            n = p;
        }
        path.reverse();
        path.join(".")
    }

    /// Number of nodes in the subtree rooted at `node`, `node` included.
    pub fn subtree_size(&self, node: u32) -> usize {
        // Breadth-first layout: each level of the subtree is one contiguous range.
        let (mut lo, mut hi) = (node, node + 1);
        let mut total = 0;
        while lo < hi {
            total += (hi - lo) as usize;
            // The next level spans from the first child of the first inner node to the end of
            // the last inner node's children.
            let mut next_lo = None;
            let mut next_hi = 0;
            for k in lo..hi {
                let n = &self.nodes[k as usize];
                if n.count > 0 {
                    next_lo.get_or_insert(n.first);
                    next_hi = n.first + n.count;
                }
            }
            match next_lo {
                Some(l) => (lo, hi) = (l, next_hi),
                None => break,
            }
        }
        total
    }

    /// The child of `node` named `text`: a label or a 1-based index.
    pub fn find_child(&self, node: u32, text: &str) -> Option<u32> {
        let kids = self.children(node);
        if let Some(k) = kids.clone().find(|&k| self.label(k) == Some(text)) {
            return Some(k);
        }
        let i: usize = text.parse().ok()?;
        (1..=kids.len())
            .contains(&i)
            .then(|| kids.start + i as u32 - 1)
    }
}

impl Game for Tree {
    type Pos = TreePos;
    type Move = u32;
    type Moves = MoveList<u32, MAX_CHILDREN>;
    type Knowledge = crate::knowledge::NoKnowledge;

    fn initial(&self) -> TreePos {
        TreePos {
            node: 0,
            side: self.root_side,
        }
    }

    fn to_move(&self, pos: &TreePos) -> Player {
        pos.side
    }

    #[inline]
    fn outcome(&self, pos: &TreePos) -> Option<Value> {
        let n = &self.nodes[pos.node as usize];
        (n.count == 0).then(|| n.value * pos.side.sign())
    }

    #[inline]
    fn moves(&self, pos: &TreePos, out: &mut Self::Moves) {
        out.clear();
        for k in self.children(pos.node) {
            out.push(k);
        }
    }

    #[inline]
    fn play(&self, pos: &TreePos, mv: u32) -> TreePos {
        TreePos {
            node: mv,
            side: pos.side.other(),
        }
    }

    fn key(&self, pos: &TreePos) -> u64 {
        // splitmix64 over node and side.
        let side = u64::from(pos.side == Player::Second);
        crate::rng::splitmix64(u64::from(pos.node) << 1 | side)
    }

    fn max_plies(&self, pos: &TreePos) -> usize {
        self.nodes[pos.node as usize].height as usize
    }

    fn move_code(&self, mv: u32) -> u8 {
        // The index among siblings: below MAX_CHILDREN, so below the "no move" code.
        (self.index_in_parent(mv) - 1) as u8
    }

    fn value_range(&self) -> (Value, Value) {
        (-self.max_abs, self.max_abs)
    }
}

impl Notation for Tree {
    fn name(&self) -> &'static str {
        "tree"
    }

    fn format_move(&self, _pos: &TreePos, mv: u32) -> String {
        match self.label(mv) {
            Some(l) => l.to_string(),
            None => self.index_in_parent(mv).to_string(),
        }
    }

    fn parse_move(&self, pos: &TreePos, text: &str) -> Result<u32, GameError> {
        let n = self.nodes[pos.node as usize].count;
        if n == 0 {
            return Err(GameError::new(format!(
                "node {} is a leaf: it has no moves",
                quote(&self.name(pos.node))
            )));
        }
        self.find_child(pos.node, text.trim()).ok_or_else(|| {
            GameError::new(format!(
                "'{}' is not a child of node {} (expected a child's label or an index 1..={n})",
                quote(text),
                quote(&self.name(pos.node))
            ))
        })
    }

    /// The value in the leaves' scale (MAX's view), whoever is to move at `pos`.
    fn explain_value(&self, pos: &TreePos, value: Value) -> String {
        format!("leaf value {}", value * pos.side.sign())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root's minimax value with the leaves outside `known` (a bit per leaf, in node
    /// order) set to `unknown`.
    fn value_with(t: &Tree, known: u64, unknown: Value) -> Value {
        let mut val = vec![0; t.len()];
        let mut leaf = 0;
        let mut leaf_bit = vec![0; t.len()];
        for k in 0..t.len() as u32 {
            if t.is_leaf(k) {
                leaf_bit[k as usize] = leaf;
                leaf += 1;
            }
        }
        for k in (0..t.len() as u32).rev() {
            val[k as usize] = match t.value(k) {
                Some(v) if known >> leaf_bit[k as usize] & 1 == 1 => v,
                Some(_) => unknown,
                None => {
                    let kids = t.children(k).map(|c| val[c as usize]);
                    if t.side(k) == Player::First {
                        kids.max().unwrap()
                    } else {
                        kids.min().unwrap()
                    }
                }
            };
        }
        val[0]
    }

    /// A random tree of at most `leaves` leaves and depth at most 4, values in 0..6 (ties
    /// on purpose), written as a tree file.
    fn random_spec(
        rng: &mut crate::rng::SplitMix64,
        depth: usize,
        budget: &mut usize,
        out: &mut String,
    ) {
        if depth == 0 || *budget <= 1 || rng.below(4) == 0 {
            *budget = budget.saturating_sub(1);
            out.push_str(&rng.below(6).to_string());
            return;
        }
        out.push('(');
        let n = 1 + rng.below(3) as usize;
        for i in 0..n {
            if i > 0 {
                out.push(' ');
            }
            random_spec(rng, depth - 1, budget, out);
        }
        out.push(')');
    }

    #[test]
    fn minimal_leaves_is_the_smallest_proof_by_brute_force() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let mut checked = 0;
        let mut below_alphabeta = 0;
        for _ in 0..400 {
            let mut spec = String::new();
            let mut budget = 12;
            random_spec(&mut rng, 4, &mut budget, &mut spec);
            let t = Tree::parse(&spec, Player::First).unwrap();
            let leaves = t.leaves();
            let v = t.minimax_values()[0];
            // The smallest set of leaves that fixes the root's value whatever the others are:
            // by monotonicity it is enough that both extremes give the value.
            let smallest = (0u64..1 << leaves)
                .filter(|&set| {
                    value_with(&t, set, -crate::game::INF) == v
                        && value_with(&t, set, crate::game::INF) == v
                })
                .map(|set| set.count_ones() as u64)
                .min()
                .unwrap();
            assert_eq!(t.minimal_leaves(), smallest, "{spec}");
            // No search evaluates fewer: alpha-beta, say.
            let mut s = crate::search::Searcher::new(&t, t.initial(), None);
            s.run(crate::search::Algorithm::AlphaBeta);
            assert!(s.stats().leaves >= smallest, "{spec}");
            below_alphabeta += u64::from(s.stats().leaves > smallest);
            checked += 1;
        }
        assert_eq!(checked, 400);
        assert!(
            below_alphabeta > 0,
            "some trees where alpha-beta's order is not the best"
        );
    }

    #[test]
    fn minimal_leaves_of_the_exercise_tree_and_of_uniform_trees() {
        // The exercise tree: 1.1's two leaves, 1.2's 13 (at least 11), 2.1's three (at most
        // 5): 6, where alpha-beta in file order evaluates 7.
        let t = Tree::parse("((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))", Player::First).unwrap();
        assert_eq!(t.minimal_leaves(), 6);
        // Uniform trees: Knuth and Moore's count, whatever the order.
        let mut rng = crate::rng::SplitMix64::new(3);
        for (b, d) in [(2u64, 1u32), (2, 4), (3, 3), (3, 4), (4, 3), (2, 7), (5, 2)] {
            for _ in 0..5 {
                // Distinct leaf values, shuffled.
                let n = b.pow(d) as usize;
                let mut values: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    values.swap(i, rng.below(i as u64 + 1) as usize);
                }
                let mut next = values.into_iter();
                fn spec(b: u64, d: u32, next: &mut dyn Iterator<Item = usize>) -> String {
                    if d == 0 {
                        return next.next().unwrap().to_string();
                    }
                    let kids: Vec<String> = (0..b).map(|_| spec(b, d - 1, next)).collect();
                    format!("({})", kids.join(" "))
                }
                let t = Tree::parse(&spec(b, d, &mut next), Player::First).unwrap();
                assert_eq!(
                    t.minimal_leaves(),
                    crate::games::perfect::random_tree::minimal_leaves(b, d),
                    "b {b}, d {d}"
                );
            }
        }
        // Ties change nothing on a uniform tree: a strategy still has as many leaves.
        let t = Tree::parse("(1 1) (1 1)", Player::First).unwrap();
        assert_eq!(t.minimal_leaves(), 3);
        let t = Tree::parse("(1 1 1) (1 1 1) (1 1 1)", Player::First).unwrap();
        assert_eq!(t.minimal_leaves(), 5);
    }

    #[test]
    fn a_stray_closing_angle_is_an_error_not_a_hang() {
        // Found by the tree_parse fuzz target: a '>' with no '<' once looped for ever.
        for text in [
            ">",
            "0 >1",
            "(0 >(1 0",
            "(>)",
            "[0.5 > 0.5 1]",
            "A:>",
            "<1 2>>",
        ] {
            let e = Tree::parse(text, Player::First).unwrap_err();
            assert!(e.0.contains("unexpected '>'"), "{text}: {e}");
        }
    }

    #[test]
    fn layout_is_breadth_first_with_contiguous_children() {
        let t = Tree::parse("((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))", Player::First).unwrap();
        assert_eq!(t.len(), 19);
        assert_eq!(t.children(0), 1..3);
        assert_eq!(t.children(1), 3..5);
        assert_eq!(t.children(2), 5..7);
        assert_eq!(t.value(t.children(3).start), Some(3));
        assert_eq!(t.height(), 3);
        assert_eq!(t.subtree_size(0), 19);
        assert_eq!(t.subtree_size(2), 8);
        assert_eq!(t.subtree_size(6), 3);
        assert_eq!(t.name(6), "2.2");
        assert_eq!(t.leaves(), 12);
    }

    #[test]
    fn the_general_syntax_is_a_clear_error_in_a_plain_tree() {
        let err = |text: &str| Tree::parse(text, Player::First).unwrap_err().0;
        // A '[' or '<' inside a word is no delimiter: the word stays one bad token.
        assert!(
            err("(1 3[)").contains("bad token '3['"),
            "{}",
            err("(1 3[)")
        );
        assert!(err("(1 3<)").contains("bad token '3<'"));
        // After a label they open a chance node or a vector, which a plain tree refuses.
        let e = err("(1 A:[1 2])");
        assert!(e.starts_with("chance node at 1:4"), "{e}");
        let e = err("(1\n B:<1 2>)");
        assert!(e.starts_with("vector leaf at 2:2"), "{e}");
        let e = err("(1 2.5)");
        assert!(e.starts_with("decimal leaf 2.5 at 1:4"), "{e}");
        // The syntax errors come first, in file order.
        assert!(err("[1 2] (3 x)").contains("bad token 'x'"));
    }
}
