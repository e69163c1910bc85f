//! Young Brothers Wait on rayon.
//!
//! At a node with at least `min_split_depth` plies left, the eldest child is searched first,
//! alone (it usually sets the bound or cuts off). Only then are the younger brothers searched
//! in parallel: the move range is halved recursively with `rayon::join`, whose jobs live on
//! the stack, so splitting allocates nothing and idle threads steal the halves. The brothers
//! share the node's alpha through an atomic (a brother that raises it narrows the windows of
//! those that start later) and each is searched PVS-style: null window first, re-searched only
//! when it beats alpha. A brother that fails high raises its split point's abort flag and every
//! task below that split point stops at its next node.
//!
//! Root splitting ([`super::Mode::Root`]) is the same machinery with the split made only at
//! the root, without waiting for the eldest, and serial searches below.

use super::{tally, worker, Outcome, ParallelConfig, Shared, SplitChain, Tallies};
use crate::game::{Game, MoveBuffer, Value};
use crate::search::pvs::Best;
use crate::search::{Algorithm, Limits, Searcher};
use crate::tt::TranspositionTable;
use crossbeam::queue::ArrayQueue;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};

/// What every task of one parallel search needs.
pub(crate) struct Ctx<'a, 'g, G: Game> {
    pub shared: &'g Shared,
    /// Idle searchers, reused by the tasks.
    pub pool: &'a ArrayQueue<Searcher<'g, G>>,
    /// Makes a searcher when the pool is empty (rare: only while more tasks are open than
    /// were pooled up front).
    pub make: &'a (dyn Fn() -> Searcher<'g, G> + Sync),
    pub per_thread: &'a Tallies,
    pub min_split_depth: usize,
    pub min_split_nodes: u64,
    /// Brothers searched one after the other before the rest are split (at least 1).
    pub eldest: usize,
    /// Split only at the root, without waiting for the eldest (root splitting).
    pub root_only: bool,
}

