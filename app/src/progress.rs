//! Progress of a long search, for a front end to show: [`watch`] runs the search while a
//! second thread hands the front end its figures ([`Display::Call`]) every so often, and
//! [`line()`] writes them as one line: the elapsed time, the nodes, the node rate, the exact
//! solver's proven window with the bound its running probe tests and the moves that probe
//! has settled at the root and down the line it is searching
//! ([`cutoff::solver::Snapshot::settled`]), and the depth iterative deepening finished. The
//! command draws it as a status line or plain lines on standard error; Python calls back.

use cutoff::solver::{Progress, Snapshot};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A front end's display: called with the search's snapshot, the time since it started and
/// what the line should say ([`Shows`]).
pub type Show<'a> = &'a (dyn Fn(&Snapshot, Duration, Shows) + Sync);

/// How progress is shown.
#[derive(Clone, Copy)]
pub enum Display<'a> {
    /// Nothing.
    Off,
    /// The front end's own display, called every this many seconds.
    Call(f64, Show<'a>),
}

/// What the progress line says about the search: which figures apply.
#[derive(Clone, Copy, Debug)]
pub struct Shows {
    /// The exact solver's window.
    pub window: bool,
    /// The depth iterative deepening finished.
    pub depth: bool,
}

/// One progress line.
pub fn line(s: &Snapshot, elapsed: Duration, shows: Shows) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        s.nodes as f64 / secs / 1e3
    } else {
        0.0
    };
    let mut out = format!(
        "{secs:.1} s, {} nodes, {} kN/s",
        group(s.nodes),
        group(rate as u64)
    );
    if shows.window {
        out.push_str(&format!(", window [{}, {}]", s.lo, s.hi));
        if let Some(t) = s.testing.filter(|_| s.lo < s.hi) {
            out.push_str(&format!(", testing > {t}"));
            // Down to the deepest ply that has settled a move; a node above it with none
            // settled yet does not know its count ("0/?").
            let known = s
                .settled
                .iter()
                .rposition(|&(_, n)| n > 0)
                .map_or(0, |k| k + 1);
            let plies: Vec<String> = s.settled[..known]
                .iter()
                .map(|&(d, n)| match n {
                    0 => "0/?".to_string(),
                    n => format!("{d}/{n}"),
                })
                .collect();
            if !plies.is_empty() {
                out.push_str(&format!(", settled {} (root first)", plies.join(" ")));
            }
        }
    }
    if shows.depth {
        out.push_str(&format!(", depth {}", s.depth));
    }
    out
}

/// `n` with thousands separated by commas.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs `work` while a second thread shows `progress` as `display` says; returns what `work`
/// returned.
pub fn watch<T: Send>(
    progress: &Progress,
    display: Display<'_>,
    shows: Shows,
    work: impl FnOnce() -> T + Send,
) -> T {
    let Display::Call(every, show) = display else {
        return work();
    };
    let done = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let tick = Duration::from_secs_f64(every);
            let mut next = start + tick;
            while !done.load(Relaxed) {
                // Parked until the next call is due, or woken at once when the work ends.
                let now = Instant::now();
                if now < next {
                    std::thread::park_timeout(next - now);
                    continue;
                }
                next += tick;
                show(&progress.snapshot(), start.elapsed(), shows);
            }
        });
        let out = work();
        done.store(true, Relaxed);
        watcher.thread().unpark();
        out
    })
}
