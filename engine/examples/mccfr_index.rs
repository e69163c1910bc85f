//! Measures the four information-set index maps of external-sampling MCCFR on Leduc hold'em:
//! iterations per second at 1 and 2 threads, and the NashConv reached (identical for all).
//!
//! `cargo run --release -p cutoff --example mccfr_index [iterations] [repeats] [batch]`

use cutoff::cfr::mccfr::{IndexKind, Mccfr};
use cutoff::cfr::{nash_conv, Tree};
use cutoff::games::leduc::Leduc;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations: u64 = args
        .next()
        .map_or(20_000, |a| a.parse().expect("iterations"));
    let repeats: usize = args.next().map_or(3, |a| a.parse().expect("repeats"));
    let batch: usize = args.next().map_or(cutoff::cfr::mccfr::DEFAULT_BATCH, |a| {
        a.parse().expect("batch")
    });
    let tree = Tree::build(&Leduc).expect("Leduc builds");
    println!("Leduc, {iterations} iterations, batch {batch}, best of {repeats}");
    println!(
        "{:<14} {:>8} {:>12} {:>10}",
        "index", "threads", "iter/s", "NashConv"
    );
    for threads in [1, 2] {
        for kind in IndexKind::ALL {
            let mut best = f64::INFINITY;
            let mut nc = 0.0;
            for _ in 0..repeats {
                let start = Instant::now();
                let mut m = Mccfr::new(Leduc, 1, threads)
                    .with_index(kind)
                    .with_batch(batch);
                m.run(iterations);
                best = best.min(start.elapsed().as_secs_f64());
                nc = nash_conv(&tree, &m.average_strategy_for(&tree));
            }
            println!(
                "{:<14} {:>8} {:>12.0} {:>10.4}",
                format!("{kind:?}"),
                threads,
                iterations as f64 / best,
                nc
            );
        }
    }
}
