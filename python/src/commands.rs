//! `solve`, `analyse` and `cfr`, and the `Solver` class that keeps its table: each keyword
//! of theirs is the field of the application's options struct of that name
//! ([`cutoff_app::commands`]), with the command's defaults; the work is the command's
//! (`compute`), and so are its checks and its report, read back typed
//! ([`crate::results`]).

use crate::args::{game_kind, int, opt_int, position_text, refused, GameKeywords, Int};
use crate::results::{analyse_result, cfr_result, solve_result};
use crate::{app_error, run_command};
use cutoff::solver::Mode;
use cutoff::tt::TranspositionTable;
use cutoff_app::commands::{analyse as app_analyse, cfr as app_cfr, solve as app_solve};
use cutoff_app::options::{SearchOptions, SplitOptions, TableFileOptions};
use cutoff_app::position::{parse_any_algo, AnyAlgo};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::path::PathBuf;
use std::sync::Mutex;

/// The search keywords of `solve` and `Solver`.
struct SearchKeywords<'a> {
    algo: Option<&'a str>,
    weak: bool,
    tt_mb: Int,
    time_ms: Option<Int>,
    nodes: Option<Int>,
    threads: Option<Int>,
    parallel: &'a str,
    split_depth: Option<Int>,
    split_ply: Option<Int>,
    split_nodes: Option<Int>,
    split_after: Option<Int>,
}

impl SearchKeywords<'_> {
    /// The search's options, its parallel mode and its split thresholds.
    fn options(&self) -> PyResult<(SearchOptions, Mode, SplitOptions)> {
        let algo: Option<AnyAlgo> = self
            .algo
            .map(parse_any_algo)
            .transpose()
            .map_err(|e| app_error(e.into()))?;
        let search = SearchOptions {
            algo,
            weak: self.weak,
            tt_mb: int("tt_mb", self.tt_mb)?,
            time_ms: opt_int("time_ms", self.time_ms)?,
            nodes: opt_int("nodes", self.nodes)?,
            threads: opt_int("threads", self.threads)?,
        };
        let parallel: Mode = self
            .parallel
            .parse()
            .map_err(|e: String| refused("parallel", e))?;
        let d = SplitOptions::default();
        let split = SplitOptions {
            depth: opt_int("split_depth", self.split_depth)?.unwrap_or(d.depth),
            ply: opt_int("split_ply", self.split_ply)?.unwrap_or(d.ply),
            nodes: opt_int("split_nodes", self.split_nodes)?.unwrap_or(d.nodes),
            after: opt_int("split_after", self.split_after)?.unwrap_or(d.after),
        };
        Ok((search, parallel, split))
    }
}

