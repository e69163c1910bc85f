//! A game written in Python, searched by the engine: [`PyGame`] presents a Python object with
//! the course's formulation (`initial`, `to_move`, `moves`, `play`, `outcome`, `key`) as a
//! [`cutoff::Game`], and [`search`] runs any two-player search on it, with the table, the
//! move ordering and the trace (guide docs/guide/python.md).
//!
//! The engine's positions and moves are small `Copy` values; a Python game's are objects. So
//! each position is interned once, by its `key`, and the engine handles its number: a
//! position's player, outcome and moves are asked of Python once, and a table entry stands
//! for exactly one position (no hash collisions). Moves are interned likewise; the first 255
//! distinct moves have codes the table stores as best moves.

use crate::args::{int, opt_int, Int};
use crate::results::SearchResult;
use crate::{check_every, snapshot, supervise, tell, Error, Failure};
use cutoff::advanced::{Observer, Searcher};
use cutoff::game::NO_CODE;
use cutoff::knowledge::NoKnowledge;
use cutoff::solver::{Progress, Snapshot, SolveError, Solver, Stop, Verdict};
use cutoff::{Algorithm, Game, MoveBuffer, MoveList, Player, Value, INF};
use cutoff_app::progress::{watch, Display, Shows};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

/// The most moves a position may have (the engine's move lists are inline).
const MAX_MOVES: usize = 255;

/// The plies a game may last when it does not say (`max_plies(s)`).
const DEFAULT_MAX_PLIES: usize = 1000;

/// The most distinct positions one search interns: a bound on the memory it keeps.
const MAX_POSITIONS: usize = 20_000_000;

/// A child not played yet.
const UNKNOWN: u32 = u32::MAX;

/// The most trace events kept; a longer trace is cut and says so.
const MAX_EVENTS: usize = 1_000_000;

/// One interned position.
struct Node {
    /// The Python state.
    state: Py<PyAny>,
    /// Its side to move.
    player: Player,
    /// `outcome(state)`.
    outcome: Option<Value>,
    /// Its moves' numbers, once asked.
    moves: Option<Box<[u32]>>,
    /// The positions they lead to, once played ([`UNKNOWN`] until then): the engine plays
    /// a move again at each visit, Python is asked once.
    children: Box<[u32]>,
    /// `max_plies(state)`, or the default.
    plies: usize,
}

/// The interned positions and moves.
struct Interned {
    /// `key(state)` → the position's number.
    ids: Py<PyDict>,
    /// The positions, by number.
    nodes: Vec<Node>,
    /// A move → its number.
    move_ids: Py<PyDict>,
    /// The moves, by number.
    moves: Vec<Py<PyAny>>,
}

/// A Python game object as a [`Game`].
pub(crate) struct PyGame<'a> {
    /// The object.
    obj: Py<PyAny>,
    /// Whether it has `evaluate(s)`.
    evaluates: bool,
    /// Whether it has `max_plies(s)`.
    counts_plies: bool,
    /// Its values' range (`value_range()`, else the engine's whole range).
    range: (Value, Value),
    /// What has been interned.
    interned: Mutex<Interned>,
    /// The search's stop flag, raised when a callback fails.
    stop: &'a AtomicBool,
    /// The first exception a callback raised; from then on every new position is a leaf,
    /// so that the search unwinds at once.
    failure: Failure,
    /// True once a callback failed.
    failed: AtomicBool,
    /// Whether a raised stop flag turns every new position into a leaf: for the textbook
    /// searches, which do not poll the flag (their value is then thrown away).
    abandon: bool,
}

