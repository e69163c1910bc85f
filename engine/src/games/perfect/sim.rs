//! Sim on K6: the fifteen edges of the complete graph on six vertices. The players colour
//! uncoloured edges in turn; whoever completes a triangle of their own colour loses. By
//! Ramsey's R(3,3) = 6 the game cannot end in a draw.
//!
//! A position is two 15-bit edge masks. Positions that differ only by a relabelling of the six
//! vertices have the same value, so the table key is the smallest encoding over all 720
//! relabellings (computed once per node, only by the table-driven searches that use keys).

use crate::game::{quote, Game, GameError, MoveBuffer, MoveList, Notation, Player, Value};
use crate::knowledge::{quick_or_listed, Assessment, Knowledge};

/// Vertices of K6.
pub const VERTICES: usize = 6;
/// Edges of K6.
pub const EDGES: usize = 15;

/// The edge index of the pair `(a, b)`, `a < b`, in the order (0,1), (0,2), ..., (4,5).
const fn edge_index(a: usize, b: usize) -> usize {
    // Edges before row a: sum over r < a of (5 - r).
    a * (2 * VERTICES - a - 1) / 2 + (b - a - 1)
}

/// The endpoints of every edge.
const ENDPOINTS: [(u8, u8); EDGES] = {
    let mut t = [(0u8, 0u8); EDGES];
    let mut a = 0;
    while a < VERTICES {
        let mut b = a + 1;
        while b < VERTICES {
            t[edge_index(a, b)] = (a as u8, b as u8);
            b += 1;
        }
        a += 1;
    }
    t
};

