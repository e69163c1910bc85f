//! The `cutoff-bench` command: the sweep over random trees and real games, regression runs of
//! named suites, the comparison of two runs, and the thread-scaling figure.

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use cutoff_bench::build_info::BuildInfo;
use cutoff_bench::chance::{run_chance, write_chance_svg, ChanceConfig};
use cutoff_bench::compare::{compare, render, Options};
use cutoff_bench::games::{games_table, run_games};
use cutoff_bench::plot::{write_svg, Count};
use cutoff_bench::record::RunFile;
use cutoff_bench::scaling::{load_scaling, write_scaling_svg};
use cutoff_bench::sweep::{run_sweep, Grid};
use cutoff_bench::workload::{run_suite, suite};
use indicatif::{ProgressBar, ProgressFinish, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

/// cutoff-bench: sweeps, regression runs and comparisons for cutoff.
#[derive(Parser)]
#[command(name = "cutoff-bench", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Leaves, nodes and time of minimax, alpha-beta (random, best-first and worst-first
    /// order), PVS and MTD(f) over a grid of random trees, against b^d, the minimal tree and
    /// Pearl's branching factor; then the same algorithms on real games.
    Sweep(SweepArgs),
    /// Run a named workload (quick, full) and record value, nodes, leaves and time per item.
    Run(RunArgs),
    /// Compare two run files item by item; exit 1 if the current one regressed.
    Compare(CompareArgs),
    /// Pool the times of several run files of one build into one (median of all).
    Merge(MergeArgs),
    /// Nodes of expectiminimax, Star1 and Star2 (with and without the table) on random chance
    /// trees (best-first, random and worst-first order) and two-player Pig, with the share
    /// Star1 and Star2 save, beside Ballard's figures; a markdown table and a figure.
    Chance(ChanceArgs),
    /// Draw speed-up over one thread against threads from the scaling.json that
    /// scripts/scaling.sh writes, as SVG.
    Scaling(ScalingArgs),
    /// Replay a finished `cutoff distribute` run (its summary.json) on 1, 8, 64, 256 and 1024
    /// simulated workers: the wall time and the speed-up over a direct one-thread solve.
    Distributed(DistributedArgs),
}

#[derive(clap::Args)]
struct DistributedArgs {
    /// The run's summary.json (in its --dir).
    summary: String,
    /// Seconds of a direct one-thread solve of the same position (`cutoff solve ... --threads
    /// 1`), measured on the machine that ran the tasks.
    #[arg(long)]
    direct_seconds: f64,
    /// Seconds added to every round: submitting it and hearing its last answer (the latency
    /// `scripts/slurm/ci.sh` measures on a Slurm array).
    #[arg(long, default_value_t = 1.0)]
    latency: f64,
    /// Worker counts (default 1,8,64,256,1024).
    #[arg(long, value_delimiter = ',', default_value = "1,8,64,256,1024")]
    workers: Vec<usize>,
}

#[derive(clap::Args)]
struct ScalingArgs {
    /// The scaling table: a JSON array of rows (workload, mode, threads, seconds, nodes,
    /// speedup, overhead, mnps).
    file: String,
    /// Write the figure as SVG to this file.
    #[arg(long, required = true)]
    svg: String,
}

#[derive(clap::Args)]
struct ChanceArgs {
    /// A small sweep (well under a second), for tests and CI.
    #[arg(long)]
    quick: bool,
    /// Trees per shape and order (seeds 1..=N; default 10, quick 2).
    #[arg(long)]
    seeds: Option<u64>,
    /// Tree shapes as b:c:d, comma-separated (default 3:3:8,4:4:8,5:5:8,8:4:6,3:2:12).
    #[arg(long, value_delimiter = ',', value_parser = parse_shape)]
    sizes: Option<Vec<(usize, usize, usize)>>,
    /// Outcome probabilities of the trees: uniform or random.
    #[arg(long, default_value = "uniform")]
    probs: String,
    /// The figure's shape as b:c:d, searched at every depth up to d (default 4:4:10).
    #[arg(long, value_parser = parse_shape)]
    figure: Option<(usize, usize, usize)>,
    /// Leave out the Star searches with the table.
    #[arg(long)]
    no_table: bool,
    /// Leave out Pig.
    #[arg(long)]
    no_pig: bool,
    /// Write the report (what ran and both tables) as markdown to this file.
    #[arg(long)]
    md: Option<String>,
    /// Write the results as JSON to this file.
    #[arg(long)]
    json: Option<String>,
    /// Draw nodes and the share saved against depth as SVG to this file.
    #[arg(long)]
    svg: Option<String>,
}

