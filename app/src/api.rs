//! The JSON API of the page, apart from HTTP: what `cutoff serve` answers under `/api`
//! (`serve::api` is the thin layer that takes requests and gives answers over HTTP) and what
//! the static page's WebAssembly build answers in the browser (the crate `cutoff-web`).
//!
//! Each call is made in two steps, so that a server can refuse a bad request at once and run
//! only good ones in its search slots: `new` reads the query and checks it (a [`Failure`]
//! with a 4xx status if it is wrong), `run` searches, polling a stop flag, and gives the
//! answer's JSON:
//!
//! - [`Analysis`]: the score of every move, as `cutoff analyse --json` (`/api/analyse`);
//! - [`Solve`]: one position solved, as `cutoff solve --json [--time-ms T]` (`/api/solve`);
//! - [`Trace`]: a small tree searched step by step, for the alpha-beta view (`/api/trace`);
//! - [`health`]: that the API answers, and its version (`/api/health`).
//!
//! Every search runs on one thread unless the caller hands [`Analysis::run`] a pool.

use crate::analysis::{self, Engine};
use crate::commands;
use crate::games::or_list;
use crate::options::SearchOptions;
use crate::output::Report;
use crate::position::{AnyAlgo, AnyGame, Describe, GameKind, GameOptions, GameVisitor};
use cutoff::advanced::Observer;
use cutoff::multi::MultiObserver;
use cutoff::solver::MoveProgress;
use cutoff::solver::{Solver, Stop};
use cutoff::tt::TranspositionTable;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// The table each search gets, in MiB.
pub const TABLE_MIB: usize = 64;
/// The largest request accepted, headers aside (a tree posted to `/api/trace`).
pub const BODY_LIMIT: usize = 64 << 10;
/// The longest a search may run in `cutoff serve`, and the largest time budget a solve
/// takes (`time_ms`).
pub const TIME_LIMIT: Duration = Duration::from_secs(20);

/// Why a call failed: an HTTP status and the line of its `{"error": ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The status: 400 for a request that is wrong (asking again will not help), 503 for
    /// one that could not be finished this time, 500 for an answer that could not be written.
    pub status: u16,
    /// What went wrong, in one line.
    pub message: String,
}

impl Failure {
    /// A 400: the request itself is wrong, and asking again will not help.
    pub fn bad(msg: impl Into<String>) -> Self {
        Failure {
            status: 400,
            message: msg.into(),
        }
    }

    /// A 503: the search could not finish it this time.
    pub fn unavailable(msg: impl Into<String>) -> Self {
        Failure {
            status: 503,
            message: msg.into(),
        }
    }

    /// The answer's body, `{"error": "one line"}`: the message made one safe line.
    pub fn body(&self) -> serde_json::Value {
        let line = crate::message::error_line(&self.message);
        serde_json::json!({ "error": line })
    }
}

/// A 503 for an error met answering (see [`Failure::unavailable`]).
fn unavailable(e: impl std::fmt::Display) -> Failure {
    Failure::unavailable(e.to_string())
}

/// `value` written out as JSON.
pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, Failure> {
    serde_json::to_vec(value).map_err(|e| Failure {
        status: 500,
        message: format!("cannot write the answer: {e}"),
    })
}

/// The query string `query` (without its `?`) read into `T`, as axum's `Query` reads it,
/// but with a bad request's answer naming the parameter at fault: a parameter of the wrong
/// type (`time_ms=abc`, `b=-1`) is a 400 like every other bad request.
pub fn query<T: DeserializeOwned>(query: &str) -> Result<T, Failure> {
    let e = match serde_urlencoded::from_str::<T>(query) {
        Ok(q) => return Ok(q),
        Err(e) => e,
    };
    // The deserializer does not say which parameter it choked on: the first that fails on
    // its own is it (none does for a parameter given twice).
    let culprit = query
        .split('&')
        .find(|pair| serde_urlencoded::from_str::<T>(pair).is_err());
    Err(Failure::bad(match culprit {
        Some(pair) => format!(
            "bad query parameter '{}': {e}",
            cutoff::game::quote_max(pair, 40)
        ),
        None => format!("bad query string: {e}"),
    }))
}

