//! Solving by hypothesis over a frontier (`cutoff::proof`): the value and a move that keeps it,
//! against direct solves, on random trees of every shape and order and on Connect Four
//! positions, and what a run reports.

use cutoff::games::perfect::connect4::{parse_suite, Connect4};
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::proof::{prove, Config, Found, Prover, Step};
use cutoff::solver::{Solver, Verdict};
use cutoff::{Game, MoveBuffer, Value};

/// The exact value of `pos` by a direct serial solve.
fn direct<G: Game>(game: &G, pos: G::Pos) -> Value {
    let out = Solver::new(game)
        .position(pos)
        .threads(1)
        .table_mib(4)
        .run()
        .expect("the direct solve runs");
    match out.verdict {
        Verdict::Exact(v) => v,
        other => panic!("not exact: {other:?}"),
    }
}

/// Checks `prove` against the direct solve at `pos`: the value, and that the move it names
/// leads to a child worth minus that value.
fn check<G: Game>(
    game: &G,
    pos: G::Pos,
    config: Config,
    what: &str,
) -> cutoff::proof::Outcome<G::Move> {
    let want = direct(game, pos);
    let out = prove(game, pos, config).expect("the proof runs");
    assert_eq!(out.value, want, "{what} with {config:?}");
    if game.outcome(&pos).is_none() {
        let mv = out.best_move.expect("a move at a live root");
        let mut moves = G::Moves::default();
        game.moves(&pos, &mut moves);
        assert!(moves.as_slice().contains(&mv), "{what}: a legal move");
        assert_eq!(
            direct(game, game.play(&pos, mv)),
            -want,
            "{what}: the move keeps the value"
        );
    } else {
        assert!(out.best_move.is_none());
    }
    out
}

#[test]
fn random_trees_get_the_direct_value_and_a_move_that_keeps_it() {
    let mut cancelled = 0;
    let mut cases = 0;
    for seed in 0..40u64 {
        let order = [Order::Random, Order::BestFirst, Order::WorstFirst][seed as usize % 3];
        let b = 2 + seed as usize % 4;
        let d = 3 + seed as usize % 5;
        let t = RandomTree::new(b, d, seed, order).expect("valid parameters");
        for depth in 1..=3.min(d) {
            let config = Config {
                depth,
                // Small budgets leave most frontier positions to the jobs.
                guess_nodes: 1 + seed % 7,
                table_mib: 1,
                workers: 1,
            };
            let out = check(
                &t,
                t.initial(),
                config,
                &format!("tree b{b} d{d} seed {seed}"),
            );
            cancelled += out.cancelled;
            cases += 1;
        }
    }
    assert!(cases > 80);
    // Some answers made planned jobs useless: the cancelling path ran.
    assert!(cancelled > 0, "no job was ever cancelled");
}

#[test]
fn connect_four_positions_get_their_published_values() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/connect4/middle-easy.txt"
    ))
    .expect("the test set is in positions/connect4");
    let lines = parse_suite(&text).expect("it parses");
    for (k, l) in lines.iter().take(12).enumerate() {
        let config = Config {
            depth: 1 + k % 3,
            guess_nodes: 200,
            table_mib: 2,
            workers: 1,
        };
        let out = check(&l.game, l.game.initial(), config, &l.moves);
        assert_eq!(out.value, l.expected, "{}", l.moves);
    }
    let game = Connect4::from_moves("4453").unwrap();
    let out = check(
        &game,
        game.initial(),
        Config {
            depth: 2,
            guess_nodes: 5000,
            table_mib: 8,
            workers: 1,
        },
        "4453",
    );
    assert_eq!(out.value, -2, "4453's published value");
    assert!(out.jobs > 0 && out.job_nodes > 0 && out.rounds >= out.tests);
    assert!(out.leaves_tested <= out.frontier && out.largest_round <= out.jobs + out.cancelled);
    assert_eq!(out.nodes(), out.guess_nodes + out.job_nodes);
}

#[test]
fn a_finished_game_and_a_frontier_of_no_plies() {
    // The first player has four in the first column.
    let game = Connect4::from_moves("1212121").unwrap();
    let out = check(&game, game.initial(), Config::default(), "a won game");
    assert_eq!(out.jobs, 0);
    let err = prove(
        &game,
        game.initial(),
        Config {
            depth: 0,
            ..Config::default()
        },
    );
    assert!(err.is_err());
}

/// Drives a [`Prover`] by hand, as a distributed driver does: answers in reverse order,
/// every test's position opened a ply deeper on its second test, trusted guesses where
/// `trusted`, and guesses that are wrong on purpose.
fn by_hand<G: Game>(game: &G, depth: usize, trusted: bool, skew: Value) -> (Value, usize) {
    let mut p = Prover::new(game, game.initial(), depth).expect("a frontier");
    p.trust_guesses(trusted);
    let mut tested = std::collections::HashMap::new();
    let mut splits = 0;
    loop {
        match p.step() {
            Step::Guess(leaves) => {
                for l in leaves {
                    let v = direct(game, p.position(l));
                    let (lo, hi) = game.value_range();
                    p.learn(
                        l,
                        Found {
                            lo,
                            hi,
                            guess: Some((v + skew).clamp(lo, hi)),
                        },
                    );
                }
            }
            Step::Test { jobs, .. } => {
                let mut opened = false;
                for j in &jobs {
                    let n = tested.entry(j.leaf).or_insert(0);
                    *n += 1;
                    if *n == 2 && p.split(game, j.leaf).expect("opens") {
                        opened = true;
                        splits += 1;
                    }
                }
                if opened {
                    continue;
                }
                for j in jobs.iter().rev() {
                    if !p.needed(j) {
                        continue;
                    }
                    let r = cutoff::proof::test_solver(game, p.position(j.leaf), j.at)
                        .table_mib(1)
                        .run()
                        .expect("runs");
                    p.learn(j.leaf, Found::of_test(p.range(), *j, r.verdict));
                }
            }
            Step::Done { value, .. } => return (value, splits),
        }
    }
}

#[test]
fn a_prover_fed_by_hand_with_splits_and_any_guesses_gets_the_value() {
    let mut splits = 0;
    for seed in 0..24u64 {
        let order = [Order::Random, Order::BestFirst, Order::WorstFirst][seed as usize % 3];
        let (b, d) = (2 + seed as usize % 3, 4 + seed as usize % 3);
        let t = RandomTree::new(b, d, seed, order).expect("valid parameters");
        let want = direct(&t, t.initial());
        for (trusted, skew) in [(true, 0), (false, 0), (true, 3), (false, -2)] {
            let (v, s) = by_hand(&t, 2, trusted, skew);
            assert_eq!(v, want, "seed {seed} trusted {trusted} skew {skew}");
            splits += s;
        }
    }
    assert!(splits > 0, "the split path ran");
}
