//! The typed results: each command's report, read back from the JSON it prints with `--json`
//! (so that every attribute is the command's field, with its name and value), with
//! `to_dict()` (that JSON as a dict), `str()` (the command's text report) and a short repr.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Deserialize;

/// `json.loads(text)`.
fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// `Class(key=value, ...)` of `obj`'s attributes `keys`, each shown by its Python repr.
fn repr_of(obj: &Bound<'_, PyAny>, class: &str, keys: &[&str]) -> PyResult<String> {
    let shown = keys
        .iter()
        .map(|k| Ok(format!("{k}={}", obj.getattr(*k)?.repr()?)))
        .collect::<PyResult<Vec<String>>>()?;
    Ok(format!("cutoff.{class}({})", shown.join(", ")))
}

/// A report the command's JSON `json` does not hold as expected: a bug in this crate.
fn unreadable(what: &str, e: serde_json::Error) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(format!("cannot read the {what} report: {e}"))
}

/// `to_dict`, `__str__` and `__repr__` of a report class with fields `json` and `text`,
/// its repr showing the attributes listed, and the class's other methods (`extra`).
macro_rules! report_methods {
    ($class:ident, [$($key:literal),*] $(, $($extra:tt)*)?) => {
        #[pymethods]
        impl $class {
            $($($extra)*)?

            /// The report as the command's `--json` prints it, as a dict (a new one each call).
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                loads(py, &self.json)
            }

            fn __str__(&self) -> &str {
                &self.text
            }

            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                repr_of(slf.as_any(), stringify!($class), &[$($key),*])
            }
        }
    };
}

/// The report of `solve` on a two-player game: the command's `--json` fields
/// (docs/guide/solve.md lists them).
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct SolveResult {
    #[pyo3(get)]
    game: String,
    #[pyo3(get)]
    #[serde(default)]
    board: Option<String>,
    #[pyo3(get)]
    algo: String,
    #[pyo3(get)]
    value: Option<i32>,
    #[pyo3(get)]
    exact: bool,
    #[pyo3(get)]
    explained: Option<String>,
    #[pyo3(get)]
    #[serde(default)]
    bounds: Option<(i32, i32)>,
    #[pyo3(get)]
    best_move: Option<String>,
    #[pyo3(get)]
    pv: Vec<String>,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    forced: u64,
    /// Nodes whose moves were searched (see docs/guide/solve.md); None where not counted.
    #[pyo3(get)]
    #[serde(default)]
    searched: Option<u64>,
    #[pyo3(get)]
    leaves: u64,
    #[pyo3(get)]
    cutoffs: u64,
    #[pyo3(get)]
    first_move_cutoff_rate: f64,
    #[pyo3(get)]
    max_ply: u32,
    #[pyo3(get)]
    depth: Option<usize>,
    #[pyo3(get)]
    #[serde(default)]
    depth_reached: Option<usize>,
    #[pyo3(get)]
    time_ms: f64,
    #[pyo3(get)]
    threads: usize,
    #[pyo3(get)]
    #[serde(default)]
    parallel: Option<String>,
    #[pyo3(get)]
    #[serde(default)]
    nodes_per_thread: Option<Vec<u64>>,
    #[pyo3(get)]
    #[serde(default)]
    weak: bool,
    #[pyo3(get)]
    #[serde(default)]
    stopped: Option<String>,
    #[pyo3(get)]
    #[serde(default)]
    table_file: Option<TableFileReport>,
    /// How the nodes of each ply ended, with `profile=True` (docs/guide/profile.md).
    #[pyo3(get)]
    #[serde(default)]
    profile: Option<Profile>,
    #[serde(skip)]
    json: String,
    #[serde(skip)]
    text: String,
}

report_methods!(SolveResult, ["game", "value", "best_move", "nodes"]);

