//! What every search of this model runs in: the [`Ctx`] with its per-ply [`Frame`]s, built
//! from [`MultiLimits`] and counting [`MultiStats`], and what the searches pass around
//! ([`Window`], [`Aborted`]).

use super::game::{MultiGame, Outcomes, Payoffs, Turn, MAX_OUTCOMES};
use super::observer::{MultiObserver, NoMultiObserver};
use super::table::BoundsTable;
use crate::clock::Instant;
use crate::game::MoveBuffer;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// What a search of this model counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MultiStats {
    /// Positions with a player to move that were searched (not terminal, not at the horizon).
    pub decision_nodes: u64,
    /// Chance nodes searched (not terminal, not at the horizon).
    pub chance_nodes: u64,
    /// Terminal positions and positions evaluated at the depth limit.
    pub leaves: u64,
    /// Decision nodes cut off by a window (alpha-beta, shallow max^n pruning).
    pub cutoffs: u64,
    /// Chance nodes cut off by Star1's bounds.
    pub chance_cutoffs: u64,
    /// Chance nodes cut off in Star2's probing phase.
    pub probe_cutoffs: u64,
    /// Nodes answered by the table alone.
    pub table_cutoffs: u64,
    /// Deepest ply reached (the root is ply 0).
    pub max_ply: u32,
}

impl MultiStats {
    /// Inner nodes: decision and chance nodes (the "nodes" of a full tree).
    pub fn inner(&self) -> u64 {
        self.decision_nodes + self.chance_nodes
    }

    /// Every position visited: inner nodes and leaves.
    pub fn nodes(&self) -> u64 {
        self.decision_nodes + self.chance_nodes + self.leaves
    }

    /// Adds another search's counts.
    pub fn add(&mut self, o: &MultiStats) {
        self.decision_nodes += o.decision_nodes;
        self.chance_nodes += o.chance_nodes;
        self.leaves += o.leaves;
        self.cutoffs += o.cutoffs;
        self.chance_cutoffs += o.chance_cutoffs;
        self.probe_cutoffs += o.probe_cutoffs;
        self.table_cutoffs += o.table_cutoffs;
        self.max_ply = self.max_ply.max(o.max_ply);
    }
}

/// Budgets of a search; unset fields mean no limit.
#[derive(Clone, Debug, Default)]
pub struct MultiLimits<'a> {
    /// Deepest iteration, in plies (moves and outcomes both count).
    pub depth: Option<usize>,
    /// Node budget (all visited positions).
    pub nodes: Option<u64>,
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// A flag another thread may raise to stop the search.
    pub stop: Option<&'a AtomicBool>,
    /// Bounds `(L, U)` on every leaf value, in place of [`MultiGame::payoff_bounds`] (Star1 and
    /// Star2; infinite bounds turn their chance-node pruning off).
    pub bounds: Option<(f64, f64)>,
    /// Counters a front end reads while the search runs: nodes (published where the search
    /// already checks its budgets) and the depth deepening finished.
    pub progress: Option<&'a crate::search::Progress>,
}

/// The alpha-beta window a search with windows (Star1, Star2, best-reply search) hands a node:
/// bounds on its owner's value, fail-soft. Two numbers in one value, so that it travels as the
/// two arguments it stands for (in two registers), and the recursion costs nothing more.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Window {
    pub alpha: f64,
    pub beta: f64,
}

impl Window {
    /// The window `(alpha, beta)`.
    #[inline(always)]
    pub(crate) fn new(alpha: f64, beta: f64) -> Self {
        Window { alpha, beta }
    }

    /// The same window seen by the other player of a zero-sum pair: `(-beta, -alpha)`.
    #[inline(always)]
    pub(crate) fn flip(self) -> Self {
        Window::new(-self.beta, -self.alpha)
    }
}

/// The search was stopped by a budget or the stop flag; the partial result is thrown away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aborted;

/// What Star2's probe of an outcome learnt: the value of one move of the decision node the
/// outcome leads to, for that node's mover. Star1's pass starts the node from it rather than
/// searching the move again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seed {
    /// The probed move's index in the node's generated move list.
    pub idx: u16,
    /// Its value: exact, or a lower bound.
    pub value: f64,
    /// True when `value` is exact, false when it is only a lower bound (the probe failed
    /// high).
    pub exact: bool,
    /// True when the probe met the depth limit (see [`super::table::Bounds::cut`]).
    pub cut: bool,
}

/// Per-ply buffers: a move list, an outcome list and a scratch array for values, allocated
/// once per search so that no node allocates.
pub struct Frame<G: MultiGame> {
    /// The moves of the node at this ply.
    pub moves: G::Moves,
    /// The outcomes of the chance node at this ply.
    pub outcomes: Outcomes<G::Move>,
    /// Scratch values (Star2's probe bounds, max^n's child vectors).
    pub lo: [f64; MAX_OUTCOMES],
    /// Scratch values (Star2's probe bounds).
    pub hi: [f64; MAX_OUTCOMES],
    /// Star2's probe results, one per outcome of the chance node at this ply.
    pub seeds: [Option<Seed>; MAX_OUTCOMES],
    /// The order to search the moves in, as indices into `moves` (see [`Ctx::order`]);
    /// allocated once with room for every move, so filling it never allocates.
    pub perm: Vec<u16>,
}

