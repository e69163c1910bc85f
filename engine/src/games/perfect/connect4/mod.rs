//! Connect Four on the standard 7x6 board, as two bitboards.
//!
//! Bit layout: column `c` owns bits `7c .. 7c+6`; bits `7c .. 7c+5` are its six cells from the
//! bottom up and bit `7c+6` is a guard that is always empty, so shifting a bitboard by 1 (up),
//! 7 (sideways), 6 or 8 (diagonals) never carries a line from one column into the next.
//!
//! A position keeps the stones of the side to move (`current`) and all stones (`mask`). Since
//! `mask + bottom` sets exactly one extra bit per column (the lowest empty cell),
//! `current + mask` identifies a position uniquely: that sum is the key.
//!
//! Scores follow the usual solver convention, from the side to move: a win with the winner's
//! k-th stone is worth `22 - k`, a loss `k - 22`, a draw 0.

mod knowledge;

pub use knowledge::{Connect4Knowledge, Connect4Scratch};

use crate::game::{quote, Game, GameError, MoveList, Notation, Player, Value};

/// Board width (columns).
pub const WIDTH: u32 = 7;
/// Board height (rows).
pub const HEIGHT: u32 = 6;
/// Number of cells.
pub const CELLS: u32 = WIDTH * HEIGHT;
/// Bits per column: the cells plus one guard bit.
const COL_BITS: u32 = HEIGHT + 1;
/// The bottom cell of every column.
pub const BOTTOM: u64 = bottom_mask();
/// Every playable cell.
pub const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// Best possible score: a win with the first stone (never reachable, but a safe bound).
pub const MAX_SCORE: Value = (CELLS as Value + 1) / 2 - 3;
/// Worst possible score.
pub const MIN_SCORE: Value = -(CELLS as Value) / 2 + 3;
/// Columns from the centre outwards: central columns take part in more lines.
pub const CENTRE_ORDER: [u8; WIDTH as usize] = [3, 2, 4, 1, 5, 0, 6];

const fn bottom_mask() -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < WIDTH {
        m |= 1 << (c * COL_BITS);
        c += 1;
    }
    m
}

/// Column `c`'s bottom cell and all its cells, looked up: a load is cheaper than the
/// multiply and variable shift (the eighth row only spares the bounds check).
const COLUMN_TABLE: [(u64, u64); 8] = {
    let mut t = [(0, 0); 8];
    let mut c = 0;
    while c < WIDTH {
        t[c as usize] = (1 << (c * COL_BITS), ((1 << HEIGHT) - 1) << (c * COL_BITS));
        c += 1;
    }
    t
};

/// The bottom cell of column `col`.
#[inline]
pub const fn bottom_cell(col: u32) -> u64 {
    COLUMN_TABLE[col as usize & 7].0
}

/// The top cell of column `col`.
#[inline]
pub const fn top_cell(col: u32) -> u64 {
    1 << (HEIGHT - 1 + col * COL_BITS)
}

/// All cells of column `col`.
#[inline]
pub const fn column_cells(col: u32) -> u64 {
    COLUMN_TABLE[col as usize & 7].1
}

/// The lowest empty cell of each column with room, given all stones `mask`.
#[inline]
pub const fn playable_cells(mask: u64) -> u64 {
    (mask + BOTTOM) & BOARD
}

/// True if the stones `p` contain four in a row in any direction.
#[inline]
pub fn has_four(p: u64) -> bool {
    // Directions: 1 vertical, 7 horizontal, 6 and 8 the diagonals.
    for s in [1, COL_BITS, COL_BITS - 1, COL_BITS + 1] {
        let pairs = p & (p >> s);
        if pairs & (pairs >> (2 * s)) != 0 {
            return true;
        }
    }
    false
}

