//! Opening books as `cutoff analyse --book FILE` reads them (`cutoff_app::book::read`: the
//! parse and every check, then the game named on the command line), and the lookups analyse
//! and the server make in an accepted one (`Book::value` for every move of a position,
//! `Book::best`) at the positions the input's own lines name and the empty board. Nothing may
//! panic; an error, as the binary prints it, is one short printable line; a book for
//! Connect Four is refused for another game; and what an accepted book answers obeys what the
//! game says at once: no value for a position where the game is over, none below an
//! immediate win, the value of a position whose moves the book all holds the best of them,
//! and `best` that value and a legal move reaching it.
#![no_main]

use cutoff::games::perfect::connect4::Connect4;
use cutoff::{Game, MoveBuffer, Value};
use cutoff_app::book::{read, Book};
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;

/// The most positions probed per input (each costs a few lookups).
const PROBES: usize = 16;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let book = match read(&text, "connect4", None) {
        Ok(b) => b,
        // As `analyse` prints it: the file's name, then the book's message.
        Err(e) => return check_message("book::read", &format!("error: book.txt: {e}"), STRICT),
    };
    let other = read(&text, "tictactoe", None).expect_err("a Connect Four book for tic-tac-toe");
    check_message("book::read", &other.to_string(), STRICT);
    // The positions the lines name (their first word), and the start.
    let probes = std::iter::once("").chain(
        text.lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .take(PROBES),
    );
    for moves in probes {
        let Ok(game) = Connect4::from_moves(moves) else {
            continue;
        };
        probe(&book, &game);
    }
});

/// Checks what `book` answers at `game`'s position against what the game says at once.
fn probe(book: &Book, game: &Connect4) {
    let pos = game.initial();
    let held = book.value(game, &pos);
    let (lo, hi) = game.value_range();
    if game.outcome(&pos).is_some() {
        assert_eq!(held, None, "a value where the game is over");
        assert!(book.best(game, &pos).is_none());
        return;
    }
    let mut moves = <Connect4 as Game>::Moves::default();
    game.moves(&pos, &mut moves);
    // Each move's value to the mover as analyse scores it: the end of the game, or the book.
    let mut all: Option<Value> = Some(Value::MIN);
    let mut immediate = Value::MIN;
    for &mv in moves.as_slice() {
        let child = game.play(&pos, mv);
        let v = match game.outcome(&child) {
            Some(end) => {
                assert_eq!(
                    book.value(game, &child),
                    None,
                    "a value where the game is over"
                );
                immediate = immediate.max(-end);
                Some(-end)
            }
            None => book.value(game, &child).map(|v| -v),
        };
        if let Some(v) = v {
            assert!((lo..=hi).contains(&v), "{v} outside the game's range");
        }
        all = all.zip(v).map(|(a, v)| a.max(v));
    }
    if let Some(v) = held {
        assert!((lo..=hi).contains(&v), "{v} outside the game's range");
        assert!(v >= immediate, "{v} below an immediate win of {immediate}");
        if let Some(best) = all {
            assert_eq!(v, best, "not the best of its moves' values");
        }
    }
    if let Some((v, mv)) = book.best(game, &pos) {
        assert!(moves.as_slice().contains(&mv));
        assert_eq!(Some(v), all);
        assert_eq!(-book.value(game, &game.play(&pos, mv)).unwrap(), v);
    }
}
