//! Young Brothers Wait on rayon: the split rule and the split itself, as the [`Task`] policy
//! of the one node routine (`search/pvs.rs`).
//!
//! At a node with at least `min_split_depth` plies left and at most `max_split_ply` plies
//! below the root, the eldest child is searched first, alone (it usually sets the bound or
//! cuts off). Only then are the younger brothers searched in parallel: jobs forked with
//! `rayon::join`, whose jobs live on the stack, so splitting allocates nothing, claim the
//! brothers in order (`par_claim`). The brothers share the node's alpha through an atomic (a
//! brother that raises it narrows the windows of those that start later) and each is searched
//! PVS-style ([`Searcher::scout`]): null window first, re-searched only when it beats alpha. A
//! brother that fails high raises its split point's abort flag and every task below that split
//! point stops at its next node, or, in the quiet nodes where no split can happen, at its next
//! budget check ([`Quiet`]).
//!
//! Root splitting ([`super::Mode::Root`]) is the same machinery with the split made only at
//! the root, without waiting for the eldest, and serial searches below.

use super::abdada::Busy;
use super::config::{on_cores, Mode};
use super::run::{tally, RootResult, Run, Tallies};
use super::shared::{Shared, SplitChain};
use crate::game::{Game, MoveBuffer, Value};
use crate::search::policy::{Best, Node};
use crate::search::policy::{Brothers, Policy, Split};
use crate::search::{NoObserver, Searcher};
use crossbeam::queue::ArrayQueue;
use crossbeam::utils::CachePadded;
use std::cell::Cell;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};

/// What every task of one parallel search needs.
pub(crate) struct Ctx<'a, 'g, G: Game> {
    pub shared: &'g Shared,
    /// Idle searchers, reused by the tasks: one pool per thread of the rayon pool, so that a
    /// thread keeps getting back the searchers whose killers and history it trained (a task
    /// stolen by another thread takes that thread's), then a shared overflow pool.
    pub pools: &'a [CachePadded<ArrayQueue<Searcher<'g, G>>>],
    /// Where searchers go when their thread's pool is full, and come from when it is empty.
    pub overflow: &'a ArrayQueue<Searcher<'g, G>>,
    /// Makes a searcher when the pool is empty (rare: only while more tasks are open than
    /// were pooled up front).
    pub make: &'a (dyn Fn() -> Searcher<'g, G> + Sync),
    pub per_thread: &'a Tallies,
    pub min_split_nodes: u64,
    /// Brothers searched one after the other before the rest are split (at least 1).
    pub eldest: usize,
    /// Split only at the root, without waiting for the eldest (root splitting).
    pub root_only: bool,
    /// Claimants forked at a split: the pool's threads, up to the cores (see `on_cores`).
    pub claimants: usize,
    /// Nodes with fewer plies than this to the horizon never split, and are searched quietly
    /// (see [`Policy::quietly`]): those under the configuration's `min_split_depth`, and those
    /// more than its `max_split_ply` plies below the root (everything below it for root
    /// splitting).
    pub quiet_below: usize,
}

/// Runs `f(i)` for every `i` in `lo..hi`, in order of `i` as far as threads allow: `workers`
/// jobs, forked by recursive `rayon::join` (jobs on the stack: nothing allocated), each
/// claiming the next index from a shared counter until none is left. A job no idle thread
/// steals finds the indices already claimed by the ones before it and returns at once.
///
/// In order, not halved: with the moves best first, the brother most likely to cut the node
/// off is searched first, by whichever thread is free. Halving the range sent the second
/// thread to the middle of the list, the moves least likely to matter, and a cutoff found
/// there by the first thread came after all that work (see the figures in docs/measurements/thread-scaling.md).
fn par_claim(lo: usize, hi: usize, workers: usize, f: &(dyn Fn(usize) + Sync)) {
    let next = std::sync::atomic::AtomicUsize::new(lo);
    let job = || loop {
        let i = next.fetch_add(1, Relaxed);
        if i >= hi {
            break;
        }
        f(i);
    };
    fork(workers.clamp(1, hi.saturating_sub(lo).max(1)), &job);
}

/// Runs `job` as `n` jobs forked by recursive `rayon::join`.
fn fork(n: usize, job: &(dyn Fn() + Sync)) {
    if n <= 1 {
        job();
    } else {
        let half = n / 2;
        rayon::join(|| fork(half, job), || fork(n - half, job));
    }
}

/// Packs a value and a move index so that `fetch_max` keeps the best value and, among equal
/// values, the earliest move. Zero means "nothing yet".
fn pack(v: Value, i: usize) -> u64 {
    ((v as i64 - i32::MIN as i64 + 1) as u64) << 8 | (255 - i as u64)
}

