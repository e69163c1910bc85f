//! The sweep over uniform random trees: for each branching factor `b`, depth `d` and series
//! (an algorithm on trees of one order), the leaves, nodes and time, beside `b^d`, the
//! Knuth-Moore minimal tree and, for random order, Pearl's branching factor.
//!
//! Which cells run is decided before anything is searched, from an estimate of each cell's
//! leaves (see [`Series::estimate`]): cells over the cap are skipped and the table says so.
//! The grid and the counts are therefore the same on every machine; only times differ.

use crate::measure::{measure, Measured};
use crate::table::{count, sig3, Table};
use crate::theory::{effective_branching, full_tree, minimal_tree, pearl_branching};
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::tt::TranspositionTable;
use cutoff::Algorithm;
use serde::Serialize;

/// An algorithm run on random trees of one order: one line of the figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Series {
    /// Minimax (no pruning): `b^d` leaves whatever the order.
    Minimax,
    /// Alpha-beta on trees with independent random leaves (Pearl's model).
    AlphaBetaRandom,
    /// Alpha-beta on perfectly ordered trees: the Knuth-Moore minimal tree.
    AlphaBetaBestFirst,
    /// Alpha-beta on trees ordered worst first: no pruning at all.
    AlphaBetaWorstFirst,
    /// PVS with the table and move ordering, on random-order trees.
    Pvs,
    /// MTD(f) with the table, on random-order trees.
    Mtdf,
}

impl Series {
    /// Every series, in table order.
    pub const ALL: [Series; 6] = [
        Series::Minimax,
        Series::AlphaBetaRandom,
        Series::AlphaBetaBestFirst,
        Series::AlphaBetaWorstFirst,
        Series::Pvs,
        Series::Mtdf,
    ];

    /// The name tables, JSON and the figure use.
    pub fn name(self) -> &'static str {
        match self {
            Series::Minimax => "minimax",
            Series::AlphaBetaRandom => "alphabeta-random",
            Series::AlphaBetaBestFirst => "alphabeta-best-first",
            Series::AlphaBetaWorstFirst => "alphabeta-worst-first",
            Series::Pvs => "pvs-random",
            Series::Mtdf => "mtdf-random",
        }
    }

    /// The search it runs.
    pub fn algorithm(self) -> Algorithm {
        match self {
            Series::Minimax => Algorithm::Minimax,
            Series::Pvs => Algorithm::Pvs,
            Series::Mtdf => Algorithm::Mtdf,
            _ => Algorithm::AlphaBeta,
        }
    }

    /// The order of the trees it searches.
    pub fn order(self) -> Order {
        match self {
            Series::AlphaBetaBestFirst => Order::BestFirst,
            Series::AlphaBetaWorstFirst => Order::WorstFirst,
            _ => Order::Random,
        }
    }

    /// Whether its trees have independent random leaves (compared with Pearl's figure).
    pub fn random_order(self) -> bool {
        self.order() == Order::Random && self != Series::Minimax
    }

    /// The leaves a cell is expected to evaluate, known before searching: exact for minimax
    /// and the ordered trees; for random order twice `b^(3d/4)` (the classical rule of thumb),
    /// capped by `b^d`: over the default grid the measured counts stay below 1.5 times it.
    pub fn estimate(self, b: usize, d: usize) -> f64 {
        match self {
            Series::Minimax | Series::AlphaBetaWorstFirst => full_tree(b, d),
            Series::AlphaBetaBestFirst => minimal_tree(b, d),
            _ => full_tree(b, d).min(2.0 * (b as f64).powf(0.75 * d as f64)),
        }
    }
}

/// Which cells a sweep runs.
#[derive(Clone, Debug, Serialize)]
pub struct Grid {
    /// Branching factors.
    pub branching: Vec<usize>,
    /// Depths `1..=max_depth`.
    pub max_depth: usize,
    /// Cells whose estimated leaves exceed this are skipped.
    pub max_leaves: f64,
    /// The seed of every tree (one tree per order and shape).
    pub seed: u64,
    /// Table size for PVS and MTD(f), in MiB.
    pub tt_mib: usize,
}

impl Grid {
    /// The default grid: `b` from 2 to 10, depths to 26, cells of at most 1e8 leaves (a
    /// minute or two in release mode).
    pub fn standard() -> Grid {
        Grid {
            branching: (2..=10).collect(),
            max_depth: 26,
            max_leaves: 1e8,
            seed: 1,
            tt_mib: 64,
        }
    }

    /// A small grid for tests and CI: `b` in 2..=4, depths to 6 (well under a second).
    pub fn quick() -> Grid {
        Grid {
            branching: vec![2, 3, 4],
            max_depth: 6,
            max_leaves: 1e5,
            seed: 1,
            tt_mib: 4,
        }
    }

    /// The cells to run, in table order, each with whether it is skipped.
    pub fn cells(&self) -> Vec<(usize, usize, Series, bool)> {
        let mut out = Vec::new();
        for &b in &self.branching {
            for d in 1..=self.max_depth {
                for s in Series::ALL {
                    out.push((b, d, s, s.estimate(b, d) > self.max_leaves));
                }
            }
        }
        out
    }

