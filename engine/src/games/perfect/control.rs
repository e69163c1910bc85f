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
//! Node Kayles is an impartial game, so [`Knowledge::theory_value`] (and [`Control::grundy`],
//! [`Control::first_player_wins`]) need not search the game tree: by the Sprague-Grundy
//! theorem a position is the sum of its connected components, and its Grundy value, 0 exactly
//! when the side to move loses, is the XOR of theirs.
//!
//! - **Components.** The solver splits the free vertices into components. Small ones are valued
//!   at once: one or two vertices and complete graphs are worth 1, paths and cycles come from
//!   the path sequence of Node Kayles; a component of at most 10 vertices is valued by the
//!   mex of its options' values. Values and partial answers are memoised by component (its
//!   vertex mask, which names it exactly within the graph).
//! - **Questions, not values.** A larger component is only asked what the position needs: does
//!   the side to move win `C + *y` (the component plus a nim heap worth the XOR of the other
//!   components), that is, is the value of `C` not `y`? A move in `C` to a position worth `y`
//!   answers yes at once, so most of `C`'s options are never valued; a no settles the value
//!   of `C` (it is `y`). A position of several unknown components values all but the largest
//!   exactly and asks the largest. The root asks whether the position wins against `*0`.
//! - **Move order.** Before searching, every move's result is looked at through the memo: a
//!   move to a known position worth `y` wins, and one the memo knows is no use is skipped; the
//!   others are tried leaving the fewest vertices of unknown value first, then by how often
//!   moving on the vertex has won.
//! - **Mirrors.** If an automorphism of the graph is an involution, a position it maps onto
//!   itself that holds no vertex it fixes or sends to a neighbour is lost for the side to move:
//!   the other side answers every move with its image (see [`Control::mirror`]). So the 8x8
//!   grid (the half turn of the board), even cycles and 64 lone vertices are settled at
//!   once, a 7x9 grid is won by its centre, mirror-image components cancel, and a move that
//!   restores the symmetry is tried first.
//! - **Memory.** The memo starts at 16 KiB and doubles up to 32 MiB, then replaces the
//!   smallest components first. The graph keeps it between solves, so that following a line
//!   of best moves reuses what the first solve found; a solve on another thread at the same
//!   time gets a fresh one.
//!
//! The game is PSPACE-complete in general and the worst case stays exponential. On 64
//! vertices, isolated vertices, paths, cycles, cliques, grids with two even sides and dense
//! random graphs take well under a millisecond; random graphs with edge probability 0.2
//! tens of milliseconds; sparse random graphs (0.05 to 0.1) from milliseconds to some tens
//! of seconds; random regular graphs of low degree (3 to 6), whose components neither split
//! nor shrink fast, can take minutes.

use crate::game::{quote, Game, GameError, MoveBuffer, MoveList, Notation, Player, Value};
use crate::knowledge::{quick_or_listed, Assessment, Knowledge};
use std::sync::{Mutex, OnceLock};

/// Most vertices a graph may have (one bit each in a `u64`).
pub const MAX_VERTICES: usize = 64;

