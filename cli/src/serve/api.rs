//! The server's JSON API: `GET /api/analyse?game=G&pos=P` (the score of every move, as
//! `cutoff analyse --json`), `GET /api/solve?game=G&pos=P[&time_ms=T]` (as `cutoff solve
//! --json [--time-ms T]`),
//! `GET /api/trace?tree=exercise|three|chance|maxn3|random&algo=A&order=O[&b=B&d=D&seed=S]` and
//! `POST /api/trace?algo=A&order=O` with a tree in the body (a search of a small tree, step
//! by step, for the alpha-beta view), and `GET /api/health`. A bad request gets a 4xx status and `{"error": "one line"}`; a search
//! that runs out of time or finds every slot busy, a 503 with the same shape.

use super::{State, QUEUE_WAIT, TABLE_MIB, TIME_LIMIT};
use crate::cmd::analyse::{self, Engine, MoveProgress};
use crate::output::Report;
use crate::position::{AnyGame, Describe, GameArgs, GameKind, GameVisitor};
use axum::extract::{Query, State as Shared};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use cutoff::solver::{Solver, Stop};
use cutoff::tt::TranspositionTable;
use serde::Deserialize;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// The API's routes, under `/api`.
pub(super) fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/health", get(health))
        .route("/analyse", get(analyse))
        .route("/analyse/stream", get(analyse_stream))
        .route("/solve", get(solve))
        .route("/trace", get(trace_named).post(trace_posted))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such API call") })
}

/// `{"error": msg}` with `status`; the message made one safe line.
pub(super) fn error(status: StatusCode, msg: &str) -> Response {
    let line = crate::cmd::error_line(msg);
    (status, Json(serde_json::json!({ "error": line }))).into_response()
}

async fn health() -> Response {
    Json(serde_json::json!({ "ok": true, "version": env!("CARGO_PKG_VERSION") })).into_response()
}

/// A position asked for: the game and its position text.
#[derive(Deserialize)]
struct Position {
    game: Option<String>,
    pos: Option<String>,
    /// `/api/solve` only: a time budget in ms (iterative deepening, keeping the last finished
    /// depth: exact if it reaches the end, else the best move at the depth reached).
    time_ms: Option<u64>,
}

/// The games the page plays.
const GAMES: [GameKind; 2] = [GameKind::Connect4, GameKind::Tictactoe];

/// The game set up at the position asked for, or what is wrong with the request (a 400).
fn parse(q: &Position) -> Result<AnyGame, String> {
    use clap::ValueEnum;
    let name = q
        .game
        .as_deref()
        .ok_or("missing game (connect4 or tictactoe)")?;
    let kind = GameKind::from_str(name, false)
        .ok()
        .filter(|k| GAMES.contains(k))
        .ok_or_else(|| {
            format!(
                "unknown game '{}' (expected connect4 or tictactoe)",
                cutoff::game::quote_max(name, 40)
            )
        })?;
    let pos = q.pos.as_deref().filter(|p| !p.is_empty());
    if pos.is_some_and(|p| p.len() > 200) {
        return Err("position longer than 200 bytes".into());
    }
    AnyGame::parse(&GameArgs::new(kind, pos))
}

/// Raises the stop flag when dropped: a request whose client went away drops its handler's
/// future, and with it this guard, so the search it started stops at its next poll.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// One of the server's search slots, waiting up to [`QUEUE_WAIT`] for it; the 503 that says
/// the server is busy otherwise.
async fn slot(state: &State) -> Result<tokio::sync::OwnedSemaphorePermit, Response> {
    match tokio::time::timeout(QUEUE_WAIT, state.slots.clone().acquire_owned()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(error(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy: every search slot is taken; try again shortly",
        )),
    }
}

/// Runs `work` (a search polling the flag it is given) on a blocking thread, in one of the
/// server's search slots, within [`TIME_LIMIT`]; its answer as JSON, or the error response.
async fn search<F>(state: &State, work: F) -> Response
where
    F: FnOnce(&AtomicBool) -> Result<serde_json::Value, String> + Send + 'static,
{
    let _permit = match slot(state).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let flag = stop.clone();
    let mut task = tokio::task::spawn_blocking(move || work(&flag));
    let joined = match tokio::time::timeout(TIME_LIMIT, &mut task).await {
        Ok(joined) => joined,
        Err(_) => {
            stop.store(true, Relaxed);
            let _ = task.await;
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the search did not finish within {} s",
                    TIME_LIMIT.as_secs()
                ),
            );
        }
    };
    match joined {
        Ok(Ok(json)) => Json(json).into_response(),
        Ok(Err(e)) => error(StatusCode::SERVICE_UNAVAILABLE, &e),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"),
    }
}

