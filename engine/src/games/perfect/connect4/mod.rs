//! Connect Four on any board of up to 128 bits, as two bitboards: the standard 7x6 board by
//! default, any width and height (both at least 4) and any winning line from 3 to 6 stones
//! chosen at run time (see [`geometry`]).
//!
//! A position keeps the stones of the side to move (`current`) and all stones (`mask`). Since
//! `mask + bottom` sets exactly one extra bit per column (the lowest empty cell),
//! `current + mask` identifies a position uniquely: that sum is the key.
//!
//! Scores follow the usual solver convention, generalised to every board, from the side to
//! move: a win on move `m` (both players' stones counted, from the empty board) is worth
//! `1 + (W x H - m) / 2` (integer division), a loss the negative, a draw 0. On 7x6 a win with
//! the winner's `k`-th stone is `22 - k`.

pub mod geometry;
mod knowledge;
mod rules;

pub use geometry::{Fixed128, Fixed64, Geometry, KeyForm, Shape, Standard, Word};
pub use knowledge::{Connect4Knowledge, Connect4Scratch};

use crate::game::{quote, GameError, Notation, Value};

/// The standard board's width (columns).
pub const WIDTH: u32 = 7;
/// The standard board's height (rows).
pub const HEIGHT: u32 = 6;
/// The standard board's cells.
pub const CELLS: u32 = WIDTH * HEIGHT;
/// The standard board's best possible score: a win with the first player's fourth stone.
pub const MAX_SCORE: Value = (CELLS as Value + 1) / 2 - 3;
/// The standard board's worst possible score.
pub const MIN_SCORE: Value = -(CELLS as Value) / 2 + 3;

/// A Connect Four position: the side to move's stones, all stones, and the number of moves.
/// It also carries the mirror images of the two bitboards, kept up to date move by move: the
/// table key is the smaller of the key and its image's, and mirroring a key from scratch at
/// every probe and prefetch cost 6% of a solve's instructions. And it carries both sides'
/// winning cells: a move changes only the mover's (one computation, which the search's
/// per-move analysis has just made for the same move), where every node's analysis needed
/// both. Its methods that depend on the board's shape are [`Connect4`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<W: Word = u64> {
    /// Stones of the side to move.
    pub current: W,
    /// All stones.
    pub mask: W,
    /// Stones played so far.
    pub moves: u32,
    /// `current` with the columns reversed.
    mirrored_current: W,
    /// `mask` with the columns reversed.
    mirrored_mask: W,
    /// The winning cells of `current`.
    mine: W,
    /// The winning cells of the opponent.
    theirs: W,
}

impl<W: Word> Bitboard<W> {
    /// Plays `cell`, whose mirror image is `mirrored_cell`, where the mover's winning cells
    /// afterwards are `threats`.
    #[inline(always)]
    fn play_cells_with(&self, cell: W, mirrored_cell: W, threats: W) -> Bitboard<W> {
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

    /// The key of the mirror image.
    #[inline]
    pub fn mirrored_key(&self) -> W {
        self.mirrored_current + self.mirrored_mask
    }

    /// Stones of the player who just moved.
    #[inline]
    pub fn opponent(&self) -> W {
        self.current ^ self.mask
    }

    /// The unique key of the position (see the module comment).
    #[inline]
    pub fn key(&self) -> W {
        self.current + self.mask
    }
}

/// Connect Four on the board `G` from a given start position: [`Standard`] (7x6, four in a
/// row) unless said otherwise.
#[derive(Clone, Debug)]
pub struct Connect4<G: Geometry = Standard> {
    geo: G,
    start: Bitboard<G::Word>,
}

impl Default for Connect4 {
    fn default() -> Self {
        Self::new()
    }
}

impl Connect4 {
    /// The empty 7x6 board.
    pub fn new() -> Self {
        Connect4::empty(Standard)
    }

