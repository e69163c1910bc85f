//! Recording what a search does: the windows it enters nodes with, the order in which it
//! settles values and what it prunes.
//!
//! [`Trace`] is a generic [`Observer`] that stores the search's events in order. The command
//! line's `tree --trace` turns a trace of a hand-written tree into the textbook walk-through
//! (`cutoff_app::walk`).

use crate::game::{Game, Value};
use crate::search::Observer;
use std::fmt;

/// One event of a search, in the order it happened.
pub enum Event<G: Game> {
    /// The search entered the node `pos` at `ply` with the window `(alpha, beta)`, from its
    /// side to move (`(-INF, INF)` for the searches without a window).
    Entered {
        /// Plies from the root.
        ply: usize,
        /// The node.
        pos: G::Pos,
        /// The window's lower end.
        alpha: Value,
        /// The window's upper end.
        beta: Value,
    },
    /// The node `pos` at `ply` settled on `value`: from its side to move (negamax convention);
    /// at a node that cut off, the bound it reached. Leaves settle when evaluated.
    Settled {
        /// Plies from the root.
        ply: usize,
        /// The node.
        pos: G::Pos,
        /// Its value from its side to move.
        value: Value,
    },
    /// The child reached by `mv` from `parent` (at `ply`) was never searched, because the
    /// parent's value reached `bound`: the parent's beta, from the parent's side to move.
    Pruned {
        /// Plies from the root to the parent.
        ply: usize,
        /// The node that cut off.
        parent: G::Pos,
        /// The move to the pruned child.
        mv: G::Move,
        /// The bound the parent reached, from the parent's side to move.
        bound: Value,
    },
}

impl<G: Game> Clone for Event<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Event<G> {}

impl<G: Game> fmt::Debug for Event<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Entered {
                ply,
                pos,
                alpha,
                beta,
            } => f
                .debug_struct("Entered")
                .field("ply", ply)
                .field("pos", pos)
                .field("alpha", alpha)
                .field("beta", beta)
                .finish(),
            Event::Settled { ply, pos, value } => f
                .debug_struct("Settled")
                .field("ply", ply)
                .field("pos", pos)
                .field("value", value)
                .finish(),
            Event::Pruned {
                ply,
                parent,
                mv,
                bound,
            } => f
                .debug_struct("Pruned")
                .field("ply", ply)
                .field("parent", parent)
                .field("mv", mv)
                .field("bound", bound)
                .finish(),
        }
    }
}

/// An observer that records every event in order.
pub struct Trace<G: Game> {
    events: Vec<Event<G>>,
}

impl<G: Game> Default for Trace<G> {
    fn default() -> Self {
        Trace { events: Vec::new() }
    }
}

impl<G: Game> Trace<G> {
    /// An empty trace.
    pub fn new() -> Self {
        Self::default()
    }

    /// The events so far, in order.
    pub fn events(&self) -> &[Event<G>] {
        &self.events
    }

    /// Forgets every event (to reuse the trace for another run).
    pub fn clear(&mut self) {
        self.events.clear();
    }
}

impl<G: Game> Observer<G> for Trace<G> {
    fn entered(&mut self, ply: usize, pos: &G::Pos, alpha: Value, beta: Value) {
        self.events.push(Event::Entered {
            ply,
            pos: *pos,
            alpha,
            beta,
        });
    }

    fn settled(&mut self, ply: usize, pos: &G::Pos, value: Value) {
        self.events.push(Event::Settled {
            ply,
            pos: *pos,
            value,
        });
    }

    fn pruned(&mut self, ply: usize, parent: &G::Pos, mv: G::Move, bound: Value) {
        self.events.push(Event::Pruned {
            ply,
            parent: *parent,
            mv,
            bound,
        });
    }
}
