//! `cutoff solve pig|chance`: the games with chance nodes or more than two players, searched by
//! the engine's chance and n-player model ([`cutoff::multi`]).

use crate::position::{AnyAlgo, GameKind, GameOptions};
use crate::{AppError, Control, Outcome};
use cutoff::games::chance::pig::{Pig, MAX_HORIZON, MAX_WIN_SCORE};
use cutoff::games::chance::random_chance_tree::{Probs, RandomChanceTree};
use cutoff::multi::{
    BoundsTable, MultiAlgorithm, MultiGame, MultiResult, MultiSolver, MultiStats, Turn,
    MAX_OUTCOMES, MAX_PLAYERS,
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
    /// For the player to move at the root (player 0 at a chance root); null when the search
    /// was stopped before its first iteration finished.
    value: Option<f64>,
    /// One per player, in player order (null as `value`).
    values: Option<Vec<f64>>,
    exact: bool,
    /// The plies searched: the last finished iteration's depth limit, or for an exact value the
    /// deepest ply reached.
    depth_reached: usize,
    stopped: Option<&'static str>,
    best_move: Option<String>,
    nodes: u64,
    inner_nodes: u64,
    stats: MultiStats,
    table_mib: Option<usize>,
    time_ms: f64,
}

/// What `cutoff solve` finds on a game of the chance and n-player model, under `control`:
/// `g` the game, `s` the search's settings.
pub fn compute(
    g: &GameOptions,
    s: &crate::options::SearchOptions,
    control: Control<'_>,
) -> Result<Outcome, AppError> {
    let algo = match s.algo {
        None => None,
        Some(AnyAlgo::Multi(a)) => Some(a),
        Some(AnyAlgo::Two(a)) => {
            let names: Vec<&str> = MultiAlgorithm::ALL.iter().map(|a| a.name()).collect();
            return Err(AppError::invalid(format!(
                "{a} is a two-player search; {} has chance nodes: use {}",
                g.game,
                names.join(", ")
            )));
        }
    };
    if s.weak {
        return Err(AppError::invalid(format!(
            "\u{1}weak\u{2} is for two-player games, not {}",
            g.game
        )));
    }
    if s.threads.is_some_and(|t| t != 1) {
        return Err(AppError::invalid(format!(
            "the searches of {} run on one thread; leave out \u{1}threads\u{2}",
            g.game
        )));
    }
    // Options of the other game would be silently ignored: refuse them.
    let pig_only = [
        ("\u{1}players\u{2}", g.players.is_some()),
        ("\u{1}win_score\u{2}", g.win_score.is_some()),
        ("\u{1}faces\u{2}", g.faces.is_some()),
        ("\u{1}horizon\u{2}", g.horizon.is_some()),
        ("\u{1}piglet\u{2}", g.piglet),
    ];
    let chance_only = [
        ("\u{1}branching\u{2}", g.branching.is_some()),
        ("\u{1}outcomes\u{2}", g.outcomes.is_some()),
        ("\u{1}probs\u{2}", g.probs.is_some()),
    ];
    let foreign = match g.game {
        GameKind::Pig => chance_only.iter().find(|o| o.1),
        _ => pig_only.iter().find(|o| o.1),
    };
    if let Some((opt, _)) = foreign {
        return Err(AppError::invalid(format!(
            "{opt} is not an option of {}",
            g.game
        )));
    }
    if g.position.is_some() {
        return Err(AppError::invalid(format!(
            "{} takes no position: its options set the game up",
            g.game
        )));
    }
    match g.game {
        GameKind::Pig => {
            let horizon = g.horizon.ok_or_else(|| {
                AppError::invalid(
                    "pig needs \u{1}horizon\u{2} N: the moves after which the game is drawn",
                )
            })?;
            let players = count("players", g.players.unwrap_or(2), 2, MAX_PLAYERS as u32)?;
            let win = count("win score", g.win_score.unwrap_or(100), 1, MAX_WIN_SCORE)?;
            let faces = count("faces", g.faces.unwrap_or(6), 2, MAX_OUTCOMES as u32)?;
            let horizon = count("horizon", horizon, 0, MAX_HORIZON)?;
            let pig = Pig::new(players, win, faces, horizon, g.piglet)?;
            let name = format!(
                "{} ({} players, win score {}, {} {}, horizon {})",
                if g.piglet { "piglet" } else { "pig" },
                players,
                win,
                faces,
                if g.piglet {
                    "(tails 1 in faces)"
                } else {
                    "faces"
                },
                horizon
            );
            let position = pig.describe(&pig.initial());
            solve(&pig, name, position, algo, g, s, control)
        }
        _ => {
            let b = g
                .branching
                .ok_or_else(|| AppError::invalid("chance needs \u{1}branching\u{2} B"))?;
            let c = g.outcomes.ok_or_else(|| {
                AppError::invalid(
                    "chance needs \u{1}outcomes\u{2} C: the outcomes of each chance node",
                )
            })?;
            let d = g.depth.ok_or_else(|| {
                AppError::invalid("chance needs \u{1}depth\u{2} D: plies, chance levels included")
            })?;
            let probs: Probs = g.probs.as_deref().unwrap_or("uniform").parse()?;
            let tree = RandomChanceTree::new(b, c, d, g.seed, g.order, probs)?;
            let name = format!("chance ({})", tree.spec());
            solve(&tree, name, "root".into(), algo, g, s, control)
        }
    }
}

