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
//! The same parser reads the general trees of [`super::tree_multi`]: chance nodes
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
use crate::multi::MAX_PLAYERS;
use std::ops::Range;

/// Most children a node may have: the capacity of the tree's inline move list.
pub const MAX_CHILDREN: usize = 64;

/// Deepest nesting of parentheses (and height of a tree built from a [`Spec`]): the searches
/// recurse once per ply.
pub const MAX_DEPTH: usize = 1000;

/// Largest absolute leaf value, far inside the searches' `±INF`.
pub const MAX_ABS_VALUE: Value = 1_000_000_000;

/// How far a chance node's probabilities may sum from 1 (rounding in `1/3 1/3 1/3`).
pub const PROB_TOLERANCE: f64 = 1e-9;

/// "No node": the parent of the root.
pub(crate) const NONE: u32 = u32::MAX;

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

/// What the parser read for one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A parenthesised list, or the implicit top level: a decision node.
    Inner,
    /// A bracketed list of probabilities and outcomes: a chance node.
    Chance,
    /// A number leaf, `numbers[data]`; `int` when written without a decimal point.
    Scalar { int: bool },
    /// A vector leaf `<..>`: `numbers[data..data + len]`.
    Vector { len: u8 },
}

/// A node as the parser or [`Spec`] walk finds it, in pre-order.
pub(crate) struct Pending {
    /// Pre-order index of the parent (`NONE` for the top).
    pub(crate) parent: u32,
    /// What the node is.
    pub(crate) kind: Kind,
    /// For a leaf, the index of its first number in the builder's `numbers`.
    pub(crate) data: u32,
    /// For an outcome of a chance node, its probability's index in the builder's `probs`;
    /// `NONE` otherwise.
    pub(crate) prob: u32,
    /// Byte range of its label in the builder's label text.
    pub(crate) label: (u32, u32),
    /// Byte offset in the file where the node (its label, if any) starts, for errors.
    pub(crate) at: usize,
}

/// A probability as written: its value and its text, a byte range of the builder's
/// `prob_text` (kept so that a drawing shows `1/3`, not `0.333333`).
pub(crate) struct Prob {
    /// The probability, in `(0, 1]`.
    pub(crate) value: f64,
    /// Its text.
    pub(crate) text: (u32, u32),
}

/// Collects nodes in pre-order and lays them out breadth-first.
#[derive(Default)]
pub(crate) struct Builder {
    /// The nodes in pre-order (file order).
    pub(crate) pending: Vec<Pending>,
    label_text: String,
    /// Leaf values and vector payoffs, in file order.
    pub(crate) numbers: Vec<f64>,
    /// The probabilities of chance outcomes, in file order.
    pub(crate) probs: Vec<Prob>,
    /// The text of every probability, concatenated.
    prob_text: String,
}

impl Builder {
    fn push(
        &mut self,
        parent: u32,
        kind: Kind,
        data: u32,
        prob: u32,
        label: Option<&str>,
        at: usize,
    ) -> u32 {
        let id = self.pending.len() as u32;
        let start = self.label_text.len() as u32;
        if let Some(l) = label {
            self.label_text.push_str(l);
        }
        let end = self.label_text.len() as u32;
        self.pending.push(Pending {
            parent,
            kind,
            data,
            prob,
            label: (start, end),
            at,
        });
        id
    }

    fn label(&self, p: &Pending) -> &str {
        &self.label_text[p.label.0 as usize..p.label.1 as usize]
    }

    /// The text of probability `i` as written in the file.
    pub(crate) fn prob_text(&self, i: u32) -> &str {
        let (s, e) = self.probs[i as usize].text;
        &self.prob_text[s as usize..e as usize]
    }

    /// Lays out the subtree rooted at pre-order node `top` breadth-first: the tree, and for
    /// each arena node its pre-order index (so that a caller can read the rest of what the
    /// parser found). The caller has checked that every inner node has 1..=MAX_CHILDREN
    /// children; `locate` turns a byte offset into "line:column" for the duplicate-label error.
    pub(crate) fn layout(
        &self,
        top: u32,
        root_side: Player,
        locate: &dyn Fn(usize) -> String,
    ) -> Result<(Tree, Vec<u32>), GameError> {
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
            let p = &self.pending[t];
            // Integers within ±MAX_ABS_VALUE are exact in an f64.
            if p.kind == (Kind::Scalar { int: true }) {
                node.value = self.numbers[p.data as usize] as Value;
            }
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
        let tree = Tree {
            nodes,
            label_text,
            label_span,
            root_side,
            max_abs,
        };
        Ok((tree, order))
    }
}

