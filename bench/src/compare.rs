//! `compare`: two runs of a suite side by side, item by item, and whether the second
//! regressed. A regression is a changed value, a changed serial node count (unless allowed),
//! or a time slower than the baseline's by more than the tolerance.

use crate::record::{ItemRecord, RunFile};
use crate::table::{sig3, Table};

/// What counts as a regression.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Largest accepted slow-down, as a fraction: 0.10 accepts times up to 1.10 times the
    /// baseline's.
    pub tolerance: f64,
    /// Changed serial node counts are reported but are not regressions.
    pub allow_nodes: bool,
    /// Items faster than this in both runs (milliseconds) have their times shown but not
    /// judged: page faults, cache effects and the machine's other work swamp a tolerance of a
    /// few percent there (identical builds differed by up to a quarter on 5 ms items).
    pub min_ms: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerance: 0.10,
            allow_nodes: false,
            min_ms: 20.0,
        }
    }
}

/// Why an item regressed.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The value differs: the search is wrong in one of the runs.
    Value {
        /// The baseline's value.
        base: i64,
        /// The current value.
        current: i64,
    },
    /// A serial search visited a different number of nodes.
    Nodes {
        /// The baseline's count.
        base: u64,
        /// The current count.
        current: u64,
    },
    /// The median time grew beyond the tolerance.
    Slower {
        /// Current time over baseline time.
        ratio: f64,
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Value { base, current } => write!(f, "value {base} -> {current}"),
            Problem::Nodes { base, current } => write!(f, "nodes {base} -> {current}"),
            Problem::Slower { ratio } => write!(f, "{:.1}% slower", (ratio - 1.0) * 100.0),
        }
    }
}

/// One item in both runs, or in only one.
#[derive(Clone, Debug)]
pub struct Row {
    /// The item's name.
    pub name: String,
    /// The baseline's figures (`None`: a new item).
    pub base: Option<ItemRecord>,
    /// The current figures (`None`: the item is gone).
    pub current: Option<ItemRecord>,
    /// What regressed (empty: nothing).
    pub problems: Vec<Problem>,
    /// Node counts changed but `--allow-nodes` accepted it.
    pub nodes_allowed: bool,
}

/// The whole comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Every item of either run: the baseline's order, then the new ones.
    pub rows: Vec<Row>,
    /// Current total time over baseline total time, on the items both runs have.
    pub total_ratio: f64,
    /// A note when the runs are of different suites.
    pub suite_note: Option<String>,
}

impl Comparison {
    /// The names of the items that regressed.
    pub fn regressions(&self) -> Vec<&str> {
        self.rows
            .iter()
            .filter(|r| !r.problems.is_empty())
            .map(|r| r.name.as_str())
            .collect()
    }
}

/// Compares `current` with `base`.
pub fn compare(base: &RunFile, current: &RunFile, opts: &Options) -> Comparison {
    let mut rows = Vec::new();
    let (mut tb, mut tc) = (0.0, 0.0);
    for b in &base.items {
        let c = current.item(&b.name);
        let mut problems = Vec::new();
        let mut nodes_allowed = false;
        if let Some(c) = c {
            tb += b.time_ms;
            tc += c.time_ms;
            if b.value != c.value {
                problems.push(Problem::Value {
                    base: b.value,
                    current: c.value,
                });
            }
            if b.serial && c.serial && b.nodes != c.nodes {
                if opts.allow_nodes {
                    nodes_allowed = true;
                } else {
                    problems.push(Problem::Nodes {
                        base: b.nodes,
                        current: c.nodes,
                    });
                }
            }
            let ratio = time_ratio(b.time_ms, c.time_ms);
            let judged = b.time_ms.max(c.time_ms) >= opts.min_ms;
            if judged && ratio > 1.0 + opts.tolerance {
                problems.push(Problem::Slower { ratio });
            }
        }
        rows.push(Row {
            name: b.name.clone(),
            base: Some(b.clone()),
            current: c.cloned(),
            problems,
            nodes_allowed,
        });
    }
    for c in &current.items {
        if base.item(&c.name).is_none() {
            rows.push(Row {
                name: c.name.clone(),
                base: None,
                current: Some(c.clone()),
                problems: Vec::new(),
                nodes_allowed: false,
            });
        }
    }
    let suite_note = (base.suite != current.suite).then(|| {
        format!(
            "note: comparing suite '{}' with suite '{}'",
            base.suite, current.suite
        )
    });
    Comparison {
        rows,
        total_ratio: time_ratio(tb, tc),
        suite_note,
    }
}

