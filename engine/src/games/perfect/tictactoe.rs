//! Tic-tac-toe on two 9-bit masks.
//!
//! Cells are numbered 1 to 9 row by row from the top left; cell `c` is bit `c - 1` of a mask.
//! X moves first (X is [`Player::First`]), so the side to move follows from the counts.
//!
//! # Board notation ([`TicTacToe::from_board`])
//!
//! Nine cells row by row: `X` or `x`, `O` or `o`, and `.` or `#` for an empty cell. The rows
//! may be written together (`XXO.X..OO`), or as three rows of three cells separated by `/`,
//! whitespace or newlines (`XXO/#X#/#OO`, `"XXO\n#X#\n#OO"`), or as nine cells separated by
//! whitespace (`X X O . X . . O O`).
//!
//! Moves are cells 1..=9, written as the digit and generated in cell order, so an unpruned
//! search of the empty board visits the classic 549,946 nodes.

use crate::game::{quote, Game, GameError, MoveBuffer, MoveList, Notation, Player, Value};

/// The eight lines: three rows, three columns, two diagonals.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Every cell.
const FULL: u16 = 0x1FF;

/// True if `mask` holds a complete line.
#[inline]
fn has_line(mask: u16) -> bool {
    for line in LINES {
        if mask & line == line {
            return true;
        }
    }
    false
}

/// A tic-tac-toe position: X's cells and O's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// X's cells (bit `c - 1` for cell `c`).
    pub x: u16,
    /// O's cells.
    pub o: u16,
}

impl Board {
    /// The side to move: X when both have played as often, else O.
    #[inline]
    pub fn side(&self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> u16 {
        FULL & !(self.x | self.o)
    }

    /// The board in the notation [`TicTacToe::from_board`] reads: rows separated by `/`.
    pub fn notation(&self) -> String {
        let mut s = String::with_capacity(11);
        for c in 0..9 {
            if c > 0 && c % 3 == 0 {
                s.push('/');
            }
            let bit = 1 << c;
            s.push(if self.x & bit != 0 {
                'X'
            } else if self.o & bit != 0 {
                'O'
            } else {
                '.'
            });
        }
        s
    }
}

/// Tic-tac-toe from a given starting board (the empty one by default).
#[derive(Clone, Debug)]
pub struct TicTacToe {
    start: Board,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe::new()
    }
}

impl TicTacToe {
    /// The game from the empty board, X to move.
    pub fn new() -> TicTacToe {
        TicTacToe {
            start: Board { x: 0, o: 0 },
        }
    }

    /// The game from a written board (see the module comment for the notation). The side to
    /// move follows from the counts. Errors name the problem: a wrong number of cells, a bad
    /// character, counts no game reaches, both players with a line, or a line made by the
    /// player who did not move last.
    pub fn from_board(s: &str) -> Result<TicTacToe, GameError> {
        let mut x = 0u16;
        let mut o = 0u16;
        let mut cells = 0usize;
        // The groups of cells between separators: how many, the first one's length, and
        // whether they all have that length.
        let mut groups = 0usize;
        let mut first_len = 0usize;
        let mut even = true;
        let mut len = 0usize;
        for ch in s.chars().chain(std::iter::once('/')) {
            if ch == '/' || ch.is_whitespace() {
                if len > 0 {
                    groups += 1;
                    if groups == 1 {
                        first_len = len;
                    } else if len != first_len {
                        even = false;
                    }
                    len = 0;
                }
                continue;
            }
            let bit = if cells < 9 { 1u16 << cells } else { 0 };
            match ch {
                'X' | 'x' => x |= bit,
                'O' | 'o' => o |= bit,
                '.' | '#' => {}
                _ => {
                    return Err(GameError::new(format!(
                        "invalid character '{}' in board (expected X, O, '.' or '#')",
                        quote(ch.encode_utf8(&mut [0; 4]))
                    )))
                }
            }
            cells += 1;
            len += 1;
        }
        if cells != 9 {
            return Err(GameError::new(format!("expected 9 cells, found {cells}")));
        }
        if !even || !matches!((groups, first_len), (1, 9) | (3, 3) | (9, 1)) {
            return Err(GameError::new(
                "expected the 9 cells together, as three rows of 3 cells, or as 9 separate cells",
            ));
        }
        let board = Board { x, o };
        TicTacToe::check(board)?;
        Ok(TicTacToe { start: board })
    }

