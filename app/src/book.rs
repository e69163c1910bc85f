//! Opening books: the exact values of every position a few plies from the start, solved once
//! (`cutoff book`), so that `cutoff analyse --book` and `cutoff serve` answer the first moves
//! of a game at once, where solving them takes a minute or more (Connect Four's empty board:
//! 83 s for its seven moves on two cores).
//!
//! A book is text (a byte-order mark at its start is skipped, as by every input): `#`
//! comments, one line `game NAME`, for a Connect Four board other than 7x6 with four in a
//! row a line `board WxH` (or `board WxH/K`) right after it, then one line per position, `POSITION VALUE`, the position
//! written as `cutoff solve` takes it (Connect Four: the columns played; the start: `-`) and
//! its value from the side to move. Positions are looked up by the game's table key, so a
//! mirror image finds its twin; only games whose table key is the position itself (no hash
//! that two positions could share) may have books: [`KEYED_EXACTLY`].
//!
//! What a book is trusted for. A book is untrusted input, checked where that is cheap, and
//! any failed check refuses the whole book with an error naming the line:
//! - its form: one `game` line, first, naming a game that may have books, and when a command
//!   uses it, the game it analyses ([`Book::check_game`]); at most [`MAX_ENTRIES`] positions;
//! - every position replayed from the start by the game's own parser (a legal position), and
//!   not one where the game is over (`cutoff book` never writes those: a search values them);
//! - every value in the game's range, and one value for a position and its mirror image;
//! - every value agreeing with what the game knows without a search: a move that ends the
//!   game at once (a position is worth at least its immediate win), and the exact value or
//!   bounds of the game's static analysis ([`cutoff::knowledge::Knowledge::analyse`]: for Connect Four a win
//!   with the next stone, a double threat, the earliest stone either side can still win with);
//! - negamax between the entries: a position whose every move leads to a position the book
//!   holds (or ends the game) is worth the best of those moves, as `cutoff book` made it.
//!
//! Beyond these the values are believed: the positions whose moves leave the book (a book's
//! deepest ones, solved when it was made) may carry any value the checks allow, and
//! `analyse` and the server repeat it.

use crate::position::{AnyGame, Describe, GameKind, GameOptions, GameVisitor};
use cutoff::knowledge::{Assessment, Knowledge};
use cutoff::{MoveBuffer, Value};
use std::collections::HashMap;

/// The games whose table key is the position itself, one to one up to the mirror image, so
/// that a book keyed by it cannot mistake one position for another: the names of the
/// registry's [`GameKind::BOOKS`].
pub const KEYED_EXACTLY: [&str; GameKind::BOOKS.len()] = {
    let mut out = [""; GameKind::BOOKS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = GameKind::BOOKS[i].name();
        i += 1;
    }
    out
};

/// The Connect Four book in the binary: every position of at most 4 stones (see
/// `app/assets/book/connect4.txt` for the command that made it).
pub const CONNECT4: &str = include_str!("../assets/book/connect4.txt");

