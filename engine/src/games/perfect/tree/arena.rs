//! The tree's flat arena and its limits, shared by [`Tree`]'s methods and the parser that
//! lays it out.

use crate::game::{Player, Value};

/// Most children a node may have: the capacity of the tree's inline move list.
pub const MAX_CHILDREN: usize = 64;

/// Deepest nesting of parentheses (and height of a tree built from a [`Spec`](super::Spec)): the
/// searches recurse once per ply.
pub const MAX_DEPTH: usize = 1000;

/// Largest absolute leaf value, far inside the searches' `±INF`.
pub const MAX_ABS_VALUE: Value = 1_000_000_000;

/// How far a chance node's probabilities may sum from 1 (rounding in `1/3 1/3 1/3`).
pub const PROB_TOLERANCE: f64 = 1e-9;

/// "No node": the parent of the root.
pub(crate) const NONE: u32 = u32::MAX;

/// One node of the arena (24 bytes).
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Index of the first child (inner nodes only).
    pub(super) first: u32,
    /// Number of children; 0 for a leaf.
    pub(super) count: u32,
    /// The leaf value from MAX's view (0 for inner nodes).
    pub(super) value: Value,
    /// Plies from this node to its deepest leaf.
    pub(super) height: u32,
    /// Plies from the root.
    pub(super) depth: u32,
    /// The parent ([`NONE`] for the root).
    pub(super) parent: u32,
}

/// A hand-written game tree in a flat arena (see [`tree`](super)'s module comment).
#[derive(Clone, Debug)]
pub struct Tree {
    pub(super) nodes: Vec<Node>,
    /// Every label, concatenated.
    pub(super) label_text: String,
    /// Each node's label as a byte range of `label_text` (empty: no label).
    pub(super) label_span: Vec<(u32, u32)>,
    pub(super) root_side: Player,
    /// Largest absolute leaf value (bounds the values the solver bisects).
    pub(super) max_abs: Value,
}