/// Solves a position, as `cutoff solve GAME [POSITION] --json` does, and returns its report:
/// a `SolveResult` (for pig and chance, a `ChanceResult`).
///
/// `game`: a built-in game's name ("connect4", "tictactoe", "pig", ...), or a game written
/// in Python (see `search`; it takes `algo`, `depth`, `tt_mb`, `nodes`, `time_ms` and the
/// progress keywords). `position`: str, bytes, or for connect4 a list of 1-based columns;
/// None for the start. Each keyword is the command's option of that name
/// (`cutoff solve --help`, docs/guide/solve.md):
///
/// - `algo=None`: the game's fastest exact search; `depth=None`: no depth limit (random
///   and chance trees: the tree's depth); `weak=False`: win/draw/loss only;
/// - `tt_mb=64`: the table's MiB; `time_ms=None`, `nodes=None`: budgets (iterative
///   deepening); `threads=None`: one thread first, every core once the search proves
///   large; `parallel="ybwc"` (or abdada, lazysmp, root); `split_depth`, `split_ply`,
///   `split_nodes`, `split_after` (None: the engine's 4, 12, 256, 1): YBWC's tuning;
/// - `board=None` ("WxH", default 7x6) and `connect=None` (default 4): Connect Four's shape;
/// - `branching`, `seed=1`, `order="random"`, `root="max"`: random and file trees;
///   `players`, `win_score`, `faces`, `horizon`, `piglet=False`: pig; `outcomes`, `probs`:
///   chance trees;
/// - `table_file=None`, `table_file_nodes=1000000`: keep the costly entries in a file;
/// - `profile=False`: the report's `profile` says how the nodes of each ply ended (one
///   thread, pvs, mtdf or solve, no budget; docs/guide/profile.md);
/// - `progress=None`: called every `progress_every=1.0` seconds with a dict (`seconds`,
///   `nodes`, `bounds`, `depth`, `testing`).
///
/// A keyword it does not know, or of the wrong type, is a TypeError; a value out of range
/// is `cutoff.Error` naming the keyword. Ctrl-C raises `cutoff.Interrupted` carrying the
/// report of what was proved.
#[pyfunction]
#[pyo3(signature = (
    game, position=None, *, algo=None, depth=None, weak=false, tt_mb=Int(64), time_ms=None,
    nodes=None, threads=None, parallel="ybwc", board=None, connect=None, branching=None,
    seed=Int(1), order="random", root="max", players=None, win_score=None, faces=None,
    horizon=None, piglet=false, outcomes=None, probs=None, split_depth=None, split_ply=None,
    split_nodes=None, split_after=None, table_file=None, table_file_nodes=Int(cutoff::tt::file::DEFAULT_MIN_NODES as i128),
    profile=false, progress=None, progress_every=1.0
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    position: Option<&Bound<'_, PyAny>>,
    algo: Option<&str>,
    depth: Option<Int>,
    weak: bool,
    tt_mb: Int,
    time_ms: Option<Int>,
    nodes: Option<Int>,
    threads: Option<Int>,
    parallel: &str,
    board: Option<&str>,
    connect: Option<Int>,
    branching: Option<Int>,
    seed: Int,
    order: &str,
    root: &str,
    players: Option<Int>,
    win_score: Option<Int>,
    faces: Option<Int>,
    horizon: Option<Int>,
    piglet: bool,
    outcomes: Option<Int>,
    probs: Option<String>,
    split_depth: Option<Int>,
    split_ply: Option<Int>,
    split_nodes: Option<Int>,
    split_after: Option<Int>,
    table_file: Option<PathBuf>,
    table_file_nodes: Int,
    profile: bool,
    progress: Option<Py<PyAny>>,
    progress_every: f64,
) -> PyResult<Py<PyAny>> {
    let Ok(name) = game.cast::<PyString>() else {
        // A game written in Python: the engine's search on it, with the keywords that apply.
        let builtin_only = [
            ("weak", weak),
            ("threads", threads.is_some_and(|t| t.0 != 1)),
            ("parallel", parallel != "ybwc"),
            ("board", board.is_some()),
            ("connect", connect.is_some()),
            ("branching", branching.is_some()),
            ("seed", seed.0 != 1),
            ("order", order != "random"),
            ("root", root != "max"),
            ("players", players.is_some()),
            ("win_score", win_score.is_some()),
            ("faces", faces.is_some()),
            ("horizon", horizon.is_some()),
            ("piglet", piglet),
            ("outcomes", outcomes.is_some()),
            ("probs", probs.is_some()),
            ("split_depth", split_depth.is_some()),
            ("split_ply", split_ply.is_some()),
            ("split_nodes", split_nodes.is_some()),
            ("split_after", split_after.is_some()),
            ("table_file", table_file.is_some()),
            ("profile", profile),
        ];
        if let Some((kw, _)) = builtin_only.iter().find(|k| k.1) {
            return Err(crate::Error::new_err(format!(
                "{kw} applies to the built-in games, not to a game written in Python"
            )));
        }
        return crate::game::search(
            py,
            game,
            position,
            algo.unwrap_or("solve"),
            depth,
            tt_mb,
            nodes,
            time_ms,
            false,
            progress,
            progress_every,
        );
    };
    let kind = game_kind(&name.to_cow()?)?;
    let keywords = GameKeywords {
        board,
        connect,
        branching,
        depth,
        seed,
        order,
        root,
    };
    let mut g = keywords.options(kind, position)?;
    g.players = opt_int("players", players)?;
    g.win_score = opt_int("win_score", win_score)?;
    g.faces = opt_int("faces", faces)?;
    g.horizon = opt_int("horizon", horizon)?;
    g.piglet = piglet;
    g.outcomes = opt_int("outcomes", outcomes)?;
    g.probs = probs;
    let (search, parallel, split) = SearchKeywords {
        algo,
        weak,
        tt_mb,
        time_ms,
        nodes,
        threads,
        parallel,
        split_depth,
        split_ply,
        split_nodes,
        split_after,
    }
    .options()?;
    let opts = app_solve::Options {
        game: g,
        search,
        parallel,
        split,
        table: TableFileOptions {
            table_file,
            table_file_nodes: int("table_file_nodes", table_file_nodes)?,
        },
        profile,
    };
    let multi = kind.is_multi();
    run_command(
        py,
        progress,
        progress_every,
        |control| app_solve::compute(&opts, control),
        |py, o| solve_result(py, multi, &o.json, &o.text),
    )
}