/// One ply's row of a profile, or the total's (`ply` None): the command's JSON fields
/// (docs/guide/profile.md lists them).
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, serde::Serialize, Deserialize)]
pub(crate) struct ProfileRow {
    #[pyo3(get)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ply: Option<usize>,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    analysis: u64,
    #[pyo3(get)]
    bounds: u64,
    #[pyo3(get)]
    table: u64,
    #[pyo3(get)]
    enhanced_cutoffs: u64,
    #[pyo3(get)]
    searched: u64,
    #[pyo3(get)]
    cut_nodes: u64,
    #[pyo3(get)]
    first_move_cut_rate: f64,
    #[pyo3(get)]
    moves_per_cut: f64,
    #[pyo3(get)]
    moves_per_other: f64,
    #[pyo3(get)]
    forced: u64,
    #[pyo3(get)]
    settled_by_parent: u64,
}

#[pymethods]
impl ProfileRow {
    /// The row as the command's `--json` writes it, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(self).map_err(|e| unreadable("profile", e))?;
        loads(py, &text)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of(
            slf.as_any(),
            "ProfileRow",
            &["ply", "nodes", "searched", "first_move_cut_rate"],
        )
    }
}

/// How the nodes of a search ended, ply by ply (`plies`) and in total (`total`).
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, serde::Serialize, Deserialize)]
pub(crate) struct Profile {
    #[pyo3(get)]
    plies: Vec<ProfileRow>,
    #[pyo3(get)]
    total: ProfileRow,
}

#[pymethods]
impl Profile {
    /// The profile as the command's `--json` writes it, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(self).map_err(|e| unreadable("profile", e))?;
        loads(py, &text)
    }

    fn __repr__(&self) -> String {
        format!(
            "cutoff.Profile(plies={}, nodes={})",
            self.plies.len(),
            self.total.nodes
        )
    }
}

/// What `table_file` did in one solve.
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct TableFileReport {
    #[pyo3(get)]
    loaded: u64,
    #[pyo3(get)]
    torn: bool,
    #[pyo3(get)]
    written: u64,
    #[pyo3(get)]
    dropped: u64,
}

#[pymethods]
impl TableFileReport {
    /// The figures as the command's `--json` writes them, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("loaded", self.loaded)?;
        d.set_item("torn", self.torn)?;
        d.set_item("written", self.written)?;
        d.set_item("dropped", self.dropped)?;
        Ok(d)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of(
            slf.as_any(),
            "TableFileReport",
            &["loaded", "torn", "written", "dropped"],
        )
    }
}

/// The report of `solve` on a game with chance nodes or more than two players (pig,
/// chance): the command's `--json` fields.
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct ChanceResult {
    #[pyo3(get)]
    game: String,
    #[pyo3(get)]
    position: String,
    #[pyo3(get)]
    algorithm: String,
    #[pyo3(get)]
    players: usize,
    #[pyo3(get)]
    value: Option<f64>,
    #[pyo3(get)]
    values: Option<Vec<f64>>,
    #[pyo3(get)]
    exact: bool,
    #[pyo3(get)]
    depth_reached: usize,
    #[pyo3(get)]
    stopped: Option<String>,
    #[pyo3(get)]
    best_move: Option<String>,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    inner_nodes: u64,
    #[pyo3(get)]
    table_mib: Option<usize>,
    #[pyo3(get)]
    time_ms: f64,
    #[serde(skip)]
    json: String,
    #[serde(skip)]
    text: String,
}

report_methods!(
    ChanceResult,
    ["game", "value", "best_move", "nodes"],
    /// The search's counts by kind of node (decision_nodes, chance_nodes, leaves, cutoffs,
    /// ...), as the report's `stats` object.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.json)?.get_item("stats")
    }
);

