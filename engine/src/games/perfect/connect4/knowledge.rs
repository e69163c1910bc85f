//! What the solver knows of Connect Four beyond its rules: the threat analysis (immediate
//! wins, forced blocks, double threats, never playing below an opponent's winning cell), the
//! static bounds (lines still open, claimeven, odd threats), the threat-based move ordering, the
//! mirror-normalised table key, the first probe at 0 and enhanced transposition cutoffs near
//! the root. Each piece was measured on the test sets (docs/measurements/connect4-knowledge.md).

use super::{Bitboard, Connect4, Geometry, Word};
use crate::game::Refutation;
use crate::game::{MoveBuffer, Value};
use crate::knowledge::{Assessment, Knowledge};
use crate::ordering::OrderingConfig;

/// Exact solves of positions with fewer stones than this share of the board (8 of 7x6's 42
/// cells) probe the null window at 0 first (and on some boards step from there, see
/// `Geometry::steps_early_probes`).
#[inline(always)]
fn first_probe_zero_below(cells: u32) -> u32 {
    cells * 4 / 21
}

/// The ordering score of a move, from our winning cells `threats` after it, the cells
/// `next` playable after it and the opponent's winning cells `theirs`. Threats that are not
/// right above an opponent's threat count most (such a threat is dead: whoever fills the cell
/// below lets the other side win or block); threats right above a playable cell, which the
/// opponent must watch from the next move on, add a little. Measured on Begin-Medium against
/// the plain threat count (see docs/measurements/connect4-knowledge.md).
#[inline]
fn move_score<W: Word>(threats: W, next: W, theirs: W) -> i32 {
    let useful = threats & !theirs.up(1);
    let soon = threats & next.up(1);
    (4 * useful.count_ones() + soon.count_ones()) as i32
}

impl<G: Geometry> Connect4<G> {
    /// Bounds on the value of `pos` from the lines still open: a side that can no longer
    /// make a line cannot win. And with an even number of empty cells, the side not to move
    /// can follow "claimeven": answer every stone right on top of it where the column has a
    /// cell left, and a stone in a column with an odd number of empty cells (such columns
    /// come in pairs) in the bottom cell of another such column. The follower then ends up
    /// with every empty cell on a row of the top row's parity (`Geometry::claim_rows`: the
    /// even rows on a board of even height, the odd rows on one of odd height) that is not
    /// playable now, and the side to move with at most the rest. If the side to move cannot
    /// make a line in the rest it cannot win, and if the follower then has one it loses, no
    /// later than the follower's lines can be put off to (see `claimeven_follower`, which
    /// also lets the mover's lines lie above the follower's). The follower is the second
    /// player on boards with an even number of cells, the first on the others (7x7, 9x5).
    /// (This bound first required every column at an even height; taking the playable cells
    /// of odd columns into account cut 8-12% of the nodes. It first held only on boards of
    /// even height, the follower claiming the even rows: see
    /// docs/measurements/connect4-sizes.md, "Claimeven on boards of odd height".) With an
    /// odd number of empty cells, the side not to move may win by an odd threat instead (see
    /// `odd_threat`).
    #[inline(always)]
    pub fn static_bounds(&self, pos: &Bitboard<G::Word>) -> (Value, Value) {
        let g = &self.geo;
        let empty = g.board() & !pos.mask;
        let mut lo = self.min_score();
        let mut hi = self.max_score();
        if !g.has_line(pos.current | empty) {
            hi = 0;
        } else if mover_leads(g, pos.moves) {
            let follower = claimed(g, pos.opponent(), empty, self.playable(pos));
            if let Some(v) = claimeven_follower(g, follower, empty) {
                hi = -v;
            }
        } else if let Some(v) = odd_threat(g, pos.current, pos.theirs, empty, self.playable(pos)) {
            hi = hi.min(-v);
        }
        if !g.has_line(pos.opponent() | empty) {
            lo = 0;
        }
        (lo, hi)
    }
}

/// Whether the side to move, with `moves` stones played, leads claimeven (an even number of
/// empty cells: the other side can follow, see [`Connect4::static_bounds`]).
#[inline(always)]
fn mover_leads<G: Geometry>(g: &G, moves: u32) -> bool {
    (g.cells() ^ moves) & 1 == 0
}

