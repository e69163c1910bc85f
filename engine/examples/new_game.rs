//! A new game in a few dozen lines: Nim, implemented against [`Game`] and [`Notation`], then
//! solved with [`Solver`] and checked against Bouton's theorem (the side to move wins exactly
//! when the XOR of the heap sizes, the nim-sum, is not zero).
//!
//! ```text
//! cargo run --release -p cutoff --example new_game
//! ```

use cutoff::rng::splitmix64;
use cutoff::solver::{Solver, Verdict};
use cutoff::{Game, GameError, MoveBuffer, MoveList, Notation, Player, Value};

/// Heaps in a game, and most items a heap may hold (a move must fit a `u8`, see below).
const HEAPS: usize = 3;
const MAX_HEAP: u8 = 15;

/// Nim, normal play: take any number of items from one heap; whoever cannot move loses.
struct Nim {
    start: [u8; HEAPS],
}

/// A position: small and `Copy`, because the searches copy a position rather than undo a move.
#[derive(Clone, Copy, Debug)]
struct Heaps {
    heaps: [u8; HEAPS],
    side: Player,
}

/// A move takes `mv & 15` items (1..=15) from heap `mv >> 4`: one byte, which also serves as
/// the move code the transposition table stores.
type Move = u8;

impl Game for Nim {
    type Pos = Heaps;
    type Move = Move;
    /// Inline, never on the heap: at most `HEAPS * MAX_HEAP` moves.
    type Moves = MoveList<Move, { HEAPS * MAX_HEAP as usize }>;
    type Knowledge = cutoff::knowledge::NoKnowledge;

    fn initial(&self) -> Heaps {
        Heaps {
            heaps: self.start,
            side: Player::First,
        }
    }

    fn to_move(&self, pos: &Heaps) -> Player {
        pos.side
    }

    /// Values are from the side to move: with every heap empty it cannot move and loses.
    fn outcome(&self, pos: &Heaps) -> Option<Value> {
        pos.heaps.iter().all(|&h| h == 0).then_some(-1)
    }

    fn moves(&self, pos: &Heaps, out: &mut Self::Moves) {
        out.clear();
        for (heap, &size) in pos.heaps.iter().enumerate() {
            for take in (1..=size).rev() {
                // Big takes first: they end the game sooner, so the search finds wins early.
                out.push((heap as u8) << 4 | take);
            }
        }
    }

    fn play(&self, pos: &Heaps, mv: Move) -> Heaps {
        let mut heaps = pos.heaps;
        heaps[usize::from(mv >> 4)] -= mv & 15;
        Heaps {
            heaps,
            side: pos.side.other(),
        }
    }

    /// Well-mixed 64 bits that tell positions apart: heaps and side packed in a word, hashed.
    fn key(&self, pos: &Heaps) -> u64 {
        let packed = pos.heaps.iter().fold(0, |k, &h| k << 8 | u64::from(h));
        splitmix64(packed << 1 | u64::from(pos.side == Player::Second))
    }

    fn max_plies(&self, pos: &Heaps) -> usize {
        pos.heaps.iter().map(|&h| usize::from(h)).sum()
    }

    /// Win or loss: the null-window solver needs only one probe over this range.
    fn value_range(&self) -> (Value, Value) {
        (-1, 1)
    }

    fn move_code(&self, mv: Move) -> u8 {
        mv
    }
}

impl Notation for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }

    /// `H:N`: take `N` items from heap `H` (heaps counted from 1).
    fn format_move(&self, _pos: &Heaps, mv: Move) -> String {
        format!("{}:{}", (mv >> 4) + 1, mv & 15)
    }

    fn parse_move(&self, pos: &Heaps, text: &str) -> Result<Move, GameError> {
        let bad = || GameError::new(format!("bad move {text:?} (expected HEAP:ITEMS)"));
        let (h, n) = text.trim().split_once(':').ok_or_else(bad)?;
        let (h, n): (usize, u8) = (h.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if !(1..=HEAPS).contains(&h) || n == 0 || n > pos.heaps[h - 1] {
            return Err(bad());
        }
        Ok(((h - 1) as u8) << 4 | n)
    }
}

fn main() {
    for start in [[3, 4, 5], [1, 2, 3], [7, 9, 13], [MAX_HEAP, 10, 5]] {
        let game = Nim { start };
        let out = Solver::new(&game).threads(1).table_mib(1).run().unwrap();
        let Verdict::Exact(value) = out.verdict else {
            unreachable!("an unlimited search settles the value")
        };
        let root = game.initial();
        let best = out.best_move.map(|mv| game.format_move(&root, mv));
        println!(
            "nim {start:?}: {} (value {value}), best move {}, {} nodes",
            game.explain_value(&root, value),
            best.as_deref().unwrap_or("-"),
            out.stats.nodes
        );

        // By hand (Bouton): the side to move wins exactly when the nim-sum is not zero, and a
        // winning move leaves a nim-sum of zero.
        let nim_sum = start.iter().fold(0, |x, &h| x ^ h);
        assert_eq!(value, if nim_sum != 0 { 1 } else { -1 });
        if value == 1 {
            let after = game.play(&root, out.best_move.unwrap());
            assert_eq!(
                after.heaps.iter().fold(0, |x, &h| x ^ h),
                0,
                "not a winning move"
            );
        }
        // The notation reads back what it writes.
        if let Some(text) = best {
            assert_eq!(game.parse_move(&root, &text).ok(), out.best_move);
        }
    }
    // [3, 4, 5]: nim-sum 3 ^ 4 ^ 5 = 2, so the first player wins, and the only winning move
    // takes 2 from the first heap (3 ^ 2 = 1 < 3; 4 ^ 2 and 5 ^ 2 are larger than the heaps).
    let game = Nim { start: [3, 4, 5] };
    let out = Solver::new(&game).threads(1).table_mib(1).run().unwrap();
    assert_eq!(out.verdict, Verdict::Exact(1));
    assert_eq!(game.parse_move(&game.initial(), "1:2").ok(), out.best_move);
    println!("nim [3, 4, 5]: first player wins with 1:2, as computed by hand");
}
