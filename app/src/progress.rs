//! Progress of a long search on standard error: an indicatif status line when standard error
//! is a terminal (off with `--quiet`), or plain lines every few seconds (`--progress-every`),
//! for logs and batch jobs. Both show the elapsed time, the nodes, the node rate, the exact
//! solver's proven window with the bound its running probe tests and the moves that probe
//! has settled at the root and down the line it is searching
//! ([`cutoff::solver::Snapshot::settled`]), and the depth iterative deepening finished.

use cutoff::solver::{Progress, Snapshot};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy)]
pub enum Display<'a> {
    /// Nothing.
    Off,
    /// A status line redrawn in place (a terminal).
    Bar,
    /// A plain line every this many seconds.
    Lines(f64),
    /// A caller's own display (the Python package's progress callback): every this many
    /// seconds, `f` is given the search's snapshot and the time since it started.
    Call(f64, &'a (dyn Fn(&Snapshot, Duration) + Sync)),
}

impl Display<'static> {
    /// The display the options ask for: lines if `every` is given, else a status line if
    /// standard error is a terminal and not `quiet`.
    pub fn choose(quiet: bool, every: Option<f64>) -> Display<'static> {
        match every {
            Some(s) => Display::Lines(s),
            None if !quiet && std::io::stderr().is_terminal() => Display::Bar,
            None => Display::Off,
        }
    }
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
/// returned. The display is cleared (status line) or left as it is (lines) when it ends.
pub fn watch<T: Send>(
    progress: &Progress,
    display: Display<'_>,
    shows: Shows,
    work: impl FnOnce() -> T + Send,
) -> T {
    if matches!(display, Display::Off) {
        return work();
    }
    let done = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let (tick, bar) = match display {
                Display::Lines(every) | Display::Call(every, _) => {
                    (Duration::from_secs_f64(every), None)
                }
                _ => {
                    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                    bar.set_style(
                        ProgressStyle::with_template("{spinner} {msg}")
                            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                    );
                    (Duration::from_millis(200), Some(bar))
                }
            };
            let mut next = start + tick;
            while !done.load(Relaxed) {
                // Parked until the next line is due, or woken at once when the work ends.
                let now = Instant::now();
                if now < next {
                    std::thread::park_timeout(next - now);
                    continue;
                }
                next += tick;
                let snap = progress.snapshot();
                if let Display::Call(_, f) = display {
                    f(&snap, start.elapsed());
                    continue;
                }
                let text = line(&snap, start.elapsed(), shows);
                match &bar {
                    Some(b) => {
                        b.set_message(text);
                        b.tick();
                    }
                    None => eprintln!("progress: {text}"),
                }
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        let out = work();
        done.store(true, Relaxed);
        watcher.thread().unpark();
        out
    })
}
