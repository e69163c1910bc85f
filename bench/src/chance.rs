//! The chance-node sweep: node counts of expectiminimax, Star1 and Star2 on random trees with
//! chance nodes (best-first, random and worst-first order) and on two-player Pig, with the share
//! of nodes Star1 and Star2 save against expectiminimax, beside Ballard's reported figures.
//!
//! Star1 and Star2 run twice: without a table (the pure algorithms, as Ballard compared them)
//! and with a [`BoundsTable`] (which lets Star2's full pass reuse what its probes searched, and
//! on Pig catches transpositions). Expectiminimax uses no table. Every Star search is checked
//! against expectiminimax's value (within 1e-9), so a wrong pruning rule fails the sweep
//! instead of showing up as a saving.
//!
//! Counts are means over several seeds (the trees) and exact on every machine; only times
//! differ. The figure plots, for one tree shape, nodes against depth (log scale) and the share
//! saved against depth, one column per order.

use crate::build_info::BuildInfo;
use crate::table::{count, sig3};
use cutoff::games::chance::pig::Pig;
use cutoff::games::chance::random_chance_tree::{Order, Probs, RandomChanceTree, MAX_DEPTH};
use cutoff::multi::{search, BoundsTable, MultiAlgorithm, MultiGame, MultiLimits, MultiStats};
use plotters::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// One search of the comparison: an algorithm, with or without the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Search {
    /// Expectiminimax: the whole tree, the baseline.
    Expectiminimax,
    /// Star1 without a table.
    Star1,
    /// Star2 without a table.
    Star2,
    /// Star1 with the table.
    Star1Table,
    /// Star2 with the table.
    Star2Table,
}

impl Search {
    /// Every search, in table order.
    pub const ALL: [Search; 5] = [
        Search::Expectiminimax,
        Search::Star1,
        Search::Star2,
        Search::Star1Table,
        Search::Star2Table,
    ];

    /// The name the table, the JSON and the figure use.
    pub fn name(self) -> &'static str {
        match self {
            Search::Expectiminimax => "expectiminimax",
            Search::Star1 => "star1",
            Search::Star2 => "star2",
            Search::Star1Table => "star1+table",
            Search::Star2Table => "star2+table",
        }
    }

    /// The algorithm it runs.
    pub fn algorithm(self) -> MultiAlgorithm {
        match self {
            Search::Expectiminimax => MultiAlgorithm::Expectiminimax,
            Search::Star1 | Search::Star1Table => MultiAlgorithm::Star1,
            Search::Star2 | Search::Star2Table => MultiAlgorithm::Star2,
        }
    }

    /// Whether it searches with the table.
    pub fn uses_table(self) -> bool {
        matches!(self, Search::Star1Table | Search::Star2Table)
    }
}

/// What the sweep runs.
#[derive(Clone, Debug, Serialize)]
pub struct ChanceConfig {
    /// Tree shapes `(b, c, d)` of the table: moves, outcomes, plies (chance levels count).
    pub sizes: Vec<(usize, usize, usize)>,
    /// Trees per shape and order (seeds `1..=seeds`); counts are their means.
    pub seeds: u64,
    /// The outcome probabilities of the trees.
    #[serde(serialize_with = "name_of_probs")]
    pub probs: Probs,
    /// The figure's shape `(b, c)`, searched at every depth `1..=figure_depth`.
    pub figure_shape: (usize, usize),
    /// The figure's deepest depth (0: no depth sweep).
    pub figure_depth: usize,
    /// Whether to run Star1 and Star2 with the table too.
    pub with_table: bool,
    /// Whether to add the two-player Pig rows.
    pub pig: bool,
    /// Table size, MiB.
    pub tt_mib: usize,
}

