//! The null-window solver within a window: the value where it lies strictly inside, else the
//! bound proved on the right side, serially and on two threads, against exact solves. And
//! depth-limited values that do not depend on the windows a search happens to use.

use cutoff::games::perfect::connect4::parse_suite;
use cutoff::solver::{Solver, Verdict};

#[test]
fn windowed_solves_give_the_value_or_the_right_bound() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/connect4/middle-easy.txt"
    ))
    .expect("the test set is in positions/connect4");
    let lines = parse_suite(&text).expect("it parses");
    let mut seen = [0usize; 3];
    for (k, l) in lines.iter().take(60).enumerate() {
        let v = l.expected;
        // Windows around, below and above the value, in turn.
        let (a, b) = match k % 3 {
            0 => (v - 2, v + 1),
            1 => (v + 1, v + 4),
            _ => (v - 5, v - 1),
        };
        for threads in [1, 2] {
            let out = Solver::new(&l.game)
                .threads(threads)
                .table_mib(8)
                .window(Some((a, b)))
                .run()
                .expect("the solve runs");
            match out.verdict {
                Verdict::Exact(x) => {
                    assert_eq!(x, v, "{} in ({a}, {b})", l.moves);
                    assert!(a < v && v < b);
                    seen[0] += 1;
                }
                Verdict::Bounds { hi, .. } if hi <= a => {
                    assert!(v <= hi, "{}: {v} above the upper bound {hi}", l.moves);
                    assert!(v <= a);
                    seen[1] += 1;
                }
                Verdict::Bounds { lo, .. } => {
                    assert!(
                        lo >= b && v >= lo,
                        "{}: {v} below the lower bound {lo}",
                        l.moves
                    );
                    seen[2] += 1;
                }
                other => panic!("{}: {other:?}", l.moves),
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "every case met: {seen:?}");
}

#[test]
fn a_window_needs_the_exact_null_window_solver() {
    let game = cutoff::games::perfect::connect4::Connect4::from_moves("4453").unwrap();
    for s in [
        Solver::new(&game).weak(true),
        Solver::new(&game).algorithm(cutoff::Algorithm::Pvs),
    ] {
        assert!(s.window(Some((-1, 1))).table_mib(1).run().is_err());
    }
}

/// A depth-limited value is one function of the position and the depth, whatever windows the
/// search meets on the way: PVS with the full window, the bisection of null windows, MTD(f),
/// and windowed bisections (fail-hard: the value clamped into the window) all agree. Before
/// the node routine clamped its value into the game's bounds, a claimeven bound of -1 over
/// leaves evaluated 0 made the result window-dependent (53 of 2,160 cases here disagreed,
/// Middle-Medium's `4642332434166445` among them), and Lazy SMP, whose threads' table entries
/// change the windows, gave another value now and then.
#[test]
fn depth_limited_values_do_not_depend_on_the_window() {
    use cutoff::advanced::Searcher;
    use cutoff::games::perfect::connect4::Connect4;
    use cutoff::tt::TranspositionTable;
    use cutoff::Algorithm;
    use cutoff::Game;
    let mut positions = vec!["4642332434166445".to_string()];
    for set in ["middle-medium", "middle-easy", "begin-hard", "end-easy"] {
        let path = format!(
            "{}/../positions/connect4/{set}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).expect("the test set is in positions/connect4");
        let lines = parse_suite(&text).expect("it parses");
        positions.extend(lines.iter().take(15).map(|l| l.moves.clone()));
    }
    let mut cases = 0;
    for moves in &positions {
        let game = Connect4::from_moves(moves).expect("a legal position");
        let root = game.initial();
        for depth in 1..=9 {
            let tt = TranspositionTable::new(2);
            let search = || Searcher::new(&game, root, Some(depth)).table(&tt);
            let f = search().run(Algorithm::Pvs).0;
            for algo in [Algorithm::Solve, Algorithm::Mtdf] {
                tt.reset();
                assert_eq!(
                    search().run(algo).0,
                    f,
                    "{moves} at depth {depth}, {algo:?}"
                );
            }
            for (a, b) in [
                (f - 1, f + 1),
                (f - 2, f),
                (f, f + 2),
                (-1, 1),
                (0, 2),
                (-2, 0),
            ] {
                tt.reset();
                let w = search().window(Some((a, b))).run(Algorithm::Solve).0;
                assert_eq!(
                    w,
                    f.clamp(a, b),
                    "{moves} at depth {depth} in ({a}, {b}): {f}"
                );
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 61 * 9);
}