/// How often (in nodes) a search looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// A search in progress: the game, per-ply frames, counters, limits, table and observer.
pub struct Ctx<'a, G: MultiGame, O: MultiObserver<G> = NoMultiObserver> {
    /// The game.
    pub game: &'a G,
    /// One frame per ply, allocated up front.
    pub frames: Vec<Frame<G>>,
    /// The counters.
    pub stats: MultiStats,
    /// The table, if the search uses one.
    pub table: Option<&'a BoundsTable>,
    /// The observer.
    pub obs: O,
    /// Bounds on every leaf value.
    pub bounds: (f64, f64),
    /// Set when a position was evaluated at the depth limit in the current iteration.
    pub horizon_hit: bool,
    pub(super) node_budget: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) stop: Option<&'a AtomicBool>,
    pub(super) next_check: u64,
    pub(super) progress: Option<&'a crate::search::Progress>,
    pub(super) published: u64,
}

impl<'a, G: MultiGame, O: MultiObserver<G>> Ctx<'a, G, O> {
    /// A context for searches from `root`, with frames for every ply the game can reach
    /// (capped at `max_depth + 1` when a depth limit is given).
    pub fn new(
        game: &'a G,
        root: &G::Pos,
        limits: &MultiLimits<'a>,
        table: Option<&'a BoundsTable>,
        obs: O,
    ) -> Self {
        let mut plies = game.max_plies(root);
        if let Some(d) = limits.depth {
            plies = plies.min(d);
        }
        let frames = (0..plies + 2)
            .map(|_| Frame {
                moves: G::Moves::default(),
                outcomes: Outcomes::default(),
                lo: [0.0; MAX_OUTCOMES],
                hi: [0.0; MAX_OUTCOMES],
                seeds: [None; MAX_OUTCOMES],
                perm: Vec::with_capacity(G::Moves::CAPACITY),
            })
            .collect();
        Ctx {
            game,
            frames,
            stats: MultiStats::default(),
            table,
            obs,
            bounds: limits.bounds.unwrap_or_else(|| game.payoff_bounds()),
            horizon_hit: false,
            node_budget: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| Instant::now() + t),
            stop: limits.stop,
            next_check: CHECK_EVERY,
            progress: limits.progress,
            published: 0,
        }
    }

    /// Counts a node at `ply` (`kind`: its turn) and checks the budgets now and then.
    #[inline]
    pub fn visit(&mut self, ply: usize, kind: Turn) -> Result<(), Aborted> {
        match kind {
            Turn::Player(_) => self.stats.decision_nodes += 1,
            Turn::Chance => self.stats.chance_nodes += 1,
            Turn::Terminal => self.stats.leaves += 1,
        }
        if ply as u32 > self.stats.max_ply {
            self.stats.max_ply = ply as u32;
        }
        let n = self.stats.nodes();
        if n >= self.next_check || n >= self.node_budget {
            self.next_check = n + CHECK_EVERY.min(self.node_budget.saturating_sub(n).max(1));
            self.publish();
            if n >= self.node_budget {
                return Err(Aborted);
            }
            if let Some(s) = self.stop {
                if s.load(Relaxed) {
                    return Err(Aborted);
                }
            }
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    return Err(Aborted);
                }
            }
        }
        Ok(())
    }

    /// Hands the nodes counted since the last call to the progress counters, if any.
    pub fn publish(&mut self) {
        if let Some(p) = self.progress {
            let n = self.stats.nodes();
            p.add_nodes(n - self.published);
            self.published = n;
        }
    }

    /// The payoffs of a leaf: terminal, or evaluated at the depth limit (which marks the
    /// iteration inexact). Counts the leaf.
    #[inline]
    pub fn leaf(&mut self, ply: usize, pos: &G::Pos, terminal: bool) -> Result<Payoffs, Aborted> {
        self.visit(ply, Turn::Terminal)?;
        Ok(if terminal {
            self.game.payoffs(pos)
        } else {
            self.horizon_hit = true;
            self.game.evaluate(pos)
        })
    }
}

impl<G: MultiGame, O: MultiObserver<G>> Ctx<'_, G, O> {
    /// Fills the frame at `ply` with the moves of `pos` in the game's order, and its `perm`
    /// with the order to search them in: the move at index `first` (the table's) first, then
    /// by [`MultiGame::move_hint`], ties in generation order. The list itself stays in
    /// generation order, so an index names a move in the table.
    pub fn order(&mut self, ply: usize, pos: &G::Pos, first: Option<usize>) {
        let game = self.game;
        let frame = &mut self.frames[ply];
        game.moves(pos, &mut frame.moves);
        let list = frame.moves.as_slice();
        frame.perm.clear();
        frame.perm.extend(0..list.len() as u16);
        if list.len() > 1 {
            // Unstable sort with the index as the last key: the same order as a stable sort,
            // without the buffer a stable sort may allocate.
            frame.perm.sort_unstable_by_key(|&i| {
                (
                    Some(i as usize) != first,
                    -game.move_hint(pos, list[i as usize]),
                    i,
                )
            });
        }
    }
}
