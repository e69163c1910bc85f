//! A stress check of parallel iterative deepening: runs it again and again, in every parallel
//! mode on 3 threads with a small table, on the first Middle-Medium positions, and counts the
//! runs whose depth-by-depth values differ from the serial iterative deepening's. Races are
//! rare and timing-dependent: the unit tests meet each case a few times, this meets it
//! thousands. It found the window-dependent depth-limited values that the node routine's
//! clamp into the game's bounds fixed (before: Lazy SMP, 22 of 2,000 runs on
//! `4642332434166445` once).
//!
//! ```text
//! cargo run --release -p cutoff-bench --example deepening_race -- [ROUNDS] [POSITIONS] [DEPTH]
//! ```

use cutoff::advanced::parallel_iterative_deepening;
use cutoff::advanced::{iterative_deepening, Limits};
use cutoff::games::perfect::connect4::{parse_suite, Connect4};
use cutoff::solver::{Mode, ParallelConfig};
use cutoff::tt::TranspositionTable;
use cutoff::Game;

fn arg(i: usize, default: usize, what: &str) -> usize {
    match std::env::args().nth(i) {
        None => default,
        Some(a) => a.parse().unwrap_or_else(|_| {
            eprintln!("error: {what} must be a number, not {a:?}");
            std::process::exit(2);
        }),
    }
}

fn main() {
    let rounds = arg(1, 200, "ROUNDS");
    let count = arg(2, 12, "POSITIONS");
    let depth = arg(3, 9, "DEPTH");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/connect4/middle-medium.txt"
    );
    let text = std::fs::read_to_string(path).expect("the test set is in positions/connect4");
    let lines = parse_suite(&text).expect("it parses");
    let mut positions = vec!["4642332434166445".to_string()];
    positions.extend(lines.iter().take(count).map(|l| l.moves.clone()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .expect("threads start");
    let modes = [Mode::Ybwc, Mode::Abdada, Mode::LazySmp, Mode::Root];
    let mut bad = [0usize; 4];
    let mut runs = 0;
    for moves in &positions {
        let g = Connect4::from_moves(moves).expect("a legal position");
        let root = g.initial();
        let serial = iterative_deepening(
            &g,
            root,
            &TranspositionTable::new(2),
            Limits::default(),
            Some(depth),
        );
        for _ in 0..rounds {
            runs += 1;
            for (m, &mode) in modes.iter().enumerate() {
                let config = ParallelConfig {
                    mode,
                    min_split_depth: 2,
                    min_split_nodes: 0,
                    oversubscribe: true,
                    ..ParallelConfig::default()
                };
                let d = parallel_iterative_deepening(
                    &g,
                    root,
                    &TranspositionTable::new(2),
                    &pool,
                    config,
                    Limits::default(),
                    Some(depth),
                );
                if d.history != serial.history {
                    bad[m] += 1;
                    if bad[m] <= 3 {
                        println!(
                            "{mode:?} on {moves}: {:?} (serial {:?})",
                            d.history, serial.history
                        );
                    }
                }
            }
        }
    }
    for (mode, bad) in modes.iter().zip(bad) {
        println!("{mode:?}: {bad} of {runs} runs differ from the serial values");
    }
}