    /// Checks that `board` can arise in a game.
    fn check(board: Board) -> Result<(), GameError> {
        let (nx, no) = (board.x.count_ones(), board.o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(GameError::new(format!(
                "impossible counts: {nx} X and {no} O (X moves first, so X has as many as O or one more)"
            )));
        }
        let (wx, wo) = (has_line(board.x), has_line(board.o));
        if wx && wo {
            return Err(GameError::new("both X and O have three in a row"));
        }
        if wx && nx == no {
            return Err(GameError::new(
                "X has three in a row but O moved last (equal counts)",
            ));
        }
        if wo && nx != no {
            return Err(GameError::new(
                "O has three in a row but X moved last (X has one more)",
            ));
        }
        Ok(())
    }

    /// The starting board.
    pub fn board(&self) -> Board {
        self.start
    }
}

impl Game for TicTacToe {
    type Pos = Board;
    type Move = u8;
    type Moves = MoveList<u8, 9>;
    type Knowledge = crate::knowledge::NoKnowledge;

    fn initial(&self) -> Board {
        self.start
    }

    fn to_move(&self, pos: &Board) -> Player {
        pos.side()
    }

    #[inline]
    fn outcome(&self, pos: &Board) -> Option<Value> {
        // Only the player who just moved can have a line.
        let last = match pos.side() {
            Player::First => pos.o,
            Player::Second => pos.x,
        };
        if has_line(last) {
            Some(-1)
        } else if pos.x | pos.o == FULL {
            Some(0)
        } else {
            None
        }
    }

    #[inline]
    fn moves(&self, pos: &Board, out: &mut Self::Moves) {
        out.clear();
        let mut empty = pos.empty();
        while empty != 0 {
            out.push(empty.trailing_zeros() as u8 + 1);
            empty &= empty - 1;
        }
    }

    #[inline]
    fn play(&self, pos: &Board, mv: u8) -> Board {
        let bit = 1u16 << (mv - 1);
        match pos.side() {
            Player::First => Board {
                x: pos.x | bit,
                o: pos.o,
            },
            Player::Second => Board {
                x: pos.x,
                o: pos.o | bit,
            },
        }
    }

    fn key(&self, pos: &Board) -> u64 {
        // Bit-packed, with a marker bit so that no key is 0 (the table never stores key 0);
        // the side to move follows from the counts.
        u64::from(pos.x) | u64::from(pos.o) << 9 | 1 << 18
    }

    fn max_plies(&self, pos: &Board) -> usize {
        pos.empty().count_ones() as usize
    }

    fn move_code(&self, mv: u8) -> u8 {
        mv - 1
    }

    fn value_range(&self) -> (Value, Value) {
        (-1, 1)
    }
}

impl Notation for TicTacToe {
    fn name(&self) -> &'static str {
        "tictactoe"
    }

    fn format_move(&self, _pos: &Board, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &Board, text: &str) -> Result<u8, GameError> {
        let text = text.trim();
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GameError::new(format!(
                "invalid move '{}': expected a cell number 1 to 9",
                quote(text)
            )));
        }
        let cell = match text.parse::<u64>() {
            Ok(c @ 1..=9) => c as u8,
            _ => {
                return Err(GameError::new(format!(
                    "cell {} is out of range (cells are 1 to 9, row by row)",
                    quote(text)
                )))
            }
        };
        if pos.empty() & 1 << (cell - 1) == 0 {
            return Err(GameError::new(format!("cell {cell} is already taken")));
        }
        Ok(cell)
    }

    /// The 3x3 grid with `X` and `O`, and each empty cell's number (the move that plays it).
    fn diagram(&self, pos: &Board) -> Option<String> {
        let mut s = String::new();
        for row in 0..3 {
            if row > 0 {
                s.push_str("\n---+---+---\n");
            }
            for col in 0..3 {
                let c = row * 3 + col;
                let bit = 1u16 << c;
                let mark = if pos.x & bit != 0 {
                    'X'
                } else if pos.o & bit != 0 {
                    'O'
                } else {
                    char::from(b'1' + c as u8)
                };
                if col > 0 {
                    s.push_str(" |");
                }
                s.push(' ');
                s.push(mark);
            }
        }
        Some(s)
    }
}
