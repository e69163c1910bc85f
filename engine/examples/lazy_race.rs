//! Reproduces an open bug: Lazy SMP's iterative deepening on 3 threads sometimes returns a
//! wrong depth-limited value (about 1 run in 100 on this position, one depth off by one),
//! which `engine/tests/parallel.rs` (`parallel_iterative_deepening_gives_the_serial_value_at_
//! every_depth`) catches now and then. It prints how many of N runs differ from the serial
//! iterative deepening, and the first few histories that do.
//!
//! ```text
//! cargo run --release -p cutoff --example lazy_race -- [RUNS]
//! ```

use cutoff::games::connect4::Connect4;
use cutoff::parallel::{parallel_iterative_deepening, Mode, ParallelConfig};
use cutoff::search::{iterative_deepening, Limits};
use cutoff::tt::TranspositionTable;
use cutoff::Game;

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .map_or(2000, |r| r.parse().expect("RUNS, a number"));
    let g = Connect4::from_moves("4642332434166445").expect("a legal position");
    let root = g.initial();
    let serial = iterative_deepening(
        &g,
        root,
        &TranspositionTable::new(2),
        Limits::default(),
        Some(9),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .expect("threads start");
    let config = ParallelConfig {
        mode: Mode::LazySmp,
        min_split_depth: 2,
        min_split_nodes: 0,
        oversubscribe: true,
        ..ParallelConfig::default()
    };
    let mut bad = 0;
    for i in 0..runs {
        let d = parallel_iterative_deepening(
            &g,
            root,
            &TranspositionTable::new(2),
            &pool,
            config,
            Limits::default(),
            Some(9),
        );
        if d.history != serial.history {
            bad += 1;
            if bad <= 3 {
                println!("run {i}: {:?} (serial {:?})", d.history, serial.history);
            }
        }
    }
    println!("{bad} of {runs} runs differ from the serial values");
}