fn unpack(p: u64) -> (Value, usize) {
    (
        ((p >> 8) as i64 + i32::MIN as i64 - 1) as Value,
        255 - (p & 255) as usize,
    )
}

/// The YBWC (or root-splitting) driver: the root searched by the calling thread, which must be
/// one of the pool's.
pub(super) fn search<G: Game>(run: &Run<'_, G>) -> RootResult<G::Move> {
    let Run {
        algo,
        config,
        shared,
        per_thread,
        ..
    } = *run;
    let make = || run.worker();
    let threads = rayon::current_num_threads();
    // Two searchers a thread up front: a thread runs one task, and one more while it waits
    // for a stolen half in `rayon::join`; deeper nesting is rarer and draws on the overflow.
    let pools: Vec<CachePadded<ArrayQueue<Searcher<'_, G>>>> = (0..threads)
        .map(|_| {
            let q = ArrayQueue::new(8);
            for _ in 0..2 {
                let _ = q.push(make());
            }
            CachePadded::new(q)
        })
        .collect();
    let overflow = ArrayQueue::new(8 * threads + 8);
    let mut main = make();
    let root_only = config.mode == Mode::Root;
    let cx = Ctx {
        shared,
        pools: &pools,
        overflow: &overflow,
        make: &make,
        per_thread,
        min_split_nodes: config.min_split_nodes,
        eldest: config.eldest.max(1),
        root_only,
        claimants: on_cores(threads, &config),
        // Splits only near the root: below, the tasks' nodes run quietly.
        quiet_below: if root_only {
            main.horizon()
        } else {
            config
                .min_split_depth
                .max(1)
                .max(main.horizon().saturating_sub(config.max_split_ply))
        },
    };
    let task = Task::new(shared, SplitChain::default(), 0, Some(&cx));
    let (value, best) = main.run_with(algo, &task);
    let stopped = main.stopped();
    let line = main.pv().to_vec();
    tally(per_thread, main.nodes());
    shared.harvest(&mut main);
    for q in pools.iter().map(|q| &**q).chain([&overflow]) {
        while let Some(mut w) = q.pop() {
            shared.harvest(&mut w);
        }
    }
    if stopped {
        return None;
    }
    Some((value, best, line))
}

