//! What the solver knows of Connect Four beyond its rules: the threat analysis (immediate
//! wins, forced blocks, double threats, never playing below an opponent's winning cell), the
//! static bounds (lines still open, claimeven), the threat-based move ordering, the
//! mirror-normalised table key, the first probe at 0 and enhanced transposition cutoffs near
//! the root. Each piece was measured on the test sets (docs/measurements/connect4-knowledge.md).

use super::{
    column_cells, has_four, playable_cells, winning_cells, Bitboard, Connect4, BOARD, BOTTOM,
    CELLS, CENTRE_ORDER, HEIGHT, MAX_SCORE, MIN_SCORE, WIDTH,
};
use crate::game::{Game, MoveBuffer, Value};
use crate::knowledge::{Assessment, Knowledge};
use crate::ordering::OrderingConfig;

/// Enhanced transposition cutoffs are tried in positions with fewer stones than this: near
/// the root a cutoff saves a large subtree; deeper the extra probes cost more than they save.
const ETC_PLIES: u32 = 24;

/// Exact solves of positions with fewer stones than this probe the null window at 0 first.
const FIRST_PROBE_ZERO_BELOW: u32 = 8;

/// Cells of the even rows counting from 1 (the second, fourth and sixth from the bottom).
const EVEN_ROWS: u64 = BOTTOM * 0b101010;
// Claimeven (see `Bitboard::static_bounds`) fills columns two stones at a time.
const _: () = assert!(HEIGHT.is_multiple_of(2));

/// The ordering score of a move, from our winning cells `threats` after it, the cells
/// `next` playable after it and the opponent's winning cells `theirs`. Threats that are not
/// right above an opponent's threat count most (such a threat is dead: whoever fills the cell
/// below lets the other side win or block); threats right above a playable cell, which the
/// opponent must watch from the next move on, add a little. Measured on Begin-Medium against
/// the plain threat count (see docs/measurements/connect4-knowledge.md).
#[inline]
fn move_score(threats: u64, next: u64, theirs: u64) -> i32 {
    let useful = threats & !(theirs << 1);
    let soon = threats & (next << 1);
    (4 * useful.count_ones() + soon.count_ones()) as i32
}

impl Bitboard {
    /// Bounds on the value from the lines still open: a side that can no longer make four in
    /// any line cannot win. And with the first player to move (an even number of stones), the
    /// second can follow "claimeven": answer every stone on an odd row (counting from 1) right
    /// on top of it, and a stone on an even row (possible only in a column of odd height,
    /// which come in pairs) in another column of odd height. The second player then ends up
    /// with every empty cell of the even rows that is not playable now, and the first player
    /// with at most the rest. If the first cannot make four in the rest it cannot win, and if
    /// the second then has four it loses. (This bound first required every column at an even
    /// height; taking the playable cells of odd columns into account cut 8-12% of the nodes.)
    #[inline(always)]
    pub fn static_bounds(&self) -> (Value, Value) {
        let empty = BOARD & !self.mask;
        let mut lo = MIN_SCORE;
        let mut hi = MAX_SCORE;
        if !has_four(self.current | empty) {
            hi = 0;
        } else if self.moves.is_multiple_of(2) {
            let follower = self.opponent() | (empty & EVEN_ROWS & !self.playable());
            if !has_four(BOARD & !follower) {
                hi = if has_four(follower) { -1 } else { 0 };
            }
        }
        if !has_four(self.opponent() | empty) {
            lo = 0;
        }
        (lo, hi)
    }
}

/// Connect Four's solver knowledge (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connect4Knowledge;

/// What the analysis of a Connect Four node leaves for the rest of that node's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connect4Scratch {
    /// The opponent's winning cells, found by `analyse` for `analyse_moves`.
    theirs: u64,
    /// Whether `analyse_moves` has filled `move_threats` (a forced move gets no per-move
    /// analysis, so `play_analysed` must not trust a stale entry).
    cached: bool,
    /// Our winning cells after a move in each column. `play_analysed` makes them the child's
    /// `theirs`, which otherwise costs a second `winning_cells` per move played (about 5% of a
    /// solve).
    move_threats: [u64; WIDTH as usize],
}

impl Knowledge<Connect4> for Connect4Knowledge {
    type Scratch = Connect4Scratch;

