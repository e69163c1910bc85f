//! The control game (Node Kayles) on an undirected graph of up to 64 vertices.
//!
//! Players take turns placing a piece on a vertex nobody controls yet; the piece controls its
//! vertex and every neighbour. A player who cannot move (every vertex is controlled) loses.
//!
//! A position is the mask of uncontrolled vertices and the side to move; a move on `v` clears
//! `v` and its neighbours from the mask. Moves are vertices, generated in index order and
//! written 1-based (`1` is the first vertex).
//!
//! # Matrix notation ([`Control::parse`], [`Control::from_matrix`])
//!
//! The graph is given by its 0/1 adjacency matrix, which must be square (1 to 64 vertices)
//! and symmetric. A diagonal entry may be 0 or 1 and is ignored: a vertex always controls
//! itself. [`Control::parse`] reads
//!
//! - the judge block: a line with the number of vertices `N`, then `N` rows;
//! - just the `N` rows;
//! - one line with the rows separated by `/`: `011/101/110`.
//!
//! A row is written either as digits (`0110`) or as digits separated by whitespace
//! (`0 1 1 0`). Blank lines, surrounding whitespace and CRLF line ends are ignored.
//!
//! # Exact solving
//!
//! Node Kayles is an impartial game, so [`Control::first_player_wins`] need not search the
//! game tree: by the Sprague-Grundy theorem a position is the sum of its connected components
//! and its Grundy value is the XOR of theirs. [`Control::grundy`] splits the free vertices into
//! components and computes each component's value as the mex of its options' values, memoised
//! by component mask. The first player wins exactly when the Grundy value is not 0.
//!
//! The game is PSPACE-complete in general, so the worst case stays exponential: graphs of up
//! to 30 vertices (the judge's) take milliseconds whatever their density, and structured graphs
//! of 64 vertices (paths, cycles, stars, cliques, forests of small pieces) are instant, but a
//! sparse random graph of 50 or more vertices, whose components stay large and varied, can take
//! minutes.

use crate::game::{Game, GameError, MoveBuffer, MoveList, Player, Value, Notation};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Most vertices a graph may have (one bit each in a `u64`).
pub const MAX_VERTICES: usize = 64;

/// XORed into the key when the second player is to move.
const SIDE_KEY: u64 = 0x9D39_247E_3377_6D41;

/// Hashes the memo's keys (vertex masks) with a splitmix64 finaliser: far cheaper than the
/// standard library's SipHash, and the solver spends most of its time in the memo.
#[derive(Default)]
struct MaskHasher(u64);

impl Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 ^= x;
    }
}

/// The solver's memo: Grundy values of connected components, by vertex mask.
type Memo = HashMap<u64, u8, BuildHasherDefault<MaskHasher>>;

/// A control-game position: the uncontrolled vertices and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ControlPos {
    /// Uncontrolled vertices (bit `v` for vertex `v`, 0-based).
    pub free: u64,
    /// The side to move.
    pub side: Player,
}

/// The control game on one graph (see the module comment).
#[derive(Clone, Debug)]
pub struct Control {
    /// Number of vertices (1..=64).
    n: usize,
    /// Closed neighbourhoods: bit `v` and the neighbours of `v`; zero beyond `n`.
    closed: [u64; MAX_VERTICES],
}

