//! What a parallel search is asked for: its [`Mode`] and [`ParallelConfig`], and how many
//! threads it keeps busy ([`on_cores`]).

use crate::game::Value;
use serde::Serialize;
use std::sync::OnceLock;

/// How the work is shared among threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// Young Brothers Wait: at every node with enough work left, the eldest child alone
    /// first, then the younger ones in parallel.
    Ybwc,
    /// Lazy SMP: every thread searches the whole root, diverging by move order; the first to
    /// finish answers.
    LazySmp,
    /// Root splitting: the root's moves shared among threads, each subtree searched serially.
    Root,
    /// ABDADA: every thread searches the whole root in one order, putting off the younger
    /// brothers another thread is searching; the first to finish answers.
    Abdada,
}

crate::names::named_choices!(Mode, "parallel mode", String, |m| m, {
    Ybwc => "ybwc",
    LazySmp => "lazysmp",
    Root => "root",
    Abdada => "abdada",
});

/// The settings of a parallel search.
#[derive(Clone, Copy, Debug)]
pub struct ParallelConfig {
    /// How the work is shared.
    pub mode: Mode,
    /// Splitting needs at least this many plies left to the horizon (YBWC).
    pub min_split_depth: usize,
    /// ... and a node at most this many plies below the root (YBWC). The nodes below never
    /// split, and a task runs them with the serial routine's code, looking at the split
    /// points above only every thousand nodes or so: near the root is where the work worth
    /// sharing is, and the per-node look cost two threads a tenth of their speed (see
    /// docs/measurements/thread-scaling.md, "Quiet nodes below the splits").
    pub max_split_ply: usize,
    /// ... and an eldest brother whose search took at least this many nodes: the size
    /// estimate that keeps small subtrees serial (depth alone says little where pruning and
    /// the table cut most subtrees down to a handful of nodes).
    pub min_split_nodes: u64,
    /// Brothers searched serially, eldest first, before the others are searched in parallel
    /// (YBWC's "wait" generalised; 1 is classic YBWC).
    pub eldest: usize,
    /// Weak solving (win, draw or loss).
    pub weak: bool,
    /// Also find a best move and its line.
    pub want_move: bool,
    /// Search this many plies deep (`None`: to the end of the game), evaluating at the
    /// horizon; iterative deepening sets it.
    pub depth: Option<usize>,
    /// The null-window solver's window (see
    /// [`Searcher::window`](crate::search::Searcher::window)); `None`: the game's range.
    pub window: Option<(Value, Value)>,
    /// Keep every pool thread busy even beyond the machine's cores (see `on_cores`); tests set
    /// it so that they interleave as many threads as they ask for on any machine. Hidden: a
    /// testing knob, not part of the supported API.
    #[doc(hidden)]
    pub oversubscribe: bool,
}

impl Default for ParallelConfig {
    fn default() -> Self {
        ParallelConfig {
            mode: Mode::Ybwc,
            min_split_depth: 4,
            max_split_ply: 12,
            min_split_nodes: 256,
            eldest: 1,
            weak: false,
            want_move: true,
            depth: None,
            window: None,
            oversubscribe: false,
        }
    }
}

/// How many of a pool's `threads` a search keeps busy: no more than the machine's cores. The
/// racing modes (Lazy SMP, ABDADA) run this many whole searches of the root, and YBWC forks
/// this many claimants at a split. Work beyond the cores only takes turns on them: a racer
/// slows the one that would have finished first, and a preempted YBWC task holds up the
/// split waiting on it (8 threads on 2 cores ran Lazy SMP at a third of one thread's speed
/// and YBWC at 0.94 of it; see docs/measurements/thread-scaling.md). The extra pool threads stay idle.
pub(crate) fn on_cores(threads: usize, config: &ParallelConfig) -> usize {
    if config.oversubscribe {
        return threads.max(1);
    }
    static CORES: OnceLock<usize> = OnceLock::new();
    let cores = *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    threads.clamp(1, cores.max(1))
}