/// The empty cells that would complete four in a row for the stones `p` (`mask`: all
/// stones), whether or not they can be played now.
#[inline]
pub fn winning_cells(p: u64, mask: u64) -> u64 {
    // Vertical: three stones right below the cell.
    let v = p & (p << 1);
    let mut r = (v << 1) & (p << 3);
    for s in [COL_BITS, COL_BITS - 1, COL_BITS + 1] {
        // `pair` marks x where x and x - s hold stones. A cell completes four with the two
        // stones on its low side and a third beyond them or beyond the cell, or with the two
        // on its high side and a third beyond them or on its low side.
        let pair = p & (p << s);
        let low = pair << s;
        let high = pair >> (2 * s);
        r |= low & ((p << (3 * s)) | (p >> s));
        r |= high & ((p << s) | (p >> (3 * s)));
    }
    r & (BOARD ^ mask)
}

/// The key of the mirror image (columns reversed): each column's 7 key bits depend on that
/// column alone (see the module comment), so the columns' bit groups simply trade places.
#[inline]
pub fn mirror_key(k: u64) -> u64 {
    const C: u64 = (1 << COL_BITS) - 1;
    const B: u32 = COL_BITS;
    // Columns 0..=6 to 6..=0: three pairs swap, the centre stays (straight-line code: a loop
    // here cost 5% of a solve's instructions).
    (k & C) << (6 * B)
        | (k & C << B) << (4 * B)
        | (k & C << (2 * B)) << (2 * B)
        | k & C << (3 * B)
        | (k >> (2 * B)) & C << (2 * B)
        | (k >> (4 * B)) & C << B
        | (k >> (6 * B)) & C
}

/// A Connect Four position: the side to move's stones, all stones, and the number of moves.
/// It also carries the mirror images of the two bitboards, kept up to date move by move: the
/// table key is the smaller of the key and its image's, and mirroring a key from scratch at
/// every probe and prefetch cost 6% of a solve's instructions. And it carries both sides'
/// winning cells: a move changes only the mover's (one computation, which the search's
/// per-move analysis has just made for the same move), where every node's analysis needed
/// both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard {
    /// Stones of the side to move.
    pub current: u64,
    /// All stones.
    pub mask: u64,
    /// Stones played so far.
    pub moves: u32,
    /// `current` with the columns reversed.
    mirrored_current: u64,
    /// `mask` with the columns reversed.
    mirrored_mask: u64,
    /// `winning_cells(current, mask)`.
    mine: u64,
    /// `winning_cells(opponent, mask)`.
    theirs: u64,
}

impl Bitboard {
    /// True if column `col` has room.
    #[inline]
    pub fn can_play(&self, col: u32) -> bool {
        self.mask & top_cell(col) == 0
    }

    /// Plays `cell`, whose mirror image is `mirrored_cell`.
    #[inline]
    fn play_cells(&self, cell: u64, mirrored_cell: u64) -> Bitboard {
        let threats = winning_cells(self.current | cell, self.mask | cell);
        self.play_cells_with(cell, mirrored_cell, threats)
    }

    /// Plays `cell`, whose mirror image is `mirrored_cell`, where the mover's winning cells
    /// afterwards are known to be `threats`.
    #[inline(always)]
    fn play_cells_with(&self, cell: u64, mirrored_cell: u64, threats: u64) -> Bitboard {
        let mask = self.mask | cell;
        Bitboard {
            current: self.current ^ self.mask,
            mask,
            moves: self.moves + 1,
            mirrored_current: self.mirrored_current ^ self.mirrored_mask,
            mirrored_mask: self.mirrored_mask | mirrored_cell,
            // The side to move now is the old opponent: its cells lose only the one filled.
            mine: self.theirs & !cell,
            theirs: threats,
        }
    }

    /// Plays column `col`, which must have room.
    #[inline]
    pub fn play_col(&self, col: u32) -> Bitboard {
        // The image's column `WIDTH - 1 - col` has the same height as ours.
        let image = WIDTH - 1 - col;
        self.play_cells(
            (self.mask + bottom_cell(col)) & column_cells(col),
            (self.mirrored_mask + bottom_cell(image)) & column_cells(image),
        )
    }

