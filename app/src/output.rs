//! The result report shared by `solve` and `tree`: aligned `name  value` lines for people,
//! one JSON object for tools. Every field is typed; docs/guide/solve.md lists them. Also the
//! table of every move's value that `analyse` and `play` print.

use cutoff::advanced::SearchResult;
use cutoff::solver::{self, Stop, Verdict};
use cutoff::{Algorithm, Notation, Stats, Value};
use serde::Serialize;

/// Everything `solve` and `tree` print about one search.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The game's name.
    pub game: String,
    /// The board, where it is not the game's default (Connect Four's `WxH`, `/K` for another
    /// line length); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The algorithm's name.
    pub algo: String,
    /// The root value, from the side to move at the root (leaf scale for trees); `null` when
    /// the search stopped before settling it (see `bounds`).
    pub value: Option<Value>,
    /// True when `value` is the game-theoretic value (its sign, when weak); false for a
    /// depth-limited value or a stopped search.
    pub exact: bool,
    /// The value in words ("wins with its 18th stone", "draw", ...).
    pub explained: Option<String>,
    /// What a stopped exact solve proved, or what a depth-limited value proves where the
    /// game can tell (`cutoff::Game::horizon_bounds`): `[lo, hi]` holds the game's value.
    /// Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<[Value; 2]>,
    /// The best root move in the game's notation, `null` at a terminal root.
    pub best_move: Option<String>,
    /// The principal variation in the game's notation.
    pub pv: Vec<String>,
    /// Nodes visited, the root included.
    pub nodes: u64,
    /// Positions with one move passed through statically (Connect Four's forced lines): not
    /// counted in `nodes`.
    pub forced: u64,
    /// Nodes whose moves were searched (`cutoff::Stats::searched`); absent where the search
    /// does not count them (the searches without a table) and in merged results after a plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched: Option<u64>,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Fail-high cutoffs.
    pub cutoffs: u64,
    /// Share of cutoffs made by the first move tried.
    pub first_move_cutoff_rate: f64,
    /// Deepest ply reached.
    pub max_ply: u32,
    /// Depth limit given (`--depth`), if any.
    pub depth: Option<usize>,
    /// Plies the value was searched to, when it is depth-limited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth_reached: Option<usize>,
    /// Wall time of the search in milliseconds.
    pub time_ms: f64,
    /// Threads that searched.
    pub threads: usize,
    /// How they shared the work (absent for one thread).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel: Option<String>,
    /// Nodes searched by each thread (absent for one thread).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_thread: Option<Vec<u64>>,
    /// Weak solving: the value is win, draw or loss only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub weak: bool,
    /// Why the search stopped early: "interrupted" (Ctrl-C, SIGTERM) or "budget".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// The table file's figures, with `--table-file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_file: Option<TableFileReport>,
    /// Where the work went, ply by ply, with `--profile`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<crate::profile::ProfileReport>,
}

/// What `--table-file` did in one run.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct TableFileReport {
    /// Entries loaded from the file before the search.
    pub loaded: u64,
    /// Whether a torn last line (a run killed while writing it) was skipped.
    pub torn: bool,
    /// Entries this run appended.
    pub written: u64,
    /// Entries dropped because the writer fell behind.
    pub dropped: u64,
}

impl Report {
    /// The report of a [`cutoff::solver::Solver`] run. `scale` turns root values into the
    /// reported ones (+1, or -1 for trees with a MIN root).
    pub fn from_outcome<G: Notation>(
        game: &G,
        root: &G::Pos,
        out: &solver::Report<G::Move>,
        depth: Option<usize>,
        scale: i32,
    ) -> Self {
        let mut r = Report::base(game, root, &out.pv, out.best_move, out.stats, out.algo);
        r.depth = depth;
        r.time_ms = out.elapsed.as_secs_f64() * 1e3;
        r.threads = out.threads;
        r.profile = out.profile.as_ref().map(crate::profile::ProfileReport::new);
        if out.threads > 1 && out.nodes_per_thread.len() == out.threads {
            r.nodes_per_thread = Some(out.nodes_per_thread.clone());
        }
        r.stopped = out.stopped.map(|s| match s {
            Stop::Interrupted => "interrupted",
            Stop::Budget => "budget",
        });
        match out.verdict {
            Verdict::Exact(v) => {
                r.value = Some(v * scale);
                r.exact = true;
            }
            Verdict::DepthLimited { value, depth } => {
                r.value = Some(value * scale);
                r.depth_reached = Some(depth);
                // What the depth proves of the game's value, where the game can tell.
                r.bounds = out.horizon_bounds.map(|(lo, hi)| scaled(lo, hi, scale));
            }
            Verdict::Bounds { lo, hi } => r.bounds = Some(scaled(lo, hi, scale)),
        }
        if r.exact {
            r.explained = r.value.map(|v| game.explain_value(root, v * scale));
        }
        r
    }