/// `current / base`, with 0 / 0 read as no change.
fn time_ratio(base: f64, current: f64) -> f64 {
    if base > 0.0 {
        current / base
    } else if current > 0.0 {
        f64::INFINITY
    } else {
        1.0
    }
}

/// The comparison as text: the table, then the verdict naming every regressed item.
pub fn render(cmp: &Comparison, base: &RunFile, current: &RunFile, opts: &Options) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "baseline: {} ({}, {} repeats)\ncurrent:  {} ({}, {} repeats)\n",
        base.build.short(),
        base.build.rustc,
        base.repeats,
        current.build.short(),
        current.build.rustc,
        current.repeats,
    ));
    if let Some(n) = &cmp.suite_note {
        out.push_str(n);
        out.push('\n');
    }
    out.push('\n');
    let mut t = Table::new(&[
        "item", "value", "nodes A", "nodes B", "ratio", "ms A", "ms B", "ratio", "status",
    ]);
    for r in &cmp.rows {
        let status = match (&r.base, &r.current) {
            (None, _) => "new".to_string(),
            (_, None) => "missing".to_string(),
            _ if !r.problems.is_empty() => format!(
                "REGRESSED: {}",
                r.problems
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ if r.nodes_allowed => "ok (nodes changed, allowed)".to_string(),
            (Some(b), Some(c)) if b.time_ms.max(c.time_ms) < opts.min_ms => {
                "ok (too fast to time)".to_string()
            }
            _ => "ok".to_string(),
        };
        let value = match (&r.base, &r.current) {
            (Some(b), Some(c)) if b.value != c.value => format!("{} -> {}", b.value, c.value),
            (Some(b), _) => b.value.to_string(),
            (None, Some(c)) => c.value.to_string(),
            (None, None) => String::new(),
        };
        let fig = |f: fn(&ItemRecord) -> f64, v: &Option<ItemRecord>, ms: bool| {
            v.as_ref().map_or("-".to_string(), |x| {
                if ms {
                    format!("{:.2}", f(x))
                } else {
                    format!("{}", f(x))
                }
            })
        };
        let ratio = |f: fn(&ItemRecord) -> f64| match (&r.base, &r.current) {
            (Some(b), Some(c)) => sig3(time_ratio(f(b), f(c))),
            _ => "-".to_string(),
        };
        let nodes: fn(&ItemRecord) -> f64 = |x| x.nodes as f64;
        let ms: fn(&ItemRecord) -> f64 = |x| x.time_ms;
        t.row(vec![
            r.name.clone(),
            value,
            fig(nodes, &r.base, false),
            fig(nodes, &r.current, false),
            ratio(nodes),
            fig(ms, &r.base, true),
            fig(ms, &r.current, true),
            ratio(ms),
            status,
        ]);
    }
    out.push_str(&t.render());
    out.push('\n');
    out.push_str(&format!(
        "total time of the common items: {} of the baseline's\n",
        sig3(cmp.total_ratio)
    ));
    let regressed = cmp.regressions();
    let missing = cmp.rows.iter().filter(|r| r.current.is_none()).count();
    let new = cmp.rows.iter().filter(|r| r.base.is_none()).count();
    if missing + new > 0 {
        out.push_str(&format!(
            "{missing} item(s) missing from the current run, {new} new\n"
        ));
    }
    if regressed.is_empty() {
        out.push_str(&format!(
            "no regression (tolerance {:.0}%{})\n",
            opts.tolerance * 100.0,
            if opts.allow_nodes {
                ", node changes allowed"
            } else {
                ""
            }
        ));
    } else {
        out.push_str(&format!(
            "{} item(s) regressed: {}\n",
            regressed.len(),
            regressed.join(", ")
        ));
    }
    out
}
