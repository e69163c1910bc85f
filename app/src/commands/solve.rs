//! `cutoff solve GAME [POSITION]`: solve a position, serially or in parallel, exactly or
//! under a budget, with progress on standard error.

use crate::output::Report;
use crate::position::{AnyAlgo, AnyGame, Describe, GameOptions, GameVisitor};
use crate::{AppError, Control, Outcome};
use cutoff::solver::Progress;
use cutoff::solver::{Mode, ParallelConfig};
use cutoff::solver::{Solver, Stop};
use cutoff::Algorithm;
use std::time::Duration;

/// Arguments of `cutoff solve`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game, its position and the tree games' options.
    pub game: GameOptions,
    /// The search's settings, shared with the chance and n-player model's searches.
    pub search: crate::options::SearchOptions,
    /// How the threads share the work: ybwc, abdada, lazysmp or root.
    pub parallel: Mode,
    /// Where YBWC splits.
    pub split: crate::options::SplitOptions,
    /// Keeping the expensive table entries across runs.
    pub table: crate::options::TableFileOptions,
    /// Report how the nodes of each ply ended (one thread, a table-driven search, no
    /// budget; see [`cutoff::profile`]).
    pub profile: bool,
}

/// What `cutoff solve` finds, under `control`, before it is printed.
pub fn compute(args: &Options, control: Control<'_>) -> Result<Outcome, AppError> {
    run(args, control, None)
}

/// [`compute`] with the caller's transposition table instead of a fresh one of
/// `args.search.tt_mb` MiB (which is then only checked): the entries of earlier searches on it
/// answer this one's transpositions, and this one's stay for the next (the Python package's
/// `Solver`). The searches without a table, and the games with chance nodes or more than
/// two players (whose model keeps a table of another kind), run as [`compute`] runs them.
pub fn compute_in(
    args: &Options,
    control: Control<'_>,
    table: &cutoff::tt::TranspositionTable,
) -> Result<Outcome, AppError> {
    run(args, control, Some(table))
}

/// [`compute`], on `table` if given.
fn run(
    args: &Options,
    control: Control<'_>,
    table: Option<&cutoff::tt::TranspositionTable>,
) -> Result<Outcome, AppError> {
    if args.table.table_file_nodes == 0 {
        // The command's parser refuses 0 itself; a front end without one reaches this.
        return Err(AppError::invalid(
            "\u{1}table_file_nodes\u{2} must be at least 1",
        ));
    }
    if args.game.game.is_multi() {
        if args.profile {
            return Err(AppError::invalid(
                "\u{1}profile\u{2} profiles two-player searches; games with chance nodes or \
                 more than two players have another model",
            ));
        }
        return super::solve_multi::compute(&args.game, &args.search, control);
    }
    let game = AnyGame::parse(&args.game)?;
    // `--depth` is the search's depth limit, but for random trees the tree's own depth: the
    // search then goes to the leaves.
    let depth = match game {
        AnyGame::Random(_) => None,
        _ => args.game.depth,
    };
    let scale = game.scale();
    game.visit(Solve {
        args,
        control,
        table,
        depth,
        scale,
        default_algo: args.game.game.default_algorithm(),
    })
}

/// `solve`'s work, written once for every game.
struct Solve<'a> {
    args: &'a Options,
    control: Control<'a>,
    table: Option<&'a cutoff::tt::TranspositionTable>,
    depth: Option<usize>,
    scale: i32,
    default_algo: Algorithm,
}

impl GameVisitor for Solve<'_> {
    type Output = Result<Outcome, AppError>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        report(
            game,
            self.args,
            self.control,
            self.table,
            self.depth,
            self.scale,
            self.default_algo,
        )
    }
}

