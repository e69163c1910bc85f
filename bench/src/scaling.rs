//! The thread-scaling figure of `scripts/scaling.sh`: speed-up over one thread against the
//! number of threads, one line per workload and parallel mode, with the ideal `y = x`.
//!
//! The input is the script's `scaling.json`: an array of rows, each the sum over one workload
//! family (`connect4`, `random-trees`, `empty`) for one mode and one thread count. Both axes
//! are drawn on a log2 scale, so that ideal scaling is the diagonal and slow-downs (speed-up
//! under 1, from oversubscription) stay as visible as gains.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Deserialize;

/// One row of `scaling.json`: a workload family under one parallel mode and thread count.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ScalingRow {
    /// The workload family: `connect4`, `random-trees` or `empty`.
    pub workload: String,
    /// The parallel mode: `ybwc`, `lazysmp` or `root`.
    pub mode: String,
    /// Threads the searches ran with.
    pub threads: u32,
    /// Wall time of the family's searches, seconds.
    pub seconds: f64,
    /// Nodes the family's searches visited.
    pub nodes: f64,
    /// Time with one thread over time with `threads`.
    pub speedup: f64,
    /// Nodes with `threads` over nodes with one thread.
    pub overhead: f64,
    /// Millions of nodes per second.
    pub mnps: f64,
}

/// Reads `scaling.json` from `path`: a non-empty array of rows with at least one thread and a
/// positive, finite speed-up each.
pub fn load_scaling(path: &str) -> Result<Vec<ScalingRow>, String> {
    let text = cutoff::files::read_file(path).map_err(|e| e.to_string())?;
    parse_scaling(&text).map_err(|e| format!("'{path}': {e}"))
}

/// Reads the rows of a `scaling.json` document, checked as [`load_scaling`] does.
pub fn parse_scaling(text: &str) -> Result<Vec<ScalingRow>, String> {
    let rows: Vec<ScalingRow> =
        serde_json::from_str(text).map_err(|e| format!("not a scaling table: {e}"))?;
    if rows.is_empty() {
        return Err("no rows (expected a non-empty array)".into());
    }
    for r in &rows {
        let at = || format!("{} {} {} threads", r.workload, r.mode, r.threads);
        if r.threads == 0 {
            return Err(format!("{}: threads must be at least 1", at()));
        }
        if !(r.speedup.is_finite() && r.speedup > 0.0) {
            return Err(format!(
                "{}: speed-up must be a positive number, got {}",
                at(),
                r.speedup
            ));
        }
    }
    Ok(rows)
}

/// The mode's colour, as in the sweep's figure: ybwc red, lazysmp blue, root green.
fn mode_colour(mode: &str, others: &[String]) -> RGBColor {
    const EXTRA: [RGBColor; 4] = [
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(0, 0, 0),
    ];
    match mode {
        "ybwc" => RGBColor(214, 39, 40),
        "lazysmp" => RGBColor(31, 119, 180),
        "root" => RGBColor(44, 160, 44),
        _ => {
            let i = others.iter().position(|m| m == mode).unwrap_or(0);
            EXTRA[i % EXTRA.len()]
        }
    }
}

/// Dash and gap lengths of a workload's lines, pixels; `(22, 0)` is solid.
fn workload_dash(i: usize) -> (i32, i32) {
    const D: [(i32, i32); 4] = [(22, 0), (7, 4), (2, 3), (10, 3)];
    D[i % D.len()]
}

/// The ideal line's colour and dashes.
const IDEAL: (RGBColor, (i32, i32)) = (RGBColor(150, 150, 150), (5, 4));

/// Width and height of the plot, pixels.
const PLOT: (u32, u32) = (760, 480);
/// Width of one legend entry, pixels.
const LEGEND_ENTRY: u32 = 250;

/// A marker of the workload with index `i` at `p`: circles, triangles, crosses.
fn marker<DB: DrawingBackend>(
    i: usize,
    p: (f64, f64),
    c: RGBColor,
) -> DynElement<'static, DB, (f64, f64)> {
    match i % 3 {
        0 => Circle::new(p, 3, c.filled()).into_dyn(),
        1 => TriangleMarker::new(p, 4, c.filled()).into_dyn(),
        _ => Cross::new(p, 4, c.stroke_width(2)).into_dyn(),
    }
}

