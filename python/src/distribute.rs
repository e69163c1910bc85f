//! `distribute`, `cutoff distribute`'s proof by hypothesis on many workers, and
//! `_distribute_worker`, the worker its local backend starts (`python -m cutoff.worker`,
//! python/cutoff/worker.py): each keyword is the field of
//! [`cutoff_app::commands::distribute::Options`] of that name, with the command's defaults;
//! the run, its checks and its report are the command's.

use crate::args::{game_kind, int, opt_int, GameKeywords, Int};
use crate::results::distribute_result;
use crate::{app_error, run_static, supervise};
use cutoff_app::commands::distribute::{self as app_distribute, WorkerCommand};
use cutoff_app::distribute::Backend;
use cutoff_app::message::shown_path;
use cutoff_app::progress::Display;
use cutoff_app::{opt, AppError, Control};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The longest simulated latency of a message, in milliseconds: an hour.
const MAX_LATENCY_MS: f64 = 3.6e6;

/// A value refused, its message the application's (options marked with [`opt`]).
fn invalid(what: String) -> PyErr {
    app_error(AppError::invalid(what))
}

/// The backend called `name`: the two that run from Python, the others refused.
fn backend(name: &str) -> PyResult<Backend> {
    match name {
        "local" => Ok(Backend::Local),
        "simulate" => Ok(Backend::Simulate),
        "slurm" | "mpi" | "local-rounds" => Err(invalid(format!(
            "{} {name} runs from the command, not from Python: `cutoff distribute GAME \
             [POSITION] --dir DIR --backend {name}`; here it is local or simulate",
            opt("backend")
        ))),
        other => Err(invalid(format!(
            "{} must be local or simulate, not '{}'",
            opt("backend"),
            cutoff::game::quote_max(other, 40)
        ))),
    }
}

/// The worker program of the local backend: this interpreter running `cutoff.worker`, so
/// that each worker imports the package this process imported.
fn worker_command(py: Python<'_>) -> PyResult<WorkerCommand> {
    let exe: Option<String> = py.import("sys")?.getattr("executable")?.extract()?;
    match exe.filter(|e| !e.is_empty()) {
        Some(program) => {
            check_working_directory(py)?;
            Ok(WorkerCommand {
                program: PathBuf::from(program),
                args: vec!["-m".into(), "cutoff.worker".into()],
            })
        }
        None => Err(invalid(format!(
            "{} local starts each worker as `sys.executable -m cutoff.worker`, and this \
             interpreter has no sys.executable (embedded): use {} simulate, or the command",
            opt("backend"),
            opt("backend")
        ))),
    }
}

/// Refuses a working directory that holds a package `cutoff` other than the one imported
/// here: `python -m` puts it first on the worker's path (unless `sys.flags.safe_path`), so
/// each worker would import that one and fail, or run other code.
fn check_working_directory(py: Python<'_>) -> PyResult<()> {
    let sys = py.import("sys")?;
    if let Ok(safe) = sys.getattr("flags")?.getattr("safe_path") {
        if safe.is_truthy()? {
            return Ok(());
        }
    }
    let cwd: PathBuf = py.import("os")?.call_method0("getcwd")?.extract()?;
    let file: PathBuf = py.import("cutoff")?.getattr("__file__")?.extract()?;
    let here = file.parent().unwrap_or(&file);
    let there = cwd.join("cutoff");
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let shadowed = cwd.join("cutoff.py").exists()
        || (there.join("__init__.py").exists() && !same(&there, here));
    if shadowed {
        return Err(invalid(format!(
            "{} local starts each worker as `python -m cutoff.worker`, which would import the \
             cutoff of the working directory ({}), not this one ({}): call it from another \
             directory",
            opt("backend"),
            shown_path(&cwd.to_string_lossy()),
            shown_path(&here.to_string_lossy()),
        )));
    }
    Ok(())
}

