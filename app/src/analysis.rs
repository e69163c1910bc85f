//! Scoring a position's moves, shared by `cutoff analyse`, `cutoff play`, `cutoff book` and
//! the server: the bundle of table, threads, stop flag, progress and book a search runs with
//! ([`Engine`]), and the report of every move's exact value ([`report`]).

use crate::position::Describe;
use cutoff::clock::Instant;
use cutoff::solver::{Analysis, MoveScore, Solver, Threads, Verdict};
use cutoff::solver::{MoveProgress, Progress};
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game, Value};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The cores this process may use (1 if the system does not say).
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// A thread pool the system would not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {threads} threads: {source}")]
pub struct PoolError {
    /// The threads asked for.
    pub threads: usize,
    /// rayon's reason.
    pub source: rayon::ThreadPoolBuildError,
}

/// A pool of `threads` threads.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, PoolError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| PoolError { threads, source })
}

/// How a searcher runs: its table, threads and the flag that stops it.
pub struct Engine<'a> {
    /// The table every search shares.
    pub tt: &'a TranspositionTable,
    /// A pool for the parallel search, `None` for the serial one.
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Automatic threads (one first, the pool once a search proves large) or exactly the
    /// pool's.
    pub auto: bool,
    /// Raised by Ctrl-C: the searches poll it.
    pub stop: &'a AtomicBool,
    /// Where [`score_moves`] publishes what it has done, if anyone watches.
    pub progress: Option<&'a MoveProgress>,
    /// An opening book [`score_moves`] looks positions up in before searching them.
    pub book: Option<&'a crate::book::Book>,
    /// What [`score_moves`] may spend; unlimited, it settles every move.
    pub budget: Budget,
}

/// A time and node budget for scoring a position's moves (`cutoff analyse --time-ms T
/// --nodes N`, checked by [`crate::options::budget`]): within it, each move gets the bounds
/// proved for it and a best guess ([`cutoff::solver::Solver::analyse`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall time.
    pub time: Option<Duration>,
    /// Nodes, over every move.
    pub nodes: Option<u64>,
}

impl Budget {
    /// True if either limit is set.
    pub fn is_set(&self) -> bool {
        self.time.is_some() || self.nodes.is_some()
    }

    /// The budget in words (`2000 ms`, `1000000 nodes`, both), `None` if unlimited.
    pub fn words(&self) -> Option<String> {
        let parts: Vec<String> = self
            .time
            .map(|t| format!("{} ms", t.as_millis()))
            .into_iter()
            .chain(self.nodes.map(|n| format!("{n} nodes")))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" or "))
    }
}

impl<'a> Engine<'a> {
    /// Searches with `tt` on `pool` (`auto`: see [`Engine::auto`]), stopped by `stop`, with
    /// nobody watching and no book (set [`Engine::progress`] and [`Engine::book`] to add them).
    pub fn new(
        tt: &'a TranspositionTable,
        pool: Option<&'a rayon::ThreadPool>,
        auto: bool,
        stop: &'a AtomicBool,
    ) -> Self {
        Engine {
            tt,
            pool,
            auto,
            stop,
            progress: None,
            book: None,
            budget: Budget::default(),
        }
    }

    /// A pool of `threads` threads if more than one.
    pub fn pool(threads: usize) -> Result<Option<rayon::ThreadPool>, PoolError> {
        if threads <= 1 {
            return Ok(None);
        }
        pool(threads).map(Some)
    }

    /// Solves `pos` exactly with the null-window solver (through [`Solver`], the engine's one
    /// way to run a search): its value from the side to move, a best move (where the
    /// position has moves) and the nodes searched; `Err` with the nodes searched if the stop
    /// flag was raised first.
    pub fn solve<G: Game>(
        &self,
        game: &G,
        pos: G::Pos,
    ) -> Result<(Value, Option<G::Move>, u64), u64> {
        self.solve_watched(game, pos, None)
    }

    /// [`Engine::solve`], publishing into `progress` if given.
    pub fn solve_watched<G: Game>(
        &self,
        game: &G,
        pos: G::Pos,
        progress: Option<&Progress>,
    ) -> Result<(Value, Option<G::Move>, u64), u64> {
        let mut solver = self.solver(game).position(pos).algorithm(Algorithm::Solve);
        if let Some(p) = progress {
            solver = solver.progress(p);
        }
        // The settings are always valid and the table is the caller's: no error.
        let out = solver.run().map_err(|_| 0u64)?;
        match out.verdict {
            Verdict::Exact(v) => Ok((v, out.best_move, out.stats.nodes)),
            _ => Err(out.stats.nodes),
        }
    }

    /// A [`Solver`] of `game` with this engine's table, stop flag and threads.
    pub fn solver<'s, G: Game>(&'s self, game: &'s G) -> Solver<'s, G> {
        let solver = Solver::new(game).table(self.tt).stop_flag(self.stop);
        match self.pool {
            Some(pool) if self.auto => solver.pool(pool).thread_policy(Threads::Auto),
            Some(pool) => solver.pool(pool).threads(pool.current_num_threads()),
            None => solver.threads(1),
        }
    }
}