/// `/api/health`: `{"ok": true, "version": "..."}`.
pub fn health() -> serde_json::Value {
    serde_json::json!({ "ok": true, "version": env!("CARGO_PKG_VERSION") })
}

/// A position asked for: the game and its position text (`/api/analyse` and `/api/solve`),
/// read from a query string; [`PositionQuery::analyse`] and [`PositionQuery::solve`] turn it
/// into the commands' own options.
#[derive(Deserialize)]
pub struct PositionQuery {
    game: Option<String>,
    pos: Option<String>,
    /// Connect Four's board, `WxH` or `WxH/K` (default 7x6 with four in a row).
    board: Option<String>,
    /// A time budget in ms, at most [`TIME_LIMIT`]. `/api/solve`: iterative deepening,
    /// keeping the last finished depth (exact if it reaches the end, else the best move at
    /// the depth reached). `/api/analyse`: every move with the bounds proved for it within
    /// the budget and a best guess.
    time_ms: Option<u64>,
    /// `/api/analyse` only: a node budget over every move, as `time_ms` is one of time.
    nodes: Option<u64>,
}

impl PositionQuery {
    /// The game and position asked for, as the commands' [`GameOptions`]; a missing or
    /// unknown game, or a board that is not a shape, is a 400.
    pub fn game(&self) -> Result<GameOptions, Failure> {
        let name = self
            .game
            .as_deref()
            .ok_or_else(|| Failure::bad(format!("missing game ({})", or_list(GameKind::SERVED))))?;
        let kind = GameKind::from_name(name)
            .filter(|k| GameKind::SERVED.contains(k))
            .ok_or_else(|| {
                Failure::bad(format!(
                    "unknown game '{}' (expected {})",
                    cutoff::game::quote_max(name, 40),
                    or_list(GameKind::SERVED)
                ))
            })?;
        let mut game = GameOptions::new(kind, self.pos.as_deref().filter(|p| !p.is_empty()));
        if let Some(board) = self.board.as_deref() {
            if kind != GameKind::Connect4 {
                return Err(Failure::bad(format!("board is for connect4, not {name}")));
            }
            let (w, h, k) = crate::position::parse_shape(board).map_err(Failure::bad)?;
            game.shape = crate::position::ShapeOptions {
                board: Some((w, h)),
                connect: Some(k),
            };
        }
        Ok(game)
    }

    /// `/api/analyse`'s request as `analyse`'s options: the game, a table of [`TABLE_MIB`],
    /// the built-in book, the budget asked for.
    pub fn analyse(&self) -> Result<commands::analyse::Options, Failure> {
        Ok(commands::analyse::Options {
            game: self.game()?,
            tt_mb: TABLE_MIB,
            threads: None,
            book: Some(crate::book::BUILTIN.to_string()),
            time_ms: self.time_ms,
            nodes: self.nodes,
        })
    }

    /// `/api/solve`'s request as `solve`'s options: the game, one thread, a table of
    /// [`TABLE_MIB`], the time budget asked for.
    pub fn solve(&self) -> Result<commands::solve::Options, Failure> {
        Ok(commands::solve::Options {
            game: self.game()?,
            search: SearchOptions {
                tt_mb: TABLE_MIB,
                threads: Some(1),
                time_ms: self.time_ms,
                ..SearchOptions::default()
            },
            parallel: cutoff::solver::Mode::Ybwc,
            split: Default::default(),
            table: Default::default(),
            profile: false,
        })
    }
}

/// An analysis asked for and checked: every move of the position scored exactly, as
/// `cutoff analyse --json` reports it, the first moves of Connect Four from the opening book.
pub struct Analysis {
    game: AnyGame,
    position: Option<String>,
    /// Whether the built-in book gives the moves it holds (the only book the API reads).
    book: bool,
    budget: analysis::Budget,
}