/// Searches the game's initial position and makes the report; `scale` turns the root value
/// into the reported one (+1, or -1 for trees with a MIN root); `table`, if given, is the
/// caller's, used instead of a fresh one.
fn report<G: Describe>(
    game: &G,
    args: &Options,
    control: Control<'_>,
    table: Option<&cutoff::tt::TranspositionTable>,
    depth: Option<usize>,
    scale: i32,
    default_algo: Algorithm,
) -> Result<Outcome, AppError> {
    let root = game.initial();
    let algo = match args.search.algo {
        None => default_algo,
        Some(AnyAlgo::Two(a)) => a,
        Some(AnyAlgo::Multi(a)) => {
            return Err(AppError::invalid(format!(
                "{a} searches games with chance nodes or more than two players (pig, chance, \
                 chance trees in files); {} is a two-player game",
                game.name()
            )))
        }
    };
    if args.search.weak && algo != Algorithm::Solve {
        return Err(AppError::invalid(format!(
            "\u{1}weak\u{2} needs \u{1}algo\u{2} solve, not {algo}"
        )));
    }
    let budget = args.search.time_ms.is_some() || args.search.nodes.is_some();
    if args.search.weak && budget {
        return Err(AppError::invalid(
            "\u{1}weak\u{2} cannot be combined with \u{1}time_ms\u{2} or \u{1}nodes\u{2}",
        ));
    }
    if budget && args.search.algo.is_some() && algo != Algorithm::Pvs {
        return Err(AppError::invalid(format!(
            "\u{1}time_ms\u{2} and \u{1}nodes\u{2} run iterative deepening with pvs, not {algo}"
        )));
    }
    if args.profile {
        if !algo.uses_table() {
            return Err(AppError::invalid(format!(
                "\u{1}profile\u{2} profiles the table-driven searches (pvs, mtdf, solve), \
                 not {algo}"
            )));
        }
        if budget {
            return Err(AppError::invalid(
                "\u{1}profile\u{2} cannot be combined with \u{1}time_ms\u{2} or \u{1}nodes\u{2}",
            ));
        }
        crate::options::profile_threads(true, args.search.threads)?;
    }
    let threads = crate::options::thread_policy(args.search.threads)?;
    let uses_table = algo.uses_table() || budget;
    let progress = Progress::new(game.value_range());
    let mut solver = Solver::new(game)
        .algorithm(algo)
        .depth(depth)
        .weak(args.search.weak)
        .thread_policy(threads)
        .parallel(ParallelConfig {
            depth,
            ..args.split.config(args.parallel, args.search.weak)
        })
        .time(args.search.time_ms.map(Duration::from_millis))
        .nodes(args.search.nodes)
        .profile(args.profile)
        .progress(&progress);
    // The table-driven searches poll the stop flag; the plain textbook ones run to the end,
    // so for them Ctrl-C keeps its usual meaning.
    let kept;
    let mut table_file = None;
    if uses_table {
        solver = solver.stop_flag(control.stop);
        let mib = crate::options::table_mib(args.search.tt_mb)?;
        if let Some(given) = table {
            table_file = args.table.open(game.name(), game.table_identity(), given)?;
            solver = solver.table(given);
        } else if args.table.table_file.is_some() {
            // The file's entries go into a table made here, before the search starts.
            kept = cutoff::tt::TranspositionTable::try_new(mib)?;
            table_file = args.table.open(game.name(), game.table_identity(), &kept)?;
            solver = solver.table(&kept);
        } else {
            solver = solver.table_mib(mib);
        }
    } else if args.table.table_file.is_some() {
        return Err(AppError::invalid(format!(
            "\u{1}table_file\u{2} needs a search with a table, not {algo}"
        )));
    } else {
        solver = solver.table_mib(1);
    }
    if let Some(t) = &table_file {
        solver = solver.keep(t.recorder.keep());
    }
    let shows = crate::progress::Shows {
        window: algo == Algorithm::Solve && !budget,
        depth: budget,
    };
    let out = crate::progress::watch(&progress, control.display, shows, || solver.run());
    // What the search found is written out even if it failed or was stopped.
    let table_report = match table_file {
        Some(t) => {
            let done = t.recorder.finish()?;
            Some(crate::output::TableFileReport {
                loaded: t.loaded.entries,
                torn: t.loaded.torn,
                written: done.written,
                dropped: done.dropped,
            })
        }
        None => None,
    };
    let out = out?;
    let mut rep = Report::from_outcome(game, &root, &out, depth, scale);
    rep.board = game.board();
    rep.table_file = table_report;
    rep.weak = args.search.weak;
    if args.search.weak {
        // A weak value is a sign, not a score: say only who wins.
        rep.explained = rep.value.map(|v| {
            match v.signum() {
                1 => "win",
                -1 => "loss",
                _ => "draw",
            }
            .to_string()
        });
    }
    if out.threads > 1 {
        rep.parallel = Some(args.parallel.name().to_string());
    }
    // An exact solve that did not finish: the report says what it proved; the status says
    // it was stopped.
    let after =
        (out.stopped == Some(Stop::Interrupted) && !budget).then(|| AppError::Interrupted {
            nodes: out.stats.nodes,
            before: rep
                .bounds
                .map(|[lo, hi]| format!("the value was settled: it lies in [{lo}, {hi}]")),
        });
    Ok(Outcome {
        text: format!("{}\n", rep.text()),
        json: serde_json::to_string(&rep).map_err(AppError::Json)?,
        after,
    })
}
