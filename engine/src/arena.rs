//! The per-ply stack a search works in, allocated once before the search starts.
//!
//! Ply `p` holds the position at depth `p`, its move list and its principal variation. The PV
//! vectors get their full capacity up front, so copying a child's line into its parent never
//! reallocates: a search that runs in an arena performs no heap allocation per node.

use crate::game::{Game, MoveBuffer};

/// One level of the search stack.
pub struct Ply<G: Game> {
    /// The position at this ply.
    pub pos: G::Pos,
    /// Its moves, filled when the node is expanded.
    pub moves: G::Moves,
    /// The best line found from this ply (triangular PV table row).
    pub pv: Vec<G::Move>,
    /// The game's ordering hint for each move (see [`Game::analyse`]).
    pub hints: [i32; MAX_MOVES],
}

/// The most moves a position may have for the searches to order them all.
pub const MAX_MOVES: usize = 64;

/// The per-ply stack: `len()` plies, enough for a search `len() - 1` plies deep.
pub struct Arena<G: Game> {
    plies: Vec<Ply<G>>,
}

impl<G: Game> Arena<G> {
    /// An arena for a search from `root` at most `depth` plies deep.
    pub fn new(root: G::Pos, depth: usize) -> Self {
        let plies = (0..=depth)
            .map(|p| Ply {
                pos: root,
                moves: G::Moves::default(),
                pv: Vec::with_capacity(depth - p + 1),
                hints: [0; MAX_MOVES],
            })
            .collect();
        Arena { plies }
    }

    /// Deepest ply the arena can hold a position for.
    pub fn max_ply(&self) -> usize {
        self.plies.len() - 1
    }

    /// Sets the root position and clears every line, so the arena can be reused.
    pub fn reset(&mut self, root: G::Pos) {
        self.plies[0].pos = root;
        for p in &mut self.plies {
            p.pv.clear();
            p.moves.clear();
        }
    }

    /// The ply at depth `p`.
    #[inline]
    pub fn ply(&self, p: usize) -> &Ply<G> {
        &self.plies[p]
    }

    /// The ply at depth `p`, mutable.
    #[inline]
    pub fn ply_mut(&mut self, p: usize) -> &mut Ply<G> {
        &mut self.plies[p]
    }

    /// Makes `mv` followed by the child's line the PV of ply `p`. Never reallocates: row `p`
    /// has room for `len() - p` moves and the child's line is at most one shorter.
    #[inline]
    pub fn update_pv(&mut self, p: usize, mv: G::Move) {
        let (head, tail) = self.plies.split_at_mut(p + 1);
        let row = &mut head[p].pv;
        row.clear();
        row.push(mv);
        if let Some(child) = tail.first() {
            row.extend_from_slice(&child.pv);
        }
    }

    /// Makes the single move `mv` the line of ply `p` (a node whose moves all failed low still
    /// names its best one).
    #[inline]
    pub fn set_single(&mut self, p: usize, mv: G::Move) {
        let row = &mut self.plies[p].pv;
        row.clear();
        row.push(mv);
    }

    /// The principal variation from the root.
    pub fn pv(&self) -> &[G::Move] {
        &self.plies[0].pv
    }
}
