//! `cutoff solve GAME [POSITION]`: solve a position with one of the serial searches.

use crate::output::Report;
use super::{read_file, CliResult};
use cutoff::games::connect4::Connect4;
use cutoff::games::control::Control;
use cutoff::games::random_tree::{Order, RandomTree};
use cutoff::games::sim::Sim;
use cutoff::games::takeaway::TakeAway;
use cutoff::games::tictactoe::TicTacToe;
use cutoff::games::tree::Tree;
use cutoff::parallel::{parallel_iterative_deepening, parallel_search, Mode, ParallelConfig};
use cutoff::search::{iterative_deepening, Limits};
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Notation, Player, SearchResult, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The games `solve` knows, as the command line spells them.
const GAMES: &str = "matchsticks, stones, tictactoe, control, tree, random, connect4, sim";

/// Games too large for the plain searches: they default to the null-window solver.
const SOLVER_GAMES: [&str; 2] = ["connect4", "sim"];

/// Arguments of `cutoff solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: matchsticks, stones, tictactoe, control, tree, random, connect4 or sim.
    pub game: String,
    /// The position: the number of items (matchsticks, stones), a board of 9 cells
    /// (tictactoe, optional), an adjacency matrix as rows joined by '/' or a file holding it
    /// (control), a tree file (tree), the columns played so far (connect4, optional), the
    /// edges coloured so far like "12 34" (sim, optional).
    /// Not used by random.
    pub position: Option<String>,
    /// Search algorithm: minimax, negamax, alphabeta, alphabeta-hard, veb, ab, pvs, mtdf,
    /// solve. Default: solve for connect4 and sim, alphabeta otherwise.
    #[arg(long, value_parser = parse_algo)]
    pub algo: Option<Algorithm>,
    /// Weak solving (win, draw or loss only) with the null-window solver.
    #[arg(long)]
    pub weak: bool,
    /// Transposition table size in MiB (pvs, mtdf, solve and budgeted searches).
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Time budget in milliseconds: iterative deepening with PVS, keeping the last finished depth.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node budget: iterative deepening with PVS, keeping the last finished depth.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Threads for pvs and solve (default: all cores); 1 runs the serial search.
    #[arg(long)]
    pub threads: Option<usize>,
    /// How the threads share the work: ybwc, lazysmp or root.
    #[arg(long, default_value = "ybwc", value_parser = parse_mode)]
    pub parallel: Mode,
    /// Where YBWC splits.
    #[command(flatten)]
    pub split: super::SplitArgs,
    /// Depth limit in plies (default: to the end of the game). For random trees: the tree's depth.
    #[arg(long)]
    pub depth: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Random trees: branching factor.
    #[arg(long)]
    pub branching: Option<usize>,
    /// Random trees: seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random trees: move ordering (random, best-first, worst-first).
    #[arg(long, default_value = "random", value_parser = parse_order)]
    pub order: Order,
    /// Trees: whether the root is a MAX or a MIN node.
    #[arg(long, default_value = "max", value_parser = parse_root)]
    pub root: Player,
}

fn parse_algo(s: &str) -> Result<Algorithm, String> {
    s.parse()
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
}

fn parse_order(s: &str) -> Result<Order, String> {
    s.parse().map_err(|e: cutoff::GameError| e.to_string())
}

/// Reads `max` or `min` as the root's player.
pub fn parse_root(s: &str) -> Result<Player, String> {
    match s {
        "max" => Ok(Player::First),
        "min" => Ok(Player::Second),
        _ => Err(format!("unknown root kind '{s}' (expected max or min)")),
    }
}

/// Runs `cutoff solve`.
pub fn run(args: &Args) -> CliResult {
    let needs = |what: &str| -> Result<&str, String> {
        args.position
            .as_deref()
            .ok_or_else(|| format!("{} needs {what}", args.game))
    };
    let no_position = || -> CliResult {
        match &args.position {
            Some(p) => Err(format!("{} takes no position, got '{p}'", args.game)),
            None => Ok(()),
        }
    };
    match args.game.as_str() {
        "matchsticks" => {
            let n = parse_count(needs("the number of sticks, e.g. 6")?, "sticks")?;
            report(
                &TakeAway::matchsticks(n).map_err(|e| e.0)?,
                args,
                args.depth,
                1,
            )
        }
        "stones" => {
            let n = parse_count(needs("the number of stones, e.g. 4")?, "stones")?;
            report(&TakeAway::stones(n).map_err(|e| e.0)?, args, args.depth, 1)
        }
        "tictactoe" => {
            let game = match &args.position {
                Some(board) => TicTacToe::from_board(board).map_err(|e| e.0)?,
                None => TicTacToe::new(),
            };
            report(&game, args, args.depth, 1)
        }
        "control" => {
            let spec = needs("an adjacency matrix (rows joined by '/') or a file holding one")?;
            let text = if std::path::Path::new(spec).is_file() {
                read_file(spec)?
            } else {
                spec.to_string()
            };
            report(
                &Control::parse(&text).map_err(|e| e.0)?,
                args,
                args.depth,
                1,
            )
        }
        "tree" => {
            let file = needs("a tree file")?;
            let tree = Tree::parse(&read_file(file)?, args.root).map_err(|e| e.0)?;
            // Trees report values in the leaf scale, MAX's point of view.
            let scale = tree.root_side().sign();
            report(&tree, args, args.depth, scale)
        }
        "connect4" => {
            let game =
                Connect4::from_moves(args.position.as_deref().unwrap_or("")).map_err(|e| e.0)?;
            report(&game, args, args.depth, 1)
        }
        "sim" => {
            let game = Sim::from_moves(args.position.as_deref().unwrap_or("")).map_err(|e| e.0)?;
            report(&game, args, args.depth, 1)
        }
        "random" => {
            no_position()?;
            let b = args
                .branching
                .ok_or("random needs --branching B (and --depth D)")?;
            let d = args
                .depth
                .ok_or("random needs --depth D (and --branching B)")?;
            let tree = RandomTree::new(b, d, args.seed, args.order).map_err(|e| e.0)?;
            // For random trees --depth is the tree's depth; the search goes to the leaves.
            report(&tree, args, None, 1)
        }
        other => Err(format!("unknown game '{other}' (expected one of: {GAMES})")),
    }
}