/// XORed into the key when the second player is to move.
const SIDE_KEY: u64 = 0x9D39_247E_3377_6D41;

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
    /// The graph's mirror, if it has one (see [`find_mirror`]), looked for the first time the
    /// solver needs it.
    mirror: OnceLock<Option<Mirror>>,
    /// The solver's memo, kept between solves (see [`Control::with_solver`]).
    cache: MemoCache,
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
        Ok(Control {
            n,
            closed,
            mirror: OnceLock::new(),
            cache: MemoCache::default(),
        })
    }

    /// Reads a graph in one of the matrix notations of the module comment. Errors name the
    /// row and column at fault.
    pub fn parse(text: &str) -> Result<Control, GameError> {
        // A byte-order mark, as some editors write, is not part of the matrix.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if lines.is_empty() {
            return Err(GameError::new("no matrix: the input is empty"));
        }
        if lines.len() == 1 && lines[0].contains('/') {
            // A trailing '/' ends the last row; it does not start an empty one.
            let joined = lines[0].strip_suffix('/').unwrap_or(lines[0]);
            lines = joined.split('/').map(str::trim).collect();
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
            let n: usize = first.parse().map_err(|_| {
                GameError::new(format!("vertex count '{}' is out of range", quote(first)))
            })?;
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
        Ok(Control {
            n,
            closed,
            mirror: OnceLock::new(),
            cache: MemoCache::default(),
        })
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
        self.with_solver(|s| s.wins(all(self.n), 0))
    }

    /// The Grundy value of the position whose uncontrolled vertices are `free` (masked to the
    /// graph): the XOR of its connected components' values, each the mex of the values of the
    /// positions one move leads to. 0 exactly when the side to move loses. Allocates its memo
    /// (this is a dedicated solver, not the search's hot path).
    pub fn grundy(&self, free: u64) -> u32 {
        u32::from(self.with_solver(|s| s.grundy(free & all(self.n))))
    }

    /// The graph's mirror, if it has one: an automorphism `m` that is an involution
    /// (`m[m[v]] == v`; `u`, `v` are adjacent exactly when `m[u]`, `m[v]` are), with the mask
    /// of the vertices it cannot answer: those it fixes and those next to their image. A
    /// position whose free vertices `m` maps onto themselves and that holds none of those is
    /// lost for the side to move: the other side answers every move on `v` with `m[v]`, which
    /// is still free and leaves such a position again. The second player wins the whole graph
    /// by it when the mask is empty (the 8x8 grid's half turn); the first player wins when one
    /// move clears the mask and leaves the rest symmetric (the centre of a 7x9 grid). Found by a
    /// bounded search: the index reversal `v -> n - 1 - v` (the half turn of a grid numbered
    /// row by row) and the half turn `v -> v + n/2 mod n` (a cycle), then a backtracking search
    /// for one that answers every vertex; so a graph may have one this returns `None` for.
    pub fn mirror(&self) -> Option<(&[u8], u64)> {
        self.mirror_table().map(|m| (&m.map[..self.n], m.bad))
    }

    /// The mirror, looked for once.
    fn mirror_table(&self) -> Option<&Mirror> {
        self.mirror
            .get_or_init(|| find_mirror(self.n, &self.closed))
            .as_ref()
    }

    /// Runs `f` with a solver for this graph. The solver takes the memo the graph keeps
    /// between solves (what one solve worked out serves the next, as when a line of best moves
    /// is followed) and gives it back after; a solve that finds the memo taken (by another
    /// thread) starts with a fresh one of its own, so no solve ever waits for another.
    fn with_solver<R>(&self, f: impl FnOnce(&mut Solver<'_>) -> R) -> R {
        let memo = match self.cache.0.try_lock() {
            Ok(mut slot) => slot.take(),
            Err(_) => None,
        };
        let mut solver = Solver {
            closed: &self.closed,
            mirror: self.mirror_table(),
            memo: memo.unwrap_or_else(Memo::new),
            history: [0; MAX_VERTICES],
        };
        let result = f(&mut solver);
        if let Ok(mut slot) = self.cache.0.try_lock() {
            if slot.as_ref().is_none_or(|m| m.len < solver.memo.len) {
                *slot = Some(solver.memo);
            }
        }
        result
    }
}

// The Sprague-Grundy solver (see the module comment).

/// The set bits of `mask`, lowest first.
#[inline]
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let v = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            v
        })
    })
}

/// The connected component of `free` that contains the vertices of `seed` (part of `free`).
#[inline]
fn component(closed: &[u64; MAX_VERTICES], free: u64, seed: u64) -> u64 {
    let mut comp = seed;
    let mut frontier = seed;
    while frontier != 0 {
        let v = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let fresh = closed[v] & free & !comp;
        comp |= fresh;
        frontier |= fresh;
    }
    comp
}

/// The image of the vertex set `set` under the permutation `perm`.
#[inline]
fn image(perm: &[u8; MAX_VERTICES], set: u64) -> u64 {
    bits(set).fold(0, |acc, v| acc | 1 << perm[v])
}

/// The splitmix64 finaliser: the memo's hash.
use crate::rng::mix;

/// Grundy values of Node Kayles on the path of `k` vertices, `k` = 0..=64.
const PATH_GRUNDY: [u8; MAX_VERTICES + 1] = path_grundy();

/// [`PATH_GRUNDY`]: a move on vertex `i` of a path of `k` vertices leaves paths of `i - 1` and
/// `k - i - 2` vertices (clamped at 0), whose sum is worth the XOR of their values.
const fn path_grundy() -> [u8; MAX_VERTICES + 1] {
    let mut g = [0u8; MAX_VERTICES + 1];
    let mut k = 1;
    while k <= MAX_VERTICES {
        let mut seen: u128 = 0;
        let mut i = 0;
        while i < k {
            let left = i.saturating_sub(1);
            let right = k.saturating_sub(i + 2);
            seen |= 1 << (g[left] ^ g[right]);
            i += 1;
        }
        g[k] = (!seen).trailing_zeros() as u8;
        k += 1;
    }
    g
}