/// An open parenthesis or bracket (or the implicit top level) while parsing.
struct Frame {
    /// Pre-order index of the node.
    id: u32,
    /// Children so far (outcomes, for a chance node).
    children: usize,
    /// Byte offset of the '(' or '[' (0 for the top level).
    at: usize,
    /// True for a chance node '['.
    chance: bool,
    /// A chance node's probability read and waiting for its outcome: its index in the
    /// builder's `probs` and its byte offset.
    prob: Option<(u32, usize)>,
    /// The sum of a chance node's probabilities so far.
    sum: f64,
}

impl Frame {
    fn open(id: u32, at: usize, chance: bool) -> Frame {
        Frame {
            id,
            children: 0,
            at,
            chance,
            prob: None,
            sum: 0.0,
        }
    }
}

/// "line:column" (1-based, columns in characters) of a byte offset; only for errors.
pub(crate) fn line_col(text: &str, offset: usize) -> String {
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
    /// Not a number at all.
    NotNumber,
    /// A number beyond `±MAX_ABS_VALUE`.
    OutOfRange,
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Reads a leaf value: an optional '-', decimal digits and an optional fraction `.digits`,
/// at most `MAX_ABS_VALUE` in absolute value. True with it when it was written as an integer.
fn parse_number(word: &str) -> Result<(f64, bool), BadValue> {
    let body = word.strip_prefix('-').unwrap_or(word);
    let (int, frac) = match body.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (body, None),
    };
    if !all_digits(int) || frac.is_some_and(|f| !all_digits(f)) {
        return Err(BadValue::NotNumber);
    }
    // The integer part digit by digit, so that a million digits fail fast, not overflow.
    let mut v: i64 = 0;
    for b in int.bytes() {
        v = v * 10 + i64::from(b - b'0');
        if v > i64::from(MAX_ABS_VALUE) {
            return Err(BadValue::OutOfRange);
        }
    }
    let neg = word.starts_with('-');
    match frac {
        None => Ok((if neg { -v } else { v } as f64, true)),
        Some(_) => {
            let x: f64 = word.parse().map_err(|_| BadValue::NotNumber)?;
            if x.abs() > f64::from(MAX_ABS_VALUE) {
                return Err(BadValue::OutOfRange);
            }
            // `+ 0.0` turns a written `-0.0` into 0.
            Ok((x + 0.0, false))
        }
    }
}

/// Reads a probability: a decimal (`0.25`, `1`) or a fraction `a/b` of integers, in `(0, 1]`.
fn parse_prob(word: &str) -> Option<f64> {
    let p = if let Some((a, b)) = word.split_once('/') {
        // At most 18 digits each: a u64 holds them.
        if !all_digits(a) || !all_digits(b) || a.len() > 18 || b.len() > 18 {
            return None;
        }
        let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
        if b == 0 {
            return None;
        }
        a as f64 / b as f64
    } else {
        let (int, frac) = match word.split_once('.') {
            Some((a, f)) => (a, Some(f)),
            None => (word, None),
        };
        if !all_digits(int) || frac.is_some_and(|f| !all_digits(f)) {
            return None;
        }
        word.parse().ok()?
    };
    (p > 0.0 && p <= 1.0).then_some(p)
}

/// `x` with at most `decimals` decimals, trailing zeros dropped (`0.9`, `3`, `-1.25`), and no
/// negative zero.
pub(crate) fn trim_number(x: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, x);
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// The error for `word` at `place`, which [`parse_number`] refused; `expected` says what
/// could stand there.
fn number_error(e: BadValue, word: &str, place: String, expected: &str) -> GameError {
    GameError::new(match e {
        BadValue::OutOfRange => format!(
            "value '{}' at {place} out of range: leaf values must lie within ±{MAX_ABS_VALUE}",
            quote(word)
        ),
        BadValue::NotNumber => format!(
            "bad token '{}' at {place}: expected {expected}",
            quote(word)
        ),
    })
}

/// The end of the word starting at byte `i`: up to whitespace, a parenthesis, a closing
/// bracket, `>` or a comment, or just after a ':' that a '[' or '<' follows (a label before a
/// chance node or a vector). A '[' or '<' inside a word is no delimiter, so `3[` stays one bad
/// token.
fn word_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len()
        && !bytes[i].is_ascii_whitespace()
        && !matches!(bytes[i], b'(' | b')' | b']' | b'>' | b'#')
    {
        if bytes[i] == b':' && matches!(bytes.get(i + 1), Some(b'[' | b'<')) {
            return i + 1;
        }
        i += 1;
    }
    i
}

/// A tree file read by [`parse_items`]: its nodes in pre-order, not yet laid out.
pub(crate) struct Parsed<'a> {
    /// The nodes and what they hold.
    pub(crate) b: Builder,
    /// Pre-order index of the root: 1 for a single top-level item, 0 for the implicit top
    /// level whose children are the several top-level items.
    pub(crate) top: u32,
    /// The text after any byte-order mark, to locate errors in.
    pub(crate) text: &'a str,
}

