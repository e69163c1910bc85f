//! Connect Four as a [`Game`]: its rules as the searches see them, paired with its solver
//! knowledge ([`Connect4Knowledge`]). The rules' pieces are [`Connect4`]'s methods; this
//! impl is where they meet the knowledge, which uses them.

use super::knowledge::Connect4Knowledge;
use super::{Bitboard, Connect4, Geometry, Word};
use crate::game::{Game, MoveBuffer, Player, Value};

impl<G: Geometry> Game for Connect4<G> {
    type Pos = Bitboard<G::Word>;
    type Move = u8;
    type Moves = G::Moves;
    type Knowledge = Connect4Knowledge;

    fn initial(&self) -> Bitboard<G::Word> {
        self.start
    }

    fn to_move(&self, pos: &Bitboard<G::Word>) -> Player {
        if pos.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn outcome(&self, pos: &Bitboard<G::Word>) -> Option<Value> {
        if self.last_mover_won(pos) {
            Some(-self.win_on_move(pos.moves))
        } else if pos.moves == self.geo.cells() {
            Some(0)
        } else {
            None
        }
    }

    fn moves(&self, pos: &Bitboard<G::Word>, out: &mut Self::Moves) {
        out.clear();
        for &c in self.geo.centre_order() {
            if self.can_play(pos, c as u32) {
                out.push(c);
            }
        }
    }

    #[inline(always)]
    fn play(&self, pos: &Bitboard<G::Word>, mv: u8) -> Bitboard<G::Word> {
        self.play_col(pos, mv as u32)
    }

    fn move_code(&self, mv: u8) -> u8 {
        mv
    }

    fn value_range(&self) -> (Value, Value) {
        (self.min_score(), self.max_score())
    }

    /// The horizon is evaluated 0 and a win's value falls with the move it comes on, so a
    /// win no `depth`-ply search saw is worth at most a win on the first later move of its
    /// side's parity (docs/design/node-routine.md, "What a depth-limited value proves").
    fn horizon_bounds(
        &self,
        pos: &Bitboard<G::Word>,
        depth: usize,
        value: Value,
    ) -> Option<(Value, Value)> {
        let cells = self.geo.cells();
        // The most a win on move `m`, or on any later move, is worth: none is left past the
        // last cell.
        let unseen = |m: u32| {
            if m > cells {
                0
            } else {
                self.win_on_move(m)
            }
        };
        let next = pos.moves.saturating_add(depth.min(cells as usize) as u32) + 1;
        let (ours, theirs) = if (next - pos.moves) % 2 == 1 {
            (next, next + 1)
        } else {
            (next + 1, next)
        };
        let (lo, hi) = self.value_range();
        Some(match value.signum() {
            1 => (value.max(lo), hi),
            -1 => (lo, value.min(hi)),
            _ => (lo.max(-unseen(theirs)), hi.min(unseen(ours))),
        })
    }

    fn key(&self, pos: &Bitboard<G::Word>) -> u64 {
        pos.key().key64()
    }

    fn max_plies(&self, pos: &Bitboard<G::Word>) -> usize {
        (self.geo.cells() - pos.moves) as usize
    }
}
