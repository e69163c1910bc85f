//! Whole searches of fixed positions, one thread, a fresh table each time: tic-tac-toe with
//! alpha-beta, a random tree (b = 8, d = 8, random order) with alpha-beta, PVS and MTD(f), a
//! Connect Four position solved exactly and a control-game graph solved exactly.
//!
//! Run with `cargo bench -p cutoff-bench --bench search`.

use criterion::{criterion_group, criterion_main, Criterion};
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game};
use cutoff_bench::measure::measure;
use cutoff_bench::positions::{connect4_set, random_graph};
use std::time::Duration;

/// Table size of the table-driven searches, MiB.
const TT_MIB: usize = 16;

/// Benchmarks one search of `game` from its start; the table is allocated, and its pages
/// touched (the kernel zeroes a mapped page on first touch), outside the measured part.
fn bench_search<G: Game>(c: &mut Criterion, name: &str, game: &G, algo: Algorithm) {
    c.bench_function(name, |b| {
        b.iter_batched(
            || {
                algo.uses_table().then(|| {
                    let tt = TranspositionTable::new(TT_MIB);
                    tt.clear();
                    tt
                })
            },
            |tt| measure(game, game.initial(), algo, None, tt.as_ref()).unwrap(),
            criterion::BatchSize::PerIteration,
        )
    });
}

/// Tic-tac-toe's whole tree with alpha-beta (7,330 leaves).
fn tictactoe(c: &mut Criterion) {
    bench_search(
        c,
        "search/tictactoe/alphabeta",
        &TicTacToe::new(),
        Algorithm::AlphaBeta,
    );
}

/// A random-order tree of branching 8 and depth 8 with the three main searches.
fn random_tree(c: &mut Criterion) {
    let tree = RandomTree::new(8, 8, 1, Order::Random).unwrap();
    for algo in [Algorithm::AlphaBeta, Algorithm::Pvs, Algorithm::Mtdf] {
        bench_search(c, &format!("search/random-b8-d8/{algo}"), &tree, algo);
    }
}

/// The first Middle-Medium position (15 stones) solved exactly.
fn connect4(c: &mut Criterion) {
    let line = connect4_set("middle-medium", Some(1)).unwrap().remove(0);
    bench_search(
        c,
        "search/connect4/middle-medium-1/solve",
        &line.game,
        Algorithm::Solve,
    );
}

/// A random 16-vertex graph of the control game solved exactly.
fn control(c: &mut Criterion) {
    bench_search(
        c,
        "search/control/random-16/solve",
        &random_graph(16, 0.25, 5),
        Algorithm::Solve,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    targets = tictactoe, random_tree, connect4, control
}
criterion_main!(benches);
