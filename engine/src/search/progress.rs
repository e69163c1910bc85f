//! What a running search has done so far, readable from another thread while it runs: the
//! nodes searched, the window the null-window solver has narrowed the value to, the depth
//! iterative deepening has finished, and, within the exact solver's running probe, the bound
//! it tests and how many moves it has settled at the root and at the first plies of the line
//! it is searching (on a long solve the root's first move takes most of the time, so the
//! plies below it are what moves). A front end polls it to draw a progress line, and reads
//! the proven bounds of an exact solve that was stopped before it settled.
//!
//! The searches publish nodes where they already stop to look at their limits (every few
//! thousand nodes), and settled moves once per move searched at the first [`SETTLED_PLIES`]
//! plies, so a search given a [`Progress`] costs nothing measurable more per node.

use crate::game::Value;
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// How many plies from the root the settled moves are counted at.
pub const SETTLED_PLIES: usize = 5;

/// Progress counters shared between a search and its observers (all relaxed atomics: each
/// figure is exact on its own, a snapshot of several may mix two moments).
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    lo: AtomicI32,
    hi: AtomicI32,
    depth: AtomicU32,
    probes: AtomicU32,
    /// The value the running probe tests (`i32::MIN`: none).
    testing: AtomicI32,
    /// Per ply from the root: the moves of the node being searched there that are settled,
    /// one bit each (moves past 63 share bit 63); a bit set twice (Lazy SMP's helpers
    /// searching the same move) counts once.
    done: [AtomicU64; SETTLED_PLIES],
    /// Per ply: that node's number of moves (0 until one is settled; the root's is known from
    /// the probe's start).
    moves: [AtomicU32; SETTLED_PLIES],
    /// The game's cap (`max_plies` of the root) and the line (moves as their `Debug` text)
    /// of the first position a search met there without an outcome, by any thread: the
    /// solver's [`SolveError::Unfinished`](crate::solver::SolveError::Unfinished). Written
    /// only then, so the lock is never taken by an honest game's search.
    unfinished: Mutex<Option<(usize, Vec<String>)>>,
}

/// A copy of the counters at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Nodes searched so far, over every thread and every iteration or probe.
    pub nodes: u64,
    /// The value proven to lie in `lo..=hi` (the game's whole range until a probe narrows
    /// it; exact solving only).
    pub lo: Value,
    /// See `lo`.
    pub hi: Value,
    /// The last depth iterative deepening finished (0: none yet).
    pub depth: u32,
    /// Null-window probes finished by the exact solver.
    pub probes: u32,
    /// The exact solver's running probe: it asks whether the value exceeds this (`None`
    /// before the first probe, and for the other searches).
    pub testing: Option<Value>,
    /// Per ply from the root, `(settled, moves)` for the node the running probe is searching
    /// there: its moves searched to the end (all of them once one refutes the probe's bound)
    /// and its number of moves, `(0, 0)` until one is settled (the root's count is known from
    /// the start). Ply 0 is the root; ply 1 the
    /// root's move being searched, and so on.
    pub settled: [(u32, u32); SETTLED_PLIES],
}

impl Progress {
    /// Counters for a search of a game whose values lie in `range`.
    pub fn new(range: (Value, Value)) -> Self {
        Progress {
            nodes: AtomicU64::new(0),
            lo: AtomicI32::new(range.0),
            hi: AtomicI32::new(range.1),
            depth: AtomicU32::new(0),
            probes: AtomicU32::new(0),
            testing: AtomicI32::new(i32::MIN),
            done: std::array::from_fn(|_| AtomicU64::new(0)),
            moves: std::array::from_fn(|_| AtomicU32::new(0)),
            unfinished: Mutex::new(None),
        }
    }