    #[inline(always)]
    fn analyse(
        _game: &Connect4,
        pos: &Bitboard,
        out: &mut <Connect4 as Game>::Moves,
        _hints: &mut [i32],
        scratch: &mut Connect4Scratch,
    ) -> Assessment {
        let m = pos.moves as Value;
        let playable = pos.playable();
        let mine = pos.mine;
        if mine & playable != 0 {
            // A win with our next stone.
            return Assessment::Value((CELLS as Value + 1 - m) / 2);
        }
        let theirs = pos.theirs;
        let forced = playable & theirs;
        let mut safe = playable;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two threats to block: the opponent wins with its next stone.
                return Assessment::Value(-(CELLS as Value - m) / 2);
            }
            safe = forced;
        }
        // Never play right below an opponent's winning cell.
        safe &= !(theirs >> 1);
        if safe == 0 {
            return Assessment::Value(-(CELLS as Value - m) / 2);
        }
        if m >= CELLS as Value - 2 {
            // Neither side can win with the last two stones.
            return Assessment::Value(0);
        }
        // Nobody wins with their next stone: the opponent wins at the earliest with its
        // next-but-one stone, we with our next-but-one.
        let lo = -(CELLS as Value - 2 - m) / 2;
        let hi = (CELLS as Value - 1 - m) / 2;
        let (lo_bound, hi_bound) = pos.static_bounds();
        scratch.theirs = theirs;
        scratch.cached = false;
        out.clear();
        for c in CENTRE_ORDER {
            if safe & column_cells(c as u32) != 0 {
                out.push(c);
            }
        }
        Assessment::Bounds(lo.max(lo_bound), hi.min(hi_bound))
    }

    #[inline(always)]
    fn analyse_moves(
        _game: &Connect4,
        pos: &Bitboard,
        moves: &<Connect4 as Game>::Moves,
        hints: &mut [i32],
        scratch: &mut Connect4Scratch,
    ) -> Assessment {
        let m = pos.moves as Value;
        let theirs = scratch.theirs;
        let playable = pos.playable();
        let list = moves.as_slice();
        let opp = pos.opponent();
        let empty = BOARD & !pos.mask;
        let mut lo = MIN_SCORE;
        for i in 0..list.len() {
            let cell = playable & column_cells(list[i] as u32);
            let current = pos.current | cell;
            let mask = pos.mask | cell;
            if lo < 1 {
                // The child's static upper bound (see `Bitboard::static_bounds`), negated: one
                // child the opponent cannot win settles a null window at 0 before any search.
                let empty_after = empty & !cell;
                if !has_four(opp | empty_after) {
                    lo = lo.max(0);
                } else if !pos.moves.is_multiple_of(2) {
                    // The opponent is the first player there, and we can follow claimeven.
                    let follower = current | (empty_after & EVEN_ROWS & !playable_cells(mask));
                    if !has_four(BOARD & !follower) {
                        lo = lo.max(if has_four(follower) { 1 } else { 0 });
                    }
                }
            }
            let threats = winning_cells(current, mask);
            scratch.move_threats[list[i] as usize] = threats;
            let next = playable_cells(mask);
            let blocks = next & threats;
            let replies = if blocks != 0 { blocks } else { next } & !(threats >> 1);
            if replies == 0 || blocks & (blocks.wrapping_sub(1)) != 0 {
                // Whatever the opponent answers, our next stone wins: the best score left.
                return Assessment::Value((CELLS as Value - 1 - m) / 2);
            }
            hints[i] = move_score(threats, next, theirs & !cell);
        }
        scratch.cached = true;
        // No move wins with our next-but-one stone either.
        Assessment::Bounds(lo, (CELLS as Value - 3 - m) / 2)
    }

    #[inline(always)]
    fn play_analysed(
        _game: &Connect4,
        pos: &Bitboard,
        mv: u8,
        scratch: &Connect4Scratch,
    ) -> Bitboard {
        if !scratch.cached {
            return pos.play_col(mv as u32);
        }
        pos.play_col_with(mv as u32, scratch.move_threats[mv as usize])
    }

    fn forced_lines_static(_game: &Connect4) -> bool {
        true
    }

    #[inline(always)]
    fn table_key(_game: &Connect4, pos: &Bitboard) -> (u64, bool) {
        let k = pos.key();
        let m = pos.mirrored_key();
        if m < k {
            (m, true)
        } else {
            (k, false)
        }
    }

    fn mirror_code(_game: &Connect4, code: u8) -> u8 {
        (WIDTH as u8 - 1).wrapping_sub(code)
    }

    fn first_probe(_game: &Connect4, pos: &Bitboard) -> Option<Value> {
        // Early positions are nearly always decided late, by a small margin: settle the sign
        // first (Begin-Hard, first 10: 11% fewer nodes; later positions gain nothing).
        (pos.moves < FIRST_PROBE_ZERO_BELOW).then_some(0)
    }

    fn enhanced_cutoffs(_game: &Connect4, pos: &Bitboard) -> bool {
        pos.moves < ETC_PLIES
    }

    fn default_ordering(_game: &Connect4) -> OrderingConfig {
        // Measured on the test sets: killers and history double the node counts here, because
        // threat counts with ties broken towards the centre already order almost perfectly.
        OrderingConfig {
            table_move: true,
            killers: false,
            hint: true,
            history: false,
            jitter: 0,
        }
    }

    fn move_hint(_game: &Connect4, pos: &Bitboard, mv: u8) -> i32 {
        let cell = pos.playable() & column_cells(mv as u32);
        pos.threats_after(cell) as i32
    }
}
