//! Vanilla-CFR iterations per second on Leduc hold'em, on one thread.
//!
//! `cargo run --release -p cutoff-bench --example cfr_speed [iterations]` (default 10,000). Prints
//! the tree's size, the time, iterations a second and the exploitability reached (which also
//! keeps the work from being optimised away).

use cutoff::cfr::{exploitability, Cfr, ExtensiveTree, Params};
use cutoff::games::imperfect::leduc::Leduc;
use std::time::Instant;

fn main() {
    let iterations: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("iterations: a number"))
        .unwrap_or(10_000);
    let start = Instant::now();
    let tree = ExtensiveTree::build(&Leduc).expect("Leduc builds");
    let build = start.elapsed();
    println!(
        "leduc: {} nodes ({} decision, {} chance, {} terminal), {} information sets, {} slots; built in {:.1} ms",
        tree.nodes(),
        tree.decision_nodes(),
        tree.chance_nodes(),
        tree.terminal_nodes(),
        tree.infosets().len(),
        tree.slots(),
        build.as_secs_f64() * 1e3
    );
    let mut cfr = Cfr::new(&tree).params(Params::VANILLA);
    // A short warm-up, so that the timed run starts with the arrays in cache.
    cfr.run(10);
    let start = Instant::now();
    cfr.run(iterations);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "vanilla CFR: {iterations} iterations in {secs:.3} s: {:.0} iterations/s (one thread)",
        iterations as f64 / secs
    );
    let e = exploitability(&tree, &cfr.average_strategy());
    println!(
        "exploitability after {} iterations: {e:.6e}",
        cfr.iterations()
    );
}
