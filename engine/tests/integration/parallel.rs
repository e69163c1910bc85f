//! Parallel searches give exactly the serial values, at more threads than cores too.

use cutoff::advanced::parallel_search;
use cutoff::advanced::Limits;
use cutoff::advanced::{search, Searcher};
use cutoff::games::perfect::connect4::Connect4;
use cutoff::games::perfect::connect4::{parse_suite, SuiteLine};
use cutoff::games::perfect::sim::Sim;
use cutoff::solver::{Mode, ParallelConfig};
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game};
use std::sync::atomic::AtomicBool;

const MODES: [Mode; 4] = [Mode::Ybwc, Mode::Abdada, Mode::LazySmp, Mode::Root];

fn set(name: &str) -> Vec<SuiteLine> {
    let path = format!(
        "{}/../positions/connect4/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    parse_suite(&std::fs::read_to_string(path).expect("test set present")).expect("parses")
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("threads start")
}

/// Splits at the smallest sizes, so that the tests exercise splitting on small positions.
fn eager(mode: Mode) -> ParallelConfig {
    ParallelConfig {
        mode,
        min_split_depth: 2,
        min_split_nodes: 0,
        oversubscribe: true,
        ..ParallelConfig::default()
    }
}

#[test]
fn connect4_parallel_values_equal_the_expected_scores() {
    let mut lines = set("end-easy");
    lines.truncate(120);
    lines.extend(set("middle-easy").into_iter().take(60));
    lines.extend(set("begin-easy").into_iter().take(15));
    for threads in [2, 3, 8] {
        let pool = pool(threads);
        for mode in MODES {
            let tt = TranspositionTable::new(8);
            for l in &lines {
                let r = parallel_search(
                    &l.game,
                    l.game.initial(),
                    Algorithm::Solve,
                    &tt,
                    &pool,
                    eager(mode),
                    Limits::default(),
                );
                assert!(!r.stopped);
                assert_eq!(r.value, l.expected, "{mode:?} x{threads} on {}", l.moves);
                // The best move achieves the value: check it with the serial solver.
                let best = r.best_move.expect("a non-terminal root has a best move");
                let child = l.game.play(&l.game.initial(), best);
                let t2 = TranspositionTable::new(1);
                let mut s = Searcher::new(&l.game, child, None).table(&t2);
                assert_eq!(
                    -s.run(Algorithm::Solve).0,
                    l.expected,
                    "{mode:?} best move on {}",
                    l.moves
                );
                assert_eq!(r.nodes_per_thread.len(), threads);
                assert_eq!(r.nodes_per_thread.iter().sum::<u64>(), r.stats.nodes);
            }
        }
    }
}

#[test]
fn connect4_parallel_pvs_and_weak_solving() {
    let pool = pool(3);
    for l in set("end-easy").iter().skip(500).take(80) {
        for mode in MODES {
            let tt = TranspositionTable::new(4);
            let r = parallel_search(
                &l.game,
                l.game.initial(),
                Algorithm::Pvs,
                &tt,
                &pool,
                eager(mode),
                Limits::default(),
            );
            assert_eq!(r.value, l.expected, "pvs {mode:?} on {}", l.moves);
            let weak = ParallelConfig {
                weak: true,
                ..eager(mode)
            };
            let r = parallel_search(
                &l.game,
                l.game.initial(),
                Algorithm::Solve,
                &tt,
                &pool,
                weak,
                Limits::default(),
            );
            assert_eq!(r.value, l.expected.signum(), "weak {mode:?} on {}", l.moves);
        }
    }
}

#[test]
fn sim_in_parallel_is_a_second_player_win() {
    let g = Sim::new();
    for threads in [2, 8] {
        let pool = pool(threads);
        for mode in MODES {
            let tt = TranspositionTable::new(8);
            let r = parallel_search(
                &g,
                g.initial(),
                Algorithm::Solve,
                &tt,
                &pool,
                eager(mode),
                Limits::default(),
            );
            assert_eq!(r.value, -1, "{mode:?} x{threads}");
        }
    }
}

#[test]
fn repeated_parallel_runs_never_lose_a_result() {
    // The same positions again and again on an oversubscribed pool, one shared table.
    let lines: Vec<_> = set("middle-easy").into_iter().take(10).collect();
    let pool = pool(8);
    let tt = TranspositionTable::new(4);
    for round in 0..15 {
        for l in &lines {
            let mode = MODES[round % 3];
            let r = parallel_search(
                &l.game,
                l.game.initial(),
                Algorithm::Solve,
                &tt,
                &pool,
                eager(mode),
                Limits::default(),
            );
            assert_eq!(r.value, l.expected, "round {round} {mode:?} on {}", l.moves);
        }
    }
}

#[test]
fn a_raised_stop_flag_or_spent_budget_stops_a_parallel_search() {
    let g = Connect4::new();
    let pool = pool(3);
    let tt = TranspositionTable::new(4);
    let flag = AtomicBool::new(true);
    for mode in MODES {
        let limits = Limits {
            stop: Some(&flag),
            ..Limits::default()
        };
        let r = parallel_search(
            &g,
            g.initial(),
            Algorithm::Solve,
            &tt,
            &pool,
            eager(mode),
            limits,
        );
        assert!(r.stopped, "{mode:?}");
        let limits = Limits {
            nodes: Some(50_000),
            ..Limits::default()
        };
        let r = parallel_search(
            &g,
            g.initial(),
            Algorithm::Solve,
            &tt,
            &pool,
            eager(mode),
            limits,
        );
        assert!(
            r.stopped,
            "{mode:?}: the empty board takes far more than 50k nodes"
        );
        assert!(
            r.stats.nodes < 50_000 + 3 * 3 * 5_000,
            "{mode:?}: {} nodes",
            r.stats.nodes
        );
    }
}

#[test]
fn parallel_plain_game_agrees_with_serial_alphabeta() {
    // Connect Four positions close to the end, checked against plain alpha-beta without
    // any table or game knowledge.
    let pool = pool(2);
    for l in set("end-easy")
        .iter()
        .filter(|l| l.game.board().moves >= 34)
        .take(40)
    {
        let plain = search(&l.game, l.game.initial(), Algorithm::AlphaBeta, None).value;
        let tt = TranspositionTable::new(2);
        let r = parallel_search(
            &l.game,
            l.game.initial(),
            Algorithm::Pvs,
            &tt,
            &pool,
            eager(Mode::Ybwc),
            Limits::default(),
        );
        assert_eq!(r.value, plain, "{}", l.moves);
    }
}

#[test]
fn parallel_stress_on_middle_game_positions() {
    // Larger positions with small split sizes: many splits, aborts and nested aborts, which
    // is where a partial result could slip into the value or the table.
    let lines: Vec<_> = set("middle-medium").into_iter().take(80).collect();
    for threads in [2, 3, 8] {
        let pool = pool(threads);
        for mode in [Mode::Ybwc, Mode::Root] {
            let tt = TranspositionTable::new(8);
            let config = ParallelConfig {
                mode,
                min_split_depth: 2,
                min_split_nodes: 64,
                oversubscribe: true,
                ..ParallelConfig::default()
            };
            for (k, l) in lines.iter().enumerate() {
                // Half the positions split only near the root, so that aborts reach tasks
                // deep in their quiet nodes.
                let config = ParallelConfig {
                    max_split_ply: if k % 2 == 0 { 3 } else { config.max_split_ply },
                    ..config
                };
                let r = parallel_search(
                    &l.game,
                    l.game.initial(),
                    Algorithm::Solve,
                    &tt,
                    &pool,
                    config,
                    Limits::default(),
                );
                assert_eq!(r.value, l.expected, "{mode:?} x{threads} on {}", l.moves);
            }
        }
    }
}

/// A small deterministic generator for test shapes (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

#[test]
fn parallel_values_equal_serial_on_a_thousand_random_trees() {
    use cutoff::games::perfect::random_tree::{Order, RandomTree};
    let pools: Vec<_> = [2, 3, 8].into_iter().map(pool).collect();
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let orders = [Order::Random, Order::BestFirst, Order::WorstFirst];
    for i in 0..1000u64 {
        // Shapes from 2 children and 12 plies down to 7 children and 4 plies: at most a few
        // thousand leaves, so every thread count and mode runs on every tree.
        let b = 2 + rng.below(6) as usize;
        let max_d = match b {
            2 => 12,
            3 => 8,
            4 => 6,
            5 => 5,
            _ => 4,
        };
        let d = 1 + rng.below(max_d) as usize;
        let order = orders[(i % 3) as usize];
        let game = RandomTree::new(b, d, i, order).expect("valid shape");
        let root = game.initial();
        let serial = search(&game, root, Algorithm::AlphaBeta, None).value;
        // Keys identify positions within one game only: a fresh table for each.
        let tt = TranspositionTable::new(1);
        let pool = &pools[(i % 3) as usize];
        for mode in MODES {
            for algo in [Algorithm::Pvs, Algorithm::Solve] {
                // Classic YBWC on half the trees, two serial brothers on the other half; splits
                // at any ply, or only the first few, the tasks' deeper nodes quiet.
                let config = ParallelConfig {
                    eldest: 1 + (i / 3 % 2) as usize,
                    max_split_ply: [12, 0, 1, 3][(i / 6 % 4) as usize],
                    ..eager(mode)
                };
                let r = parallel_search(&game, root, algo, &tt, pool, config, Limits::default());
                assert!(!r.stopped);
                assert_eq!(
                    r.value,
                    serial,
                    "tree {i} (b={b}, d={d}, {order:?}), {mode:?} {algo} x{}",
                    pool.current_num_threads()
                );
            }
        }
    }
}

#[test]
fn parallel_values_equal_serial_on_control_graphs() {
    use cutoff::games::perfect::control::Control;
    let pools: Vec<_> = [2, 3, 8].into_iter().map(pool).collect();
    let mut rng = Rng(0xC0_47_80_11);
    for i in 0..150u64 {
        // Random graphs of 4 to 13 vertices and assorted densities.
        let n = 4 + rng.below(10) as usize;
        let density = 1 + rng.below(5);
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(8) < density {
                    edges.push((a, b));
                }
            }
        }
        let game = Control::from_edges(n, &edges).expect("valid graph");
        let root = game.initial();
        let serial = search(&game, root, Algorithm::AlphaBeta, None).value;
        // Keys identify positions within one game only: a fresh table for each.
        let tt = TranspositionTable::new(1);
        let pool = &pools[(i % 3) as usize];
        for mode in MODES {
            let r = parallel_search(
                &game,
                root,
                Algorithm::Solve,
                &tt,
                pool,
                eager(mode),
                Limits::default(),
            );
            assert_eq!(
                r.value,
                serial,
                "graph {i} ({n} vertices, {} edges), {mode:?} x{}",
                edges.len(),
                pool.current_num_threads()
            );
        }
    }
}