async fn analyse(Shared(state): Shared<Arc<State>>, q: Query<Position>) -> Response {
    let game = match parse(&q) {
        Ok(g) => g,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e),
    };
    let position = q.pos.clone().filter(|p| !p.is_empty());
    let pool = state.pool.clone();
    search(&state, move |stop| {
        let scale = game.scale();
        game.visit(Analyse {
            stop,
            position,
            scale,
            progress: None,
            pool: pool.as_deref(),
        })
    })
    .await
}

struct Analyse<'a> {
    stop: &'a AtomicBool,
    position: Option<String>,
    scale: cutoff::Value,
    progress: Option<&'a MoveProgress>,
    /// The server's threads: a search that proves large takes them (see `State::pool`).
    pool: Option<&'a rayon::ThreadPool>,
}

impl GameVisitor for Analyse<'_> {
    type Output = Result<serde_json::Value, String>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let tt = TranspositionTable::try_new(TABLE_MIB).map_err(|e| e.to_string())?;
        let engine = Engine {
            progress: self.progress,
            // The first moves of Connect Four would take minutes to solve: the book has them.
            book: crate::book::builtin().ok(),
            ..Engine::new(&tt, self.pool, true, self.stop)
        };
        let report = analyse::report(game, &game.initial(), &engine, self.position, self.scale)
            .map_err(|nodes| format!("stopped after {nodes} nodes"))?;
        serde_json::to_value(report).map_err(|e| e.to_string())
    }
}

async fn solve(Shared(state): Shared<Arc<State>>, q: Query<Position>) -> Response {
    let game = match parse(&q) {
        Ok(g) => g,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e),
    };
    let budget = match q.time_ms {
        None => None,
        Some(ms) if (1..=TIME_LIMIT.as_millis() as u64).contains(&ms) => {
            Some(std::time::Duration::from_millis(ms))
        }
        Some(ms) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!(
                    "time_ms must be between 1 and {}, got {ms}",
                    TIME_LIMIT.as_millis()
                ),
            )
        }
    };
    search(&state, move |stop| {
        let scale = game.scale();
        game.visit(SolveOne {
            stop,
            scale,
            budget,
        })
    })
    .await
}

struct SolveOne<'a> {
    stop: &'a AtomicBool,
    scale: cutoff::Value,
    budget: Option<std::time::Duration>,
}

impl GameVisitor for SolveOne<'_> {
    type Output = Result<serde_json::Value, String>;
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
                return serde_json::to_value(report).map_err(|e| e.to_string());
            }
        }
        let out = Solver::new(game)
            .threads(1)
            .table_mib(TABLE_MIB)
            .stop_flag(self.stop)
            .time(self.budget)
            .run()
            .map_err(|e| e.to_string())?;
        if out.stopped == Some(Stop::Interrupted) {
            return Err(format!("stopped after {} nodes", out.stats.nodes));
        }
        let report = Report::from_outcome(game, &root, &out, None, self.scale);
        serde_json::to_value(report).map_err(|e| e.to_string())
    }
}

/// The trees the alpha-beta view offers by name (the files in `positions/trees/`, built in).
const EXERCISE: &str = include_str!("../../../positions/trees/exercise.tree");
const THREE: &str = include_str!("../../../positions/trees/three.tree");
const CHANCE: &str = include_str!("../../../positions/trees/expectiminimax.tree");
const MAXN3: &str = include_str!("../../../positions/trees/maxn3.tree");
/// The most nodes a traced tree may have: every step goes to the page.
const TRACE_NODES: usize = 5000;

/// A trace asked for.
#[derive(Deserialize)]
struct TraceQuery {
    tree: Option<String>,
    algo: Option<String>,
    order: Option<String>,
    b: Option<usize>,
    d: Option<usize>,
    seed: Option<u64>,
}

/// The children's order of a traced tree.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TraceOrder {
    Natural,
    BestFirst,
    WorstFirst,
}

async fn trace_named(q: Query<TraceQuery>) -> Response {
    let text = match q.tree.as_deref().unwrap_or("exercise") {
        "exercise" => EXERCISE.to_string(),
        "three" => THREE.to_string(),
        "chance" => CHANCE.to_string(),
        "maxn3" => MAXN3.to_string(),
        "random" => {
            let (b, d) = (q.b.unwrap_or(3), q.d.unwrap_or(4));
            if !(1..=8).contains(&b) || d > 8 || (b as u64).pow(d as u32) > 4096 {
                return error(
                    StatusCode::BAD_REQUEST,
                    "random trees: b from 1 to 8, d at most 8, b^d at most 4096 leaves",
                );
            }
            match cutoff::games::random_tree::RandomTree::new(
                b,
                d,
                q.seed.unwrap_or(1),
                cutoff::games::random_tree::Order::Random,
            ) {
                Ok(t) => {
                    let mut s = String::new();
                    spec_text(&t, &cutoff::Game::initial(&t), &mut s);
                    s
                }
                Err(e) => return error(StatusCode::BAD_REQUEST, &e.0),
            }
        }
        other => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!(
                    "unknown tree '{}' (expected exercise, three, chance, maxn3 or random)",
                    cutoff::game::quote_max(other, 40)
                ),
            )
        }
    };
    trace_tree(&text, &q)
}

