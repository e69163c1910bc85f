//! Progress of a long search on standard error, as the command shows it: an indicatif
//! status line when standard error is a terminal (off with `--quiet`), or plain lines every
//! few seconds (`--progress-every`), for logs and batch jobs. What a line says is the
//! application's ([`cutoff_app::progress::line`]).

use cutoff::solver::Snapshot;
use cutoff_app::progress::{line, Display, Shows};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::Duration;

/// How often the status line is redrawn, in seconds.
const REDRAW: f64 = 0.2;

/// The status line, made at its first draw.
static BAR: OnceLock<ProgressBar> = OnceLock::new();

/// Redraws the status line.
fn draw(s: &Snapshot, elapsed: Duration, shows: Shows) {
    let bar = BAR.get_or_init(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar
    });
    bar.set_message(line(s, elapsed, shows));
    bar.tick();
}

/// Prints one plain progress line.
fn print_line(s: &Snapshot, elapsed: Duration, shows: Shows) {
    eprintln!("progress: {}", line(s, elapsed, shows));
}

/// The display the options ask for: lines if `every` is given, else a status line if
/// standard error is a terminal and not `quiet`.
pub fn display(quiet: bool, every: Option<f64>) -> Display<'static> {
    match every {
        Some(s) => Display::Call(s, &print_line),
        None if !quiet && std::io::stderr().is_terminal() => Display::Call(REDRAW, &draw),
        None => Display::Off,
    }
}

/// Clears the status line, if one was drawn: the search it showed is over.
pub fn finish() {
    if let Some(bar) = BAR.get() {
        bar.finish_and_clear();
    }
}
