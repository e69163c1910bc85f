//! Take-away games: a heap of items, each move takes one of a fixed set of amounts.
//!
//! Two classic instances have constructors of their own:
//!
//! - [`TakeAway::matchsticks`]: take 1, 2 or 3 sticks; whoever takes the **last** stick
//!   **loses** (misère play). The side to move loses exactly when `n % 4 == 1`.
//! - [`TakeAway::stones`]: take 1 or 2 stones; whoever **cannot move** loses (normal play).
//!   The side to move loses exactly when `n % 3 == 0`.
//!
//! [`TakeAway::new`] builds any other subtraction game: up to [`MAX_TAKES`] distinct amounts,
//! each at least 1, given in any order (they are kept sorted), with normal or misère play.
//!
//! # Rules at the end of the game
//!
//! A position is terminal when no allowed amount fits the items left (always the case at 0).
//!
//! - Normal play: the side to move cannot move and loses: utility -1.
//! - Misère play with 0 items left: the previous player took the last item and lost, so the
//!   side to move has won: utility +1.
//! - Misère play with items left that no amount fits (possible only when the smallest amount
//!   exceeds 1): nobody took the last item; the side to move cannot move and loses: -1.
//!
//! # Heap size
//!
//! The heap holds 0..=[`MAX_ITEMS`] items. A heap of 0 is allowed: the game is over before it
//! starts (a loss for the side to move in normal play, a win in misère play). The upper bound
//! keeps the searches' recursion (one level per move) and their per-ply stack, whose size
//! grows with the square of the number of plies, small.
//!
//! Moves are the amounts taken (`u32`), written as plain numbers and tried smallest first.

use crate::game::{quote, Game, GameError, MoveBuffer, MoveList, Notation, Player, Value};
use crate::knowledge::Knowledge;

/// Most items a heap may start with.
pub const MAX_ITEMS: u32 = 1000;

/// Most distinct take amounts a game may allow (the capacity of the inline move list).
pub const MAX_TAKES: usize = 8;

/// A take-away position: the items left and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TakePos {
    /// Items left on the heap.
    pub items: u32,
    /// The side to move.
    pub side: Player,
}

/// A take-away (subtraction) game: a starting heap, the allowed amounts and the play
/// convention (see the module comment).
#[derive(Clone, Debug)]
pub struct TakeAway {
    /// Items at the start.
    start: u32,
    /// The allowed amounts, sorted ascending; only the first `count` entries are used.
    takes: [u32; MAX_TAKES],
    /// Number of allowed amounts (1..=MAX_TAKES).
    count: usize,
    /// Misère play: whoever takes the last item loses.
    misere: bool,
}

impl TakeAway {
    /// The matchstick game: `n` sticks, take 1, 2 or 3, whoever takes the last stick loses.
    pub fn matchsticks(n: u32) -> Result<TakeAway, GameError> {
        TakeAway::new(n, &[1, 2, 3], true)
    }

    /// The stones game: `n` stones, take 1 or 2, whoever cannot move loses.
    pub fn stones(n: u32) -> Result<TakeAway, GameError> {
        TakeAway::new(n, &[1, 2], false)
    }

    /// A take-away game starting with `n` items (0..=[`MAX_ITEMS`]) where a move takes one of
    /// `takes` (1..=[`MAX_TAKES`] distinct amounts, each at least 1, in any order); `misere`
    /// selects misère play (whoever takes the last item loses) over normal play (whoever
    /// cannot move loses).
    pub fn new(n: u32, takes: &[u32], misere: bool) -> Result<TakeAway, GameError> {
        if n > MAX_ITEMS {
            return Err(GameError::new(format!(
                "a take-away heap holds at most {MAX_ITEMS} items, got {n}"
            )));
        }
        if takes.is_empty() {
            return Err(GameError::new(
                "a take-away game needs at least one take amount",
            ));
        }
        if takes.len() > MAX_TAKES {
            return Err(GameError::new(format!(
                "a take-away game allows at most {MAX_TAKES} take amounts, got {}",
                takes.len()
            )));
        }
        let mut sorted = [0u32; MAX_TAKES];
        sorted[..takes.len()].copy_from_slice(takes);
        let used = &mut sorted[..takes.len()];
        used.sort_unstable();
        if used[0] == 0 {
            return Err(GameError::new("take amounts must be at least 1, got 0"));
        }
        if let Some(w) = used.windows(2).find(|w| w[0] == w[1]) {
            return Err(GameError::new(format!(
                "take amount {} is listed twice",
                w[0]
            )));
        }
        Ok(TakeAway {
            start: n,
            takes: sorted,
            count: takes.len(),
            misere,
        })
    }

    /// The allowed amounts, ascending.
    pub fn takes(&self) -> &[u32] {
        &self.takes[..self.count]
    }

    /// True for misère play (whoever takes the last item loses).
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// Items at the start of the game.
    pub fn start(&self) -> u32 {
        self.start
    }