impl Analysis {
    /// The analysis `opts` asks for, or what is wrong with it (a 400): a game the page
    /// serves, at a position it can hold, within a budget of at most [`TIME_LIMIT`].
    pub fn new(opts: &commands::analyse::Options) -> Result<Self, Failure> {
        let budget = crate::options::budget(time_budget(opts.time_ms)?, opts.nodes)
            .map_err(|e| Failure::bad(crate::Spelling::Field.apply(&e.to_string())))?;
        Ok(Analysis {
            budget,
            game: parse(&opts.game)?,
            position: opts.game.position.clone(),
            book: match opts.book.as_deref() {
                None => false,
                Some(crate::book::BUILTIN) => true,
                Some(_) => return Err(Failure::bad("the API reads only the built-in book")),
            },
        })
    }

    /// Where [`Analysis::run`] may publish what it has done: one slot a move.
    pub fn progress(&self) -> MoveProgress {
        MoveProgress::new(self.game.visit(crate::position::RangeOf))
    }

    /// Scores every move, stopping (a 503) once `stop` is raised; publishes into `progress`
    /// if given, and takes `pool` (threads) once a search proves large.
    pub fn run(
        self,
        stop: &AtomicBool,
        progress: Option<&MoveProgress>,
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<serde_json::Value, Failure> {
        let scale = self.game.scale();
        self.game.visit(Analyse {
            stop,
            position: self.position,
            book: self.book,
            budget: self.budget,
            scale,
            progress,
            pool,
        })
    }
}

/// A solve asked for and checked: the position's value and best move, as `cutoff solve
/// --json` reports it; within a time budget, the book's move where it has one, else the
/// deepest search finished.
pub struct Solve {
    game: AnyGame,
    budget: Option<Duration>,
}

impl Solve {
    /// The solve `opts` asks for, or what is wrong with it (a 400): a game the page
    /// serves, at a position it can hold, within at most [`TIME_LIMIT`].
    pub fn new(opts: &commands::solve::Options) -> Result<Self, Failure> {
        let game = parse(&opts.game)?;
        let budget = time_budget(opts.search.time_ms)?.map(Duration::from_millis);
        Ok(Solve { game, budget })
    }

    /// Solves it on one thread, stopping (a 503) once `stop` is raised; the answer's JSON.
    pub fn run(self, stop: &AtomicBool) -> Result<Vec<u8>, Failure> {
        let scale = self.game.scale();
        let report = self.game.visit(SolveOne {
            stop,
            scale,
            budget: self.budget,
        })?;
        encode(&report)
    }
}

/// The time budget asked for, if it is between 1 ms and [`TIME_LIMIT`] (a 400 otherwise).
fn time_budget(time_ms: Option<u64>) -> Result<Option<u64>, Failure> {
    match time_ms {
        Some(ms) if !(1..=TIME_LIMIT.as_millis() as u64).contains(&ms) => {
            Err(Failure::bad(format!(
                "time_ms must be between 1 and {}, got {ms}",
                TIME_LIMIT.as_millis()
            )))
        }
        ms => Ok(ms),
    }
}

/// The game set up at the position `game` asks for, or what is wrong with it (a 400): the
/// page serves only [`GameKind::SERVED`], at positions of at most 400 bytes.
fn parse(game: &GameOptions) -> Result<AnyGame, Failure> {
    if !GameKind::SERVED.contains(&game.game) {
        return Err(Failure::bad(format!(
            "unknown game '{}' (expected {})",
            game.game,
            or_list(GameKind::SERVED)
        )));
    }
    // The longest position: every cell of the largest board, columns past 9 with commas.
    if game.position.as_deref().is_some_and(|p| p.len() > 400) {
        return Err(Failure::bad("position longer than 400 bytes"));
    }
    AnyGame::parse(game).map_err(|e| Failure::bad(crate::Spelling::Field.apply(&e.to_string())))
}

struct Analyse<'a> {
    stop: &'a AtomicBool,
    position: Option<String>,
    book: bool,
    budget: analysis::Budget,
    scale: cutoff::Value,
    progress: Option<&'a MoveProgress>,
    /// The server's threads: a search that proves large takes them (see `State::pool`).
    pool: Option<&'a rayon::ThreadPool>,
}