    /// The 7x6 position reached by playing the columns in `moves` (`1`..`7`, leftmost first)
    /// from the empty board; see [`Connect4::empty`] and [`Connect4::after`].
    pub fn from_moves(moves: &str) -> Result<Self, GameError> {
        Connect4::new().after(moves)
    }
}

impl<G: Geometry> Connect4<G> {
    /// The empty board of shape `geo`.
    pub fn empty(geo: G) -> Self {
        Connect4 {
            geo,
            start: Bitboard::default(),
        }
    }

    /// The position reached by playing the columns in `moves` from this game's start: digits
    /// (`1` is the leftmost column) on boards up to 9 wide, or on any board the columns
    /// separated by commas (`10,3,3`). The empty string is the start itself. Surrounding
    /// whitespace is ignored, but a string of whitespace alone is an error: most likely a
    /// position lost on its way (an unset shell variable in quotes), not a request for the
    /// empty board.
    pub fn after(&self, moves: &str) -> Result<Self, GameError> {
        if !moves.is_empty() && moves.trim().is_empty() {
            return Err(GameError::new(format!(
                "blank position '{}': leave the position out (or give \"\") for the empty board",
                quote(moves)
            )));
        }
        let width = self.geo.width();
        let text = moves.trim();
        // Digits on boards up to 9 wide, unless commas separate the columns; commas always
        // beyond (a lone column needs none).
        let columns: Vec<&str> = if text.is_empty() {
            Vec::new()
        } else if width > 9 || text.contains(',') {
            text.split(',').map(str::trim).collect()
        } else {
            text.char_indices()
                .map(|(i, c)| &text[i..i + c.len_utf8()])
                .collect()
        };
        let mut b = self.start;
        for (i, word) in columns.into_iter().enumerate() {
            let col = match word.parse::<u32>() {
                Ok(c) if (1..=width).contains(&c) && word.bytes().all(|d| d.is_ascii_digit()) => {
                    c - 1
                }
                _ => {
                    return Err(GameError::new(format!(
                    "bad move '{}' at position {} of the move string (columns are 1 to {width}{})",
                    quote(word),
                    i + 1,
                    if width > 9 {
                        ", separated by commas"
                    } else {
                        ""
                    }
                )))
                }
            };
            if self.last_mover_won(&b) {
                return Err(GameError::new(format!(
                    "move {} ('{}') comes after the game ended with {} in a row",
                    i + 1,
                    quote(word),
                    ["three", "four", "five", "six"][self.geo.connect() as usize - 3]
                )));
            }
            if !self.can_play(&b, col) {
                return Err(GameError::new(format!(
                    "move {} plays column {} which is full",
                    i + 1,
                    col + 1
                )));
            }
            b = self.play_col(&b, col);
        }
        Ok(Connect4 {
            geo: self.geo,
            start: b,
        })
    }

    /// The start position.
    pub fn board(&self) -> Bitboard<G::Word> {
        self.start
    }

    /// The board's shape.
    pub fn geometry(&self) -> &G {
        &self.geo
    }

    /// The board as `WxH`, with `/K` where the winning line is not four.
    pub fn shape_name(&self) -> String {
        shape_name(self.geo.width(), self.geo.height(), self.geo.connect())
    }

    /// True if column `col` has room.
    #[inline]
    pub fn can_play(&self, pos: &Bitboard<G::Word>, col: u32) -> bool {
        pos.mask & self.geo.top_cell(col) == G::Word::ZERO
    }

    /// Plays column `col`, which must have room.
    #[inline]
    pub fn play_col(&self, pos: &Bitboard<G::Word>, col: u32) -> Bitboard<G::Word> {
        let (cell, image) = self.cells_of(pos, col);
        let threats = self.geo.winning_cells(pos.current | cell, pos.mask | cell);
        pos.play_cells_with(cell, image, threats)
    }

