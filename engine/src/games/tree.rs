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

/// Most children a node may have: the capacity of the tree's inline move list.
pub const MAX_CHILDREN: usize = 64;

/// Deepest nesting of parentheses (and height of a tree built from a [`Spec`]): the searches
/// recurse once per ply.
pub const MAX_DEPTH: usize = 1000;

/// Largest absolute leaf value, far inside the searches' `±INF`.
pub const MAX_ABS_VALUE: Value = 1_000_000_000;

/// "No node": the parent of the root.
const NONE: u32 = u32::MAX;

/// One node of the arena (24 bytes).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Index of the first child (inner nodes only).
    first: u32,
    /// Number of children; 0 for a leaf.
    count: u32,
    /// The leaf value from MAX's view (0 for inner nodes).
    value: Value,
    /// Plies from this node to its deepest leaf.
    height: u32,
    /// Plies from the root.
    depth: u32,
    /// The parent ([`NONE`] for the root).
    parent: u32,
}

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

/// A hand-written game tree in a flat arena (see the module comment).
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Every label, concatenated.
    label_text: String,
    /// Each node's label as a byte range of `label_text` (empty: no label).
    label_span: Vec<(u32, u32)>,
    root_side: Player,
    /// Largest absolute leaf value (bounds the values the solver bisects).
    max_abs: Value,
}

/// A node as the parser or [`Spec`] walk finds it, in pre-order.
struct Pending {
    /// Pre-order index of the parent (`NONE` for the top).
    parent: u32,
    /// `Some(value)` for a leaf.
    leaf: Option<Value>,
    /// Byte range of its label in the builder's label text.
    label: (u32, u32),
    /// Byte offset in the file where the node (its label, if any) starts, for errors.
    at: usize,
}

/// Collects nodes in pre-order and lays them out breadth-first.
#[derive(Default)]
struct Builder {
    pending: Vec<Pending>,
    label_text: String,
}

impl Builder {
    fn push(&mut self, parent: u32, leaf: Option<Value>, label: Option<&str>, at: usize) -> u32 {
        let id = self.pending.len() as u32;
        let start = self.label_text.len() as u32;
        if let Some(l) = label {
            self.label_text.push_str(l);
        }
        let end = self.label_text.len() as u32;
        self.pending.push(Pending {
            parent,
            leaf,
            label: (start, end),
            at,
        });
        id
    }

    fn label(&self, p: &Pending) -> &str {
        &self.label_text[p.label.0 as usize..p.label.1 as usize]
    }