/// Proves a position's exact value on many workers by hypothesis, as `cutoff distribute GAME
/// [POSITION] --dir DIR --json`, and returns its report, a `DistributeResult`.
///
/// The driver guesses the value of every position `depth` plies from `position` (None:
/// the start; as `solve`'s; `depth=None`: 2 on up to 8 workers, 3 on up to 32, else 4), then sends the tests that prove or refute the guesses to the
/// workers as they free up. Every answer is kept in `dir`: a call stopped (Ctrl-C) and
/// made again with the same arguments resumes from it (`resumed` counts what it read).
///
/// - `backend="local"`: `workers` processes of this machine, each `sys.executable -m
///   cutoff.worker` (this interpreter, this package), their logs in `dir/logs`;
///   `"simulate"`: virtual workers in this process on a simulated clock, each message
///   taking `latency_ms=1.0`. The command's other backends (slurm, mpi, local-rounds) run
///   from the command;
/// - `workers=None`: every core; `guess_nodes=4096`: each guess's node budget; `tt_mb=16`:
///   each worker's table; `hard_nodes=100000`: table entries of subtrees this large are
///   shared among the workers (Connect Four); `split_percent=0`: the command's option of
///   that name; `job_nodes=None`: each test's first node budget (None: the work so far
///   shared among the workers); `speculate=True`: idle workers run the tests the proof may
///   need next; `book=None`: an opening book ("builtin": Connect Four's) whose values are
///   the guesses;
/// - `board`, `connect`: Connect Four's shape; `root="max"`: a tree file's root.
///
/// A keyword it does not know, or of the wrong type, is a TypeError; a value out of range
/// is `cutoff.Error` naming the keyword. Ctrl-C raises `cutoff.Interrupted` (its `result`
/// None): `dir` keeps every answer proved.
#[pyfunction]
#[pyo3(signature = (
    game, position=None, *, dir, workers=None, depth=None, backend="local",
    guess_nodes=Int(4096), tt_mb=Int(16), hard_nodes=Int(100_000), split_percent=Int(0),
    book=None, job_nodes=None, speculate=true, latency_ms=1.0, board=None, connect=None,
    root="max"
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn distribute(
    py: Python<'_>,
    game: &str,
    position: Option<&Bound<'_, PyAny>>,
    dir: PathBuf,
    workers: Option<Int>,
    depth: Option<Int>,
    backend: &str,
    guess_nodes: Int,
    tt_mb: Int,
    hard_nodes: Int,
    split_percent: Int,
    book: Option<String>,
    job_nodes: Option<Int>,
    speculate: bool,
    latency_ms: f64,
    board: Option<&str>,
    connect: Option<Int>,
    root: &str,
) -> PyResult<Py<PyAny>> {
    let kind = game_kind(game)?;
    let keywords = GameKeywords {
        board,
        connect,
        branching: None,
        depth,
        seed: Int(1),
        order: "random",
        root,
    };
    let backend = self::backend(backend)?;
    if !(latency_ms.is_finite() && (0.0..=MAX_LATENCY_MS).contains(&latency_ms)) {
        return Err(invalid(format!(
            "{} must be a number of milliseconds from 0 to {MAX_LATENCY_MS}, not {latency_ms}",
            opt("latency_ms")
        )));
    }
    let opts = app_distribute::Options {
        game: keywords.options(kind, position)?,
        dir,
        backend,
        workers: opt_int("workers", workers)?,
        guess_nodes: int("guess_nodes", guess_nodes)?,
        tt_mb: int("tt_mb", tt_mb)?,
        hard_nodes: int("hard_nodes", hard_nodes)?,
        split_percent: int("split_percent", split_percent)?,
        book,
        quiet: true,
        latency: Duration::from_secs_f64(latency_ms / 1e3),
        job_nodes: opt_int("job_nodes", job_nodes)?,
        speculate,
        worker: match backend {
            Backend::Local => Some(worker_command(py)?),
            _ => None,
        },
        // MPI ranks are the command's (`cutoff distribute --backend mpi`), not Python's.
        mpi: None,
    };
    run_static(
        py,
        |control| app_distribute::run(&opts, control),
        |py, o| distribute_result(py, &o.json, &o.text),
    )
}

/// Serves one driver of `distribute`'s local backend over standard input and output, as
/// `cutoff distribute-worker` does, until it says stop or closes the pipe: the whole life of
/// a worker (`python -m cutoff.worker`). Ctrl-C (or an exception a signal handler raises)
/// stops it at once, and is raised.
#[pyfunction]
pub(crate) fn _distribute_worker(py: Python<'_>) -> PyResult<()> {
    let stop = AtomicBool::new(false);
    let control = Control {
        stop: &stop,
        display: Display::Off,
        cfr: None,
        note: None,
    };
    let (out, signal) = supervise(py, &stop, || app_distribute::run_worker(control));
    if let Some(e) = signal {
        return Err(e);
    }
    out.map_err(app_error)
}