fn parse_count(text: &str, what: &str) -> Result<u32, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("invalid number of {what} '{text}' (expected a non-negative integer)"))
}

/// Searches the game's initial position and prints the report; `scale` turns the root value
/// into the reported one (+1, or -1 for trees with a MIN root).
fn report<G: Notation>(game: &G, args: &Args, depth: Option<usize>, scale: i32) -> CliResult {
    let root = game.initial();
    let default_algo = if SOLVER_GAMES.contains(&game.name()) {
        Algorithm::Solve
    } else {
        Algorithm::AlphaBeta
    };
    let algo = args.algo.unwrap_or(default_algo);
    if args.weak && algo != Algorithm::Solve {
        return Err(format!("--weak needs --algo solve, not {algo}"));
    }
    if args.tt_mb == 0 || args.tt_mb > 1 << 20 {
        return Err(format!(
            "--tt-mb must be between 1 and 1048576, got {}",
            args.tt_mb
        ));
    }
    let budget = args.time_ms.is_some() || args.nodes.is_some();
    let threads = super::threads(args.threads)?;
    // Iterative deepening (a budget) is PVS underneath, so it runs in parallel too.
    let parallel = threads > 1 && (budget || matches!(algo, Algorithm::Solve | Algorithm::Pvs));
    let config = ParallelConfig {
        depth,
        ..args.split.config(args.parallel, args.weak)
    };
    let pool = || {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))
    };

    let table = (algo.uses_table() || budget).then(|| TranspositionTable::new(args.tt_mb));
    // The table-driven searches poll a stop flag; the plain textbook ones run to the end, so
    // for them Ctrl-C keeps its usual meaning.
    let quiet = AtomicBool::new(false);
    let stop: &AtomicBool = if algo.uses_table() || budget {
        crate::interrupt::install()
    } else {
        &quiet
    };
    let unsettled = |nodes: u64| {
        format!(
            "interrupted after {nodes} nodes, before the value was settled (--time-ms or --nodes \
             run iterative deepening, which reports its last finished depth)"
        )
    };
    let start = Instant::now();
    let mut extra = serde_json::Map::new();
    if parallel {
        extra.insert("threads".into(), threads.into());
        extra.insert("parallel".into(), args.parallel.name().into());
    }
    let result = if budget {
        let limits = Limits {
            nodes: args.nodes,
            deadline: args.time_ms.map(|ms| start + Duration::from_millis(ms)),
            stop: Some(stop),
        };
        let tt = table.as_ref().expect("a budget always gets a table");
        let d = if parallel {
            parallel_iterative_deepening(game, root, tt, &pool()?, config, limits, depth)
        } else {
            iterative_deepening(game, root, tt, limits, depth)
        };
        let Some(last) = d.last else {
            return Err(if crate::interrupt::interrupted() {
                "interrupted before the first iteration finished".into()
            } else {
                "the budget ran out before the first iteration finished".into()
            });
        };
        if crate::interrupt::interrupted() {
            extra.insert("interrupted".into(), true.into());
        }
        extra.insert("depth_reached".into(), last.depth.into());
        extra.insert("exact".into(), last.exact.into());
        SearchResult {
            value: last.value,
            best_move: last.best_move,
            pv: last.pv,
            stats: d.stats,
            algo: Algorithm::Pvs,
        }
    } else if parallel {
        let tt = table.as_ref().expect("pvs and solve always get a table");
        let pool = pool()?;
        let limits = Limits {
            stop: Some(stop),
            ..Limits::default()
        };
        let r = parallel_search(game, root, algo, tt, &pool, config, limits);
        if r.stopped {
            return Err(unsettled(r.stats.nodes));
        }
        extra.insert("nodes_per_thread".into(), r.nodes_per_thread.clone().into());
        SearchResult {
            value: r.value,
            best_move: r.best_move,
            pv: r.pv,
            stats: r.stats,
            algo,
        }
    } else {
        let mut s = Searcher::new(game, root, depth)
            .weak(args.weak)
            .with_limits(Limits {
                stop: Some(stop),
                ..Limits::default()
            });
        if let Some(tt) = &table {
            s = s.with_table(tt);
        }
        let (value, best_move) = s.run(algo);
        if s.stopped() {
            return Err(unsettled(s.stats().nodes));
        }
        SearchResult {
            value,
            best_move,
            pv: s.pv().to_vec(),
            stats: s.stats(),
            algo,
        }
    };
    let time_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut rep = Report::new(game, &root, &result, depth, time_ms);
    rep.value *= scale;
    if args.weak {
        extra.insert("weak".into(), true.into());
    }
    if args.json {
        let mut obj = serde_json::to_value(&rep).map_err(|e| format!("cannot write JSON: {e}"))?;
        if let serde_json::Value::Object(map) = &mut obj {
            map.extend(extra);
        }
        println!("{obj}");
    } else {
        println!("{}", rep.text());
        for (k, v) in extra {
            println!("{:<10} {v}", format!("{k}:"));
        }
    }
    Ok(())
}
