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
mod context;
pub mod expecti;
pub mod game;
pub mod maxn;
mod observer;
pub mod paranoid;
mod solver;
pub mod star;
pub mod table;

pub(crate) use context::Window;
pub use context::{Aborted, Ctx, Frame, MultiLimits, MultiStats};
pub use game::{
    owner, ChanceOutcome, MultiGame, Outcomes, Payoffs, Turn, MAX_OUTCOMES, MAX_PLAYERS,
};
pub use observer::{Cut, MultiObserver, NoMultiObserver};
pub use solver::MultiSolver;
pub use table::BoundsTable;

use std::fmt;

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
