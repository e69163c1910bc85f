//! The result report shared by `solve` and `tree`: plain text for people, JSON for tools.

use cutoff::{Notation, SearchResult, Value};
use serde::Serialize;

/// Everything `solve` prints about one search.
#[derive(Serialize)]
pub struct Report {
    /// The game's name.
    pub game: String,
    /// The algorithm's name.
    pub algo: String,
    /// The root value, from the side to move at the root (leaf scale for trees).
    pub value: Value,
    /// The best root move in the game's notation, `null` at a terminal root.
    pub best_move: Option<String>,
    /// The principal variation in the game's notation.
    pub pv: Vec<String>,
    /// Nodes visited, the root included.
    pub nodes: u64,
    /// Positions with one move passed through statically (Connect Four's forced lines): not
    /// counted in `nodes`.
    pub forced: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Fail-high cutoffs.
    pub cutoffs: u64,
    /// Share of cutoffs made by the first move tried.
    pub first_move_cutoff_rate: f64,
    /// Deepest ply reached.
    pub max_ply: u32,
    /// Depth limit, if one was given.
    pub depth: Option<usize>,
    /// Wall time of the search in milliseconds.
    pub time_ms: f64,
}

impl Report {
    /// Builds the report, writing the moves in the game's notation.
    pub fn new<G: Notation>(
        game: &G,
        root: &G::Pos,
        result: &SearchResult<G::Move>,
        depth: Option<usize>,
        time_ms: f64,
    ) -> Self {
        let mut pos = *root;
        let mut pv = Vec::with_capacity(result.pv.len());
        for &mv in &result.pv {
            pv.push(game.format_move(&pos, mv));
            pos = game.play(&pos, mv);
        }
        let s = result.stats;
        Report {
            game: game.name().to_string(),
            algo: result.algo.name().to_string(),
            value: result.value,
            best_move: result.best_move.map(|m| game.format_move(root, m)),
            pv,
            nodes: s.nodes,
            forced: s.forced,
            leaves: s.leaves,
            cutoffs: s.cutoffs,
            first_move_cutoff_rate: s.first_move_cutoff_rate(),
            max_ply: s.max_ply,
            depth,
            time_ms,
        }
    }

    /// The report as plain text, one `name: value` per line.
    pub fn text(&self) -> String {
        let best = self
            .best_move
            .as_deref()
            .unwrap_or("none (terminal position)");
        let depth = self.depth.map_or("full".to_string(), |d| d.to_string());
        let forced = if self.forced > 0 {
            format!(" (and {} forced, not counted)", self.forced)
        } else {
            String::new()
        };
        format!(
            "game:      {}\nalgorithm: {}\ndepth:     {}\nvalue:     {}\nbest move: {}\npv:        {}\nnodes:     {}{}\nleaves:    {}\ncutoffs:   {} (first move {:.1}%)\nmax ply:   {}\ntime:      {:.3} ms",
            self.game,
            self.algo,
            depth,
            self.value,
            best,
            self.pv.join(" "),
            self.nodes,
            forced,
            self.leaves,
            self.cutoffs,
            100.0 * self.first_move_cutoff_rate,
            self.max_ply,
            self.time_ms
        )
    }
}
