//! The events a search reports to an [`Observer`].

use crate::game::{Game, Value};

/// Receives the events of a search, for traces and walk-throughs. Every method has an empty
/// default and searches are generic over the observer, so the plain search pays nothing.
pub trait Observer<G: Game> {
    /// Whether the observer wants [`Observer::ended`]: a search counts what that needs
    /// only where it does, so the plain search pays nothing for it.
    const ENDINGS: bool = false;
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
    /// How the node at `ply` ended (see [`Ending`]). Reported by the table-driven searches
    /// (PVS and the searches built on it: MTD(f) and the null-window solver), once for every
    /// node they enter and once for every child a parent settles without entering it.
    fn ended(&mut self, _ply: usize, _how: Ending) {}
}

/// How a node of a table-driven search ended, for profiles of where the work goes
/// ([`crate::profile::Profile`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A leaf: the end of the game or the horizon, or a win or a loss the game's analysis saw
    /// at once ([`crate::knowledge::Assessment::Value`]).
    Analysis,
    /// The game's bounds on the node's value left its window empty.
    Bounds,
    /// Its own table entry settled it.
    Table,
    /// A child's table entry cut it off (an enhanced transposition cutoff).
    EnhancedCutoff,
    /// Its moves were searched: `tried` of them, the last cutting it off if `cutoff`. (Under a
    /// parallel search a node's brothers may be searched by other threads: `tried` then counts
    /// only this thread's.)
    Searched {
        /// Moves searched.
        tried: usize,
        /// Whether the last move searched cut the node off.
        cutoff: bool,
    },
    /// A single move: passed through without counting a node
    /// ([`crate::knowledge::Knowledge::forced_lines_static`]).
    Forced,
    /// Not entered: its parent settled it from its table entry
    /// ([`crate::knowledge::Knowledge::settle_children_from_table`]); not counted as a node.
    SettledByParent,
}

/// The observer that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<G: Game> Observer<G> for NoObserver {}