impl<'a> PyGame<'a> {
    /// Wraps `obj`, whose root is `initial()` or `root` if given.
    fn new(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        root: Option<&Bound<'_, PyAny>>,
        stop: &'a AtomicBool,
        abandon: bool,
    ) -> PyResult<(Self, u32)> {
        for m in ["initial", "to_move", "moves", "play", "outcome", "key"] {
            if !obj.hasattr(m)? {
                return Err(Error::new_err(format!(
                    "the game object has no method {m}(); a game needs initial(), to_move(s), \
                     moves(s), play(s, m), outcome(s) and key(s)"
                )));
            }
        }
        let range = if obj.hasattr("value_range")? {
            let (lo, hi): (Value, Value) = obj.call_method0("value_range")?.extract()?;
            if !(lo < hi && lo > -INF && hi < INF) {
                return Err(Error::new_err(format!(
                    "value_range() gave ({lo}, {hi}); expected lo < hi within ±{}",
                    INF - 1
                )));
            }
            (lo, hi)
        } else {
            (-INF + 1, INF - 1)
        };
        let state = match root {
            Some(s) => s.clone(),
            None => obj.call_method0("initial")?,
        };
        let game = PyGame {
            obj: obj.clone().unbind(),
            evaluates: obj.hasattr("evaluate")?,
            counts_plies: obj.hasattr("max_plies")?,
            range,
            interned: Mutex::new(Interned {
                ids: PyDict::new(py).unbind(),
                nodes: Vec::new(),
                move_ids: PyDict::new(py).unbind(),
                moves: Vec::new(),
            }),
            stop,
            failure: Failure::default(),
            failed: AtomicBool::new(false),
            abandon,
        };
        let root = game.intern(py, state)?;
        Ok((game, root))
    }

    /// The number of `state`, interning it (and asking its player and outcome) if new.
    fn intern(&self, py: Python<'_>, state: Bound<'_, PyAny>) -> PyResult<u32> {
        let obj = self.obj.bind(py);
        let key = obj.call_method1("key", (&state,))?;
        let known = {
            let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(id) = inn.ids.bind(py).get_item(&key)? {
                let id: u32 = id.extract()?;
                let node = &inn.nodes[id as usize];
                Some((id, node.state.clone_ref(py), node.player))
            } else {
                None
            }
        };
        if let Some((id, other, player)) = known {
            // No lock is held while Python runs.
            self.same_state(py, &key, &state, other.bind(py), player)?;
            return Ok(id);
        }
        {
            let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
            if inn.nodes.len() >= MAX_POSITIONS {
                return Err(Error::new_err(format!(
                    "the search met more than {MAX_POSITIONS} distinct positions; give a \
                     depth limit or a node budget"
                )));
            }
        }
        // No lock is held while Python runs.
        let player = match obj.call_method1("to_move", (&state,))?.extract::<i64>() {
            Ok(0) => Player::First,
            Ok(1) => Player::Second,
            _ => {
                return Err(Error::new_err(
                    "to_move(s) must return 0 (the first player) or 1 (the second)",
                ))
            }
        };
        let outcome = obj.call_method1("outcome", (&state,))?;
        let outcome = if outcome.is_none() {
            None
        } else {
            let v: Value = outcome
                .extract()
                .map_err(|_| Error::new_err("outcome(s) must return None or an integer value"))?;
            Some(self.in_range(v, "outcome(s)")?)
        };
        let plies = if self.counts_plies {
            obj.call_method1("max_plies", (&state,))?
                .extract::<usize>()
                .map_err(|_| Error::new_err("max_plies(s) must return a count of plies"))?
        } else {
            DEFAULT_MAX_PLIES
        };
        let mut inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
        let id = inn.nodes.len() as u32;
        inn.ids.bind(py).set_item(key, id)?;
        inn.nodes.push(Node {
            state: state.unbind(),
            player,
            outcome,
            moves: None,
            children: Box::new([]),
            plies,
        });
        Ok(id)
    }

    /// Checks that `state`, whose `key(s)` is `key`, is the state interned under that key,
    /// `other` (its side to move `player`): the same side to move and, where the state's
    /// type defines its own `__eq__`, equal. Two different states sharing a key would
    /// otherwise share a table entry and a node, and the search would go wrong in ways that
    /// point elsewhere (the sides seeming not to alternate). Asked once per new edge: the
    /// children are cached.
    fn same_state(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        state: &Bound<'_, PyAny>,
        other: &Bound<'_, PyAny>,
        player: Player,
    ) -> PyResult<()> {
        if state.is(other) {
            return Ok(());
        }
        let obj = self.obj.bind(py);
        let side = match obj.call_method1("to_move", (state,))?.extract::<i64>() {
            Ok(0) => Some(Player::First),
            Ok(1) => Some(Player::Second),
            _ => None,
        };
        let sides = if side != Some(player) {
            " (and different sides to move)"
        } else {
            let object_eq = py
                .import("builtins")?
                .getattr("object")?
                .getattr("__eq__")?;
            let own_eq = !state.get_type().getattr("__eq__")?.is(&object_eq);
            // A comparison that raises (an array's ambiguous truth value) tells nothing.
            if !own_eq || state.eq(other).unwrap_or(true) {
                return Ok(());
            }
            ""
        };
        Err(Error::new_err(format!(
            "two different states have the same key(s) {}: {} and {}{sides}; key(s) must \
             identify a state with its side to move",
            shown(key),
            shown(other),
            shown(state)
        )))
    }