async fn trace_posted(q: Query<TraceQuery>, body: String) -> Response {
    trace_tree(&body, &q)
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
/// values `val` (from MAX's view, [`cutoff::games::tree::Tree::minimax_values`]).
fn ordered(
    tree: &cutoff::games::tree::Tree,
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
fn trace_algo(name: Option<&str>) -> Result<Option<crate::position::AnyAlgo>, String> {
    use crate::position::AnyAlgo;
    let Some(name) = name else { return Ok(None) };
    match crate::position::parse_any_algo(name) {
        Ok(AnyAlgo::Two(cutoff::Algorithm::Solve | cutoff::Algorithm::Theory)) | Err(_) => {
            Err(format!(
                "unknown algorithm '{}' (expected minimax, negamax, alphabeta, alphabeta-hard, \
                 veb, ab, pvs, mtdf, expectiminimax, expectinegamax, star1, star2, maxn, \
                 maxn-plain, paranoid or brs)",
                cutoff::game::quote_max(name, 40)
            ))
        }
        Ok(a) => Ok(Some(a)),
    }
}

/// Searches the tree written in `text` with the query's algorithm and order, and answers with
/// its nodes and every step: plain two-player trees with the two-player searches, trees with
/// chance nodes or more players with those of [`cutoff::multi`].
fn trace_tree(text: &str, q: &TraceQuery) -> Response {
    use crate::cmd::tree::{choose, TreeSearch};
    use cutoff::games::tree::Tree;
    use cutoff::games::tree_multi::MultiTree;
    let bad = |msg: &str| error(StatusCode::BAD_REQUEST, msg);
    let algo = match trace_algo(q.algo.as_deref()) {
        Ok(a) => a,
        Err(e) => return bad(&e),
    };
    let order = match q.order.as_deref().unwrap_or("natural") {
        "natural" => TraceOrder::Natural,
        "best-first" => TraceOrder::BestFirst,
        "worst-first" => TraceOrder::WorstFirst,
        other => {
            return bad(&format!(
                "unknown order '{}' (expected natural, best-first or worst-first)",
                cutoff::game::quote_max(other, 40)
            ))
        }
    };
    let multi = match MultiTree::parse(text, 0) {
        Ok(t) => t,
        Err(e) => return bad(&e.0),
    };
    if multi.len() > TRACE_NODES {
        return bad(&format!(
            "the tree has {} nodes; at most {TRACE_NODES} are traced",
            multi.len()
        ));
    }
    let (tree, algo) = match choose(&multi, algo) {
        Ok(TreeSearch::Plain(t, a)) => (t, a),
        Ok(TreeSearch::Multi(a)) if order == TraceOrder::Natural => return trace_multi(&multi, a),
        Ok(TreeSearch::Multi(_)) => {
            return bad("best-first and worst-first reorder plain two-player trees only")
        }
        Err(e) => return bad(&e),
    };
    let reordered;
    let tree = if order == TraceOrder::Natural {
        tree
    } else {
        let mut s = String::new();
        ordered(tree, &tree.minimax_values(), tree.root(), order, &mut s);
        reordered = match Tree::parse(&s, cutoff::Player::First) {
            Ok(t) => t,
            Err(e) => return bad(&e.0),
        };
        &reordered
    };
    let (result, trace, _) =
        match crate::cmd::tree::search_with(tree, algo, cutoff::trace::Trace::new()) {
            Ok(r) => r,
            Err(e) => return error(StatusCode::SERVICE_UNAVAILABLE, &e),
        };
    let walk = crate::walk::TreeWalk::new(tree, &trace);
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
    let evaluated = walk.leaves(tree).count();
    // The fewest leaves any search must evaluate here (Knuth and Moore's minimal tree for
    // this shape and these values).
    let minimal = tree.minimal_leaves();
    Json(serde_json::json!({
        "algo": algo.name(),
        "value": result.value,
        "nodes": nodes,
        "steps": walk.steps,
        "leaves_evaluated": evaluated,
        "leaves": tree.leaves(),
        "minimal_leaves": minimal,
    }))
    .into_response()
}

/// [`trace_tree`] for a tree with chance nodes, vector or decimal leaves, or more than two
/// players, searched by `algo` without a table (the children in file order, as the trace's
/// cut indices count them). Values of scalar trees are MAX's; vector values and bounds name
/// their player. There is no minimal tree for these searches.
fn trace_multi(
    tree: &cutoff::games::tree_multi::MultiTree,
    algo: cutoff::multi::MultiAlgorithm,
) -> Response {
    use crate::walk::{node_kind, show_values, MultiTrace, MultiWalk};
    use cutoff::multi::{search_observed, MultiLimits};
    let root = cutoff::multi::MultiGame::initial(tree);
    let (result, trace) = match search_observed(
        tree,
        &root,
        algo,
        &MultiLimits::default(),
        None,
        MultiTrace::default(),
    ) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let walk = MultiWalk::new(tree, &trace, algo);
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
    Json(serde_json::json!({
        "algo": algo.name(),
        "value": value,
        "value_text": show_values(tree, &result.values),
        "players": tree.player_count(),
        "chance_nodes": tree.chance_nodes(),
        "nodes": nodes,
        "steps": walk.steps,
        "leaves_evaluated": result.stats.leaves,
        "leaves": tree.leaves(),
        "minimal_leaves": null,
    }))
    .into_response()
}

/// The state the event stream carries from one event to the next.
struct Streaming {
    task: tokio::task::JoinHandle<Result<serde_json::Value, String>>,
    progress: Arc<MoveProgress>,
    stop: Arc<AtomicBool>,
    started: std::time::Instant,
    /// Raises the stop flag when the stream is dropped (the page went away).
    _guard: StopOnDrop,
    /// The search slot, held until the stream ends.
    _permit: tokio::sync::OwnedSemaphorePermit,
}

async fn analyse_stream(Shared(state): Shared<Arc<State>>, q: Query<Position>) -> Response {
    use axum::response::sse::{Event, KeepAlive, Sse};
    let game = match parse(&q) {
        Ok(g) => g,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e),
    };
    let permit = match slot(&state).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let progress = Arc::new(MoveProgress::new(game.visit(crate::position::RangeOf)));
    let stop = Arc::new(AtomicBool::new(false));
    let position = q.pos.clone().filter(|p| !p.is_empty());
    let (p, flag) = (progress.clone(), stop.clone());
    let pool = state.pool.clone();
    let task = tokio::task::spawn_blocking(move || {
        let scale = game.scale();
        game.visit(Analyse {
            stop: &flag,
            position,
            scale,
            progress: Some(&p),
            pool: pool.as_deref(),
        })
    });
    let first = Streaming {
        task,
        progress,
        stop: stop.clone(),
        started: std::time::Instant::now(),
        _guard: StopOnDrop(stop),
        _permit: permit,
    };
    let events = futures_util::stream::unfold(Some(first), |st| async move {
        let mut st = st?;
        let tick = tokio::time::sleep(std::time::Duration::from_millis(250));
        tokio::select! {
            joined = &mut st.task => {
                let event = match joined {
                    Ok(Ok(json)) => Event::default().event("result").data(json.to_string()),
                    Ok(Err(e)) => error_event(&if st.started.elapsed() >= TIME_LIMIT {
                        format!("the search did not finish within {} s", TIME_LIMIT.as_secs())
                    } else {
                        e
                    }),
                    Err(_) => error_event("the search failed"),
                };
                Some((Ok::<Event, std::convert::Infallible>(event), None))
            }
            _ = tick => {
                if st.started.elapsed() >= TIME_LIMIT {
                    st.stop.store(true, Relaxed);
                }
                let event = progress_event(&st.progress, st.started.elapsed());
                Some((Ok(event), Some(st)))
            }
        }
    });
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

fn error_event(msg: &str) -> axum::response::sse::Event {
    let line = crate::cmd::error_line(msg);
    axum::response::sse::Event::default()
        .event("failure")
        .data(serde_json::json!({ "error": line }).to_string())
}

/// What the analysis has done: the move being solved (from 0) of how many, the nodes over
/// all moves, the node rate, and the window the current move's value is narrowed to (from
/// the side that moves next).
fn progress_event(p: &MoveProgress, elapsed: std::time::Duration) -> axum::response::sse::Event {
    let current = p.current.load(Relaxed);
    let total = p.total.load(Relaxed);
    let nodes: u64 = p.moves.iter().map(|m| m.snapshot().nodes).sum();
    let window = p.moves.get(current).map(|m| {
        let s = m.snapshot();
        [s.lo, s.hi]
    });
    let secs = elapsed.as_secs_f64().max(1e-3);
    axum::response::sse::Event::default()
        .event("progress")
        .data(
            serde_json::json!({
                "move": current,
                "moves": total,
                "nodes": nodes,
                "nodes_per_second": nodes as f64 / secs,
                "window": window,
                "seconds": secs,
            })
            .to_string(),
        )
}
