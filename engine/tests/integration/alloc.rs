//! The searches allocate nothing per node: a counting global allocator watches every
//! [`Searcher::run`] on full tic-tac-toe and on a random tree, for every algorithm.
//!
//! The counter is per thread (the test harness runs other tests on other threads at the same
//! time) and lives in a `const`-initialised thread-local `Cell`, so counting never allocates.

use cutoff::advanced::Searcher;
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game};

use crate::common;
use common::counting::counted;

#[test]
fn the_counter_counts() {
    let (v, n) = counted(|| {
        let v: Vec<u64> = Vec::with_capacity(std::hint::black_box(100));
        std::hint::black_box(v)
    });
    assert_eq!(v.capacity(), 100);
    assert_eq!(n, 1, "one Vec, one allocation");
    let (_, n) = counted(|| {
        let mut v: Vec<u64> = Vec::new();
        for i in 0..1000 {
            v.push(std::hint::black_box(i));
        }
        std::hint::black_box(v.len())
    });
    assert!(n >= 2, "growing a Vec reallocates: {n}");
    let (_, n) = counted(|| std::hint::black_box(3 + 4));
    assert_eq!(n, 0);
}

/// Builds a searcher for `game` (allocating), then counts the allocations of one run of each
/// algorithm; returns (algorithm, nodes) pairs after asserting there were none.
fn no_allocation<G: Game>(game: &G, what: &str) -> Vec<(Algorithm, u64)> {
    let tt = TranspositionTable::new(1);
    let mut nodes = Vec::new();
    for algo in Algorithm::ALL {
        let mut s = Searcher::new(game, game.initial(), None);
        if algo.uses_table() {
            s = s.table(&tt);
        }
        tt.clear();
        let ((value, best), n) = counted(|| s.run(algo));
        assert_eq!(n, 0, "{algo} on {what} allocated {n} times");
        assert!(best.is_some(), "{algo} on {what}");
        // A second run on the same searcher allocates nothing either.
        tt.clear();
        let ((again, _), n) = counted(|| s.run(algo));
        assert_eq!(n, 0, "{algo}'s second run on {what} allocated {n} times");
        assert_eq!(again, value);
        nodes.push((algo, s.stats().nodes));
    }
    nodes
}

#[test]
fn searches_on_full_tictactoe_allocate_nothing() {
    let game = TicTacToe::new();
    let nodes = no_allocation(&game, "tic-tac-toe");
    for (algo, n) in nodes {
        match algo {
            // The full tree: 549,946 nodes.
            Algorithm::Minimax | Algorithm::Negamax => assert_eq!(n, 549_946, "{algo}"),
            // (Theory: tic-tac-toe has none, so it runs PVS, without the table.)
            _ if !algo.uses_table() && algo != Algorithm::Theory => {
                assert!(n > 10_000, "{algo}: {n} nodes")
            }
            // The table and the game's knowledge cut tic-tac-toe down to a few thousand nodes.
            _ => assert!(n > 1_000, "{algo}: {n} nodes"),
        }
    }
}

#[test]
fn searches_on_random_trees_allocate_nothing() {
    for order in Order::ALL {
        let tree = RandomTree::new(4, 8, 1, order).expect("valid parameters");
        let nodes = no_allocation(&tree, &format!("a {order} tree b=4 d=8"));
        for (algo, n) in nodes {
            // 87,381 nodes in all; perfect order leaves about a thousand to the pruning searches.
            assert!(n > 1_000, "{algo} {order}: {n} nodes");
            if order == Order::Random && !algo.uses_table() && algo != Algorithm::Theory {
                assert!(n > 10_000, "{algo} {order}: {n} nodes");
            }
        }
    }
    // Deeper, so that the table-driven searches visit more than 10,000 nodes too.
    let tree = RandomTree::new(4, 10, 2, Order::Random).expect("valid parameters");
    for (algo, n) in no_allocation(&tree, "a random tree b=4 d=10") {
        assert!(n > 10_000, "{algo}: {n} nodes");
    }
}