/// Scores every legal move of `pos` with [`Solver::analyse`], looking the moves up in the
/// engine's book first, within the engine's budget. `Err` with the nodes searched if the
/// stop flag was raised first.
pub fn score_moves<G: Describe>(
    game: &G,
    pos: &G::Pos,
    engine: &Engine<'_>,
) -> Result<Analysis<G::Move>, u64> {
    let known = |p: &G::Pos| engine.book.and_then(|b| b.value(game, p));
    let mut solver = engine
        .solver(game)
        .position(*pos)
        .time(engine.budget.time)
        .nodes(engine.budget.nodes);
    if engine.book.is_some() {
        solver = solver.known_values(&known);
    }
    if let Some(p) = engine.progress {
        solver = solver.move_progress(p);
    }
    // The settings are always valid and the table is the caller's: no error.
    let scores = solver.analyse().map_err(|_| 0u64)?;
    if scores.stopped {
        return Err(scores.nodes);
    }
    Ok(scores)
}

/// One move in the JSON report.
#[derive(Serialize)]
pub struct MoveJson {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value, from the side to move at the position (trees: the leaves' scale): exact,
    /// or where a budget left it unproved (`exact` false) the best guess.
    pub value: Value,
    /// The value in words.
    pub explain: String,
    /// Whether `value` is proved.
    pub exact: bool,
    /// Proven: the value is at least this.
    pub lo: Value,
    /// Proven: the value is at most this.
    pub hi: Value,
    /// The plies a guess looked ahead (`null` where exact, or where no depth finished).
    pub depth: Option<usize>,
}

impl MoveJson {
    /// The row of `score`, a move of `pos`, its values times `scale`.
    pub fn new<G: Describe>(
        game: &G,
        pos: &G::Pos,
        score: &MoveScore<G::Move>,
        scale: Value,
    ) -> Self {
        let (lo, hi) = scaled(score.lo, score.hi, scale);
        MoveJson {
            mv: game.format_move(pos, score.mv),
            value: score.guess * scale,
            explain: game.explain_value(pos, score.guess),
            exact: score.exact().is_some(),
            lo,
            hi,
            depth: score.depth,
        }
    }
}

/// The bounds `lo..=hi` times `scale`, in order.
fn scaled(lo: Value, hi: Value, scale: Value) -> (Value, Value) {
    if scale < 0 {
        (hi * scale, lo * scale)
    } else {
        (lo * scale, hi * scale)
    }
}

/// The JSON report of `cutoff analyse`.
#[derive(Serialize)]
pub struct AnalyseJson {
    /// The game's name.
    pub game: String,
    /// The board, where it is not the game's default (see [`Describe::board`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The position as given on the command line (`null` if none was).
    pub position: Option<String>,
    /// The side to move, named.
    pub to_move: String,
    /// Whether the position is terminal (then `moves` is empty).
    pub terminal: bool,
    /// The position's value: the best move's, or the outcome at a terminal position (where
    /// a budget left it unproved, `exact` false, the best guess).
    pub value: Value,
    /// The value in words.
    pub explain: String,
    /// Whether `value` is proved: some move was proved at least as good as every other
    /// move's upper bound.
    pub exact: bool,
    /// Proven: the position's value is at least this.
    pub lo: Value,
    /// Proven: the position's value is at most this.
    pub hi: Value,
    /// A best move, `null` at a terminal position: with a budget, the best found.
    pub best_move: Option<String>,
    /// Every legal move with its value.
    pub moves: Vec<MoveJson>,
    /// The budget, in words, if one was given (`null` otherwise).
    pub budget: Option<String>,
    /// Nodes searched, over all the moves.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: f64,
}

/// The report of `cutoff analyse` on `pos` (given on the command line as `position`): every
/// move scored with `engine`, values times `scale` (-1 for trees with a MIN root). `Err` with
/// the nodes searched if the stop flag was raised first.
pub fn report<G: Describe>(
    game: &G,
    pos: &G::Pos,
    engine: &Engine<'_>,
    position: Option<String>,
    scale: Value,
) -> Result<AnalyseJson, u64> {
    let start = Instant::now();
    let scores = score_moves(game, pos, engine)?;
    let time_ms = start.elapsed().as_secs_f64() * 1e3;
    let outcome = game.outcome(pos);
    let best = scores.best();
    let value = outcome.or(best.map(|(_, v)| v)).unwrap_or(0);
    // The position's proven range: the best lower and the best upper bound of its moves.
    let (lo, hi) = match outcome {
        Some(v) => (v, v),
        None => scores.bounds().unwrap_or((value, value)),
    };
    let rows: Vec<MoveJson> = scores
        .moves
        .iter()
        .map(|m| MoveJson::new(game, pos, m, scale))
        .collect();
    let (lo, hi) = scaled(lo, hi, scale);
    Ok(AnalyseJson {
        game: game.name().to_string(),
        board: game.board(),
        position,
        to_move: game.to_move_name(pos).to_string(),
        terminal: outcome.is_some(),
        value: value * scale,
        explain: game.explain_value(pos, value),
        exact: lo == hi,
        lo,
        hi,
        best_move: best.map(|(mv, _)| game.format_move(pos, mv)),
        moves: rows,
        budget: engine.budget.words(),
        nodes: scores.nodes,
        time_ms,
    })
}
