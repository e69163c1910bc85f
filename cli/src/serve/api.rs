//! The server's JSON API: `GET /api/analyse?game=G&pos=P` (the score of every move, as
//! `cutoff analyse --json`), `GET /api/solve?game=G&pos=P` (as `cutoff solve --json`) and
//! `GET /api/health`. A bad request gets a 4xx status and `{"error": "one line"}`; a search
//! that runs out of time or finds every slot busy, a 503 with the same shape.

use super::{State, QUEUE_WAIT, TABLE_MIB, TIME_LIMIT};
use crate::cmd::analyse::{self, Engine};
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
        .route("/solve", get(solve))
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

/// Runs `work` (a search polling the flag it is given) on a blocking thread, in one of the
/// server's search slots, within [`TIME_LIMIT`]; its answer as JSON, or the error response.
async fn search<F>(state: &State, work: F) -> Response
where
    F: FnOnce(&AtomicBool) -> Result<serde_json::Value, String> + Send + 'static,
{
    let Ok(Ok(_permit)) = tokio::time::timeout(QUEUE_WAIT, state.slots.acquire()).await else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy: every search slot is taken; try again shortly",
        );
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
    search(&state, move |stop| {
        let scale = game.scale();
        game.visit(Analyse {
            stop,
            position,
            scale,
        })
    })
    .await
}

struct Analyse<'a> {
    stop: &'a AtomicBool,
    position: Option<String>,
    scale: cutoff::Value,
}

impl GameVisitor for Analyse<'_> {
    type Output = Result<serde_json::Value, String>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let tt = TranspositionTable::try_new(TABLE_MIB).map_err(|e| e.to_string())?;
        let engine = Engine {
            tt: &tt,
            pool: None,
            auto: false,
            stop: self.stop,
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
    search(&state, move |stop| {
        let scale = game.scale();
        game.visit(SolveOne { stop, scale })
    })
    .await
}

struct SolveOne<'a> {
    stop: &'a AtomicBool,
    scale: cutoff::Value,
}

impl GameVisitor for SolveOne<'_> {
    type Output = Result<serde_json::Value, String>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let root = game.initial();
        let out = Solver::new(game)
            .threads(1)
            .table_mib(TABLE_MIB)
            .stop_flag(self.stop)
            .run()
            .map_err(|e| e.to_string())?;
        if out.stopped == Some(Stop::Interrupted) {
            return Err(format!("stopped after {} nodes", out.stats.nodes));
        }
        let report = Report::from_outcome(game, &root, &out, None, self.scale);
        serde_json::to_value(report).map_err(|e| e.to_string())
    }
}
