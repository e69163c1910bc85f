//! What the parallel policies cost per node: a test set solved by the serial searcher and by
//! each parallel mode's driver on a one-thread pool, where no work is shared, so the
//! difference is the policy's own checks (abort flags, claims, node reports).
//!
//! ```text
//! cargo run --release -p cutoff-bench --example policy_cost -- FILE [LIMIT]
//! ```

use cutoff::advanced::parallel_search;
use cutoff::advanced::{Limits, Searcher};
use cutoff::games::perfect::connect4::parse_suite;
use cutoff::solver::{Mode, ParallelConfig};
use cutoff::tt::TranspositionTable;
use cutoff::Algorithm;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: policy_cost FILE [LIMIT]");
    let limit: usize = args
        .next()
        .map_or(usize::MAX, |l| l.parse().expect("LIMIT"));
    let text = std::fs::read_to_string(&file).expect("readable test set");
    let lines = parse_suite(&text).expect("a test set");
    let lines = &lines[..limit.min(lines.len())];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let tt = TranspositionTable::try_new(64).expect("64 MiB");
    let mut rows = Vec::new();
    for mode in [
        None,
        Some(Mode::Ybwc),
        Some(Mode::Abdada),
        Some(Mode::LazySmp),
    ] {
        let (mut nodes, start) = (0u64, Instant::now());
        for l in lines {
            tt.clear();
            let value = match mode {
                None => {
                    let mut s = Searcher::new(&l.game, l.game.board(), None).table(&tt);
                    let (v, _) = s.run(Algorithm::Solve);
                    nodes += s.stats().nodes;
                    v
                }
                Some(mode) => {
                    let config = ParallelConfig {
                        mode,
                        ..ParallelConfig::default()
                    };
                    let r = parallel_search(
                        &l.game,
                        l.game.board(),
                        Algorithm::Solve,
                        &tt,
                        &pool,
                        config,
                        Limits::default(),
                    );
                    nodes += r.stats.nodes;
                    r.value
                }
            };
            assert_eq!(value, l.expected, "line {}", l.line);
        }
        let s = start.elapsed().as_secs_f64();
        rows.push((mode.map_or("serial", |m| m.name()), s, nodes));
    }
    let base = rows[0].1;
    for (name, s, nodes) in rows {
        println!(
            "{name:8} {s:8.3} s {nodes:12} nodes {:8.0} K nodes/s  time x{:.3}",
            nodes as f64 / s / 1e3,
            s / base
        );
    }
}