/// Reads a tree shape `b:c:d`.
fn parse_shape(s: &str) -> Result<(usize, usize, usize), String> {
    let bad = || format!("invalid shape '{s}' (expected b:c:d, like 3:2:8)");
    let parts: Vec<usize> = s
        .trim()
        .split(':')
        .map(|p| p.trim().parse::<usize>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match parts[..] {
        [b, c, d] => Ok((b, c, d)),
        _ => Err(bad()),
    }
}

#[derive(clap::Args)]
struct SweepArgs {
    /// Write the results as JSON to this file.
    #[arg(long)]
    json: Option<String>,
    /// Draw nodes against depth (log scale) as SVG to this file.
    #[arg(long)]
    svg: Option<String>,
    /// What the figure plots: leaves (the references' unit) or nodes.
    #[arg(long, default_value = "leaves")]
    plot: Count,
    /// A small grid and small games (seconds), for tests and CI.
    #[arg(long)]
    quick: bool,
    /// Branching factors, comma-separated (default 2 to 10; quick: 2,3,4).
    #[arg(long, value_delimiter = ',')]
    branching: Option<Vec<usize>>,
    /// Deepest depth (default 26; quick: 6).
    #[arg(long)]
    max_depth: Option<usize>,
    /// Skip cells expected to evaluate more leaves than this (default 1e8; quick: 1e5).
    #[arg(long)]
    max_leaves: Option<f64>,
    /// Seed of the random trees.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Leave out the real games.
    #[arg(long)]
    no_games: bool,
}

#[derive(clap::Args)]
struct RunArgs {
    /// The workload: quick or full.
    #[arg(long)]
    suite: String,
    /// Write the run to this JSON file.
    #[arg(long)]
    json: String,
    /// Measure each item this many times and keep the median.
    #[arg(long, default_value_t = 5)]
    repeats: usize,
    /// Free text stored with the run (the machine, what else was running).
    #[arg(long)]
    notes: Option<String>,
}

#[derive(clap::Args)]
struct CompareArgs {
    /// The run to compare against.
    baseline: String,
    /// The run to judge.
    current: String,
    /// Accepted slow-down: a fraction (0.1) or a percentage (10%).
    #[arg(long, default_value = "10%", value_parser = parse_tolerance)]
    tolerance: f64,
    /// Report changed serial node counts without failing on them.
    #[arg(long)]
    allow_nodes: bool,
    /// Times under this many milliseconds in both runs are shown but not judged.
    #[arg(long, default_value_t = 20.0)]
    min_ms: f64,
}

#[derive(clap::Args)]
struct MergeArgs {
    /// Write the merged run to this file.
    #[arg(long)]
    json: String,
    /// The run files, all of one suite and one build.
    #[arg(required = true)]
    runs: Vec<String>,
}

/// Reads `10%` as 0.10 and `0.1` as 0.1.
fn parse_tolerance(s: &str) -> Result<f64, String> {
    let bad = || {
        format!("invalid tolerance '{s}' (expected a fraction like 0.1 or a percentage like 10%)")
    };
    let t = match s.trim().strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map_err(|_| bad())? / 100.0,
        None => {
            let f = s.trim().parse::<f64>().map_err(|_| bad())?;
            if f >= 1.0 {
                return Err(format!(
                    "tolerance '{s}' is 100% or more; write percentages with %, like 10%"
                ));
            }
            f
        }
    };
    if !(t.is_finite() && t >= 0.0) {
        return Err(bad());
    }
    Ok(t)
}

/// Writes to standard output; a closed pipe (`| head`) silences the rest instead of failing,
/// so that the exit code still tells what the command found.
fn say(text: &str) {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    static CLOSED: AtomicBool = AtomicBool::new(false);
    if CLOSED.load(Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        CLOSED.store(true, Relaxed);
    }
}

/// A progress line on standard error, drawn only when that is a terminal so that piped and
/// redirected output stays clean: `[done/total] message` with a known `total`, the message
/// alone without. It is cleared when finished, and when dropped (a command that fails).
fn progress_line(total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match total {
        Some(n) => (ProgressBar::new(n), "[{pos}/{len}] {msg}"),
        None => (ProgressBar::new_spinner(), "{msg}"),
    };
    let style = ProgressStyle::with_template(template).expect("the template is valid");
    bar.with_style(style).with_finish(ProgressFinish::AndClear)
}