/// One move of `analyse`'s report: its value (exact, or with a budget where `exact` is false
/// the best guess), the bounds proved for it (`lo <= value <= hi`; equal where exact) and the
/// plies the guess looked ahead (`depth`, None where exact or where no depth finished).
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct MoveScore {
    #[pyo3(get, name = "move")]
    #[serde(rename = "move")]
    mv: String,
    #[pyo3(get)]
    value: i32,
    #[pyo3(get)]
    explain: String,
    #[pyo3(get)]
    exact: bool,
    #[pyo3(get)]
    lo: i32,
    #[pyo3(get)]
    hi: i32,
    #[pyo3(get)]
    depth: Option<usize>,
}

#[pymethods]
impl MoveScore {
    /// The entry as the command's `--json` writes it, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("move", &self.mv)?;
        d.set_item("value", self.value)?;
        d.set_item("explain", &self.explain)?;
        d.set_item("exact", self.exact)?;
        d.set_item("lo", self.lo)?;
        d.set_item("hi", self.hi)?;
        d.set_item("depth", self.depth)?;
        Ok(d)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of(
            slf.as_any(),
            "MoveScore",
            &["move", "value", "exact", "lo", "hi", "explain"],
        )
    }
}

/// The report of `analyse`: every legal move with its value, exact unless a budget was given
/// (`budget`, in words); the position's value, whether it is proved (`exact`) and the bounds
/// proved for it (`lo`, `hi`).
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct AnalyseResult {
    #[pyo3(get)]
    game: String,
    #[pyo3(get)]
    #[serde(default)]
    board: Option<String>,
    #[pyo3(get)]
    position: Option<String>,
    #[pyo3(get)]
    to_move: String,
    #[pyo3(get)]
    terminal: bool,
    #[pyo3(get)]
    value: i32,
    #[pyo3(get)]
    explain: String,
    #[pyo3(get)]
    exact: bool,
    #[pyo3(get)]
    lo: i32,
    #[pyo3(get)]
    hi: i32,
    #[pyo3(get)]
    best_move: Option<String>,
    #[pyo3(get)]
    moves: Vec<MoveScore>,
    #[pyo3(get)]
    budget: Option<String>,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    time_ms: f64,
    #[serde(skip)]
    json: String,
    #[serde(skip)]
    text: String,
}

report_methods!(
    AnalyseResult,
    ["game", "value", "exact", "best_move", "nodes"]
);

/// One information set's average strategy in a CFR report.
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct InfosetStrategy {
    #[pyo3(get)]
    infoset: String,
    #[pyo3(get)]
    player: usize,
    #[pyo3(get)]
    actions: Vec<String>,
    #[pyo3(get)]
    probabilities: Vec<f64>,
}

#[pymethods]
impl InfosetStrategy {
    /// The entry as the command's `--json` writes it, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("infoset", &self.infoset)?;
        d.set_item("player", self.player)?;
        d.set_item("actions", &self.actions)?;
        d.set_item("probabilities", &self.probabilities)?;
        Ok(d)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of(
            slf.as_any(),
            "InfosetStrategy",
            &["infoset", "player", "actions", "probabilities"],
        )
    }
}

/// The report of one CFR run.
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct CfrResult {
    #[pyo3(get)]
    game: String,
    #[pyo3(get)]
    algo: String,
    #[pyo3(get)]
    iterations: u64,
    #[pyo3(get)]
    seconds: f64,
    #[pyo3(get)]
    iterations_per_second: f64,
    #[pyo3(get)]
    value: f64,
    #[pyo3(get)]
    nash_conv: f64,
    #[pyo3(get)]
    exploitability: f64,
    #[pyo3(get)]
    curve: Vec<(u64, f64)>,
    #[pyo3(get)]
    curve_seconds: Vec<f64>,
    #[pyo3(get)]
    strategy: Vec<InfosetStrategy>,
    #[serde(skip)]
    json: String,
    #[serde(skip)]
    text: String,
}