/// What an odd threat guarantees the side that just moved, N, against the side to move, S,
/// with an odd number of empty cells (`stones`: S's stones; `threats`: N's winning cells;
/// `empty`, `playable`: the empty and the playable cells). An odd number of columns then
/// hold an odd number of empty cells, their lowest on a claim row (`Geometry::claim_rows`).
/// Say N holds a winning cell `t` off the claim rows in such a column `c`. N answers every
/// stone of S's right on top of it, in `c` too, and a stone in the bottom cell of another
/// column with an odd number of empty cells in the bottom cell of a third (those come in
/// pairs). In `c` S then gets the claim rows below `t` and N the others, so S fills the cell
/// below `t` only when nothing else is left, and N wins there. S's cells at most: its
/// stones, every empty cell off the claim rows outside `c`, the bottom cells of the columns
/// with an odd number of empty cells, and the claim cells below `t` in `c`. If S can make
/// no line in those, N wins, no later than with every cell filled but those above `t`: a win
/// worth `1 + (H - r) / 2` with `t` on row `r`. The lowest such `t` of each column is tried
/// (fewer cells for S, an earlier win). `None`: no such threat. (Allis' "zugzwang" rules for
/// the first player's odd threats on 7x6, put in the terms of `claimeven_follower`.)
#[inline(always)]
fn odd_threat<G: Geometry>(
    g: &G,
    stones: G::Word,
    threats: G::Word,
    empty: G::Word,
    playable: G::Word,
) -> Option<Value> {
    let zero = G::Word::ZERO;
    let claim = g.claim_rows();
    let cand = threats & empty & !claim & !playable;
    if cand == zero {
        return None;
    }
    let bottoms = playable & claim;
    // The empty cells of the columns with an odd number of them: adding a column's lowest
    // empty cell carries through the column's empty cells into the guard bit above it.
    let odd = empty & !(empty + bottoms);
    if cand & odd == zero {
        return None;
    }
    odd_threat_win(g, stones, cand & odd, empty, bottoms)
}

