//! Leduc hold'em: a two-round poker small enough to solve exactly, an [`Extensive`] game for
//! [`crate::cfr`]. The rules are the standard ones (as in OpenSpiel's `leduc_poker`).
//!
//! # Rules
//!
//! - A deck of six cards: two suits of J, Q, K. Each of the two players antes 1 and is dealt
//!   one private card. The deal is two chance nodes, one card at a time (6 outcomes, then 5).
//! - Two betting rounds. The first player acts first in both. The actions are fold (only when
//!   facing a bet), call (check when not facing one) and raise (bet when not facing one), with
//!   at most two raises a round. A raise puts in what calling would, plus 2 in the first
//!   round and 4 in the second. A round ends when a player calls a raise or checks after a
//!   check.
//! - Between the rounds one public card is dealt from the four left (a chance node of 4
//!   outcomes).
//! - A fold loses the folder's stake. At showdown, a player whose card pairs the public card
//!   wins; otherwise the higher rank wins, and equal ranks split the pot.
//!
//! Cards are `0..6`, rank `card / 2` (0 = J, 1 = Q, 2 = K), and named by rank and suit
//! (`J1`, `J2`, ...). Suits are told apart, as OpenSpiel does, so the tree has 936
//! information sets (36 in the first round, 900 in the second), 3,780 decision nodes, 5,520
//! terminal nodes and 157 chance nodes (1 + 6 for the deal, 150 for the public card). A
//! key is the player's card, the public card once dealt, and the betting of each round, such
//! as `K1Q2:rc/r` (`c` call or check, `r` raise or bet). The first player's value is
//! -0.085606424078.

use crate::cfr::Extensive;
use crate::players::Turn;

/// No card dealt yet.
const NONE: u8 = u8::MAX;

/// The raise size of each round.
pub const RAISE: [u8; 2] = [2, 4];

/// Most raises in one round.
pub const MAX_RAISES: u8 = 2;

/// Leduc hold'em (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Leduc;

/// The action numbers of a Leduc history: legal actions are listed in this order, leaving out
/// fold when not facing a bet and raise after two raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeducAction {
    /// Give up the pot.
    Fold,
    /// Match the other player's stake (a check when they are equal).
    Call,
    /// Put in more than the other player (a bet when stakes are equal).
    Raise,
}

/// A Leduc hold'em history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeducState {
    /// The first player's card, the second's, and the public card ([`u8::MAX`]: not dealt).
    pub cards: [u8; 3],
    /// Each player's stake in the pot.
    pub stakes: [u8; 2],
    /// The betting round, 0 or 1.
    pub round: u8,
    /// Raises so far in this round.
    pub raises: u8,
    /// The actions of each round, `c` and `r` (a fold ends the game and is not kept).
    pub history: [[u8; 4]; 2],
    /// Actions so far in each round.
    pub len: [u8; 2],
    /// The player who folded ([`u8::MAX`]: nobody).
    pub folded: u8,
    /// True once the second round is over (showdown).
    pub over: bool,
}

impl LeducState {
    /// The player to act in the current round.
    fn actor(&self) -> usize {
        self.len[self.round as usize] as usize % 2
    }

    /// Whether the player to act faces a raise.
    fn facing(&self) -> bool {
        let p = self.actor();
        self.stakes[1 - p] > self.stakes[p]
    }

    /// The legal actions of the player to act, in order.
    fn legal(&self) -> ([LeducAction; 3], usize) {
        let mut out = [LeducAction::Call; 3];
        let mut n = 0;
        if self.facing() {
            out[n] = LeducAction::Fold;
            n += 1;
        }
        out[n] = LeducAction::Call;
        n += 1;
        if self.raises < MAX_RAISES {
            out[n] = LeducAction::Raise;
            n += 1;
        }
        (out, n)
    }
}

/// A card's name: rank, then suit 1 or 2.
fn card_name(c: u8, out: &mut String) {
    out.push(['J', 'Q', 'K'][c as usize / 2]);
    out.push(char::from(b'1' + c % 2));
}

/// The `i`-th card, in increasing order, not in `used`.
fn nth_left(used: &[u8], i: usize) -> u8 {
    (0..6u8)
        .filter(|c| !used.contains(c))
        .nth(i)
        .expect("outcome in range")
}