    /// [`Connect4::play_col`] where the mover's winning cells after the move are known to be
    /// `threats`.
    #[inline(always)]
    fn play_col_with(
        &self,
        pos: &Bitboard<G::Word>,
        col: u32,
        threats: G::Word,
    ) -> Bitboard<G::Word> {
        let (cell, image) = self.cells_of(pos, col);
        pos.play_cells_with(cell, image, threats)
    }

    /// The cell a stone in column `col` lands on, and its mirror image.
    #[inline(always)]
    fn cells_of(&self, pos: &Bitboard<G::Word>, col: u32) -> (G::Word, G::Word) {
        let g = &self.geo;
        // The image's column `W - 1 - col` has the same height as ours.
        let image = g.width() - 1 - col;
        (
            (pos.mask + g.bottom_cell(col)) & g.column_cells(col),
            (pos.mirrored_mask + g.bottom_cell(image)) & g.column_cells(image),
        )
    }

    /// The cells that can be played now (the lowest empty cell of each column with room).
    #[inline]
    pub fn playable(&self, pos: &Bitboard<G::Word>) -> G::Word {
        self.geo.playable_cells(pos.mask)
    }

    /// True if the player who just moved has a winning line.
    #[inline]
    pub fn last_mover_won(&self, pos: &Bitboard<G::Word>) -> bool {
        self.geo.has_line(pos.opponent())
    }

    /// Number of winning cells the side to move would have after playing `cell`: the
    /// threat-count ordering hint.
    #[inline]
    pub fn threats_after(&self, pos: &Bitboard<G::Word>, cell: G::Word) -> u32 {
        self.geo
            .winning_cells(pos.current | cell, pos.mask)
            .count_ones()
    }

    /// The mirror image of `pos`: columns reversed.
    pub fn mirror(&self, pos: &Bitboard<G::Word>) -> Bitboard<G::Word> {
        Bitboard {
            current: pos.mirrored_current,
            mask: pos.mirrored_mask,
            moves: pos.moves,
            mirrored_current: pos.current,
            mirrored_mask: pos.mask,
            mine: self.geo.mirror(pos.mine),
            theirs: self.geo.mirror(pos.theirs),
        }
    }

    /// The value of a win on move `m` (both players' stones counted): `1 + (W x H - m) / 2`.
    #[inline(always)]
    pub fn win_on_move(&self, m: u32) -> Value {
        1 + (self.geo.cells() - m) as Value / 2
    }

    /// The best score possible: a win with the first player's `K`-th stone.
    pub fn max_score(&self) -> Value {
        self.win_on_move(2 * self.geo.connect() - 1)
    }

    /// The worst score possible: a loss to the second player's `K`-th stone.
    pub fn min_score(&self) -> Value {
        -self.win_on_move(2 * self.geo.connect())
    }

    /// The move (both players' stones counted) on which a game of value `value`, from the
    /// side to move in `pos`, ends with perfect play; `None` for a draw.
    pub fn end_move(&self, pos: &Bitboard<G::Word>, value: Value) -> Option<u32> {
        if value == 0 {
            return None;
        }
        // A win on move m is worth 1 + (C - m) / 2: the side to move plays moves of the
        // parity of `pos.moves + 1`, the opponent the others.
        let cells = self.geo.cells() as Value;
        let ours = value > 0;
        let v = value.abs();
        let mover_parity = (pos.moves as Value + 1) % 2;
        // A finished game (a loss, to the stone just played) ended on move `pos.moves`.
        (pos.moves.max(1) as Value..=cells)
            .find(|&m| 1 + (cells - m) / 2 == v && ((m % 2 == mover_parity) == ours))
            .map(|m| m as u32)
    }
}

/// A board's name: `WxH`, with `/K` where the winning line is not four.
pub fn shape_name(width: u32, height: u32, connect: u32) -> String {
    if connect == 4 {
        format!("{width}x{height}")
    } else {
        format!("{width}x{height}/{connect}")
    }
}

impl<G: Geometry> Notation for Connect4<G> {
    fn name(&self) -> &'static str {
        "connect4"
    }