/// The value of every legal move, as `cutoff analyse GAME [POSITION] --json`, as an
/// `AnalyseResult` (its `moves` a list of `MoveScore`): exact, unless a budget is given.
///
/// `position` as `solve`'s. `tt_mb=64`: the table shared by the moves' searches;
/// `threads=None`: each search's (every core); `book=None`: an opening book file, or
/// "builtin" for the Connect Four book in the module; `time_ms=None`, `nodes=None`: a
/// budget in milliseconds and in nodes over every move (each at least 1): the call returns
/// within it, each move with the bounds proved for it (`lo`, `hi`) and, where they do not
/// meet (`exact` False), a best guess as its `value`; `board`, `connect`, `branching`,
/// `depth`, `seed=1`, `order="random"`, `root="max"`: the game's options, as `solve`'s.
#[pyfunction]
#[pyo3(signature = (
    game, position=None, *, tt_mb=Int(64), threads=None, book=None, time_ms=None, nodes=None,
    board=None, connect=None, branching=None, depth=None, seed=Int(1), order="random",
    root="max"
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn analyse(
    py: Python<'_>,
    game: &str,
    position: Option<&Bound<'_, PyAny>>,
    tt_mb: Int,
    threads: Option<Int>,
    book: Option<String>,
    time_ms: Option<Int>,
    nodes: Option<Int>,
    board: Option<&str>,
    connect: Option<Int>,
    branching: Option<Int>,
    depth: Option<Int>,
    seed: Int,
    order: &str,
    root: &str,
) -> PyResult<Py<PyAny>> {
    let kind = game_kind(game)?;
    let keywords = GameKeywords {
        board,
        connect,
        branching,
        depth,
        seed,
        order,
        root,
    };
    let opts = app_analyse::Options {
        game: keywords.options(kind, position)?,
        tt_mb: int("tt_mb", tt_mb)?,
        threads: opt_int("threads", threads)?,
        book,
        time_ms: opt_int("time_ms", time_ms)?,
        nodes: opt_int("nodes", nodes)?,
    };
    run_command(
        py,
        None,
        1.0,
        |control| app_analyse::compute(&opts, control),
        |py, o| analyse_result(py, &o.json, &o.text),
    )
}

/// One algorithm's name, or several to compare.
#[derive(FromPyObject)]
pub(crate) enum Algos {
    /// One: the result is one `CfrResult`.
    One(String),
    /// Several: the result is a list, one each.
    Several(Vec<String>),
}