impl<'g, G: Game> Ctx<'_, 'g, G> {
    /// After how many moves a node with `left` plies to the horizon, at `ply`, splits.
    #[inline(always)]
    pub(super) fn split_after(&self, left: usize, ply: usize, node: &Node) -> Option<usize> {
        if self.root_only {
            return (ply == 0).then_some(0);
        }
        // Young brothers wait: the eldest alone, first (and, when asked, the next few: with
        // strong ordering a node whose eldest fails to cut off often cuts off on the second
        // move, and splitting there would search the rest for nothing).
        (left >= self.quiet_below).then(|| self.eldest.clamp(1, node.moves.max(1)))
    }

    /// Searches the younger brothers `rest` of a node of `s` (a searcher working under
    /// `task`) in parallel, if the eldest brothers' nodes say the node is worth it and a split
    /// point is free.
    pub(super) fn split(
        &self,
        task: &Task<'_, 'g, G>,
        s: &mut Searcher<'g, G>,
        rest: Brothers<'_>,
        best: &mut Best<G::Move>,
        alpha: &mut Value,
    ) -> Split {
        let Brothers {
            ply,
            node,
            first,
            eldest_nodes,
        } = rest;
        // Big enough to split: the eldest took many nodes, or the table remembers the whole
        // node taking sixteen times that (the eldest can be cheap, a table hit, with the work
        // in its brothers).
        let big = self.root_only
            || eldest_nodes >= self.min_split_nodes
            || u32::from(node.work) >= self.min_split_nodes.max(1).ilog2() + 4;
        if !big || node.moves - first < 2 {
            return Split::Declined;
        }
        let Some((slot, chain)) = self
            .shared
            .take_slot()
            .and_then(|slot| task.chain.with(slot).map(|chain| (slot, chain)))
        else {
            return Split::Declined;
        };
        // Under a node budget the nodes this searcher has not handed in yet go in now: the
        // brothers' tasks size their allowances from the shared count, and would otherwise
        // take this searcher's nodes again.
        task.finish(s.nodes());
        let (found, helped) = self.brothers(s, rest, *alpha, chain, slot);
        s.add_helped(ply, helped);
        self.shared.release(slot);
        // The next check was sized before the brothers spent part of what was left: look at
        // the budget again at once.
        s.check_now();
        // Tasks may have stopped early for an abort anywhere above us, not only for a cutoff
        // among themselves: then their results are partial and this node's value must not be
        // used (nor stored), so check the whole chain now.
        if self.shared.aborted(&task.chain) {
            s.stop();
        }
        if s.poll_stop(task) {
            return Split::Stopped;
        }
        if let Some((v, i)) = found {
            s.join_brother(ply, i, v, best, alpha, node.beta);
        }
        Split::Done
    }

    /// Searches the younger brothers `rest` of a node of `s` in parallel under the split point
    /// `slot` (`chain`: the split points down to it); returns the best value found and its
    /// move index, if any task finished, and the nodes the tasks took (theirs and their own
    /// splits' helpers').
    fn brothers(
        &self,
        s: &Searcher<'g, G>,
        rest: Brothers<'_>,
        a: Value,
        chain: SplitChain,
        slot: u16,
    ) -> (Option<(Value, usize)>, u64) {
        let Brothers {
            ply, node, first, ..
        } = rest;
        let helped = AtomicU64::new(0);
        let pos = s.position(ply);
        let moves = s.moves(ply).clone();
        let horizon = s.horizon();
        let above = s.arena();
        let beta = node.beta;
        let alpha = AtomicI32::new(a);
        let best = AtomicU64::new(0);
        let task = |i: usize| {
            if self.shared.aborted(&chain) {
                return;
            }
            self.shared.tasks.fetch_add(1, Relaxed);
            let own = rayon::current_thread_index().and_then(|t| self.pools.get(t));
            let mut w = own
                .and_then(|q| q.pop())
                .or_else(|| self.overflow.pop())
                .unwrap_or_else(|| (self.make)());
            let child = w.game().play(&pos, moves.as_slice()[i]);
            w.start_task(above, ply + 1, child, horizon);
            let before = w.nodes();
            let policy = Task::new(self.shared, chain, before, Some(self));
            let v = w.scout(ply + 1, alpha.load(Relaxed), beta, false, &policy);
            let finished = !w.stopped();
            if w.unfinished().is_some() {
                self.shared.unfinished();
            }
            // The task's own nodes, and its splits' helpers' (start_task cleared them).
            helped.fetch_add(w.nodes() - before + w.helped_total(), Relaxed);
            tally(self.per_thread, w.nodes() - before);
            policy.finish(w.nodes());
            // Counters stay in the searcher until the end; one that finds the pools full hands
            // them in now.
            let w = match own {
                Some(q) => q.push(w).err(),
                None => Some(w),
            };
            if let Some(w) = w {
                if let Err(mut w) = self.overflow.push(w) {
                    self.shared.harvest(&mut w);
                }
            }
            if finished {
                alpha.fetch_max(v, Relaxed);
                best.fetch_max(pack(v, i), Relaxed);
                if v >= beta {
                    self.shared.aborts[slot as usize].store(true, Relaxed);
                }
            }
        };
        par_claim(first, node.moves, self.claimants, &task);
        let found = match best.load(Relaxed) {
            0 => None,
            p => Some(unpack(p)),
        };
        (found, helped.into_inner())
    }
}

/// The policy of one parallel task: the shared state, the split points above it, and, for
/// YBWC, how to split (Lazy SMP's tasks never do).
pub(crate) struct Task<'a, 'g, G: Game> {
    shared: &'g Shared,
    /// The split points above this task: it stops when any of them aborts.
    chain: SplitChain,
    /// The searcher's node count already handed to the shared count.
    reported: Cell<u64>,
    /// YBWC's settings and searcher pool; `None`: this task never splits.
    ybwc: Option<&'a Ctx<'a, 'g, G>>,
    /// A Lazy SMP helper: its best moves stay out of the table.
    helper: bool,
    /// ABDADA's busy moves, and the plies to the horizon a node needs for its younger
    /// brothers to be put off; `None`: nothing is put off.
    busy: Option<(&'a Busy, usize)>,
    /// See [`Policy::quiet_below`].
    quiet_below: usize,
}

impl<'a, 'g, G: Game> Task<'a, 'g, G> {
    /// A task under `chain`, in a searcher that has counted `nodes` so far.
    pub(super) fn new(
        shared: &'g Shared,
        chain: SplitChain,
        nodes: u64,
        ybwc: Option<&'a Ctx<'a, 'g, G>>,
    ) -> Self {
        Task {
            shared,
            chain,
            reported: Cell::new(nodes),
            ybwc,
            helper: false,
            busy: None,
            quiet_below: ybwc.map_or(0, |cx| cx.quiet_below),
        }
    }