    /// The report of a position whose moves an opening book values (see `crate::book`):
    /// `value` from the side to move, exact, reached by `best`; nothing searched. The
    /// algorithm is named "book".
    pub fn from_book<G: Notation>(
        game: &G,
        root: &G::Pos,
        value: Value,
        best: G::Move,
        scale: i32,
    ) -> Self {
        let mut r = Report::base(
            game,
            root,
            &[best],
            Some(best),
            Stats::default(),
            Algorithm::Solve,
        );
        r.algo = "book".to_string();
        r.value = Some(value * scale);
        r.exact = true;
        r.explained = Some(game.explain_value(root, value));
        r
    }

    /// The report of a plain search that ran to its end (`tree`).
    pub fn new<G: Notation>(
        game: &G,
        root: &G::Pos,
        result: &SearchResult<G::Move>,
        depth: Option<usize>,
        time_ms: f64,
    ) -> Self {
        let mut r = Report::base(
            game,
            root,
            &result.pv,
            result.best_move,
            result.stats,
            result.algo,
        );
        r.value = Some(result.value);
        r.exact = depth.is_none();
        r.depth = depth;
        r.time_ms = time_ms;
        r
    }

    fn base<G: Notation>(
        game: &G,
        root: &G::Pos,
        line: &[G::Move],
        best: Option<G::Move>,
        s: Stats,
        algo: Algorithm,
    ) -> Self {
        let mut pos = *root;
        let mut pv = Vec::with_capacity(line.len());
        for &mv in line {
            pv.push(game.format_move(&pos, mv));
            pos = game.play(&pos, mv);
        }
        Report {
            game: game.name().to_string(),
            board: None,
            algo: algo.name().to_string(),
            value: None,
            exact: false,
            explained: None,
            bounds: None,
            best_move: best.map(|m| game.format_move(root, m)),
            pv,
            nodes: s.nodes,
            forced: s.forced,
            searched: (s.searched > 0).then_some(s.searched),
            leaves: s.leaves,
            cutoffs: s.cutoffs,
            first_move_cutoff_rate: s.first_move_cutoff_rate(),
            max_ply: s.max_ply,
            depth: None,
            depth_reached: None,
            time_ms: 0.0,
            threads: 1,
            parallel: None,
            nodes_per_thread: None,
            weak: false,
            stopped: None,
            table_file: None,
            profile: None,
        }
    }

    /// The report as aligned `name  value` lines.
    pub fn text(&self) -> String {
        self.text_with(&[])
    }