/// The Grundy value of the connected component `c` when a formula gives it: one or two
/// vertices, or a complete graph (every move empties it: 1); a path (from [`PATH_GRUNDY`]); a
/// cycle of `k` vertices (every move leaves the path of `k - 3`: 1 if that path is worth 0,
/// else 0).
fn formula(closed: &[u64; MAX_VERTICES], c: u64) -> Option<u8> {
    let k = c.count_ones();
    if k <= 2 {
        return Some(1);
    }
    let (mut degrees, mut min, mut max) = (0, u32::MAX, 0);
    for v in bits(c) {
        let d = (closed[v] & c).count_ones() - 1;
        degrees += d;
        min = min.min(d);
        max = max.max(d);
    }
    if min == k - 1 {
        return Some(1);
    }
    if max <= 2 {
        // Connected with degrees at most 2: a path (k - 1 edges) or a cycle.
        let k = k as usize;
        if degrees as usize == 2 * (k - 1) {
            return Some(PATH_GRUNDY[k]);
        }
        return Some(u8::from(PATH_GRUNDY[k - 3] == 0));
    }
    None
}

/// Components of at most this many vertices are valued outright, by the mex of their options'
/// values (their options are small too, and a full value serves every later question about
/// the component); larger ones are asked only the question at hand (see
/// [`Solver::component_wins`]), which prunes.
const MEX_LIMIT: u32 = 10;

/// Buckets of a fresh memo; it doubles as it fills, up to [`MEMO_MAX`].
const MEMO_MIN: usize = 1 << 8;

/// Most buckets of the memo: 2^19 buckets of 64 bytes, 32 MiB. Once it is full, a new
/// component replaces, in its bucket, the entry of the smallest component (the cheapest to
/// work out again).
const MEMO_MAX: usize = 1 << 19;

/// Heaps `y` for which the memo records that `C + *y` is won by the side to move (bits 0..56
/// of an entry's info word, bit `y` meaning the value of `C` is not `y`); the top byte holds
/// the value of `C` plus one, 0 while it is unknown.
const WIN_BITS: u8 = 56;

/// One memo entry: a component (its vertex mask, 0 for an empty slot) and what is known of it.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    info: u64,
}

/// Four entries in one cache line: a component's key picks its bucket.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; 4]);

/// The solver's memo: what is known of connected components, keyed by their vertex masks
/// (within one graph a mask names a component exactly), in buckets of four. It holds only
/// components that no [`formula`] (nor the mirror) values. It starts small
/// and doubles while it is half full, up to [`MEMO_MAX`] buckets; from then on it replaces.
struct Memo {
    buckets: Vec<Bucket>,
    len: usize,
}

impl Memo {
    fn new() -> Memo {
        Memo {
            buckets: vec![Bucket::default(); MEMO_MIN],
            len: 0,
        }
    }

    /// The bucket of component `key`.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        mix(key) as usize & (self.buckets.len() - 1)
    }

    /// What the memo knows of component `key`: its info word, 0 for nothing.
    #[inline]
    fn get(&self, key: u64) -> u64 {
        let mut info = 0;
        for e in &self.buckets[self.bucket(key)].0 {
            if e.key == key {
                info = e.info;
            }
        }
        info
    }

    /// Adds `info` to what the memo knows of component `key`.
    fn add(&mut self, key: u64, info: u64) {
        loop {
            let i = self.bucket(key);
            let b = &mut self.buckets[i].0;
            if let Some(e) = b.iter_mut().find(|e| e.key == key) {
                e.info |= info;
                return;
            }
            if let Some(e) = b.iter_mut().find(|e| e.key == 0) {
                *e = Entry { key, info };
                self.len += 1;
                if self.len > 2 * self.buckets.len() {
                    self.grow();
                }
                return;
            }
            let victim = (0..4).min_by_key(|&j| b[j].key.count_ones()).unwrap_or(0);
            if self.buckets.len() < MEMO_MAX {
                self.grow();
                continue;
            }
            self.buckets[i].0[victim] = Entry { key, info };
            return;
        }
    }

    /// Doubles the table (up to [`MEMO_MAX`] buckets), keeping the entries that find a slot.
    fn grow(&mut self) {
        if self.buckets.len() >= MEMO_MAX {
            return;
        }
        let bigger = vec![Bucket::default(); self.buckets.len() * 2];
        let old = std::mem::replace(&mut self.buckets, bigger);
        self.len = 0;
        for e in old.iter().flat_map(|b| b.0).filter(|e| e.key != 0) {
            let i = self.bucket(e.key);
            if let Some(slot) = self.buckets[i].0.iter_mut().find(|s| s.key == 0) {
                *slot = e;
                self.len += 1;
            }
        }
    }
}

