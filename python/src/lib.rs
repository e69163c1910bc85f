//! The extension module `cutoff._cutoff` behind the Python package `cutoff` (python/cutoff/,
//! guide docs/guide/python.md).
//!
//! Two entry points, both thin:
//! - `run`: the command's `solve`, `analyse` and `cfr`, with arguments parsed by the
//!   command's own parser and the report it prints as `--json`;
//! - `search` (python/src/game.rs): the engine's two-player searches on a game written in
//!   Python.
//!
//! Every search runs on a thread of its own while the calling thread waits without the GIL
//! (`supervise`): other Python threads go on, Ctrl-C (KeyboardInterrupt) raises the
//! search's stop flag, and a progress callback is called from the watcher thread.

#![deny(missing_docs)]

mod game;

use clap::Parser;
use cutoff::solver::Snapshot;
use cutoff_app::commands;
use cutoff_app::progress::Display;
use cutoff_app::{AppError, Control, Outcome, Spelling};
use cutoff_cli::cmd;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

pyo3::create_exception!(
    cutoff,
    Error,
    PyValueError,
    "What the engine or the command refused, with its one-line message."
);

/// How often the waiting thread wakes to look for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a thread of its own while this thread waits without the GIL, waking every
/// [`SIGNAL_POLL`] to run Python's signal handlers: a KeyboardInterrupt (or any exception a
/// handler raises) raises `stop` and is returned beside the work's result, which the work
/// gives once it has seen the flag.
pub(crate) fn supervise<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> (T, Option<PyErr>) {
    py.detach(|| {
        let (tx, rx) = mpsc::channel();
        let mut signal = None;
        let out = std::thread::scope(|scope| {
            let worker = scope.spawn(move || {
                // One Python thread state for the whole search, so that each callback into
                // Python only takes the GIL (a thread state made and dropped at every
                // callback cost some 40 µs a node).
                let out = Python::attach(|py| py.detach(work));
                // The receiver lives until the worker is joined: the send cannot fail.
                let _ = tx.send(());
                out
            });
            loop {
                match rx.recv_timeout(SIGNAL_POLL) {
                    Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
                if signal.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        stop.store(true, Relaxed);
                        signal = Some(e);
                    }
                }
            }
            match worker.join() {
                Ok(out) => out,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        });
        (out, signal)
    })
}

/// The first exception a callback raised during a search, kept until the search is over.
#[derive(Default)]
pub(crate) struct Failure(Mutex<Option<PyErr>>);

impl Failure {
    /// Keeps `e` unless an earlier exception is kept, and raises `stop`.
    pub(crate) fn keep(&self, e: PyErr, stop: &AtomicBool) {
        stop.store(true, Relaxed);
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    /// The exception kept, if any.
    pub(crate) fn take(&self) -> Option<PyErr> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// `every`, if it is a number of seconds between progress calls.
pub(crate) fn check_every(every: f64) -> PyResult<()> {
    if !(every.is_finite() && every > 0.0) {
        return Err(Error::new_err(format!(
            "progress_every must be a positive number of seconds, not {every}"
        )));
    }
    Ok(())
}

/// Calls the progress callback `f` with the dict `d` makes (in a watcher thread, taking the
/// GIL); its exception is kept in `failure` and stops the search.
pub(crate) fn tell<'py>(
    f: &Py<PyAny>,
    failure: &Failure,
    stop: &AtomicBool,
    d: impl for<'a> FnOnce(Python<'a>) -> PyResult<Bound<'a, PyDict>>,
) {
    Python::attach(|py| {
        if let Err(e) = d(py).and_then(|d| f.call1(py, (d,))) {
            failure.keep(e, stop);
        }
    });
}

/// A search's progress as the callback's dict.
pub(crate) fn snapshot<'py>(
    py: Python<'py>,
    s: &Snapshot,
    elapsed: Duration,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seconds", elapsed.as_secs_f64())?;
    d.set_item("nodes", s.nodes)?;
    d.set_item("bounds", (s.lo, s.hi))?;
    d.set_item("depth", s.depth)?;
    d.set_item("testing", s.testing)?;
    Ok(d)
}

/// `solve`'s arguments as the command parses them.
#[derive(Parser)]
#[command(name = "solve", no_binary_name = true)]
struct SolveArgs {
    #[command(flatten)]
    args: cmd::solve::Args,
}

/// `analyse`'s arguments as the command parses them.
#[derive(Parser)]
#[command(name = "analyse", no_binary_name = true)]
struct AnalyseArgs {
    #[command(flatten)]
    args: cmd::analyse::Args,
}