/// The mask of the first `n` vertices.
fn all(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Reads one row of a 0/1 matrix: digits (`0110`) or digits separated by whitespace
/// (`0 1 1 0`). The error names the 1-based column of the first bad entry (it does not name
/// the row; callers add that).
pub fn parse_row(line: &str) -> Result<Vec<u8>, String> {
    let line = line.trim();
    let bad = |col: usize, what: &str| {
        let shown: String = what
            .chars()
            .flat_map(char::escape_default)
            .take(20)
            .collect();
        format!("column {col}: expected 0 or 1, found '{shown}'")
    };
    let mut row = Vec::new();
    if line.contains(char::is_whitespace) {
        for (i, tok) in line.split_whitespace().enumerate() {
            match tok {
                "0" => row.push(0),
                "1" => row.push(1),
                _ => return Err(bad(i + 1, tok)),
            }
        }
    } else {
        for (i, ch) in line.chars().enumerate() {
            match ch {
                '0' => row.push(0),
                '1' => row.push(1),
                _ => return Err(bad(i + 1, ch.encode_utf8(&mut [0; 4]))),
            }
        }
    }
    Ok(row)
}

impl Control {
    /// The graph with adjacency matrix `rows` (see the module comment): square, 1 to 64
    /// vertices, entries 0 or 1, symmetric; the diagonal is ignored. Errors are 1-based:
    /// `matrix is not symmetric: a[2][5]=1 but a[5][2]=0`.
    pub fn from_matrix(rows: &[Vec<u8>]) -> Result<Control, GameError> {
        let n = rows.len();
        if n == 0 {
            return Err(GameError::new(
                "the matrix is empty: a graph needs at least 1 vertex",
            ));
        }
        if n > MAX_VERTICES {
            return Err(GameError::new(format!(
                "the matrix has {n} rows: at most {MAX_VERTICES} vertices"
            )));
        }
        for (i, row) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(GameError::new(format!(
                    "the matrix is not square: row {} has {} entries, expected {n}",
                    i + 1,
                    row.len()
                )));
            }
            if let Some(j) = row.iter().position(|&e| e > 1) {
                return Err(GameError::new(format!(
                    "a[{}][{}]={}: entries must be 0 or 1",
                    i + 1,
                    j + 1,
                    row[j]
                )));
            }
        }
        let mut closed = [0u64; MAX_VERTICES];
        for (i, (row, c)) in rows.iter().zip(closed.iter_mut()).enumerate() {
            *c = 1 << i;
            for (j, &e) in row.iter().enumerate() {
                if i != j && e != rows[j][i] {
                    return Err(GameError::new(format!(
                        "matrix is not symmetric: a[{}][{}]={e} but a[{}][{}]={}",
                        i + 1,
                        j + 1,
                        j + 1,
                        i + 1,
                        rows[j][i]
                    )));
                }
                if e == 1 {
                    *c |= 1 << j;
                }
            }
        }
        Ok(Control { n, closed })
    }

    /// Reads a graph in one of the matrix notations of the module comment. Errors name the
    /// row and column at fault.
    pub fn parse(text: &str) -> Result<Control, GameError> {
        let mut lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if lines.is_empty() {
            return Err(GameError::new("no matrix: the input is empty"));
        }
        if lines.len() == 1 && lines[0].contains('/') {
            lines = lines[0].split('/').map(str::trim).collect();
        }
        // A header is a lone number, without a leading zero, whose length does not match the
        // line count (a headerless matrix written as digits has rows exactly as long as there
        // are rows).
        let first = lines[0];
        let header = lines.len() > 1
            && first.bytes().all(|b| b.is_ascii_digit())
            && !(first.len() > 1 && first.starts_with('0'))
            && first.len() != lines.len();
        let mut first_row = 0;
        if header {
            let n: usize = first
                .parse()
                .map_err(|_| GameError::new(format!("vertex count '{first}' is out of range")))?;
            if n == 0 || n > MAX_VERTICES {
                return Err(GameError::new(format!(
                    "vertex count {n} is out of range (1 to {MAX_VERTICES})"
                )));
            }
            if lines.len() - 1 != n {
                return Err(GameError::new(format!(
                    "expected {n} rows after the vertex count, found {}",
                    lines.len() - 1
                )));
            }
            first_row = 1;
        }
        if lines.len() - first_row > MAX_VERTICES {
            return Err(GameError::new(format!(
                "the matrix has {} rows: at most {MAX_VERTICES} vertices",
                lines.len() - first_row
            )));
        }
        let mut rows = Vec::with_capacity(lines.len() - first_row);
        for (i, line) in lines[first_row..].iter().enumerate() {
            let row = parse_row(line).map_err(|e| GameError::new(format!("row {}, {e}", i + 1)))?;
            rows.push(row);
        }
        Control::from_matrix(&rows)
    }

    /// The graph on `n` vertices (1 to 64) with the given undirected edges, 0-based. Repeated
    /// edges are harmless and loops `(v, v)` are ignored.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<Control, GameError> {
        if n == 0 || n > MAX_VERTICES {
            return Err(GameError::new(format!(
                "a graph has 1 to {MAX_VERTICES} vertices, got {n}"
            )));
        }
        let mut closed = [0u64; MAX_VERTICES];
        for (v, c) in closed.iter_mut().enumerate().take(n) {
            *c = 1 << v;
        }
        for &(a, b) in edges {
            if a >= n || b >= n {
                return Err(GameError::new(format!(
                    "edge ({a}, {b}) names a vertex out of range (vertices are 0 to {})",
                    n - 1
                )));
            }
            closed[a] |= 1 << b;
            closed[b] |= 1 << a;
        }
        Ok(Control { n, closed })
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        self.n
    }

    /// The neighbours of vertex `v` (0-based) as a mask, `v` itself excluded; 0 if `v` is out
    /// of range.
    pub fn neighbours(&self, v: usize) -> u64 {
        if v < self.n {
            self.closed[v] & !(1 << v)
        } else {
            0
        }
    }

    /// The position with the vertices of `free` (masked to the graph) uncontrolled and `side`
    /// to move.
    pub fn position(&self, free: u64, side: Player) -> ControlPos {
        ControlPos {
            free: free & all(self.n),
            side,
        }
    }

    /// True if the first player wins the game from the start (every vertex free), found
    /// exactly by the Sprague-Grundy solver (see the module comment).
    pub fn first_player_wins(&self) -> bool {
        self.grundy(all(self.n)) != 0
    }

    /// The Grundy value of the position whose uncontrolled vertices are `free` (masked to the
    /// graph): the XOR of its connected components' values, each the mex of the values of the
    /// positions one move leads to, memoised by component. 0 exactly when the side to move
    /// loses. Allocates its memo (this is a dedicated solver, not the search's hot path).
    pub fn grundy(&self, free: u64) -> u32 {
        let mut memo = Memo::default();
        u32::from(self.grundy_of(free & all(self.n), &mut memo))
    }

    /// The connected component of `free` that contains the vertices of `seed`.
    #[inline]
    fn component(&self, free: u64, seed: u64) -> u64 {
        let mut comp = seed;
        let mut frontier = seed;
        while frontier != 0 {
            let v = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let fresh = self.closed[v] & free & !comp;
            comp |= fresh;
            frontier |= fresh;
        }
        comp
    }

    /// The Grundy value of `free`: the XOR over its components.
    fn grundy_of(&self, mut free: u64, memo: &mut Memo) -> u8 {
        let mut g = 0;
        while free != 0 {
            let comp = self.component(free, free & free.wrapping_neg());
            free &= !comp;
            g ^= self.grundy_component(comp, memo);
        }
        g
    }

    /// The Grundy value of one connected component.
    fn grundy_component(&self, comp: u64, memo: &mut Memo) -> u8 {
        // Small components directly: a lone vertex, an edge and a triangle are emptied by any
        // move (mex{0} = 1); a path of 3 has options 0 (the middle) and 1 (an end): 2.
        match comp.count_ones() {
            1 | 2 => return 1,
            3 => {
                let v = comp.trailing_zeros() as usize;
                let w = (comp & (comp - 1)).trailing_zeros() as usize;
                let covers = |u: usize| comp & !self.closed[u] == 0;
                let others = comp & !(1 << v) & !(1 << w);
                let x = others.trailing_zeros() as usize;
                return if covers(v) && covers(w) && covers(x) {
                    1
                } else {
                    2
                };
            }
            _ => {}
        }
        if let Some(&g) = memo.get(&comp) {
            return g;
        }
        // Grundy values never exceed the number of vertices (at most 64), so 128 bits of
        // "seen" suffice for the mex.
        let mut seen: u128 = 0;
        let mut rest = comp;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let g = self.grundy_of(comp & !self.closed[v], memo);
            seen |= 1 << g;
        }
        let g = (!seen).trailing_zeros() as u8;
        memo.insert(comp, g);
        g
    }
}