    /// [`Bitboard::play_col`] where the mover's winning cells after the move are known to be
    /// `threats`.
    #[inline(always)]
    fn play_col_with(&self, col: u32, threats: u64) -> Bitboard {
        let image = WIDTH - 1 - col;
        self.play_cells_with(
            (self.mask + bottom_cell(col)) & column_cells(col),
            (self.mirrored_mask + bottom_cell(image)) & column_cells(image),
            threats,
        )
    }

    /// The key of the mirror image, equal to `mirror_key(self.key())`.
    #[inline]
    pub fn mirrored_key(&self) -> u64 {
        self.mirrored_current + self.mirrored_mask
    }

    /// The cells that can be played now (the lowest empty cell of each column with room).
    #[inline]
    pub fn playable(&self) -> u64 {
        playable_cells(self.mask)
    }

    /// Stones of the player who just moved.
    #[inline]
    pub fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// True if the player who just moved has four in a row.
    #[inline]
    pub fn last_mover_won(&self) -> bool {
        has_four(self.opponent())
    }

    /// The unique key of the position (see the module comment).
    #[inline]
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// Number of winning cells the side to move would have after playing `cell`: the
    /// threat-count ordering hint.
    #[inline]
    pub fn threats_after(&self, cell: u64) -> u32 {
        winning_cells(self.current | cell, self.mask).count_ones()
    }

    /// The mirror image: columns reversed.
    pub fn mirror(&self) -> Bitboard {
        Bitboard {
            current: self.mirrored_current,
            mask: self.mirrored_mask,
            moves: self.moves,
            mirrored_current: self.current,
            mirrored_mask: self.mask,
            mine: mirror_key(self.mine),
            theirs: mirror_key(self.theirs),
        }
    }
}

/// Connect Four from a given start position.
#[derive(Clone, Debug)]
pub struct Connect4 {
    start: Bitboard,
}

impl Default for Connect4 {
    fn default() -> Self {
        Self::new()
    }
}

impl Connect4 {
    /// The empty board.
    pub fn new() -> Self {
        Connect4 {
            start: Bitboard::default(),
        }
    }

    /// The position reached by playing the columns in `moves` (`1`..`7`, leftmost first) from
    /// the empty board; the empty string is the empty board. Surrounding whitespace is
    /// ignored, but a string of whitespace alone is an error: most likely a position lost on
    /// its way (an unset shell variable in quotes), not a request for the empty board.
    pub fn from_moves(moves: &str) -> Result<Self, GameError> {
        if !moves.is_empty() && moves.trim().is_empty() {
            return Err(GameError::new(format!(
                "blank position '{}': leave the position out (or give \"\") for the empty board",
                quote(moves)
            )));
        }
        let mut b = Bitboard::default();
        for (i, ch) in moves.trim().chars().enumerate() {
            let col = match ch {
                '1'..='7' => ch as u32 - '1' as u32,
                _ => {
                    return Err(GameError::new(format!(
                        "bad move '{}' at position {} of the move string (columns are 1 to 7)",
                        quote(ch.encode_utf8(&mut [0; 4])),
                        i + 1
                    )))
                }
            };
            if b.last_mover_won() {
                return Err(GameError::new(format!(
                    "move {} ('{ch}') comes after the game ended with four in a row",
                    i + 1
                )));
            }
            if !b.can_play(col) {
                return Err(GameError::new(format!(
                    "move {} plays column {} which is full",
                    i + 1,
                    col + 1
                )));
            }
            b = b.play_col(col);
        }
        Ok(Connect4 { start: b })
    }

    /// The start position.
    pub fn board(&self) -> Bitboard {
        self.start
    }
}

