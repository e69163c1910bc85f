//! CFR iterations per second: vanilla CFR, CFR+, linear CFR and discounted CFR on Kuhn poker
//! and Leduc hold'em, one iteration (both players' alternating updates) per measurement;
//! external-sampling MCCFR on 1 and 2 threads, 64 batches of 16 iterations per measurement (one
//! `run` call, as the command makes: each call enters the thread pool once); and
//! the exploitability computation (two best responses) that a report adds now and then.
//! Run with `cargo bench -p cutoff-bench --bench cfr`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use cutoff::cfr::best_response::nash_conv;
use cutoff::cfr::mccfr::{Mccfr, DEFAULT_BATCH};
use cutoff::cfr::solver::{Cfr, Variant};
use cutoff::cfr::tree::Extensive;
use cutoff::cfr::tree::ExtensiveTree;
use cutoff::games::imperfect::kuhn::Kuhn;
use cutoff::games::imperfect::leduc::Leduc;
use std::time::Duration;

fn trees() -> Vec<(&'static str, ExtensiveTree)> {
    vec![
        ("kuhn", ExtensiveTree::build(&Kuhn).expect("Kuhn builds")),
        ("leduc", ExtensiveTree::build(&Leduc).expect("Leduc builds")),
    ]
}

fn iterations(c: &mut Criterion) {
    let mut g = c.benchmark_group("cfr_iteration");
    g.throughput(Throughput::Elements(1));
    g.measurement_time(Duration::from_secs(3));
    for (name, tree) in trees() {
        for v in Variant::ALL {
            let mut s = Cfr::new(&tree).variant(v);
            // Past the first iterations, where the uniform strategy makes every walk alike.
            s.run(100);
            g.bench_function(BenchmarkId::new(v.name(), name), |b| b.iter(|| s.iterate()));
        }
    }
    g.finish();
}

fn sampled<G: Extensive + Sync + Send + Clone>(c: &mut Criterion, name: &str, game: &G) {
    let mut g = c.benchmark_group("mccfr_es_iteration");
    let n = 64 * DEFAULT_BATCH as u64;
    g.throughput(Throughput::Elements(n));
    g.measurement_time(Duration::from_secs(3));
    for threads in [1, 2] {
        let mut m = Mccfr::new(game.clone()).seed(1).threads(threads);
        // Past the first iterations, which meet the information sets for the first time.
        m.run(20_000);
        g.bench_function(BenchmarkId::new(format!("{threads}-threads"), name), |b| {
            b.iter(|| m.run(n))
        });
    }
    g.finish();
}

fn mccfr(c: &mut Criterion) {
    sampled(c, "kuhn", &Kuhn);
    sampled(c, "leduc", &Leduc);
}

fn exploitability(c: &mut Criterion) {
    let mut g = c.benchmark_group("cfr_nash_conv");
    g.measurement_time(Duration::from_secs(3));
    for (name, tree) in trees() {
        let mut s = Cfr::new(&tree).variant(Variant::Vanilla);
        s.run(100);
        let avg = s.average_strategy();
        g.bench_function(name, |b| b.iter(|| nash_conv(&tree, &avg)));
    }
    g.finish();
}

criterion_group!(benches, iterations, mccfr, exploitability);
criterion_main!(benches);
