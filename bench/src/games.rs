//! The sweep's comparison on real games at fixed depth: tic-tac-toe (the whole tree), Connect
//! Four at depths 8 to 14, control-game graphs. Real trees are not uniform, so each count is
//! set against minimax's on the same search (when minimax ran) instead of `b^d`.

use crate::measure::{measure, Measured};
use crate::positions::{connect4_midgame, control_graphs, CONNECT4_MIDGAME};
use crate::table::{sig3, Table};
use crate::theory::effective_branching;
use cutoff::games::perfect::connect4::Connect4;
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Notation};
use serde::Serialize;

/// The algorithms compared on every game.
pub const ALGORITHMS: [Algorithm; 4] = [
    Algorithm::Minimax,
    Algorithm::AlphaBeta,
    Algorithm::Pvs,
    Algorithm::Mtdf,
];

/// One search of one game position.
#[derive(Clone, Debug, Serialize)]
pub struct GameRow {
    /// The game.
    pub game: &'static str,
    /// The position's name.
    pub position: String,
    /// The depth limit (`None`: to the end of the game).
    pub depth: Option<usize>,
    /// The algorithm.
    pub algorithm: &'static str,
    /// The root value.
    pub value: i32,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time, milliseconds.
    pub time_ms: f64,
    /// Deepest ply reached.
    pub max_ply: u32,
    /// Effective branching factor, `leaves^(1/plies)` over the depth limit (or, to the end of
    /// the game, the deepest ply minimax reached).
    pub ebf: f64,
    /// Leaves over minimax's leaves on the same search, when minimax ran.
    pub vs_minimax: Option<f64>,
}

/// What the comparison carries from one position to the next.
struct Runner<'a> {
    max_leaves: f64,
    tt: TranspositionTable,
    out: Vec<GameRow>,
    progress: &'a mut dyn FnMut(&GameRow),
}

impl Runner<'_> {
    /// Searches one position with every algorithm; minimax is left out when
    /// `minimax_estimate` (its expected leaves) is over the cap.
    fn compare_on<G: Notation>(
        &mut self,
        game: &G,
        position: &str,
        depth: Option<usize>,
        minimax_estimate: f64,
    ) -> Result<(), String> {
        let mut minimax: Option<Measured> = None;
        for algo in ALGORITHMS {
            if algo == Algorithm::Minimax && minimax_estimate > self.max_leaves {
                continue;
            }
            if algo.uses_table() {
                self.tt.clear();
            }
            let m = measure(game, game.initial(), algo, depth, Some(&self.tt))?;
            if algo == Algorithm::Minimax {
                minimax = Some(m);
            }
            let plies =
                depth.unwrap_or_else(|| minimax.map_or(m.max_ply, |mm| mm.max_ply) as usize);
            let row = GameRow {
                game: game.name(),
                position: position.to_string(),
                depth,
                algorithm: algo.name(),
                value: m.value,
                leaves: m.leaves,
                nodes: m.nodes,
                time_ms: m.time.as_secs_f64() * 1e3,
                max_ply: m.max_ply,
                ebf: effective_branching(m.leaves, plies).unwrap_or(f64::NAN),
                vs_minimax: minimax.map(|mm| m.leaves as f64 / mm.leaves as f64),
            };
            (self.progress)(&row);
            self.out.push(row);
        }
        Ok(())
    }
}

/// Runs the real-game comparison; `quick` keeps to tic-tac-toe, Connect Four at depth 5 and
/// one small graph. Minimax on Connect Four is skipped where `7^depth > max_leaves`.
pub fn run_games(
    quick: bool,
    max_leaves: f64,
    tt_mib: usize,
    progress: &mut dyn FnMut(&GameRow),
) -> Result<Vec<GameRow>, String> {
    let mut r = Runner {
        max_leaves,
        tt: TranspositionTable::new(tt_mib),
        out: Vec::new(),
        progress,
    };
    r.compare_on(&TicTacToe::new(), "empty", None, 0.0)?;
    let depths: Vec<usize> = if quick { vec![5] } else { vec![8, 10, 12, 14] };
    let c4 = [
        ("empty".to_string(), Connect4::new()),
        (CONNECT4_MIDGAME.to_string(), connect4_midgame()),
    ];
    for (name, game) in &c4 {
        for &d in &depths {
            r.compare_on(game, name, Some(d), 7f64.powi(d as i32))?;
        }
    }
    for (name, graph) in control_graphs(quick) {
        r.compare_on(&graph, &name, None, 0.0)?;
    }
    Ok(r.out)
}

/// The real-game table.
pub fn games_table(rows: &[GameRow]) -> String {
    let mut t = Table::new(&[
        "game",
        "position",
        "depth",
        "algorithm",
        "value",
        "leaves",
        "nodes",
        "ms",
        "leaves/minimax",
        "ebf",
    ]);
    for r in rows {
        t.row(vec![
            r.game.to_string(),
            r.position.clone(),
            r.depth.map_or("end".into(), |d| d.to_string()),
            r.algorithm.to_string(),
            r.value.to_string(),
            r.leaves.to_string(),
            r.nodes.to_string(),
            format!("{:.2}", r.time_ms),
            r.vs_minimax.map_or("-".into(), sig3),
            format!("{:.2}", r.ebf),
        ]);
    }
    t.render()
}
