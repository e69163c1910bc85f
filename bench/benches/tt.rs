//! Transposition table throughput: probes and stores per second of the lock-free table against
//! a `DashMap` (sharded locks) holding the same entries, with one thread and with two.
//!
//! Each measured operation is one probe of a random key followed, on a miss, by a store, over
//! a key space four times the table's capacity (so both hits and replacements happen), as a
//! search does. Run with `cargo bench -p cutoff-bench --bench tt`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use cutoff::tt::{Bound, Entry, TranspositionTable, TtStats};
use dashmap::DashMap;
use std::time::{Duration, Instant};

const TABLE_MIB: usize = 16;

fn keys(seed: u64, n: usize, space: u64) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            1 + x % space
        })
        .collect()
}

fn entry(k: u64) -> Entry {
    Entry {
        value: (k % 37) as i16 - 18,
        bound: Bound::Lower,
        mv: (k % 7) as u8,
        depth: (k % 20) as u8,
        work: 4,
    }
}

/// Runs `per_thread` operations on each of `threads` threads at once; returns the wall time.
fn run_threads(threads: usize, per_thread: u64, op: &(dyn Fn(usize, u64) + Sync)) -> Duration {
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            s.spawn(move || {
                for i in 0..per_thread {
                    op(t, i);
                }
            });
        }
    });
    start.elapsed()
}

fn bench_tables(c: &mut Criterion) {
    let tt = TranspositionTable::new(TABLE_MIB);
    let capacity = tt.capacity();
    let space = 4 * capacity as u64;
    let streams: Vec<Vec<u64>> = (0..2)
        .map(|t| keys(0x9E37 + t as u64, 1 << 20, space))
        .collect();
    let dash: DashMap<u64, u64, ahash::RandomState> =
        DashMap::with_capacity_and_hasher(capacity, ahash::RandomState::new());

    let mut group = c.benchmark_group("tt_probe_store");
    for threads in [1usize, 2] {
        group.throughput(Throughput::Elements(threads as u64));
        group.bench_with_input(
            BenchmarkId::new("lockfree", threads),
            &threads,
            |b, &threads| {
                b.iter_custom(|iters| {
                    run_threads(threads, iters, &|t, i| {
                        let k = streams[t][(i as usize) & ((1 << 20) - 1)];
                        let mut st = TtStats::default();
                        if tt.probe(k, &mut st).is_none() {
                            tt.store(k, entry(k), &mut st);
                        }
                    })
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("dashmap", threads),
            &threads,
            |b, &threads| {
                b.iter_custom(|iters| {
                    run_threads(threads, iters, &|t, i| {
                        let k = streams[t][(i as usize) & ((1 << 20) - 1)];
                        let hit = dash.get(&k).map(|v| *v);
                        if hit.is_none() {
                            // The map grows to the whole key space (4x the table's entries): it
                            // never evicts, which only flatters it.
                            dash.insert(k, k.wrapping_mul(31));
                        }
                    })
                })
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = bench_tables
}
criterion_main!(benches);
