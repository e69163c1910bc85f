//! `cutoff solve GAME [POSITION]`: solve a position, serially or in parallel, exactly or
//! under a budget, with progress on standard error.

use super::CliResult;
use crate::output::Report;
use crate::position::{AnyAlgo, AnyGame, Describe, GameArgs, GameVisitor};
use cutoff::parallel::{Mode, ParallelConfig};
use cutoff::search::Progress;
use cutoff::solver::{Solver, Stop};
use cutoff::{Algorithm, Notation};
use std::time::Duration;

/// The games `solve` knows, as the command line spells them.
/// Arguments of `cutoff solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The game, its position and the tree games' options.
    #[command(flatten)]
    pub game: GameArgs,
    /// Search algorithm (default: the game's fastest exact one; see docs/guide/solve.md). Two-player
    /// games: minimax, negamax, alphabeta, alphabeta-hard, veb, ab, pvs, mtdf, solve, theory.
    /// Pig and chance trees: expectiminimax, expectinegamax, star1, star2 (the default for two
    /// players), maxn (the default for more), maxn-plain, paranoid, brs.
    #[arg(long, value_parser = crate::position::parse_any_algo)]
    pub algo: Option<AnyAlgo>,
    /// Weak solving (win, draw or loss only) with the null-window solver.
    #[arg(long)]
    pub weak: bool,
    /// Transposition table size in MiB (pvs, mtdf, solve and budgeted searches).
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Time budget in milliseconds: iterative deepening with PVS, keeping the last finished depth.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node budget: iterative deepening with PVS, keeping the last finished depth (hard on
    /// one thread; a few percent over at most on several).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Threads for pvs, solve and budgets (default: one thread first, every core once the
    /// search proves large); 1 runs the serial search.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress line on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print a progress line on standard error every SECS seconds (for logs and batch jobs).
    #[arg(long, value_name = "SECS", value_parser = super::parse_seconds)]
    pub progress_every: Option<f64>,
    /// How the threads share the work: ybwc, abdada, lazysmp or root.
    #[arg(long, default_value = "ybwc", value_parser = parse_mode)]
    pub parallel: Mode,
    /// Where YBWC splits.
    #[command(flatten)]
    pub split: super::SplitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
}

/// Runs `cutoff solve`.
pub fn run(args: &Args) -> CliResult {
    if args.game.game.is_multi() {
        return super::solve_multi::run(args);
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
        depth,
        scale,
        default_algo: args.game.game.default_algorithm(),
    })
}

/// `solve`'s work, written once for every game.
struct Solve<'a> {
    args: &'a Args,
    depth: Option<usize>,
    scale: i32,
    default_algo: Algorithm,
}

impl GameVisitor for Solve<'_> {
    type Output = CliResult;
    fn visit<G: Describe>(self, game: &G) -> CliResult {
        report(game, self.args, self.depth, self.scale, self.default_algo)
    }
}

/// Searches the game's initial position and prints the report; `scale` turns the root value
/// into the reported one (+1, or -1 for trees with a MIN root).
fn report<G: Notation>(
    game: &G,
    args: &Args,
    depth: Option<usize>,
    scale: i32,
    default_algo: Algorithm,
) -> CliResult {
    let root = game.initial();
    let algo = match args.algo {
        None => default_algo,
        Some(AnyAlgo::Two(a)) => a,
        Some(AnyAlgo::Multi(a)) => {
            return Err(format!(
                "{a} searches games with chance nodes or more than two players (pig, chance, \
                 chance trees in files); {} is a two-player game",
                game.name()
            ))
        }
    };
    if args.weak && algo != Algorithm::Solve {
        return Err(format!("--weak needs --algo solve, not {algo}"));
    }
    let budget = args.time_ms.is_some() || args.nodes.is_some();
    if args.weak && budget {
        return Err("--weak cannot be combined with --time-ms or --nodes".into());
    }
    if budget && args.algo.is_some() && algo != Algorithm::Pvs {
        return Err(format!(
            "--time-ms and --nodes run iterative deepening with pvs, not {algo}"
        ));
    }
    let threads = super::thread_policy(args.threads)?;
    let uses_table = algo.uses_table() || budget;
    let progress = Progress::new(game.value_range());
    let mut solver = Solver::new(game)
        .algorithm(algo)
        .depth(depth)
        .weak(args.weak)
        .thread_policy(threads)
        .parallel(ParallelConfig {
            depth,
            ..args.split.config(args.parallel, args.weak)
        })
        .time(args.time_ms.map(Duration::from_millis))
        .nodes(args.nodes)
        .progress(&progress);
    // The table-driven searches poll the stop flag; the plain textbook ones run to the end,
    // so for them Ctrl-C keeps its usual meaning.
    if uses_table {
        solver = solver.stop_flag(crate::interrupt::install());
        solver = solver.table_mib(super::table_mib(args.tt_mb)?);
    } else {
        solver = solver.table_mib(1);
    }
    let display = crate::progress::Display::choose(args.quiet, args.progress_every);
    let shows = crate::progress::Shows {
        window: algo == Algorithm::Solve && !budget,
        depth: budget,
    };
    let out = crate::progress::watch(&progress, display, shows, || solver.run())
        .map_err(|e| e.to_string())?;
    let mut rep = Report::from_outcome(game, &root, &out, depth, scale);
    rep.weak = args.weak;
    if args.weak {
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
    if args.json {
        let text = serde_json::to_string(&rep).map_err(|e| format!("cannot write JSON: {e}"))?;
        println!("{text}");
    } else {
        println!("{}", rep.text());
    }
    if out.stopped == Some(Stop::Interrupted) && !budget {
        // An exact solve that did not finish: the report says what it proved; the status
        // says it was stopped.
        return Err(match rep.bounds {
            Some([lo, hi]) => format!(
                "interrupted after {} nodes, before the value was settled: it lies in [{lo}, {hi}]",
                out.stats.nodes
            ),
            None => format!("interrupted after {} nodes", out.stats.nodes),
        });
    }
    Ok(())
}
