//! The board's shape: its width, height and the length of a winning line, and the bitboard
//! word that holds it.
//!
//! Column `c` owns bits `c (H + 1) .. c (H + 1) + H`: its `H` cells from the bottom up, then a
//! guard bit that is always empty. A line of stones steps one row (or none) per column, so a
//! run that would leave the top or the bottom of a column passes through a guard bit and
//! breaks: shifting by 1 (up), `H + 1` (sideways), `H` and `H + 2` (the diagonals) never
//! carries a line from one column into the next, whatever the line's length.
//!
//! [`Standard`] is the 7x6 board with four in a row, every figure a constant, so its code is
//! what a 7x6-only solver's would be. [`Shape`] is any other shape, chosen at run time, on a
//! `u64` where `W x (H + 1) <= 64` and a `u128` beyond.

use crate::game::{GameError, MoveBuffer, MoveList};
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

/// The smallest width and height accepted.
pub const MIN_SIDE: u32 = 4;

/// The shortest and the longest winning line accepted (`--connect`).
pub const CONNECT_RANGE: std::ops::RangeInclusive<u32> = 3..=6;

/// The most columns any board has: `W x (H + 1) <= 128` with `H >= 4`.
pub const MAX_WIDTH: usize = 25;

/// Entries in the fixed shapes' column tables: [`MAX_WIDTH`] rounded up to a power of two. A
/// column index masked with `COLUMN_SLOTS - 1` needs no bounds check; one taken modulo 25
/// cost a multiply and a subtraction at every lookup (5.7% of a 6x6 solve's instructions).
const COLUMN_SLOTS: usize = MAX_WIDTH.next_power_of_two();

/// A bitboard word: `u64` or `u128`.
pub trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Add<Output = Self>
    + Sub<Output = Self>
{
    /// Bits in the word.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// The lowest bit.
    const ONE: Self;
    /// The move list of a board on this word: one move per column at most.
    type Moves: MoveBuffer<u8> + Debug;
    /// One word per column, for the analysis's per-move threats.
    type PerColumn: Copy + Default + Send + Sync + Debug + AsRef<[Self]> + AsMut<[Self]>;

    /// Set bits.
    fn count_ones(self) -> u32;
    /// `self - rhs`, wrapping.
    fn wrapping_sub(self, rhs: Self) -> Self;
    /// `self << n`, and no bit at all for `n >= BITS` (where `<<` would not be defined).
    fn up(self, n: u32) -> Self;
    /// `self >> n`, and no bit at all for `n >= BITS`.
    fn down(self, n: u32) -> Self;
    /// The highest set bit alone; no bit for no bit.
    fn high_bit(self) -> Self;
    /// The word as a table key: itself where it fits 64 bits, else a 64-bit mix of it (two
    /// positions then share a key as two 64-bit keys collide: the table's own risk).
    fn key64(self) -> u64;
    /// Bit `i` set.
    #[inline(always)]
    fn bit(i: u32) -> Self {
        Self::ONE.up(i)
    }
}

/// The parts of a [`Word`] impl that differ only in the type: its bits and arithmetic.
macro_rules! word_basics {
    ($t:ty) => {
        const BITS: u32 = <$t>::BITS;
        const ZERO: $t = 0;
        const ONE: $t = 1;

        #[inline(always)]
        fn count_ones(self) -> u32 {
            <$t>::count_ones(self)
        }
        #[inline(always)]
        fn wrapping_sub(self, rhs: $t) -> $t {
            <$t>::wrapping_sub(self, rhs)
        }
        #[inline(always)]
        fn up(self, n: u32) -> $t {
            self.checked_shl(n).unwrap_or(0)
        }
        #[inline(always)]
        fn down(self, n: u32) -> $t {
            self.checked_shr(n).unwrap_or(0)
        }
        #[inline(always)]
        fn high_bit(self) -> $t {
            if self == 0 {
                0
            } else {
                1 << (<$t>::BITS - 1 - self.leading_zeros())
            }
        }
    };
}

impl Word for u64 {
    word_basics!(u64);
    type Moves = MoveList<u8, 12>;
    type PerColumn = [u64; 12];

    #[inline(always)]
    fn key64(self) -> u64 {
        self
    }
}

impl Word for u128 {
    word_basics!(u128);
    type Moves = MoveList<u8, MAX_WIDTH>;
    type PerColumn = [u128; MAX_WIDTH];

    #[inline(always)]
    fn key64(self) -> u64 {
        let lo = self as u64;
        let hi = (self >> 64) as u64;
        // Keys are sums of two boards, far from uniform: mix the high half before folding it
        // in, so that positions differing only there do not cancel out.
        lo ^ crate::rng::mix(hi ^ crate::rng::GOLDEN)
    }
}