/// Solves "kuhn" or "leduc" with CFR, as `cutoff cfr GAME --json`, and returns a `CfrResult`
/// (a list of them, one each, when `algo` is a list).
///
/// `algo="cfr+"`: cfr, cfr+, lcfr, dcfr or mccfr-es, or a list of them to compare.
/// `iterations=None` (then 1000) or `seconds=None`: the budget; `threads`, `seed`, `batch`,
/// `variance`: mccfr-es's; `every=None`: a checkpoint every K iterations (default 1, 10,
/// 100, ...); `save`, `resume`: a state file; `svg`: draw the curves to a file;
/// `progress=None`: called at each checkpoint with a dict (`iterations`, `exploitability`).
#[pyfunction]
#[pyo3(signature = (
    game, algo=Algos::One("cfr+".to_string()), *, iterations=None, seconds=None, threads=None,
    seed=None, batch=None, variance=None, every=None, save=None, resume=None, svg=None,
    progress=None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cfr(
    py: Python<'_>,
    game: &str,
    algo: Algos,
    iterations: Option<Int>,
    seconds: Option<f64>,
    threads: Option<Int>,
    seed: Option<Int>,
    batch: Option<Int>,
    variance: Option<String>,
    every: Option<Int>,
    save: Option<String>,
    resume: Option<String>,
    svg: Option<String>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let (algo, several) = match algo {
        Algos::One(a) => (vec![a], false),
        Algos::Several(list) => (list, true),
    };
    let iterations = match (opt_int("iterations", iterations)?, seconds) {
        (None, None) => Some(1000),
        (n, _) => n,
    };
    let opts = app_cfr::Options {
        game: game.to_string(),
        algo,
        iterations,
        seconds,
        threads: opt_int("threads", threads)?,
        seed: opt_int("seed", seed)?,
        batch: opt_int("batch", batch)?,
        variance,
        every: opt_int("every", every)?,
        save,
        resume,
        svg,
    };
    run_command(
        py,
        progress,
        1.0,
        |control| app_cfr::compute(&opts, control),
        |py, o| cfr_result(py, several, &o.json, &o.text),
    )
}

/// A solver of one two-player game that keeps its transposition table from call to call:
/// each `solve` or `analyse` starts with what the earlier ones stored, so a position met
/// again (the same, a transposition, a child of one analysed) costs fewer nodes.
///
/// `Solver(game, *, board=None, connect=None, tt_mb=64, threads=None, algo=None, weak=False,
/// depth=None, parallel="ybwc", branching=None, seed=1, order="random", root="max")`: the
/// keywords as `solve`'s, for every call; the table is allocated at once. Two-player games
/// only.
///
/// Thread-safe: calls from several Python threads take turns on the table (each search
/// holds it, without the GIL, until it ends).
#[pyclass(module = "cutoff", frozen)]
pub(crate) struct Solver {
    /// `solve`'s options without a position.
    solve: app_solve::Options,
    /// Connect Four's board width, for positions given as lists of columns.
    width: u32,
    /// The table, held by one search at a time.
    table: Mutex<TranspositionTable>,
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (
        game, *, board=None, connect=None, tt_mb=Int(64), threads=None, algo=None, weak=false,
        depth=None, parallel="ybwc", branching=None, seed=Int(1), order="random", root="max"
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        board: Option<&str>,
        connect: Option<Int>,
        tt_mb: Int,
        threads: Option<Int>,
        algo: Option<&str>,
        weak: bool,
        depth: Option<Int>,
        parallel: &str,
        branching: Option<Int>,
        seed: Int,
        order: &str,
        root: &str,
    ) -> PyResult<Self> {
        let kind = game_kind(game)?;
        if kind.is_multi() {
            return Err(crate::Error::new_err(format!(
                "Solver keeps a table for the two-player games; {kind} has chance nodes: use \
                 cutoff.solve"
            )));
        }
        let keywords = GameKeywords {
            board,
            connect,
            branching,
            depth,
            seed,
            order,
            root,
        };
        let g = keywords.options(kind, None)?;
        let width = g.shape.shape().0;
        let (search, parallel, split) = SearchKeywords {
            algo,
            weak,
            tt_mb,
            time_ms: None,
            nodes: None,
            threads,
            parallel,
            split_depth: None,
            split_ply: None,
            split_nodes: None,
            split_after: None,
        }
        .options()?;
        // Checked now, as the calls would: a Solver that cannot search is refused at once.
        cutoff_app::options::thread_policy(search.threads).map_err(app_error)?;
        let mib = cutoff_app::options::table_mib(search.tt_mb).map_err(app_error)?;
        let table = cutoff_app::options::table(mib).map_err(app_error)?;
        Ok(Solver {
            solve: app_solve::Options {
                game: g,
                search,
                parallel,
                split,
                table: TableFileOptions {
                    table_file: None,
                    table_file_nodes: cutoff::tt::file::DEFAULT_MIN_NODES,
                },
                profile: false,
            },
            width,
            table: Mutex::new(table),
        })
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.solve.game.game.name()
    }

