//! What a search counts.

use serde::Serialize;

/// What a search counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Nodes visited, the root included.
    pub nodes: u64,
    /// Leaves evaluated: terminal positions and positions at the depth limit.
    pub leaves: u64,
    /// Nodes that stopped early because a move reached the bound (fail-high).
    pub cutoffs: u64,
    /// Cutoffs made by the first move tried at the node.
    pub first_move_cutoffs: u64,
    /// Deepest ply reached (the root is ply 0).
    pub max_ply: u32,
    /// Positions with a single move passed through statically, not counted in `nodes` (see
    /// [`crate::knowledge::Knowledge::forced_lines_static`]).
    pub forced: u64,
    /// Nodes cut off by a child's table entry (enhanced transposition cutoffs).
    pub etc_cutoffs: u64,
    /// Nodes whose moves were searched: `nodes` less those settled on entry by the game's
    /// analysis, its bounds, the table or an enhanced cutoff. Steininger's Connect Four solver
    /// settles those in their parent and counts only these (see docs/design/connect4.md, "What
    /// a node is"). Counted by the table-driven searches (PVS and the searches built on it);
    /// 0 for the others.
    pub searched: u64,
}

impl Stats {
    /// Adds another search's counts (the deepest ply is the larger of the two).
    pub fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.cutoffs += o.cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.max_ply = self.max_ply.max(o.max_ply);
        self.forced += o.forced;
        self.etc_cutoffs += o.etc_cutoffs;
        self.searched += o.searched;
    }

    /// Share of cutoffs made by the first move tried, in 0..=1 (0 when there were none).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.cutoffs as f64
        }
    }
}