#[test]
fn parallel_iterative_deepening_gives_the_serial_value_at_every_depth() {
    use cutoff::advanced::iterative_deepening;
    use cutoff::advanced::parallel_iterative_deepening;
    let lines = set("middle-medium");
    for (k, l) in lines.iter().take(12).enumerate() {
        let root = l.game.initial();
        let serial = iterative_deepening(
            &l.game,
            root,
            &TranspositionTable::new(2),
            Limits::default(),
            Some(9),
        );
        let threads = [2, 3, 8][k % 3];
        for mode in MODES {
            let d = parallel_iterative_deepening(
                &l.game,
                root,
                &TranspositionTable::new(2),
                &pool(threads),
                eager(mode),
                Limits::default(),
                Some(9),
            );
            // A depth-limited value is one function of the position and the depth (the
            // children's best, clamped into the game's bounds): equal, depth by depth.
            assert_eq!(
                d.history, serial.history,
                "{mode:?} x{threads} on {}",
                l.moves
            );
            let last = d.last.expect("every depth finished");
            assert_eq!(last.depth, serial.last.as_ref().unwrap().depth);
            assert_eq!(last.pv.first().copied(), last.best_move);
        }
    }
}

#[test]
fn parallel_iterative_deepening_keeps_the_last_finished_depth_when_the_budget_runs_out() {
    use cutoff::advanced::parallel_iterative_deepening;
    let game = Connect4::new();
    for mode in MODES {
        let budget = 200_000;
        let d = parallel_iterative_deepening(
            &game,
            game.initial(),
            &TranspositionTable::new(8),
            &pool(2),
            ParallelConfig {
                mode,
                ..ParallelConfig::default()
            },
            Limits {
                nodes: Some(budget),
                ..Limits::default()
            },
            None,
        );
        let last = d.last.expect("the first depths fit in the budget");
        assert!(
            !last.exact,
            "{mode:?}: the empty board is not solved in 200k nodes"
        );
        assert_eq!(
            d.history.len(),
            last.depth,
            "{mode:?}: every depth up to the last"
        );
        assert!(last.best_move.is_some());
        // Workers report nodes in batches: allow a generous overshoot, never a runaway.
        assert!(
            d.stats.nodes < 4 * budget,
            "{mode:?}: {} nodes",
            d.stats.nodes
        );
    }
}
