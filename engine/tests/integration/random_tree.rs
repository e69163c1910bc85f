//! Uniform random trees: determinism, the Knuth-Moore minimal tree on best-first trees, no
//! pruning at all on worst-first trees, random order in between, every algorithm agreeing, and
//! the parameter errors.

use cutoff::advanced::Searcher;
use cutoff::games::perfect::random_tree::{Order, RandomTree, MAX_BRANCHING, MAX_DEPTH, MAX_VALUE};
use cutoff::tt::TranspositionTable;
use cutoff::Notation;
use cutoff::{Algorithm, Game, MoveBuffer, Stats, Value, INF};

/// The plain searches that prune with a window or the course's bounds.
const ALPHA_BETA: [Algorithm; 3] = [
    Algorithm::AlphaBeta,
    Algorithm::AlphaBetaHard,
    Algorithm::Ab,
];

fn tree(b: usize, d: usize, seed: u64, order: Order) -> RandomTree {
    RandomTree::new(b, d, seed, order).expect("valid parameters")
}

/// Runs `algo` to the leaves (with a table for the table-driven searches).
fn run(t: &RandomTree, algo: Algorithm) -> (Value, Stats) {
    let tt = TranspositionTable::new(1);
    let mut s = Searcher::new(t, t.initial(), None);
    if algo.uses_table() {
        s = s.table(&tt);
    }
    let (v, _) = s.run(algo);
    (v, s.stats())
}

/// Every leaf value, left to right, by walking the tree.
fn leaf_values(t: &RandomTree) -> Vec<Value> {
    fn walk(t: &RandomTree, pos: &<RandomTree as Game>::Pos, out: &mut Vec<Value>) {
        if let Some(v) = t.outcome(pos) {
            out.push(v);
            return;
        }
        let mut moves = <RandomTree as Game>::Moves::default();
        t.moves(pos, &mut moves);
        for &m in moves.as_slice() {
            walk(t, &t.play(pos, m), out);
        }
    }
    let mut out = Vec::new();
    walk(t, &t.initial(), &mut out);
    out
}

/// Negamax by plain recursion over the game interface, independent of the library's searches.
fn brute(t: &RandomTree, pos: &<RandomTree as Game>::Pos) -> Value {
    if let Some(v) = t.outcome(pos) {
        return v;
    }
    let mut moves = <RandomTree as Game>::Moves::default();
    t.moves(pos, &mut moves);
    moves
        .as_slice()
        .iter()
        .map(|&m| -brute(t, &t.play(pos, m)))
        .max()
        .expect("an inner node has children")
}

#[test]
fn same_seed_same_tree_different_seeds_differ() {
    for order in Order::ALL {
        let a = tree(3, 5, 42, order);
        let b = tree(3, 5, 42, order);
        let leaves = leaf_values(&a);
        assert_eq!(leaves.len(), 243);
        assert_eq!(leaves, leaf_values(&b), "{order}");
        assert_eq!(
            run(&a, Algorithm::AlphaBeta).0,
            run(&b, Algorithm::AlphaBeta).0
        );
        assert_eq!(a.key(&a.initial()), b.key(&b.initial()));

        let values: Vec<Value> = (0..10)
            .map(|seed| run(&tree(3, 5, seed, order), Algorithm::AlphaBeta).0)
            .collect();
        assert!(
            values.iter().any(|&v| v != values[0]),
            "{order}: ten seeds, one value: {values:?}"
        );
        let other = leaf_values(&tree(3, 5, 43, order));
        assert_ne!(leaves, other, "{order}");
    }
}

#[test]
fn random_leaves_are_spread_over_the_documented_range() {
    let t = tree(4, 6, 7, Order::Random);
    let leaves = leaf_values(&t);
    let (lo, hi) = t.value_range();
    assert_eq!((lo, hi), (-1000, 1000));
    assert!(leaves.iter().all(|v| (lo..=hi).contains(v)));
    let min = *leaves.iter().min().unwrap();
    let max = *leaves.iter().max().unwrap();
    assert!(min < -900 && max > 900, "{min}..{max}");
    let mean = leaves.iter().map(|&v| v as f64).sum::<f64>() / leaves.len() as f64;
    assert!(mean.abs() < 60.0, "mean {mean}");
    // Keys tell the nodes apart.
    let mut keys: Vec<u64> = Vec::new();
    let mut moves = <RandomTree as Game>::Moves::default();
    t.moves(&t.initial(), &mut moves);
    for &m in moves.as_slice() {
        let c = t.play(&t.initial(), m);
        keys.push(t.key(&c));
        let mut mm = <RandomTree as Game>::Moves::default();
        t.moves(&c, &mut mm);
        for &g in mm.as_slice() {
            keys.push(t.key(&t.play(&c, g)));
        }
    }
    keys.push(t.key(&t.initial()));
    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n);
}

/// `b^ceil(d/2) + b^floor(d/2) - 1`.
fn minimal(b: u64, d: u32) -> u64 {
    b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1
}

