//! The same Connect Four position solved on one thread and on two: the values must agree,
//! while the node counts differ (the threads search some nodes twice, and the shared table
//! lets each profit from the other's results in an order that changes from run to run).
//!
//! ```text
//! cargo run --release -p cutoff --example parallel
//! cargo run --release -p cutoff --example parallel -- 4453
//! ```

use cutoff::games::perfect::connect4::Connect4;
use cutoff::solver::{Report, Solver};
use cutoff::Notation;

/// Solves `game` on `threads` threads with a fresh 64 MiB table (so neither run profits from
/// the other's) and prints what came back.
fn solve(game: &Connect4, threads: usize) -> Report<u8> {
    let out = Solver::new(game)
        .threads(threads) // 1: the serial search; 2 or more: YBWC over one shared table
        .table_mib(64)
        .run()
        .expect("the table and the threads are available");
    let root = game.board();
    println!(
        "{} thread(s): value {:?}, best move {}, {} nodes {:?}, {:.1} ms",
        out.threads,
        out.verdict,
        out.best_move
            .map_or_else(|| "-".into(), |mv| game.format_move(&root, mv)),
        out.stats.nodes,
        out.nodes_per_thread,
        out.elapsed.as_secs_f64() * 1e3,
    );
    out
}

fn main() {
    // Six stones in the centre column: about a second of work on one thread.
    let moves = std::env::args().nth(1).unwrap_or_else(|| "444444".into());
    let game = Connect4::from_moves(&moves).unwrap_or_else(|e| panic!("{moves:?}: {e}"));
    println!("position {moves}");

    let serial = solve(&game, 1);
    let parallel = solve(&game, 2);

    // The value is the game's: any correct search finds the same one. The best move need not
    // agree when several moves share the best value.
    assert!(serial.verdict.is_exact() && parallel.verdict.is_exact());
    assert_eq!(serial.verdict, parallel.verdict, "the searches disagree");
    println!(
        "values agree; the parallel search visited {:.2}x the serial node count",
        parallel.stats.nodes as f64 / serial.stats.nodes as f64
    );
}