    /// The table's size in MiB.
    #[getter]
    fn tt_mb(&self) -> usize {
        self.solve.search.tt_mb
    }

    /// Solves `position` (default: the start) on the kept table, as `cutoff.solve` with this
    /// solver's settings; `time_ms` and `nodes` are budgets for this call.
    #[pyo3(signature = (position=None, *, time_ms=None, nodes=None, progress=None, progress_every=1.0))]
    fn solve(
        &self,
        py: Python<'_>,
        position: Option<&Bound<'_, PyAny>>,
        time_ms: Option<Int>,
        nodes: Option<Int>,
        progress: Option<Py<PyAny>>,
        progress_every: f64,
    ) -> PyResult<Py<PyAny>> {
        let mut opts = self.solve.clone();
        opts.game.position = position_text(opts.game.game, self.width, position)?;
        opts.search.time_ms = opt_int("time_ms", time_ms)?;
        opts.search.nodes = opt_int("nodes", nodes)?;
        let table = &self.table;
        run_command(
            py,
            progress,
            progress_every,
            |control| {
                let tt = table.lock().unwrap_or_else(|p| p.into_inner());
                app_solve::compute_in(&opts, control, &tt)
            },
            |py, o| solve_result(py, false, &o.json, &o.text),
        )
    }

    /// Every legal move's value at `position`, as `cutoff.analyse`, on the kept table:
    /// exact, unless `time_ms` or `nodes` (budgets for this call, each at least 1) is given;
    /// then the call returns within the budget, each move with its proven bounds (`lo`,
    /// `hi`) and a best guess where they do not meet.
    #[pyo3(signature = (position=None, *, book=None, time_ms=None, nodes=None))]
    fn analyse(
        &self,
        py: Python<'_>,
        position: Option<&Bound<'_, PyAny>>,
        book: Option<String>,
        time_ms: Option<Int>,
        nodes: Option<Int>,
    ) -> PyResult<Py<PyAny>> {
        let mut game = self.solve.game.clone();
        game.position = position_text(game.game, self.width, position)?;
        let opts = app_analyse::Options {
            game,
            tt_mb: self.solve.search.tt_mb,
            threads: self.solve.search.threads,
            book,
            time_ms: opt_int("time_ms", time_ms)?,
            nodes: opt_int("nodes", nodes)?,
        };
        let table = &self.table;
        run_command(
            py,
            None,
            1.0,
            |control| {
                let tt = table.lock().unwrap_or_else(|p| p.into_inner());
                app_analyse::compute_in(&opts, control, &tt)
            },
            |py, o| analyse_result(py, &o.json, &o.text),
        )
    }

    /// Empties the table: the next search starts from nothing, as a new Solver's.
    fn clear(&self, py: Python<'_>) {
        let table = &self.table;
        py.detach(|| table.lock().unwrap_or_else(|p| p.into_inner()).clear());
    }

    fn __repr__(&self) -> String {
        format!(
            "cutoff.Solver({:?}, tt_mb={})",
            self.game(),
            self.solve.search.tt_mb
        )
    }
}
