//! Lazy SMP: every thread searches the whole root with the shared table; below the root their
//! move orders are jittered so that they drift into different subtrees and fill the table for
//! one another. The first thread to finish gives the result and stops the rest. Each thread
//! runs the one node routine under a [`Task`] policy that never splits. ABDADA
//! (`abdada.rs`) is the same race, in one order, with busy moves put off.

use super::abdada::Busy;
use super::run::{tally, RootResult, Run};
use super::shared::SplitChain;
use super::ybwc::Task;
use crate::game::Game;
use std::sync::OnceLock;

/// The Lazy SMP and ABDADA driver: `threads` whole searches of the root on the current rayon
/// pool, the first to finish answering. Without `busy`, Lazy SMP: the helpers (every thread but the first) jitter their move order and keep their
/// moves out of the table. With it, ABDADA: one order, moves claimed in `busy`.
pub(super) fn race<G: Game>(
    run: &Run<'_, G>,
    threads: usize,
    busy: Option<&Busy>,
) -> RootResult<G::Move> {
    let Run {
        algo,
        config,
        shared,
        per_thread,
        ..
    } = *run;
    let first = OnceLock::new();
    rayon::scope(|scope| {
        for t in 0..threads {
            let first = &first;
            scope.spawn(move |_| {
                let mut w = run.worker();
                let task = match busy {
                    Some(b) => Task::abdada(shared, b, config.min_split_depth),
                    None if t > 0 => {
                        w.jitter(crate::rng::GOLDEN.wrapping_mul(t as u64));
                        Task::<G>::helper(shared)
                    }
                    None => Task::new(shared, SplitChain::default(), 0, None),
                };
                let (value, best) = w.run_with(algo, &task);
                if w.unfinished().is_some() {
                    shared.unfinished();
                }
                if !w.stopped() {
                    // Only the first finisher's answer is kept; the others are told to stop.
                    let _ = first.set((value, best, w.pv().to_vec()));
                    shared.stop_all();
                }
                tally(per_thread, w.nodes());
                shared.harvest(&mut w);
            });
        }
    });
    first.into_inner()
}