/// A memo kept with its graph between solves (see [`Control::with_solver`]). A clone of the
/// graph starts with none.
#[derive(Default)]
struct MemoCache(Mutex<Option<Memo>>);

impl Clone for MemoCache {
    fn clone(&self) -> Self {
        MemoCache::default()
    }
}

impl std::fmt::Debug for MemoCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MemoCache")
    }
}

/// An involutive automorphism of the graph and the vertices it cannot answer (see
/// [`Control::mirror`]).
#[derive(Clone, Debug)]
struct Mirror {
    map: [u8; MAX_VERTICES],
    /// The vertices the map fixes or sends to a neighbour.
    bad: u64,
}

impl Mirror {
    /// The image of the vertex set `set`.
    #[inline]
    fn image(&self, set: u64) -> u64 {
        image(&self.map, set)
    }

    /// Whether the position with free vertices `p` is lost by the mirror argument: the map
    /// keeps it and it holds no vertex the map cannot answer.
    #[inline]
    fn wins_second(&self, p: u64) -> bool {
        p & self.bad == 0 && self.image(p) == p
    }
}

/// One exact solve: the graph, its mirror, a memo of components and a history of the moves
/// that won.
struct Solver<'a> {
    closed: &'a [u64; MAX_VERTICES],
    mirror: Option<&'a Mirror>,
    memo: Memo,
    /// For each vertex, how much winning on it has been worth: orders moves that leave
    /// remainders of equal size.
    history: [u32; MAX_VERTICES],
}

impl<'a> Solver<'a> {
    /// The Grundy value of the connected component `c` if it is known without a search: from
    /// the memo, a [`formula`], or the mirror (a component the mirror maps onto itself is worth
    /// 0: see [`Control::mirror`]).
    #[inline]
    fn known(&self, c: u64) -> Option<u8> {
        if c.count_ones() <= 2 {
            return Some(1);
        }
        let info = self.memo.get(c);
        if info >> 56 != 0 {
            return Some((info >> 56) as u8 - 1);
        }
        // The memo holds only components no formula values: skip the formulas for those.
        if info != 0 {
            return None;
        }
        self.formula_or_mirror(c)
    }

    /// [`formula`], then the mirror.
    #[inline]
    fn formula_or_mirror(&self, c: u64) -> Option<u8> {
        if let Some(g) = formula(self.closed, c) {
            return Some(g);
        }
        match self.mirror {
            Some(m) if m.wins_second(c) => Some(0),
            _ => None,
        }
    }

    /// The Grundy value of the position whose free vertices are `p`: the XOR over its
    /// components.
    fn grundy(&mut self, p: u64) -> u8 {
        let mut g = 0;
        let mut rest = p;
        while rest != 0 {
            let c = component(self.closed, rest, rest & rest.wrapping_neg());
            rest &= !c;
            g ^= self.grundy_component(c);
        }
        g
    }

    /// The Grundy value of the connected component `c`: for a small one the mex of its options'
    /// values, for a larger one the first heap `y` for which `c + *y` is lost by the side to
    /// move.
    fn grundy_component(&mut self, c: u64) -> u8 {
        if let Some(g) = self.known(c) {
            return g;
        }
        if c.count_ones() <= MEX_LIMIT {
            // Values never exceed the number of vertices (at most 64): 128 bits of "seen".
            let mut seen: u128 = 0;
            for v in bits(c) {
                seen |= 1 << self.grundy(c & !self.closed[v]);
            }
            let g = (!seen).trailing_zeros() as u8;
            self.memo.add(c, (u64::from(g) + 1) << 56);
            return g;
        }
        let mut y = 0;
        while self.component_wins(c, y) {
            y += 1;
        }
        y
    }