impl Extensive for Leduc {
    type State = LeducState;

    fn name(&self) -> &'static str {
        "leduc"
    }

    fn players(&self) -> usize {
        2
    }

    fn root(&self) -> LeducState {
        LeducState {
            cards: [NONE; 3],
            stakes: [1, 1],
            round: 0,
            raises: 0,
            history: [[0; 4]; 2],
            len: [0; 2],
            folded: NONE,
            over: false,
        }
    }

    fn turn(&self, s: &LeducState) -> Turn {
        if s.folded != NONE || s.over {
            Turn::Terminal
        } else if s.cards[1] == NONE || (s.round == 1 && s.cards[2] == NONE) {
            Turn::Chance
        } else {
            Turn::Player(s.actor())
        }
    }

    fn actions(&self, s: &LeducState) -> usize {
        s.legal().1
    }

    fn chance(&self, s: &LeducState, out: &mut Vec<f64>) {
        out.clear();
        let left = 6 - s.cards.iter().filter(|&&c| c != NONE).count();
        out.resize(left, 1.0 / left as f64);
    }

    fn play(&self, s: &LeducState, a: usize) -> LeducState {
        let mut t = *s;
        if let Some(i) = s.cards.iter().position(|&c| c == NONE).filter(|&i| {
            // The public card waits for the second round.
            i < 2 || s.round == 1
        }) {
            t.cards[i] = nth_left(&s.cards[..i], a);
            return t;
        }
        let p = s.actor();
        let r = s.round as usize;
        match s.legal().0[a] {
            LeducAction::Fold => t.folded = p as u8,
            LeducAction::Call => {
                t.stakes[p] = t.stakes[1 - p];
                t.history[r][t.len[r] as usize] = b'c';
                t.len[r] += 1;
                // A call ends the round unless it is the round's opening check.
                if s.len[r] > 0 {
                    if r == 0 {
                        t.round = 1;
                        t.raises = 0;
                    } else {
                        t.over = true;
                    }
                }
            }
            LeducAction::Raise => {
                t.stakes[p] = t.stakes[1 - p] + RAISE[r];
                t.raises += 1;
                t.history[r][t.len[r] as usize] = b'r';
                t.len[r] += 1;
            }
        }
        t
    }

    fn infoset_key(&self, s: &LeducState, k: &mut String) {
        let p = s.actor();
        k.clear();
        card_name(s.cards[p], k);
        if s.cards[2] != NONE {
            card_name(s.cards[2], k);
        }
        k.push(':');
        for &a in &s.history[0][..s.len[0] as usize] {
            k.push(a as char);
        }
        if s.round == 1 {
            k.push('/');
            for &a in &s.history[1][..s.len[1] as usize] {
                k.push(a as char);
            }
        }
    }

    fn payoffs(&self, s: &LeducState, out: &mut [f64]) {
        let v = if s.folded != NONE {
            let f = s.folded as usize;
            let lost = s.stakes[f] as f64;
            if f == 0 {
                -lost
            } else {
                lost
            }
        } else {
            // Showdown: a pair beats any unpaired hand, else the higher rank wins.
            let public = s.cards[2] / 2;
            let strength = |c: u8| {
                let rank = c / 2;
                if rank == public {
                    10 + rank
                } else {
                    rank
                }
            };
            let (a, b) = (strength(s.cards[0]), strength(s.cards[1]));
            debug_assert_eq!(s.stakes[0], s.stakes[1]);
            let pot = s.stakes[0] as f64;
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => pot,
                std::cmp::Ordering::Less => -pot,
                std::cmp::Ordering::Equal => 0.0,
            }
        };
        out[0] = v;
        out[1] = -v;
    }

    fn action_name(&self, s: &LeducState, a: usize) -> String {
        let facing = s.facing();
        match (s.legal().0[a], facing) {
            (LeducAction::Fold, _) => "fold",
            (LeducAction::Call, false) => "check",
            (LeducAction::Call, true) => "call",
            (LeducAction::Raise, false) => "bet",
            (LeducAction::Raise, true) => "raise",
        }
        .to_string()
    }
}