/// Why a book could not be read, checked, used or built. Each message is one line naming,
/// where it applies, the file and the line at fault.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The book's file could not be read.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// What is wrong with the book in the file `path`.
    #[error("{}: {source}", crate::message::shown_path(.path))]
    InFile {
        /// The file, as `--book` named it.
        path: String,
        /// What is wrong with its text.
        source: Box<BookError>,
    },
    /// What is wrong with line `line` of a book.
    #[error("book line {line}: {source}")]
    AtLine {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        source: Box<BookError>,
    },
    /// The built-in book failed its checks (its first failure's message, kept).
    #[error("{0}")]
    Builtin(String),
    /// A line that is neither `game NAME` nor a position and its value.
    #[error("expected a position and its value")]
    NotAnEntry,
    /// A `game` line without a name.
    #[error("`game` needs a name")]
    GameNeedsName,
    /// A second `game` line.
    #[error("a second `game` line (the book is for {0})")]
    SecondGame(String),
    /// A game that may not have books (see [`KEYED_EXACTLY`]).
    #[error("books are for {}, not {}", KEYED_EXACTLY.join(", "), cutoff::game::quote_max(.0, 40))]
    NotForBooks(String),
    /// A `game` line naming no game.
    #[error("unknown game {}", cutoff::game::quote_max(.0, 40))]
    UnknownGame(String),
    /// A position before the `game` line.
    #[error("a `game NAME` line comes first")]
    GameFirst,
    /// A `board` line that is not right after the `game` line, or not a board.
    #[error("{0}")]
    BadBoard(String),
    /// A value that is not a number.
    #[error("bad value {}", cutoff::game::quote_max(.0, 20))]
    BadValue(String),
    /// A position the game refuses.
    #[error(transparent)]
    Position(#[from] crate::position::PositionError),
    /// A position valued twice, differently (itself or its mirror image).
    #[error("the position (or its mirror image) has another value above")]
    Conflict,
    /// More than [`MAX_ENTRIES`] positions.
    #[error("more than {MAX_ENTRIES} positions")]
    TooMany,
    /// No `game` line at all.
    #[error("book: no `game NAME` line")]
    NoGame,
    /// A value outside the game's range.
    #[error("value {value} outside the game's {lo}..={hi}")]
    OutOfRange {
        /// The value.
        value: Value,
        /// The game's least value.
        lo: Value,
        /// The game's greatest value.
        hi: Value,
    },
    /// A position where the game is over.
    #[error("the game is over at this position: a book holds positions in play")]
    GameOver,
    /// A value below what a move that ends the game gives.
    #[error(
        "value {value}, but move {} ends the game at once with {end} for the side to move",
        cutoff::game::quote(.mv)
    )]
    BelowEndingMove {
        /// The book's value.
        value: Value,
        /// The move, as the game writes it.
        mv: String,
        /// What it gives the side to move.
        end: Value,
    },
    /// A value other than the exact one the game's static analysis gives.
    #[error("value {value}, but the game's analysis without a search gives {known}")]
    AnalysisValue {
        /// The book's value.
        value: Value,
        /// The analysis's.
        known: Value,
    },
    /// A value outside the bounds the game's static analysis gives.
    #[error("value {value}, but the game's analysis without a search puts it in {lo}..={hi}")]
    AnalysisBounds {
        /// The book's value.
        value: Value,
        /// The analysis's lower bound.
        lo: Value,
        /// The analysis's upper bound.
        hi: Value,
    },
    /// A value other than the best of the moves, all in the book or ending the game.
    #[error(
        "value {value}, but its moves, each in the book or ending the game, give at best {best}"
    )]
    Negamax {
        /// The book's value.
        value: Value,
        /// The best of its moves.
        best: Value,
    },
    /// A book of another game (or board) than the one a command looks positions up in.
    #[error("the book is for {book}, not {}", cutoff::game::quote_max(.game, 40))]
    WrongGame {
        /// The book's game.
        book: String,
        /// The command's.
        game: String,
    },
    /// The search building a book was stopped.
    #[error("stopped after {0} nodes")]
    Stopped(u64),
    /// A game that cannot write its positions as arguments.
    #[error("{0} cannot write its positions for a book")]
    CannotWrite(&'static str),
}

impl BookError {
    /// `self` at line `line` of a book.
    fn at(self, line: usize) -> BookError {
        BookError::AtLine {
            line,
            source: Box::new(self),
        }
    }
}

/// [`CONNECT4`], read once.
pub fn builtin() -> Result<&'static Book, BookError> {
    // The failure is kept as its message: the book is checked once, and a cached error
    // cannot be handed out twice otherwise.
    static BOOK: std::sync::OnceLock<Result<Book, String>> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| Book::parse(CONNECT4).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| BookError::Builtin(e.clone()))
}