impl GameVisitor for Analyse<'_> {
    type Output = Result<serde_json::Value, Failure>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let tt = TranspositionTable::try_new(TABLE_MIB).map_err(unavailable)?;
        let engine = Engine {
            progress: self.progress,
            // The first moves of Connect Four would take minutes to solve: the book has them.
            book: if self.book {
                crate::book::builtin().ok()
            } else {
                None
            },
            budget: self.budget,
            ..Engine::new(&tt, self.pool, true, self.stop)
        };
        let report = analysis::report(game, &game.initial(), &engine, self.position, self.scale)
            .map_err(|nodes| Failure::unavailable(format!("stopped after {nodes} nodes")))?;
        serde_json::to_value(report).map_err(unavailable)
    }
}

struct SolveOne<'a> {
    stop: &'a AtomicBool,
    scale: cutoff::Value,
    budget: Option<std::time::Duration>,
}

impl GameVisitor for SolveOne<'_> {
    type Output = Result<serde_json::Value, Failure>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let root = game.initial();
        // A budgeted reply (the page's solver) takes the book's exact move where it has one:
        // a search of a few seconds early in the game gives only a depth-limited one.
        if self.budget.is_some() {
            if let Some((v, mv)) = crate::book::builtin()
                .ok()
                .and_then(|b| b.best(game, &root))
            {
                let report = Report::from_book(game, &root, v, mv, self.scale);
                return serde_json::to_value(report).map_err(unavailable);
            }
        }
        let out = Solver::new(game)
            .threads(1)
            .table_mib(TABLE_MIB)
            .stop_flag(self.stop)
            .time(self.budget)
            .run()
            .map_err(unavailable)?;
        if out.stopped == Some(Stop::Interrupted) {
            return Err(Failure::unavailable(format!(
                "stopped after {} nodes",
                out.stats.nodes
            )));
        }
        let report = Report::from_outcome(game, &root, &out, None, self.scale);
        serde_json::to_value(report).map_err(unavailable)
    }
}

/// The trees the alpha-beta view offers by name (the files in `app/assets/trees/`, built in).
const EXERCISE: &str = include_str!("../assets/trees/exercise.tree");
const THREE: &str = include_str!("../assets/trees/three.tree");
const CHANCE: &str = include_str!("../assets/trees/expectiminimax.tree");
const MAXN3: &str = include_str!("../assets/trees/maxn3.tree");
/// The most nodes a traced tree may have: every step goes to the page.
const TRACE_NODES: usize = 5000;
/// The most steps a trace may take: forty walks over the largest tree. A search that
/// searches again (MTD(f)'s passes, PVS's re-searches) over a tree of many distinct values
/// can take millions, each a step in memory and in the answer, far more than the page can
/// show; it is refused once it passes this, which bounds a trace's memory to tens of MB.
const TRACE_STEPS: usize = 40 * TRACE_NODES;

/// A trace asked for (`/api/trace`): the tree (`exercise`, `three`, `chance`, `maxn3` or
/// `random`, with `b`, `d` and `seed`; unless the tree is posted), the algorithm and the
/// children's order.
#[derive(Deserialize)]
pub struct TraceQuery {
    tree: Option<String>,
    algo: Option<String>,
    order: Option<String>,
    b: Option<usize>,
    d: Option<usize>,
    seed: Option<u64>,
}

/// A trace asked for and checked: a small tree searched step by step, every step recorded,
/// for the alpha-beta view.
pub struct Trace {
    source: TreeSource,
    algo: Option<AnyAlgo>,
    order: TraceOrder,
}

impl Trace {
    /// The trace `q` asks for, of the tree `posted` (the text of a tree file) if given, else
    /// of the tree `q` names; or what is wrong with it (a 400).
    pub fn new(q: &TraceQuery, posted: Option<String>) -> Result<Self, Failure> {
        let source = match posted {
            Some(text) => TreeSource::Posted(text),
            None => named_tree(q)?,
        };
        let algo = trace_algo(q.algo.as_deref())?;
        let order = match q.order.as_deref().unwrap_or("natural") {
            "natural" => TraceOrder::Natural,
            "best-first" => TraceOrder::BestFirst,
            "worst-first" => TraceOrder::WorstFirst,
            other => {
                return Err(Failure::bad(format!(
                    "unknown order '{}' (expected natural, best-first or worst-first)",
                    cutoff::game::quote_max(other, 40)
                )))
            }
        };
        Ok(Trace {
            source,
            algo,
            order,
        })
    }

