//! `cutoff suite FILE`: solve every Connect Four position of a test set and check its score.

use crate::position::{with_shape, Describe, ShapeOptions, ShapeVisitor};
use crate::suite::{run_suite, SuiteOptions};
use crate::{AppError, Outcome};
use cutoff::games::perfect::connect4::{parse_suite_on, suite_shape, Connect4, Geometry};
use cutoff::solver::Mode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Told after each position: the positions done, and how many the run solves.
pub type OnPosition<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Arguments of `cutoff suite`.
#[derive(Clone, Debug)]
pub struct Options {
    /// A file of `<moves> <score>` lines (see positions/connect4/), at most 16 MiB. A set
    /// for another board says so in a comment line before its first position:
    /// `# board WxH`, or `# board WxH/K` for K in a row.
    pub file: String,
    /// The board (the file's header, if it has one, else 7x6 with four in a row).
    pub shape: ShapeOptions,
    /// Weak solving: check only win, draw or loss.
    pub weak: bool,
    /// Threads searching each position (default: every core, but each position starts on one
    /// thread and goes parallel only once it proves large); 1 runs the serial solver.
    pub threads: Option<usize>,
    /// How the threads share the work: ybwc, abdada, lazysmp or root.
    pub parallel: Mode,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Where YBWC splits.
    pub split: crate::options::SplitOptions,
    /// Keep one table warm across the whole run instead of starting every position from an
    /// empty one (the serial solver's killers and history are kept too).
    pub keep_table: bool,
    /// Solve only the first N positions (at least 1).
    pub limit: Option<usize>,
    /// Report how the nodes of each ply ended, over all the positions (one thread; see
    /// [`cutoff::profile`]).
    pub profile: bool,
}

/// `suite --json`: the summary's fields, the file, its board (absent for 7x6 with four in a
/// row), and the positions whose score differed.
#[derive(serde::Serialize)]
struct SuiteJson<'a> {
    #[serde(flatten)]
    summary: &'a crate::suite::SuiteSummary,
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    wrong: &'a [&'a crate::suite::PositionResult],
}

/// Runs `cutoff suite`: its report (text and JSON), and the error after it if a score was
/// wrong; `on_position` is told as each position is solved.
pub fn run(args: &Options, on_position: OnPosition<'_>) -> Result<Outcome, AppError> {
    if args.limit == Some(0) {
        return Err(AppError::invalid("\u{1}limit\u{2} must be at least 1"));
    }
    let text = crate::files::read_file(&args.file)?;
    let in_file = |e: cutoff::game::GameError| AppError::InFile {
        path: args.file.clone(),
        source: Box::new(e.into()),
    };
    let header = suite_shape(&text).map_err(in_file)?;
    let shape = args
        .shape
        .or_file(&args.file, header)
        .map_err(AppError::invalid)?;
    with_shape(
        shape,
        Suite {
            args,
            text: &text,
            on_position,
        },
    )?
}

/// The run, written once for every board.
struct Suite<'a> {
    args: &'a Options,
    text: &'a str,
    on_position: OnPosition<'a>,
}

impl ShapeVisitor for Suite<'_> {
    type Output = Result<Outcome, AppError>;
    fn visit<G: Geometry>(self, start: Connect4<G>) -> Self::Output
    where
        Connect4<G>: Describe,
    {
        run_on(self.args, self.text, &start, self.on_position)
    }
}

/// Solves the set `text` on `start`'s board.
fn run_on<G: Geometry>(
    args: &Options,
    text: &str,
    start: &Connect4<G>,
    on_position: OnPosition<'_>,
) -> Result<Outcome, AppError>
where
    Connect4<G>: Describe,
{
    let mut lines = parse_suite_on(text, start).map_err(|e| AppError::InFile {
        path: args.file.clone(),
        source: Box::new(e.into()),
    })?;
    if let Some(n) = args.limit {
        lines.truncate(n);
    }
    crate::options::profile_threads(args.profile, args.threads)?;
    // A profile is taken on one thread, the automatic choice included.
    let threads = if args.profile {
        1
    } else {
        crate::options::threads(args.threads)?
    };
    crate::options::table_mib(args.tt_mb)?;
    let opts = SuiteOptions {
        threads,
        auto_threads: args.threads.is_none() && !args.profile,
        tt_mib: args.tt_mb,
        parallel: args.split.config(args.parallel, args.weak),
        keep_table: args.keep_table,
        profile: args.profile,
    };
    let (total, done) = (lines.len(), AtomicUsize::new(0));
    let (results, summary) = run_suite(start, &lines, opts, &|| {
        on_position(done.fetch_add(1, Relaxed) + 1, total)
    })?;
    let board = Describe::board(start);
    let wrong: Vec<_> = results.iter().filter(|r| r.value != r.expected).collect();
    let json = serde_json::to_string(&SuiteJson {
        summary: &summary,
        file: &args.file,
        board: board.clone(),
        wrong: &wrong,
    })
    .map_err(AppError::Json)?;
    let mut text = String::new();
    for r in &wrong {
        text.push_str(&format!(
            "MISMATCH line {}: {} gave {} expected {}\n",
            r.line, r.moves, r.value, r.expected
        ));
    }
    text.push_str(&format!(
            "{}{}: {} positions, {} mismatches, mean {:.0} nodes{}, mean {:.1} us, {:.0} K nodes/s, first-move cutoffs {:.1}%, {} ({} thread{}, {}{})",
            args.file,
            board.map(|b| format!(" ({b})")).unwrap_or_default(),
            summary.positions,
            summary.mismatches,
            summary.mean_nodes,
            if summary.mean_forced > 0.0 {
                format!(" (+{:.0} forced)", summary.mean_forced)
            } else {
                String::new()
            },
            summary.mean_us,
            summary.knps,
            100.0 * summary.first_move_cutoff_rate,
            if summary.keep_table {
                "one table kept warm".to_string()
            } else {
                format!("fresh table per position, resets {:.0} us", summary.reset_us)
            },
            summary.threads,
            if summary.threads == 1 { "" } else { "s" },
            summary.mode,
            if summary.weak { ", weak" } else { "" }
        ));
    text.push('\n');
    if let Some(p) = &summary.profile {
        text.push_str(
            "\nprofile: how the nodes of each ply from the root ended, all positions together\n",
        );
        text.push_str(&p.table());
    }
    let after = (summary.mismatches > 0).then(|| {
        AppError::invalid(format!(
            "{} of {} positions gave the wrong score",
            summary.mismatches, summary.positions
        ))
    });
    Ok(Outcome { text, json, after })
}