    /// Checks the grid against the random trees' limits.
    pub fn validate(&self) -> Result<(), String> {
        use cutoff::games::perfect::random_tree::{MAX_BRANCHING, MAX_DEPTH};
        if self.branching.is_empty() {
            return Err("the grid has no branching factor".into());
        }
        if let Some(b) = self
            .branching
            .iter()
            .find(|&&b| !(2..=MAX_BRANCHING).contains(&b))
        {
            return Err(format!(
                "branching factor {b} out of range (expected 2..={MAX_BRANCHING})"
            ));
        }
        if !(1..=MAX_DEPTH).contains(&self.max_depth) {
            return Err(format!(
                "maximum depth {} out of range (expected 1..={MAX_DEPTH})",
                self.max_depth
            ));
        }
        if self.max_leaves.is_nan() || self.max_leaves < 1.0 {
            return Err(format!("leaf cap {} must be at least 1", self.max_leaves));
        }
        if self.tt_mib == 0 || self.tt_mib > 1 << 16 {
            return Err(format!(
                "table size {} MiB out of range (expected 1..=65536)",
                self.tt_mib
            ));
        }
        Ok(())
    }
}

/// One measured cell.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// Branching factor.
    pub b: usize,
    /// Depth.
    pub d: usize,
    /// The series' name.
    pub series: &'static str,
    /// The algorithm's name.
    pub algorithm: &'static str,
    /// The tree's order.
    pub order: &'static str,
    /// The root value found.
    pub value: i32,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time, milliseconds.
    pub time_ms: f64,
    /// `b^d`.
    pub full: f64,
    /// The Knuth-Moore minimal tree.
    pub minimal: f64,
    /// Effective branching factor of the leaves, `leaves^(1/d)`.
    pub ebf: f64,
    /// Pearl's asymptotic branching factor, for the random-order series.
    pub pearl: Option<f64>,
}

/// A cell left out because its estimate was over the cap.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// Branching factor.
    pub b: usize,
    /// Depth.
    pub d: usize,
    /// The series' name.
    pub series: &'static str,
    /// The estimated leaves.
    pub estimate: f64,
}

/// A finished sweep.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// The grid it ran.
    pub grid: Grid,
    /// The measured cells, in table order.
    pub cells: Vec<Cell>,
    /// The cells over the cap.
    pub skipped: Vec<Skipped>,
}

/// Searches one cell: the tree of shape `(b, d)` and the series' order, with its algorithm.
/// `tt` is cleared first (outside the timing) when the algorithm uses it.
pub fn run_cell(
    b: usize,
    d: usize,
    series: Series,
    seed: u64,
    tt: &TranspositionTable,
) -> Result<Measured, String> {
    let tree = RandomTree::new(b, d, seed, series.order()).map_err(|e| e.0)?;
    let algo = series.algorithm();
    if algo.uses_table() {
        tt.clear();
    }
    measure(&tree, cutoff::Game::initial(&tree), algo, None, Some(tt))
}

/// Runs every cell of `grid` under the cap; `progress` gets each cell as it is done.
pub fn run_sweep(grid: &Grid, progress: &mut dyn FnMut(&Cell)) -> Result<Sweep, String> {
    grid.validate()?;
    let tt = TranspositionTable::new(grid.tt_mib);
    let mut cells = Vec::new();
    let mut skipped = Vec::new();
    for (b, d, series, skip) in grid.cells() {
        if skip {
            skipped.push(Skipped {
                b,
                d,
                series: series.name(),
                estimate: series.estimate(b, d),
            });
            continue;
        }
        let m = run_cell(b, d, series, grid.seed, &tt)?;
        let cell = Cell {
            b,
            d,
            series: series.name(),
            algorithm: series.algorithm().name(),
            order: series.order().name(),
            value: m.value,
            leaves: m.leaves,
            nodes: m.nodes,
            time_ms: m.time.as_secs_f64() * 1e3,
            full: full_tree(b, d),
            minimal: minimal_tree(b, d),
            ebf: effective_branching(m.leaves, d).unwrap_or(f64::NAN),
            pearl: series.random_order().then(|| pearl_branching(b)),
        };
        progress(&cell);
        cells.push(cell);
    }
    Ok(Sweep {
        grid: grid.clone(),
        cells,
        skipped,
    })
}

impl Sweep {
    /// The table: one row per cell, with `b^d`, the minimal tree, the leaves' ratio to each,
    /// the effective branching factor and, for random order, Pearl's. A skipped series is
    /// named once, at the first depth it skips.
    pub fn table(&self) -> String {
        let mut t = Table::new(&[
            "b",
            "d",
            "series",
            "leaves",
            "nodes",
            "ms",
            "b^d",
            "leaves/b^d",
            "minimal",
            "leaves/min",
            "ebf",
            "pearl",
        ]);
        let mut announced = std::collections::HashSet::new();
        for &b in &self.grid.branching {
            for d in 1..=self.grid.max_depth {
                for c in self.cells.iter().filter(|c| c.b == b && c.d == d) {
                    t.row(vec![
                        b.to_string(),
                        d.to_string(),
                        c.series.to_string(),
                        c.leaves.to_string(),
                        c.nodes.to_string(),
                        format!("{:.2}", c.time_ms),
                        count(c.full),
                        sig3(c.leaves as f64 / c.full),
                        count(c.minimal),
                        sig3(c.leaves as f64 / c.minimal),
                        format!("{:.2}", c.ebf),
                        c.pearl.map_or("-".into(), |p| format!("{p:.2}")),
                    ]);
                }
                for s in self.skipped.iter().filter(|s| s.b == b && s.d == d) {
                    if announced.insert((b, s.series)) {
                        t.note(format!(
                            "{b}  {d}  {}: skipped from depth {d} on (estimated {} leaves > cap {})",
                            s.series,
                            count(s.estimate),
                            count(self.grid.max_leaves)
                        ));
                    }
                }
            }
        }
        t.render()
    }
}
