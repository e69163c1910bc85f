//! The extension module `cutoff._cutoff` behind the Python package `cutoff` (python/cutoff/,
//! guide docs/guide/python.md).
//!
//! - `solve`, `analyse`, `cfr` and the `Solver` class (python/src/commands.rs): the command's
//!   work through the application library's options structs, each keyword of theirs checked
//!   by PyO3 (its name and type: python/src/args.rs) and by the application (its range), with
//!   typed results read back from the command's JSON report (python/src/results.rs);
//! - `search` (python/src/game.rs): the engine's two-player searches on a game written in
//!   Python;
//! - `distribute` (python/src/distribute.rs): the command's proof on many workers, and the
//!   worker its local backend starts (`python -m cutoff.worker`).
//!
//! Every search runs on a thread of its own while the calling thread waits without the GIL
//! (`supervise`): other Python threads go on, Ctrl-C (KeyboardInterrupt) raises the
//! search's stop flag, and a progress callback is called from the watcher thread.

#![deny(missing_docs)]

mod args;
mod commands;
mod distribute;
mod game;
mod results;

use cutoff::solver::Snapshot;
use cutoff_app::distribute::DistributeError;
use cutoff_app::progress::{Display, Shows};
use cutoff_app::{AppError, CfrEvent, Control, Outcome, Spelling};
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

/// The Python error for the application's `e`: [`Error`] with its one-line message, the
/// options named by their keywords (`tt_mb`); a thread pool that would not start is not the
/// caller's mistake, so that one is a RuntimeError.
pub(crate) fn app_error(e: AppError) -> PyErr {
    match e {
        AppError::Pool(_) => PyRuntimeError::new_err(e.message(Spelling::Field)),
        e => Error::new_err(e.message(Spelling::Field)),
    }
}

/// `cutoff.Interrupted(message, result)`, the exception of a search Ctrl-C stopped. It is
/// the pure-Python part's class (a KeyboardInterrupt subclass), looked up when raised.
pub(crate) fn interrupted(py: Python<'_>, message: String, result: Option<Py<PyAny>>) -> PyErr {
    let made = py
        .import("cutoff")
        .and_then(|m| m.getattr("Interrupted"))
        .and_then(|class| class.call1((message, result)));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// Runs a command's `work` under [`supervise`] with `progress` called every `every` seconds
/// (for `cfr`: at each checkpoint), and turns its outcome into the result `typed` makes of
/// it: the report, or [`interrupted`] carrying the report of what was done when Ctrl-C
/// stopped the work, or the error.
pub(crate) fn run_command(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    every: f64,
    work: impl FnOnce(Control<'_>) -> Result<Outcome, AppError> + Send,
    typed: impl FnOnce(Python<'_>, &Outcome) -> PyResult<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    check_every(every)?;
    let stop = AtomicBool::new(false);
    let failure = Failure::default();
    let on_snapshot = |s: &Snapshot, elapsed: Duration, _: Shows| {
        if let Some(f) = &progress {
            tell(f, &failure, &stop, |py| snapshot(py, s, elapsed));
        }
    };
    let on_point = |event: CfrEvent<'_>| {
        let CfrEvent::Point {
            iterations,
            exploitability,
            ..
        } = event
        else {
            return;
        };
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
        cfr: progress
            .as_ref()
            .map(|_| &on_point as &(dyn Fn(CfrEvent<'_>) + Sync)),
        // The notes are the command's (a shard skipped): the package's calls take none.
        note: None,
    };
    let (out, signal) = supervise(py, &stop, || work(control));
    if let Some(e) = failure.take() {
        return Err(e);
    }
    settle(py, out, signal, typed)
}

/// Runs a command's `work` that needs a control for the life of the process (`distribute`:
/// its round backends hand the stop flag to threads of their own) under [`supervise`],
/// without progress, and turns its outcome into a result as [`run_command`] does. The stop
/// flag of each call is leaked: one byte.
pub(crate) fn run_static(
    py: Python<'_>,
    work: impl FnOnce(Control<'static>) -> Result<Outcome, AppError> + Send,
    typed: impl FnOnce(Python<'_>, &Outcome) -> PyResult<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let control = Control {
        stop,
        display: Display::Off,
        cfr: None,
        note: None,
    };
    let (out, signal) = supervise(py, stop, || work(control));
    settle(py, out, signal, typed)
}

/// A supervised command's result: the report `typed` makes of its outcome, or
/// [`interrupted`] carrying the report of what was done when Ctrl-C (`signal`) stopped the
/// work, or the error.
fn settle(
    py: Python<'_>,
    out: Result<Outcome, AppError>,
    signal: Option<PyErr>,
    typed: impl FnOnce(Python<'_>, &Outcome) -> PyResult<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    match (out, signal) {
        (Ok(o), None) => match o.after {
            // Stopped by nothing this call raised: the report stands, with its message.
            Some(e) => Err(app_error(e)),
            None => typed(py, &o),
        },
        (Ok(o), Some(_)) => {
            let result = typed(py, &o)?;
            let msg = o
                .after
                .map_or_else(|| "interrupted".to_string(), |e| e.message(Spelling::Field));
            Err(interrupted(py, msg, Some(result)))
        }
        (Err(e), Some(_))
            if matches!(
                e,
                AppError::Interrupted { .. }
                    | AppError::Distribute(
                        DistributeError::Interrupted { .. } | DistributeError::Stopped
                    )
            ) =>
        {
            Err(interrupted(py, e.message(Spelling::Field), None))
        }
        (Err(_), Some(signal)) => Err(signal),
        (Err(e), None) => Err(app_error(e)),
    }
}

/// The module `cutoff._cutoff`.
#[pymodule]
fn _cutoff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(commands::solve, m)?)?;
    m.add_function(wrap_pyfunction!(commands::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(commands::cfr, m)?)?;
    m.add_function(wrap_pyfunction!(game::search, m)?)?;
    m.add_function(wrap_pyfunction!(distribute::distribute, m)?)?;
    // Private, for python/cutoff/worker.py alone: set without a place in `__all__`, where
    // `add_function` would put it.
    m.setattr(
        "_distribute_worker",
        wrap_pyfunction!(distribute::_distribute_worker, m)?,
    )?;
    m.add_class::<commands::Solver>()?;
    m.add_class::<results::SolveResult>()?;
    m.add_class::<results::TableFileReport>()?;
    m.add_class::<results::Profile>()?;
    m.add_class::<results::ProfileRow>()?;
    m.add_class::<results::ChanceResult>()?;
    m.add_class::<results::AnalyseResult>()?;
    m.add_class::<results::MoveScore>()?;
    m.add_class::<results::CfrResult>()?;
    m.add_class::<results::InfosetStrategy>()?;
    m.add_class::<results::SearchResult>()?;
    m.add_class::<results::DistributeResult>()?;
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