    /// Reads the tree and searches it, stopping (a 503) once `stop` is raised; the answer's
    /// JSON: the tree's nodes and every step.
    pub fn run(self, stop: &AtomicBool) -> Result<Vec<u8>, Failure> {
        let text = match self.source {
            TreeSource::Named(text) => std::borrow::Cow::Borrowed(text),
            TreeSource::Posted(text) => std::borrow::Cow::Owned(text),
            TreeSource::Random { b, d, seed } => {
                use cutoff::games::perfect::random_tree::{Order, RandomTree};
                let t =
                    RandomTree::new(b, d, seed, Order::Random).map_err(|e| Failure::bad(e.0))?;
                let mut s = String::new();
                spec_text(&t, &cutoff::Game::initial(&t), &mut s);
                std::borrow::Cow::Owned(s)
            }
        };
        trace_tree(&text, self.algo, self.order, stop)
    }
}

/// The tree `q` names: one of the built-in files, or a random tree within the limits.
fn named_tree(q: &TraceQuery) -> Result<TreeSource, Failure> {
    Ok(match q.tree.as_deref().unwrap_or("exercise") {
        "exercise" => TreeSource::Named(EXERCISE),
        "three" => TreeSource::Named(THREE),
        "chance" => TreeSource::Named(CHANCE),
        "maxn3" => TreeSource::Named(MAXN3),
        "random" => {
            let (b, d) = (q.b.unwrap_or(3), q.d.unwrap_or(4));
            if !(1..=8).contains(&b) || d > 8 {
                return Err(Failure::bad("random trees: b from 1 to 8, d at most 8"));
            }
            // The whole tree's nodes, 1 + b + ... + b^d, are what the trace limit counts:
            // checking b^d leaves alone let b = 4, d = 6 through, to be refused later.
            let nodes: u64 = (0..=d as u32).map(|i| (b as u64).pow(i)).sum();
            if nodes > TRACE_NODES as u64 {
                return Err(Failure::bad(format!(
                    "random trees: at most {TRACE_NODES} nodes; b = {b}, d = {d} makes {nodes}"
                )));
            }
            TreeSource::Random {
                b,
                d,
                seed: q.seed.unwrap_or(1),
            }
        }
        other => {
            return Err(Failure::bad(format!(
                "unknown tree '{}' (expected exercise, three, chance, maxn3 or random)",
                cutoff::game::quote_max(other, 40)
            )))
        }
    })
}

/// The children's order of a traced tree.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TraceOrder {
    Natural,
    BestFirst,
    WorstFirst,
}

/// The tree a trace searches: one of the built-in files, a random tree, or a posted one.
enum TreeSource {
    Named(&'static str),
    Random { b: usize, d: usize, seed: u64 },
    Posted(String),
}

/// A game's tree from `pos` down, written as a tree file (leaves from MAX's view).
fn spec_text<G: cutoff::Game>(g: &G, pos: &G::Pos, out: &mut String) {
    use cutoff::MoveBuffer;
    let mut moves = G::Moves::default();
    if g.outcome(pos).is_none() {
        g.moves(pos, &mut moves);
    }
    if moves.len() == 0 {
        let v = g.outcome(pos).unwrap_or_else(|| g.evaluate(pos));
        out.push_str(&(v * g.to_move(pos).sign()).to_string());
        return;
    }
    out.push('(');
    for (i, &mv) in moves.as_slice().iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        spec_text(g, &g.play(pos, mv), out);
    }
    out.push(')');
}