/// The twenty triangles as edge masks.
const TRIANGLES: [u16; 20] = {
    let mut t = [0u16; 20];
    let mut n = 0;
    let mut a = 0;
    while a < VERTICES {
        let mut b = a + 1;
        while b < VERTICES {
            let mut c = b + 1;
            while c < VERTICES {
                t[n] = (1 << edge_index(a, b)) | (1 << edge_index(a, c)) | (1 << edge_index(b, c));
                n += 1;
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// True if the edge set `m` contains a triangle.
#[inline]
fn has_triangle(m: u16) -> bool {
    for t in TRIANGLES {
        if m & t == t {
            return true;
        }
    }
    false
}

/// A Sim position: each player's edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SimPos {
    /// Edges of the first player.
    pub first: u16,
    /// Edges of the second player.
    pub second: u16,
}

impl SimPos {
    fn side(&self) -> Player {
        if (self.first.count_ones() + self.second.count_ones()).is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn mine(&self) -> u16 {
        match self.side() {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }

    fn free(&self) -> u16 {
        !(self.first | self.second) & ((1 << EDGES) - 1)
    }
}

/// Sim on K6, from the empty board or a given position.
#[derive(Clone, Debug)]
pub struct Sim {
    start: SimPos,
    /// For each of the 720 vertex permutations, where each edge goes.
    perms: Vec<[u8; EDGES]>,
}

impl Default for Sim {
    fn default() -> Self {
        Self::new()
    }
}

impl Sim {
    /// Sim from the empty graph.
    pub fn new() -> Self {
        let mut perms = Vec::with_capacity(720);
        let mut p = [0usize, 1, 2, 3, 4, 5];
        permutations(&mut p, 0, &mut |p| {
            let mut map = [0u8; EDGES];
            for (e, &(a, b)) in ENDPOINTS.iter().enumerate() {
                let (x, y) = (p[a as usize], p[b as usize]);
                map[e] = edge_index(x.min(y), x.max(y)) as u8;
            }
            perms.push(map);
        });
        Sim {
            start: SimPos::default(),
            perms,
        }
    }

    /// The position after the given moves (edges written `ab` with vertices 1-6, separated by
    /// spaces or commas, the first player first). The empty string is the empty board; a
    /// string of separators alone is an error (most likely a position lost on its way).
    pub fn from_moves(text: &str) -> Result<Self, GameError> {
        if !text.is_empty() && text.chars().all(|c| c.is_whitespace() || c == ',') {
            return Err(GameError::new(format!(
                "blank position '{}': leave the position out (or give \"\") for the empty board",
                quote(text)
            )));
        }
        let mut g = Sim::new();
        let mut pos = g.start;
        for tok in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            if g.outcome(&pos).is_some() {
                return Err(GameError::new(format!(
                    "move '{}' comes after the game ended",
                    quote(tok)
                )));
            }
            let mv = g.parse_move(&pos, tok)?;
            pos = g.play(&pos, mv);
        }
        g.start = pos;
        Ok(g)
    }

    fn canonical(&self, pos: &SimPos) -> u64 {
        let mut best = u64::MAX;
        for map in &self.perms {
            let (mut f, mut s) = (0u32, 0u32);
            for (e, &to) in map.iter().enumerate() {
                f |= ((pos.first >> e) as u32 & 1) << to;
                s |= ((pos.second >> e) as u32 & 1) << to;
            }
            best = best.min((f as u64) << 16 | s as u64);
        }
        best
    }
}

fn permutations(p: &mut [usize; 6], k: usize, f: &mut impl FnMut(&[usize; 6])) {
    if k == p.len() {
        f(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, f);
        p.swap(k, i);
    }
}

impl Sim {
    /// The value when every free edge closes one of our triangles (a loss), else `None`.
    fn quick_value(&self, pos: &SimPos) -> Option<Value> {
        // If every free edge closes one of our triangles, we lose whatever we play.
        let mine = pos.mine();
        let free = pos.free();
        let safe = (0..EDGES).any(|e| free >> e & 1 != 0 && !has_triangle(mine | 1 << e));
        if safe {
            None
        } else {
            Some(-1)
        }
    }

    /// The moves that do not close a triangle of our own.
    fn search_moves(&self, pos: &SimPos, out: &mut <Sim as Game>::Moves) {
        // Moves that close our own triangle lose at once; `quick_value` guarantees a safe one.
        out.clear();
        let mine = pos.mine();
        let free = pos.free();
        for e in 0..EDGES as u8 {
            if free >> e & 1 != 0 && !has_triangle(mine | 1 << e) {
                out.push(e);
            }
        }
    }
}

/// What the solver knows of Sim beyond its rules: a position where every free edge closes one
/// of our own triangles is lost, and the moves that close one are never worth searching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimKnowledge;

impl Knowledge<Sim> for SimKnowledge {
    type Scratch = ();

    fn analyse(
        game: &Sim,
        pos: &SimPos,
        moves: &mut <Sim as Game>::Moves,
        hints: &mut [i32],
        _scratch: &mut (),
    ) -> Assessment {
        quick_or_listed(
            game,
            pos,
            moves,
            hints,
            || game.quick_value(pos),
            |m| game.search_moves(pos, m),
        )
    }
}

impl Game for Sim {
    type Pos = SimPos;
    type Move = u8;
    type Moves = MoveList<u8, EDGES>;
    type Knowledge = SimKnowledge;

    fn initial(&self) -> SimPos {
        self.start
    }

    fn to_move(&self, pos: &SimPos) -> Player {
        pos.side()
    }

    fn outcome(&self, pos: &SimPos) -> Option<Value> {
        // Only the player who just moved can have completed a triangle: they lost.
        let last = match pos.side() {
            Player::First => pos.second,
            Player::Second => pos.first,
        };
        if has_triangle(last) {
            Some(1)
        } else {
            None
        }
    }

    fn moves(&self, pos: &SimPos, out: &mut Self::Moves) {
        out.clear();
        let free = pos.free();
        for e in 0..EDGES as u8 {
            if free >> e & 1 != 0 {
                out.push(e);
            }
        }
    }

    fn play(&self, pos: &SimPos, mv: u8) -> SimPos {
        let bit = 1u16 << mv;
        match pos.side() {
            Player::First => SimPos {
                first: pos.first | bit,
                ..*pos
            },
            Player::Second => SimPos {
                second: pos.second | bit,
                ..*pos
            },
        }
    }

    fn key(&self, pos: &SimPos) -> u64 {
        // Relabelling-invariant; the side to move follows from the edge counts.
        self.canonical(pos)
    }

    fn max_plies(&self, pos: &SimPos) -> usize {
        pos.free().count_ones() as usize
    }

    fn move_code(&self, mv: u8) -> u8 {
        mv
    }

    fn value_range(&self) -> (Value, Value) {
        (-1, 1)
    }
}

impl Notation for Sim {
    fn name(&self) -> &'static str {
        "sim"
    }

    fn format_move(&self, _pos: &SimPos, mv: u8) -> String {
        let (a, b) = ENDPOINTS[mv as usize];
        format!("{}{}", a + 1, b + 1)
    }

    fn parse_move(&self, pos: &SimPos, text: &str) -> Result<u8, GameError> {
        let d: Vec<u32> = text.trim().chars().filter_map(|c| c.to_digit(10)).collect();
        let bad = || {
            GameError::new(format!(
                "bad edge '{}' (write two vertices 1-6, like 14)",
                quote(text)
            ))
        };
        if d.len() != 2 || text.trim().chars().count() != 2 {
            return Err(bad());
        }
        let (a, b) = (d[0] as usize, d[1] as usize);
        if !(1..=6).contains(&a) || !(1..=6).contains(&b) || a == b {
            return Err(bad());
        }
        let e = edge_index(a.min(b) - 1, a.max(b) - 1) as u8;
        if pos.free() >> e & 1 == 0 {
            return Err(GameError::new(format!(
                "edge {} is already coloured",
                quote(text.trim())
            )));
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_distinct_triangles_over_fifteen_edges() {
        let mut all = TRIANGLES.to_vec();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 20);
        assert!(all.iter().all(|t| t.count_ones() == 3));
        assert_eq!(edge_index(4, 5), 14);
    }

    #[test]
    fn canonical_key_ignores_relabelling() {
        let g = Sim::new();
        assert_eq!(g.perms.len(), 720);
        let a = Sim::from_moves("12 34").unwrap().initial();
        let b = Sim::from_moves("56 13").unwrap().initial();
        assert_eq!(g.key(&a), g.key(&b));
        let c = Sim::from_moves("12 23").unwrap().initial();
        assert_ne!(g.key(&a), g.key(&c));
    }

    #[test]
    fn closing_a_triangle_loses() {
        let g = Sim::from_moves("12 34 13 45 23").unwrap();
        assert_eq!(g.outcome(&g.initial()), Some(1));
        assert!(Sim::from_moves("12 34 13 45 23 56").is_err());
        assert!(Sim::from_moves("12 12").is_err());
        assert!(Sim::from_moves("17").is_err());
    }
}
