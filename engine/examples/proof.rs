//! What a proof by hypothesis over a frontier costs against a direct solve, on one Connect
//! Four position (docs/measurements/distributed.md):
//!
//! ```sh
//! cargo run --release -p cutoff --example proof -- 4453 1
//! ```
//!
//! The arguments: the position's moves (`""` for the empty board), the number of workers (each
//! with a 16 MiB table) and, optionally, one frontier depth and one guessing budget to run
//! instead of depths 2 to 4 with budgets of 1,000 and 20,000 nodes.

use cutoff::games::perfect::connect4::Connect4;
use cutoff::proof::{prove, Config};
use cutoff::solver::Solver;
use cutoff::Game;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(moves), Some(workers)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: proof MOVES WORKERS [DEPTH [GUESS_NODES]]");
        std::process::exit(2);
    };
    let game = match Connect4::from_moves(moves) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let Ok(workers) = workers.parse::<usize>() else {
        eprintln!("WORKERS must be a number, not '{workers}'");
        std::process::exit(2);
    };
    let direct = match Solver::new(&game).threads(1).table_mib(16).run() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!(
        "direct: {:?}, {} nodes, {} ms",
        direct.verdict,
        direct.stats.nodes,
        direct.elapsed.as_millis()
    );
    println!("| depth | guess nodes | value | nodes | / direct | guesses | jobs | cancelled | rounds | largest round | tests | frontier | tested |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let depths = number(3).map_or(vec![2, 3, 4], |d| vec![d as usize]);
    let budgets = number(4).map_or(vec![1_000, 20_000], |g| vec![g]);
    for &depth in &depths {
        for &guess_nodes in &budgets {
            let config = Config {
                depth,
                guess_nodes,
                table_mib: 16,
                workers,
            };
            match prove(&game, game.initial(), config) {
                Ok(out) => println!(
                    "| {depth} | {guess_nodes} | {} | {} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    out.value,
                    out.nodes(),
                    out.nodes() as f64 / direct.stats.nodes.max(1) as f64,
                    out.guess_nodes,
                    out.jobs,
                    out.cancelled,
                    out.rounds,
                    out.largest_round,
                    out.tests,
                    out.frontier,
                    out.leaves_tested
                ),
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            }
        }
    }
}
