//! The words every game model shares: the two players of [`Game`](crate::Game), who acts at a
//! position of the chance and n-player model ([`Turn`], also used by the imperfect-information
//! model), and one payoff per player ([`Payoffs`]).

use std::fmt::Debug;

/// A game value. Terminal utilities and evaluations stay well inside `-INF..=INF`.
pub type Value = i32;

/// A bound larger than any value a game produces; `-INF` and `INF` open the full window.
pub const INF: Value = 1 << 30;

/// The two players. `First` moves first and is the MAX player of minimax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first (MAX).
    First,
    /// The player who moves second (MIN).
    Second,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// +1 for `First` (MAX), -1 for `Second` (MIN): turns a side-to-move value into MAX's view.
    pub fn sign(self) -> Value {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }
}

/// Most players a game may have (a value vector lives inline, so it is bounded).
pub const MAX_PLAYERS: usize = 8;

/// Who acts at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Player `i` (0-based, `i < players()`) picks a move.
    Player(usize),
    /// Nature picks an outcome at random, with the game's probabilities.
    Chance,
    /// The game is over: [`MultiGame::payoffs`](crate::multi::MultiGame::payoffs) gives the result.
    Terminal,
}

/// One payoff per player, kept inline (no heap).
#[derive(Clone, Copy, PartialEq)]
pub struct Payoffs {
    n: u8,
    v: [f64; MAX_PLAYERS],
}

impl Debug for Payoffs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Payoffs {
    /// `n` zeros (`n` is clamped to [`MAX_PLAYERS`]).
    pub fn zeros(n: usize) -> Payoffs {
        Payoffs {
            n: n.min(MAX_PLAYERS) as u8,
            v: [0.0; MAX_PLAYERS],
        }
    }

    /// The payoffs in `values` (at most [`MAX_PLAYERS`] of them are kept).
    pub fn from_slice(values: &[f64]) -> Payoffs {
        let mut p = Payoffs::zeros(values.len());
        let n = p.len();
        p.v[..n].copy_from_slice(&values[..n]);
        p
    }

    /// The two-player zero-sum vector in which `player` gets `value` and the other `-value`.
    pub fn zero_sum2(player: usize, value: f64) -> Payoffs {
        let mut p = Payoffs::zeros(2);
        p.v[player & 1] = value;
        p.v[(player & 1) ^ 1] = -value;
        p
    }

    /// Player `winner` gets `+1`, every other player `-1/(n-1)` (sum 0).
    pub fn win(n: usize, winner: usize) -> Payoffs {
        let mut p = Payoffs::zeros(n);
        let lose = -1.0 / (n.max(2) - 1) as f64;
        for (i, x) in p.v[..p.n as usize].iter_mut().enumerate() {
            *x = if i == winner { 1.0 } else { lose };
        }
        p
    }

    /// Number of players.
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// True for a vector of no players.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The payoffs in player order.
    pub fn as_slice(&self) -> &[f64] {
        &self.v[..self.n as usize]
    }

    /// Player `i`'s payoff.
    #[inline]
    pub fn get(&self, i: usize) -> f64 {
        self.v[i]
    }

    /// Sets player `i`'s payoff.
    #[inline]
    pub fn set(&mut self, i: usize, x: f64) {
        self.v[i] = x;
    }

    /// Adds `p` times `other`, component by component (an expectation, one outcome at a time).
    #[inline]
    pub fn add_scaled(&mut self, p: f64, other: &Payoffs) {
        for i in 0..self.n as usize {
            self.v[i] += p * other.v[i];
        }
    }
}