/// The most positions a book may hold (a bad file must not take unbounded memory): over five
/// times the deepest book `cutoff book` makes.
pub const MAX_ENTRIES: usize = 1 << 20;

/// What `--book` names for the built-in book; any other word is a file name, so a file called
/// `builtin` is given as `./builtin`.
pub const BUILTIN: &str = "builtin";

/// The book `--book SPEC` names, checked for `game` (the name of the game a command will look
/// positions up in): [`BUILTIN`] is the book in the binary, anything else a file, read as
/// untrusted input (a regular file, at most [`crate::files::INPUT_LIMIT`] bytes of UTF-8) and
/// checked by [`read`]. Errors are one line naming the file and, where it applies, its line.
pub fn load(spec: &str, game: &str, board: Option<&str>) -> Result<Book, BookError> {
    if spec == BUILTIN {
        let book = builtin()?;
        book.check_game(game, board)?;
        return Ok(book.clone());
    }
    let file = crate::files::open_regular(std::path::Path::new(spec))?;
    let text = crate::files::read_limited(file, crate::files::Input::file(spec))?;
    read(&text, game, board).map_err(|e| BookError::InFile {
        path: spec.to_string(),
        source: Box::new(e),
    })
}

/// A book's text read and checked ([`Book::parse`]) and found to be for `game`
/// ([`Book::check_game`]): what `cutoff analyse --book FILE` does with the file's text.
pub fn read(text: &str, game: &str, board: Option<&str>) -> Result<Book, BookError> {
    let book = Book::parse(text)?;
    book.check_game(game, board)?;
    Ok(book)
}

/// An opening book, read and checked.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// The game it is for, as the command line names it.
    pub game: String,
    /// Its board, when not the game's default ([`Describe::board`]: Connect Four's `WxH`).
    pub board: Option<String>,
    /// Value from the side to move, by table key.
    values: HashMap<u64, Value>,
}

/// Checks one book entry, the position a command-line position argument gives valued
/// `value`, on its own (see the module's list): `Ok` with its table key, or what is wrong.
struct Entry {
    value: Value,
}

impl GameVisitor for Entry {
    type Output = Result<u64, BookError>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let (pos, value) = (game.initial(), self.value);
        let (lo, hi) = game.value_range();
        if !(lo..=hi).contains(&value) {
            return Err(BookError::OutOfRange { value, lo, hi });
        }
        if game.outcome(&pos).is_some() {
            return Err(BookError::GameOver);
        }
        // A move that ends the game gives the mover the negated outcome: the position is
        // worth at least that (Connect Four: exactly, an immediate win being the best value).
        let mut moves = G::Moves::default();
        game.moves(&pos, &mut moves);
        for &mv in moves.as_slice() {
            if let Some(end) = game.outcome(&game.play(&pos, mv)) {
                if -end > value {
                    return Err(BookError::BelowEndingMove {
                        value,
                        mv: game.format_move(&pos, mv),
                        end: -end,
                    });
                }
            }
        }
        // The game's static analysis, the knowledge the solver itself relies on: an exact
        // value or bounds, then (for bounds and two moves or more) the per-move half. The
        // hint buffer is the size the searches give it (64 slots), at least a move list's.
        let mut hints = vec![0i32; <G::Moves as MoveBuffer<G::Move>>::CAPACITY.max(64)];
        let mut listed = G::Moves::default();
        let mut scratch = Default::default();
        let mut known = G::Knowledge::analyse(game, &pos, &mut listed, &mut hints, &mut scratch);
        if let Assessment::Bounds(lo, hi) = known {
            if (lo..=hi).contains(&value) && listed.len() >= 2 {
                known = G::Knowledge::analyse_moves(game, &pos, &listed, &mut hints, &mut scratch);
            }
        }
        match known {
            Assessment::Value(v) if v != value => Err(BookError::AnalysisValue { value, known: v }),
            Assessment::Bounds(lo, hi) if !(lo..=hi).contains(&value) => {
                Err(BookError::AnalysisBounds { value, lo, hi })
            }
            _ => Ok(G::Knowledge::table_key(game, &pos).0),
        }
    }
}