/// How a board's position keys become transposition-table keys ([`Geometry::key_form`]).
///
/// The table picks a cluster from the key's low bits multiplied up, which never reach the
/// high bits: raw, a board filling more than about 53 bits (8x6's last column, 8x7's,
/// 10x6's last two) put positions differing only in its right-hand columns into one cluster,
/// and 64 MiB tables thrashed (8x7: a third of the stores evicted a live entry, 1.7% on
/// 7x7; docs/measurements/connect4-sizes.md, "Folded keys").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyForm {
    /// The key as it is: 7x6 with four in a row, whose 49 bits all reach the index, and whose
    /// node counts stay those measured with it.
    Raw,
    /// The key's high half folded onto its low half (two instructions: every bit then
    /// reaches the index): the other boards of at most 64 bits.
    Folded,
    /// The key mixed whole (splitmix64's finaliser): boards wider than 64 bits, whose
    /// [`Word::key64`] already folds the high half in, so that its low half's high bits carry
    /// the board's right-hand columns too.
    Mixed,
}

impl KeyForm {
    /// The table key of the 64-bit position key `k64`; bijective.
    #[inline(always)]
    pub fn apply(self, k64: u64) -> u64 {
        match self {
            KeyForm::Raw => k64,
            KeyForm::Folded => k64 ^ k64 >> 32,
            KeyForm::Mixed => crate::rng::mix(k64),
        }
    }

    /// The form's name in table files' identities (whose keys mean nothing under another
    /// form): empty for [`KeyForm::Raw`], which 7x6 files have always used.
    pub fn name(self) -> &'static str {
        match self {
            KeyForm::Raw => "",
            KeyForm::Folded => "folded-keys",
            KeyForm::Mixed => "mixed-keys",
        }
    }
}