impl Parsed<'_> {
    /// "line:column" of a byte offset of the text.
    pub(crate) fn locate(&self, offset: usize) -> String {
        line_col(self.text, offset)
    }
}

/// Reads a vector leaf `<..>` whose '<' is at byte `open`: the index of its first number in
/// `b.numbers`, its length and the byte after its '>'.
fn read_vector(text: &str, open: usize, b: &mut Builder) -> Result<(u32, u8, usize), GameError> {
    let at = |offset: usize| line_col(text, offset);
    let bytes = text.as_bytes();
    let first = b.numbers.len() as u32;
    let mut len = 0usize;
    let mut i = open + 1;
    loop {
        let Some(&c) = bytes.get(i) else {
            return Err(GameError::new(format!(
                "unclosed '<' opened at {}",
                at(open)
            )));
        };
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
        if c == b'>' {
            i += 1;
            break;
        }
        if matches!(c, b'(' | b')' | b'[' | b']' | b'<') {
            return Err(GameError::new(format!(
                "'{}' at {} inside the vector leaf opened at {}: a vector holds numbers only",
                c as char,
                at(i),
                at(open)
            )));
        }
        let s = i;
        while i < bytes.len()
            && !bytes[i].is_ascii_whitespace()
            && !matches!(bytes[i], b'(' | b')' | b'[' | b']' | b'<' | b'>' | b'#')
        {
            i += 1;
        }
        let word = &text[s..i];
        let x = match parse_number(word) {
            Ok((x, _)) => x,
            Err(e) => {
                return Err(number_error(
                    e,
                    word,
                    at(s),
                    "a number or '>' in a vector leaf",
                ))
            }
        };
        if len == MAX_PLAYERS {
            return Err(GameError::new(format!(
                "the vector leaf at {} has more than {MAX_PLAYERS} payoffs: one per player, at most {MAX_PLAYERS} players",
                at(open)
            )));
        }
        b.numbers.push(x);
        len += 1;
    }
    if len < 2 {
        return Err(GameError::new(format!(
            "the vector leaf at {} has {len} payoff{}: one per player, 2 to {MAX_PLAYERS} players",
            at(open),
            if len == 1 { "" } else { "s" }
        )));
    }
    Ok((first, len as u8, i))
}

