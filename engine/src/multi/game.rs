//! The game model for chance nodes and for any number of players: [`MultiGame`].
//!
//! # Why a second trait beside [`Game`](crate::Game)
//!
//! [`Game`](crate::Game) is built for speed on two-player, zero-sum, perfect-information games:
//! integer values in the negamax convention, a side to move that alternates, a table that packs a
//! value into 16 bits. Chance nodes break every one of those: their value is an expectation (a
//! fraction, so `f64`), the side to move after a chance node depends on the outcome (Pig's 1
//! passes the turn, any other face keeps it), and with three or more players a value is a vector,
//! one payoff per player. Generalising `Game` would put a `match` on the node kind and a float
//! into every node of every two-player search, and Connect Four would pay for dice it never
//! throws. So this model sits beside `Game`, with its own searches ([`crate::multi`]), and the
//! two-player engine is untouched: its node counts and speed stay exactly what they were.
//!
//! The two meet where it is worth it: paranoid search turns an n-player game into a two-player
//! one (the player against the coalition) and runs it through the same kind of alpha-beta.
//!
//! # States
//!
//! Every position is one of three kinds ([`Turn`]): a player to move, with moves; a chance node,
//! with outcomes and their probabilities; or terminal, with one payoff per player. Moves and
//! outcomes share one move type and one [`MultiGame::play`], as a chance outcome is a move made
//! by nature.

use crate::game::{MoveBuffer, MoveList};
pub use crate::players::{Payoffs, Turn, MAX_PLAYERS};
use std::fmt::Debug;

/// Most outcomes a chance node may have.
pub const MAX_OUTCOMES: usize = 64;

/// A chance outcome: the move nature makes and its probability.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChanceOutcome<M> {
    /// The move that leads to the outcome.
    pub mv: M,
    /// Its probability, in `(0, 1]`; a node's probabilities sum to 1.
    pub prob: f64,
}

/// The inline list a chance node's outcomes are written into.
pub type Outcomes<M> = MoveList<ChanceOutcome<M>, MAX_OUTCOMES>;

/// A game with chance nodes, any number of players, or both (see the module comment).
///
/// Values are `f64` payoffs, one per player. The two-player searches of this model
/// (expectiminimax, Star1, Star2) read player `i`'s payoff as player `i`'s value and need a
/// zero-sum game ([`MultiGame::players`] is 2 and the payoffs sum to 0).
pub trait MultiGame: Sync {
    /// A position: small and `Copy`, as in [`Game`](crate::Game).
    type Pos: Copy + Send + Sync + Debug;
    /// A move of a player or an outcome of a chance node.
    type Move: Copy + PartialEq + Send + Sync + Debug + Default;
    /// The inline move list this game fills.
    type Moves: MoveBuffer<Self::Move>;

    /// Number of players, 2..=[`MAX_PLAYERS`].
    fn players(&self) -> usize;

    /// The starting position.
    fn initial(&self) -> Self::Pos;

    /// Who acts at `pos`.
    fn turn(&self, pos: &Self::Pos) -> Turn;

    /// The payoffs of a terminal position, one per player.
    fn payoffs(&self, pos: &Self::Pos) -> Payoffs;

    /// The legal moves of a position where a player is to move, written into `out` (cleared
    /// first), in the game's preferred order.
    fn moves(&self, pos: &Self::Pos, out: &mut Self::Moves);

    /// The outcomes of a chance node, written into `out` (cleared first); their probabilities
    /// are positive and sum to 1.
    fn outcomes(&self, pos: &Self::Pos, out: &mut Outcomes<Self::Move>);

    /// The position after a move or an outcome that is legal in `pos`.
    fn play(&self, pos: &Self::Pos, mv: Self::Move) -> Self::Pos;

    /// A 64-bit key for the transposition table: equal positions have equal keys, and the key
    /// tells apart positions with different players to move or moves left.
    fn key(&self, pos: &Self::Pos) -> u64;

    /// An upper bound on the plies (moves and outcomes) left from `pos`.
    fn max_plies(&self, pos: &Self::Pos) -> usize;

    /// Bounds `(L, U)` on every player's payoff at every terminal position and evaluation
    /// (Star1 and Star2 prune with them; shallow max^n pruning with `U` and the sum).
    fn payoff_bounds(&self) -> (f64, f64);

    /// The constant sum of the payoffs, when there is one (zero-sum games: `Some(0.0)`).
    /// Shallow max^n pruning needs it.
    fn payoff_sum(&self) -> Option<f64> {
        None
    }

    /// The estimated payoffs of a non-terminal position at the horizon of a depth-limited
    /// search. The default knows nothing and gives everyone 0.
    fn evaluate(&self, _pos: &Self::Pos) -> Payoffs {
        Payoffs::zeros(self.players())
    }

    /// An ordering hint: moves with higher hints are searched first (after the table's move).
    /// The default keeps the generation order.
    fn move_hint(&self, _pos: &Self::Pos, _mv: Self::Move) -> i32 {
        0
    }

    /// `pos` with `player` to move out of turn, for best-reply search ([`crate::multi::brs`]),
    /// which lets any opponent reply in place of the one whose turn it is, then hands the turn
    /// back to the root player. `None` where the game cannot do that; the default says so
    /// everywhere, and best-reply search then keeps the game's own turn order (it becomes
    /// paranoid search). Only asked of positions that are not terminal.
    fn pass_to(&self, _pos: &Self::Pos, _player: usize) -> Option<Self::Pos> {
        None
    }

    /// The move in words, for reports and traces.
    fn format_move(&self, _pos: &Self::Pos, mv: Self::Move) -> String {
        format!("{mv:?}")
    }

    /// The game's name, for reports.
    fn name(&self) -> &'static str;
}

/// The player whose value a search reports at `pos`: the player to move, or at a chance node
/// `fallback` (the player who moved into it).
#[inline]
pub fn owner(turn: Turn, fallback: usize) -> usize {
    match turn {
        Turn::Player(p) => p,
        _ => fallback,
    }
}
