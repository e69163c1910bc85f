//! The state every worker of one parallel search shares: the node count, the stop flag and
//! the split points' abort flags ([`Shared`]), and the split points above a task
//! ([`SplitChain`]).

use crate::game::Game;
use crate::search::{Searcher, Stats};
use crate::tt::TtStats;
use crossbeam::queue::ArrayQueue;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The most split points that can be open at once; beyond it a node simply runs serially.
const SLOTS: usize = 4096;

/// The most split points above one task.
const MAX_NEST: usize = 64;

/// The split points above a task, as indices into the shared abort flags.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SplitChain {
    pub(super) slots: [u16; MAX_NEST],
    pub(super) len: usize,
}

impl Default for SplitChain {
    fn default() -> Self {
        SplitChain {
            slots: [0; MAX_NEST],
            len: 0,
        }
    }
}

impl SplitChain {
    /// The chain with one more split point below, `None` if it is full.
    pub(super) fn with(&self, slot: u16) -> Option<SplitChain> {
        let mut c = *self;
        *c.slots.get_mut(c.len)? = slot;
        c.len += 1;
        Some(c)
    }
}

/// State shared by every worker of one parallel search.
pub(crate) struct Shared {
    pub(super) aborts: Box<[AtomicBool]>,
    pub(super) free: ArrayQueue<u16>,
    pub(super) stop: AtomicBool,
    /// Set when a worker met a game that broke its `max_plies` promise
    /// ([`Searcher::unfinished`]): the search proved nothing.
    pub(super) broken: AtomicBool,
    pub(super) nodes: AtomicU64,
    pub(super) node_limit: Option<u64>,
    pub(super) threads: u64,
    pub(super) totals: [AtomicU64; 8],
    pub(super) tt_totals: [AtomicU64; 4],
    /// Split points opened, and tasks run under them.
    pub(super) splits: AtomicU64,
    pub(super) tasks: AtomicU64,
}

impl Shared {
    pub(super) fn new(node_limit: Option<u64>, threads: usize) -> Self {
        let free = ArrayQueue::new(SLOTS);
        for i in 0..SLOTS {
            // The queue was made with room for exactly these.
            let _ = free.push(i as u16);
        }
        Shared {
            aborts: (0..SLOTS).map(|_| AtomicBool::new(false)).collect(),
            free,
            stop: AtomicBool::new(false),
            broken: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit,
            threads: threads.max(1) as u64,
            totals: Default::default(),
            tt_totals: Default::default(),
            splits: AtomicU64::new(0),
            tasks: AtomicU64::new(0),
        }
    }

    /// True if the innermost split point of `chain` was aborted, or the whole search was
    /// stopped: the check made at every node. An abort further up is seen by
    /// [`Shared::aborted`], made every few hundred nodes, or by the innermost split point's
    /// own tasks as they start.
    #[inline]
    pub(crate) fn innermost_aborted(&self, chain: &SplitChain) -> bool {
        self.stop.load(Relaxed)
            || chain.len > 0 && self.aborts[chain.slots[chain.len - 1] as usize].load(Relaxed)
    }

    /// True if any split point of `chain` was aborted, or the whole search was stopped.
    #[inline]
    pub(crate) fn aborted(&self, chain: &SplitChain) -> bool {
        self.stop.load(Relaxed)
            || chain.slots[..chain.len]
                .iter()
                .any(|&s| self.aborts[s as usize].load(Relaxed))
    }

    /// Counts `n` more nodes; true once the node budget is spent.
    pub(crate) fn add_nodes(&self, n: u64) -> bool {
        let total = self.nodes.fetch_add(n, Relaxed) + n;
        self.node_limit.is_some_and(|l| total >= l)
    }

    /// How many nodes a worker may search before its next look at the shared count: `every`
    /// without a node budget; with one, a share of what is left, so that all the workers
    /// together overshoot the budget by a few nodes each, not by `every` each.
    #[inline]
    pub(crate) fn check_every(&self, every: u64) -> u64 {
        match self.node_limit {
            None => every,
            Some(limit) => {
                let left = limit.saturating_sub(self.nodes.load(Relaxed));
                (left / (2 * self.threads)).clamp(1, every)
            }
        }
    }

    /// Stops every worker.
    pub(crate) fn stop_all(&self) {
        self.stop.store(true, Relaxed);
    }

    /// A worker met a game that broke its `max_plies` promise: every worker stops, and no
    /// worker's value is the answer (a racing thread may still finish, on table entries
    /// built over that position).
    pub(crate) fn unfinished(&self) {
        self.broken.store(true, Relaxed);
        self.stop_all();
    }

    /// A free split point with its abort flag cleared, `None` if all are in use.
    pub(super) fn take_slot(&self) -> Option<u16> {
        let s = self.free.pop()?;
        self.aborts[s as usize].store(false, Relaxed);
        self.splits.fetch_add(1, Relaxed);
        Some(s)
    }

    pub(super) fn release(&self, slot: u16) {
        // Every slot came from this queue, so there is room for it.
        let _ = self.free.push(slot);
    }

    /// Adds a searcher's counters to the totals (once, when the search is over, or when a
    /// searcher is dropped) and resets them.
    pub(super) fn harvest<G: Game>(&self, s: &mut Searcher<'_, G>) {
        let (st, tt) = s.take_counts();
        for (t, v) in self.totals.iter().zip([
            st.nodes,
            st.leaves,
            st.cutoffs,
            st.first_move_cutoffs,
            0,
            st.forced,
            st.etc_cutoffs,
            st.searched,
        ]) {
            t.fetch_add(v, Relaxed);
        }
        self.totals[4].fetch_max(st.max_ply as u64, Relaxed);
        for (t, v) in self
            .tt_totals
            .iter()
            .zip([tt.probes, tt.hits, tt.stores, tt.replacements])
        {
            t.fetch_add(v, Relaxed);
        }
    }

    pub(super) fn totals(&self) -> (Stats, TtStats) {
        let t = |i: usize| self.totals[i].load(Relaxed);
        let u = |i: usize| self.tt_totals[i].load(Relaxed);
        (
            Stats {
                nodes: t(0),
                leaves: t(1),
                cutoffs: t(2),
                first_move_cutoffs: t(3),
                max_ply: t(4) as u32,
                forced: t(5),
                etc_cutoffs: t(6),
                searched: t(7),
            },
            TtStats {
                probes: u(0),
                hits: u(1),
                stores: u(2),
                replacements: u(3),
            },
        )
    }
}