impl Game for Connect4 {
    type Pos = Bitboard;
    type Move = u8;
    type Moves = MoveList<u8, { WIDTH as usize }>;
    type Knowledge = Connect4Knowledge;

    fn initial(&self) -> Bitboard {
        self.start
    }

    fn to_move(&self, pos: &Bitboard) -> Player {
        if pos.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn outcome(&self, pos: &Bitboard) -> Option<Value> {
        if pos.last_mover_won() {
            // The winner's stone count is ceil(moves / 2).
            let k = pos.moves.div_ceil(2) as Value;
            Some(k - 22)
        } else if pos.moves == CELLS {
            Some(0)
        } else {
            None
        }
    }

    fn moves(&self, pos: &Bitboard, out: &mut Self::Moves) {
        use crate::game::MoveBuffer;
        out.clear();
        for c in CENTRE_ORDER {
            if pos.can_play(c as u32) {
                out.push(c);
            }
        }
    }

    #[inline(always)]
    fn play(&self, pos: &Bitboard, mv: u8) -> Bitboard {
        pos.play_col(mv as u32)
    }

    fn move_code(&self, mv: u8) -> u8 {
        mv
    }

    fn value_range(&self) -> (Value, Value) {
        (MIN_SCORE, MAX_SCORE)
    }

    fn key(&self, pos: &Bitboard) -> u64 {
        pos.key()
    }

    fn max_plies(&self, pos: &Bitboard) -> usize {
        (CELLS - pos.moves) as usize
    }
}

impl Notation for Connect4 {
    fn name(&self) -> &'static str {
        "connect4"
    }

    fn format_move(&self, _pos: &Bitboard, mv: u8) -> String {
        (mv + 1).to_string()
    }

    fn parse_move(&self, pos: &Bitboard, text: &str) -> Result<u8, GameError> {
        let col: u32 = match text.trim().parse() {
            Ok(c @ 1..=7) => c,
            _ => {
                return Err(GameError::new(format!(
                    "bad column '{}' (columns are 1 to 7)",
                    quote(text)
                )))
            }
        };
        if !pos.can_play(col - 1) {
            return Err(GameError::new(format!("column {col} is full")));
        }
        Ok((col - 1) as u8)
    }

    /// A score from the side to move: a win with its `k`-th stone is `22 - k`, a loss to the
    /// opponent's `k`-th stone `k - 22` (stones counted from the empty board, each player's
    /// own), a draw 0.
    fn explain_value(&self, _pos: &Bitboard, value: Value) -> String {
        match value.signum() {
            1 => format!("win with its {} stone", ordinal(22 - value)),
            -1 => format!("loss: the opponent's {} stone wins", ordinal(22 + value)),
            _ => "draw".into(),
        }
    }

    /// The board from the top row down, `X` for the first player's stones and `O` for the
    /// second's, with the column numbers underneath.
    fn diagram(&self, pos: &Bitboard) -> Option<String> {
        let first = if pos.moves.is_multiple_of(2) {
            pos.current
        } else {
            pos.opponent()
        };
        let mut s = String::new();
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let cell = 1u64 << (col * COL_BITS + row);
                s.push(' ');
                s.push(if pos.mask & cell == 0 {
                    '.'
                } else if first & cell != 0 {
                    'X'
                } else {
                    'O'
                });
            }
            s.push('\n');
        }
        s.push_str(" 1 2 3 4 5 6 7");
        Some(s)
    }
}

/// `n` with its English ordinal suffix: 1st, 2nd, 3rd, 4th, 11th, 21st.
fn ordinal(n: Value) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// One line of a test set: a position and its expected exact score.
#[derive(Clone, Debug)]
pub struct SuiteLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position as its move string.
    pub moves: String,
    /// The position itself.
    pub game: Connect4,
    /// The expected exact score.
    pub expected: Value,
}

