//! `cutoff solve pig|chance`: the games with chance nodes or more than two players, searched by
//! the engine's chance and n-player model ([`cutoff::multi`]).

use super::solve::Args;
use super::CliResult;
use crate::position::{AnyAlgo, GameKind};
use cutoff::games::pig::Pig;
use cutoff::games::random_chance_tree::{Probs, RandomChanceTree};
use cutoff::multi::{
    search, BoundsTable, MultiAlgorithm, MultiGame, MultiLimits, MultiResult, MultiStats, Turn,
};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The report, as `--json` prints it.
#[derive(Serialize)]
struct MultiReport {
    game: String,
    position: String,
    algorithm: &'static str,
    players: usize,
    /// For the player to move at the root (player 0 at a chance root).
    value: f64,
    /// One per player, in player order.
    values: Vec<f64>,
    exact: bool,
    depth_reached: usize,
    stopped: Option<&'static str>,
    best_move: Option<String>,
    nodes: u64,
    inner_nodes: u64,
    stats: MultiStats,
    table_mib: Option<usize>,
    time_ms: f64,
}

/// Runs `cutoff solve` on a game of the chance and n-player model.
pub fn run(args: &Args) -> CliResult {
    let g = &args.game;
    let algo = match args.algo {
        None => None,
        Some(AnyAlgo::Multi(a)) => Some(a),
        Some(AnyAlgo::Two(a)) => {
            return Err(format!(
                "{a} is a two-player search; {} has chance nodes: use expectiminimax, star1, \
                 star2, maxn, paranoid or brs",
                g.game
            ))
        }
    };
    if args.weak {
        return Err(format!("--weak is for two-player games, not {}", g.game));
    }
    if args.threads.is_some_and(|t| t != 1) {
        return Err(format!(
            "the searches of {} run on one thread; leave out --threads",
            g.game
        ));
    }
    match g.game {
        GameKind::Pig => {
            if g.position.is_some() {
                return Err("pig takes no position: its options set the game up".into());
            }
            let horizon = g
                .horizon
                .ok_or("pig needs --horizon N: the moves after which the game is drawn")?;
            let players = count("--players", g.players)?;
            let win = count("--win-score", g.win_score)?;
            let faces = count("--faces", g.faces)?;
            let horizon = count("--horizon", horizon)?;
            let pig = Pig::new(players, win, faces, horizon, g.piglet).map_err(|e| e.0)?;
            let name = format!(
                "{} ({} players, win score {}, {} {}, horizon {})",
                if g.piglet { "piglet" } else { "pig" },
                g.players,
                g.win_score,
                g.faces,
                if g.piglet {
                    "(tails 1 in faces)"
                } else {
                    "faces"
                },
                horizon
            );
            let position = pig.describe(&pig.initial());
            solve(&pig, name, position, algo, args)
        }
        _ => {
            if g.position.is_some() {
                return Err("chance takes no position: its options set the tree up".into());
            }
            let b = g.branching.ok_or("chance needs --branching B")?;
            let c = g
                .outcomes
                .ok_or("chance needs --outcomes C: the outcomes of each chance node")?;
            let d = g
                .depth
                .ok_or("chance needs --depth D: plies, chance levels included")?;
            let probs: Probs = g.probs.parse().map_err(|e: cutoff::GameError| e.0)?;
            let tree = RandomChanceTree::new(b, c, d, g.seed, g.order, probs).map_err(|e| e.0)?;
            let name = format!("chance ({})", tree.spec());
            solve(&tree, name, "root".into(), algo, args)
        }
    }
}

/// A count option as Pig takes it: negative values and values past `u32` are refused here,
/// in one line; Pig checks the range of the rest.
fn count(option: &str, v: i64) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| format!("{option} must be between 0 and {}, not {v}", u32::MAX))
}