/// Checks negamax between a book's entries at one position valued `value`: where every move
/// leads to a position of `values` or ends the game, the position is worth the best move.
struct Negamax<'a> {
    value: Value,
    values: &'a HashMap<u64, Value>,
}

impl GameVisitor for Negamax<'_> {
    type Output = Result<(), BookError>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let pos = game.initial();
        let mut moves = G::Moves::default();
        game.moves(&pos, &mut moves);
        let mut best: Option<Value> = None;
        for &mv in moves.as_slice() {
            let child = game.play(&pos, mv);
            let v = match game.outcome(&child) {
                Some(end) => -end,
                None => match self.values.get(&G::Knowledge::table_key(game, &child).0) {
                    Some(&v) => -v,
                    // A move out of the book: its value is the book's word (see the module).
                    None => return Ok(()),
                },
            };
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        match best {
            Some(b) if b != self.value => Err(BookError::Negamax {
                value: self.value,
                best: b,
            }),
            _ => Ok(()),
        }
    }
}

impl Book {
    /// Reads a book and checks it (see the module's list, all but the game a command looks
    /// positions up in: [`Book::check_game`]); an error names the line and what is wrong
    /// with it, in one line.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let text = crate::files::strip_bom(text);
        let mut book = Book::default();
        let mut kind = None;
        // Each position's line number, argument and value, for the checks between entries.
        let mut entries: Vec<(usize, Option<&str>, Value)> = Vec::new();
        let mut shape_args = crate::position::ShapeOptions::default();
        for (i, line) in text.lines().enumerate() {
            let at = |e: BookError| e.at(i + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let (first, second) = (words.next(), words.next());
            if words.next().is_some() {
                return Err(at(BookError::NotAnEntry));
            }
            if first == Some("game") {
                let name = second.ok_or_else(|| at(BookError::GameNeedsName))?;
                if kind.is_some() {
                    return Err(at(BookError::SecondGame(book.game)));
                }
                if !KEYED_EXACTLY.contains(&name) {
                    return Err(at(BookError::NotForBooks(name.to_string())));
                }
                let parsed = GameKind::from_name(name)
                    .ok_or_else(|| at(BookError::UnknownGame(name.to_string())))?;
                book.game = name.to_string();
                kind = Some(parsed);
                continue;
            }
            if first == Some("board") {
                // Right after the game line: the positions are read on it.
                if kind.is_none() || !entries.is_empty() || book.board.is_some() {
                    return Err(at(BookError::BadBoard(
                        "a `board` line comes once, right after the `game` line".into(),
                    )));
                }
                let spec = second.unwrap_or("");
                let shape =
                    crate::position::parse_shape(spec).map_err(|e| at(BookError::BadBoard(e)))?;
                if u64::from(shape.0) * u64::from(shape.1 + 1) > 64 {
                    return Err(at(BookError::BadBoard(format!(
                        "books are for boards of at most 64 bits (width x (height + 1)), \
                         not {spec}"
                    ))));
                }
                shape_args = crate::position::ShapeOptions {
                    board: Some((shape.0, shape.1)),
                    connect: Some(shape.2),
                };
                book.board = Some(crate::position::shape_name(shape));
                continue;
            }
            let kind = kind.ok_or_else(|| at(BookError::GameFirst))?;
            let (Some(pos), Some(value)) = (first, second) else {
                return Err(at(BookError::NotAnEntry));
            };
            let value: Value = value
                .parse()
                .map_err(|_| at(BookError::BadValue(value.to_string())))?;
            // An empty position (the start) is written `-`.
            let arg = (pos != "-").then_some(pos);
            let game = AnyGame::parse(&GameOptions::new(kind, arg).on(shape_args))
                .map_err(|e| at(e.into()))?;
            let key = game.visit(Entry { value }).map_err(at)?;
            if book.values.insert(key, value).is_some_and(|v| v != value) {
                return Err(at(BookError::Conflict));
            }
            if book.values.len() > MAX_ENTRIES {
                return Err(at(BookError::TooMany));
            }
            entries.push((i + 1, arg, value));
        }
        let Some(kind) = kind else {
            return Err(BookError::NoGame);
        };
        // Every entry is in: the check between them does not depend on their order.
        for (line, arg, value) in entries {
            let at = |e: BookError| e.at(line);
            let game = AnyGame::parse(&GameOptions::new(kind, arg).on(shape_args))
                .map_err(|e| at(e.into()))?;
            game.visit(Negamax {
                value,
                values: &book.values,
            })
            .map_err(at)?;
        }
        Ok(book)
    }