    /// `v` if it lies in the game's range, else an error naming `what`.
    fn in_range(&self, v: Value, what: &str) -> PyResult<Value> {
        if v < self.range.0 || v > self.range.1 {
            return Err(Error::new_err(format!(
                "{what} gave {v}, outside the game's value range [{}, {}]",
                self.range.0, self.range.1
            )));
        }
        Ok(v)
    }

    /// Runs a callback; its exception is kept and stops the search, and `or` stands in.
    fn call<T>(&self, or: T, f: impl FnOnce(Python<'_>) -> PyResult<T>) -> T {
        if self.failed.load(Relaxed) {
            return or;
        }
        Python::attach(|py| match f(py) {
            Ok(v) => v,
            Err(e) => {
                self.failed.store(true, Relaxed);
                self.failure.keep(e, self.stop);
                or
            }
        })
    }

    /// The Python state of position `id`.
    fn state(&self, py: Python<'_>, id: u32) -> Py<PyAny> {
        let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
        inn.nodes[id as usize].state.clone_ref(py)
    }

    /// The Python move of number `m`.
    fn move_object(&self, py: Python<'_>, m: u32) -> Py<PyAny> {
        let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
        inn.moves[m as usize].clone_ref(py)
    }

    /// The numbers of `state`'s moves, asking Python and interning them.
    fn ask_moves(&self, py: Python<'_>, id: u32) -> PyResult<Box<[u32]>> {
        let state = self.state(py, id);
        let list = self.obj.bind(py).call_method1("moves", (state,))?;
        let mut out = Vec::new();
        for mv in list.try_iter()? {
            let mv = mv?;
            if out.len() == MAX_MOVES {
                return Err(Error::new_err(format!(
                    "moves(s) gave more than {MAX_MOVES} moves"
                )));
            }
            let mut inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
            let known = inn.move_ids.bind(py).get_item(&mv)?;
            let m = match known {
                Some(m) => m.extract()?,
                None => {
                    let m = inn.moves.len() as u32;
                    inn.move_ids.bind(py).set_item(&mv, m)?;
                    inn.moves.push(mv.unbind());
                    m
                }
            };
            out.push(m);
        }
        if out.is_empty() {
            return Err(Error::new_err(
                "moves(s) gave no moves in a position whose outcome(s) is None",
            ));
        }
        Ok(out.into_boxed_slice())
    }
}

impl Game for PyGame<'_> {
    type Pos = u32;
    type Move = u32;
    type Moves = MoveList<u32, MAX_MOVES>;
    type Knowledge = NoKnowledge;

    fn initial(&self) -> u32 {
        0
    }

    fn to_move(&self, pos: &u32) -> Player {
        let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
        inn.nodes[*pos as usize].player
    }

    fn outcome(&self, pos: &u32) -> Option<Value> {
        if self.failed.load(Relaxed) || (self.abandon && self.stop.load(Relaxed)) {
            // After a failure, or Ctrl-C in a search that does not poll the stop flag,
            // every position ends the search at once.
            return Some(0);
        }
        let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
        inn.nodes[*pos as usize].outcome
    }

    fn moves(&self, pos: &u32, out: &mut Self::Moves) {
        out.clear();
        let cached = {
            let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
            let node = &inn.nodes[*pos as usize];
            if node.outcome.is_some() {
                // A finished game has no moves; Python is not asked.
                return;
            }
            node.moves.clone()
        };
        let moves = match cached {
            Some(m) => m,
            None => {
                let m = self.call(None, |py| self.ask_moves(py, *pos).map(Some));
                let Some(m) = m else { return };
                let mut inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
                let node = &mut inn.nodes[*pos as usize];
                node.children = vec![UNKNOWN; m.len()].into_boxed_slice();
                node.moves = Some(m.clone());
                m
            }
        };
        for &m in moves.iter() {
            out.push(m);
        }
    }