/// Searches `game` from its start and prints the report.
fn solve<G: MultiGame>(
    game: &G,
    name: String,
    position: String,
    algo: Option<MultiAlgorithm>,
    args: &Args,
) -> CliResult {
    let algo = algo.unwrap_or(if game.players() == 2 {
        MultiAlgorithm::Star2
    } else {
        MultiAlgorithm::Maxn
    });
    let mib = super::table_mib(args.tt_mb)?;
    let table = if algo.uses_table() {
        Some(BoundsTable::try_new(mib)?)
    } else {
        None
    };
    let root = game.initial();
    // `--depth` sets up a chance tree; for Pig it limits the search.
    let depth = match args.game.game {
        GameKind::Pig => args.game.depth,
        _ => None,
    };
    let budget = args.time_ms.is_some() || args.nodes.is_some();
    let limits = MultiLimits {
        depth,
        nodes: args.nodes,
        time: args.time_ms.map(Duration::from_millis),
        stop: Some(crate::interrupt::install()),
        bounds: None,
    };
    let start = Instant::now();
    let r = search(game, &root, algo, &limits, table.as_ref()).map_err(|e| e.0)?;
    let time_ms = start.elapsed().as_secs_f64() * 1e3;
    let interrupted = crate::interrupt::interrupted();
    let rep = MultiReport {
        game: name,
        position,
        algorithm: algo.name(),
        players: game.players(),
        value: r.value,
        values: r.values.as_slice().to_vec(),
        exact: r.exact,
        depth_reached: r.depth,
        stopped: r
            .stopped
            .then_some(if interrupted { "interrupted" } else { "budget" }),
        best_move: r.best_move.map(|m| game.format_move(&root, m)),
        nodes: r.stats.nodes(),
        inner_nodes: r.stats.inner(),
        stats: r.stats,
        table_mib: table.as_ref().map(|_| mib),
        time_ms,
    };
    if args.json {
        let text = serde_json::to_string(&rep).map_err(|e| format!("cannot write JSON: {e}"))?;
        println!("{text}");
    } else {
        println!("{}", text(&rep, &r, game.turn(&root)));
    }
    if interrupted && !budget {
        return Err(format!(
            "interrupted after {} nodes, before the value was settled",
            rep.nodes
        ));
    }
    Ok(())
}

/// The aligned text report.
fn text<M>(rep: &MultiReport, r: &MultiResult<M>, turn: Turn) -> String {
    let whose = match turn {
        Turn::Player(p) => format!("player {} to move", p + 1),
        Turn::Chance => "a chance node: player 1's value".into(),
        Turn::Terminal => "the game is over".into(),
    };
    let value = if r.exact {
        format!("{} ({whose}; exact)", num(rep.value))
    } else {
        format!(
            "{} ({whose}; depth-limited: searched {} plies, evaluated at the horizon; not the \
             game's value)",
            num(rep.value),
            rep.depth_reached
        )
    };
    let values: Vec<String> = rep.values.iter().map(|&v| num(v)).collect();
    let s = &rep.stats;
    let mut rows: Vec<(&str, String)> = vec![
        ("game", rep.game.clone()),
        ("position", rep.position.clone()),
        ("algorithm", rep.algorithm.to_string()),
        ("value", value),
        ("values", format!("({})", values.join(", "))),
    ];
    if let Some(why) = rep.stopped {
        rows.push((
            "stopped",
            match why {
                "interrupted" => "interrupted (Ctrl-C or SIGTERM)".into(),
                _ => "the budget ran out".to_string(),
            },
        ));
    }
    rows.extend([
        (
            "best move",
            rep.best_move.clone().unwrap_or_else(|| "none".into()),
        ),
        (
            "nodes",
            format!(
                "{} ({} decision, {} chance, {} leaves)",
                rep.nodes, s.decision_nodes, s.chance_nodes, s.leaves
            ),
        ),
        (
            "cutoffs",
            format!(
                "{} decision, {} chance, {} probe, {} table",
                s.cutoffs, s.chance_cutoffs, s.probe_cutoffs, s.table_cutoffs
            ),
        ),
        ("max ply", s.max_ply.to_string()),
        ("time", format!("{:.3} ms", rep.time_ms)),
    ]);
    crate::output::aligned(&rows)
}

/// A value with up to 12 significant digits, without trailing zeros.
fn num(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let s = format!("{v:.12}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}
