//! Move generation, playing a move (the engine's copy-make, which stands in for make/unmake:
//! undo is dropping the copy) and the table key, for every game, over a fixed sample of
//! positions from seeded random playouts.
//!
//! Run with `cargo bench -p cutoff-bench --bench movegen`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use cutoff::games::perfect::connect4::Connect4;
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::sim::Sim;
use cutoff::games::perfect::takeaway::TakeAway;
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::{Game, MoveBuffer};
use cutoff_bench::positions::random_graph;
use std::time::Duration;

/// Positions met along seeded random playouts from the start: every non-terminal position of
/// each game, until `n` are collected.
fn sample<G: Game>(game: &G, n: usize) -> Vec<G::Pos> {
    let mut out = Vec::with_capacity(n);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut moves = G::Moves::default();
    while out.len() < n {
        let mut pos = game.initial();
        while game.outcome(&pos).is_none() && out.len() < n {
            game.moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(pos);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves.as_slice()[(seed % moves.len() as u64) as usize];
            pos = game.play(&pos, mv);
        }
    }
    out
}

/// Positions per game in the sample.
const SAMPLE: usize = 256;

/// The three benchmarks of one game: generating the moves of every sampled position, playing
/// every move of every sampled position, and computing every sampled position's key.
fn bench_game<G: Game>(c: &mut Criterion, label: &str, game: &G) {
    let positions = sample(game, SAMPLE);
    let mut group = c.benchmark_group(format!("movegen/{label}"));
    // Throughput in positions for `moves` and `key`, in moves for `play`.
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut moves = G::Moves::default();
    group.bench_function("moves", |b| {
        b.iter(|| {
            let mut total = 0;
            for p in &positions {
                game.moves(black_box(p), &mut moves);
                total += moves.len();
            }
            total
        })
    });
    let lists: Vec<G::Moves> = positions
        .iter()
        .map(|p| {
            let mut m = G::Moves::default();
            game.moves(p, &mut m);
            m
        })
        .collect();
    let total_moves: usize = lists.iter().map(|m| m.len()).sum();
    group.throughput(Throughput::Elements(total_moves as u64));
    group.bench_function("play", |b| {
        b.iter(|| {
            for (p, ms) in positions.iter().zip(&lists) {
                for &mv in ms.as_slice() {
                    black_box(game.play(black_box(p), mv));
                }
            }
        })
    });
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("key", |b| {
        b.iter(|| {
            positions
                .iter()
                .fold(0u64, |acc, p| acc ^ game.key(black_box(p)))
        })
    });
    group.finish();
}

/// Every game: matchsticks, tic-tac-toe, the control game on a random 24-vertex graph,
/// Connect Four, Sim, a random tree of branching 8.
fn bench_all(c: &mut Criterion) {
    bench_game(c, "matchsticks", &TakeAway::matchsticks(40).unwrap());
    bench_game(c, "tictactoe", &TicTacToe::new());
    bench_game(c, "control", &random_graph(24, 0.15, 3));
    bench_game(c, "connect4", &Connect4::new());
    bench_game(c, "sim", &Sim::new());
    bench_game(
        c,
        "random-tree",
        &RandomTree::new(8, 12, 1, Order::Random).unwrap(),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(300));
    targets = bench_all
}
criterion_main!(benches);