    fn format_move(&self, _pos: &Bitboard<G::Word>, mv: u8) -> String {
        (mv + 1).to_string()
    }

    fn parse_move(&self, pos: &Bitboard<G::Word>, text: &str) -> Result<u8, GameError> {
        let width = self.geo.width();
        let col: u32 = match text.trim().parse() {
            Ok(c @ 1..) if c <= width => c,
            _ => {
                return Err(GameError::new(format!(
                    "bad column '{}' (columns are 1 to {width})",
                    quote(text)
                )))
            }
        };
        if !self.can_play(pos, col - 1) {
            return Err(GameError::new(format!("column {col} is full")));
        }
        Ok((col - 1) as u8)
    }

    /// A score from the side to move: on 7x6 a win with its `k`-th stone is `22 - k`, a loss
    /// to the opponent's `k`-th stone `k - 22` (stones counted from the empty board, each
    /// player's own), a draw 0; on other boards the words also give the move.
    fn explain_value(&self, pos: &Bitboard<G::Word>, value: Value) -> String {
        let Some(m) = self.end_move(pos, value) else {
            return if value == 0 {
                "draw".into()
            } else {
                value.to_string()
            };
        };
        let stone = ordinal(m.div_ceil(2) as Value);
        let standard = self.geo.width() == WIDTH && self.geo.height() == HEIGHT;
        match (value > 0, standard) {
            (true, true) => format!("win with its {stone} stone"),
            (false, true) => format!("loss: the opponent's {stone} stone wins"),
            (true, false) => format!("win on move {m}, with its {stone} stone"),
            (false, false) => format!("loss on move {m}: the opponent's {stone} stone wins"),
        }
    }