/// `tree`'s subtree at `node` written as a tree file, children in `order` by their minimax
/// values `val` (from MAX's view, [`cutoff::games::perfect::tree::Tree::minimax_values`]).
fn ordered(
    tree: &cutoff::games::perfect::tree::Tree,
    val: &[cutoff::Value],
    node: u32,
    order: TraceOrder,
    out: &mut String,
) {
    if let Some(v) = tree.value(node) {
        out.push_str(&v.to_string());
        return;
    }
    let mut kids: Vec<u32> = tree.children(node).collect();
    let max = tree.side(node) == cutoff::Player::First;
    let v = |c: &u32| val[*c as usize];
    match order {
        TraceOrder::Natural => {}
        // Stable: equal values keep their written order.
        TraceOrder::BestFirst if max => kids.sort_by_key(|c| std::cmp::Reverse(v(c))),
        TraceOrder::BestFirst => kids.sort_by_key(v),
        TraceOrder::WorstFirst if max => kids.sort_by_key(v),
        TraceOrder::WorstFirst => kids.sort_by_key(|c| std::cmp::Reverse(v(c))),
    }
    out.push('(');
    for (i, &c) in kids.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        ordered(tree, val, c, order, out);
    }
    out.push(')');
}

/// One node of a traced tree, for drawing it.
#[derive(serde::Serialize)]
struct TraceNode {
    id: u32,
    parent: Option<u32>,
    name: String,
    /// The leaf's value (plain trees: a number from MAX's view; other trees: as the walk
    /// writes it, `3.5` or `(3, 1, 4)`); `null` for an inner node.
    leaf: Option<serde_json::Value>,
    /// "max", "min", "player k" (more than two players), "chance" or "leaf".
    kind: String,
    /// The probability on the edge into the node, as written, under a chance node.
    prob: Option<String>,
}

/// The algorithm asked for, read as either family (two-player or [`cutoff::multi`]); the
/// exact solver and the game theory are not for stepping through.
fn trace_algo(name: Option<&str>) -> Result<Option<AnyAlgo>, Failure> {
    let Some(name) = name else { return Ok(None) };
    match crate::position::parse_any_algo(name) {
        Ok(AnyAlgo::Two(cutoff::Algorithm::Solve | cutoff::Algorithm::Theory)) | Err(_) => {
            Err(Failure::bad(format!(
                "unknown algorithm '{}' (expected minimax, negamax, alphabeta, alphabeta-hard, \
                 veb, ab, pvs, mtdf, expectiminimax, expectinegamax, star1, star2, maxn, \
                 maxn-plain, paranoid or brs)",
                cutoff::game::quote_max(name, 40)
            )))
        }
        Ok(a) => Ok(Some(a)),
    }
}

/// What is left of a trace's [`TRACE_STEPS`]. Past them it records nothing more and raises
/// the search's stop flag, which the search polls as it polls for a client gone away.
struct StepBudget<'a> {
    left: usize,
    stop: &'a AtomicBool,
    spent: bool,
}

impl<'a> StepBudget<'a> {
    fn new(stop: &'a AtomicBool) -> Self {
        StepBudget {
            left: TRACE_STEPS,
            stop,
            spent: false,
        }
    }

    /// Takes `n` steps; false (and the search told to stop) once the budget is spent.
    fn take(&mut self, n: usize) -> bool {
        if !self.spent && n <= self.left {
            self.left -= n;
            return true;
        }
        self.spent = true;
        self.stop.store(true, Relaxed);
        false
    }

    /// The failure of a search that stopped: too many steps, or stopped from outside (its
    /// time ran out or its client left; the caller answers those).
    fn failure(&self) -> Failure {
        if self.spent {
            Failure::bad(format!(
                "the trace takes more than {TRACE_STEPS} steps, more than the page can show: \
                 trace a smaller tree, or one with fewer distinct values"
            ))
        } else {
            Failure::unavailable("the trace was stopped")
        }
    }
}

/// A two-player trace within its [`StepBudget`]: one step per event.
struct BudgetTrace<'a, G: cutoff::Game> {
    trace: cutoff::trace::Trace<G>,
    budget: StepBudget<'a>,
}

impl<G: cutoff::Game> Observer<G> for BudgetTrace<'_, G> {
    fn entered(&mut self, ply: usize, pos: &G::Pos, alpha: cutoff::Value, beta: cutoff::Value) {
        if self.budget.take(1) {
            self.trace.entered(ply, pos, alpha, beta);
        }
    }
    fn settled(&mut self, ply: usize, pos: &G::Pos, value: cutoff::Value) {
        if self.budget.take(1) {
            self.trace.settled(ply, pos, value);
        }
    }
    fn pruned(&mut self, ply: usize, parent: &G::Pos, mv: G::Move, bound: cutoff::Value) {
        if self.budget.take(1) {
            self.trace.pruned(ply, parent, mv, bound);
        }
    }
}