    /// The position with `items` items left and `side` to move (`items` need not be below
    /// the starting heap, but at most [`MAX_ITEMS`]).
    pub fn position(&self, items: u32, side: Player) -> Result<TakePos, GameError> {
        if items > MAX_ITEMS {
            return Err(GameError::new(format!(
                "a take-away heap holds at most {MAX_ITEMS} items, got {items}"
            )));
        }
        Ok(TakePos { items, side })
    }

    /// The smallest allowed amount.
    #[inline]
    fn min_take(&self) -> u32 {
        self.takes[0]
    }
}

impl TakeAway {
    /// The exact value by the table of heap sizes (see the body); `None` for a hand-built
    /// heap beyond [`MAX_ITEMS`].
    pub fn exact_value(&self, pos: &TakePos) -> Option<Value> {
        // A table of heap sizes, bottom up: a heap too small for any take is valued by the
        // end-of-game rules (`outcome`), a bigger one is a win when some take leaves a lost
        // heap. Heaps hold at most MAX_ITEMS items (the constructors and `position` refuse
        // more), so the table lives on the stack; a hand-built position beyond that gets None.
        let n = usize::try_from(pos.items).ok()?;
        if n > MAX_ITEMS as usize {
            return None;
        }
        let mut wins = [false; MAX_ITEMS as usize + 1];
        for h in 0..=n {
            let heap = TakePos {
                items: h as u32,
                side: pos.side,
            };
            wins[h] = match self.outcome(&heap) {
                Some(u) => u > 0,
                None => self
                    .takes()
                    .iter()
                    .take_while(|&&t| t as usize <= h)
                    .any(|&t| !wins[h - t as usize]),
            };
        }
        Some(if wins[n] { 1 } else { -1 })
    }
}

/// What the solver knows of take-away games beyond their rules: the value of every heap, by a
/// table of smaller heaps (the game's theory, for [`Algorithm::Theory`](crate::search::Algorithm)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TakeAwayKnowledge;

impl Knowledge<TakeAway> for TakeAwayKnowledge {
    type Scratch = ();

    fn theory_value(game: &TakeAway, pos: &TakePos) -> Option<Value> {
        game.exact_value(pos)
    }
}

impl Game for TakeAway {
    type Pos = TakePos;
    type Move = u32;
    type Moves = MoveList<u32, MAX_TAKES>;
    type Knowledge = TakeAwayKnowledge;

    fn initial(&self) -> TakePos {
        TakePos {
            items: self.start,
            side: Player::First,
        }
    }

    fn to_move(&self, pos: &TakePos) -> Player {
        pos.side
    }

    #[inline]
    fn outcome(&self, pos: &TakePos) -> Option<Value> {
        if pos.items >= self.min_take() {
            None
        } else if self.misere && pos.items == 0 {
            // The previous player took the last item and lost.
            Some(1)
        } else {
            // The side to move cannot move and loses.
            Some(-1)
        }
    }

    #[inline]
    fn moves(&self, pos: &TakePos, out: &mut Self::Moves) {
        out.clear();
        for &t in self.takes() {
            if t > pos.items {
                break;
            }
            out.push(t);
        }
    }

    #[inline]
    fn play(&self, pos: &TakePos, mv: u32) -> TakePos {
        TakePos {
            items: pos.items - mv,
            side: pos.side.other(),
        }
    }

    fn key(&self, pos: &TakePos) -> u64 {
        // splitmix64 finaliser over items and side.
        let side = u64::from(pos.side == Player::Second);
        crate::rng::splitmix64(u64::from(pos.items) << 1 | side)
    }

    fn max_plies(&self, pos: &TakePos) -> usize {
        // Every move takes at least the smallest amount.
        pos.items.div_ceil(self.min_take()) as usize
    }

    fn move_code(&self, mv: u32) -> u8 {
        // The amount's index in the sorted set: below MAX_TAKES.
        self.takes().iter().position(|&t| t == mv).unwrap_or(0) as u8
    }

    fn value_range(&self) -> (Value, Value) {
        (-1, 1)
    }
}

impl Notation for TakeAway {
    fn name(&self) -> &'static str {
        // The two games of the course go by their own names; any other rule set is generic.
        match (self.takes(), self.misere) {
            ([1, 2, 3], true) => "matchsticks",
            ([1, 2], false) => "stones",
            _ => "takeaway",
        }
    }

    fn format_move(&self, _pos: &TakePos, mv: u32) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &TakePos, text: &str) -> Result<u32, GameError> {
        let text = text.trim();
        let list = || {
            self.takes()
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let amount: u32 = text.parse().map_err(|_| {
            GameError::new(format!(
                "invalid move '{}': expected the number of items to take ({})",
                quote(text),
                list()
            ))
        })?;
        if !self.takes().contains(&amount) {
            return Err(GameError::new(format!(
                "cannot take {amount}: the allowed amounts are {}",
                list()
            )));
        }
        if amount > pos.items {
            return Err(GameError::new(format!(
                "cannot take {amount}: only {} left",
                pos.items
            )));
        }
        Ok(amount)
    }
}