/// A board's shape (see the module comment). The methods with defaults are derived from the
/// others; [`Standard`] overrides the few whose general form costs instructions.
pub trait Geometry: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// The bitboard word.
    type Word: Word;
    /// The move list: one move per column at most.
    type Moves: MoveBuffer<u8> + Debug;
    /// One word per column, for the analysis's per-move threats.
    type PerColumn: Copy + Default + Send + Sync + Debug + AsRef<[Self::Word]> + AsMut<[Self::Word]>;

    /// Columns.
    fn width(&self) -> u32;
    /// Rows.
    fn height(&self) -> u32;
    /// Stones in a winning line.
    fn connect(&self) -> u32;
    /// The bottom cell of every column.
    fn bottom(&self) -> Self::Word;
    /// Every cell of the board.
    fn board(&self) -> Self::Word;
    /// The cells of the rows of the top row's parity, counting from 1 at the bottom: the even
    /// rows on a board of even height, the odd rows on one of odd height. A follower who
    /// answers each stone right on top of it ends up with them (see
    /// `Connect4::static_bounds`).
    fn claim_rows(&self) -> Self::Word;
    /// The bottom cell of column `col`.
    fn bottom_cell(&self, col: u32) -> Self::Word;
    /// Every cell of column `col`.
    fn column_cells(&self, col: u32) -> Self::Word;
    /// The columns from the centre outwards, left before right at equal distance: central
    /// columns take part in more lines.
    fn centre_order(&self) -> &[u8];

    /// Cells on the board.
    #[inline(always)]
    fn cells(&self) -> u32 {
        self.width() * self.height()
    }

    /// Bits per column: the cells and the guard.
    #[inline(always)]
    fn col_bits(&self) -> u32 {
        self.height() + 1
    }

    /// The top cell of column `col`.
    #[inline(always)]
    fn top_cell(&self, col: u32) -> Self::Word {
        self.bottom_cell(col).up(self.height() - 1)
    }

    /// The lowest empty cell of each column with room, given all stones `mask`.
    #[inline(always)]
    fn playable_cells(&self, mask: Self::Word) -> Self::Word {
        (mask + self.bottom()) & self.board()
    }

    /// True if the stones `p` hold a winning line.
    #[inline(always)]
    fn has_line(&self, p: Self::Word) -> bool {
        let s = self.col_bits();
        for d in [1, s, s - 1, s + 1] {
            if line_starts(p, d, self.connect()) != Self::Word::ZERO {
                return true;
            }
        }
        false
    }

    /// The first cell (the lowest bit) of each winning line the stones `p` hold in steps of
    /// `d` bits (see [`Geometry::line_cells`]).
    #[inline(always)]
    fn line_starts(&self, p: Self::Word, d: u32) -> Self::Word {
        line_starts(p, d, self.connect())
    }

    /// The cells of the winning lines the stones `p` hold in steps of `d` bits (1 up a
    /// column, [`Geometry::col_bits`] along a row, one less or more along the diagonals).
    #[inline]
    fn line_cells(&self, p: Self::Word, d: u32) -> Self::Word {
        let starts = self.line_starts(p, d);
        let mut cells = starts;
        for j in 1..self.connect() {
            cells |= starts.up(j * d);
        }
        cells
    }

    /// The empty cells that would complete a winning line for the stones `p` (`mask`: all
    /// stones), whether or not they can be played now.
    #[inline(always)]
    fn winning_cells(&self, p: Self::Word, mask: Self::Word) -> Self::Word {
        let k = self.connect();
        let s = self.col_bits();
        let r = if k == 4 {
            // Vertical: three stones right below the cell.
            let v = p & p.up(1);
            let mut r = v.up(1) & p.up(3);
            for s in [s, s - 1, s + 1] {
                // `pair` marks x where x and x - s hold stones. A cell completes four with the
                // two stones on its low side and a third beyond them or beyond the cell, or
                // with the two on its high side and a third beyond them or on its low side.
                let pair = p & p.up(s);
                let low = pair.up(s);
                let high = pair.down(2 * s);
                r |= low & (p.up(3 * s) | p.down(s));
                r |= high & (p.up(s) | p.down(3 * s));
            }
            r
        } else {
            // A cell completes a line if, for some direction and some place `j` of the cell in
            // the line, the other `k - 1` cells of that line hold stones.
            let mut r = Self::Word::ZERO;
            for d in [1, s, s - 1, s + 1] {
                for j in 0..k {
                    let mut x = !Self::Word::ZERO;
                    for i in 0..k {
                        if i < j {
                            x &= p.up((j - i) * d);
                        } else if i > j {
                            x &= p.down((i - j) * d);
                        }
                    }
                    r |= x;
                }
            }
            r
        };
        r & (self.board() ^ mask)
    }

    /// The transposition table's key for the position key `k`, in this board's
    /// [`KeyForm`]: bijective on [`Word::key64`], so that distinct positions keep distinct
    /// keys.
    #[inline(always)]
    fn table_key(&self, k: Self::Word) -> u64 {
        self.key_form().apply(k.key64())
    }

    /// The form [`Geometry::table_key`] gives this board's keys: [`KeyForm::Raw`] on 7x6
    /// with four in a row (on any geometry), [`KeyForm::Folded`] on the other boards of at
    /// most 64 bits, [`KeyForm::Mixed`] beyond. One choice, so that the keys and the name
    /// table files give them cannot disagree.
    #[inline(always)]
    fn key_form(&self) -> KeyForm {
        if self.is_classic() {
            KeyForm::Raw
        } else if Self::Word::BITS <= 64 {
            KeyForm::Folded
        } else {
            KeyForm::Mixed
        }
    }

    /// Whether this is 7x6 with four in a row, [`Standard`]'s shape, on whatever geometry:
    /// the rules above that keep 7x6's measured node counts ask, so that the run-time 7x6
    /// board still searches the same tree as [`Standard`].
    #[inline(always)]
    fn is_classic(&self) -> bool {
        self.width() == 7 && self.height() == 6 && self.connect() == 4
    }

    /// Whether nodes settle their younger children from the table before entering them
    /// (see [`Knowledge::settle_children_from_table`](crate::knowledge::Knowledge::settle_children_from_table)).
    /// 7x6 with four in a row does not, so that it keeps the node counts measured without it.
    #[inline(always)]
    fn settles_children(&self) -> bool {
        !self.is_classic()
    }

    /// Whether exact solves step their null window from the first probe rather than bisect
    /// (see [`Knowledge::probe_steps`](crate::knowledge::Knowledge::probe_steps)).
    /// Measured on held-out positions, and on 6x6 and 6x7 only (with four in a row), it
    /// spares nodes: 12% and 7% there, while 7x7 searches more (see
    /// docs/measurements/connect4-sizes.md, "Stepping from the first probe"). 8x6 searched
    /// more too until the odd-threat bound; since, 19% fewer on its set and 4% on held-out
    /// positions ("An odd-threat bound").
    #[inline(always)]
    fn steps_probes(&self) -> bool {
        (self.width() == 6 && matches!(self.height(), 6 | 7)
            || self.width() == 8 && self.height() == 6)
            && self.connect() == 4
    }

    /// Enhanced transposition cutoffs are tried in positions with fewer stones than this
    /// (see [`Knowledge::enhanced_cutoffs`](crate::knowledge::Knowledge::enhanced_cutoffs)):
    /// near the root a cutoff saves a large subtree; deeper, the lookups cost more than they
    /// save. 7x6 with four in a row keeps 4/7 of its cells (24), its measured node counts. The
    /// other boards look up to 15 stones before the end (as Steininger's solver does) where
    /// that is deeper: measured after the odd-threat bound, it cut nodes on every board's set
    /// and held-out set (8x6 10%, 10x6 19%) with the time unchanged within the noise
    /// (docs/measurements/connect4-sizes.md, "Enhanced cutoffs to 15 stones from the end").
    #[inline(always)]
    fn etc_stones(&self) -> u32 {
        let share = self.cells() * 4 / 7;
        if self.is_classic() {
            share
        } else {
            share.max(self.cells().saturating_sub(15))
        }
    }

    /// Whether exact solves of early positions (those whose first probe is at 0) step their
    /// null window, where later ones bisect. Measured on random early positions (see
    /// docs/measurements/connect4-sizes.md, "Stepping from 0 in early positions"): 7x6 and
    /// 8x6 with four in a row search 7-13% fewer nodes, 7x7 and 9x5 more.
    #[inline(always)]
    fn steps_early_probes(&self) -> bool {
        self.height() == 6 && matches!(self.width(), 7 | 8) && self.connect() == 4
    }

    /// Who wins the empty board with perfect play, where that is published and cutoff's own
    /// solve agrees: 1 the first player, -1 the second, 0 neither (a draw); `None` on other
    /// boards. Where the second player wins, early positions with the first player to move
    /// probe "at least a draw?" first (see
    /// [`Knowledge::first_probe`](crate::knowledge::Knowledge::first_probe)).
    #[inline(always)]
    fn empty_board_winner(&self) -> Option<i8> {
        if self.connect() != 4 {
            return None;
        }
        match (self.width(), self.height()) {
            (7, 6) | (6, 7) => Some(1),
            (6, 6) | (8, 6) => Some(-1),
            (7, 7) => Some(0),
            _ => None,
        }
    }

    /// The word with its columns reversed (a key, a bitboard, a set of cells).
    #[inline]
    fn mirror(&self, k: Self::Word) -> Self::Word {
        let w = self.width();
        let s = self.col_bits();
        let column = Self::Word::ONE.up(s) - Self::Word::ONE;
        let mut out = Self::Word::ZERO;
        for c in 0..w {
            out |= (k.down(c * s) & column).up((w - 1 - c) * s);
        }
        out
    }
}