/// A trace of a [`MultiTree`](cutoff::games::chance::tree_multi::MultiTree) within its
/// [`StepBudget`]: a cut costs a step for every child it skips, as the page shows them.
struct BudgetMultiTrace<'a> {
    tree: &'a cutoff::games::chance::tree_multi::MultiTree,
    trace: crate::walk::MultiTrace,
    budget: StepBudget<'a>,
}

impl MultiObserver<cutoff::games::chance::tree_multi::MultiTree> for BudgetMultiTrace<'_> {
    fn settled(&mut self, ply: usize, pos: &u32, value: &cutoff::multi::Payoffs, exact: bool) {
        if self.budget.take(1) {
            self.trace.settled(ply, pos, value, exact);
        }
    }
    fn pruned(&mut self, ply: usize, parent: &u32, from: usize, cut: cutoff::multi::Cut) {
        let skipped = self.tree.children(*parent).len().saturating_sub(from);
        if self.budget.take(skipped) {
            self.trace.pruned(ply, parent, from, cut);
        }
    }
    fn entered(&mut self, ply: usize, pos: &u32, player: usize, window: (f64, f64)) {
        if self.budget.take(1) {
            self.trace.entered(ply, pos, player, window);
        }
    }
}

/// The answer to a trace of a plain two-player tree.
#[derive(Serialize)]
struct PlainTraced<'a, S: Serialize> {
    algo: &'static str,
    value: cutoff::Value,
    nodes: Vec<TraceNode>,
    steps: &'a [S],
    leaves_evaluated: usize,
    leaves: usize,
    minimal_leaves: u64,
}

/// The answer to a trace of a tree with chance nodes, vector or decimal leaves, or more
/// than two players.
#[derive(Serialize)]
struct MultiTraced<'a, S: Serialize> {
    algo: &'static str,
    value: f64,
    value_text: String,
    players: usize,
    chance_nodes: usize,
    nodes: Vec<TraceNode>,
    steps: &'a [S],
    leaves_evaluated: u64,
    leaves: usize,
    minimal_leaves: Option<u64>,
}

