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

    fn key(&self, pos: &Bitboard<G::Word>) -> u64 {
        pos.key().key64()
    }

    fn max_plies(&self, pos: &Bitboard<G::Word>) -> usize {
        (self.geo.cells() - pos.moves) as usize
    }
}
