//! Kuhn poker, the smallest poker: an [`Extensive`] game for [`crate::cfr`].
//!
//! # Rules
//!
//! - Three cards, J < Q < K. Each of the two players antes 1 and is dealt one card, face
//!   down; the third card is not used. The deal is two chance nodes, one card at a time
//!   (the first player's card, then the second's from the two left).
//! - One betting round with a bet of 1. The first player passes or bets. After a pass, the
//!   second player passes (showdown for the antes) or bets, and then the first player passes
//!   (folds) or bets (calls). After a bet, the second player passes (folds) or bets (calls).
//! - A fold loses the folder's stake; at showdown the higher card wins the pot.
//!
//! Actions are numbered 0 = pass (check or fold), 1 = bet (bet or call). Information sets are
//! keyed by the player's card and the betting so far, such as `Q` or `Kpb`: 12 of them, 6 per
//! player. The first player's value is -1/18.

use crate::cfr::Extensive;
use crate::players::Turn;

/// The card names, by rank.
const CARDS: [char; 3] = ['J', 'Q', 'K'];

/// No card dealt yet.
const NONE: u8 = u8::MAX;

/// Kuhn poker (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kuhn;

/// A Kuhn poker history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KuhnState {
    /// Each player's card (0 = J, 1 = Q, 2 = K), [`u8::MAX`] before the deal.
    pub cards: [u8; 2],
    /// The actions so far (0 = pass, 1 = bet); the first `len` are used.
    pub history: [u8; 3],
    /// Number of actions so far.
    pub len: u8,
}

impl KuhnState {
    fn actions(&self) -> &[u8] {
        &self.history[..self.len as usize]
    }
}

impl Extensive for Kuhn {
    type State = KuhnState;

    fn name(&self) -> &'static str {
        "kuhn"
    }

    fn players(&self) -> usize {
        2
    }

    fn root(&self) -> KuhnState {
        KuhnState {
            cards: [NONE; 2],
            history: [0; 3],
            len: 0,
        }
    }

    fn turn(&self, s: &KuhnState) -> Turn {
        if s.cards[1] == NONE {
            return Turn::Chance;
        }
        match s.actions() {
            // pass pass, bet pass (fold), bet bet, pass bet pass (fold), pass bet bet.
            [0, 0] | [1, _] | [0, 1, _] => Turn::Terminal,
            h => Turn::Player(h.len() % 2),
        }
    }

    fn actions(&self, _s: &KuhnState) -> usize {
        2
    }

    fn chance(&self, s: &KuhnState, out: &mut Vec<f64>) {
        out.clear();
        let n = if s.cards[0] == NONE { 3 } else { 2 };
        out.resize(n, 1.0 / n as f64);
    }

    fn play(&self, s: &KuhnState, a: usize) -> KuhnState {
        let mut t = *s;
        if s.cards[0] == NONE {
            t.cards[0] = a as u8;
        } else if s.cards[1] == NONE {
            // Outcome `a` is the `a`-th of the two cards left, in rank order.
            t.cards[1] = (0..3u8)
                .filter(|&c| c != s.cards[0])
                .nth(a)
                .expect("2 outcomes");
        } else {
            t.history[t.len as usize] = a as u8;
            t.len += 1;
        }
        t
    }

    fn infoset_key(&self, s: &KuhnState, k: &mut String) {
        let p = s.len as usize % 2;
        k.clear();
        k.push(CARDS[s.cards[p] as usize]);
        for &a in s.actions() {
            k.push(if a == 0 { 'p' } else { 'b' });
        }
    }

    fn payoffs(&self, s: &KuhnState, out: &mut [f64]) {
        let showdown = |stake: f64| {
            if s.cards[0] > s.cards[1] {
                stake
            } else {
                -stake
            }
        };
        let v = match s.actions() {
            [0, 0] => showdown(1.0),
            [1, 0] => 1.0,
            [0, 1, 0] => -1.0,
            _ => showdown(2.0),
        };
        out[0] = v;
        out[1] = -v;
    }

    fn action_name(&self, s: &KuhnState, a: usize) -> String {
        let facing = s.actions().last() == Some(&1);
        match (a, facing) {
            (0, false) => "check",
            (0, true) => "fold",
            (_, false) => "bet",
            (_, true) => "call",
        }
        .to_string()
    }
}
