//! Connect Four position suites: files of `<moves> <score>` lines, solved one by one and
//! checked against their expected scores.

use cutoff::advanced::parallel_search;
use cutoff::advanced::{Limits, NoObserver, Observer, Searcher};
use cutoff::game::{Game, Value};
use cutoff::games::perfect::connect4::{Connect4, Geometry, SuiteLine};
use cutoff::profile::Profile;
use cutoff::solver::AUTO_SERIAL_NODES;
use cutoff::solver::{Mode, ParallelConfig};
use cutoff::tt::{TranspositionTable, TtStats};
use cutoff::Algorithm;
use serde::Serialize;
use std::time::Instant;

/// The outcome of one position.
#[derive(Clone, Debug, Serialize)]
pub struct PositionResult {
    /// 1-based line number.
    pub line: usize,
    /// The move string.
    pub moves: String,
    /// The score found (its sign only when weak).
    pub value: Value,
    /// The score expected (its sign only when weak).
    pub expected: Value,
    /// Nodes searched.
    pub nodes: u64,
    /// Positions passed through statically on forced lines, not counted in `nodes`.
    pub forced: u64,
    /// Nodes whose moves were searched (see `cutoff::Stats::searched`).
    pub searched: u64,
    /// Fail-high cutoffs, and those made by the first move tried.
    pub cutoffs: (u64, u64),
    /// Wall time in microseconds.
    pub micros: f64,
}

/// A suite's totals.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteSummary {
    /// Positions solved.
    pub positions: usize,
    /// Positions whose score differed from the expected one.
    pub mismatches: usize,
    /// Mean nodes per position.
    pub mean_nodes: f64,
    /// Mean positions passed through statically on forced lines (not in `mean_nodes`).
    pub mean_forced: f64,
    /// Mean nodes whose moves were searched (see `cutoff::Stats::searched`): the nodes
    /// Steininger's solver counts.
    pub mean_searched: f64,
    /// Mean wall time per position, microseconds.
    pub mean_us: f64,
    /// Thousands of nodes per second over the whole run.
    pub knps: f64,
    /// Share of cutoffs made by the first move tried, over all positions.
    pub first_move_cutoff_rate: f64,
    /// Threads per position.
    pub threads: usize,
    /// How they shared the work ("serial" with one thread).
    pub mode: &'static str,
    /// Weak (win/draw/loss) solving.
    pub weak: bool,
    /// Table counters.
    pub tt: TtStats,
    /// Whether one table (and one serial searcher's move-ordering state) stayed warm across
    /// the run instead of every position starting from an empty one.
    pub keep_table: bool,
    /// Total microseconds spent emptying the table (and the serial searcher's killers and
    /// history) between positions, outside the timed searches; 0 with `keep_table`.
    pub reset_us: f64,
    /// How the nodes of each ply ended, every position's added up ply by ply from its
    /// root, when [`SuiteOptions::profile`] asked for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<crate::profile::ProfileReport>,
}

/// How a suite is run.
#[derive(Clone, Copy, Debug)]
pub struct SuiteOptions {
    /// Threads searching each position (1: the serial solver).
    pub threads: usize,
    /// Automatic threads: each position starts on one thread and goes parallel (on
    /// `threads`) only once it has taken [`AUTO_SERIAL_NODES`] nodes.
    pub auto_threads: bool,
    /// Table size in MiB, one table for the whole run.
    pub tt_mib: usize,
    /// How the threads share the work, and weak or exact solving (`weak` applies to the
    /// serial solver too; the suite never asks for moves).
    pub parallel: ParallelConfig,
    /// Keep the table (and the serial searcher's killers and history) warm from one
    /// position to the next. Off, every position starts from an empty table, as the
    /// reference solvers' published figures do, so its node count does not depend on the
    /// positions before it.
    pub keep_table: bool,
    /// Profile the searches (see [`cutoff::profile`]): one thread only.
    pub profile: bool,
}