fn name_of_probs<S: serde::Serializer>(p: &Probs, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

impl ChanceConfig {
    /// The default sweep: five shapes of 6,561 to 390,625 leaves, ten seeds, the figure on
    /// `b = c = 4` to depth 10, Pig (about half a minute in release mode).
    pub fn standard() -> ChanceConfig {
        ChanceConfig {
            sizes: vec![(3, 3, 8), (4, 4, 8), (5, 5, 8), (8, 4, 6), (3, 2, 12)],
            seeds: 10,
            probs: Probs::Uniform,
            figure_shape: (4, 4),
            figure_depth: 10,
            with_table: true,
            pig: true,
            tt_mib: 16,
        }
    }

    /// A small sweep for tests and CI (well under a second): two small shapes, two seeds,
    /// the figure to depth 6, Piglet only.
    pub fn quick() -> ChanceConfig {
        ChanceConfig {
            sizes: vec![(2, 2, 6), (3, 3, 4)],
            seeds: 2,
            probs: Probs::Uniform,
            figure_shape: (3, 3),
            figure_depth: 6,
            with_table: true,
            pig: true,
            tt_mib: 1,
        }
    }

    /// The searches it runs.
    pub fn searches(&self) -> Vec<Search> {
        Search::ALL
            .into_iter()
            .filter(|s| self.with_table || !s.uses_table())
            .collect()
    }

    /// Checks the shapes against the trees' limits (and that the run is not absurdly large).
    pub fn validate(&self) -> Result<(), String> {
        let shapes = self
            .sizes
            .iter()
            .copied()
            .chain((self.figure_depth > 0).then_some((
                self.figure_shape.0,
                self.figure_shape.1,
                self.figure_depth,
            )));
        for (b, c, d) in shapes {
            let t =
                RandomChanceTree::new(b, c, d, 1, Order::Random, self.probs).map_err(|e| e.0)?;
            if t.full_nodes() > 100_000_000 {
                return Err(format!(
                    "the tree b={b} c={c} d={d} has {} nodes, over the sweep's cap of 1e8",
                    count(t.full_nodes() as f64)
                ));
            }
        }
        if self.figure_depth > MAX_DEPTH {
            return Err(format!(
                "figure depth {} out of range (expected 0..={MAX_DEPTH})",
                self.figure_depth
            ));
        }
        if self.seeds == 0 {
            return Err("at least one seed is needed".into());
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

/// The mean counts of one search over a row's games.
#[derive(Clone, Debug, Serialize)]
pub struct Counted {
    /// The search's name.
    pub search: &'static str,
    /// Mean of [`MultiStats::nodes`]: every position visited.
    pub nodes: f64,
    /// Mean of [`MultiStats::inner`]: decision and chance nodes.
    pub inner: f64,
    /// Mean leaves.
    pub leaves: f64,
    /// Mean wall time, milliseconds.
    pub time_ms: f64,
}

/// One row of the table: a tree shape and order (means over the seeds), or a Pig game.
#[derive(Clone, Debug, Serialize)]
pub struct ChanceRow {
    /// The game: "random-chance", "pig" or "piglet".
    pub game: &'static str,
    /// The case in words: `b=3 c=3 d=8` or `pig(2,4,3,6)`.
    pub case: String,
    /// The order of the trees ("game" for Pig: its own move order, roll first).
    pub order: &'static str,
    /// Games measured (seeds for the trees, 1 for Pig).
    pub games: u64,
    /// Mean root value (player 0's).
    pub value: f64,
    /// The counts, expectiminimax first.
    pub counts: Vec<Counted>,
}

impl ChanceRow {
    /// The counts of `search`, if it ran.
    pub fn get(&self, search: Search) -> Option<&Counted> {
        self.counts.iter().find(|c| c.search == search.name())
    }

    /// Percentage of expectiminimax's nodes (`inner`: inner nodes) that `search` did not
    /// visit.
    pub fn saved(&self, search: Search, inner: bool) -> Option<f64> {
        let base = self.get(Search::Expectiminimax)?;
        let c = self.get(search)?;
        let (b, x) = if inner {
            (base.inner, c.inner)
        } else {
            (base.nodes, c.nodes)
        };
        (b > 0.0).then(|| 100.0 * (1.0 - x / b))
    }
}

/// A point of the figure's depth sweep.
#[derive(Clone, Debug, Serialize)]
pub struct DepthPoint {
    /// The trees' order.
    pub order: &'static str,
    /// Depth, plies.
    pub d: usize,
    /// The search's name.
    pub search: &'static str,
    /// Mean nodes.
    pub nodes: f64,
    /// Mean inner nodes.
    pub inner: f64,
    /// Nodes of the whole tree.
    pub full: f64,
}

/// A finished sweep.
#[derive(Clone, Debug, Serialize)]
pub struct ChanceSweep {
    /// What ran.
    pub config: ChanceConfig,
    /// The table's rows: the trees by shape and order, then Pig.
    pub rows: Vec<ChanceRow>,
    /// The figure's points.
    pub depths: Vec<DepthPoint>,
}

/// Ballard's (1983) reported savings for trees of `order`, for the table's last column.
pub fn ballard(order: &str) -> &'static str {
    match order {
        "random" => "star1 25-30%; star2 >50%",
        "best-first" => "star2 ~90% (10x fewer)",
        _ => "-",
    }
}

/// Runs every search of `searches` on `game` from its start; the value and counts of each.
/// Fails if a Star search disagrees with expectiminimax (which must come first).
fn run_game<G: MultiGame>(
    game: &G,
    searches: &[Search],
    table: &BoundsTable,
    label: &str,
) -> Result<(f64, Vec<(MultiStats, f64)>), String> {
    let root = game.initial();
    let mut value = f64::NAN;
    let mut out = Vec::new();
    for &s in searches {
        let tt = s.uses_table().then(|| {
            table.clear();
            table
        });
        let start = Instant::now();
        let r = search(game, &root, s.algorithm(), &MultiLimits::default(), tt)
            .map_err(|e| format!("{label}: {e}"))?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let v = r.values.get(0);
        if s == Search::Expectiminimax {
            value = v;
        } else if (v - value).abs() > 1e-9 || v.is_nan() {
            return Err(format!(
                "{label}: {} found {v}, expectiminimax {value}",
                s.name()
            ));
        }
        out.push((r.stats, ms));
    }
    Ok((value, out))
}

/// Means of the counts of `searches` over the trees of shape `(b, c, d)` and `order`.
fn run_trees(
    cfg: &ChanceConfig,
    (b, c, d): (usize, usize, usize),
    order: Order,
    searches: &[Search],
    table: &BoundsTable,
) -> Result<(f64, Vec<Counted>), String> {
    let n = cfg.seeds as f64;
    let mut value = 0.0;
    let mut sums: Vec<Counted> = searches
        .iter()
        .map(|s| Counted {
            search: s.name(),
            nodes: 0.0,
            inner: 0.0,
            leaves: 0.0,
            time_ms: 0.0,
        })
        .collect();
    for seed in 1..=cfg.seeds {
        let tree = RandomChanceTree::new(b, c, d, seed, order, cfg.probs).map_err(|e| e.0)?;
        let (v, runs) = run_game(&tree, searches, table, &tree.spec())?;
        value += v / n;
        for (sum, (stats, ms)) in sums.iter_mut().zip(runs) {
            sum.nodes += stats.nodes() as f64 / n;
            sum.inner += stats.inner() as f64 / n;
            sum.leaves += stats.leaves as f64 / n;
            sum.time_ms += ms / n;
        }
    }
    Ok((value, sums))
}

/// The two-player Pig games of the table: (players, win score, faces, horizon, piglet).
pub const PIG_GAMES: [(u32, u32, u32, u32, bool); 4] = [
    (2, 4, 3, 6, false),
    (2, 5, 3, 8, false),
    (2, 6, 6, 6, false),
    (2, 3, 2, 8, true),
];

/// Runs the sweep; `progress` gets each finished row.
pub fn run_chance(
    cfg: &ChanceConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<ChanceSweep, String> {
    cfg.validate()?;
    let table = BoundsTable::new(cfg.tt_mib);
    let searches = cfg.searches();
    let mut rows = Vec::new();
    for &(b, c, d) in &cfg.sizes {
        for order in [Order::BestFirst, Order::Random, Order::WorstFirst] {
            let (value, counts) = run_trees(cfg, (b, c, d), order, &searches, &table)?;
            let row = ChanceRow {
                game: "random-chance",
                case: format!("b={b} c={c} d={d}"),
                order: order.name(),
                games: cfg.seeds,
                value,
                counts,
            };
            progress(&format!("{} {}", row.case, row.order));
            rows.push(row);
        }
    }
    if cfg.pig {
        for (players, win, faces, horizon, piglet) in PIG_GAMES {
            let pig = Pig::new(players, win, faces, horizon, piglet).map_err(|e| e.0)?;
            let case = format!("{}({players},{win},{faces},{horizon})", pig.name());
            let (value, runs) = run_game(&pig, &searches, &table, &case)?;
            let counts = searches
                .iter()
                .zip(runs)
                .map(|(s, (stats, ms))| Counted {
                    search: s.name(),
                    nodes: stats.nodes() as f64,
                    inner: stats.inner() as f64,
                    leaves: stats.leaves as f64,
                    time_ms: ms,
                })
                .collect();
            progress(&case);
            rows.push(ChanceRow {
                game: pig.name(),
                case,
                order: "game",
                games: 1,
                value,
                counts,
            });
        }
    }
    let mut depths = Vec::new();
    let (b, c) = cfg.figure_shape;
    for order in [Order::BestFirst, Order::Random, Order::WorstFirst] {
        for d in 1..=cfg.figure_depth {
            let (_, counts) = run_trees(cfg, (b, c, d), order, &searches, &table)?;
            let full = RandomChanceTree::new(b, c, d, 1, order, cfg.probs)
                .map_err(|e| e.0)?
                .full_nodes() as f64;
            for k in counts {
                depths.push(DepthPoint {
                    order: order.name(),
                    d,
                    search: k.search,
                    nodes: k.nodes,
                    inner: k.inner,
                    full,
                });
            }
            progress(&format!("figure b={b} c={c} d={d} {order}"));
        }
    }
    Ok(ChanceSweep {
        config: cfg.clone(),
        rows,
        depths,
    })
}

/// A markdown table: the header, the alignment row (the first two columns and the last, text,
/// left; the figures between them right) and the rows.
fn markdown(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = format!("| {} |\n|", header.join(" | "));
    for i in 0..header.len() {
        let text = i < 2 || i + 1 == header.len();
        s.push_str(if text { ":---|" } else { "---:|" });
    }
    s.push('\n');
    for r in rows {
        s.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    s
}

/// A percentage with one decimal, or `-`.
fn pct(x: Option<f64>) -> String {
    x.map_or("-".into(), |p| format!("{p:.1}%"))
}

impl ChanceSweep {
    /// One markdown table of the rows: for each search its mean count (`inner`: inner nodes,
    /// else every node) and, for the Star searches, the share of expectiminimax's saved;
    /// then Ballard's figures for the row's order.
    pub fn table(&self, inner: bool) -> String {
        let searches = self.config.searches();
        let mut header = vec!["case".to_string(), "order".to_string()];
        for s in &searches {
            header.push(s.name().to_string());
            if *s != Search::Expectiminimax {
                header.push("saved".into());
            }
        }
        header.push("Ballard (1983)".into());
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let mut cells = vec![r.case.clone(), r.order.to_string()];
                for &s in &searches {
                    let c = r.get(s).map(|c| if inner { c.inner } else { c.nodes });
                    cells.push(c.map_or("-".into(), |x| count(x.round())));
                    if s != Search::Expectiminimax {
                        cells.push(pct(r.saved(s, inner)));
                    }
                }
                cells.push(ballard(r.order).into());
                cells
            })
            .collect();
        markdown(&header, &rows)
    }

    /// The whole report in markdown: what ran, the table of every node and the table of
    /// inner nodes.
    pub fn report(&self) -> String {
        let c = &self.config;
        let mut s = String::from("# Star1 and Star2 against expectiminimax\n\n");
        s.push_str(&format!(
            "Random chance trees (MAX, CHANCE, MIN, CHANCE, ...; b moves, c outcomes, d plies \
             with chance levels counted; {} probabilities; leaves in [-100, 100]): mean counts \
             over seeds 1..={}. Pig rows: two players, Pig(players, win, faces, horizon), \
             payoffs in [-1, 1], searched to the end. \"saved\": the share of \
             expectiminimax's count that the search did not visit. A decision node Star2 \
             probes counts once: its full pass starts from the probed move's value rather \
             than searching that move again. Table: {} MiB \
             bounds table, cleared before each search.\n\n",
            c.probs.name(),
            c.seeds,
            c.tt_mib
        ));
        s.push_str(
            "Ballard (1983) reported Star1 visiting 25-30% fewer nodes than expectiminimax, \
             and Star2 over 50% fewer with random order and about an order of magnitude fewer \
             with good move ordering.\n\n",
        );
        s.push_str("## Every node (`MultiStats::nodes()`)\n\n");
        s.push_str(&self.table(false));
        s.push_str("\n## Inner nodes (`MultiStats::inner()`: decision and chance nodes)\n\n");
        s.push_str(&self.table(true));
        s.push_str(&format!(
            "\nMean root values: {}\n",
            self.rows
                .iter()
                .map(|r| format!("{} {} {}", r.case, r.order, sig3(r.value)))
                .collect::<Vec<_>>()
                .join("; ")
        ));
        s
    }

    /// The sweep as JSON, with the build that measured it.
    pub fn json(&self) -> Result<String, String> {
        let doc = serde_json::json!({
            "build": BuildInfo::current(),
            "chance": self,
        });
        serde_json::to_string_pretty(&doc)
            .map(|t| t + "\n")
            .map_err(|e| format!("cannot encode: {e}"))
    }
}

/// The colour of each search, then of the whole tree's reference.
fn colour(i: usize) -> RGBColor {
    const C: [RGBColor; 6] = [
        RGBColor(90, 90, 90),
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(0, 0, 0),
    ];
    C[i % C.len()]
}

/// Width and height of one panel, pixels.
const PANEL: (u32, u32) = (420, 330);

/// Writes the figure of `sweep` as SVG to `path`: for each order, nodes against depth (log
/// scale, with the whole tree dashed) above the share saved against depth (with Ballard's
/// figures as dotted levels).
pub fn write_chance_svg(sweep: &ChanceSweep, path: &str) -> Result<(), String> {
    // Drawn in memory, then written through the one write path (`cutoff::files`): plotters'
    // own file backend would write through a FIFO or over a device.
    let mut svg = String::new();
    draw_chance_svg(&mut svg, sweep, path)?;
    cutoff::files::write_atomic(std::path::Path::new(path), svg.as_bytes())
        .map_err(|e| e.to_string())
}

/// The figure of [`write_chance_svg`], as SVG text into `svg`; `path` names it in errors.
fn draw_chance_svg(svg: &mut String, sweep: &ChanceSweep, path: &str) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw '{path}': {e}");
    if sweep.depths.is_empty() {
        return Err(format!(
            "cannot draw '{path}': the sweep has no depth points"
        ));
    }
    let orders = ["best-first", "random", "worst-first"];
    let searches = sweep.config.searches();
    let (b, c) = sweep.config.figure_shape;
    let header_h = 36 + 18 * 2 + 8;
    let size = (PANEL.0 * 3, header_h + PANEL.1 * 2);
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (header, body) = root.split_vertically(header_h);
    header
        .draw(&Text::new(
            format!(
                "Star1 and Star2 against expectiminimax on random chance trees, b = {b}, c = {c} \
                 (mean of {} seeds)",
                sweep.config.seeds
            ),
            (10, 8),
            ("sans-serif", 20).into_font(),
        ))
        .map_err(|e| err(&e))?;
    // Each entry's colour and (dash, gap) as in the panels; (22, 0) is a solid line.
    let mut legend: Vec<(String, RGBAColor, (i32, i32))> = searches
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let dash = if s.uses_table() { (5, 3) } else { (22, 0) };
            (s.name().to_string(), colour(i).to_rgba(), dash)
        })
        .collect();
    legend.push(("whole tree".into(), colour(5).to_rgba(), (2, 4)));
    legend.push(("Ballard (1983)".into(), colour(2).mix(0.7), (1, 4)));
    for (i, (name, col, (dash, gap))) in legend.iter().enumerate() {
        let x = 10 + (i % 4) as i32 * 300;
        let y = 44 + (i / 4) as i32 * 18;
        crate::plot::legend_entry(
            &header,
            (x, y),
            col.stroke_width(2),
            (*dash, *gap),
            name,
            15,
        )
        .map_err(|e| err(&e))?;
    }
    let areas = body.split_evenly((2, 3));
    let max_d = sweep.config.figure_depth;
    for (col, order) in orders.iter().enumerate() {
        let pts: Vec<&DepthPoint> = sweep.depths.iter().filter(|p| p.order == *order).collect();
        let top = pts.iter().map(|p| p.full).fold(1.0, f64::max) * 3.0;
        // Top: nodes, log scale.
        let mut chart = ChartBuilder::on(&areas[col])
            .caption(format!("{order}: nodes"), ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(52)
            .build_cartesian_2d(0.5..(max_d as f64 + 0.5), (1.0..top).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("depth (plies)")
            .y_desc("nodes")
            .axis_desc_style(("sans-serif", 14))
            .label_style(("sans-serif", 13))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in searches.iter().enumerate() {
            let line: Vec<(f64, f64)> = pts
                .iter()
                .filter(|p| p.search == s.name())
                .map(|p| (p.d as f64, p.nodes.max(1.0)))
                .collect();
            // The table's lines dashed on top of the plain ones, which are drawn wider so that
            // both show where they coincide (Star1 gains nothing from the table here).
            let style = if s.uses_table() {
                colour(i).stroke_width(2)
            } else {
                colour(i).stroke_width(4)
            };
            if s.uses_table() {
                chart
                    .draw_series(DashedLineSeries::new(line.clone(), 5, 3, style))
                    .map_err(|e| err(&e))?;
            } else {
                chart
                    .draw_series(LineSeries::new(line.clone(), style))
                    .map_err(|e| err(&e))?;
            }
            chart
                .draw_series(line.iter().map(|&p| Circle::new(p, 2, colour(i).filled())))
                .map_err(|e| err(&e))?;
        }
        let full: Vec<(f64, f64)> = pts
            .iter()
            .filter(|p| p.search == Search::Expectiminimax.name())
            .map(|p| (p.d as f64, p.full))
            .collect();
        chart
            .draw_series(DashedLineSeries::new(full, 2, 4, colour(5).stroke_width(1)))
            .map_err(|e| err(&e))?;
        // Bottom: the share saved, with Ballard's figures as dotted levels. Searches that
        // visit more nodes than expectiminimax go below zero, down to their worst.
        let saved: Vec<(&'static str, f64, f64)> = pts
            .iter()
            .filter(|p| p.search != Search::Expectiminimax.name())
            .filter_map(|p| {
                let base = pts
                    .iter()
                    .find(|q| q.d == p.d && q.search == Search::Expectiminimax.name())?;
                Some((p.search, p.d as f64, 100.0 * (1.0 - p.nodes / base.nodes)))
            })
            .collect();
        let floor = saved.iter().map(|s| s.2).fold(-10.0, f64::min);
        let floor = (floor / 25.0).floor() * 25.0;
        let mut chart = ChartBuilder::on(&areas[3 + col])
            .caption(
                format!("{order}: saved vs expectiminimax"),
                ("sans-serif", 18),
            )
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(52)
            .build_cartesian_2d(0.5..(max_d as f64 + 0.5), floor..100.0)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("depth (plies)")
            .y_desc("% of nodes saved")
            .axis_desc_style(("sans-serif", 14))
            .label_style(("sans-serif", 13))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| err(&e))?;
        let levels: &[(f64, usize)] = match *order {
            "random" => &[(25.0, 1), (30.0, 1), (50.0, 2)],
            "best-first" => &[(90.0, 2)],
            _ => &[],
        };
        for &(y, i) in levels {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.5, y), (max_d as f64 + 0.5, y)],
                    1,
                    4,
                    colour(i).mix(0.7).stroke_width(1),
                ))
                .map_err(|e| err(&e))?;
        }
        for (i, s) in searches.iter().enumerate().skip(1) {
            let line: Vec<(f64, f64)> = saved
                .iter()
                .filter(|p| p.0 == s.name())
                .map(|p| (p.1, p.2))
                .collect();
            // The table's lines dashed on top of the plain ones, which are drawn wider so that
            // both show where they coincide (Star1 gains nothing from the table here).
            let style = if s.uses_table() {
                colour(i).stroke_width(2)
            } else {
                colour(i).stroke_width(4)
            };
            if s.uses_table() {
                chart
                    .draw_series(DashedLineSeries::new(line.clone(), 5, 3, style))
                    .map_err(|e| err(&e))?;
            } else {
                chart
                    .draw_series(LineSeries::new(line.clone(), style))
                    .map_err(|e| err(&e))?;
            }
            chart
                .draw_series(line.iter().map(|&p| Circle::new(p, 2, colour(i).filled())))
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