/// Reads a test set of `<moves> <score>` lines (the format of the six public sets; blank
/// lines and `#` comments are skipped, and so is a byte-order mark at the start); an error
/// names the line and what is wrong with it.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteLine>, GameError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(moves), Some(score), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(GameError::new(format!(
                "line {}: expected '<moves> <score>', found '{}'",
                i + 1,
                quote(line)
            )));
        };
        let expected: Value = score
            .parse()
            .map_err(|_| GameError::new(format!("line {}: bad score '{}'", i + 1, quote(score))))?;
        let game = Connect4::from_moves(moves)
            .map_err(|e| GameError::new(format!("line {}: {e}", i + 1)))?;
        out.push(SuiteLine {
            line: i + 1,
            moves: moves.to_string(),
            game,
            expected,
        });
    }
    if out.is_empty() {
        return Err(GameError::new("the suite holds no positions"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertical_and_horizontal_fours_are_seen() {
        // First player stacks column 1 four times while the second plays column 2.
        let g = Connect4::from_moves("1212121").unwrap();
        assert!(g.board().last_mover_won());
        assert_eq!(g.outcome(&g.board()), Some(4 - 22));
        let g = Connect4::from_moves("1122334").unwrap();
        assert!(g.board().last_mover_won());
    }

    #[test]
    fn bad_move_strings_are_rejected() {
        assert!(Connect4::from_moves("1238").is_err());
        assert!(Connect4::from_moves("1111111").is_err());
        assert!(Connect4::from_moves("12121212").is_err());
        assert!(Connect4::from_moves("").is_ok());
    }

    #[test]
    fn mirror_reverses_the_columns() {
        // The mirror of a position is the position reached by the mirrored moves.
        for moves in ["4453", "1", "7", "1234567", "112233", "3517", "7654321765"] {
            let image: String = moves
                .chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect();
            let a = Connect4::from_moves(moves).unwrap().board();
            let b = Connect4::from_moves(&image).unwrap().board();
            assert_eq!(a.mirror(), b, "{moves}");
            assert_eq!(mirror_key(a.key()), b.key(), "{moves}");
            assert_eq!(a.mirrored_key(), b.key(), "{moves}");
            assert_eq!(a.mirror().mirror(), a, "{moves}");
        }
    }

    #[test]
    fn winning_cells_match_brute_force() {
        // Every empty cell flagged must complete four when filled, and every such cell is
        // flagged: for both sides of positions reached by random play, up to full columns.
        // The mirrored key and both sides' winning cells, kept move by move, must match
        // those computed from scratch (for the mirror image too).
        let mut seed = crate::rng::GOLDEN;
        let mut checked = 0;
        for _ in 0..300 {
            let mut b = Bitboard::default();
            while b.moves < CELLS && !b.last_mover_won() {
                assert_eq!(b.mirrored_key(), mirror_key(b.key()), "{b:?}");
                assert_eq!(b.mine, winning_cells(b.current, b.mask), "{b:?}");
                assert_eq!(b.theirs, winning_cells(b.opponent(), b.mask), "{b:?}");
                let image = b.mirror();
                assert_eq!(
                    image.mine,
                    winning_cells(image.current, image.mask),
                    "{b:?}"
                );
                assert_eq!(image.theirs, winning_cells(image.opponent(), image.mask));
                for p in [b.current, b.opponent()] {
                    let w = winning_cells(p, b.mask);
                    for bit in 0..64 {
                        let cell = 1u64 << bit;
                        if cell & BOARD == 0 || cell & b.mask != 0 {
                            assert_eq!(w & cell, 0, "cell {bit} is not empty");
                            continue;
                        }
                        assert_eq!(w & cell != 0, has_four(p | cell), "cell {bit} of {b:?}");
                        checked += 1;
                    }
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let open: Vec<u32> = (0..WIDTH).filter(|&c| b.can_play(c)).collect();
                b = b.play_col(open[(seed % open.len() as u64) as usize]);
            }
        }
        assert!(checked > 100_000, "{checked} cells checked");
    }
}