report_methods!(
    CfrResult,
    ["game", "algo", "iterations", "exploitability"],
    /// The average strategy as a dict: information set → {action: probability}.
    #[getter]
    fn average_strategy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for s in &self.strategy {
            let row = PyDict::new(py);
            for (a, p) in s.actions.iter().zip(&s.probabilities) {
                row.set_item(a, p)?;
            }
            out.set_item(&s.infoset, row)?;
        }
        Ok(out)
    }
);

/// The report of `distribute`: the command's `--json` fields (`cutoff solve`'s value, best
/// move and pv, then the run's figures).
#[pyclass(module = "cutoff", frozen)]
#[derive(Clone, Deserialize)]
pub(crate) struct DistributeResult {
    #[pyo3(get)]
    game: String,
    #[pyo3(get)]
    value: i32,
    #[pyo3(get)]
    explained: String,
    #[pyo3(get)]
    best_move: Option<String>,
    #[pyo3(get)]
    pv: Vec<String>,
    #[pyo3(get)]
    depth: usize,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    guess_nodes: u64,
    #[pyo3(get)]
    cancelled_nodes: u64,
    #[pyo3(get)]
    jobs: usize,
    #[pyo3(get)]
    cancelled: usize,
    #[pyo3(get)]
    splits: usize,
    #[pyo3(get)]
    resent: usize,
    #[pyo3(get)]
    moved: usize,
    #[pyo3(get)]
    speculative: usize,
    #[pyo3(get)]
    lost: usize,
    #[pyo3(get)]
    resumed: usize,
    #[pyo3(get)]
    shared_entries: u64,
    #[pyo3(get)]
    tests: usize,
    #[pyo3(get)]
    frontier: usize,
    #[pyo3(get)]
    tested: usize,
    #[pyo3(get)]
    solved: usize,
    #[pyo3(get)]
    seconds: f64,
    #[pyo3(get)]
    wall_seconds: f64,
    #[pyo3(get)]
    driver_seconds: f64,
    #[pyo3(get)]
    longest_job_seconds: f64,
    #[pyo3(get)]
    time_ms: f64,
    #[pyo3(get)]
    #[serde(default)]
    simulated_seconds: Option<f64>,
    #[pyo3(get)]
    workers: usize,
    #[pyo3(get)]
    backend: String,
    #[serde(skip)]
    json: String,
    #[serde(skip)]
    text: String,
}

report_methods!(DistributeResult, ["game", "value", "best_move", "nodes"]);

/// `solve`'s report, typed for its model: [`ChanceResult`] if `multi`, else [`SolveResult`].
pub(crate) fn solve_result(
    py: Python<'_>,
    multi: bool,
    json: &str,
    text: &str,
) -> PyResult<Py<PyAny>> {
    if multi {
        let mut r: ChanceResult = serde_json::from_str(json).map_err(|e| unreadable("solve", e))?;
        r.json = json.to_string();
        r.text = text.to_string();
        return Ok(Py::new(py, r)?.into_any());
    }
    let mut r: SolveResult = serde_json::from_str(json).map_err(|e| unreadable("solve", e))?;
    r.json = json.to_string();
    r.text = text.to_string();
    Ok(Py::new(py, r)?.into_any())
}

/// `analyse`'s report.
pub(crate) fn analyse_result(py: Python<'_>, json: &str, text: &str) -> PyResult<Py<PyAny>> {
    let mut r: AnalyseResult = serde_json::from_str(json).map_err(|e| unreadable("analyse", e))?;
    r.json = json.to_string();
    r.text = text.to_string();
    Ok(Py::new(py, r)?.into_any())
}

/// `distribute`'s report.
pub(crate) fn distribute_result(py: Python<'_>, json: &str, text: &str) -> PyResult<Py<PyAny>> {
    let mut r: DistributeResult =
        serde_json::from_str(json).map_err(|e| unreadable("distribute", e))?;
    r.json = json.to_string();
    r.text = text.to_string();
    Ok(Py::new(py, r)?.into_any())
}