/// Parses a tree file in the general format (chance nodes, vector and decimal leaves
/// included; see [`super::tree_multi`]) into its nodes in pre-order. Checks everything one
/// node and its open lists can tell (syntax, limits, probabilities and their sums, vector
/// lengths of 2 to [`MAX_PLAYERS`]); what needs the whole file (one vector length for all,
/// no mixing with scalar leaves, duplicate labels) is the caller's.
pub(crate) fn parse_items(text: &str) -> Result<Parsed<'_>, GameError> {
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
    b.push(NONE, Kind::Inner, 0, NONE, None, 0);
    let mut stack = vec![Frame::open(0, 0, false)];
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
        if c == b')' || c == b']' {
            if let Some((l, o)) = label {
                return Err(no_node(l, o));
            }
            let closes_chance = c == b']';
            let open = if closes_chance { '[' } else { '(' };
            if stack.len() == 1 {
                return Err(GameError::new(format!(
                    "unexpected '{}' at {}: no '{open}' to close",
                    c as char,
                    at(i)
                )));
            }
            let f = stack.last().expect("checked above");
            if f.chance != closes_chance {
                return Err(GameError::new(format!(
                    "'{}' at {} does not close the '{}' opened at {}",
                    c as char,
                    at(i),
                    if f.chance { '[' } else { '(' },
                    at(f.at)
                )));
            }
            if let Some((p, o)) = f.prob {
                return Err(GameError::new(format!(
                    "probability '{}' at {} has no outcome after it",
                    quote(b.prob_text(p)),
                    at(o)
                )));
            }
            if f.children == 0 {
                return Err(GameError::new(if f.chance {
                    format!(
                        "empty chance node '[]' at {}: a chance node needs at least one outcome",
                        at(f.at)
                    )
                } else {
                    format!(
                        "empty list '()' at {}: an inner node needs at least one child",
                        at(f.at)
                    )
                }));
            }
            if f.chance && (f.sum - 1.0).abs() > PROB_TOLERANCE {
                return Err(GameError::new(format!(
                    "probabilities of the chance node at {} sum to {}, not 1",
                    at(f.at),
                    trim_number(f.sum, 12)
                )));
            }
            stack.pop();
            i += 1;
            continue;
        }
        let depth = stack.len();
        let parent = stack.last_mut().expect("the top level is never popped");
        if parent.chance && parent.prob.is_none() {
            // A chance node reads a probability before each outcome.
            if parent.children == MAX_CHILDREN {
                return Err(GameError::new(format!(
                    "too many outcomes at {}: the chance node opened at {} has more than {MAX_CHILDREN}",
                    at(i),
                    at(parent.at)
                )));
            }
            if matches!(c, b'(' | b'[' | b'<') {
                return Err(GameError::new(format!(
                    "expected a probability at {} in the chance node opened at {}, not '{}'",
                    at(i),
                    at(parent.at),
                    c as char
                )));
            }
            let s = i;
            i = word_end(bytes, i);
            let word = &text[s..i];
            if word.contains(':') {
                return Err(GameError::new(format!(
                    "expected a probability at {}, not '{}': a label goes after the probability",
                    at(s),
                    quote(word)
                )));
            }
            let Some(p) = parse_prob(word) else {
                return Err(GameError::new(format!(
                    "bad probability '{}' at {}: expected a decimal or a fraction a/b in (0, 1]",
                    quote(word),
                    at(s)
                )));
            };
            let start = b.prob_text.len() as u32;
            b.prob_text.push_str(word);
            b.probs.push(Prob {
                value: p,
                text: (start, b.prob_text.len() as u32),
            });
            parent.prob = Some((b.probs.len() as u32 - 1, s));
            parent.sum += p;
            continue;
        }
        // A node (or a label) starts here: a child of the innermost open list.
        let node_at = label.map_or(i, |(_, o)| o);
        if parent.children == MAX_CHILDREN {
            let whose = if depth == 1 {
                "the top level".to_string()
            } else {
                format!("the node opened at {}", at(parent.at))
            };
            return Err(GameError::new(format!(
                "too many children at {}: {whose} has more than {MAX_CHILDREN}, the move list capacity",
                at(node_at)
            )));
        }
        if c == b'(' || c == b'[' {
            if stack.len() > MAX_DEPTH {
                return Err(GameError::new(format!(
                    "nesting deeper than {MAX_DEPTH} levels at {}",
                    at(i)
                )));
            }
            let parent = stack.last_mut().expect("the top level is never popped");
            parent.children += 1;
            let prob = parent.prob.take().map_or(NONE, |(p, _)| p);
            let kind = if c == b'[' { Kind::Chance } else { Kind::Inner };
            let id = b.push(
                parent.id,
                kind,
                0,
                prob,
                label.take().map(|(l, _)| l),
                node_at,
            );
            stack.push(Frame::open(id, i, c == b'['));
            i += 1;
            continue;
        }
        if c == b'<' {
            let (first, len, next) = read_vector(text, i, &mut b)?;
            let parent = stack.last_mut().expect("the top level is never popped");
            parent.children += 1;
            let prob = parent.prob.take().map_or(NONE, |(p, _)| p);
            b.push(
                parent.id,
                Kind::Vector { len },
                first,
                prob,
                label.take().map(|(l, _)| l),
                node_at,
            );
            i = next;
            continue;
        }
        // A word: up to whitespace, a parenthesis or a comment.
        let s = i;
        i = word_end(bytes, i);
        if i == s {
            // Only a delimiter no word can start with gets here (a stray '>'): without this
            // the loop would not move on.
            return Err(GameError::new(format!(
                "unexpected '{}' at {}: no '<' to close",
                c as char,
                at(s)
            )));
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
        let (value, int) = match parse_number(rest) {
            Ok(v) => v,
            Err(e) => {
                return Err(number_error(
                    e,
                    rest,
                    at(rest_at),
                    "a number, a label 'name:', '(', '[', '<' or ')'",
                ))
            }
        };
        let data = b.numbers.len() as u32;
        b.numbers.push(value);
        let parent = stack.last_mut().expect("the top level is never popped");
        parent.children += 1;
        let prob = parent.prob.take().map_or(NONE, |(p, _)| p);
        b.push(
            parent.id,
            Kind::Scalar { int },
            data,
            prob,
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
            "unclosed '{}' opened at {}",
            if f.chance { '[' } else { '(' },
            at(f.at)
        )));
    }
    let top = match stack[0].children {
        0 => return Err(GameError::new("empty tree file: no tree found")),
        // A single item is the root itself (pre-order node 1).
        1 => 1,
        _ => 0,
    };
    Ok(Parsed { b, top, text })
}

impl Tree {
    /// Parses a tree file (see the module comment) with `root` to move at the root. Chance
    /// nodes, vector leaves and decimal leaves are errors here: they make a general tree
    /// ([`super::tree_multi::MultiTree`]).
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
    /// values ([`crate::games::random_tree::minimal_leaves`]); on other shapes the cheapest
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
                    crate::games::random_tree::minimal_leaves(b, d),
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