/// The cells where a line of `k` stones of `p` starts, going in steps of `d` bits.
#[inline(always)]
fn line_starts<W: Word>(p: W, d: u32, k: u32) -> W {
    // Doubling: after the loop, `x` marks the starts of runs of `len` stones.
    let mut x = p;
    let mut len = 1;
    while 2 * len <= k {
        x = x & x.down(len * d);
        len *= 2;
    }
    if len < k {
        x = x & x.down((k - len) * d);
    }
    x
}

/// The 7x6 board with four in a row: every figure is a constant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Standard;

/// Standard's width.
const STD_WIDTH: u32 = 7;
/// Standard's height.
const STD_HEIGHT: u32 = 6;
/// Standard's bits per column.
const STD_COL_BITS: u32 = STD_HEIGHT + 1;

/// The bottom cell of every column of `width` columns of `col_bits` bits.
const fn bottom_of(width: u32, col_bits: u32) -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < width {
        m |= 1 << (c * col_bits);
        c += 1;
    }
    m
}

/// Standard's bottom row.
const STD_BOTTOM: u64 = bottom_of(STD_WIDTH, STD_COL_BITS);

/// Standard's column `c`: its bottom cell and all its cells, looked up: a load is cheaper
/// than the multiply and variable shift (the eighth row only spares the bounds check).
const STD_COLUMNS: [(u64, u64); 8] = {
    let mut t = [(0, 0); 8];
    let mut c = 0;
    while c < STD_WIDTH {
        t[c as usize] = (
            1 << (c * STD_COL_BITS),
            ((1 << STD_HEIGHT) - 1) << (c * STD_COL_BITS),
        );
        c += 1;
    }
    t
};

impl Geometry for Standard {
    type Word = u64;
    type Moves = MoveList<u8, { STD_WIDTH as usize }>;
    type PerColumn = [u64; STD_WIDTH as usize];

    #[inline(always)]
    fn width(&self) -> u32 {
        STD_WIDTH
    }
    #[inline(always)]
    fn height(&self) -> u32 {
        STD_HEIGHT
    }
    #[inline(always)]
    fn connect(&self) -> u32 {
        4
    }
    #[inline(always)]
    fn bottom(&self) -> u64 {
        STD_BOTTOM
    }
    #[inline(always)]
    fn board(&self) -> u64 {
        STD_BOTTOM * ((1 << STD_HEIGHT) - 1)
    }
    #[inline(always)]
    fn claim_rows(&self) -> u64 {
        STD_BOTTOM * 0b101010
    }
    #[inline(always)]
    fn bottom_cell(&self, col: u32) -> u64 {
        STD_COLUMNS[col as usize & 7].0
    }
    #[inline(always)]
    fn column_cells(&self, col: u32) -> u64 {
        STD_COLUMNS[col as usize & 7].1
    }
    #[inline(always)]
    fn top_cell(&self, col: u32) -> u64 {
        1 << (STD_HEIGHT - 1 + col * STD_COL_BITS)
    }
    #[inline(always)]
    fn centre_order(&self) -> &[u8] {
        &[3, 2, 4, 1, 5, 0, 6]
    }

    #[inline(always)]
    fn mirror(&self, k: u64) -> u64 {
        const C: u64 = (1 << STD_COL_BITS) - 1;
        const B: u32 = STD_COL_BITS;
        // Columns 0..=6 to 6..=0: three pairs swap, the centre stays (straight-line code: a
        // loop here cost 5% of a solve's instructions).
        (k & C) << (6 * B)
            | (k & C << B) << (4 * B)
            | (k & C << (2 * B)) << (2 * B)
            | k & C << (3 * B)
            | (k >> (2 * B)) & C << (2 * B)
            | (k >> (4 * B)) & C << B
            | (k >> (6 * B)) & C
    }
}

