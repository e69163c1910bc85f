//! How the node routine ([`Searcher::node`]) shares its work: the one place where a serial
//! and a parallel search differ.
//!
//! The node routine (`pvs.rs`) is written once, generic over a [`Policy`]. A policy answers
//! three questions the routine asks: must the search stop (a budget, or, in parallel, a
//! brother's cutoff above), may the remaining moves of this node be searched by other
//! threads (and then searches them), and how often must the shared node count hear from this
//! thread. [`Serial`] answers "no" to all of them at no cost: its constants fold the checks
//! away, so the serial search compiles to the plain PVS loop. The parallel policies live in
//! `crate::parallel`, one small file each.

use super::{Observer, Searcher};
use crate::game::{Game, Value, INF, NO_CODE};

// What the node routine (`pvs.rs`) hands a policy.

/// What a node's prologue leaves for its move loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// The window, narrowed by the game's bounds and the table.
    pub alpha: Value,
    pub beta: Value,
    /// The game's bounds on the node's value (`Assessment::Bounds`, both halves): the value
    /// the loop finds is clamped into them (see [`Searcher::node`]).
    pub lo: Value,
    pub hi: Value,
    pub key: u64,
    /// The depth the node is searched to, as the table records it.
    pub depth: u8,
    /// Number of moves, generated and ordered at the node's ply.
    pub moves: usize,
    /// Node count when the node started (its subtree size goes into the table).
    pub nodes_before: u64,
    /// Whether the table key is that of the mirror image (move codes are mirrored).
    pub mirrored: bool,
    /// A forced move passed through statically: nothing is stored.
    pub forced: bool,
    /// log2 of the nodes an earlier search of this node took, from its table entry (0
    /// without one): the parallel search's estimate of the work under it.
    pub work: u8,
}

/// The best move found by a node's loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best<M> {
    pub value: Value,
    pub mv: Option<M>,
    pub code: u8,
}

impl<M> Best<M> {
    pub(crate) fn none() -> Self {
        Best {
            value: -INF,
            mv: None,
            code: NO_CODE,
        }
    }
}

/// What [`Policy::split`] did with the rest of a node's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// Nothing: the node routine searches them itself, one after the other.
    Declined,
    /// Searched them (the node's best and alpha are updated): the node is done.
    Done,
    /// The search must unwind (a budget ran out, or a split point above was aborted).
    Stopped,
}

/// What [`Policy::split`] is offered: the younger brothers of a node whose eldest are done.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Brothers<'n> {
    /// The node's ply.
    pub ply: usize,
    /// The node, as its prologue prepared it.
    pub node: &'n Node,
    /// The first move not searched yet: moves `first..node.moves` are left.
    pub first: usize,
    /// The nodes the moves before `first` took: how big the rest is likely to be.
    pub eldest_nodes: u64,
}

/// How a node's children are searched and when the search stops (see the module comment).
pub(crate) trait Policy<'g, G: Game, O: Observer<G>> {
    /// True for a policy whose stop condition can change at any node (a parallel task, which
    /// a brother's cutoff may abort): the node routine then asks [`Policy::aborted`] at every
    /// node, not only every few thousand nodes.
    const EVERY_NODE: bool;

    /// True if the search must stop now, for a reason outside this searcher's own budget.
    /// `nodes` is the searcher's node count.
    #[inline(always)]
    fn aborted(&self, _nodes: u64) -> bool {
        false
    }

    /// How many nodes may pass before the next look at the budgets, out of `every`.
    #[inline(always)]
    fn check_every(&self, every: u64) -> u64 {
        every
    }

    /// Hands in the searcher's node count (`nodes`, cumulative) at a budget check, and
    /// whether its own limits said stop; true if everyone must stop.
    #[inline(always)]
    fn report(&self, _nodes: u64, stopped: bool) -> bool {
        stopped
    }

    /// Whether the nodes' best moves go into the table with their bounds. Lazy SMP's helpers
    /// search in a jittered order and keep theirs out, so as not to reorder the main
    /// thread's search; the table keeps a key's move when a store brings none.
    #[inline(always)]
    fn stores_moves(&self) -> bool {
        true
    }

    /// True for a policy that may put off a node's younger brothers while another thread is
    /// searching them (ABDADA): the node routine then asks [`Policy::defers`] at every node.
    const DEFERS: bool = false;

    /// Whether the younger brothers of a node with `left` plies to the horizon may be put off.
    #[inline(always)]
    fn defers(&self, _left: usize) -> bool {
        false
    }

    /// Claims the move whose key is `key` for this thread's search: false if another thread
    /// is searching it now (the node routine then puts it off until its other moves are done).
    #[inline(always)]
    fn enter(&self, _key: u64) -> bool {
        true
    }

    /// Gives up the claim [`Policy::enter`] made on `key`, the search of that move being over.
    #[inline(always)]
    fn leave(&self, _key: u64) {}

    /// After how many of its moves the node at `ply`, prepared as `node`, may have its other
    /// moves searched in parallel; `None`: never (the serial loop does them all).
    #[inline(always)]
    fn split_after(&self, _s: &Searcher<'g, G, O>, _ply: usize, _node: &Node) -> Option<usize> {
        None
    }

    /// The plies to the horizon below which a node can neither split nor put moves off: such
    /// nodes are searched by [`Policy::quietly`]. Asked only when [`Policy::EVERY_NODE`].
    #[inline(always)]
    fn quiet_below(&self) -> usize {
        0
    }

    /// The value of the node at `ply` within `(alpha, beta)`, searched under the policy's
    /// quiet form: its stops looked at only at the budget checks, nothing split or put off.
    /// A parallel task's nodes far from the root then run the serial routine's code (its
    /// own per-node look at the split points above costs more than the late stop; see
    /// docs/measurements/thread-scaling.md, "Quiet nodes below the splits").
    #[inline(always)]
    fn quietly(&self, s: &mut Searcher<'g, G, O>, ply: usize, alpha: Value, beta: Value) -> Value
    where
        Self: Sized,
    {
        s.node(ply, alpha, beta, self)
    }

    /// Searches the node's younger brothers `rest`, updating its `best` and `alpha`; or
    /// declines.
    #[inline(always)]
    fn split(
        &self,
        _s: &mut Searcher<'g, G, O>,
        _rest: Brothers<'_>,
        _best: &mut Best<G::Move>,
        _alpha: &mut Value,
    ) -> Split {
        Split::Declined
    }
}

/// The serial policy: one thread, nothing shared, nothing to ask.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Serial;

impl<'g, G: Game, O: Observer<G>> Policy<'g, G, O> for Serial {
    const EVERY_NODE: bool = false;
}
