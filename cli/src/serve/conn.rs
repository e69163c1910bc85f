//! The server's connections: an accept loop in place of `axum::serve`, which holds every
//! connection for as long as its client likes. This one serves at most
//! [`MAX_CONNECTIONS`] at once, gives each request head [`HEADER_TIMEOUT`] to arrive, and
//! drops a connection whose writes make no progress for [`WRITE_STALL`]; Ctrl-C or SIGTERM
//! stops accepting and lets the connections finish their answers, as `axum::serve` did.

use super::error::ServeError;
use super::state::{say, HEADER_TIMEOUT, MAX_CONNECTIONS, WRITE_STALL};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::time::Sleep;

/// The timeouts in force: the constants, or shorter ones set by the test hooks.
pub(crate) struct Limits {
    header: Duration,
    stall: Duration,
}

impl Limits {
    /// [`HEADER_TIMEOUT`] and [`WRITE_STALL`], unless `CUTOFF_SERVE_HEADER_TIMEOUT_MS` or
    /// `CUTOFF_SERVE_WRITE_STALL_MS` say otherwise. These are test hooks: the tests of
    /// `tests/serve_hostile.rs` cannot wait 10 or 30 s for each case.
    pub(crate) fn from_env() -> Result<Limits, ServeError> {
        let get = |var: &'static str, default: Duration| -> Result<Duration, ServeError> {
            match std::env::var(var) {
                Err(_) => Ok(default),
                Ok(value) => match value.parse::<u64>() {
                    Ok(ms) if ms > 0 => Ok(Duration::from_millis(ms)),
                    _ => Err(ServeError::Timeout { var, value }),
                },
            }
        };
        Ok(Limits {
            header: get("CUTOFF_SERVE_HEADER_TIMEOUT_MS", HEADER_TIMEOUT)?,
            stall: get("CUTOFF_SERVE_WRITE_STALL_MS", WRITE_STALL)?,
        })
    }
}

/// Serves `app` on `listener` until `stop` resolves, then waits for the connections to
/// finish the answers they have begun.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (stopping, stop_rx) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header);
    let mut stop = pin!(stop);
    loop {
        // A slot first, then accept: past the cap a connection waits in the system's queue.
        let slot = tokio::select! {
            () = &mut stop => break,
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
        };
        let tcp = tokio::select! {
            () = &mut stop => break,
            r = listener.accept() => match r {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    // Out of files, or a connection reset before it was accepted: none of
                    // them is the server's end. A pause, so that running out of files
                    // does not spin.
                    if !matches!(e.kind(), io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset) {
                        say(&format!("cannot accept a connection: {e}"));
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            },
        };
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(StallGuard::new(tcp, limits.stall));
        let conn = http.serve_connection(io, TowerToHyperService::new(app.clone()));
        let mut stop_rx = stop_rx.clone();
        tokio::spawn(async move {
            let mut conn = pin!(conn);
            // A connection's errors (a client gone, a timeout) are its own: nothing to say.
            tokio::select! {
                _ = conn.as_mut() => {}
                () = async { let _ = stop_rx.wait_for(|&s| s).await; } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    // Every slot back: every connection has ended.
    let _ = slots.acquire_many(MAX_CONNECTIONS as u32).await;
}

/// A connection whose writes fail with `TimedOut` once one has waited `limit` without any
/// progress. The timer runs only while a write waits, so a connection with nothing to write
/// (between events of a stream, during a search) is never cut by it.
struct StallGuard<T> {
    io: T,
    limit: Duration,
    /// Armed when a write first waits; disarmed when one goes through.
    timer: Option<Pin<Box<Sleep>>>,
}

impl<T> StallGuard<T> {
    fn new(io: T, limit: Duration) -> Self {
        StallGuard {
            io,
            limit,
            timer: None,
        }
    }

    /// What a write returned, with the timer kept: `Pending` arms it (if not yet), and turns
    /// into `TimedOut` once it has run out; anything else disarms it.
    fn watch<R>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        if r.is_ready() {
            self.timer = None;
            return r;
        }
        let limit = self.limit;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        ready!(timer.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client read nothing for too long",
        )))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StallGuard<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StallGuard<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, r)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watch(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let r = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, r)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let r = Pin::new(&mut self.io).poll_shutdown(cx);
        self.watch(cx, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    /// A write that waits past the limit fails with `TimedOut`; writes that go through, even
    /// with long pauses between them, do not.
    #[tokio::test]
    async fn only_a_waiting_write_times_out() {
        let (near, mut far) = tokio::io::duplex(16);
        let mut g = StallGuard::new(near, Duration::from_millis(100));
        g.write_all(b"0123456789").await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut got = [0; 10];
        tokio::io::AsyncReadExt::read_exact(&mut far, &mut got)
            .await
            .unwrap();
        g.write_all(b"0123456789").await.unwrap();
        // 16 bytes of room: the rest of this write waits, and nobody reads.
        let e = g.write_all(b"0123456789").await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
    }
}