/// Writes a geometry whose shape is a compile-time constant on the word `$word`: `$name<W, H>`
/// is the `W x H` board with `K` in a row, every figure folded by the compiler as
/// [`Standard`]'s are. A run-time [`Shape`] pays for its figures in loads, variable shifts and
/// loops: on 7x6 it took 1.5-2x [`Standard`]'s time (docs/measurements/connect4-sizes.md).
macro_rules! fixed_geometry {
    ($(#[$doc:meta])* $name:ident, $word:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name<const W: u32, const H: u32, const K: u32>;

        impl<const W: u32, const H: u32, const K: u32> $name<W, H, K> {
            /// Refuses, at compile time, a shape outside [`check_shape`]'s limits.
            const VALID: () = assert!(
                W >= MIN_SIDE
                    && H >= MIN_SIDE
                    && W * (H + 1) <= <$word>::BITS
                    && W as usize <= MAX_WIDTH
                    && K >= *CONNECT_RANGE.start()
                    && K <= *CONNECT_RANGE.end()
            );

            /// The shape: width, height and the winning line's length.
            pub const SHAPE: (u32, u32, u32) = (W, H, K);
            const BOTTOM: $word = {
                let mut m: $word = 0;
                let mut c = 0;
                while c < W {
                    m |= 1 << (c * (H + 1));
                    c += 1;
                }
                m
            };
            const COLUMN: $word = (1 << H) - 1;
            const CLAIM_ROWS: $word = {
                let mut rows: $word = 0;
                let mut r = (H + 1) % 2;
                while r < H {
                    rows |= 1 << r;
                    r += 2;
                }
                Self::BOTTOM * rows
            };
            /// Column `c`'s bottom cell and cells, looked up (see [`Standard`]), in a table of
            /// [`COLUMN_SLOTS`] so that masking the index spares the bounds check.
            const COLUMNS: [($word, $word); COLUMN_SLOTS] = {
                let mut t = [(0, 0); COLUMN_SLOTS];
                let mut c = 0;
                while c < W {
                    t[c as usize] = (1 << (c * (H + 1)), Self::COLUMN << (c * (H + 1)));
                    c += 1;
                }
                t
            };
            const CENTRE: [u8; MAX_WIDTH] = {
                // From the centre outwards, left first: column c at distance |2c - (W - 1)|.
                let mut t = [0u8; MAX_WIDTH];
                let mut i = 0;
                let mut dist = (W + 1) % 2;
                while dist < W {
                    // `dist` has W - 1's parity, so the left column is a whole number.
                    let left = (W - 1 - dist) / 2;
                    t[i] = left as u8;
                    i += 1;
                    if dist > 0 {
                        t[i] = (W - 1 - left) as u8;
                        i += 1;
                    }
                    dist += 2;
                }
                t
            };

            /// The board; a shape outside the limits does not compile.
            pub const fn new() -> Self {
                #[allow(clippy::let_unit_value)]
                let () = Self::VALID;
                $name
            }
        }

        impl<const W: u32, const H: u32, const K: u32> Default for $name<W, H, K> {
            fn default() -> Self {
                Self::new()
            }
        }

        impl<const W: u32, const H: u32, const K: u32> Geometry for $name<W, H, K> {
            type Word = $word;
            type Moves = <$word as Word>::Moves;
            type PerColumn = <$word as Word>::PerColumn;

            #[inline(always)]
            fn width(&self) -> u32 {
                W
            }
            #[inline(always)]
            fn height(&self) -> u32 {
                H
            }
            #[inline(always)]
            fn connect(&self) -> u32 {
                K
            }
            #[inline(always)]
            fn bottom(&self) -> $word {
                Self::BOTTOM
            }
            #[inline(always)]
            fn board(&self) -> $word {
                Self::BOTTOM * Self::COLUMN
            }
            #[inline(always)]
            fn claim_rows(&self) -> $word {
                Self::CLAIM_ROWS
            }
            #[inline(always)]
            fn bottom_cell(&self, col: u32) -> $word {
                Self::COLUMNS[col as usize & (COLUMN_SLOTS - 1)].0
            }
            #[inline(always)]
            fn column_cells(&self, col: u32) -> $word {
                Self::COLUMNS[col as usize & (COLUMN_SLOTS - 1)].1
            }
            #[inline(always)]
            fn centre_order(&self) -> &[u8] {
                &Self::CENTRE[..W as usize]
            }
            #[inline(always)]
            fn mirror(&self, k: $word) -> $word {
                // A loop of constant length, unrolled: a run-time one cost 5% of a solve.
                let s = H + 1;
                let column: $word = (1 << s) - 1;
                let mut out = 0;
                let mut c = 0;
                while c < W {
                    out |= ((k >> (c * s)) & column) << ((W - 1 - c) * s);
                    c += 1;
                }
                out
            }
        }
    };
}

fixed_geometry!(
    /// A board of at most 64 bits whose shape is fixed at compile time (see [`Fixed128`]
    /// beyond): `Fixed64<6, 7, 4>` is 6 columns of 7 rows, four in a row.
    Fixed64,
    u64
);
fixed_geometry!(
    /// A board of more than 64 bits and at most 128 whose shape is fixed at compile time:
    /// `Fixed128<10, 6, 4>` is 10 columns of 6 rows, four in a row.
    Fixed128,
    u128
);

/// Any board, its shape chosen at run time (see the module comment): `Shape<u64>` where
/// `W x (H + 1) <= 64`, `Shape<u128>` beyond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape<W: Word> {
    width: u32,
    height: u32,
    connect: u32,
    bottom: W,
    board: W,
    claim_rows: W,
    /// Column `c`'s bottom cell and its cells.
    columns: [(W, W); MAX_WIDTH],
    centre: [u8; MAX_WIDTH],
}

