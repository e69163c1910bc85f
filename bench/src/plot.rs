//! The sweep's figure: counts against depth on a log scale, one panel per branching factor,
//! one line per series, with `b^d` and the Knuth-Moore minimal tree as dashed references.
//!
//! The references count leaves, so the figure plots leaves by default: best-first alpha-beta
//! then lies exactly on the minimal tree and minimax on `b^d`. Plotting nodes instead moves
//! every line up by the inner nodes, about a factor `b / (b - 1)`.

use crate::sweep::{Series, Sweep};
use crate::theory::{full_tree, minimal_tree};
use plotters::prelude::*;

/// Width and height of one panel, pixels.
const PANEL: (u32, u32) = (420, 340);
/// Width of one legend entry, pixels.
const LEGEND_ENTRY: u32 = 310;
/// Panels per row.
const COLUMNS: usize = 3;

/// Dash and gap lengths of a dashed line, pixels.
type Dash = (i32, i32);
/// The `b^d` reference's dashes.
const FULL_DASH: Dash = (6, 4);
/// The minimal tree's: short, so that it shows on best-first alpha-beta's line.
const MINIMAL_DASH: Dash = (3, 3);

/// Draws one legend entry of a figure at `(x, y)` in `area`: a 22-pixel sample of the line,
/// dashed as `(dash, gap)` (`(22, 0)`: solid), then `name` in a `font`-pixel sans-serif.
/// Every figure of the crate labels its lines this way.
pub(crate) fn legend_entry<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    (x, y): (i32, i32),
    style: ShapeStyle,
    (dash, gap): Dash,
    name: &str,
    font: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let mut x0 = x;
    while x0 < x + 22 {
        let x1 = (x0 + dash).min(x + 22);
        area.draw(&PathElement::new(vec![(x0, y), (x1, y)], style))?;
        x0 = x1 + gap.max(0);
        if dash <= 0 && gap <= 0 {
            break;
        }
    }
    area.draw(&Text::new(
        name,
        (x + 28, y - font as i32 / 2),
        ("sans-serif", font).into_font(),
    ))
}

/// A reference count as a function of `(b, d)`.
type Formula = fn(usize, usize) -> f64;

/// The colour of each series, then of the two references.
fn colour(i: usize) -> RGBColor {
    const C: [RGBColor; 8] = [
        RGBColor(214, 39, 40),
        RGBColor(31, 119, 180),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(90, 90, 90),
        RGBColor(0, 0, 0),
    ];
    C[i % C.len()]
}

/// What the figure counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Leaves evaluated (the references' unit).
    Leaves,
    /// Nodes visited, leaves included.
    Nodes,
}

impl std::str::FromStr for Count {
    type Err = String;
    fn from_str(s: &str) -> Result<Count, String> {
        match s {
            "leaves" => Ok(Count::Leaves),
            "nodes" => Ok(Count::Nodes),
            _ => Err(format!("unknown count '{s}' (expected leaves or nodes)")),
        }
    }
}

/// Writes the figure of `sweep` as SVG to `path`, plotting `count`.
pub fn write_svg(sweep: &Sweep, count: Count, path: &str) -> Result<(), String> {
    // Drawn in memory, then written through the one write path (`cutoff::files`): plotters'
    // own file backend would write through a FIFO or over a device.
    let mut svg = String::new();
    draw_svg(&mut svg, sweep, count, path)?;
    cutoff::files::write_atomic(std::path::Path::new(path), svg.as_bytes())
        .map_err(|e| e.to_string())
}