    /// Whether the side to move wins the position with free vertices `p` plus a nim heap of
    /// `y`: whether the XOR of `y` and the values of `p`'s components is not 0. A position the
    /// mirror maps onto itself is worth 0. Components whose values are known fold into the
    /// heap, and two components that are mirror images of each other cancel; of the rest,
    /// every component but the largest is valued exactly, and the largest is only asked
    /// whether it wins against the heap.
    fn wins(&mut self, p: u64, y: u8) -> bool {
        if let Some(m) = self.mirror {
            if m.wins_second(p) {
                return y != 0;
            }
        }
        let mut x = y;
        let mut open = [0u64; MAX_VERTICES];
        let mut n = 0;
        let mut rest = p;
        while rest != 0 {
            let c = component(self.closed, rest, rest & rest.wrapping_neg());
            rest &= !c;
            match self.known(c) {
                Some(g) => x ^= g,
                None => {
                    open[n] = c;
                    n += 1;
                }
            }
        }
        if n >= 2 {
            if let Some(m) = self.mirror {
                let mut i = 0;
                while i < n {
                    // Images under an automorphism: isomorphic, so equal values.
                    let img = m.image(open[i]);
                    match (i + 1..n).find(|&j| open[j] == img) {
                        Some(j) => {
                            open[j] = open[n - 1];
                            n -= 1;
                            open[i] = open[n - 1];
                            n -= 1;
                        }
                        None => i += 1,
                    }
                }
            }
        }
        if n == 0 {
            return x != 0;
        }
        let largest = (0..n).max_by_key(|&i| open[i].count_ones()).unwrap_or(0);
        open.swap(largest, n - 1);
        for &c in &open[..n - 1] {
            x ^= self.grundy_component(c);
        }
        self.component_wins(open[n - 1], x)
    }

    /// What a position `p` is worth without a search: the XOR of its known components'
    /// values, the number of vertices in components of unknown value, and, when exactly one
    /// component is unknown, the heaps against which the memo knows it wins (else 0).
    #[inline]
    fn scan(&self, p: u64) -> (u8, u32, u64) {
        let (mut x, mut unknown, mut count, mut wins) = (0, 0, 0, 0);
        let mut rest = p;
        while rest != 0 {
            let c = component(self.closed, rest, rest & rest.wrapping_neg());
            rest &= !c;
            if c.count_ones() <= 2 {
                x ^= 1;
                continue;
            }
            let info = self.memo.get(c);
            if info >> 56 != 0 {
                x ^= (info >> 56) as u8 - 1;
                continue;
            }
            match (info == 0).then(|| self.formula_or_mirror(c)).flatten() {
                Some(g) => x ^= g,
                None => {
                    unknown += c.count_ones();
                    count += 1;
                    wins = info;
                }
            }
        }
        (x, unknown, if count == 1 { wins } else { 0 })
    }

