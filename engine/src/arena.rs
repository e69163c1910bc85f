//! The per-ply stack a search works in, allocated once before the search starts.
//!
//! Ply `p` holds the position at depth `p`, its move list and its principal variation. The PV
//! vectors get their full capacity up front, so copying a child's line into its parent never
//! reallocates: a search that runs in an arena performs no heap allocation per node.

use crate::game::{Game, MoveBuffer};
use crate::knowledge::Knowledge;

/// One level of the search stack.
pub struct Ply<G: Game> {
    /// The position at this ply.
    pub pos: G::Pos,
    /// Its moves, filled when the node is expanded.
    pub moves: G::Moves,
    /// The best line found from this ply (triangular PV table row).
    pub pv: Vec<G::Move>,
    /// The game's ordering hint for each move (see [`Knowledge::analyse`]).
    pub hints: [i32; MAX_MOVES],
    /// What the game's analysis of this ply's node left for its later hooks.
    pub scratch: <G::Knowledge as Knowledge<G>>::Scratch,
    /// The code of the move that cut this ply's last searched node off, for its parent's
    /// ordering ([`crate::game::Refutation`]); `NO_CODE` when it was settled otherwise.
    pub refutation: u8,
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
                refutation: crate::game::NO_CODE,
                scratch: Default::default(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::perfect::tictactoe::TicTacToe;

    #[test]
    fn lines_are_built_in_place_without_reallocating() {
        let g = TicTacToe::new();
        let depth = 9;
        let mut a = Arena::<TicTacToe>::new(g.initial(), depth);
        assert_eq!(a.max_ply(), depth);
        // Each row's buffer, to check that no update moves it.
        let rows: Vec<(*const u8, usize)> = (0..=depth)
            .map(|p| (a.ply(p).pv.as_ptr(), a.ply(p).pv.capacity()))
            .collect();
        for (p, &(_, cap)) in rows.iter().enumerate() {
            assert!(cap > depth - p, "row {p} has room for {cap} moves");
        }
        // The deepest line first, then each parent prepends its move: the longest lines.
        a.set_single(depth, 8);
        for p in (0..depth).rev() {
            a.update_pv(p, p as u8);
        }
        assert_eq!(a.pv(), &[0, 1, 2, 3, 4, 5, 6, 7, 8, 8]);
        // A shorter line replaces a longer one.
        a.set_single(3, 4);
        a.update_pv(2, 7);
        assert_eq!(a.ply(2).pv, vec![7, 4]);
        for (p, &(ptr, cap)) in rows.iter().enumerate() {
            assert_eq!(a.ply(p).pv.as_ptr(), ptr, "row {p} moved");
            assert_eq!(a.ply(p).pv.capacity(), cap, "row {p} grew");
        }
        // Moves written into a ply and read back.
        let pos = a.ply(0).pos;
        let ply = a.ply_mut(1);
        g.moves(&pos, &mut ply.moves);
        ply.hints[..9].copy_from_slice(&[9, 8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(a.ply(1).moves.len(), 9);
        // A reset clears every line and move list and sets the new root.
        let next = g.play(&g.initial(), 4);
        a.reset(next);
        assert!(a.pv().is_empty());
        assert!((0..=depth).all(|p| a.ply(p).pv.is_empty() && a.ply(p).moves.is_empty()));
        assert_eq!(g.key(&a.ply(0).pos), g.key(&next));
    }

    #[test]
    fn a_zero_depth_arena_holds_the_root_alone() {
        let g = TicTacToe::new();
        let mut a = Arena::<TicTacToe>::new(g.initial(), 0);
        assert_eq!(a.max_ply(), 0);
        a.update_pv(0, 5);
        assert_eq!(a.pv(), &[5]);
    }
}
