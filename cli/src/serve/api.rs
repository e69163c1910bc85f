//! The server's JSON API: `GET /api/analyse?game=G&pos=P` (the score of every move, as
//! `cutoff analyse --json`), `GET /api/solve?game=G&pos=P[&time_ms=T]` (as `cutoff solve
//! --json [--time-ms T]`),
//! `GET /api/trace?tree=exercise|three|chance|maxn3|random&algo=A&order=O[&b=B&d=D&seed=S]` and
//! `POST /api/trace?algo=A&order=O` with a tree in the body (a search of a small tree, step
//! by step, for the alpha-beta view), and `GET /api/health`.
//!
//! Every error, whatever its cause, is a status and `{"error": "one line"}`: a bad request
//! (a query parameter of the wrong type, a body that is not UTF-8, an unknown path or a
//! method a path does not take) a 4xx; a body over [`super::BODY_LIMIT`] a 413; a search or
//! trace that runs out of time or finds every slot busy, a 503. Searches and traces alike
//! run off the server's async workers, in its search slots, within [`TIME_LIMIT`], and stop
//! when their client goes away.

use super::state::{State, QUEUE_WAIT};
use axum::extract::{FromRequest, FromRequestParts, Request, State as Shared};
use axum::http::{header, request::Parts, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use cutoff::solver::MoveProgress;
use cutoff_app::api::{
    Analysis, Failure, PositionQuery, Solve, Trace, TraceQuery, BODY_LIMIT, TIME_LIMIT,
};
use serde::de::DeserializeOwned;
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
    let line = cutoff_app::message::error_line(msg);
    (status, Json(serde_json::json!({ "error": line }))).into_response()
}

/// The application's refusal ([`Failure`]) as an HTTP response.
struct Refused(Failure);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        error(status, &self.0.message)
    }
}

/// The query string read into `T` ([`cutoff_app::api::query`]). axum's own `Query` answers a
/// parameter of the wrong type (`time_ms=abc`, `b=-1`) in plain text; this answers it as
/// every other bad request is.
struct Params<T>(T);

#[axum::async_trait]
impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Refused> {
        cutoff_app::api::query(parts.uri.query().unwrap_or(""))
            .map(Params)
            .map_err(Refused)
    }
}

/// The request's body as text. A body over [`BODY_LIMIT`] (a 413) or not UTF-8 (a 400) is
/// answered in the API's form, not in axum's plain text.
struct Text(String);

#[axum::async_trait]
impl<S: Send + Sync> FromRequest<S> for Text {
    type Rejection = Refused;

    async fn from_request(req: Request, state: &S) -> Result<Self, Refused> {
        use axum::extract::rejection::StringRejection;
        match String::from_request(req, state).await {
            Ok(text) => Ok(Text(text)),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(Refused(Failure {
                status: StatusCode::PAYLOAD_TOO_LARGE.as_u16(),
                message: format!("the body is larger than {BODY_LIMIT} bytes"),
            })),
            Err(StringRejection::InvalidUtf8(_)) => {
                Err(Refused(Failure::bad("the body is not UTF-8")))
            }
            Err(e) => Err(Refused(Failure {
                status: e.status().as_u16(),
                message: format!("cannot read the body: {}", e.body_text()),
            })),
        }
    }
}

/// A JSON answer already written out (on the blocking thread that made it, not on the
/// async workers: a trace's can run to megabytes).
fn json_bytes(body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn health() -> Response {
    Json(cutoff_app::api::health()).into_response()
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
/// server's search slots, within [`TIME_LIMIT`]; its JSON answer, or the error response.
async fn search<F>(state: &State, work: F) -> Response
where
    F: FnOnce(&AtomicBool) -> Result<Vec<u8>, Failure> + Send + 'static,
{
    let permit = match slot(state).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let flag = stop.clone();
    // The slot goes with the work, not with this future: a client that leaves drops the
    // future at once, but the slot is free only when the work has seen the flag and ended,
    // so clients that come and go cannot pile up searches beyond the slots.
    let mut task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&flag)
    });
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
        Ok(Ok(body)) => json_bytes(body),
        Ok(Err(failure)) => Refused(failure).into_response(),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"),
    }
}

async fn analyse(Shared(state): Shared<Arc<State>>, Params(q): Params<PositionQuery>) -> Response {
    let job = match q.analyse().and_then(|o| Analysis::new(&o)) {
        Ok(job) => job,
        Err(failure) => return Refused(failure).into_response(),
    };
    let pool = state.pool.clone();
    search(&state, move |stop| {
        let report = job.run(stop, None, pool.as_deref())?;
        cutoff_app::api::encode(&report)
    })
    .await
}

async fn solve(Shared(state): Shared<Arc<State>>, Params(q): Params<PositionQuery>) -> Response {
    let job = match q.solve().and_then(|o| Solve::new(&o)) {
        Ok(job) => job,
        Err(failure) => return Refused(failure).into_response(),
    };
    search(&state, move |stop| job.run(stop)).await
}

async fn trace_named(Shared(state): Shared<Arc<State>>, Params(q): Params<TraceQuery>) -> Response {
    trace(&state, Trace::new(&q, None)).await
}

async fn trace_posted(
    Shared(state): Shared<Arc<State>>,
    Params(q): Params<TraceQuery>,
    Text(body): Text,
) -> Response {
    trace(&state, Trace::new(&q, Some(body))).await
}

/// A trace checked (or refused at once), then the tree read and searched in a search slot,
/// as a search is (see [`search`]).
async fn trace(state: &State, job: Result<Trace, Failure>) -> Response {
    match job {
        Ok(job) => search(state, move |stop| job.run(stop)).await,
        Err(failure) => Refused(failure).into_response(),
    }
}

/// The state the event stream carries from one event to the next.
struct Streaming {
    task: tokio::task::JoinHandle<Result<serde_json::Value, Failure>>,
    progress: Arc<MoveProgress>,
    stop: Arc<AtomicBool>,
    started: std::time::Instant,
    /// Raises the stop flag when the stream is dropped (the page went away).
    _guard: StopOnDrop,
}

async fn analyse_stream(
    Shared(state): Shared<Arc<State>>,
    Params(q): Params<PositionQuery>,
) -> Response {
    use axum::response::sse::{Event, KeepAlive, Sse};
    let job = match q.analyse().and_then(|o| Analysis::new(&o)) {
        Ok(job) => job,
        Err(failure) => return Refused(failure).into_response(),
    };
    let permit = match slot(&state).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let progress = Arc::new(job.progress());
    let stop = Arc::new(AtomicBool::new(false));
    let (p, flag) = (progress.clone(), stop.clone());
    let pool = state.pool.clone();
    // The slot goes with the search, as in [`search`].
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job.run(&flag, Some(&p), pool.as_deref())
    });
    let first = Streaming {
        task,
        progress,
        stop: stop.clone(),
        started: std::time::Instant::now(),
        _guard: StopOnDrop(stop),
    };
    let events = futures_util::stream::unfold(Some(first), |st| async move {
        let mut st = st?;
        let tick = tokio::time::sleep(std::time::Duration::from_millis(250));
        tokio::select! {
            joined = &mut st.task => {
                let event = match joined {
                    Ok(Ok(json)) => Event::default().event("result").data(json.to_string()),
                    Ok(Err(Failure { message: e, .. })) => error_event(&if st.started.elapsed() >= TIME_LIMIT {
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
    let line = cutoff_app::message::error_line(msg);
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