fn sweep_cmd(a: &SweepArgs) -> Result<ExitCode, String> {
    let mut grid = if a.quick {
        Grid::quick()
    } else {
        Grid::standard()
    };
    if let Some(b) = &a.branching {
        grid.branching = b.clone();
    }
    if let Some(d) = a.max_depth {
        grid.max_depth = d;
    }
    if let Some(m) = a.max_leaves {
        grid.max_leaves = m;
    }
    grid.seed = a.seed;
    grid.validate()?;
    let start = Instant::now();
    let progress = progress_line(None);
    let sweep = run_sweep(&grid, &mut |c| {
        progress.set_message(format!("b={} d={} {}", c.b, c.d, c.series));
    })?;
    progress.finish_and_clear();
    println!(
        "Uniform random trees (seed {}): leaves, nodes and time per cell",
        grid.seed
    );
    say(&sweep.table());
    let games = if a.no_games {
        Vec::new()
    } else {
        let progress = progress_line(None);
        let rows = run_games(a.quick, grid.max_leaves, grid.tt_mib, &mut |r| {
            progress.set_message(format!("{} {} {}", r.game, r.position, r.algorithm));
        })?;
        progress.finish_and_clear();
        say("\nReal games: leaves against minimax's on the same search\n");
        say(&games_table(&rows));
        rows
    };
    say(&format!(
        "\nsweep took {:.2} s\n",
        start.elapsed().as_secs_f64()
    ));
    if let Some(path) = &a.svg {
        write_svg(&sweep, a.plot, path)?;
    }
    if let Some(path) = &a.json {
        let doc = serde_json::json!({
            "build": BuildInfo::current(),
            "sweep": sweep,
            "games": games,
        });
        let text = serde_json::to_string_pretty(&doc).map_err(|e| format!("cannot encode: {e}"))?;
        write_file(path, (text + "\n").as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn chance_cmd(a: &ChanceArgs) -> Result<ExitCode, String> {
    let mut cfg = if a.quick {
        ChanceConfig::quick()
    } else {
        ChanceConfig::standard()
    };
    if let Some(n) = a.seeds {
        cfg.seeds = n;
    }
    if let Some(s) = &a.sizes {
        cfg.sizes = s.clone();
    }
    if let Some((b, c, d)) = a.figure {
        cfg.figure_shape = (b, c);
        cfg.figure_depth = d;
    }
    cfg.probs = a.probs.parse().map_err(|e: cutoff::GameError| e.0)?;
    cfg.with_table = !a.no_table;
    cfg.pig = !a.no_pig;
    cfg.validate()?;
    let start = Instant::now();
    let progress = progress_line(None);
    let sweep = run_chance(&cfg, &mut |what| progress.set_message(what.to_string()))?;
    progress.finish_and_clear();
    let report = sweep.report();
    say(&report);
    say(&format!(
        "\nchance sweep took {:.2} s\n",
        start.elapsed().as_secs_f64()
    ));
    if let Some(path) = &a.md {
        write_file(path, report.as_bytes())?;
    }
    if let Some(path) = &a.svg {
        write_chance_svg(&sweep, path)?;
    }
    if let Some(path) = &a.json {
        write_file(path, sweep.json()?.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_cmd(a: &RunArgs) -> Result<ExitCode, String> {
    let items = suite(&a.suite)?;
    // Fail on an unwritable output before spending minutes on the run.
    cutoff::files::check_writable(std::path::Path::new(&a.json)).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let progress = progress_line(Some((items.len() * a.repeats) as u64));
    let run = run_suite(&a.suite, &items, a.repeats, &mut |name, ms| {
        progress.set_message(format!("{name} {ms:.1} ms"));
        progress.inc(1);
    });
    // The output was only checked, not created: a failed run leaves an old file as it was.
    let mut run = run?;
    progress.finish_and_clear();
    run.notes = a.notes.clone();
    run.save(&a.json)?;
    let sum: f64 = run.items.iter().map(|i| i.time_ms).sum();
    say(&format!(
        "suite {}: {} items x {} repeats in {:.1} s (sum of medians {:.1} s), build {}; wrote {}\n",
        a.suite,
        run.items.len(),
        a.repeats,
        start.elapsed().as_secs_f64(),
        sum / 1e3,
        run.build.short(),
        a.json
    ));
    Ok(ExitCode::SUCCESS)
}

fn compare_cmd(a: &CompareArgs) -> Result<ExitCode, String> {
    let base = RunFile::load(&a.baseline)?;
    let current = RunFile::load(&a.current)?;
    if !(a.min_ms.is_finite() && a.min_ms >= 0.0) {
        return Err(format!(
            "--min-ms must be a non-negative number, got {}",
            a.min_ms
        ));
    }
    let opts = Options {
        tolerance: a.tolerance,
        allow_nodes: a.allow_nodes,
        min_ms: a.min_ms,
    };
    let cmp = compare(&base, &current, &opts);
    say(&render(&cmp, &base, &current, &opts));
    Ok(if cmp.regressions().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn scaling_cmd(a: &ScalingArgs) -> Result<ExitCode, String> {
    let rows = load_scaling(&a.file)?;
    write_scaling_svg(&rows, &a.svg)?;
    say(&format!(
        "drew {} rows of {} into {}\n",
        rows.len(),
        a.file,
        a.svg
    ));
    Ok(ExitCode::SUCCESS)
}

fn distributed_cmd(a: &DistributedArgs) -> Result<ExitCode, String> {
    use cutoff_bench::distributed::{load, simulate};
    if !(a.direct_seconds > 0.0 && a.direct_seconds.is_finite()) {
        return Err(format!(
            "--direct-seconds must be a positive number of seconds, got {}",
            a.direct_seconds
        ));
    }
    if !(a.latency >= 0.0 && a.latency.is_finite()) {
        return Err(format!(
            "--latency must be 0 or more seconds, got {}",
            a.latency
        ));
    }
    if a.workers.contains(&0) {
        return Err("--workers must all be at least 1".into());
    }
    let s = load(&a.summary)?;
    let tasks: usize = s.round_costs.iter().map(|r| r.task_seconds.len()).sum();
    let work: f64 = s.round_costs.iter().flat_map(|r| &r.task_seconds).sum();
    let mut out = format!(
        "value {}, {} nodes, {} rounds, {} tasks, {:.3} s of task time; direct one-thread \
         solve {:.3} s; latency {:.3} s a round\n\n| workers | simulated wall time | speed-up over direct |\n|---:|---:|---:|\n",
        s.value,
        s.nodes,
        s.round_costs.len(),
        tasks,
        work,
        a.direct_seconds,
        a.latency
    );
    for &n in &a.workers {
        let t = simulate(&s.round_costs, n, a.latency);
        out.push_str(&format!(
            "| {n} | {t:.3} s | {:.2}x |\n",
            a.direct_seconds / t
        ));
    }
    say(&out);
    Ok(ExitCode::SUCCESS)
}

fn merge_cmd(a: &MergeArgs) -> Result<ExitCode, String> {
    let runs = a
        .runs
        .iter()
        .map(|p| RunFile::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = RunFile::merge(&runs)?;
    merged.save(&a.json)?;
    say(&format!(
        "merged {} runs ({} repeats in all) into {}\n",
        runs.len(),
        merged.repeats,
        a.json
    ));
    Ok(ExitCode::SUCCESS)
}

/// Exit codes: 0 fine, 1 a regression (compare), 2 bad input or a failed run.
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line, naming the problem; clap's first line does exactly that.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("{}", first.trim());
            return ExitCode::from(2);
        }
    };
    let outcome = match &cli.command {
        Command::Sweep(a) => sweep_cmd(a),
        Command::Run(a) => run_cmd(a),
        Command::Compare(a) => compare_cmd(a),
        Command::Merge(a) => merge_cmd(a),
        Command::Chance(a) => chance_cmd(a),
        Command::Scaling(a) => scaling_cmd(a),
        Command::Distributed(a) => distributed_cmd(a),
    };
    match outcome {
        Ok(code) => code,
        Err(msg) => {
            // The command's progress line, if any, was cleared when it was dropped.
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Writes `bytes` to `path` through the engine's one write path (`cutoff::files`): atomic,
/// and never over a FIFO, a device or a folder.
fn write_file(path: &str, bytes: &[u8]) -> Result<(), String> {
    cutoff::files::write_atomic(std::path::Path::new(path), bytes).map_err(|e| e.to_string())
}