    /// An ABDADA task's policy: claims moves in `busy` at nodes `min_depth` or more plies
    /// from the horizon.
    pub(super) fn abdada(shared: &'g Shared, busy: &'a Busy, min_depth: usize) -> Self {
        Task {
            busy: Some((busy, min_depth.max(1))),
            quiet_below: min_depth.max(1),
            ..Task::new(shared, SplitChain::default(), 0, None)
        }
    }

    /// A Lazy SMP helper's policy (see [`Policy::stores_moves`]).
    pub(super) fn helper(shared: &'g Shared) -> Self {
        Task {
            helper: true,
            ..Task::new(shared, SplitChain::default(), 0, None)
        }
    }

    /// Hands in the nodes not reported yet, when a node budget needs them counted promptly
    /// (a finished task's leftovers would otherwise wait in the pool, and a splitting node's
    /// would be missing from the count its brothers' tasks size their allowances by); a
    /// spent budget stops every worker.
    pub(super) fn finish(&self, nodes: u64) {
        if self.shared.node_limit.is_some() {
            self.report(nodes, false);
        }
    }
}

impl<'g, G: Game> Policy<'g, G, NoObserver> for Task<'_, 'g, G> {
    const EVERY_NODE: bool = true;

    #[inline(always)]
    fn aborted(&self, nodes: u64) -> bool {
        // The innermost split point every node, the whole chain every 256 nodes: deep chains
        // would otherwise cost dozens of loads per node.
        let full = nodes & 255 == 0;
        self.shared.innermost_aborted(&self.chain) || full && self.shared.aborted(&self.chain)
    }

    #[inline(always)]
    fn check_every(&self, every: u64) -> u64 {
        self.shared.check_every(every)
    }

    fn report(&self, nodes: u64, stopped: bool) -> bool {
        let fresh = nodes - self.reported.get();
        self.reported.set(nodes);
        if self.shared.add_nodes(fresh) || stopped {
            self.shared.stop_all();
            return true;
        }
        false
    }

    #[inline(always)]
    fn stores_moves(&self) -> bool {
        !self.helper
    }

    const DEFERS: bool = true;

    #[inline(always)]
    fn defers(&self, left: usize) -> bool {
        self.busy.is_some_and(|(_, d)| left >= d)
    }

    #[inline(always)]
    fn enter(&self, key: u64) -> bool {
        self.busy.is_none_or(|(b, _)| b.enter(key))
    }

    #[inline(always)]
    fn leave(&self, key: u64) {
        if let Some((b, _)) = self.busy {
            b.leave(key);
        }
    }

    #[inline(always)]
    fn split_after(&self, s: &Searcher<'g, G>, ply: usize, node: &Node) -> Option<usize> {
        self.ybwc?.split_after(s.horizon() - ply, ply, node)
    }

    #[inline(always)]
    fn quiet_below(&self) -> usize {
        self.quiet_below
    }

    fn quietly(&self, s: &mut Searcher<'g, G>, ply: usize, alpha: Value, beta: Value) -> Value {
        s.node(ply, alpha, beta, &Quiet(self))
    }

    fn split(
        &self,
        s: &mut Searcher<'g, G>,
        rest: Brothers<'_>,
        best: &mut Best<G::Move>,
        alpha: &mut Value,
    ) -> Split {
        match self.ybwc {
            Some(cx) => cx.split(self, s, rest, best, alpha),
            None => Split::Declined,
        }
    }
}

/// A task's quiet nodes (see [`Policy::quietly`]): the task's stops and reports, looked at
/// only at the budget checks, every [`QUIET_CHECK`] nodes (the first one up to the serial
/// search's interval, 4,096 nodes, after the task's last).
struct Quiet<'t, 'a, 'g, G: Game>(&'t Task<'a, 'g, G>);

/// Nodes between two looks of a quiet node at the split points above it: about 0.15 ms
/// here, what an aborted task may search for nothing between them.
const QUIET_CHECK: u64 = 1024;

impl<'g, G: Game> Policy<'g, G, NoObserver> for Quiet<'_, '_, 'g, G> {
    const EVERY_NODE: bool = false;

    #[inline(always)]
    fn aborted(&self, _nodes: u64) -> bool {
        self.0.shared.aborted(&self.0.chain)
    }

    #[inline(always)]
    fn check_every(&self, every: u64) -> u64 {
        self.0.shared.check_every(every).min(QUIET_CHECK)
    }

    fn report(&self, nodes: u64, stopped: bool) -> bool {
        self.0.report(nodes, stopped)
    }

    #[inline(always)]
    fn stores_moves(&self) -> bool {
        self.0.stores_moves()
    }
}
