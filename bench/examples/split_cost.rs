//! Where a YBWC search's extra nodes come from: a test set solved on a pool of THREADS with the
//! split knobs given, printing the wall time, the nodes (all threads, and each thread's share:
//! a thread with fewer nodes waited), the split points opened and the tasks run under them.
//! Run it with THREADS 1 beside the other counts: the one-thread pool searches the serial
//! tree, so the node ratio is the parallel search's overhead.
//!
//! ```text
//! cargo run --release -p cutoff-bench --example split_cost -- FILE [LIMIT] [THREADS]
//!     [SPLIT_NODES] [SPLIT_DEPTH] [ELDEST] [TT_MIB]
//! ```
//!
//! Defaults: every position, 2 threads, `ParallelConfig::default()`'s knobs, 64 MiB.

use cutoff::advanced::{parallel_search, Limits};
use cutoff::games::perfect::connect4::parse_suite;
use cutoff::solver::ParallelConfig;
use cutoff::tt::TranspositionTable;
use cutoff::Algorithm;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: split_cost FILE [LIMIT] [THREADS] [SPLIT_NODES] [SPLIT_DEPTH] [ELDEST] [TT_MIB]";
    let file = args.first().expect(usage);
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let defaults = ParallelConfig::default();
    let limit = arg(1, u64::MAX) as usize;
    let threads = arg(2, 2) as usize;
    let config = ParallelConfig {
        min_split_nodes: arg(3, defaults.min_split_nodes),
        min_split_depth: arg(4, defaults.min_split_depth as u64) as usize,
        eldest: arg(5, defaults.eldest as u64) as usize,
        ..defaults
    };
    let text = std::fs::read_to_string(file).expect("a readable test set");
    let lines = parse_suite(&text).expect("a 7x6 test set");
    let lines = &lines[..limit.min(lines.len())];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    let tt = TranspositionTable::try_new(arg(6, 64) as usize).expect("the table");
    let (mut nodes, mut splits, mut tasks, mut secs) = (0u64, 0u64, 0u64, 0f64);
    let mut per_thread = vec![0u64; threads];
    for l in lines {
        tt.clear();
        let start = Instant::now();
        let r = parallel_search(
            &l.game,
            l.game.board(),
            Algorithm::Solve,
            &tt,
            &pool,
            config,
            Limits::default(),
        );
        secs += start.elapsed().as_secs_f64();
        assert_eq!(r.value, l.expected, "line {}", l.line);
        nodes += r.stats.nodes;
        splits += r.splits;
        tasks += r.tasks;
        for (sum, n) in per_thread.iter_mut().zip(&r.nodes_per_thread) {
            *sum += n;
        }
    }
    println!(
        "threads {threads} split_nodes {} split_depth {} eldest {}: {secs:.2} s, {nodes} nodes \
         (per thread {per_thread:?}), {splits} splits, {tasks} tasks, {:.0} nodes a task",
        config.min_split_nodes,
        config.min_split_depth,
        config.eldest,
        nodes as f64 / tasks.max(1) as f64
    );
}
