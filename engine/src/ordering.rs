//! Move ordering for the table-driven searches: the table move first, then the killer moves of
//! the ply, then the game's static hint, then the history heuristic.
//!
//! Killers and history are indexed by the game's move code ([`Game::move_code`]); games that
//! give no codes are ordered by their hint alone. The tables belong to one searcher (one
//! thread), so a parallel search gives each worker its own and nothing here is shared.

pub use crate::game::{OrderingConfig, Refutation};

use crate::game::{Game, MoveBuffer, Player, NO_CODE};

/// Per-searcher ordering state: two killers per ply and a history score per (side, move code).
pub struct MoveOrdering {
    /// The heuristics in use.
    pub config: OrderingConfig,
    killers: Vec<[u8; 2]>,
    history: Box<[[u32; 256]; 2]>,
}

const TABLE_BONUS: i64 = 1 << 50;
const KILLER_BONUS: i64 = 1 << 48;
const HINT_SCALE: i64 = 1 << 24;

/// Moves `s[from]` up to `s[to]` (`to <= from`), the items between one place down: a slice's
/// `rotate_right` on these few items, without its call to `memmove`.
#[inline(always)]
pub(crate) fn move_up<T: Copy>(s: &mut [T], from: usize, to: usize) {
    let x = s[from];
    let mut k = from;
    while k > to {
        s[k] = s[k - 1];
        k -= 1;
    }
    s[to] = x;
}

impl MoveOrdering {
    /// Ordering state for searches up to `plies` deep.
    pub fn new(plies: usize, config: OrderingConfig) -> Self {
        MoveOrdering {
            config,
            killers: vec![[NO_CODE; 2]; plies + 1],
            history: Box::new([[0; 256]; 2]),
        }
    }

    /// Forgets killers and history (between unrelated searches).
    pub fn clear(&mut self) {
        for k in &mut self.killers {
            *k = [NO_CODE; 2];
        }
        for side in self.history.iter_mut() {
            side.fill(0);
        }
    }

    /// Sorts `moves` of `pos` at `ply` best first, `hints[i]` being the game's hint for move
    /// `i` (see [`Knowledge::analyse`](crate::knowledge::Knowledge::analyse)), and the hints
    /// with them, so that `hints[i]` is again move `i`'s. Insertion sort: lists are short and
    /// it is stable, so equal scores keep the game's generation order.
    #[inline(always)]
    pub fn sort<G: Game>(
        &self,
        game: &G,
        pos: &G::Pos,
        ply: usize,
        moves: &mut G::Moves,
        table_move: u8,
        hints: &mut [i32],
    ) {
        let list = moves.as_mut_slice();
        // The score array below holds 64 moves, every game's capacity; a longer list would
        // keep its tail unsorted.
        let n = list.len().min(64);
        let list = &mut list[..n];
        if list.len() < 2 {
            return;
        }
        if n <= 8 && !self.config.killers && !self.config.history && self.config.jitter == 0 {
            Self::sort_by_table_and_hint(game, list, table_move, self.config, hints);
            return;
        }
        // Scores live beside the moves in a fixed array: no allocation. A short list gets a
        // short array: zeroing 64 scores at every node cost more than the sort itself.
        if n <= 8 {
            self.sort_in::<G, 8>(game, pos, ply, list, table_move, hints);
        } else {
            self.sort_in::<G, 64>(game, pos, ply, list, table_move, hints);
        }
    }

    /// [`MoveOrdering::sort`] when only the table move and the hint are on (Connect Four's
    /// ordering): the same order, found without the per-move scores of the general case.
    #[inline(always)]
    fn sort_by_table_and_hint<G: Game>(
        game: &G,
        list: &mut [G::Move],
        table_move: u8,
        config: OrderingConfig,
        hints: &mut [i32],
    ) {
        // The hints are the sort's keys, sorted in place with their moves.
        let keys = &mut hints[..list.len()];
        let mut start = 0;
        if config.table_move && table_move != NO_CODE {
            if let Some(t) = list.iter().position(|&mv| game.move_code(mv) == table_move) {
                // The table move goes first; the others keep their order for the sort below.
                move_up(list, t, 0);
                move_up(keys, t, 0);
                start = 1;
            }
        }
        if !config.hint {
            return;
        }
        for i in start + 1..list.len() {
            let (mv, k) = (list[i], keys[i]);
            let mut j = i;
            while j > start && keys[j - 1] < k {
                list[j] = list[j - 1];
                keys[j] = keys[j - 1];
                j -= 1;
            }
            list[j] = mv;
            keys[j] = k;
        }
    }