    fn play(&self, pos: &u32, mv: u32) -> u32 {
        let slot = {
            let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
            let node = &inn.nodes[*pos as usize];
            let slot = node
                .moves
                .as_ref()
                .and_then(|ms| ms.iter().position(|&m| m == mv));
            match slot.map(|i| node.children[i]) {
                Some(child) if child != UNKNOWN => return child,
                _ => slot,
            }
        };
        let child = self.call(*pos, |py| {
            let state = self.state(py, *pos);
            let m = self.move_object(py, mv);
            let next = self.obj.bind(py).call_method1("play", (state, m))?;
            let child = self.intern(py, next)?;
            if self.to_move(&child) == self.to_move(pos) {
                // Values are negated from ply to ply (negamax): a side that moves twice
                // would be scored as its opponent.
                return Err(Error::new_err(
                    "the sides must alternate: after a move, to_move(s) gives the same player \
                     again (let the other side make a pass move in between)",
                ));
            }
            Ok(child)
        });
        if let Some(i) = slot {
            if !self.failed.load(Relaxed) {
                let mut inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
                inn.nodes[*pos as usize].children[i] = child;
            }
        }
        child
    }

    fn key(&self, pos: &u32) -> u64 {
        // The number is exact; Fibonacci hashing spreads consecutive numbers over the
        // table's slots and its check bits and keeps them distinct (an odd multiplier),
        // and the + 1 keeps them off 0, which the table never stores.
        (u64::from(*pos) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn evaluate(&self, pos: &u32) -> Value {
        if !self.evaluates {
            return 0;
        }
        self.call(0, |py| {
            let state = self.state(py, *pos);
            let v: Value = self
                .obj
                .bind(py)
                .call_method1("evaluate", (state,))?
                .extract()
                .map_err(|_| Error::new_err("evaluate(s) must return an integer value"))?;
            self.in_range(v, "evaluate(s)")
        })
    }

    fn max_plies(&self, pos: &u32) -> usize {
        let inn = self.interned.lock().unwrap_or_else(|p| p.into_inner());
        inn.nodes[*pos as usize].plies
    }

    fn move_code(&self, mv: u32) -> u8 {
        if mv < u32::from(NO_CODE) {
            mv as u8
        } else {
            NO_CODE
        }
    }

    fn value_range(&self) -> (Value, Value) {
        self.range
    }
}

/// `obj`'s `repr`, made fit for a one-line message (escaped, and cut if long).
fn shown(obj: &Bound<'_, PyAny>) -> String {
    match obj.repr() {
        Ok(r) => cutoff::game::quote_max(&r.to_string_lossy(), 60),
        Err(_) => "<no repr>".into(),
    }
}

/// A trace event with the positions' and moves' numbers (made Python objects afterwards).
enum Event {
    Entered(usize, u32, Value, Value),
    Settled(usize, u32, Value),
    Pruned(usize, u32, u32, Value),
}

/// The trace observer: the first [`MAX_EVENTS`] events.
#[derive(Default)]
struct Recorder {
    events: Vec<Event>,
    cut: bool,
}

impl Recorder {
    fn push(&mut self, e: Event) {
        if self.events.len() < MAX_EVENTS {
            self.events.push(e);
        } else {
            self.cut = true;
        }
    }
}

impl<'a> Observer<PyGame<'a>> for Recorder {
    fn entered(&mut self, ply: usize, pos: &u32, alpha: Value, beta: Value) {
        self.push(Event::Entered(ply, *pos, alpha, beta));
    }
    fn settled(&mut self, ply: usize, pos: &u32, value: Value) {
        self.push(Event::Settled(ply, *pos, value));
    }
    fn pruned(&mut self, ply: usize, parent: &u32, mv: u32, bound: Value) {
        self.push(Event::Pruned(ply, *parent, mv, bound));
    }
}

/// A window bound as Python sees it: `None` for the engine's infinities.
fn bound(v: Value) -> Option<Value> {
    (v.abs() < INF).then_some(v)
}

/// Searches the game written in Python `game` from `position` (default `game.initial()`)
/// with `algo` (`minimax`, `negamax`, `alphabeta`, `alphabeta-hard`, `veb`, `ab`, `pvs`,
/// `mtdf`, `solve`; `iterative` for iterative deepening with PVS), to `depth` plies if given,
/// with a table of `tt_mb` MiB, a node or time budget (iterative deepening), and with
/// `trace` the search's events; `progress`, if given, is called every `every` seconds with
/// the search's figures (not with `trace`). Returns a dict: `value`, `exact`, `bounds`,
/// `best_move`, `pv`, `nodes` and the other counts, `time_ms`, `stopped`, and `trace` if
/// asked.
/// Searches a game written in Python with the engine (the guide: docs/guide/python.md).
///
/// `game` has `initial()`, `to_move(s)`, `moves(s)`, `play(s, m)`, `outcome(s)` and `key(s)`,
/// and optionally `evaluate(s)`, `value_range()` and `max_plies(s)`; `position` is the state
/// to search from (default: `game.initial()`). `algo`: minimax, negamax, alphabeta,
/// alphabeta-hard, veb, ab, pvs, mtdf, solve (the default) or iterative; `depth` a depth
/// limit; `tt_mb` the table's MiB; `nodes` and `time_ms` budgets (iterative deepening);
/// `trace=True` records the search's events; `progress` is called every `progress_every`
/// seconds with a dict of the search's figures. Returns a `SearchResult`; Ctrl-C raises
/// `cutoff.Interrupted` carrying it.
#[pyfunction]
#[pyo3(signature = (game, position=None, *, algo="solve", depth=None, tt_mb=Int(16), nodes=None, time_ms=None, trace=false, progress=None, progress_every=1.0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    position: Option<&Bound<'_, PyAny>>,
    algo: &str,
    depth: Option<Int>,
    tt_mb: Int,
    nodes: Option<Int>,
    time_ms: Option<Int>,
    trace: bool,
    progress: Option<Py<PyAny>>,
    progress_every: f64,
) -> PyResult<Py<PyAny>> {
    let fields = search_fields(
        py,
        game,
        position,
        algo,
        opt_int("depth", depth)?,
        int("tt_mb", tt_mb)?,
        opt_int("nodes", nodes)?,
        opt_int("time_ms", time_ms)?,
        trace,
        progress,
        progress_every,
    )?;
    let stopped = fields
        .get_item("interrupted")?
        .is_some_and(|v| v.is_truthy().unwrap_or(false));
    fields.del_item("interrupted")?;
    let result = Py::new(py, SearchResult::new(fields))?.into_any();
    if stopped {
        return Err(crate::interrupted(py, "interrupted".into(), Some(result)));
    }
    Ok(result)
}

/// What [`search`] finds, as a dict of its result's fields and `interrupted` (whether
/// Ctrl-C stopped it), the values already of the options' types.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_fields<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    position: Option<&Bound<'py, PyAny>>,
    algo: &str,
    depth: Option<usize>,
    tt_mb: usize,
    nodes: Option<u64>,
    time_ms: Option<u64>,
    trace: bool,
    progress: Option<Py<PyAny>>,
    every: f64,
) -> PyResult<Bound<'py, PyDict>> {
    check_every(every)?;
    let iterative = algo == "iterative";
    let algorithm = if iterative {
        Algorithm::Pvs
    } else {
        Algorithm::from_str(algo).map_err(|e| Error::new_err(e.to_string()))?
    };
    let budget = nodes.is_some() || time_ms.is_some();
    if budget && !iterative && algo != "pvs" {
        return Err(Error::new_err(format!(
            "a node or time budget runs iterative deepening (algo='iterative'), not {algo}"
        )));
    }
    if iterative && !budget && depth.is_none() {
        return Err(Error::new_err(
            "algo='iterative' needs a depth, a node budget or a time budget",
        ));
    }
    if trace && (budget || iterative || progress.is_some()) {
        return Err(Error::new_err(
            "trace=True records one search: not iterative deepening, a budget or progress",
        ));
    }
    let tt_mb = cutoff_app::options::table_mib(tt_mb).map_err(crate::app_error)?;
    let stop = AtomicBool::new(false);
    // The searches with a table poll the stop flag and report the bounds they proved.
    let polls = algorithm.uses_table() || budget || iterative;
    let (g, root) = PyGame::new(py, game, position, &stop, !polls)?;
    let tt = cutoff::tt::TranspositionTable::try_new(tt_mb)
        .map_err(|e| Error::new_err(e.to_string()))?;
    let out = PyDict::new(py);
    let watched = Progress::new(g.range);
    let on_snapshot = |s: &Snapshot, elapsed: Duration, _: Shows| {
        if let Some(f) = &progress {
            tell(f, &g.failure, &stop, |py| snapshot(py, s, elapsed));
        }
    };
    let display = match progress {
        Some(_) => Display::Call(every, &on_snapshot),
        None => Display::Off,
    };
    let (found, signal) = supervise(py, &stop, || {
        if trace {
            let mut s = Searcher::with_observer(&g, root, depth, Recorder::default());
            if algorithm.uses_table() {
                s = s.table(&tt);
            }
            let start = std::time::Instant::now();
            let (value, best) = s.run(algorithm);
            let elapsed = start.elapsed();
            if let Some(line) = s.unfinished() {
                // The game broke its max_plies promise: as the solver reports it.
                return Err(SolveError::Unfinished {
                    max_plies: g.max_plies(&root),
                    line: line.iter().map(|m| m.to_string()).collect(),
                });
            }
            let to_the_end = depth.is_none_or(|d| d >= g.max_plies(&root));
            Ok(Found {
                verdict: match depth {
                    Some(d) if !to_the_end => Verdict::DepthLimited { value, depth: d },
                    _ => Verdict::Exact(value),
                },
                best,
                pv: s.pv().to_vec(),
                stats: s.stats(),
                elapsed,
                stopped: None,
                trace: Some(s.into_observer()),
            })
        } else {
            let mut solver = Solver::new(&g)
                .position(root)
                .algorithm(algorithm)
                .depth(if iterative && !budget { None } else { depth })
                .threads(1)
                .table(&tt)
                .stop_flag(&stop)
                .progress(&watched)
                .nodes(nodes)
                .time(time_ms.map(Duration::from_millis));
            if iterative && !budget {
                // Iterative deepening to a depth: a node budget no search reaches.
                solver = solver.nodes(Some(u64::MAX)).depth(depth);
            }
            let shows = Shows {
                window: algorithm == Algorithm::Solve && !budget,
                depth: budget || iterative,
            };
            watch(&watched, display, shows, || solver.run()).map(|r| Found {
                verdict: r.verdict,
                best: r.best_move,
                pv: r.pv,
                stats: r.stats,
                elapsed: r.elapsed,
                stopped: r.stopped,
                trace: None,
            })
        }
    });
    if let Some(e) = g.failure.take() {
        return Err(e);
    }
    let mut found = found.map_err(|e| solve_error(py, &g, root, e))?;
    if signal.is_some() {
        found.stopped = Some(Stop::Interrupted);
        if !polls {
            // The search ended on made-up leaves: it proved nothing.
            found.verdict = Verdict::Bounds {
                lo: g.range.0,
                hi: g.range.1,
            };
            found.best = None;
            found.pv.clear();
        }
    }
    let py_move = |m: u32| g.move_object(py, m);
    let (value, exact, bounds) = match found.verdict {
        Verdict::Exact(v) => (Some(v), true, (v, v)),
        Verdict::DepthLimited { value, .. } => (Some(value), false, (value, value)),
        Verdict::Bounds { lo, hi } => (None, false, (lo, hi)),
    };
    out.set_item("value", value)?;
    out.set_item("exact", exact)?;
    out.set_item("bounds", bounds)?;
    out.set_item("best_move", found.best.map(py_move))?;
    let pv: Vec<Py<PyAny>> = found.pv.iter().map(|&m| py_move(m)).collect();
    out.set_item("pv", PyList::new(py, pv)?)?;
    stats(&out, &found.stats)?;
    out.set_item("time_ms", found.elapsed.as_secs_f64() * 1e3)?;
    out.set_item(
        "stopped",
        found.stopped.map(|s| match s {
            Stop::Interrupted => "interrupted",
            Stop::Budget => "budget",
        }),
    )?;
    if let Some(t) = &found.trace {
        let events = PyList::empty(py);
        for e in &t.events {
            let item = match *e {
                Event::Entered(ply, pos, a, b) => (
                    "entered",
                    ply,
                    g.state(py, pos),
                    (bound(a), bound(b)).into_pyobject(py)?.into_any(),
                ),
                Event::Settled(ply, pos, v) => (
                    "settled",
                    ply,
                    g.state(py, pos),
                    v.into_pyobject(py)?.into_any(),
                ),
                Event::Pruned(ply, parent, m, b) => (
                    "pruned",
                    ply,
                    g.state(py, parent),
                    (py_move(m), b).into_pyobject(py)?.into_any(),
                ),
            };
            events.append(item)?;
        }
        out.set_item("trace", events)?;
        out.set_item("trace_cut", t.cut)?;
    }
    out.set_item("algo", algo)?;
    out.set_item("positions", g.interned.lock().map_or(0, |i| i.nodes.len()))?;
    // Ctrl-C: the caller raises `cutoff.Interrupted` with this result, which holds what the
    // search proved.
    out.set_item("interrupted", signal.is_some())?;
    Ok(out)
}