    /// Whether the side to move wins the connected component `c` plus a nim heap of `y`, that
    /// is whether the value of `c` is not `y`: some move in `c` leaves a position worth `y`, or
    /// the value of `c` is below `y` (the heap move to it wins). Records the answer in the
    /// memo: a win against this heap, or, for a loss, the value of `c`, which is then `y`.
    fn component_wins(&mut self, c: u64, y: u8) -> bool {
        let info = self.memo.get(c);
        if info >> 56 != 0 {
            return (info >> 56) as u8 - 1 != y;
        }
        if y < WIN_BITS && info >> y & 1 == 1 {
            return true;
        }
        if info == 0 {
            if let Some(g) = self.formula_or_mirror(c) {
                return g != y;
            }
        }
        if c.count_ones() <= MEX_LIMIT {
            return self.grundy_component(c) != y;
        }
        let win = |s: &mut Self, v: Option<usize>| {
            if let Some(v) = v {
                let size = c.count_ones();
                s.history[v] = s.history[v].saturating_add(size * size);
            }
            if y < WIN_BITS {
                s.memo.add(c, 1 << y);
            }
            true
        };
        // The mirror's answer: a move that leaves a position the mirror wins (worth 0). Such a
        // move on `u` clears every vertex of `c` outside its image and every vertex the mirror
        // cannot answer, and each vertex of the image outside `c` is the image of a vertex it
        // clears: so `u` is next to (or is) such a vertex `w`, or to the image of one.
        if y == 0 {
            if let Some(m) = self.mirror {
                let odd = (c ^ m.image(c)) | (c & m.bad);
                if odd != 0 {
                    let w = odd.trailing_zeros() as usize;
                    for u in bits((self.closed[w] | m.image(self.closed[w])) & c) {
                        if m.wins_second(c & !self.closed[u]) {
                            return win(self, Some(u));
                        }
                    }
                }
            }
        }
        // First every move whose result is known without a search (the memo may know it is no
        // use); then the others, those that leave the fewest vertices of unknown value first
        // (the cheapest to settle), then by history.
        let mut order = [(0u32, 0u8); MAX_VERTICES];
        let mut k = 0;
        for v in bits(c) {
            match self.scan(c & !self.closed[v]) {
                (x, 0, _) if x == y => return win(self, Some(v)),
                (_, 0, _) => {}
                // One unknown component, which the memo knows is not worth `x ^ y`.
                (x, _, wins) if x ^ y < WIN_BITS && wins >> (x ^ y) & 1 == 1 => {}
                (_, unknown, _) => {
                    let fame = self.history[v].min((1 << 24) - 1);
                    order[k] = (unknown << 24 | ((1 << 24) - 1 - fame), v as u8);
                    k += 1;
                }
            }
        }
        order[..k].sort_unstable();
        for &(_, v) in &order[..k] {
            let v = usize::from(v);
            if !self.wins(c & !self.closed[v], y) {
                return win(self, Some(v));
            }
        }
        // The heap moves: to `z` below `y`, a win if `c` is worth `z`.
        for z in 0..y {
            if z < WIN_BITS && info >> z & 1 == 1 {
                continue;
            }
            if !self.component_wins(c, z) {
                return win(self, None);
            }
        }
        self.memo.add(c, (u64::from(y) + 1) << 56);
        false
    }
}

/// Most vertices a mirror may leave unanswered (see [`find_mirror`]): past that it would
/// rarely settle a position, and costs a check at every one.
const MIRROR_BAD: u32 = 8;

/// Steps the mirror search may take before it gives up.
const MIRROR_BUDGET: u32 = 20_000;

/// Looks for a mirror of the graph (see [`Control::mirror`]), best first: one that answers
/// every vertex (an involutive automorphism without fixed vertex that maps no vertex to a
/// neighbour) among the index reversal `v -> n - 1 - v` (the half turn of a grid numbered row
/// by row), the half turn `v -> v + n/2 mod n` (a cycle) and what a backtracking search finds
/// within [`MIRROR_BUDGET`] steps, pairing each vertex with one of the same colour after colour
/// refinement; else the index reversal or the half turn if it is an automorphism that fails to
/// answer at most [`MIRROR_BAD`] vertices (a grid with an odd side). Whatever it returns is
/// checked in full.
fn find_mirror(n: usize, closed: &[u64; MAX_VERTICES]) -> Option<Mirror> {
    // The vertices `m` cannot answer, if it is an involutive automorphism.
    let check = |m: &[u8; MAX_VERTICES]| -> Option<u64> {
        let mut bad = 0;
        for v in 0..n {
            let u = usize::from(m[v]);
            if u >= n || usize::from(m[u]) != v || image(m, closed[v]) != closed[u] {
                return None;
            }
            if closed[v] >> u & 1 == 1 {
                bad |= 1 << v;
            }
        }
        Some(bad)
    };
    let mut reversal = [0u8; MAX_VERTICES];
    let mut half_turn = [0u8; MAX_VERTICES];
    for v in 0..n {
        reversal[v] = (n - 1 - v) as u8;
        half_turn[v] = ((v + n / 2) % n) as u8;
    }
    let mut found = Vec::new();
    for m in [reversal, half_turn] {
        if let Some(bad) = check(&m) {
            if bad == 0 {
                return Some(Mirror { map: m, bad });
            }
            found.push(Mirror { map: m, bad });
        }
    }
    if n & 1 == 0 {
        let mut search = MirrorSearch {
            n,
            closed,
            colour: refine(n, closed),
            m: [0; MAX_VERTICES],
            paired: 0,
            budget: MIRROR_BUDGET,
        };
        if search.extend() && check(&search.m) == Some(0) {
            return Some(Mirror {
                map: search.m,
                bad: 0,
            });
        }
    }
    found
        .into_iter()
        .filter(|m| m.bad.count_ones() <= MIRROR_BAD)
        .min_by_key(|m| m.bad.count_ones())
}

