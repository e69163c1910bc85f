//! Solve a Connect Four position exactly with [`Solver`] and print its value, best move and
//! node count.
//!
//! ```text
//! cargo run --release -p cutoff --example solve_position            # the built-in position
//! cargo run --release -p cutoff --example solve_position -- 4453    # any other
//! ```
//!
//! A position is the columns played so far, 1 to 7 from the left, as in the `cutoff` command.

use cutoff::games::perfect::connect4::Connect4;
use cutoff::solver::{Solver, Verdict};
use cutoff::Notation;

fn main() {
    // Eight moves into a game: solved in well under a second on one thread.
    let moves = std::env::args().nth(1).unwrap_or_else(|| "44444432".into());
    let game = match Connect4::from_moves(&moves) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("bad position {moves:?}: {e}");
            std::process::exit(2);
        }
    };
    let root = game.board();
    if let Some(diagram) = game.diagram(&root) {
        println!("{diagram}\n");
    }

    // The defaults are exact solving with the null-window solver and a 64 MiB table; one
    // thread keeps the node count the same from run to run.
    let out = Solver::new(&game)
        .threads(1)
        .run()
        .expect("a 64 MiB table and one thread are always available");

    // The verdict says what kind of value came back: this search has no depth limit, no
    // budget and no stop flag, so it is always exact.
    let Verdict::Exact(value) = out.verdict else {
        unreachable!("an unlimited search settles the value: {:?}", out.verdict)
    };
    // Values are from the side to move; Connect Four's scores also say how soon the game ends.
    println!("position   {moves}");
    println!("value      {value} ({})", game.explain_value(&root, value));
    match out.best_move {
        Some(mv) => println!("best move  {}", game.format_move(&root, mv)),
        None => println!("best move  none (the game is over)"),
    }
    println!("nodes      {}", out.stats.nodes);
    println!("time       {:.1} ms", out.elapsed.as_secs_f64() * 1e3);
}
