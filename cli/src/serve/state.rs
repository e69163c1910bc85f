//! What the server's parts share: its limits, the handlers' [`State`], and [`say`].

use std::sync::Arc;
use std::time::Duration;

/// Searches running at once; more wait for a turn, up to [`QUEUE_WAIT`].
pub const SEARCHES: usize = 2;
/// How long a request waits for a search slot before it is told the server is busy.
pub const QUEUE_WAIT: Duration = Duration::from_secs(5);
/// Connections served at once. Each can hold a finished answer its client has not read, up
/// to a trace's 12 MB (see [`WRITE_STALL`]), so the worst case is 32 x 12 MB, about 400 MB,
/// for at most [`WRITE_STALL`]; a browser opens at most six connections to one server, so 32
/// leaves room for several pages and scripts. Connections past the cap wait, unaccepted, in
/// the system's queue (costing the server no file or memory) and are served in turn as
/// others end: closing them at once instead would refuse the browser too for as long as
/// someone keeps the server full, where waiting serves it within [`HEADER_TIMEOUT`] at worst.
pub const MAX_CONNECTIONS: usize = 32;
/// How long a connection may take to send a request head, counted from when the server
/// starts waiting for it: on a new connection and on an idle keep-alive one (hyper 1.x
/// restarts this timer after each answer), so it is the idle timeout as well. A browser
/// sends a head in one go; ten seconds is generous for a slow network.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a write to a connection may wait without any progress before the connection is
/// dropped, freeing its answer: a client that never reads. It counts only while a write is
/// waiting, so the event stream's pauses between events, or a long search, do not count.
pub const WRITE_STALL: Duration = Duration::from_secs(30);

/// What every handler shares.
pub(crate) struct State {
    /// Search slots (see [`SEARCHES`]).
    pub slots: Arc<tokio::sync::Semaphore>,
    /// Threads for the analyses, one per core (`None` on one core), shared by the searches
    /// running at once: each starts on one thread and takes the pool once it proves large,
    /// as `cutoff analyse` does (the hardest of Begin-Hard's five-stone positions, 13712,
    /// takes 9 s on two cores then, 14 s on one, against 20 s allowed).
    pub pool: Option<Arc<rayon::ThreadPool>>,
}

/// A line on standard error that cannot fail the server: with SIGPIPE ignored, eprintln!
/// would panic on a closed standard error.
pub(super) fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
