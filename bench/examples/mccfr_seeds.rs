//! External-sampling MCCFR over many seeds: the NashConv's mean, median and worst after a
//! number of iterations, and how many seeds meet the bound (Kuhn 0.05, Leduc 2.5),
//! for each variance reduction. Sampling noise makes one seed's figure a poor guide.
//!
//! `cargo run --release -p cutoff-bench --example mccfr_seeds [kuhn|leduc] [seeds] [iterations] [batch]`

use cutoff::cfr::mccfr::{Mccfr, DEFAULT_BASELINE, DEFAULT_BATCH};
use cutoff::cfr::{nash_conv, Extensive, ExtensiveTree};
use cutoff::games::imperfect::kuhn::Kuhn;
use cutoff::games::imperfect::leduc::Leduc;
use std::time::Instant;

/// The NashConv of each seed, sorted, and the iterations a second.
fn runs<G: Extensive + Sync + Send + Clone>(
    game: &G,
    seeds: u64,
    iterations: u64,
    batch: usize,
    stratify: bool,
    baseline: bool,
) -> (Vec<f64>, f64) {
    let tree = ExtensiveTree::build(game).expect("the game builds");
    let mut spent = 0.0;
    let mut v: Vec<f64> = (0..seeds)
        .map(|seed| {
            let mut m = Mccfr::new(game.clone())
                .seed(seed)
                .batch(batch)
                .stratified(stratify)
                .baseline(if baseline { DEFAULT_BASELINE } else { None });
            let start = Instant::now();
            m.run(iterations);
            spent += start.elapsed().as_secs_f64();
            nash_conv(&tree, &m.average_strategy_for(&tree))
        })
        .collect();
    v.sort_by(f64::total_cmp);
    (v, (seeds * iterations) as f64 / spent)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let game = args.next().unwrap_or_else(|| "kuhn".into());
    let seeds: u64 = args.next().map_or(100, |a| a.parse().expect("seeds"));
    let iterations: u64 = args.next().map_or(1000, |a| a.parse().expect("iterations"));
    let batch: usize = args
        .next()
        .map_or(DEFAULT_BATCH, |a| a.parse().expect("batch"));
    let bound = match game.as_str() {
        "kuhn" => 0.05,
        "leduc" => 2.5,
        other => panic!("unknown game {other}: kuhn or leduc"),
    };
    println!("{game}, {seeds} seeds, {iterations} iterations, batch {batch}");
    println!(
        "{:<12} {:>8} {:>8} {:>8} {:>10} {:>10}",
        "variance", "mean", "median", "worst", "<= bound", "iter/s"
    );
    for (name, stratify, baseline) in [
        ("none", false, false),
        ("stratify", true, false),
        ("baseline", false, true),
        ("both", true, true),
    ] {
        let (v, rate) = if game == "kuhn" {
            runs(&Kuhn, seeds, iterations, batch, stratify, baseline)
        } else {
            runs(&Leduc, seeds, iterations, batch, stratify, baseline)
        };
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let met = v.iter().filter(|&&x| x <= bound).count();
        println!(
            "{name:<12} {mean:>8.4} {:>8.4} {:>8.4} {:>10} {rate:>10.0}",
            v[v.len() / 2],
            v[v.len() - 1],
            format!("{met}/{seeds}")
        );
    }
}
