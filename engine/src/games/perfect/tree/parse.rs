//! The tree-file parser, shared by the two-player [`Tree`] and the general trees of
//! [`tree_multi`](crate::games::chance::tree_multi) (the format: [`super`]'s module comment).
//! It works with an explicit stack, never recursing on the input's depth, so hostile input
//! cannot overflow the thread's stack; [`Builder`] lays the nodes out in the flat arena.

use super::arena::{Node, Tree, MAX_ABS_VALUE, MAX_CHILDREN, MAX_DEPTH, NONE, PROB_TOLERANCE};
use crate::game::{quote, GameError, Player, Value};
use crate::players::MAX_PLAYERS;

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
    pub(super) fn push(
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

    /// Adds a child of `kind` to this node in `b`, taking the probability read for it (a
    /// chance node's outcome) and its `label`; returns the child's id.
    fn add_child(
        &mut self,
        b: &mut Builder,
        kind: Kind,
        data: u32,
        label: Option<&str>,
        at: usize,
    ) -> u32 {
        self.children += 1;
        let prob = self.prob.take().map_or(NONE, |(p, _)| p);
        b.push(self.id, kind, data, prob, label, at)
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
/// included; see [`crate::games::chance::tree_multi`]) into its nodes in pre-order. Checks everything one
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
            let kind = if c == b'[' { Kind::Chance } else { Kind::Inner };
            let id = stack
                .last_mut()
                .expect("the top level is never popped")
                .add_child(&mut b, kind, 0, label.take().map(|(l, _)| l), node_at);
            stack.push(Frame::open(id, i, c == b'['));
            i += 1;
            continue;
        }
        if c == b'<' {
            let (first, len, next) = read_vector(text, i, &mut b)?;
            stack
                .last_mut()
                .expect("the top level is never popped")
                .add_child(
                    &mut b,
                    Kind::Vector { len },
                    first,
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
        stack
            .last_mut()
            .expect("the top level is never popped")
            .add_child(
                &mut b,
                Kind::Scalar { int },
                data,
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