    /// The counters now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            nodes: self.nodes.load(Relaxed),
            lo: self.lo.load(Relaxed),
            hi: self.hi.load(Relaxed),
            depth: self.depth.load(Relaxed),
            probes: self.probes.load(Relaxed),
            testing: Some(self.testing.load(Relaxed)).filter(|&t| t != i32::MIN),
            settled: std::array::from_fn(|k| {
                (
                    self.done[k].load(Relaxed).count_ones(),
                    self.moves[k].load(Relaxed),
                )
            }),
        }
    }

    /// Records the start of a probe asking whether the value exceeds `testing`, at a root
    /// with `moves` moves: nothing is settled yet.
    pub(crate) fn start_probe(&self, testing: Value, moves: usize) {
        self.clear_from(0);
        self.moves[0].store(u32::try_from(moves).unwrap_or(u32::MAX), Relaxed);
        self.testing.store(testing, Relaxed);
    }

    /// Forgets the settled moves at `ply` and below.
    fn clear_from(&self, ply: usize) {
        for k in ply..SETTLED_PLIES {
            self.done[k].store(0, Relaxed);
            self.moves[k].store(0, Relaxed);
        }
    }

    /// Records that move `i` of the `moves` at `ply` (below [`SETTLED_PLIES`]) is settled;
    /// with `cutoff` it refuted the bound and so settled all of them. The plies below start
    /// afresh: the next move searched there is another node.
    #[inline]
    pub(crate) fn settle(&self, ply: usize, i: usize, moves: usize, cutoff: bool) {
        let Some(done) = self.done.get(ply) else {
            return;
        };
        self.moves[ply].store(u32::try_from(moves).unwrap_or(u32::MAX), Relaxed);
        let bits = if cutoff {
            u64::MAX >> 64usize.saturating_sub(moves).min(63)
        } else {
            1u64 << i.min(63)
        };
        done.fetch_or(bits, Relaxed);
        self.clear_from(ply + 1);
    }

    /// Counts `n` more nodes.
    #[inline]
    pub(crate) fn add_nodes(&self, n: u64) {
        if n > 0 {
            self.nodes.fetch_add(n, Relaxed);
        }
    }

    /// Records a narrower window proven by the exact solver. Bounds only ever tighten, so a
    /// stale writer (a parallel worker finishing late) cannot widen them.
    pub(crate) fn narrow(&self, lo: Value, hi: Value) {
        self.lo.fetch_max(lo, Relaxed);
        self.hi.fetch_min(hi, Relaxed);
        self.probes.fetch_add(1, Relaxed);
    }

    /// Records that a search met a position at the game's cap `max_plies` without an outcome,
    /// at the end of `line()`, unless one was recorded already (the first is kept).
    pub(crate) fn unfinished(&self, max_plies: usize, line: impl FnOnce() -> Vec<String>) {
        let mut slot = self.unfinished.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some((max_plies, line()));
        }
    }

    /// Takes what [`Progress::unfinished`] recorded, leaving nothing.
    pub(crate) fn take_unfinished(&self) -> Option<(usize, Vec<String>)> {
        self.unfinished
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    /// Records a finished iteration of iterative deepening.
    pub(crate) fn finished_depth(&self, depth: usize) {
        self.depth
            .fetch_max(u32::try_from(depth).unwrap_or(u32::MAX), Relaxed);
    }
}

/// What [`Solver::analyse`](crate::solver::Solver::analyse) has done so far, readable from
/// another thread (a server's progress reports): the move being solved, and each move's
/// search's [`Progress`].
#[derive(Debug)]
pub struct MoveProgress {
    /// The index of the move being solved (the count solved, once all are).
    pub current: AtomicUsize,
    /// The number of moves to solve (0 until known).
    pub total: AtomicUsize,
    /// One per move (the engine's move lists hold at most 64).
    pub moves: Vec<Progress>,
}

impl MoveProgress {
    /// Counters for a game whose values lie in `range`.
    pub fn new(range: (Value, Value)) -> Self {
        MoveProgress {
            current: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            moves: (0..64).map(|_| Progress::new(range)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settled counts down to the last ply with a known count.
    fn settled(p: &Progress) -> Vec<(u32, u32)> {
        let s = p.snapshot().settled;
        let known = s.iter().rposition(|&(_, n)| n > 0).map_or(0, |k| k + 1);
        s[..known].to_vec()
    }

    #[test]
    fn settling_a_move_counts_it_and_clears_the_plies_below() {
        let p = Progress::new((-5, 5));
        p.start_probe(2, 7);
        assert_eq!(p.snapshot().testing, Some(2));
        assert_eq!(settled(&p), [(0, 7)]);
        p.settle(2, 0, 4, false);
        p.settle(1, 3, 6, false);
        // Ply 1's move 3 done: its ply-2 node is finished, the next one starts afresh.
        assert_eq!(settled(&p), [(0, 7), (1, 6)]);
        p.settle(1, 3, 6, false);
        assert_eq!(
            p.snapshot().settled[1],
            (1, 6),
            "a move settled twice counts once"
        );
        p.settle(1, 4, 6, true);
        assert_eq!(
            p.snapshot().settled[1],
            (6, 6),
            "a cutoff settles every move"
        );
        p.settle(0, 0, 7, false);
        assert_eq!(settled(&p), [(1, 7)]);
        p.settle(SETTLED_PLIES, 0, 3, false);
        assert_eq!(settled(&p), [(1, 7)], "deeper plies ignored");
        p.settle(0, 70, 80, true);
        assert_eq!(
            p.snapshot().settled[0],
            (64, 80),
            "moves past 63 share one bit"
        );
        p.start_probe(-1, 7);
        assert_eq!(settled(&p), [(0, 7)]);
    }

    #[test]
    fn a_finished_solve_has_settled_the_roots_moves_in_its_last_probe() {
        use crate::games::perfect::connect4::Connect4;
        use crate::search::Algorithm;
        use crate::solver::Solver;
        let game = Connect4::from_moves("4453").expect("a position");
        let p = Progress::new(crate::game::Game::value_range(&game));
        let out = Solver::new(&game)
            .algorithm(Algorithm::Solve)
            .progress(&p)
            .run()
            .expect("solved");
        let s = p.snapshot();
        assert!(s.probes >= 1);
        let t = s.testing.expect("a probe ran");
        assert!(s.lo <= t && t < s.hi || s.lo == s.hi, "{s:?}");
        assert_eq!(s.settled[0].1, 7, "{s:?}");
        assert!(s.settled[0].0 >= 1 && s.settled[0].0 <= 7, "{s:?}");
        assert_eq!(out.verdict.value(), Some(s.lo));
    }
}
