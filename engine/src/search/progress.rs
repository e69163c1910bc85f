//! What a running search has done so far, readable from another thread while it runs: the
//! nodes searched, the window the null-window solver has narrowed the value to, and the depth
//! iterative deepening has finished. A front end polls it to draw a progress line, and reads
//! the proven bounds of an exact solve that was stopped before it settled.
//!
//! The searches publish into it where they already stop to look at their limits (every few
//! thousand nodes), so a search given a [`Progress`] costs nothing more per node.

use crate::game::Value;
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Progress counters shared between a search and its observers (all relaxed atomics: each
/// figure is exact on its own, a snapshot of several may mix two moments).
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    lo: AtomicI32,
    hi: AtomicI32,
    depth: AtomicU32,
    probes: AtomicU32,
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
        }
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