/// Runs `f(i)` for every `i` in `lo..hi`, in parallel by recursive halving.
fn par_range(lo: usize, hi: usize, f: &(dyn Fn(usize) + Sync)) {
    match hi - lo {
        0 => {}
        1 => f(lo),
        n => {
            let mid = lo + n / 2;
            rayon::join(|| par_range(lo, mid, f), || par_range(mid, hi, f));
        }
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
#[allow(clippy::too_many_arguments)]
pub(super) fn search<G: Game>(
    game: &G,
    root: G::Pos,
    algo: Algorithm,
    tt: &TranspositionTable,
    shared: &Shared,
    per_thread: &Tallies,
    config: ParallelConfig,
    limits: Limits<'_>,
) -> Outcome<G::Move> {
    let make = || worker(game, root, tt, shared, limits, config);
    let threads = rayon::current_num_threads();
    let pool = ArrayQueue::new(8 * threads + 8);
    for _ in 0..2 * threads {
        let _ = pool.push(make());
    }
    let cx = Ctx {
        shared,
        pool: &pool,
        make: &make,
        per_thread,
        min_split_depth: config.min_split_depth.max(1),
        min_split_nodes: config.min_split_nodes,
        eldest: config.eldest.max(1),
        root_only: config.mode == super::Mode::Root,
    };
    let mut main = make();
    let (value, best) = match algo {
        Algorithm::Solve => main.solve_with(|s, a, b| s.ybwc(0, a, b, &cx)),
        _ => {
            let v = main.ybwc(0, -crate::INF, crate::INF, &cx);
            let mut best = main.pv().first().copied();
            if best.is_none() && !main.stopped() && config.want_move {
                // The root was settled without naming a move that provably reaches the value.
                best = main.root_move(v);
            }
            (v, best)
        }
    };
    let stopped = main.stopped();
    let line = main.pv().to_vec();
    tally(per_thread, main.stats.nodes);
    shared.harvest(&mut main);
    while let Some(mut w) = pool.pop() {
        shared.harvest(&mut w);
    }
    if stopped {
        return None;
    }
    Some((value, best, line))
}

impl<'g, G: Game> Searcher<'g, G> {
    /// The YBWC value of the node at `ply` within `(alpha, beta)`, fail-soft.
    pub(crate) fn ybwc(
        &mut self,
        ply: usize,
        alpha: Value,
        beta: Value,
        cx: &Ctx<'_, 'g, G>,
    ) -> Value {
        let left = self.horizon - ply;
        let splits = if cx.root_only {
            ply == 0
        } else {
            left >= cx.min_split_depth
        };
        if !splits {
            return self.pvs(ply, alpha, beta);
        }
        let node = match self.prologue(ply, alpha, beta) {
            Ok(node) => node,
            Err(v) => return v,
        };
        let mut best = Best::none();
        let mut a = node.alpha;
        let mut first = 0;
        let mut big = true;
        if !cx.root_only {
            // Young brothers wait: the eldest alone, first (and, when asked, the next few: with
            // strong ordering a node whose eldest fails to cut off often cuts off on the
            // second move, and splitting there would search the rest for nothing).
            let eldest = cx.eldest.clamp(1, node.moves);
            let before = self.stats.nodes;
            for i in 0..eldest {
                let v = self.ybwc_child(ply, i, a, node.beta, cx);
                if self.stopped {
                    return 0;
                }
                if self.improve(ply, i, v, &mut best, &mut a, node.beta) || i + 1 == node.moves {
                    self.epilogue(ply, &node, &best);
                    return best.value;
                }
            }
            big = self.stats.nodes - before >= cx.min_split_nodes;
            first = eldest;
        }
        let split = if big && node.moves - first >= 2 {
            cx.shared
                .take_slot()
                .and_then(|slot| self.chain.with(slot).map(|chain| (slot, chain)))
        } else {
            None
        };
        match split {
            Some((slot, chain)) => {
                let found = self.split(ply, first, node.moves, a, node.beta, chain, slot, cx);
                cx.shared.release(slot);
                // Tasks may have stopped early for an abort anywhere above us, not only for a
                // cutoff among themselves: then their results are partial and this node's
                // value must not be used (nor stored), so check the whole chain now.
                if cx.shared.aborted(&self.chain) {
                    self.stopped = true;
                }
                if self.poll_stop() {
                    return 0;
                }
                if let Some((v, i)) = found {
                    let raises = v > a;
                    self.improve(ply, i, v, &mut best, &mut a, node.beta);
                    if raises {
                        // The brother's line stayed in its own searcher: keep its move.
                        let mv = self.arena.ply(ply).moves.as_slice()[i];
                        self.arena.set_single(ply, mv);
                    }
                }
            }
            None => {
                for i in first..node.moves {
                    let v = self.ybwc_child(ply, i, a, node.beta, cx);
                    if self.stopped {
                        return 0;
                    }
                    if self.improve(ply, i, v, &mut best, &mut a, node.beta) {
                        break;
                    }
                }
            }
        }
        self.epilogue(ply, &node, &best);
        best.value
    }

    /// Move `i` at `ply`, PVS-style, its subtree searched with YBWC.
    fn ybwc_child(
        &mut self,
        ply: usize,
        i: usize,
        a: Value,
        beta: Value,
        cx: &Ctx<'_, 'g, G>,
    ) -> Value {
        self.descend_analysed(ply, i);
        if i == 0 {
            return -self.ybwc(ply + 1, -beta, -a, cx);
        }
        let probe = -self.ybwc(ply + 1, -a - 1, -a, cx);
        if probe > a && probe < beta && !self.stopped {
            -self.ybwc(ply + 1, -beta, -probe, cx)
        } else {
            probe
        }
    }

    /// Searches moves `first..n` of the node at `ply` in parallel under the split point
    /// `slot`; returns the best value found and its move index, if any task finished.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        ply: usize,
        first: usize,
        n: usize,
        a: Value,
        beta: Value,
        chain: SplitChain,
        slot: u16,
        cx: &Ctx<'_, 'g, G>,
    ) -> Option<(Value, usize)> {
        let pos = self.arena.ply(ply).pos;
        let moves = self.arena.ply(ply).moves.clone();
        let horizon = self.horizon;
        let alpha = AtomicI32::new(a);
        let best = AtomicU64::new(0);
        let task = |i: usize| {
            if cx.shared.aborted(&chain) {
                return;
            }
            cx.shared.tasks.fetch_add(1, Relaxed);
            let mut w = cx.pool.pop().unwrap_or_else(|| (cx.make)());
            w.chain = chain;
            w.horizon = horizon;
            w.stopped = false;
            let child = w.game.play(&pos, moves.as_slice()[i]);
            w.arena.ply_mut(ply + 1).pos = child;
            let before = w.stats.nodes;
            let a0 = alpha.load(Relaxed);
            let mut v = -w.ybwc(ply + 1, -a0 - 1, -a0, cx);
            if !w.stopped && v > a0 && v < beta {
                v = -w.ybwc(ply + 1, -beta, -v, cx);
            }
            let finished = !w.stopped;
            tally(cx.per_thread, w.stats.nodes - before);
            cx.shared.report(&mut w);
            w.chain = SplitChain::default();
            // Counters stay in the searcher until the end; one that finds the pool full hands
            // them in now.
            if let Err(mut w) = cx.pool.push(w) {
                cx.shared.harvest(&mut w);
            }
            if finished {
                alpha.fetch_max(v, Relaxed);
                best.fetch_max(pack(v, i), Relaxed);
                if v >= beta {
                    cx.shared.aborts[slot as usize].store(true, Relaxed);
                }
            }
        };
        par_range(first, n, &task);
        match best.load(Relaxed) {
            0 => None,
            p => Some(unpack(p)),
        }
    }
}