/// A Pig parameter in `lo..=hi`, or the one-line error naming it and its range.
fn count(what: &str, v: i64, lo: u32, hi: u32) -> Result<u32, AppError> {
    u32::try_from(v)
        .ok()
        .filter(|x| (lo..=hi).contains(x))
        .ok_or_else(|| AppError::invalid(format!("pig's {what} must be {lo} to {hi}, not {v}")))
}

/// Searches `game` from its start and makes the report.
fn solve<G: MultiGame>(
    game: &G,
    name: String,
    position: String,
    algo: Option<MultiAlgorithm>,
    g: &GameOptions,
    s: &crate::options::SearchOptions,
    control: Control<'_>,
) -> Result<Outcome, AppError> {
    // The fastest exact search by default: on Pig, Star1 with the table visits fewer nodes
    // than Star2 (12,140 against 15,204 on `--win-score 8 --horizon 10`, and fewer on every
    // Pig row of the chance sweep); on random chance trees Star2 saves the most.
    let two = match g.game {
        GameKind::Pig => MultiAlgorithm::Star1,
        _ => MultiAlgorithm::Star2,
    };
    let algo = algo.unwrap_or(if game.players() == 2 {
        two
    } else {
        MultiAlgorithm::Maxn
    });
    let mib = crate::options::table_mib(s.tt_mb)?;
    let table = if algo.uses_table() {
        Some(BoundsTable::try_new(mib)?)
    } else {
        None
    };
    let root = game.initial();
    // `--depth` sets up a chance tree; for Pig it limits the search.
    let depth = match g.game {
        GameKind::Pig => g.depth,
        _ => None,
    };
    let budget = s.time_ms.is_some() || s.nodes.is_some();
    let progress = cutoff::solver::Progress::new((-1, 1));
    let shows = crate::progress::Shows {
        window: false,
        depth: budget,
    };
    let start = Instant::now();
    let r = crate::progress::watch(&progress, control.display, shows, || {
        MultiSolver::new(game)
            .position(root)
            .algorithm(algo)
            .depth(depth)
            .nodes(s.nodes)
            .time(s.time_ms.map(Duration::from_millis))
            .stop_flag(control.stop)
            .progress(&progress)
            .table(table.as_ref())
            .run()
    })?;
    let time_ms = start.elapsed().as_secs_f64() * 1e3;
    let interrupted = control.stopped();
    // Stopped before one iteration finished, the search knows nothing of the value.
    let known = r.exact || r.depth > 0;
    let rep = MultiReport {
        game: name,
        position,
        algorithm: algo.name(),
        players: game.players(),
        value: known.then_some(clean(r.value)),
        values: known.then(|| r.values.as_slice().iter().map(|&v| clean(v)).collect()),
        exact: r.exact,
        depth_reached: if r.exact {
            r.stats.max_ply as usize
        } else {
            r.depth
        },
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
    let after = (interrupted && !budget).then(|| {
        AppError::invalid(format!(
            "interrupted after {} nodes, before the value was settled",
            rep.nodes
        ))
    });
    Ok(Outcome {
        text: format!("{}\n", text(&rep, &r, game.turn(&root))),
        json: serde_json::to_string(&rep).map_err(AppError::Json)?,
        after,
    })
}

/// The aligned text report.
fn text<M>(rep: &MultiReport, r: &MultiResult<M>, turn: Turn) -> String {
    let whose = match turn {
        Turn::Player(p) => format!("player {} to move", p + 1),
        Turn::Chance => "a chance node: player 1's value".into(),
        Turn::Terminal => "the game is over".into(),
    };
    let value = match rep.value {
        None => "unknown: stopped before the first iteration finished".to_string(),
        Some(v) if r.exact => format!("{} ({whose}; exact)", num(v)),
        Some(v) => format!(
            "{} ({whose}; depth-limited: searched {} plies, the positions at the depth limit \
             estimated; not the game's value)",
            num(v),
            rep.depth_reached
        ),
    };
    let values = match &rep.values {
        Some(vs) => format!(
            "({})",
            vs.iter().map(|&v| num(v)).collect::<Vec<_>>().join(", ")
        ),
        None => "unknown".into(),
    };
    let s = &rep.stats;
    let mut rows: Vec<(&str, String)> = vec![
        ("game", rep.game.clone()),
        ("position", rep.position.clone()),
        ("algorithm", rep.algorithm.to_string()),
        ("value", value),
        ("values", values),
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

/// `v` with a negative zero made positive (a zero-sum pair of draws is `(0, -0)`).
fn clean(v: f64) -> f64 {
    v + 0.0
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