    /// The report as aligned `name  value` lines, with `extra` rows at the end.
    pub fn text_with(&self, extra: &[(&str, String)]) -> String {
        let mut rows: Vec<(&str, String)> = vec![
            ("game", self.game.clone()),
            ("algorithm", self.algo.clone()),
        ];
        let value = match (self.value, self.bounds) {
            (Some(v), _) if self.exact => {
                let words = self.explained.as_deref().unwrap_or("");
                let weak = if self.weak { ", weak: sign only" } else { "" };
                if words.is_empty() {
                    format!("{v} (exact{weak})")
                } else {
                    format!("{v} ({words}; exact{weak})")
                }
            }
            (Some(v), bounds) => format!(
                "{v} (depth-limited: searched {} plies, evaluated at the horizon; not the \
                 game's value{})",
                self.depth_reached
                    .or(self.depth)
                    .map_or("?".into(), |d| d.to_string()),
                bounds.map_or(String::new(), |[lo, hi]| format!(
                    ", which it proves to lie between {lo} and {hi}"
                ))
            ),
            (None, Some([lo, hi])) => format!("unknown: proven between {lo} and {hi}"),
            (None, None) => "unknown".into(),
        };
        rows.push(("value", value));
        if let Some(why) = self.stopped {
            let what = match why {
                "interrupted" => "interrupted (Ctrl-C or SIGTERM)",
                _ => "the budget ran out",
            };
            rows.push(("stopped", what.into()));
        }
        rows.push((
            "best move",
            self.best_move.clone().unwrap_or_else(|| "none".to_string()),
        ));
        rows.push(("pv", self.pv.join(" ")));
        let forced = if self.forced > 0 {
            format!(" (and {} forced, not counted)", self.forced)
        } else {
            String::new()
        };
        rows.push(("nodes", format!("{}{forced}", self.nodes)));
        rows.push(("leaves", self.leaves.to_string()));
        rows.push((
            "cutoffs",
            format!(
                "{} (first move {:.1}%)",
                self.cutoffs,
                100.0 * self.first_move_cutoff_rate
            ),
        ));
        rows.push(("max ply", self.max_ply.to_string()));
        if let Some(d) = self.depth {
            rows.push(("depth limit", d.to_string()));
        }
        rows.push(("time", format!("{:.3} ms", self.time_ms)));
        if self.threads > 1 {
            let mode = self.parallel.as_deref().unwrap_or("");
            rows.push(("threads", format!("{} ({mode})", self.threads)));
            if let Some(per) = &self.nodes_per_thread {
                let per: Vec<String> = per.iter().map(|n| n.to_string()).collect();
                rows.push(("per thread", per.join(" ")));
            }
        }
        if let Some(t) = self.table_file {
            rows.push((
                "table file",
                format!(
                    "{} entries loaded{}, {} written{}",
                    t.loaded,
                    if t.torn {
                        " (a torn last line skipped)"
                    } else {
                        ""
                    },
                    t.written,
                    if t.dropped > 0 {
                        format!(", {} dropped (the writer fell behind)", t.dropped)
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        rows.extend(extra.iter().cloned());
        let mut text = aligned(&rows);
        if let Some(p) = &self.profile {
            text.push_str("\n\nprofile: how the nodes of each ply ended\n");
            text.push_str(p.table().trim_end());
        }
        text
    }
}

/// `[lo, hi]` of bounds from the side to move turned by `scale` (see
/// [`Report::from_outcome`]).
fn scaled(lo: Value, hi: Value, scale: i32) -> [Value; 2] {
    let (a, b) = (lo * scale, hi * scale);
    [a.min(b), a.max(b)]
}

/// `name  value` rows with the values in one column, as every text report prints them.
pub fn aligned(rows: &[(&str, String)]) -> String {
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(k, v)| format!("{k:<width$}  {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The moves as aligned columns: move, value, what is proved of it where a budget left some
/// move unproved, words; one line each, ending in a newline.
pub fn move_table(moves: &[crate::analysis::MoveJson]) -> String {
    // Where a budget left moves unproved, a guess is marked `~` and a column gives the
    // proven bounds.
    let open = moves.iter().any(|m| !m.exact);
    let shown = |m: &crate::analysis::MoveJson| {
        if m.exact {
            m.value.to_string()
        } else {
            format!("~{}", m.value)
        }
    };
    let proved = |m: &crate::analysis::MoveJson| {
        if m.exact {
            "exact".to_string()
        } else {
            format!("{}..{}", m.lo, m.hi)
        }
    };
    let mw = moves
        .iter()
        .map(|m| m.mv.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let vw = moves
        .iter()
        .map(|m| shown(m).len())
        .max()
        .unwrap_or(0)
        .max(5);
    let pw = moves
        .iter()
        .map(|m| proved(m).len())
        .max()
        .unwrap_or(0)
        .max(6);
    // A game whose words are the number itself (random trees) shows no words column.
    let words = moves.iter().any(|m| m.explain != m.value.to_string());
    let mut s = format!("  {:<mw$}  {:>vw$}", "move", "value");
    if open {
        s.push_str(&format!("  {:<pw$}", "proved"));
    }
    s.push_str(if words { "  meaning\n" } else { "\n" });
    for m in moves {
        let mut line = format!("  {:<mw$}  {:>vw$}", m.mv, shown(m));
        if open {
            line.push_str(&format!("  {:<pw$}", proved(m)));
        }
        if words {
            line.push_str("  ");
            if !m.exact {
                match m.depth {
                    Some(d) => line.push_str(&format!("guess at depth {d}: ")),
                    None => line.push_str("guess: "),
                }
            }
            line.push_str(&m.explain);
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// `value (words)`, or the value alone where the words are the number itself.
pub fn with_words(value: Value, words: &str) -> String {
    if words == value.to_string() {
        value.to_string()
    } else {
        format!("{value} ({words})")
    }
}