impl<W: Word> Shape<W> {
    /// The board of `width` columns and `height` rows where `connect` in a row wins; an error
    /// names the limit broken: both sides at least 4, `connect` from 3 to 6, and
    /// `width x (height + 1)` at most the word's bits.
    pub fn new(width: u32, height: u32, connect: u32) -> Result<Shape<W>, GameError> {
        check_shape(width, height, connect, W::BITS)?;
        let s = height + 1;
        let column = W::ONE.up(height) - W::ONE;
        let mut columns = [(W::ZERO, W::ZERO); MAX_WIDTH];
        let mut bottom = W::ZERO;
        for (c, entry) in columns.iter_mut().enumerate().take(width as usize) {
            *entry = (W::bit(c as u32 * s), column.up(c as u32 * s));
            bottom |= entry.0;
        }
        let mut claim_rows = W::ZERO;
        for row in ((height + 1) % 2..height).step_by(2) {
            for &(b, _) in &columns[..width as usize] {
                claim_rows |= b.up(row);
            }
        }
        let mut board = W::ZERO;
        for &(_, cells) in &columns[..width as usize] {
            board |= cells;
        }
        let mut centre = [0u8; MAX_WIDTH];
        for (i, c) in centre_order(width).enumerate() {
            centre[i] = c;
        }
        Ok(Shape {
            width,
            height,
            connect,
            bottom,
            board,
            claim_rows,
            columns,
            centre,
        })
    }
}

/// The columns of a board `width` wide from the centre outwards, left before right.
fn centre_order(width: u32) -> impl Iterator<Item = u8> {
    let mut cols: Vec<u8> = (0..width as u8).collect();
    // Distance from the centre, doubled to stay in integers; ties go to the left column.
    cols.sort_by_key(|&c| ((2 * c as i32 - (width as i32 - 1)).abs(), c));
    cols.into_iter()
}

/// Reads a shape as the outputs write it: `WxH` (`X` too, spaces allowed around the numbers),
/// or `WxH/K` with the winning line's length, which is `None` when not given. `None` for text
/// of another form; the limits are [`check_shape`]'s.
pub fn read_shape(text: &str) -> Option<(u32, u32, Option<u32>)> {
    let (board, k) = match text.split_once('/') {
        Some((board, k)) => (board, Some(k.trim().parse().ok()?)),
        None => (text, None),
    };
    let (w, h) = board.split_once(['x', 'X'])?;
    Some((w.trim().parse().ok()?, h.trim().parse().ok()?, k))
}

/// The bits a board's bitboard takes: its cells and a guard bit above each column (in `u64`,
/// so that any `u32` sides multiply without overflow).
pub fn board_bits(width: u32, height: u32) -> u64 {
    u64::from(width) * (u64::from(height) + 1)
}

/// Checks a board's shape against the limits of a word of `bits` bits (see [`Shape::new`]).
pub fn check_shape(width: u32, height: u32, connect: u32, bits: u32) -> Result<(), GameError> {
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(GameError::new(format!(
            "board {width}x{height}: width and height must each be at least {MIN_SIDE}"
        )));
    }
    if !CONNECT_RANGE.contains(&connect) {
        return Err(GameError::new(format!(
            "connect {connect}: a winning line is {} to {} stones",
            CONNECT_RANGE.start(),
            CONNECT_RANGE.end()
        )));
    }
    if board_bits(width, height) > u64::from(bits) {
        return Err(GameError::new(format!(
            "board {width}x{height}: width x (height + 1) = {} is more than the {bits} bits of a bitboard",
            board_bits(width, height)
        )));
    }
    Ok(())
}

impl<W: Word> Geometry for Shape<W> {
    type Word = W;
    type Moves = W::Moves;
    type PerColumn = W::PerColumn;