/// Searches the tree written in `text` with `algo` and `order`, stopping when `stop` is
/// raised, and answers with its nodes and every step: plain two-player trees with the
/// two-player searches, trees with chance nodes or more players with those of
/// [`cutoff::multi`].
fn trace_tree(
    text: &str,
    algo: Option<AnyAlgo>,
    order: TraceOrder,
    stop: &AtomicBool,
) -> Result<Vec<u8>, Failure> {
    use crate::trees::{choose, TreeSearch};
    use cutoff::games::chance::tree_multi::MultiTree;
    use cutoff::games::perfect::tree::Tree;
    let multi = MultiTree::parse(text, 0).map_err(|e| Failure::bad(e.0))?;
    if multi.len() > TRACE_NODES {
        return Err(Failure::bad(format!(
            "the tree has {} nodes; at most {TRACE_NODES} are traced",
            multi.len()
        )));
    }
    let (tree, algo) = match choose(&multi, algo)
        .map_err(|e| Failure::bad(crate::Spelling::Field.apply(&e.to_string())))?
    {
        TreeSearch::Plain(t, a) => (t, a),
        TreeSearch::Multi(a) if order == TraceOrder::Natural => {
            return trace_multi(&multi, a, stop)
        }
        TreeSearch::Multi(_) => {
            return Err(Failure::bad(
                "best-first and worst-first reorder plain two-player trees only",
            ))
        }
    };
    let reordered;
    let tree = if order == TraceOrder::Natural {
        tree
    } else {
        let mut s = String::new();
        ordered(tree, &tree.minimax_values(), tree.root(), order, &mut s);
        reordered = Tree::parse(&s, cutoff::Player::First).map_err(|e| Failure::bad(e.0))?;
        &reordered
    };
    // `cutoff tree`'s search (`cmd::tree::search_with`), with the budget and the stop flag.
    let tt = if algo.uses_table() {
        Some(TranspositionTable::try_new(1).map_err(unavailable)?)
    } else {
        None
    };
    let observer = BudgetTrace {
        trace: cutoff::trace::Trace::new(),
        budget: StepBudget::new(stop),
    };
    let mut searcher = cutoff::advanced::Searcher::with_observer(
        tree,
        cutoff::Game::initial(tree),
        None,
        observer,
    )
    .limits(cutoff::advanced::Limits {
        stop: Some(stop),
        ..Default::default()
    });
    if let Some(tt) = &tt {
        searcher = searcher.table(tt);
    }
    let (value, _) = searcher.run(algo);
    if searcher.stopped() || stop.load(Relaxed) {
        return Err(searcher.observer().budget.failure());
    }
    let trace = searcher.into_observer().trace;
    let walk = crate::walk::TreeWalk::new(tree, &trace);
    drop(trace);
    let nodes: Vec<TraceNode> = (0..tree.len() as u32)
        .map(|n| {
            let max = tree.side(n) == cutoff::Player::First;
            TraceNode {
                id: n,
                parent: tree.parent(n),
                name: tree.name(n),
                leaf: tree.value(n).map(serde_json::Value::from),
                kind: if max { "max" } else { "min" }.to_string(),
                prob: None,
            }
        })
        .collect();
    encode(&PlainTraced {
        algo: algo.name(),
        value,
        nodes,
        steps: &walk.steps,
        leaves_evaluated: walk.leaves(tree).count(),
        leaves: tree.leaves(),
        // The fewest leaves any search must evaluate here (Knuth and Moore's minimal tree
        // for this shape and these values).
        minimal_leaves: tree.minimal_leaves(),
    })
}

/// [`trace_tree`] for a tree with chance nodes, vector or decimal leaves, or more than two
/// players, searched by `algo` without a table (the children in file order, as the trace's
/// cut indices count them). Values of scalar trees are MAX's; vector values and bounds name
/// their player. There is no minimal tree for these searches.
fn trace_multi(
    tree: &cutoff::games::chance::tree_multi::MultiTree,
    algo: cutoff::multi::MultiAlgorithm,
    stop: &AtomicBool,
) -> Result<Vec<u8>, Failure> {
    use crate::walk::{node_kind, show_values, MultiWalk};
    use cutoff::multi::MultiSolver;
    let observer = BudgetMultiTrace {
        tree,
        trace: crate::walk::MultiTrace::default(),
        budget: StepBudget::new(stop),
    };
    // The stop flag alone: a node budget would make the search deepen iteratively.
    let (result, observer) = MultiSolver::new(tree)
        .algorithm(algo)
        .stop_flag(stop)
        .run_observed(observer)
        .map_err(|e| Failure::bad(crate::Spelling::Field.apply(&e.to_string())))?;
    if result.stopped || stop.load(Relaxed) {
        return Err(observer.budget.failure());
    }
    let walk = MultiWalk::new(tree, &observer.trace, algo);
    drop(observer);
    let nodes: Vec<TraceNode> = (0..tree.len() as u32)
        .map(|n| TraceNode {
            id: n,
            parent: tree.parent(n),
            name: tree.name(n),
            leaf: tree
                .leaf_payoffs(n)
                .map(|v| serde_json::Value::from(show_values(tree, &v))),
            kind: node_kind(tree, n).to_lowercase(),
            prob: tree.prob_text(n).map(str::to_string),
        })
        .collect();
    let value = if tree.has_vectors() {
        result.values.get(tree.root_player())
    } else {
        result.values.get(0)
    };
    encode(&MultiTraced {
        algo: algo.name(),
        value,
        value_text: show_values(tree, &result.values),
        players: tree.player_count(),
        chance_nodes: tree.chance_nodes(),
        nodes,
        steps: &walk.steps,
        leaves_evaluated: result.stats.leaves,
        leaves: tree.leaves(),
        minimal_leaves: None,
    })
}
