//! `cutoff serve`: a local web server for playing and analysing positions in a browser. It is
//! a thin layer over the library: a JSON API (`api.rs`) and one page whose files are embedded
//! in the binary (`page/`), so nothing needs building or downloading to run it.
//!
//! Bounds: the server listens on 127.0.0.1 unless `--host` says otherwise (with a warning);
//! no request reads or writes files; each search has its own table of at most
//! [`TABLE_MIB`] MiB, runs at most [`TIME_LIMIT`], and at most [`SEARCHES`] run at once; a
//! search stops as soon as its request goes away (the browser closed the page or moved on).
//! A client can close its connection at any point, even before its answer is written:
//! SIGPIPE is ignored while the server runs, so that a write to a closed connection is an
//! error for that connection alone, not the end of the process.
//!
//! Connections are bounded too (`conn.rs`): at most [`MAX_CONNECTIONS`] are served at once
//! (more wait to be accepted), a request head must arrive within [`HEADER_TIMEOUT`] (idle
//! keep-alive connections included), and a connection whose answer makes no progress for
//! [`WRITE_STALL`] is dropped, with its answer.

mod api;
mod conn;
mod error;
mod state;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;

pub use cutoff_app::api::{BODY_LIMIT, TABLE_MIB, TIME_LIMIT};
pub use error::ServeError;
use state::say;
pub(crate) use state::State;
pub use state::{HEADER_TIMEOUT, MAX_CONNECTIONS, QUEUE_WAIT, SEARCHES, WRITE_STALL};

/// Arguments of `cutoff serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8642)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines in:
    /// a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
}

/// Runs `cutoff serve` until Ctrl-C or SIGTERM.
pub fn run(args: &Args) -> Result<(), ServeError> {
    ignore_broken_pipes();
    return_large_buffers();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    rt.block_on(serve(args))
}

async fn serve(args: &Args) -> Result<(), ServeError> {
    let limits = conn::Limits::from_env()?;
    let addr = SocketAddr::new(args.host, args.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Listen { addr, source })?;
    let local = listener.local_addr().map_err(ServeError::LocalAddr)?;
    let url = format!("http://{local}/");
    // Once listening, not before: an address it cannot listen on is one error line alone.
    if !args.host.is_loopback() {
        say(&format!(
            "warning: listening on {}: other machines can reach this server and make it search",
            args.host
        ));
    }
    // The first line of standard output is the address: scripts and tests read it. Written
    // without println!, which would panic now that a closed standard output is an error and
    // not SIGPIPE: whoever closed it did not want the address, and the server serves on.
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, "cutoff serve: {url}").and_then(|()| out.flush()) {
            say(&format!(
                "cannot write the address to standard output ({e}); serving {url}"
            ));
        }
    }
    if args.open {
        open_browser(&url);
    }
    let pool = cutoff_app::analysis::Engine::pool(cutoff_app::analysis::cores())?.map(Arc::new);
    let app = router(Arc::new(State {
        slots: Arc::new(tokio::sync::Semaphore::new(SEARCHES)),
        pool,
    }));
    conn::serve(listener, app, limits, shutdown()).await;
    Ok(())
}

/// The routes: the page's files and the API.
pub(crate) fn router(state: Arc<State>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX) }),
        )
        .route(
            "/app.js",
            get(|| async { page("text/javascript; charset=utf-8", APP) }),
        )
        .route(
            "/style.css",
            get(|| async { page("text/css; charset=utf-8", STYLE) }),
        )
        .nest("/api", api::routes())
        .fallback(|| async { api::error(StatusCode::NOT_FOUND, "no such page") })
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(json_errors))
        .with_state(state)
}

/// Every error in the API's form, `{"error": "one line"}`, whatever answered it: the
/// handlers and their extractors already do; this catches the rest, chiefly a method a path
/// does not take (axum's 405 has an empty body), keeping the status and headers.
async fn json_errors(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let res = next.run(req).await;
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let msg = if status == StatusCode::METHOD_NOT_ALLOWED {
        // axum adds the Allow header after this layer has run: the words point to it.
        format!(
            "method {method} is not allowed for this path (the Allow header lists those that are)"
        )
    } else {
        // Some other answer in plain text: its words if it has any, else the status's.
        let text = axum::body::to_bytes(body, 1 << 10)
            .await
            .ok()
            .and_then(|b| String::from_utf8(b.to_vec()).ok())
            .filter(|t| !t.trim().is_empty());
        text.unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_lowercase())
    };
    let (fresh, body) = api::error(status, &msg).into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.extend(fresh.headers);
    Response::from_parts(parts, body)
}

/// Makes a write to a closed connection an error (EPIPE) for the connection that wrote it
/// rather than SIGPIPE, which `main` leaves at its default, ending the process: a client
/// that leaves before its answer is written must not take the server, and every other
/// client's page, with it.
fn ignore_broken_pipes() {
    #[cfg(unix)]
    // SAFETY: called before the server's runtime and threads start, so nothing of ours is
    // writing when the disposition changes; SIG_IGN installs no handler, so no code of ours
    // runs in signal context. Children (the browser opener) get SIGPIPE's default back from
    // `std::process::Command`.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Makes glibc give every buffer of 1 MiB or more back to the system when it is freed. By
/// default the first such buffer freed raises that threshold to its size (up to 32 MiB), and
/// from then on buffers below it come from malloc's heaps, which keep freed memory: after ten
/// minutes of soak (scripts/soak.py), a trace's answers and steps (up to 12 MB each, built
/// on whichever thread) left about 100 MB resident in an idle server; with the threshold
/// fixed, about 15 MB.
fn return_large_buffers() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of glibc's allocator, under its own lock; called
    // before the server's threads start. Its result (0 if refused) changes nothing we rely on.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

const INDEX: &str = include_str!("page/index.html");
const APP: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// An embedded file, with headers that keep the page to its own origin: no scripts, styles,
/// fonts or frames from anywhere else.
fn page(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// Asks the desktop to open `url`; says so on standard error if it cannot.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        say(&format!(
            "cannot open a browser ({opener}: {e}); open {url} by hand"
        ));
    }
}