/// `cfr`'s report: one [`CfrResult`], or a list of them if `several` were asked for (the
/// command prints one object for one run, an array for more).
pub(crate) fn cfr_result(
    py: Python<'_>,
    several: bool,
    json: &str,
    text: &str,
) -> PyResult<Py<PyAny>> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| unreadable("cfr", e))?;
    let runs = match value {
        serde_json::Value::Array(runs) => runs,
        one => vec![one],
    };
    // The text reports are the runs', a blank line between them.
    let texts: Vec<&str> = text.split("\n\n").collect();
    let mut out = Vec::with_capacity(runs.len());
    for (i, run) in runs.iter().enumerate() {
        let mut r: CfrResult =
            serde_json::from_value(run.clone()).map_err(|e| unreadable("cfr", e))?;
        r.json = serde_json::to_string_pretty(run).map_err(|e| unreadable("cfr", e))?;
        r.text = match texts.get(i) {
            Some(t) if texts.len() == runs.len() => format!("{}\n", t.trim_end_matches('\n')),
            _ => text.to_string(),
        };
        out.push(Py::new(py, r)?);
    }
    if several {
        return Ok(PyList::new(py, out)?.into_any().unbind());
    }
    match out.pop() {
        Some(r) => Ok(r.into_any()),
        None => Err(pyo3::exceptions::PyRuntimeError::new_err(
            "the cfr report holds no run",
        )),
    }
}

/// The result of `search` on a game written in Python: its moves are the game's own objects.
#[pyclass(module = "cutoff", frozen)]
pub(crate) struct SearchResult {
    /// The fields, as python/src/game.rs makes them.
    fields: Py<PyDict>,
}

impl SearchResult {
    /// The result holding `fields`.
    pub(crate) fn new(fields: Bound<'_, PyDict>) -> Self {
        SearchResult {
            fields: fields.unbind(),
        }
    }

    /// The field `key`; None where the search did not make it (`trace` without trace=True).
    fn field<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        Ok(self
            .fields
            .bind(py)
            .get_item(key)?
            .unwrap_or_else(|| py.None().into_bound(py)))
    }
}

/// Getters of [`SearchResult`]'s fields, each documented.
macro_rules! search_fields {
    ($($(#[doc = $doc:literal])* $name:ident),* ; $($extra:tt)*) => {
        #[pymethods]
        impl SearchResult {
            $($extra)*

            $(
                $(#[doc = $doc])*
                #[getter]
                fn $name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    self.field(py, stringify!($name))
                }
            )*
        }
    };
}

search_fields!(
    /// The value from the root's side to move; None if the search was stopped first.
    value,
    /// Whether `value` is the game's exact value.
    exact,
    /// (lo, hi): the value lies between them.
    bounds,
    /// A best move (the game's object), None at a terminal root.
    best_move,
    /// The principal variation, as the game's moves.
    pv,
    /// Nodes visited.
    nodes,
    /// Leaves evaluated.
    leaves,
    /// Fail-high cutoffs.
    cutoffs,
    /// Positions with one move passed through (not counted in `nodes`).
    forced,
    /// Nodes whose moves were searched (docs/guide/solve.md); None where not counted.
    searched,
    /// Share of cutoffs made by the first move tried.
    first_move_cutoff_rate,
    /// Deepest ply reached.
    max_ply,
    /// Wall time in milliseconds.
    time_ms,
    /// Why the search stopped early ("interrupted", "budget"), or None.
    stopped,
    /// The search's events with trace=True, else None.
    trace,
    /// The algorithm.
    algo,
    /// The distinct states met.
    positions;
    /// Whether the trace was cut at its limit (False without a trace).
    #[getter]
    fn trace_cut(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(match self.fields.bind(py).get_item("trace_cut")? {
            Some(v) => v.is_truthy()?,
            None => false,
        })
    }

    /// The fields as a dict (a new one each call).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.fields.bind(py).copy()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of(
            slf.as_any(),
            "SearchResult",
            &["value", "exact", "best_move", "nodes"],
        )
    }
);