/// The rest of [`odd_threat`], once N holds candidate cells `cand` off the claim rows in the
/// columns with an odd number of empty cells, whose lowest empty cells are `bottoms`.
#[inline(never)]
#[cold]
fn odd_threat_win<G: Geometry>(
    g: &G,
    stones: G::Word,
    cand: G::Word,
    empty: G::Word,
    bottoms: G::Word,
) -> Option<Value> {
    let zero = G::Word::ZERO;
    let one = G::Word::ONE;
    let claim = g.claim_rows();
    let base = stones | (empty & (!claim | bottoms));
    let mut best: Option<Value> = None;
    let mut left = cand;
    while left != zero {
        // The lowest candidate left, the lowest of its column; the column's lowest empty cell
        // is the highest of `bottoms` below it, and its empty cells run from there to the top.
        let t = left & !left.wrapping_sub(one);
        let below_t = t.wrapping_sub(one);
        let column = empty & !(empty + (bottoms & below_t).high_bit());
        left &= !column;
        let below = column & below_t;
        if g.has_line((base & !column) | (below & claim)) {
            continue;
        }
        let above = (column & !below).count_ones() - 1;
        let v = 1 + above as Value / 2;
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    best
}

/// The follower's cells under claimeven: its stones `own` and the `empty` cells on the claimed
/// rows that are not `playable` now (see [`Connect4::static_bounds`]).
#[inline(always)]
fn claimed<G: Geometry>(g: &G, own: G::Word, empty: G::Word, playable: G::Word) -> G::Word {
    own | (empty & g.claim_rows() & !playable)
}

/// What claimeven guarantees the follower (the side not to move, to answer the mover) once
/// its cells are `follower` (see [`Connect4::static_bounds`]; `empty`: the empty cells): at
/// least a draw if the mover can make no line in the rest of the board, and a win if the
/// follower then has a line; a win too if every line of the mover's in the rest
/// lies wholly above a line along a row of the follower's in the same columns, since a cell
/// is filled only after the cells below it: the follower's line is complete first, whatever
/// the order of play. Lines up a column are never covered so. `None`: no guarantee.
/// (Steininger's solver lets the mover's lines lie above the follower's in a similar
/// way; this check was written from the gravity argument above, see
/// docs/measurements/connect4-sizes.md, "A graded claimeven bound".)
#[inline(always)]
fn claimeven_follower<G: Geometry>(g: &G, follower: G::Word, empty: G::Word) -> Option<Value> {
    let zero = G::Word::ZERO;
    let board = g.board();
    let rest = board & !follower;
    let s = g.col_bits();
    if g.line_starts(rest, 1) != zero {
        return None;
    }
    let along = g.line_starts(rest, s);
    // The follower's lines along a row below the top: only they have cells above them.
    let theirs = g.line_starts(follower, s) & !g.bottom().up(g.height() - 1);
    let mut above = zero;
    if theirs != zero {
        above = theirs.up(1) & board;
        for _ in 2..g.height() {
            above |= above.up(1) & board;
        }
    }
    if along & !above != zero {
        // The common case, settled before the diagonals are looked at.
        return None;
    }
    // A line's start is its cell in its first column: its lowest cell along a row or rising,
    // its highest falling, whose lowest is `K - 1` rows down (in the last column). Either way
    // the first column's cell at the line's lowest row must lie above a start of the
    // follower's along a row.
    let lowest =
        along | g.line_starts(rest, s + 1) | g.line_starts(rest, s - 1).down(g.connect() - 1);
    if lowest == zero {
        return Some(if g.has_line(follower) {
            claimeven_win(g, follower, empty)
        } else {
            0
        });
    }
    (lowest & !above == zero).then(|| claimeven_win(g, follower, empty))
}

/// The least the follower of claimeven wins by, once its cells `follower` hold a line and the
/// rest of the board none (`empty`: the empty cells): the value of a win on the last move it
/// can be put off to. The mover orders the play, but a line is complete only once its
/// last empty cell is filled, and the cells above that one are still empty then: a line whose
/// highest empty cell is on row `r` (counting from 1) is complete with at least `H - r` cells
/// left, a win worth `1 + (H - r) / 2`. The follower's empty cells all lie on
/// `Geometry::claim_rows`, which share the top row's parity. Rows
/// are exact for the lines along a row; for the others the highest empty cell of any of them
/// stands for each (a lower bound on the win, so the bound stays sound). Steininger's solver
/// grades its "evens" bound the same way (docs/measurements/connect4-sizes.md, "A graded
/// claimeven bound").
#[inline(never)]
#[cold]
fn claimeven_win<G: Geometry>(g: &G, follower: G::Word, empty: G::Word) -> Value {
    let zero = G::Word::ZERO;
    let h = g.height();
    let s = g.col_bits();
    let along = g.line_cells(follower, s) & empty;
    let other =
        (g.line_cells(follower, 1) | g.line_cells(follower, s - 1) | g.line_cells(follower, s + 1))
            & empty;
    // The lowest row holding an empty cell of a line along a row, and the highest holding
    // one of another line.
    let (mut low_along, mut high_other) = (None, None);
    for r in (2 - h % 2..=h).step_by(2) {
        let row = g.bottom().up(r - 1);
        if low_along.is_none() && along & row != zero {
            low_along = Some(r);
        }
        if other & row != zero {
            high_other = Some(r);
        }
    }
    let r = match (low_along, high_other) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        // Unreachable with a line and no finished game; the ungraded bound is always sound.
        (None, None) => h,
    };
    1 + (h - r) as Value / 2
}

/// Connect Four's solver knowledge (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connect4Knowledge;

/// What the analysis of a Connect Four node leaves for the rest of that node's work.
#[derive(Clone, Copy, Debug)]
pub struct Connect4Scratch<G: Geometry> {
    /// The opponent's winning cells, found by `analyse` for `analyse_moves`.
    theirs: G::Word,
    /// Whether `analyse_moves` has filled `move_threats` (a forced move gets no per-move
    /// analysis, so `play_analysed` must not trust a stale entry).
    cached: bool,
    /// Our winning cells after a move in each column. `play_analysed` makes them the child's
    /// `theirs`, which otherwise costs a second `winning_cells` per move played (about 5% of a
    /// solve).
    move_threats: G::PerColumn,
}

impl<G: Geometry> Default for Connect4Scratch<G> {
    fn default() -> Self {
        Connect4Scratch {
            theirs: G::Word::ZERO,
            cached: false,
            move_threats: G::PerColumn::default(),
        }
    }
}

impl<G: Geometry> Knowledge<Connect4<G>> for Connect4Knowledge {
    type Scratch = Connect4Scratch<G>;