impl Game for Control {
    type Pos = ControlPos;
    type Move = u8;
    type Moves = MoveList<u8, MAX_VERTICES>;

    fn initial(&self) -> ControlPos {
        ControlPos {
            free: all(self.n),
            side: Player::First,
        }
    }

    fn to_move(&self, pos: &ControlPos) -> Player {
        pos.side
    }

    #[inline]
    fn outcome(&self, pos: &ControlPos) -> Option<Value> {
        // Every vertex is controlled: the side to move cannot move and loses.
        (pos.free == 0).then_some(-1)
    }

    #[inline]
    fn moves(&self, pos: &ControlPos, out: &mut Self::Moves) {
        out.clear();
        let mut free = pos.free;
        while free != 0 {
            out.push(free.trailing_zeros() as u8);
            free &= free - 1;
        }
    }

    #[inline]
    fn play(&self, pos: &ControlPos, mv: u8) -> ControlPos {
        ControlPos {
            free: pos.free & !self.closed[mv as usize],
            side: pos.side.other(),
        }
    }

    fn key(&self, pos: &ControlPos) -> u64 {
        // splitmix64 finaliser over the free mask, the side XORed in after.
        let mut z = pos.free.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        match pos.side {
            Player::First => z,
            Player::Second => z ^ SIDE_KEY,
        }
    }

    fn max_plies(&self, pos: &ControlPos) -> usize {
        pos.free.count_ones() as usize
    }

    fn move_code(&self, mv: u8) -> u8 {
        // A vertex index: below 64.
        mv
    }

    fn value_range(&self) -> (Value, Value) {
        (-1, 1)
    }

    fn quick_value(&self, pos: &ControlPos) -> Option<Value> {
        // A move that controls every free vertex wins at once.
        let mut free = pos.free;
        while free != 0 {
            let v = free.trailing_zeros() as usize;
            free &= free - 1;
            if pos.free & !self.closed[v] == 0 {
                return Some(1);
            }
        }
        None
    }
}

impl Notation for Control {
    fn name(&self) -> &'static str {
        "control"
    }

    fn format_move(&self, _pos: &ControlPos, mv: u8) -> String {
        (u32::from(mv) + 1).to_string()
    }

    fn parse_move(&self, pos: &ControlPos, text: &str) -> Result<u8, GameError> {
        let text = text.trim();
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GameError::new(format!(
                "invalid move '{text}': expected a vertex number 1 to {}",
                self.n
            )));
        }
        let v = match text.parse::<u64>() {
            Ok(v) if (1..=self.n as u64).contains(&v) => (v - 1) as u8,
            _ => {
                return Err(GameError::new(format!(
                    "vertex {text} is out of range (1 to {})",
                    self.n
                )))
            }
        };
        if pos.free & 1 << v == 0 {
            return Err(GameError::new(format!(
                "vertex {text} is already controlled"
            )));
        }
        Ok(v)
    }
}
