//! The named, fixed workloads of the regression runs (`cutoff-bench run --suite NAME`):
//!
//! - `quick` (about 8 s of searching per repeat): random trees with several algorithms,
//!   tic-tac-toe, 40 Connect Four positions solved exactly, control-game graphs;
//! - `full` (roughly ten minutes per repeat on two cores, going by the test sets' mean times):
//!   the six Connect Four test sets (the first 100 positions of Begin-Hard, as CI does) and
//!   every cell of the standard sweep.
//!
//! Every item runs on one thread, with a fresh table, so its value and node count are the
//! same on every run of one build: a change in them is a change in the search.

use crate::build_info::BuildInfo;
use crate::measure::{measure, Measured};
use crate::positions::{connect4_set, control_graphs, random_graph};
use crate::record::{median, ItemRecord, RunFile};
use crate::sweep::{run_cell, Grid, Series};
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game};

/// The suites `run` knows.
pub const SUITES: [&str; 2] = ["quick", "full"];

/// Table size of every item, MiB: enough for the quick suite's Connect Four positions.
const TT_MIB: usize = 64;

/// One fixed search.
pub struct Item {
    /// The item's name, unique within its suite.
    pub name: String,
    run: Box<dyn Fn() -> Result<Measured, String>>,
}

impl Item {
    /// An item that searches `game` from its start with `algo` to `depth` plies (`None`: to
    /// the end), with a fresh table when the algorithm uses one.
    pub fn search<G: Game + 'static>(
        name: impl Into<String>,
        game: G,
        algo: Algorithm,
        depth: Option<usize>,
    ) -> Item {
        Item {
            name: name.into(),
            run: Box::new(move || {
                // `clear` touches every page of the fresh table before the clock starts: a
                // large table is mapped from the kernel and zeroed on first touch, which would
                // otherwise land in the item's time (2-100 ms against a search of 0.3 ms).
                let tt = algo.uses_table().then(|| {
                    let tt = TranspositionTable::new(TT_MIB);
                    tt.clear();
                    tt
                });
                measure(&game, game.initial(), algo, depth, tt.as_ref())
            }),
        }
    }

    /// Runs the item once.
    pub fn run(&self) -> Result<Measured, String> {
        (self.run)()
    }
}

/// A random-tree item named `random/b{b}-d{d}-{order}/{algo}`.
fn tree_item(b: usize, d: usize, order: Order, algo: Algorithm) -> Item {
    let tree = RandomTree::new(b, d, 1, order).expect("the suite's trees are in range");
    Item::search(format!("random/b{b}-d{d}-{order}/{algo}"), tree, algo, None)
}

/// The first `n` positions of a Connect Four test set, each solved exactly.
fn connect4_items(set: &str, n: Option<usize>) -> Result<Vec<Item>, String> {
    Ok(connect4_set(set, n)?
        .into_iter()
        .map(|l| {
            let name = format!("connect4/{set}/{}", l.line);
            Item::search(name, l.game, Algorithm::Solve, None)
        })
        .collect())
}

fn quick() -> Result<Vec<Item>, String> {
    let mut items = vec![
        tree_item(4, 13, Order::Random, Algorithm::Minimax),
        tree_item(10, 10, Order::Random, Algorithm::AlphaBeta),
        tree_item(10, 10, Order::Random, Algorithm::Pvs),
        tree_item(10, 10, Order::Random, Algorithm::Mtdf),
        tree_item(8, 16, Order::BestFirst, Algorithm::AlphaBeta),
        tree_item(4, 13, Order::WorstFirst, Algorithm::AlphaBeta),
    ];
    for algo in [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
        Algorithm::Mtdf,
        Algorithm::Solve,
    ] {
        items.push(Item::search(
            format!("tictactoe/{algo}"),
            TicTacToe::new(),
            algo,
            None,
        ));
    }
    items.extend(connect4_items("middle-medium", Some(20))?);
    items.extend(connect4_items("begin-easy", Some(10))?);
    items.extend(connect4_items("begin-medium", Some(10))?);
    for (name, graph) in control_graphs(false) {
        for algo in [Algorithm::AlphaBeta, Algorithm::Solve] {
            items.push(Item::search(
                format!("control/{name}/{algo}"),
                graph.clone(),
                algo,
                None,
            ));
        }
    }
    items.push(Item::search(
        "control/random-24-0.15/solve",
        random_graph(24, 0.15, 11),
        Algorithm::Solve,
        None,
    ));
    Ok(items)
}

fn full() -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    for (set, _) in crate::positions::CONNECT4_SETS {
        // Begin-Hard takes about an hour on two cores: its first 100 positions, as in CI.
        let limit = (set == "begin-hard").then_some(100);
        items.extend(connect4_items(set, limit)?);
    }
    let grid = Grid::standard();
    for (b, d, series, skip) in grid.cells() {
        if skip {
            continue;
        }
        let seed = grid.seed;
        items.push(Item {
            name: format!("sweep/b{b}-d{d}/{}", series.name()),
            run: Box::new(move || {
                let tt = TranspositionTable::new(grid_tt_mib(series));
                run_cell(b, d, series, seed, &tt)
            }),
        });
    }
    Ok(items)
}

/// The sweep items' table size: none needed for the plain searches.
fn grid_tt_mib(series: Series) -> usize {
    if series.algorithm().uses_table() {
        Grid::standard().tt_mib
    } else {
        1
    }
}

/// The items of the suite `name`; an error names the known suites.
pub fn suite(name: &str) -> Result<Vec<Item>, String> {
    match name {
        "quick" => quick(),
        "full" => full(),
        _ => Err(format!(
            "unknown suite '{name}' (expected one of: {})",
            SUITES.join(", ")
        )),
    }
}

/// Runs every item `repeats` times (the whole list once, then again, so that a slow spell of
/// the machine spreads over all items instead of hitting one), keeping every time and the
/// median; `progress` gets each item's name and time after each measurement.
pub fn run_suite(
    name: &str,
    items: &[Item],
    repeats: usize,
    progress: &mut dyn FnMut(&str, f64),
) -> Result<RunFile, String> {
    if repeats == 0 {
        return Err("--repeats must be at least 1".into());
    }
    let mut records: Vec<Option<ItemRecord>> = vec![None; items.len()];
    for _ in 0..repeats {
        for (item, rec) in items.iter().zip(records.iter_mut()) {
            let m = item.run()?;
            let ms = m.time.as_secs_f64() * 1e3;
            progress(&item.name, ms);
            match rec {
                None => {
                    *rec = Some(ItemRecord {
                        name: item.name.clone(),
                        value: i64::from(m.value),
                        nodes: m.nodes,
                        leaves: m.leaves,
                        threads: 1,
                        time_ms: ms,
                        times_ms: vec![ms],
                        serial: true,
                    })
                }
                Some(r) => {
                    if r.value != i64::from(m.value) || r.nodes != m.nodes {
                        return Err(format!(
                            "item '{}' is not deterministic: two repeats gave different results",
                            item.name
                        ));
                    }
                    r.times_ms.push(ms);
                    r.time_ms = median(&r.times_ms);
                }
            }
        }
    }
    Ok(RunFile {
        suite: name.to_string(),
        build: BuildInfo::current(),
        repeats,
        notes: None,
        items: records.into_iter().flatten().collect(),
    })
}