fn shapes() -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = (1..=12).map(|d| (2, d)).collect();
    v.extend((1..=8).map(|d| (3, d)));
    v.extend([(4, 8), (5, 5), (8, 4), (1, 6), (6, 1), (7, 3)]);
    v
}

#[test]
fn best_first_alpha_beta_evaluates_exactly_the_minimal_tree() {
    assert_eq!(minimal(4, 8), 511);
    for (b, d) in shapes() {
        for seed in [1, 2] {
            let t = tree(b, d, seed, Order::BestFirst);
            assert_eq!(t.minimal_leaves(), minimal(b as u64, d as u32));
            let root_value = t.initial().value;
            for algo in ALPHA_BETA {
                let (v, stats) = run(&t, algo);
                assert_eq!(v, root_value, "{algo} b={b} d={d}");
                assert_eq!(
                    stats.leaves,
                    minimal(b as u64, d as u32),
                    "{algo} b={b} d={d} seed={seed}"
                );
            }
            for algo in [Algorithm::Minimax, Algorithm::Negamax] {
                let (v, stats) = run(&t, algo);
                assert_eq!(v, root_value, "{algo} b={b} d={d}");
                assert_eq!(stats.leaves, (b as u64).pow(d as u32), "{algo} b={b} d={d}");
            }
        }
    }
}

#[test]
fn best_first_first_child_is_strictly_best_everywhere() {
    // Every node's value is max(-child), reached by the first child only.
    for (b, d) in [(3, 5), (5, 3), (2, 8)] {
        let t = tree(b, d, 9, Order::BestFirst);
        let mut stack = vec![t.initial()];
        while let Some(pos) = stack.pop() {
            if pos.depth == 0 {
                continue;
            }
            let mut moves = <RandomTree as Game>::Moves::default();
            t.moves(&pos, &mut moves);
            let children: Vec<_> = moves.as_slice().iter().map(|&m| t.play(&pos, m)).collect();
            assert_eq!(-children[0].value, pos.value);
            for w in children.windows(2) {
                assert!(-w[0].value > -w[1].value, "ranks strictly ordered");
            }
            stack.extend(children);
        }
        assert_eq!(brute(&t, &t.initial()), t.initial().value);
    }
}

#[test]
fn worst_first_alpha_beta_prunes_nothing() {
    for (b, d) in shapes() {
        for seed in [1, 2, 3] {
            let t = tree(b, d, seed, Order::WorstFirst);
            assert!(t.prunes_nothing());
            let all = (b as u64).pow(d as u32);
            let root_value = t.initial().value;
            for algo in ALPHA_BETA.into_iter().chain([Algorithm::Veb]) {
                let (v, stats) = run(&t, algo);
                assert_eq!(v, root_value, "{algo} b={b} d={d}");
                assert_eq!(stats.leaves, all, "{algo} b={b} d={d} seed={seed}");
            }
        }
    }
}

#[test]
fn worst_first_is_the_reverse_of_a_perfect_order() {
    for (b, d) in [(3, 5), (4, 4), (2, 9)] {
        let t = tree(b, d, 5, Order::WorstFirst);
        let mut stack = vec![t.initial()];
        while let Some(pos) = stack.pop() {
            if pos.depth == 0 {
                continue;
            }
            let mut moves = <RandomTree as Game>::Moves::default();
            t.moves(&pos, &mut moves);
            let children: Vec<_> = moves.as_slice().iter().map(|&m| t.play(&pos, m)).collect();
            assert_eq!(-children[b - 1].value, pos.value, "the last child is best");
            for w in children.windows(2) {
                assert!(
                    -w[0].value < -w[1].value,
                    "each child better than the one before"
                );
            }
            stack.extend(children);
        }
        assert_eq!(brute(&t, &t.initial()), t.initial().value);
    }
}

#[test]
fn random_order_lies_strictly_between() {
    for (b, d) in [(3, 6), (4, 6), (5, 5), (2, 12), (8, 4)] {
        for seed in 0..4 {
            let t = tree(b, d, seed, Order::Random);
            let all = (b as u64).pow(d as u32);
            let least = minimal(b as u64, d as u32);
            for algo in ALPHA_BETA {
                let (_, stats) = run(&t, algo);
                assert!(
                    least < stats.leaves && stats.leaves < all,
                    "{algo} b={b} d={d} seed={seed}: {} not in ({least}, {all})",
                    stats.leaves
                );
            }
        }
    }
}

#[test]
fn every_algorithm_agrees_for_every_order() {
    for order in Order::ALL {
        for (b, d) in [(1, 5), (2, 7), (3, 5), (4, 4), (6, 3), (5, 1), (3, 0)] {
            for seed in 0..3 {
                let t = tree(b, d, seed, order);
                let expected = brute(&t, &t.initial());
                for algo in Algorithm::ALL {
                    let (v, stats) = run(&t, algo);
                    assert_eq!(v, expected, "{algo} {order} b={b} d={d} seed={seed}");
                    assert!(stats.nodes >= 1);
                }
                // Without a table too.
                for algo in Algorithm::ALL {
                    let r = cutoff::advanced::search(&t, t.initial(), algo, None);
                    assert_eq!(r.value, expected, "{algo} {order} without a table");
                }
            }
        }
    }
}