    #[inline(always)]
    fn width(&self) -> u32 {
        self.width
    }
    #[inline(always)]
    fn height(&self) -> u32 {
        self.height
    }
    #[inline(always)]
    fn connect(&self) -> u32 {
        self.connect
    }
    #[inline(always)]
    fn bottom(&self) -> W {
        self.bottom
    }
    #[inline(always)]
    fn board(&self) -> W {
        self.board
    }
    #[inline(always)]
    fn claim_rows(&self) -> W {
        self.claim_rows
    }
    #[inline(always)]
    fn bottom_cell(&self, col: u32) -> W {
        self.columns[col as usize].0
    }
    #[inline(always)]
    fn column_cells(&self, col: u32) -> W {
        self.columns[col as usize].1
    }
    #[inline(always)]
    fn centre_order(&self) -> &[u8] {
        &self.centre[..self.width as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_board_has_one_key_form_and_its_keys_follow_it() {
        let k: u64 = 0x0123_4567_89ab_cdef;
        assert_eq!(Standard.key_form(), KeyForm::Raw);
        assert_eq!(Shape::<u64>::new(7, 6, 4).unwrap().key_form(), KeyForm::Raw);
        assert_eq!(
            Shape::<u128>::new(7, 6, 4).unwrap().key_form(),
            KeyForm::Raw
        );
        assert_eq!(Fixed64::<6, 6, 4>::new().key_form(), KeyForm::Folded);
        assert_eq!(
            Shape::<u64>::new(7, 6, 5).unwrap().key_form(),
            KeyForm::Folded
        );
        assert_eq!(Fixed128::<10, 6, 4>::new().key_form(), KeyForm::Mixed);
        assert_eq!(Standard.table_key(k), k);
        assert_eq!(Fixed64::<6, 6, 4>::new().table_key(k), k ^ k >> 32);
        let wide = Fixed128::<10, 6, 4>::new();
        assert_eq!(
            wide.table_key(u128::from(k)),
            KeyForm::Mixed.apply(u128::from(k).key64())
        );
        // Names: 7x6's files keep their old identity; the others say their form.
        let names: Vec<_> = [KeyForm::Raw, KeyForm::Folded, KeyForm::Mixed]
            .iter()
            .map(|f| f.name())
            .collect();
        assert_eq!(names, ["", "folded-keys", "mixed-keys"]);
    }

    #[test]
    fn the_runtime_7x6_board_is_the_standard_one() {
        let b = Shape::<u64>::new(7, 6, 4).unwrap();
        let s = Standard;
        assert_eq!(b.bottom(), s.bottom());
        assert_eq!(b.board(), s.board());
        assert_eq!(b.claim_rows(), s.claim_rows());
        assert_eq!(b.centre_order(), s.centre_order());
        for c in 0..7 {
            assert_eq!(b.bottom_cell(c), s.bottom_cell(c));
            assert_eq!(b.column_cells(c), s.column_cells(c));
            assert_eq!(b.top_cell(c), s.top_cell(c));
        }
        for k in [0u64, 1, 0x1234_5678_9abc, s.board(), s.bottom() * 5] {
            assert_eq!(b.mirror(k), s.mirror(k), "{k:x}");
        }
    }

    /// Checks a fixed geometry against the run-time board of its shape.
    fn same_as_runtime<G: Geometry>(g: G) {
        let b = Shape::<G::Word>::new(g.width(), g.height(), g.connect()).unwrap();
        assert_eq!(b.bottom(), g.bottom(), "{g:?}");
        assert_eq!(b.board(), g.board(), "{g:?}");
        assert_eq!(b.claim_rows(), g.claim_rows(), "{g:?}");
        assert_eq!(b.centre_order(), g.centre_order(), "{g:?}");
        for c in 0..g.width() {
            assert_eq!(b.bottom_cell(c), g.bottom_cell(c));
            assert_eq!(b.column_cells(c), g.column_cells(c));
            assert_eq!(b.top_cell(c), g.top_cell(c));
        }
        let mut x = 7u64;
        for _ in 0..50 {
            x = crate::rng::splitmix64(x);
            let y = crate::rng::splitmix64(x);
            let k = words_from::<G::Word>(x, y) & g.board();
            assert_eq!(b.mirror(k), g.mirror(k), "{g:?} {k:?}");
            assert_eq!(b.has_line(k), g.has_line(k));
            assert_eq!(b.winning_cells(k, k), g.winning_cells(k, k));
        }
    }

    /// A word from two random halves.
    fn words_from<W: Word>(x: u64, y: u64) -> W {
        let mut w = W::ZERO;
        for i in 0..W::BITS.min(128) {
            let bit = if i < 64 { x >> i } else { y >> (i - 64) };
            if bit & 1 == 1 {
                w |= W::bit(i);
            }
        }
        w
    }

    #[test]
    fn fixed_boards_are_their_runtime_boards() {
        same_as_runtime(Fixed64::<7, 6, 4>::new());
        same_as_runtime(Fixed64::<6, 6, 4>::new());
        same_as_runtime(Fixed64::<6, 7, 4>::new());
        same_as_runtime(Fixed64::<4, 4, 4>::new());
        same_as_runtime(Fixed64::<5, 4, 4>::new());
        same_as_runtime(Fixed64::<9, 5, 4>::new());
        same_as_runtime(Fixed64::<8, 7, 4>::new());
        same_as_runtime(Fixed64::<12, 4, 4>::new());
        same_as_runtime(Fixed64::<4, 15, 4>::new());
        same_as_runtime(Fixed128::<10, 6, 4>::new());
        same_as_runtime(Fixed128::<8, 8, 4>::new());
        same_as_runtime(Fixed128::<25, 4, 4>::new());
        same_as_runtime(Fixed128::<11, 9, 4>::new());
        same_as_runtime(Fixed128::<7, 9, 5>::new());
        same_as_runtime(Fixed64::<5, 5, 3>::new());
        same_as_runtime(Fixed64::<8, 6, 6>::new());
    }

    #[test]
    fn the_high_bit_is_the_highest_set_bit_alone() {
        assert_eq!(0u64.high_bit(), 0);
        assert_eq!(1u64.high_bit(), 1);
        assert_eq!(0b1011_0000u64.high_bit(), 0b1000_0000);
        assert_eq!(u64::MAX.high_bit(), 1 << 63);
        assert_eq!(0u128.high_bit(), 0);
        assert_eq!(((1u128 << 100) | 5).high_bit(), 1 << 100);
        assert_eq!(u128::MAX.high_bit(), 1 << 127);
    }

    #[test]
    fn shapes_are_read_as_written() {
        assert_eq!(read_shape("7x6"), Some((7, 6, None)));
        assert_eq!(read_shape(" 10X4 /3"), Some((10, 4, Some(3))));
        for bad in ["", "7", "7x", "x6", "7x6/", "7x6/k", "7*6", "-1x6", "7x6x5"] {
            assert_eq!(read_shape(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn centre_order_goes_outwards_left_first() {
        assert_eq!(centre_order(4).collect::<Vec<_>>(), [1, 2, 0, 3]);
        assert_eq!(centre_order(5).collect::<Vec<_>>(), [2, 1, 3, 0, 4]);
        assert_eq!(
            centre_order(8).collect::<Vec<_>>(),
            [3, 4, 2, 5, 1, 6, 0, 7]
        );
    }

    #[test]
    fn shapes_beyond_the_limits_are_refused_in_one_line() {
        assert!(Shape::<u64>::new(8, 7, 4).is_ok());
        let e = Shape::<u64>::new(9, 7, 4).unwrap_err().to_string();
        assert!(e.contains("72 is more than the 64 bits"), "{e}");
        assert!(Shape::<u128>::new(9, 7, 4).is_ok());
        assert!(Shape::<u128>::new(25, 4, 4).is_ok());
        assert!(Shape::<u128>::new(26, 4, 4).is_err());
        assert!(Shape::<u128>::new(4, 31, 4).is_ok());
        assert!(Shape::<u128>::new(4, 32, 4).is_err());
        assert!(Shape::<u64>::new(3, 6, 4)
            .unwrap_err()
            .to_string()
            .contains("at least 4"));
        assert!(Shape::<u64>::new(7, 6, 7)
            .unwrap_err()
            .to_string()
            .contains("3 to 6"));
        assert!(Shape::<u64>::new(7, 6, 2).is_err());
    }

    /// Brute force: does `p` hold `k` in a row on the board `b`?
    fn brute_line<W: Word>(b: &Shape<W>, p: W, k: u32) -> bool {
        let (w, h) = (b.width() as i32, b.height() as i32);
        let at = |c: i32, r: i32| {
            c >= 0 && c < w && r >= 0 && r < h && p & W::bit((c * (h + 1) + r) as u32) != W::ZERO
        };
        for c in 0..w {
            for r in 0..h {
                for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if (0..k as i32).all(|i| at(c + i * dc, r + i * dr)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn random_check<W: Word>(b: Shape<W>, seed: u64) {
        let mut x = seed;
        for _ in 0..400 {
            x = crate::rng::splitmix64(x);
            // Columns filled from the bottom to random heights, about half the stones ours:
            // stones lie on stones, as in a game.
            let mut p = W::ZERO;
            let mut mask = W::ZERO;
            let mut y = x;
            for c in 0..b.width() {
                y = crate::rng::splitmix64(y);
                let filled = (y % (b.height() as u64 + 1)) as u32;
                for r in 0..filled {
                    y = crate::rng::splitmix64(y);
                    let cell = W::bit(c * b.col_bits() + r);
                    mask |= cell;
                    if y.is_multiple_of(2) {
                        p |= cell;
                    }
                }
            }
            assert_eq!(b.has_line(p), brute_line(&b, p, b.connect()), "{b:?} {p:?}");
            if brute_line(&b, p, b.connect()) {
                // A game ends at its first line: no position asks for more.
                continue;
            }
            let wins = b.winning_cells(p, mask);
            for c in 0..b.width() {
                for r in 0..b.height() {
                    let cell = W::bit(c * b.col_bits() + r);
                    let expect = mask & cell == W::ZERO && brute_line(&b, p | cell, b.connect());
                    assert_eq!(
                        wins & cell != W::ZERO,
                        expect,
                        "cell {c},{r} p {p:?} mask {mask:?} k {}",
                        b.connect()
                    );
                }
            }
            assert_eq!(b.mirror(b.mirror(p)), p);
        }
    }

    #[test]
    fn lines_and_winning_cells_match_brute_force_on_many_shapes() {
        for (w, h, k) in [
            (4, 4, 3),
            (5, 4, 4),
            (7, 6, 5),
            (6, 7, 6),
            (8, 7, 4),
            (4, 12, 4),
        ] {
            random_check(
                Shape::<u64>::new(w, h, k).unwrap(),
                (w * 100 + h * 10 + k) as u64,
            );
        }
        for (w, h, k) in [(9, 7, 4), (25, 4, 3), (4, 31, 6), (11, 9, 5), (8, 14, 4)] {
            random_check(
                Shape::<u128>::new(w, h, k).unwrap(),
                (w * 100 + h * 10 + k) as u64,
            );
        }
    }
}