/// The most moves of a line an error message writes out: the first and last halves.
const LINE_SHOWN: usize = 8;

/// The Python error for a search's `e`: for a game that broke its `max_plies` promise, the
/// line as Python moves, the state it ends in, where the cap came from and the remedy.
fn solve_error(py: Python<'_>, g: &PyGame<'_>, root: u32, e: SolveError) -> PyErr {
    let SolveError::Unfinished { max_plies, line } = e else {
        return Error::new_err(e.to_string());
    };
    // The engine writes this game's moves as their numbers.
    let moves: Vec<u32> = line.iter().map_while(|m| m.parse().ok()).collect();
    let mut pos = root;
    for &m in &moves {
        pos = g.play(&pos, m);
    }
    let reprs: Vec<String> = moves
        .iter()
        .map(|&m| shown(g.move_object(py, m).bind(py)))
        .collect();
    let written = if reprs.len() <= LINE_SHOWN {
        reprs.join(", ")
    } else {
        let half = LINE_SHOWN / 2;
        format!(
            "{}, ..., {}",
            reprs[..half].join(", "),
            reprs[reprs.len() - half..].join(", ")
        )
    };
    let state = shown(g.state(py, pos).bind(py));
    let whence = if g.counts_plies {
        "max_plies(s) of the starting state"
    } else {
        "the default: the game has no max_plies(s)"
    };
    let after = if moves.is_empty() {
        format!("the starting state {state} has no outcome")
    } else {
        format!(
            "after {} moves [{written}], the state {state} has no outcome",
            moves.len()
        )
    };
    Error::new_err(format!(
        "the game did not end within max_plies = {max_plies} plies ({whence}): {after}, so \
         the search proved nothing; a game that can repeat a state needs a move counter in the \
         state with max_plies(s) counting down to an outcome, or an outcome on repetition \
         (docs/guide/python.md)"
    ))
}

/// What a search found: the [`Solver`]'s report, or a traced [`Searcher`]'s, with its trace.
struct Found {
    verdict: Verdict,
    best: Option<u32>,
    pv: Vec<u32>,
    stats: cutoff::Stats,
    elapsed: Duration,
    stopped: Option<Stop>,
    trace: Option<Recorder>,
}

/// The search's counts, as the command's JSON names them.
fn stats(out: &Bound<'_, PyDict>, s: &cutoff::Stats) -> PyResult<()> {
    out.set_item("nodes", s.nodes)?;
    out.set_item("leaves", s.leaves)?;
    out.set_item("cutoffs", s.cutoffs)?;
    out.set_item("forced", s.forced)?;
    // As the command's JSON: absent where the game does not count it.
    if s.searched > 0 {
        out.set_item("searched", s.searched)?;
    }
    out.set_item("first_move_cutoff_rate", s.first_move_cutoff_rate())?;
    out.set_item("max_ply", s.max_ply)?;
    Ok(())
}