/// The figure of [`write_svg`], as SVG text into `svg`; `path` names it in errors.
fn draw_svg(svg: &mut String, sweep: &Sweep, count: Count, path: &str) -> Result<(), String> {
    let unit = match count {
        Count::Leaves => "leaves",
        Count::Nodes => "nodes",
    };
    let y_of = |c: &crate::sweep::Cell| match count {
        Count::Leaves => c.leaves as f64,
        Count::Nodes => c.nodes as f64,
    };
    let err = |e: &dyn std::fmt::Display| format!("cannot draw '{path}': {e}");
    let panels: Vec<usize> = sweep
        .grid
        .branching
        .iter()
        .copied()
        .filter(|b| sweep.cells.iter().any(|c| c.b == *b))
        .collect();
    if panels.is_empty() {
        return Err(format!("cannot draw '{path}': the sweep measured nothing"));
    }
    let cols = COLUMNS.min(panels.len());
    let rows = panels.len().div_ceil(cols);
    let width = PANEL.0 * cols as u32;
    let per_line = (width / LEGEND_ENTRY).max(1) as usize;
    let legend_lines = (Series::ALL.len() + 2).div_ceil(per_line);
    // The title, the legend's lines, a margin.
    let header_h = 36 + 18 * legend_lines as u32 + 8;
    let size = (width, header_h + PANEL.1 * rows as u32);
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (header, body) = root.split_vertically(header_h);
    header
        .draw(&Text::new(
            format!("{} on uniform random trees, by depth (log scale)", {
                let mut u = unit.to_string();
                u[..1].make_ascii_uppercase();
                u
            }),
            (10, 8),
            ("sans-serif", 22).into_font(),
        ))
        .map_err(|e| err(&e))?;
    let mut legend: Vec<(String, RGBColor, Option<Dash>)> = Series::ALL
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name().to_string(), colour(i), None))
        .collect();
    legend.push(("b^d".into(), colour(6), Some(FULL_DASH)));
    legend.push((
        "minimal tree b^ceil(d/2)+b^floor(d/2)-1".into(),
        colour(7),
        Some(MINIMAL_DASH),
    ));
    for (i, (name, c, dashed)) in legend.iter().enumerate() {
        let x = 10 + (i % per_line) as i32 * LEGEND_ENTRY as i32;
        let y = 42 + (i / per_line) as i32 * 18;
        let dash = dashed.unwrap_or((22, 0));
        legend_entry(&header, (x, y), c.stroke_width(2), dash, name, 16).map_err(|e| err(&e))?;
    }
    let areas = body.split_evenly((rows, cols));
    for (area, &b) in areas.iter().zip(&panels) {
        let cells: Vec<_> = sweep.cells.iter().filter(|c| c.b == b).collect();
        let max_d = cells.iter().map(|c| c.d).max().unwrap_or(1);
        let top = cells
            .iter()
            .map(|c| y_of(c))
            .fold(full_tree(b, max_d).min(1e12), f64::max)
            * 3.0;
        let mut chart = ChartBuilder::on(area)
            .caption(format!("b = {b}"), ("sans-serif", 20))
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(0.0..(max_d as f64 + 0.5), (1.0..top).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("depth")
            .y_desc(unit)
            .axis_desc_style(("sans-serif", 16))
            .label_style(("sans-serif", 14))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in Series::ALL.iter().enumerate() {
            let pts: Vec<(f64, f64)> = cells
                .iter()
                .filter(|c| c.series == s.name())
                .map(|c| (c.d as f64, y_of(c)))
                .collect();
            // Minimax and worst-first alpha-beta count the same: minimax is drawn wide and
            // pale underneath so that both stay visible.
            let style = if *s == Series::Minimax {
                colour(i).mix(0.45).stroke_width(6)
            } else {
                colour(i).stroke_width(2)
            };
            chart
                .draw_series(LineSeries::new(pts.clone(), style))
                .map_err(|e| err(&e))?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 2, colour(i).filled())))
                .map_err(|e| err(&e))?;
        }
        // The references last, dashed over the measured lines they coincide with.
        let refs: [(Formula, RGBColor); 2] = [(full_tree, colour(6)), (minimal_tree, colour(7))];
        for (f, c) in refs {
            let pts: Vec<(f64, f64)> = (1..=max_d)
                .map(|d| (d as f64, f(b, d)))
                .filter(|&(_, y)| y <= top)
                .collect();
            // The minimal tree in short black dashes: it lies exactly on best-first alpha-beta.
            let (dash, gap) = if c == colour(7) {
                MINIMAL_DASH
            } else {
                FULL_DASH
            };
            chart
                .draw_series(DashedLineSeries::new(pts, dash, gap, c.stroke_width(2)))
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
