//! The JSON API of `cutoff serve` (`cutoff_app::api`) compiled to WebAssembly, so that the
//! same page plays and analyses Connect Four and tic-tac-toe, and steps through alpha-beta,
//! with no server: `scripts/web/build.sh` builds this crate for `wasm32-unknown-unknown`,
//! runs `wasm-bindgen --target web` on it and writes a static folder (the server's page,
//! this module and `worker.js`, which runs it in a Web Worker) that any static host serves.
//!
//! JavaScript calls [`request`] with what it would have fetched from the server, less the
//! `/api` prefix, and gets the same status and JSON: the query becomes the commands' own
//! options structs (`cutoff_app::commands::analyse::Options`, `solve::Options`), checked
//! and run by the application library as the server's are. Every search runs on the worker's one
//! thread (WebAssembly here has no threads), with no time limit: a page stops a search by
//! ending its worker. Long and parallel analyses stay with `cutoff serve`.

use cutoff_app::api::{self, Analysis, Failure, PositionQuery, Solve, Trace, BODY_LIMIT};
use std::sync::atomic::AtomicBool;
use wasm_bindgen::prelude::wasm_bindgen;

/// An answer to a [`request`]: the status and the JSON body `cutoff serve` gives.
#[wasm_bindgen(getter_with_clone)]
pub struct Answer {
    /// The HTTP status: 200, or that of the error.
    pub status: u16,
    /// The JSON: the answer, or `{"error": "one line"}`.
    pub body: String,
}

/// Answers `method` (`GET` or `POST`) on `target`, an API path with its query string as the
/// server takes it under `/api` (`/analyse?game=connect4&pos=4453`), with `body` the posted
/// text (a tree for `POST /trace`). The calls are `cutoff serve`'s, less the event stream:
/// `/health`, `/analyse`, `/solve`, `/trace`.
#[wasm_bindgen]
pub fn request(method: &str, target: &str, body: Option<String>) -> Answer {
    match answer(method, target, body) {
        Ok(json) => Answer {
            status: 200,
            // serde_json writes UTF-8.
            body: String::from_utf8_lossy(&json).into_owned(),
        },
        Err(failure) => Answer {
            status: failure.status,
            body: failure.body().to_string(),
        },
    }
}

/// [`request`]'s answer: the JSON, or the failure.
fn answer(method: &str, target: &str, body: Option<String>) -> Result<Vec<u8>, Failure> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    // Nothing raises it: a search here ends, or its worker is ended.
    let stop = AtomicBool::new(false);
    match (method, path) {
        ("GET", "/health") => api::encode(&api::health()),
        ("GET", "/analyse") => {
            let q: PositionQuery = api::query(query)?;
            let report = Analysis::new(&q.analyse()?)?.run(&stop, None, None)?;
            api::encode(&report)
        }
        ("GET", "/solve") => {
            let q: PositionQuery = api::query(query)?;
            Solve::new(&q.solve()?)?.run(&stop)
        }
        ("GET", "/trace") => Trace::new(&api::query(query)?, None)?.run(&stop),
        ("POST", "/trace") => {
            let q = api::query(query)?;
            let body = body.unwrap_or_default();
            if body.len() > BODY_LIMIT {
                return Err(Failure {
                    status: 413,
                    message: format!("the body is larger than {BODY_LIMIT} bytes"),
                });
            }
            Trace::new(&q, Some(body))?.run(&stop)
        }
        (_, "/health" | "/analyse" | "/solve" | "/trace") => Err(Failure {
            status: 405,
            message: format!("method {method} is not allowed for this path"),
        }),
        _ => Err(Failure {
            status: 404,
            message: "no such API call".into(),
        }),
    }
}

/// Makes a panic a JavaScript exception with its message, rather than a bare `unreachable`
/// trap: the worker reports it and the page starts a fresh worker (the module's state after
/// a panic is not to be trusted).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        wasm_bindgen::throw_str(&format!("the engine panicked: {info}"))
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(a: &Answer) -> serde_json::Value {
        serde_json::from_str(&a.body).expect("JSON")
    }

    #[test]
    fn the_empty_board_is_scored_from_the_book() {
        let a = request("GET", "/analyse?game=connect4&pos=", None);
        assert_eq!(a.status, 200, "{}", a.body);
        let j = json(&a);
        let scores: Vec<i64> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["value"].as_i64().unwrap())
            .collect();
        assert_eq!(scores, [-2, -1, 0, 1, 0, -1, -2]);
        assert_eq!(j["nodes"], 0, "from the book, no search");
    }

    #[test]
    fn a_budgeted_solve_answers_a_move() {
        let a = request(
            "GET",
            "/solve?game=tictactoe&pos=X../.O./...&time_ms=1000",
            None,
        );
        assert_eq!(a.status, 200, "{}", a.body);
        assert!(json(&a)["best_move"].is_string(), "{}", a.body);
    }

    #[test]
    fn the_exercise_tree_is_traced() {
        let a = request("GET", "/trace?tree=exercise&algo=alphabeta", None);
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(json(&a)["leaves_evaluated"], 7);
        let posted = request(
            "POST",
            "/trace?algo=minimax",
            Some("((3 11) (2 13))".into()),
        );
        assert_eq!(posted.status, 200, "{}", posted.body);
        assert_eq!(json(&posted)["leaves_evaluated"], 4);
    }

    #[test]
    fn bad_requests_are_answered_as_the_server_answers_them() {
        let cases = [
            (
                "GET",
                "/solve?game=connect4&time_ms=abc",
                400,
                "bad query parameter 'time_ms=abc'",
            ),
            (
                "GET",
                "/solve?game=connect4&time_ms=0",
                400,
                "time_ms must be between 1 and",
            ),
            ("GET", "/analyse?game=chess", 400, "unknown game 'chess'"),
            ("GET", "/trace?tree=random&b=9", 400, "random trees"),
            ("GET", "/nothing", 404, "no such API call"),
            ("DELETE", "/solve", 405, "not allowed"),
        ];
        for (method, target, status, words) in cases {
            let a = request(method, target, None);
            assert_eq!(a.status, status, "{target}: {}", a.body);
            let error = json(&a)["error"].as_str().unwrap().to_string();
            assert!(error.contains(words), "{target}: {error}");
        }
        let big = "(".repeat(BODY_LIMIT + 1);
        assert_eq!(request("POST", "/trace", Some(big)).status, 413);
    }
}
