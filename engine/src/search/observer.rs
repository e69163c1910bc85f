//! The events a search reports to an [`Observer`].

use crate::game::{Game, Value};

/// Receives the events of a search, for traces and walk-throughs. Every method has an empty
/// default and searches are generic over the observer, so the plain search pays nothing.
pub trait Observer<G: Game> {
    /// The search entered the node `pos` at `ply` with the window `(alpha, beta)` (from its
    /// side to move; `(-INF, INF)` for the searches without one; a single-bound search's
    /// missing bound as `-INF`).
    fn entered(&mut self, _ply: usize, _pos: &G::Pos, _alpha: Value, _beta: Value) {}
    /// A node's value is final (`value` from its side to move, negamax convention; at a node
    /// that cut off, the bound it reached).
    fn settled(&mut self, _ply: usize, _pos: &G::Pos, _value: Value) {}
    /// The child `mv` of `parent` was not searched because the parent's value reached
    /// `bound` (the parent's beta, from the parent's side to move).
    fn pruned(&mut self, _ply: usize, _parent: &G::Pos, _mv: G::Move, _bound: Value) {}
}

/// The observer that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<G: Game> Observer<G> for NoObserver {}