/// Formats a power of two `2^v` as a label: `16`, `1`, `0.5`, `0.25`.
fn pow2_label(v: f64) -> String {
    let x = v.exp2();
    if x >= 1.0 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').to_string()
    }
}

/// Draws the speed-up of `rows` against threads as SVG to `path`: one line per (workload,
/// mode), solid for connect4 and dashed for the other workloads, with the ideal `y = x`
/// dashed grey; both axes log2, labelled with the thread counts and powers of two.
pub fn write_scaling_svg(rows: &[ScalingRow], path: &str) -> Result<(), String> {
    // Drawn in memory, then written through the one write path (`cutoff::files`): plotters'
    // own file backend would write through a FIFO or over a device.
    let mut svg = String::new();
    draw_scaling_svg(&mut svg, rows, path)?;
    cutoff::files::write_atomic(std::path::Path::new(path), svg.as_bytes())
        .map_err(|e| e.to_string())
}

/// The figure of [`write_scaling_svg`], as SVG text into `svg`; `path` names it in errors.
fn draw_scaling_svg(svg: &mut String, rows: &[ScalingRow], path: &str) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw '{path}': {e}");
    if rows.is_empty() {
        return Err(format!("cannot draw '{path}': no rows"));
    }
    // Workloads: connect4 first, then the others by name; modes in the script's order.
    let mut workloads: Vec<String> = rows.iter().map(|r| r.workload.clone()).collect();
    workloads.sort_by_key(|w| (w != "connect4", w.clone()));
    workloads.dedup();
    const KNOWN: [&str; 3] = ["ybwc", "lazysmp", "root"];
    let mut other_modes: Vec<String> = rows
        .iter()
        .map(|r| r.mode.clone())
        .filter(|m| !KNOWN.contains(&m.as_str()))
        .collect();
    other_modes.sort();
    other_modes.dedup();
    let modes: Vec<String> = KNOWN
        .iter()
        .map(|m| m.to_string())
        .filter(|m| rows.iter().any(|r| &r.mode == m))
        .chain(other_modes.iter().cloned())
        .collect();
    let mut lines: Vec<(usize, &str, &str)> = Vec::new();
    for (wi, w) in workloads.iter().enumerate() {
        for m in &modes {
            if rows.iter().any(|r| &r.workload == w && &r.mode == m) {
                lines.push((wi, w, m));
            }
        }
    }

    let mut threads: Vec<u32> = rows.iter().map(|r| r.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    let x_max = f64::from(*threads.last().expect("rows is not empty")).log2();
    let lo = rows.iter().map(|r| r.speedup).fold(1.0, f64::min).log2();
    let hi = rows
        .iter()
        .map(|r| r.speedup)
        .fold(
            f64::from(*threads.last().expect("rows is not empty")),
            f64::max,
        )
        .log2();
    let (y_lo, y_hi) = (lo.floor().min(0.0) - 0.25, hi.ceil().max(1.0) + 0.25);
    let x_keys: Vec<f64> = threads.iter().map(|&t| f64::from(t).log2()).collect();
    let y_keys: Vec<f64> = (y_lo.ceil() as i32..=y_hi.floor() as i32)
        .map(f64::from)
        .collect();

    let per_line = (PLOT.0 / LEGEND_ENTRY).max(1) as usize;
    let legend_lines = (lines.len() + 1).div_ceil(per_line);
    let header_h = 36 + 18 * legend_lines as u32 + 8;
    let root = SVGBackend::with_string(svg, (PLOT.0, header_h + PLOT.1)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (header, body) = root.split_vertically(header_h);
    header
        .draw(&Text::new(
            "Speed-up over one thread",
            (10, 8),
            ("sans-serif", 22).into_font(),
        ))
        .map_err(|e| err(&e))?;
    let mut legend: Vec<(String, RGBColor, (i32, i32))> = lines
        .iter()
        .map(|&(wi, w, m)| {
            (
                format!("{w} {m}"),
                mode_colour(m, &other_modes),
                workload_dash(wi),
            )
        })
        .collect();
    legend.push(("ideal (speed-up = threads)".into(), IDEAL.0, IDEAL.1));
    for (i, (name, c, (dash, gap))) in legend.iter().enumerate() {
        let x = 10 + (i % per_line) as i32 * LEGEND_ENTRY as i32;
        let y = 42 + (i / per_line) as i32 * 18;
        crate::plot::legend_entry(&header, (x, y), c.stroke_width(2), (*dash, *gap), name, 15)
            .map_err(|e| err(&e))?;
    }

    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.25..x_max + 0.25, y_lo..y_hi)
        .map_err(|e| err(&e))?;
    // The mesh's own labels fall on round log2 values; the thread counts need not be powers
    // of two, so the labels and grid lines are drawn by hand at exactly those values.
    chart
        .configure_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_desc("threads (log2 scale)")
        .y_desc("speed-up over 1 thread (log2 scale)")
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(|e| err(&e))?;
    let grid = BLACK.mix(0.1);
    let label = |anchor| {
        TextStyle::from(("sans-serif", 14).into_font()).pos(Pos::new(anchor, VPos::Center))
    };
    for (&x, &t) in x_keys.iter().zip(&threads) {
        chart
            .draw_series(LineSeries::new(vec![(x, y_lo), (x, y_hi)], grid))
            .map_err(|e| err(&e))?;
        let (px, py) = chart.backend_coord(&(x, y_lo));
        root.draw(&Text::new(
            t.to_string(),
            (px, py + 12),
            label(HPos::Center),
        ))
        .map_err(|e| err(&e))?;
    }
    for &y in &y_keys {
        chart
            .draw_series(LineSeries::new(vec![(-0.25, y), (x_max + 0.25, y)], grid))
            .map_err(|e| err(&e))?;
        let (px, py) = chart.backend_coord(&(-0.25, y));
        root.draw(&Text::new(pow2_label(y), (px - 6, py), label(HPos::Right)))
            .map_err(|e| err(&e))?;
    }
    // The ideal first, under the measured lines.
    chart
        .draw_series(DashedLineSeries::new(
            vec![(0.0, 0.0), (x_max, x_max)],
            IDEAL.1 .0,
            IDEAL.1 .1,
            IDEAL.0.stroke_width(2),
        ))
        .map_err(|e| err(&e))?;
    for &(wi, w, m) in &lines {
        let mut pts: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.workload == w && r.mode == m)
            .map(|r| (f64::from(r.threads).log2(), r.speedup.log2()))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let c = mode_colour(m, &other_modes);
        let (dash, gap) = workload_dash(wi);
        if gap == 0 {
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(|e| err(&e))?;
        } else {
            chart
                .draw_series(DashedLineSeries::new(
                    pts.clone(),
                    dash,
                    gap,
                    c.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
        }
        chart
            .draw_series(pts.iter().map(|&p| marker(wi, p, c)))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_powers_of_two() {
        assert_eq!(pow2_label(4.0), "16");
        assert_eq!(pow2_label(0.0), "1");
        assert_eq!(pow2_label(-1.0), "0.5");
        assert_eq!(pow2_label(-2.0), "0.25");
    }

    #[test]
    fn bad_tables_are_refused() {
        assert!(parse_scaling("[]").is_err());
        assert!(parse_scaling("{}").is_err());
        assert!(parse_scaling("[{\"workload\": \"connect4\"}]").is_err());
        let row = |t: u32, s: f64| {
            format!(
                "[{{\"workload\":\"connect4\",\"mode\":\"ybwc\",\"threads\":{t},\"seconds\":1,\
                 \"nodes\":10,\"speedup\":{s},\"overhead\":1,\"mnps\":1}}]"
            )
        };
        assert!(parse_scaling(&row(0, 1.0)).is_err());
        assert!(parse_scaling(&row(2, 0.0)).is_err());
        assert_eq!(parse_scaling(&row(2, 1.5)).unwrap()[0].speedup, 1.5);
    }
}