    /// Lays out the subtree rooted at pre-order node `top` breadth-first. The caller has checked
    /// that every inner node has 1..=MAX_CHILDREN children; `locate` turns a byte offset into
    /// "line:column" for the duplicate-label error.
    fn finish(
        self,
        top: u32,
        root_side: Player,
        locate: &dyn Fn(usize) -> String,
    ) -> Result<Tree, GameError> {
        let n = self.pending.len();
        // Children of each pre-order node, in order, by a counting sort on the parent: pre-order
        // lists siblings in file order, so the sort keeps them in it.
        let mut start = vec![0u32; n + 1];
        for p in &self.pending {
            if p.parent != NONE {
                start[p.parent as usize + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut kids = vec![0u32; start[n] as usize];
        for (i, p) in self.pending.iter().enumerate() {
            if p.parent != NONE {
                let slot = &mut fill[p.parent as usize];
                kids[*slot as usize] = i as u32;
                *slot += 1;
            }
        }

        // Duplicate labels among siblings: report the earliest second occurrence.
        let mut sibling_labels: Vec<(u32, &str, usize)> = self
            .pending
            .iter()
            .filter(|p| p.parent != NONE && p.label.0 != p.label.1)
            .map(|p| (p.parent, self.label(p), p.at))
            .collect();
        sibling_labels.sort_unstable();
        let dup = sibling_labels
            .windows(2)
            .filter(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1)
            .map(|w| (w[1].2, w[1].1))
            .min();
        if let Some((at, label)) = dup {
            return Err(GameError::new(format!(
                "duplicate label '{}' at {}: siblings must have distinct labels",
                quote(label),
                locate(at)
            )));
        }

        // Breadth-first: the arena order doubles as the queue.
        let blank = Node {
            first: 0,
            count: 0,
            value: 0,
            height: 0,
            depth: 0,
            parent: NONE,
        };
        let mut order: Vec<u32> = Vec::with_capacity(n);
        let mut nodes: Vec<Node> = Vec::with_capacity(n);
        order.push(top);
        nodes.push(blank);
        let mut i = 0;
        while i < order.len() {
            let t = order[i] as usize;
            let (a, b) = (start[t] as usize, start[t + 1] as usize);
            let first = order.len() as u32;
            let depth = nodes[i].depth + 1;
            for &k in &kids[a..b] {
                order.push(k);
                nodes.push(Node {
                    depth,
                    parent: i as u32,
                    ..blank
                });
            }
            let node = &mut nodes[i];
            node.first = first;
            node.count = (b - a) as u32;
            node.value = self.pending[t].leaf.unwrap_or(0);
            i += 1;
        }
        // Heights: children come after their parent, so a backward sweep sees them first.
        for i in (1..nodes.len()).rev() {
            let (h, p) = (nodes[i].height, nodes[i].parent as usize);
            nodes[p].height = nodes[p].height.max(h + 1);
        }
        let mut label_text = String::new();
        let mut label_span = Vec::with_capacity(nodes.len());
        for &t in &order {
            let s = label_text.len() as u32;
            label_text.push_str(self.label(&self.pending[t as usize]));
            label_span.push((s, label_text.len() as u32));
        }
        let max_abs = nodes
            .iter()
            .filter(|n| n.count == 0)
            .map(|n| n.value.abs())
            .max()
            .unwrap_or(0);
        Ok(Tree {
            nodes,
            label_text,
            label_span,
            root_side,
            max_abs,
        })
    }
}

/// An open parenthesis (or the implicit top level) while parsing.
struct Frame {
    /// Pre-order index of the node.
    id: u32,
    /// Children so far.
    children: usize,
    /// Byte offset of the '(' (0 for the top level).
    at: usize,
}

/// "line:column" (1-based, columns in characters) of a byte offset; only for errors.
fn line_col(text: &str, offset: usize) -> String {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{col}")
}

fn valid_label(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Why a word is not a leaf value.
enum BadValue {
    /// Not an integer at all.
    NotInteger,
    /// An integer beyond `±MAX_ABS_VALUE`.
    OutOfRange,
}

/// Reads a leaf value: an optional '-' and decimal digits, at most `MAX_ABS_VALUE`.
fn parse_value(word: &str) -> Result<Value, BadValue> {
    let digits = word.strip_prefix('-').unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(BadValue::NotInteger);
    }
    let mut v: i64 = 0;
    for b in digits.bytes() {
        v = v * 10 + i64::from(b - b'0');
        if v > i64::from(MAX_ABS_VALUE) {
            return Err(BadValue::OutOfRange);
        }
    }
    let v = if word.starts_with('-') { -v } else { v };
    Ok(v as Value)
}

impl Tree {
    /// Parses a tree file (see the module comment) with `root` to move at the root.
    pub fn parse(text: &str, root: Player) -> Result<Tree, GameError> {
        // A byte-order mark (editors on Windows write one) is no token; positions in errors
        // count from after it.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let at = |offset: usize| line_col(text, offset);
        let no_node = |label: &str, offset: usize| {
            GameError::new(format!(
                "label '{}' at {} has no node after it",
                quote(label),
                at(offset)
            ))
        };
        let mut b = Builder::default();
        // The implicit top level: a root whose children are the top-level items.
        b.push(NONE, None, None, 0);
        let mut stack = vec![Frame {
            id: 0,
            children: 0,
            at: 0,
        }];
        // A label read and waiting for its node: (label, byte offset).
        let mut label: Option<(&str, usize)> = None;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if c == b'#' {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            if c == b')' {
                if let Some((l, o)) = label {
                    return Err(no_node(l, o));
                }
                if stack.len() == 1 {
                    return Err(GameError::new(format!(
                        "unexpected ')' at {}: no '(' to close",
                        at(i)
                    )));
                }
                let f = stack.pop().expect("checked above");
                if f.children == 0 {
                    return Err(GameError::new(format!(
                        "empty list '()' at {}: an inner node needs at least one child",
                        at(f.at)
                    )));
                }
                i += 1;
                continue;
            }
            // A node (or a label) starts here: a child of the innermost open list.
            let node_at = label.map_or(i, |(_, o)| o);
            let parent = stack.last().expect("the top level is never popped");
            if parent.children == MAX_CHILDREN {
                let whose = if stack.len() == 1 {
                    "the top level".to_string()
                } else {
                    format!("the node opened at {}", at(parent.at))
                };
                return Err(GameError::new(format!(
                    "too many children at {}: {whose} has more than {MAX_CHILDREN}, the move list capacity",
                    at(node_at)
                )));
            }
            if c == b'(' {
                if stack.len() > MAX_DEPTH {
                    return Err(GameError::new(format!(
                        "nesting deeper than {MAX_DEPTH} levels at {}",
                        at(i)
                    )));
                }
                let parent = stack.last_mut().expect("the top level is never popped");
                parent.children += 1;
                let id = b.push(parent.id, None, label.take().map(|(l, _)| l), node_at);
                stack.push(Frame {
                    id,
                    children: 0,
                    at: i,
                });
                i += 1;
                continue;
            }
            // A word: up to whitespace, a parenthesis or a comment.
            let s = i;
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && !matches!(bytes[i], b'(' | b')' | b'#')
            {
                i += 1;
            }
            let word = &text[s..i];
            let rest = match word.find(':') {
                Some(k) => {
                    let name = &word[..k];
                    if !valid_label(name) {
                        return Err(GameError::new(format!(
                            "bad label '{}' at {}: a label is a letter or '_', then letters, digits, '_', '-' or '.'",
                            quote(name),
                            at(s)
                        )));
                    }
                    if let Some((l, o)) = label {
                        return Err(no_node(l, o));
                    }
                    label = Some((name, s));
                    &word[k + 1..]
                }
                None => word,
            };
            if rest.is_empty() {
                // A label alone: its node follows.
                continue;
            }
            let rest_at = i - rest.len();
            let value = match parse_value(rest) {
                Ok(v) => v,
                Err(BadValue::OutOfRange) => {
                    return Err(GameError::new(format!(
                    "value '{}' at {} out of range: leaf values must lie within ±{MAX_ABS_VALUE}",
                    quote(rest),
                    at(rest_at)
                )))
                }
                Err(BadValue::NotInteger) => {
                    return Err(GameError::new(format!(
                        "bad token '{}' at {}: expected an integer, a label 'name:', '(' or ')'",
                        quote(rest),
                        at(rest_at)
                    )))
                }
            };
            let parent = stack.last_mut().expect("the top level is never popped");
            parent.children += 1;
            b.push(
                parent.id,
                Some(value),
                label.take().map(|(l, _)| l),
                node_at,
            );
        }
        if let Some((l, o)) = label {
            return Err(no_node(l, o));
        }
        if stack.len() > 1 {
            let f = stack.last().expect("checked");
            return Err(GameError::new(format!(
                "unclosed '(' opened at {}",
                at(f.at)
            )));
        }
        let top = match stack[0].children {
            0 => return Err(GameError::new("empty tree file: no tree found")),
            // A single item is the root itself (pre-order node 1).
            1 => 1,
            _ => 0,
        };
        b.finish(top, root, &at)
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
                    b.push(parent, Some(*v), None, 0);
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
                    let id = b.push(parent, None, None, 0);
                    // Reversed, so the first child is popped (and numbered) first.
                    for c in children.iter().rev() {
                        stack.push((c, id, depth + 1));
                    }
                }
            }
        }
        b.finish(0, root, &|_| String::new())
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
}