    #[inline(always)]
    fn analyse(
        game: &Connect4<G>,
        pos: &Bitboard<G::Word>,
        out: &mut G::Moves,
        _hints: &mut [i32],
        scratch: &mut Connect4Scratch<G>,
    ) -> Assessment {
        let g = &game.geo;
        let zero = G::Word::ZERO;
        let cells = g.cells() as Value;
        let m = pos.moves as Value;
        let playable = game.playable(pos);
        let mine = pos.mine;
        if mine & playable != zero {
            // A win with our next stone, on move m + 1.
            return Assessment::Value((cells + 1 - m) / 2);
        }
        let theirs = pos.theirs;
        let forced = playable & theirs;
        let mut safe = playable;
        if forced != zero {
            if forced & forced.wrapping_sub(G::Word::ONE) != zero {
                // Two threats to block: the opponent wins with its next stone, on move m + 2.
                return Assessment::Value(-(cells - m) / 2);
            }
            safe = forced;
        }
        // Never play right below an opponent's winning cell.
        safe &= !theirs.down(1);
        if safe == zero {
            return Assessment::Value(-(cells - m) / 2);
        }
        if m >= cells - 2 {
            // Neither side can win with the last two stones.
            return Assessment::Value(0);
        }
        // Nobody wins with their next stone: the opponent wins at the earliest with its
        // next-but-one stone, we with our next-but-one.
        let lo = -(cells - 2 - m) / 2;
        let hi = (cells - 1 - m) / 2;
        let (lo_bound, hi_bound) = game.static_bounds(pos);
        scratch.theirs = theirs;
        scratch.cached = false;
        out.clear();
        for &c in g.centre_order() {
            if safe & g.column_cells(c as u32) != zero {
                out.push(c);
            }
        }
        Assessment::Bounds(lo.max(lo_bound), hi.min(hi_bound))
    }

    #[inline(always)]
    fn analyse_moves(
        game: &Connect4<G>,
        pos: &Bitboard<G::Word>,
        moves: &G::Moves,
        hints: &mut [i32],
        scratch: &mut Connect4Scratch<G>,
    ) -> Assessment {
        let g = &game.geo;
        let zero = G::Word::ZERO;
        let cells = g.cells() as Value;
        let m = pos.moves as Value;
        let theirs = scratch.theirs;
        let playable = game.playable(pos);
        let list = moves.as_slice();
        let opp = pos.opponent();
        let board = g.board();
        let empty = board & !pos.mask;
        let mut lo = game.min_score();
        // A move fills one playable cell, so what holds with every playable cell taken from
        // the opponent, or given to us, holds after every move: lines the opponent keeps
        // whatever we play, and (an odd number of empty cells: we follow claimeven after our
        // move) no claimeven bound for any child if none with every playable cell ours, since
        // each child's follower cells lie within these. Asked once here, not once a move. The
        // second holds on every board but pays only on boards of odd height, where a child's
        // claimeven bound is rare (callgrind: 2-5% fewer instructions there, 1-2% more on 7x6
        // and 8x6; docs/measurements/connect4-sizes.md, "Claimeven on boards of odd height").
        let opp_keeps = g.has_line(opp | (empty & !playable));
        let leads = mover_leads(g, pos.moves);
        let claims = !leads
            && (g.height().is_multiple_of(2)
                || claimeven_follower(g, claimed(g, pos.current | playable, empty, zero), empty)
                    .is_some());
        for i in 0..list.len() {
            let cell = playable & g.column_cells(list[i] as u32);
            let current = pos.current | cell;
            let mask = pos.mask | cell;
            if lo < 1 && (claims || !opp_keeps) {
                // The child's static upper bound (see `Connect4::static_bounds`), negated: one
                // child the opponent cannot win settles a null window at 0 before any search.
                let empty_after = empty & !cell;
                if !opp_keeps && !g.has_line(opp | empty_after) {
                    lo = lo.max(0);
                } else if claims {
                    // An even number of empty cells after the move: we can follow claimeven.
                    let follower = claimed(g, current, empty_after, g.playable_cells(mask));
                    if let Some(v) = claimeven_follower(g, follower, empty_after) {
                        lo = lo.max(v);
                    }
                }
            }
            let threats = g.winning_cells(current, mask);
            scratch.move_threats.as_mut()[list[i] as usize] = threats;
            let next = g.playable_cells(mask);
            let blocks = next & threats;
            let replies = if blocks != zero { blocks } else { next } & !threats.down(1);
            if replies == zero || blocks & blocks.wrapping_sub(G::Word::ONE) != zero {
                // Whatever the opponent answers, our next stone wins: the best score left.
                return Assessment::Value((cells - 1 - m) / 2);
            }
            if leads {
                // An odd number of empty cells after the move (one that wins at once has
                // returned above): an odd threat of ours may win (see `odd_threat`).
                if let Some(v) = odd_threat(g, opp, threats, empty & !cell, next) {
                    lo = lo.max(v);
                }
            }
            hints[i] = move_score(threats, next, theirs & !cell);
        }
        scratch.cached = true;
        // No move wins with our next-but-one stone either.
        Assessment::Bounds(lo, (cells - 3 - m) / 2)
    }