    /// `Ok` if the book is for the game named `game`, else an error naming both: a command
    /// given a book looks positions up in it only after this check, so that a book of another
    /// game is not ignored without a word ([`Book::value`] finds nothing in one).
    pub fn check_game(&self, game: &str, board: Option<&str>) -> Result<(), BookError> {
        if self.game == game && self.board.as_deref() == board {
            Ok(())
        } else {
            let named = |g: &str, b: Option<&str>| match b {
                Some(b) => format!("{g} {b}"),
                None => g.to_string(),
            };
            Err(BookError::WrongGame {
                book: named(&self.game, self.board.as_deref()),
                game: named(game, board),
            })
        }
    }

    /// The value of `pos` from its side to move, if the book has it and is for `game` (the
    /// server looks every game up in the built-in book: other games find nothing).
    pub fn value<G: Describe>(&self, game: &G, pos: &G::Pos) -> Option<Value> {
        if game.name() != self.game || game.board() != self.board {
            return None;
        }
        self.values
            .get(&G::Knowledge::table_key(game, pos).0)
            .copied()
    }

    /// The value of `pos` and a move that reaches it, if the book holds every move's position
    /// (and no move ends the game: those are left to a search); the first best move in the
    /// game's order.
    pub fn best<G: Describe>(&self, game: &G, pos: &G::Pos) -> Option<(Value, G::Move)> {
        if game.outcome(pos).is_some() {
            return None;
        }
        let mut moves = G::Moves::default();
        game.moves(pos, &mut moves);
        let mut best: Option<(Value, G::Move)> = None;
        for &mv in moves.as_slice() {
            let child = game.play(pos, mv);
            if game.outcome(&child).is_some() {
                return None;
            }
            let v = -self.value(game, &child)?;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, mv));
            }
        }
        best
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True if it holds no position.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error `Book::parse` gives for `text`.
    fn refused(text: &str) -> String {
        let e = Book::parse(text).expect_err(text).to_string();
        assert_eq!(e.lines().count(), 1, "{e}");
        e
    }

    #[test]
    fn a_book_names_its_board_and_is_read_on_it() {
        // Column 8 exists on 8x4 only (8181 is a draw there, `cutoff solve` says; the
        // checks a book passes do not search, so they cannot say otherwise).
        let book = Book::parse("game connect4\nboard 8x4\n8181 0\n").unwrap();
        assert_eq!(book.board.as_deref(), Some("8x4"));
        book.check_game("connect4", Some("8x4")).unwrap();
        let e = book.check_game("connect4", None).unwrap_err().to_string();
        assert_eq!(e, "the book is for connect4 8x4, not connect4");
        let e = refused("game connect4\n8181 0\n");
        assert!(e.starts_with("book line 2: bad move '8'"), "{e}");
        let e = refused("game connect4\n4 1\nboard 8x4\n");
        assert!(
            e.contains("line 3: a `board` line comes once, right after"),
            "{e}"
        );
        let e = refused("board 8x4\ngame connect4\n");
        assert!(e.contains("line 1: a `board` line comes once"), "{e}");
        let e = refused("game connect4\nboard eight\n");
        assert!(e.contains("line 2: invalid board 'eight'"), "{e}");
        let e = refused("game connect4\nboard 10x7\n");
        assert!(e.contains("at most 64 bits"), "{e}");
        let e = refused("game connect4\nboard 3x7\n1 0\n");
        assert!(e.contains("line 3"), "{e}");
    }

    #[test]
    fn a_position_where_the_game_is_over_is_refused() {
        // X's fourth stone in column 4 has won.
        let e = refused("game connect4\n4343434 5\n");
        assert!(e.starts_with("book line 2: the game is over"), "{e}");
        // The full board, a draw.
        let full = "212112111223233343364446447757556565576677";
        let e = refused(&format!("game connect4\n{full} 0\n"));
        assert!(e.contains("the game is over"), "{e}");
    }

    #[test]
    fn a_value_below_a_move_that_ends_the_game_is_refused() {
        // X wins at once with 4 at 434343: any value below that win is a lie.
        let e = refused("game connect4\n# a comment\n434343 -5\n");
        assert!(
            e.starts_with("book line 3: value -5, but move 4 ends the game at once"),
            "{e}"
        );
        let e = refused("game connect4\n434343 17\n");
        assert!(e.contains("ends the game at once"), "{e}");
    }

    #[test]
    fn a_value_the_games_analysis_rules_out_is_refused() {
        // Nobody wins with their next stone at 1234567: neither O's next-stone win (18) nor
        // its loss to X's next stone (-17) is its value.
        for v in [18, -17] {
            let e = refused(&format!("game connect4\n1234567 {v}\n"));
            assert!(e.contains("analysis without a search"), "{v}: {e}");
        }
        // O threatens both ends of its three on the bottom row: X loses to O's next stone
        // whatever it plays, and the analysis knows the exact value.
        let e = refused("game connect4\n131475 3\n");
        assert!(e.contains("analysis without a search gives -18"), "{e}");
    }

    #[test]
    fn values_are_checked_against_the_games_range() {
        let e = refused("game connect4\n4 99\n");
        assert!(e.contains("outside the game's"), "{e}");
        let e = refused("game connect4\n4 -2147483648\n");
        assert!(e.contains("outside the game's"), "{e}");
    }

    #[test]
    fn entries_are_checked_against_each_other_by_negamax_in_any_order() {
        let book = Book::parse(CONNECT4).unwrap();
        let g = cutoff::games::perfect::connect4::Connect4::from_moves("").unwrap();
        let start = book.value(&g, &cutoff::Game::initial(&g)).unwrap();
        let without = CONNECT4.replace(&format!("\n- {start}\n"), "\n");
        assert_ne!(without, CONNECT4);
        // Without the empty board the rest is consistent; with another value for it, first
        // or last, it is refused.
        Book::parse(&without).unwrap();
        let wrong = start + 1;
        for text in [
            format!("{without}- {wrong}\n"),
            without.replacen("game connect4\n", &format!("game connect4\n- {wrong}\n"), 1),
        ] {
            let e = refused(&text);
            assert!(e.contains("each in the book or ending the game"), "{e}");
        }
    }

    #[test]
    fn the_game_is_checked() {
        let book = builtin().unwrap();
        book.check_game("connect4", None).unwrap();
        let e = book.check_game("tictactoe", None).unwrap_err();
        assert!(matches!(e, BookError::WrongGame { .. }), "{e:?}");
        let e = e.to_string();
        assert_eq!(e, "the book is for connect4, not tictactoe");
        let e = read("game connect4\n", "sim", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("connect4") && e.contains("sim"), "{e}");
        let e = refused("game connect4\ngame connect4\n");
        assert!(e.contains("line 2: a second `game` line"), "{e}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let with = Book::parse(&format!("\u{feff}{CONNECT4}")).unwrap();
        assert_eq!(with.len(), builtin().unwrap().len());
        // Only at the start: elsewhere it is part of a line.
        assert!(Book::parse("game connect4\n\u{feff}4 1\n").is_err());
    }
}