#[test]
fn depth_limited_searches_of_ordered_trees_are_exact() {
    // The horizon evaluation of an ordered tree is the node's assigned, exact value.
    for order in [Order::BestFirst, Order::WorstFirst] {
        let t = tree(3, 7, 11, order);
        let v = t.initial().value;
        for depth in 0..=7 {
            for algo in Algorithm::ALL {
                let r = cutoff::advanced::search(&t, t.initial(), algo, Some(depth));
                assert_eq!(r.value, v, "{algo} {order} depth {depth}");
            }
        }
    }
}

#[test]
fn values_stay_inside_the_range_at_the_extremes() {
    for order in Order::ALL {
        for (b, d) in [(64, 40), (2, 40), (64, 1), (1, 40), (17, 33)] {
            let t = tree(b, d, 3, order);
            let (lo, hi) = t.value_range();
            assert_eq!(lo, -hi);
            assert!(
                hi <= MAX_VALUE && MAX_VALUE < INF / 2,
                "{order} b={b} d={d}: {hi}"
            );
            // Random walks down the tree, always taking the last or the first child, or mixed.
            for walk in 0..8u64 {
                let mut pos = t.initial();
                assert!((lo..=hi).contains(&pos.value));
                while pos.depth > 0 {
                    let i = match walk {
                        0 => 0,
                        1 => b - 1,
                        2 => (pos.depth as usize % 2) * (b - 1),
                        3 => (1 - pos.depth as usize % 2) * (b - 1),
                        _ => (pos.hash % b as u64) as usize,
                    };
                    pos = t.play(&pos, i as u8);
                    assert!((lo..=hi).contains(&pos.value), "{order} b={b} d={d}");
                }
                assert_eq!(t.outcome(&pos), Some(pos.value));
            }
        }
    }
    // Best-first values fit the table's 16 bits even at the largest shape.
    let t = tree(64, 40, 1, Order::BestFirst);
    assert!(t.value_range().1 <= i16::MAX as Value);
    // The worst-first gaps needed there do not fit: they are capped, and the tree says so.
    assert!(!tree(64, 40, 1, Order::WorstFirst).prunes_nothing());
    assert!(tree(4, 12, 1, Order::WorstFirst).prunes_nothing());
    assert!(tree(2, 40, 1, Order::WorstFirst).prunes_nothing());
}

#[test]
fn moves_are_written_one_based() {
    let t = tree(5, 3, 1, Order::Random);
    let root = t.initial();
    assert_eq!(t.name(), "random");
    assert_eq!(t.max_plies(&root), 3);
    for text in ["1", "3", " 5 "] {
        let m = t.parse_move(&root, text).unwrap();
        assert_eq!(t.format_move(&root, m), text.trim());
    }
    for bad in ["0", "6", "-1", "x", ""] {
        let e = t.parse_move(&root, bad).unwrap_err();
        assert!(e.0.contains("1..=5"), "{e}");
    }
    let leaf = t.play(&t.play(&t.play(&root, 0), 1), 2);
    assert_eq!(leaf.depth, 0);
    assert!(t.parse_move(&leaf, "1").is_err());
    let mut moves = <RandomTree as Game>::Moves::default();
    t.moves(&leaf, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(t.to_move(&root).other(), t.to_move(&t.play(&root, 0)));
}

#[test]
fn bad_parameters_are_one_line_errors() {
    for (b, d, mention) in [
        (0, 3, "branching"),
        (MAX_BRANCHING + 1, 3, "branching"),
        (1000, 3, "branching"),
        (2, MAX_DEPTH + 1, "depth"),
        (2, 1000, "depth"),
    ] {
        let e = RandomTree::new(b, d, 1, Order::Random).unwrap_err();
        assert!(e.0.contains(mention), "{e}");
        assert!(!e.0.contains('\n'), "{e}");
    }
    assert!(RandomTree::new(MAX_BRANCHING, MAX_DEPTH, 1, Order::WorstFirst).is_ok());
    assert!(RandomTree::new(1, 0, 1, Order::BestFirst).is_ok());

    for (text, order) in [
        ("random", Order::Random),
        ("best-first", Order::BestFirst),
        ("worst-first", Order::WorstFirst),
    ] {
        assert_eq!(text.parse::<Order>().unwrap(), order);
        assert_eq!(order.to_string(), text);
    }
    let e = "best".parse::<Order>().unwrap_err();
    for name in ["random", "best-first", "worst-first", "'best'"] {
        assert!(e.0.contains(name), "{e}");
    }
}