    #[inline(always)]
    fn play_analysed(
        game: &Connect4<G>,
        pos: &Bitboard<G::Word>,
        mv: u8,
        scratch: &Connect4Scratch<G>,
    ) -> Bitboard<G::Word> {
        if !scratch.cached {
            return game.play_col(pos, mv as u32);
        }
        game.play_col_with(pos, mv as u32, scratch.move_threats.as_ref()[mv as usize])
    }

    fn forced_lines_static(_game: &Connect4<G>) -> bool {
        true
    }

    #[inline(always)]
    fn table_key(game: &Connect4<G>, pos: &Bitboard<G::Word>) -> (u64, bool) {
        let k = pos.key();
        let m = pos.mirrored_key();
        if m < k {
            (game.geo.table_key(m), true)
        } else {
            (game.geo.table_key(k), false)
        }
    }

    fn mirror_code(game: &Connect4<G>, code: u8) -> u8 {
        (game.geo.width() as u8 - 1).wrapping_sub(code)
    }

    fn first_probe(game: &Connect4<G>, pos: &Bitboard<G::Word>) -> Option<Value> {
        // Early positions are nearly always decided late, by a small margin: settle the sign
        // first (7x6 Begin-Hard, first 10: 11% fewer nodes; later positions gain nothing).
        // On boards whose empty board the second player wins, the first player to move asks
        // "at least a draw?" (above -1) rather than "a win?": the value is most likely -1,
        // which then takes two probes, not three (6x6's empty board 18% fewer nodes; on 7x6
        // the same rule for the second player to move changed nothing, so it stays off there;
        // docs/measurements/connect4-sizes.md, "The first probe on the loser's side").
        (pos.moves < first_probe_zero_below(game.geo.cells())).then(|| {
            let second_wins = game.geo.empty_board_winner() == Some(-1);
            if second_wins && pos.moves % 2 == 0 {
                -1
            } else {
                0
            }
        })
    }

    fn probe_steps(game: &Connect4<G>, pos: &Bitboard<G::Word>) -> bool {
        // After the first probe at 0, early positions step where it was measured to pay: on
        // 7x6 the empty board 13% fewer nodes, random positions of 6 stones 7%, Begin-Hard's
        // first 50 7% (docs/measurements/connect4-sizes.md, "Stepping from 0 in early
        // positions").
        game.geo.steps_probes()
            || (game.geo.steps_early_probes()
                && pos.moves < first_probe_zero_below(game.geo.cells()))
    }

    fn settle_children_from_table(game: &Connect4<G>, _pos: &Bitboard<G::Word>) -> bool {
        // The 6x6 to 10x6 sets: 6-11% fewer nodes, the time unchanged within the noise
        // (docs/measurements/connect4-sizes.md, "Children settled from the table").
        game.geo.settles_children()
    }

    fn enhanced_cutoffs(game: &Connect4<G>, pos: &Bitboard<G::Word>) -> bool {
        pos.moves < game.geo.etc_stones()
    }

    fn default_ordering(_game: &Connect4<G>) -> OrderingConfig {
        // Measured on the test sets: killers and history double the node counts here, because
        // threat counts with ties broken towards the centre already order almost perfectly.
        // The refutation move, from 8 plies below the root and giving up no useful threat
        // (slack 3: a useful threat weighs 4), cut 1-10% of the nodes on every board's set and
        // held-out set but 10x6's (+0.9%); nearer the root, or with any slack, rare positions
        // took up to six times the nodes (docs/measurements/connect4-sizes.md, "The
        // refutation move").
        OrderingConfig {
            table_move: true,
            killers: false,
            hint: true,
            history: false,
            jitter: 0,
            refutation: Some(Refutation {
                min_ply: 8,
                slack: 3,
            }),
        }
    }

    fn move_hint(game: &Connect4<G>, pos: &Bitboard<G::Word>, mv: u8) -> i32 {
        let cell = game.playable(pos) & game.geo.column_cells(mv as u32);
        game.threats_after(pos, cell) as i32
    }
}
