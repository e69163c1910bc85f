//! Searches for games with chance nodes or more than two players, on the [`MultiGame`] model
//! (see [`game`] for why it is a model of its own).
//!
//! - [`expecti`]: expectiminimax, in the plain MAX/MIN/CHANCE form and the negamax form.
//! - [`star`]: Ballard's Star1 and Star2, alpha-beta through chance nodes, with the table, move
//!   ordering and iterative deepening.
//! - [`maxn`]: max^n, plain and with shallow pruning; [`paranoid`]: the player against the
//!   coalition of all others; [`brs`]: best-reply search.
//! - [`table`]: the lock-free table of `f64` bounds these searches share.
//!
//! Every search runs in a [`Ctx`]: the game, per-ply buffers allocated once, the counters, the
//! limits and an observer. [`MultiSolver`] is the way in, in the builder style of the
//! two-player [`Solver`](crate::solver::Solver): it runs [`search`], which checks that the
//! algorithm fits the game, deepens under a depth, node or time budget and reports a
//! [`MultiResult`] (tests and benchmarks call [`search`] directly).

pub mod brs;
pub mod expecti;
pub mod game;
pub mod maxn;
pub mod paranoid;
mod solver;
pub mod star;
pub mod table;

pub use game::{
    owner, ChanceOutcome, MultiGame, Outcomes, Payoffs, Turn, MAX_OUTCOMES, MAX_PLAYERS,
};
pub use solver::MultiSolver;
pub use table::BoundsTable;

use crate::clock::Instant;
use crate::game::MoveBuffer;
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// The searches of this model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiAlgorithm {
    /// Expectiminimax with explicit MAX, MIN and CHANCE levels (two players), no pruning.
    Expectiminimax,
    /// Expectiminimax in negamax form (two players, zero-sum), no pruning.
    Expectinegamax,
    /// Ballard's Star1: alpha-beta windows through chance nodes (two players, zero-sum).
    Star1,
    /// Ballard's Star2: Star1 after probing one successor of each chance child.
    Star2,
    /// max^n without pruning.
    MaxnPlain,
    /// max^n with shallow pruning (needs bounded payoffs with a constant sum).
    Maxn,
    /// Paranoid: the root player against the coalition of all others, by alpha-beta.
    Paranoid,
    /// Best-reply search: between two moves of the root player, only the strongest opponent's
    /// best reply.
    Brs,
}

crate::names::named_choices!(MultiAlgorithm, "algorithm", String, |m| m, {
    Expectiminimax => "expectiminimax",
    Expectinegamax => "expectinegamax",
    Star1 => "star1",
    Star2 => "star2",
    MaxnPlain => "maxn-plain",
    Maxn => "maxn",
    Paranoid => "paranoid",
    Brs => "brs",
});

impl MultiAlgorithm {
    /// True for the searches that need two players and a zero sum.
    pub fn two_player_only(self) -> bool {
        matches!(
            self,
            MultiAlgorithm::Expectiminimax
                | MultiAlgorithm::Expectinegamax
                | MultiAlgorithm::Star1
                | MultiAlgorithm::Star2
        )
    }

    /// True for the searches that use the table (when given one) and move ordering.
    pub fn uses_table(self) -> bool {
        matches!(self, MultiAlgorithm::Star1 | MultiAlgorithm::Star2)
    }
}

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

/// The result of [`search`].
#[derive(Clone, Debug)]
pub struct MultiResult<M> {
    /// One value per player, in player order.
    pub values: Payoffs,
    /// The value for the player to move at the root (player 0 at a chance root).
    pub value: f64,
    /// The best move at the root (`None` at a terminal or chance root).
    pub best_move: Option<M>,
    /// What the search counted, over every iteration.
    pub stats: MultiStats,
    /// The deepest iteration finished, in plies.
    pub depth: usize,
    /// True when the last iteration saw the whole game (no position was cut by the depth
    /// limit), so the values are exact.
    pub exact: bool,
    /// True when a budget or the stop flag ended the search early (the values are those of
    /// the last finished iteration).
    pub stopped: bool,
    /// The algorithm that produced it.
    pub algo: MultiAlgorithm,
}

/// A bad request: an algorithm that does not fit the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiError(pub String);

impl fmt::Display for MultiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MultiError {}

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
    pub seeds: [Option<star::Seed>; MAX_OUTCOMES],
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
    node_budget: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    next_check: u64,
    progress: Option<&'a crate::search::Progress>,
    published: u64,
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