/// Why a test set's run failed.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The table could not be allocated.
    #[error(transparent)]
    Table(#[from] cutoff::tt::TableError),
    /// The threads could not be started.
    #[error(transparent)]
    Pool(#[from] crate::analysis::PoolError),
    /// The serial search stopped with neither a time nor a node limit (a bug).
    #[error("the serial search stopped without a limit")]
    StoppedWithoutLimit,
    /// A profile was asked for with more than one thread.
    #[error("a profile is taken on one thread")]
    ProfileThreads,
}

/// Solves every line of a set for `game`'s board with the null-window solver, one position
/// after the other, each with
/// `threads` threads, in one table that is emptied before every position (in constant time,
/// see [`TranspositionTable::reset`], and outside the timed search) unless
/// `opts.keep_table`; `progress` is called after each position. Returns the per-position
/// results in file order and the summary.
pub fn run_suite<G: Geometry>(
    game: &Connect4<G>,
    lines: &[SuiteLine<G>],
    opts: SuiteOptions,
    progress: &(dyn Fn() + Sync),
) -> Result<(Vec<PositionResult>, SuiteSummary), SuiteError> {
    if !opts.profile {
        return run_observed(game, lines, opts, progress, NoObserver).map(|(r, s, _)| (r, s));
    }
    if opts.threads > 1 {
        return Err(SuiteError::ProfileThreads);
    }
    let (results, mut summary, profile) =
        run_observed(game, lines, opts, progress, Profile::default())?;
    summary.profile = Some(crate::profile::ProfileReport::new(&profile));
    Ok((results, summary))
}

/// [`run_suite`] with the serial searcher reporting to `obs`, returned at the end.
fn run_observed<G: Geometry, O: Observer<Connect4<G>>>(
    game: &Connect4<G>,
    lines: &[SuiteLine<G>],
    opts: SuiteOptions,
    progress: &(dyn Fn() + Sync),
    obs: O,
) -> Result<(Vec<PositionResult>, SuiteSummary, O), SuiteError> {
    let tt = TranspositionTable::try_new(opts.tt_mib)?;
    // A large table's pages are zeroed by the kernel when first touched (see the table):
    // touch them all now, before any clock starts, or the first positions' times pay for it
    // (End-Easy, one thread: 4.5 us a position against 1.8 us).
    tt.clear();
    let mut serial = Searcher::with_observer(game, game.initial(), None, obs)
        .table(&tt)
        .weak(opts.parallel.weak)
        .want_move(false);
    let pool = if opts.threads > 1 {
        Some(crate::analysis::pool(opts.threads)?)
    } else {
        None
    };
    let config = ParallelConfig {
        want_move: false,
        depth: None,
        ..opts.parallel
    };
    let mut results = Vec::with_capacity(lines.len());
    let mut tt_total = TtStats::default();
    let mut reset_us = 0.0;
    for l in lines {
        // The reset is timed apart from the search: `t0` ends the one and starts the other.
        let r0 = (!opts.keep_table).then(|| {
            let r0 = Instant::now();
            tt.reset();
            if pool.is_none() {
                // Killers and history learnt on the previous position go too. (The parallel
                // search's workers start with fresh ones every search.)
                serial.clear_ordering();
            }
            r0
        });
        let t0 = Instant::now();
        if let Some(r0) = r0 {
            reset_us += (t0 - r0).as_secs_f64() * 1e6;
        }
        // Automatic threads: one thread first; only a position still unsolved after
        // `AUTO_SERIAL_NODES` goes parallel, with the table the serial start filled.
        let serial_first = pool.is_none() || opts.auto_threads;
        let mut done = None;
        let mut start_stats = cutoff::Stats::default();
        if serial_first {
            serial.set_root(l.game.board(), None);
            serial.set_limits(Limits {
                nodes: (pool.is_some()).then_some(AUTO_SERIAL_NODES),
                ..Limits::default()
            });
            let (value, _) = serial.run(Algorithm::Solve);
            start_stats = serial.stats();
            if !serial.stopped() {
                done = Some((value, start_stats));
            }
        }
        let (value, stats) = match (done, &pool) {
            (Some(d), _) => d,
            (None, Some(pool)) => {
                let r = parallel_search(
                    game,
                    l.game.board(),
                    Algorithm::Solve,
                    &tt,
                    pool,
                    config,
                    Limits::default(),
                );
                tt_total.add(&r.tt);
                let mut stats = r.stats;
                // The serial start's nodes count too.
                stats.add(&start_stats);
                (r.value, stats)
            }
            (None, None) => return Err(SuiteError::StoppedWithoutLimit),
        };
        let micros = t0.elapsed().as_secs_f64() * 1e6;
        let expected = if opts.parallel.weak {
            l.expected.signum()
        } else {
            l.expected
        };
        results.push(PositionResult {
            line: l.line,
            moves: l.moves.clone(),
            value,
            expected,
            nodes: stats.nodes,
            forced: stats.forced,
            searched: stats.searched,
            cutoffs: (stats.cutoffs, stats.first_move_cutoffs),
            micros,
        });
        progress();
    }
    tt_total.add(&serial.tt_stats());
    let n = results.len().max(1) as f64;
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    let summary = SuiteSummary {
        positions: results.len(),
        mismatches: results.iter().filter(|r| r.value != r.expected).count(),
        mean_nodes: nodes as f64 / n,
        mean_forced: results.iter().map(|r| r.forced).sum::<u64>() as f64 / n,
        mean_searched: results.iter().map(|r| r.searched).sum::<u64>() as f64 / n,
        mean_us: results.iter().map(|r| r.micros).sum::<f64>() / n,
        // Over the timed searches only, so that it equals mean_nodes / mean_us (resets and
        // bookkeeping between positions are not search time).
        knps: nodes as f64 / results.iter().map(|r| r.micros).sum::<f64>().max(1e-9) * 1e3,
        first_move_cutoff_rate: {
            let (c, f) = results
                .iter()
                .fold((0, 0), |(c, f), r| (c + r.cutoffs.0, f + r.cutoffs.1));
            f as f64 / c.max(1) as f64
        },
        threads: opts.threads,
        mode: match (opts.threads > 1, opts.auto_threads, opts.parallel.mode) {
            (false, _, _) => "serial",
            (true, false, m) => m.name(),
            (true, true, Mode::Ybwc) => "serial first, then ybwc",
            (true, true, Mode::LazySmp) => "serial first, then lazysmp",
            (true, true, Mode::Root) => "serial first, then root",
            (true, true, Mode::Abdada) => "serial first, then abdada",
        },
        weak: opts.parallel.weak,
        tt: tt_total,
        keep_table: opts.keep_table,
        reset_us,
        profile: None,
    };
    Ok((results, summary, serial.into_observer()))
}
