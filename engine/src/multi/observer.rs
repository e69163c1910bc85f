//! The events a search of this model reports to a [`MultiObserver`], and why a node was
//! skipped ([`Cut`]).

use super::game::{MultiGame, Payoffs};

/// Why a node was not searched, for traces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cut {
    /// A decision node's value reached the bound from its parent (alpha-beta, or shallow max^n
    /// pruning), so the rest of its moves were skipped.
    Decision(f64),
    /// A chance node's bounds showed it outside the window (Star1), so the rest of its outcomes
    /// were skipped.
    Chance(f64),
    /// Star2's probes showed a chance node outside the window.
    Probe(f64),
}

/// Receives the events of a search of this model, for traces. Every method has an empty
/// default and the searches are generic over the observer, so the plain search pays nothing.
pub trait MultiObserver<G: MultiGame> {
    /// A node's value is settled: `value` holds one payoff per player (for the two-player
    /// searches, the zero-sum pair); `exact` is false where the search proved only a bound.
    fn settled(&mut self, _ply: usize, _pos: &G::Pos, _value: &Payoffs, _exact: bool) {}
    /// The children of `parent` from index `from` on were skipped.
    fn pruned(&mut self, _ply: usize, _parent: &G::Pos, _from: usize, _cut: Cut) {}
    /// The search entered `pos` with `window`, bounds on `player`'s payoff as the search
    /// holds them (Star1, Star2 and best-reply search: the node owner's alpha-beta window;
    /// paranoid: the root player's; max^n's shallow pruning: the parent player's best so
    /// far as a lower end). Infinite ends, and the searches without windows, mean unbounded.
    fn entered(&mut self, _ply: usize, _pos: &G::Pos, _player: usize, _window: (f64, f64)) {}
}

/// The observer that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoMultiObserver;

impl<G: MultiGame> MultiObserver<G> for NoMultiObserver {}