/// Searches `game` from `root` with `algo` under `limits`, deepening one ply at a time when a
/// budget is set (or a depth limit below the game's length), and reports the last finished
/// iteration. `table` is used by the searches that use one (see
/// [`MultiAlgorithm::uses_table`]).
pub fn search<G: MultiGame>(
    game: &G,
    root: &G::Pos,
    algo: MultiAlgorithm,
    limits: &MultiLimits<'_>,
    table: Option<&BoundsTable>,
) -> Result<MultiResult<G::Move>, MultiError> {
    search_observed(game, root, algo, limits, table, NoMultiObserver).map(|(r, _)| r)
}

/// [`search`] with an observer, which it hands back.
pub fn search_observed<G: MultiGame, O: MultiObserver<G>>(
    game: &G,
    root: &G::Pos,
    algo: MultiAlgorithm,
    limits: &MultiLimits<'_>,
    table: Option<&BoundsTable>,
    obs: O,
) -> Result<(MultiResult<G::Move>, O), MultiError> {
    let n = game.players();
    if algo.two_player_only() && n != 2 {
        return Err(MultiError(format!(
            "{algo} is for two players; this game has {n} (use maxn, paranoid or brs)"
        )));
    }
    if algo == MultiAlgorithm::Maxn && game.payoff_sum().is_none() {
        return Err(MultiError(
            "maxn's shallow pruning needs payoffs with a constant sum; use maxn-plain".into(),
        ));
    }
    let (lo, hi) = limits.bounds.unwrap_or_else(|| game.payoff_bounds());
    if lo.is_nan() || hi.is_nan() || lo > hi {
        return Err(MultiError(format!(
            "the leaf bounds [{lo}, {hi}] are not an interval"
        )));
    }
    let table = if algo.uses_table() { table } else { None };
    let full = game.max_plies(root);
    // A stop flag alone does not deepen: an exact search is one iteration.
    let budgeted = limits.nodes.is_some() || limits.time.is_some();
    let last = limits.depth.unwrap_or(full).min(full);
    let mut ctx = Ctx::new(game, root, limits, table, obs);
    let mut best: Option<MultiResult<G::Move>> = None;
    let first = if budgeted { 1.min(last) } else { last };
    for depth in first..=last {
        ctx.horizon_hit = false;
        let run = run_once(&mut ctx, root, algo, depth);
        match run {
            Ok((values, best_move)) => {
                let root_player = owner(game.turn(root), 0);
                let exact = !ctx.horizon_hit;
                best = Some(MultiResult {
                    values,
                    value: values.get(root_player),
                    best_move,
                    stats: ctx.stats,
                    depth,
                    exact,
                    stopped: false,
                    algo,
                });
                if let Some(p) = limits.progress {
                    p.finished_depth(depth);
                }
                if exact {
                    break;
                }
            }
            Err(Aborted) => break,
        }
    }
    let stopped_early = best.as_ref().is_none_or(|b| !b.exact && b.depth < last);
    let mut result = match best {
        Some(r) => r,
        None => MultiResult {
            // Not even the first iteration finished: the static evaluation is all there is.
            values: if game.turn(root) == Turn::Terminal {
                game.payoffs(root)
            } else {
                game.evaluate(root)
            },
            value: 0.0,
            best_move: None,
            stats: ctx.stats,
            depth: 0,
            exact: game.turn(root) == Turn::Terminal,
            stopped: true,
            algo,
        },
    };
    ctx.publish();
    result.value = result.values.get(owner(game.turn(root), 0));
    result.stats = ctx.stats;
    result.stopped = result.stopped || stopped_early;
    Ok((result, ctx.obs))
}

/// One search of `algo` to `depth` plies: the root's values and best move.
fn run_once<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    algo: MultiAlgorithm,
    depth: usize,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    match algo {
        MultiAlgorithm::Expectiminimax => expecti::expectiminimax(ctx, root, depth),
        MultiAlgorithm::Expectinegamax => expecti::expectinegamax(ctx, root, depth),
        MultiAlgorithm::Star1 => star::star(ctx, root, depth, false),
        MultiAlgorithm::Star2 => star::star(ctx, root, depth, true),
        MultiAlgorithm::MaxnPlain => maxn::maxn(ctx, root, depth, false),
        MultiAlgorithm::Maxn => maxn::maxn(ctx, root, depth, true),
        MultiAlgorithm::Paranoid => paranoid::paranoid(ctx, root, depth),
        MultiAlgorithm::Brs => brs::brs(ctx, root, depth),
    }
}