    /// [`MoveOrdering::sort`] with room for `N` scores (`list` holds at most `N` moves).
    fn sort_in<G: Game, const N: usize>(
        &self,
        game: &G,
        pos: &G::Pos,
        ply: usize,
        list: &mut [G::Move],
        table_move: u8,
        hints: &mut [i32],
    ) {
        let side = (game.to_move(pos) == Player::Second) as usize;
        let killers = self.killers[ply];
        let mut scores = [0i64; N];
        for (i, &mv) in list.iter().enumerate() {
            let code = game.move_code(mv);
            let mut s = 0i64;
            if code != NO_CODE {
                if self.config.table_move && code == table_move {
                    s += TABLE_BONUS;
                }
                if self.config.killers && (code == killers[0] || code == killers[1]) {
                    s += KILLER_BONUS;
                }
                if self.config.history {
                    s += self.history[side][code as usize] as i64;
                }
            }
            if self.config.hint {
                s += hints[i] as i64 * HINT_SCALE;
            }
            if self.config.jitter != 0 && ply != 1 {
                let h = (self.config.jitter ^ (ply as u64) << 32 ^ i as u64)
                    .wrapping_mul(crate::rng::GOLDEN);
                s += if ply == 0 {
                    // At the root, above everything: each helper starts on other root moves
                    // and fills the table ahead of the main thread.
                    (h >> 60) as i64 * (TABLE_BONUS * 2)
                } else {
                    // Below the hint's scale: only equal-hint moves trade places.
                    (h >> 60) as i64 * (HINT_SCALE / 16)
                };
            }
            scores[i] = s;
        }
        for i in 1..list.len() {
            let (mv, s, h) = (list[i], scores[i], hints[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < s {
                list[j] = list[j - 1];
                scores[j] = scores[j - 1];
                hints[j] = hints[j - 1];
                j -= 1;
            }
            list[j] = mv;
            scores[j] = s;
            hints[j] = h;
        }
    }

    /// Records that the move with `code` caused a cutoff at `ply` with `depth` plies left.
    pub fn record_cutoff(&mut self, side: Player, ply: usize, code: u8, depth: usize) {
        if code == NO_CODE || !(self.config.killers || self.config.history) {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        let h = &mut self.history[(side == Player::Second) as usize][code as usize];
        let bonus = (depth * depth).min(1 << 16) as u32;
        *h = h.saturating_add(bonus);
        if *h > 1 << 22 {
            // Age the whole side so old successes fade and scores stay below the hint scale.
            for v in self.history[(side == Player::Second) as usize].iter_mut() {
                *v /= 2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::perfect::connect4::Connect4;
    use crate::knowledge::Knowledge;

    #[test]
    fn the_table_and_hint_shortcut_orders_as_the_general_sort() {
        // Random hints with many ties, every table move (none included): both paths must give
        // one order, the table move first and ties in generation order.
        let game = Connect4::new();
        let pos = game.initial();
        let general = MoveOrdering::new(4, <Connect4 as Game>::Knowledge::default_ordering(&game));
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..2000 {
            let n = 2 + round % 6;
            let mut hints = [0i32; 64];
            for h in hints.iter_mut().take(n) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *h = (seed % 4) as i32;
            }
            let moves: Vec<u8> = (0..n as u8).collect();
            let table_move = (seed >> 8) as u8 % 8;
            let mut a = moves.clone();
            let mut ha = hints;
            MoveOrdering::sort_by_table_and_hint(
                &game,
                &mut a,
                table_move,
                <Connect4 as Game>::Knowledge::default_ordering(&game),
                &mut ha,
            );
            let mut b = moves.clone();
            let mut hb = hints;
            general.sort_in::<Connect4, 8>(&game, &pos, 0, &mut b, table_move, &mut hb);
            assert_eq!(a, b, "hints {:?}, table move {table_move}", &hints[..n]);
            // The hints went with their moves: each sorted move has its own hint again.
            for (sorted, h) in [(&a, &ha), (&b, &hb)] {
                for (i, &mv) in sorted.iter().enumerate() {
                    assert_eq!(h[i], hints[mv as usize], "round {round}");
                }
            }
        }
    }
}