/// Colour refinement: vertices start coloured by degree, then repeatedly by their colour and
/// the multiset of their neighbours' colours, until the number of colours stops growing. An
/// automorphism maps every vertex to one of the same colour.
fn refine(n: usize, closed: &[u64; MAX_VERTICES]) -> [u64; MAX_VERTICES] {
    let distinct = |c: &[u64; MAX_VERTICES]| {
        let mut sorted = *c;
        sorted[..n].sort_unstable();
        1 + sorted[..n].windows(2).filter(|w| w[0] != w[1]).count()
    };
    let mut colour = [0u64; MAX_VERTICES];
    for (v, c) in colour.iter_mut().enumerate().take(n) {
        *c = u64::from(closed[v].count_ones());
    }
    let mut classes = distinct(&colour);
    for _ in 0..n {
        let mut next = [0u64; MAX_VERTICES];
        for (v, c) in next.iter_mut().enumerate().take(n) {
            *c = bits(closed[v] & !(1 << v)).fold(mix(colour[v]), |h, w| {
                h.wrapping_add(mix(colour[w] ^ 0x5851_F42D_4C95_7F2D))
            });
        }
        colour = next;
        let now = distinct(&colour);
        if now == classes {
            break;
        }
        classes = now;
    }
    colour
}

/// The backtracking search of [`find_mirror`].
struct MirrorSearch<'a> {
    n: usize,
    closed: &'a [u64; MAX_VERTICES],
    colour: [u64; MAX_VERTICES],
    /// The pairing so far: `m[v]` for the vertices of `paired`.
    m: [u8; MAX_VERTICES],
    paired: u64,
    budget: u32,
}

impl MirrorSearch<'_> {
    /// Extends the pairing to every vertex; false if it cannot (or the budget ran out).
    fn extend(&mut self) -> bool {
        let unpaired = all(self.n) & !self.paired;
        if unpaired == 0 {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        // The unpaired vertex with the most paired neighbours: the most constrained.
        let v = bits(unpaired)
            .max_by_key(|&v| ((self.closed[v] & self.paired).count_ones(), usize::MAX - v))
            .unwrap_or(0);
        let seen = self.closed[v] & self.paired;
        for u in bits(unpaired & !self.closed[v]) {
            // Same colour, and the pairs so far keep adjacency: v's paired neighbours map onto
            // u's.
            if self.colour[u] != self.colour[v]
                || image(&self.m, seen) != self.closed[u] & self.paired
            {
                continue;
            }
            self.m[v] = u as u8;
            self.m[u] = v as u8;
            self.paired |= 1 << v | 1 << u;
            if self.extend() {
                return true;
            }
            self.paired &= !(1 << v | 1 << u);
            if self.budget == 0 {
                return false;
            }
        }
        false
    }
}

impl Control {
    /// A win when one move controls every free vertex, else `None`.
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

    /// The exact value by the Sprague-Grundy solver: 1 when the side to move wins, else -1.
    pub fn exact_value(&self, pos: &ControlPos) -> Option<Value> {
        // The side to move wins exactly when the Grundy value is not 0; a terminal position
        // (nothing free) is worth 0: a loss, as `outcome` says.
        let wins = self.with_solver(|s| s.wins(pos.free & all(self.n), 0));
        Some(if wins { 1 } else { -1 })
    }
}

/// What the solver knows of the control game beyond its rules: a move that controls every
/// free vertex wins at once, and the Sprague-Grundy theory values every position exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ControlKnowledge;

impl Knowledge<Control> for ControlKnowledge {
    type Scratch = ();

    fn theory_value(game: &Control, pos: &ControlPos) -> Option<Value> {
        game.exact_value(pos)
    }

    fn analyse(
        game: &Control,
        pos: &ControlPos,
        moves: &mut <Control as Game>::Moves,
        hints: &mut [i32],
        _scratch: &mut (),
    ) -> Assessment {
        quick_or_listed(
            game,
            pos,
            moves,
            hints,
            || game.quick_value(pos),
            |m| game.moves(pos, m),
        )
    }
}

impl Game for Control {
    type Pos = ControlPos;
    type Move = u8;
    type Moves = MoveList<u8, MAX_VERTICES>;
    type Knowledge = ControlKnowledge;

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
        let z = crate::rng::splitmix64(pos.free);
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
                "invalid move '{}': expected a vertex number 1 to {}",
                quote(text),
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