/// `cfr`'s arguments as the command parses them.
#[derive(Parser)]
#[command(name = "cfr", no_binary_name = true)]
struct CfrArgs {
    #[command(flatten)]
    args: cmd::cfr::Args,
}

/// clap's error as one line, without its `error: ` prefix.
fn usage_error(e: clap::Error) -> PyErr {
    let text = e.render().to_string();
    let line = text.lines().next().unwrap_or("invalid arguments");
    Error::new_err(line.strip_prefix("error: ").unwrap_or(line).to_string())
}

/// What [`run`] returns: status, JSON report, text report, message.
type Reply = (String, Option<String>, Option<String>, Option<String>);

/// Runs the command's `command` (`solve`, `analyse` or `cfr`) with the arguments `argv`, as
/// `cutoff COMMAND ARGV...` would, and returns `(status, json, text, message)`: `status` is
/// `"ok"`, or `"interrupted"` when Ctrl-C stopped the work (then `json` is the report of what
/// was done, or `None` if there is none, and `message` the command's line). `progress`, if
/// given, is called every `every` seconds with a dict of the search's figures (for `cfr`: at
/// each checkpoint of the exploitability curve).
#[pyfunction]
#[pyo3(signature = (command, argv, progress=None, every=1.0))]
fn run(
    py: Python<'_>,
    command: &str,
    argv: Vec<String>,
    progress: Option<Py<PyAny>>,
    every: f64,
) -> PyResult<Reply> {
    check_every(every)?;
    let stop = AtomicBool::new(false);
    let failure = Failure::default();
    let on_snapshot = |s: &Snapshot, elapsed: Duration| {
        if let Some(f) = &progress {
            tell(f, &failure, &stop, |py| snapshot(py, s, elapsed));
        }
    };
    let on_point = |iterations: u64, exploitability: f64| {
        if let Some(f) = &progress {
            tell(f, &failure, &stop, |py| {
                let d = PyDict::new(py);
                d.set_item("iterations", iterations)?;
                d.set_item("exploitability", exploitability)?;
                Ok(d)
            });
        }
    };
    let control = Control {
        stop: &stop,
        display: match progress {
            Some(_) => Display::Call(every, &on_snapshot),
            None => Display::Off,
        },
        checkpoint: progress
            .as_ref()
            .map(|_| &on_point as &(dyn Fn(u64, f64) + Sync)),
    };
    let work: Box<dyn FnOnce() -> Result<Outcome, AppError> + Send + '_> = match command {
        "solve" => {
            let a = SolveArgs::try_parse_from(&argv).map_err(usage_error)?;
            Box::new(move || commands::solve::compute(&a.args.options(), control))
        }
        "analyse" => {
            let a = AnalyseArgs::try_parse_from(&argv).map_err(usage_error)?;
            Box::new(move || commands::analyse::compute(&a.args.options(), control))
        }
        "cfr" => {
            let a = CfrArgs::try_parse_from(&argv).map_err(usage_error)?;
            Box::new(move || commands::cfr::compute(&a.args.options(), control))
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown command '{other}' (expected solve, analyse or cfr)"
            )))
        }
    };
    let (out, signal) = supervise(py, &stop, work);
    if let Some(e) = failure.take() {
        return Err(e);
    }
    let interrupted = |json, msg: String| Ok(("interrupted".to_string(), json, None, Some(msg)));
    match (out, signal) {
        (Ok(o), None) => match o.after {
            // Stopped by nothing this call raised: the report stands, with its message.
            Some(e) => Err(Error::new_err(e.message(Spelling::Flag))),
            None => Ok(("ok".into(), Some(o.json), Some(o.text), None)),
        },
        (Ok(o), Some(_)) => {
            let msg = o
                .after
                .map_or_else(|| "interrupted".to_string(), |e| e.message(Spelling::Flag));
            interrupted(Some(o.json), msg)
        }
        (Err(e), Some(_)) if matches!(e, AppError::Interrupted { .. }) => {
            interrupted(None, e.message(Spelling::Flag))
        }
        (Err(_), Some(signal)) => Err(signal),
        (Err(e), None) => Err(match e {
            AppError::Pool(_) => PyRuntimeError::new_err(e.message(Spelling::Flag)),
            e => Error::new_err(e.message(Spelling::Flag)),
        }),
    }
}

/// The module `cutoff._cutoff`.
#[pymodule]
fn _cutoff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(game::search, m)?)?;
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