    /// The board from the top row down, `X` for the first player's stones and `O` for the
    /// second's, with the column numbers underneath.
    fn diagram(&self, pos: &Bitboard<G::Word>) -> Option<String> {
        let g = &self.geo;
        let first = if pos.moves.is_multiple_of(2) {
            pos.current
        } else {
            pos.opponent()
        };
        let wide = g.width() > 9;
        let mut s = String::new();
        for row in (0..g.height()).rev() {
            for col in 0..g.width() {
                let cell = G::Word::bit(col * g.col_bits() + row);
                s.push_str(if wide { "  " } else { " " });
                s.push(if pos.mask & cell == G::Word::ZERO {
                    '.'
                } else if first & cell != G::Word::ZERO {
                    'X'
                } else {
                    'O'
                });
            }
            s.push('\n');
        }
        for col in 1..=g.width() {
            if wide {
                s.push_str(&format!("{col:>3}"));
            } else {
                s.push_str(&format!(" {col}"));
            }
        }
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
pub struct SuiteLine<G: Geometry = Standard> {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position as its move string.
    pub moves: String,
    /// The position itself.
    pub game: Connect4<G>,
    /// The expected exact score.
    pub expected: Value,
}

/// Reads a 7x6 test set of `<moves> <score>` lines (the format of the six public sets; blank
/// lines and `#` comments are skipped, and so is a byte-order mark at the start); an error
/// names the line and what is wrong with it.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteLine>, GameError> {
    parse_suite_on(text, &Connect4::new())
}

/// Reads a test set as [`parse_suite`] does, its positions played from `start` (an empty
/// board of the set's shape: see [`suite_shape`]).
pub fn parse_suite_on<G: Geometry>(
    text: &str,
    start: &Connect4<G>,
) -> Result<Vec<SuiteLine<G>>, GameError> {
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
        let game = start
            .after(moves)
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

/// The board a test set says it is for, as `(width, height, connect)`: a header line
/// `# board WxH` or `# board WxH/K` (K in a row) among the comment lines before its first
/// position; `None` if it names none (a 7x6 set, like the six public ones). A header that
/// cannot be read is an error naming its line; the shape's own limits are checked where the
/// board is built ([`geometry::check_shape`]).
pub fn suite_shape(text: &str) -> Result<Option<(u32, u32, u32)>, GameError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let Some(comment) = line.strip_prefix('#') else {
            // The first position: no header before it.
            return Ok(None);
        };
        let Some(shape) = comment.trim().strip_prefix("board ") else {
            continue;
        };
        let bad = || {
            GameError::new(format!(
                "line {}: bad board header '{}' (expected '# board WxH' or '# board WxH/K')",
                i + 1,
                quote(line)
            ))
        };
        let (w, h, k) = geometry::read_shape(shape).ok_or_else(bad)?;
        return Ok(Some((w, h, k.unwrap_or(4))));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn a_suite_header_names_its_board() {
        assert_eq!(suite_shape("# board 8x6\n44 1\n").unwrap(), Some((8, 6, 4)));
        assert_eq!(
            suite_shape("\u{feff}# Connect 5\n\n#board 7X9/5\n4 0\n").unwrap(),
            Some((7, 9, 5))
        );
        // None before the first position, or none at all: a 7x6 set.
        assert_eq!(suite_shape("44 1\n# board 8x6\n").unwrap(), None);
        assert_eq!(suite_shape("# the 7x6 set\n44 1\n").unwrap(), None);
        let e = suite_shape("\n# board 8 by 6\n").unwrap_err().to_string();
        assert!(e.starts_with("line 2: bad board header"), "{e}");
        assert!(suite_shape("# board 8x6/five\n").is_err());
        // The lines are read on the set's board: a column 8 is fine on 8x6.
        let start = Connect4::empty(Shape::<u64>::new(8, 6, 4).unwrap());
        let set = parse_suite_on("# board 8x6\n81 0\n10 0\n", &start);
        let e = set.unwrap_err().to_string();
        assert!(e.starts_with("line 3: bad move '0'"), "{e}");
        let set = parse_suite_on("# board 8x6\n81 0\n", &start).unwrap();
        assert_eq!((set[0].line, set[0].game.board().moves), (2, 2));
    }

    #[test]
    fn vertical_and_horizontal_fours_are_seen() {
        // First player stacks column 1 four times while the second plays column 2.
        let g = Connect4::from_moves("1212121").unwrap();
        assert!(g.last_mover_won(&g.board()));
        assert_eq!(g.outcome(&g.board()), Some(4 - 22));
        let g = Connect4::from_moves("1122334").unwrap();
        assert!(g.last_mover_won(&g.board()));
    }

    #[test]
    fn bad_move_strings_are_rejected() {
        assert!(Connect4::from_moves("1238").is_err());
        assert!(Connect4::from_moves("1111111").is_err());
        assert!(Connect4::from_moves("12121212").is_err());
        assert!(Connect4::from_moves("").is_ok());
        assert_eq!(
            Connect4::from_moves("4,4,5,3").unwrap().board(),
            Connect4::from_moves("4453").unwrap().board()
        );
        let wide = Connect4::empty(Shape::<u128>::new(12, 6, 4).unwrap());
        assert!(wide.after("12,1,10").is_ok());
        assert!(wide.after("13").is_err());
        let e = wide.after("1,x").unwrap_err().to_string();
        assert!(
            e.contains("columns are 1 to 12, separated by commas"),
            "{e}"
        );
    }

    #[test]
    fn scores_follow_the_move_the_game_ends_on() {
        let g = Connect4::new();
        // 7x6: a win with the k-th stone is 22 - k, on move 2k - 1 or 2k.
        for k in 4..=21 {
            assert_eq!(g.win_on_move(2 * k - 1), 22 - k as Value);
            assert_eq!(g.win_on_move(2 * k), 22 - k as Value);
        }
        assert_eq!((g.min_score(), g.max_score()), (MIN_SCORE, MAX_SCORE));
        let pos = g.board();
        assert_eq!(g.end_move(&pos, 18), Some(7));
        assert_eq!(g.end_move(&pos, -18), Some(8));
        assert_eq!(g.end_move(&pos, 1), Some(41));
        assert_eq!(g.end_move(&pos, 0), None);
        assert_eq!(g.explain_value(&pos, 1), "win with its 21st stone");
        let g = Connect4::empty(Shape::<u64>::new(5, 4, 4).unwrap());
        assert_eq!(
            g.explain_value(&g.board(), -1),
            "loss on move 20: the opponent's 10th stone wins"
        );
    }

    /// Plays random games on `game`'s board to the end and checks every position's
    /// incremental fields against those computed from scratch.
    fn random_games<G: Geometry>(game: &Connect4<G>, games: usize, seed: u64) -> usize {
        let g = game.geometry();
        let mut seed = seed | 1;
        let mut checked = 0;
        for _ in 0..games {
            let mut b = game.board();
            while b.moves < g.cells() && !game.last_mover_won(&b) {
                assert_eq!(b.mirrored_key(), g.mirror(b.key()), "{b:?}");
                assert_eq!(b.mine, g.winning_cells(b.current, b.mask), "{b:?}");
                assert_eq!(b.theirs, g.winning_cells(b.opponent(), b.mask), "{b:?}");
                let image = game.mirror(&b);
                assert_eq!(image.mine, g.winning_cells(image.current, image.mask));
                assert_eq!(image.theirs, g.winning_cells(image.opponent(), image.mask));
                assert_eq!(game.mirror(&image), b);
                for p in [b.current, b.opponent()] {
                    let w = g.winning_cells(p, b.mask);
                    for bit in 0..G::Word::BITS {
                        let cell = G::Word::bit(bit);
                        if cell & g.board() == G::Word::ZERO || cell & b.mask != G::Word::ZERO {
                            assert_eq!(w & cell, G::Word::ZERO, "cell {bit} is not empty");
                            continue;
                        }
                        assert_eq!(
                            w & cell != G::Word::ZERO,
                            g.has_line(p | cell),
                            "cell {bit}"
                        );
                        checked += 1;
                    }
                }
                seed = crate::rng::splitmix64(seed);
                let open: Vec<u32> = (0..g.width()).filter(|&c| game.can_play(&b, c)).collect();
                b = game.play_col(&b, open[(seed % open.len() as u64) as usize]);
            }
        }
        checked
    }

    #[test]
    fn mirror_reverses_the_columns() {
        // The mirror of a position is the position reached by the mirrored moves.
        let g = Connect4::new();
        for moves in ["4453", "1", "7", "1234567", "112233", "3517", "7654321765"] {
            let image: String = moves
                .chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect();
            let a = Connect4::from_moves(moves).unwrap().board();
            let b = Connect4::from_moves(&image).unwrap().board();
            assert_eq!(g.mirror(&a), b, "{moves}");
            assert_eq!(Standard.mirror(a.key()), b.key(), "{moves}");
            assert_eq!(a.mirrored_key(), b.key(), "{moves}");
        }
    }

    #[test]
    fn winning_cells_match_brute_force() {
        // Every empty cell flagged must complete a line when filled, and every such cell is
        // flagged: for both sides of positions reached by random play, up to full columns.
        // The mirrored key and both sides' winning cells, kept move by move, must match
        // those computed from scratch (for the mirror image too).
        assert!(random_games(&Connect4::new(), 300, 1) > 100_000);
        for (w, h, k) in [(4, 4, 3), (5, 4, 4), (8, 7, 4), (6, 5, 5)] {
            let game = Connect4::empty(Shape::<u64>::new(w, h, k).unwrap());
            assert!(random_games(&game, 60, w as u64) > 1000);
        }
        for (w, h, k) in [(9, 7, 4), (12, 8, 6), (4, 20, 4)] {
            let game = Connect4::empty(Shape::<u128>::new(w, h, k).unwrap());
            assert!(random_games(&game, 20, w as u64) > 1000);
        }
    }
}
