//! The null-window solver within a window: the value where it lies strictly inside, else the
//! bound proved on the right side, serially and on two threads, against exact solves.

use cutoff::games::connect4::parse_suite;
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
    let game = cutoff::games::connect4::Connect4::from_moves("4453").unwrap();
    for s in [
        Solver::new(&game).weak(true),
        Solver::new(&game).algorithm(cutoff::Algorithm::Pvs),
    ] {
        assert!(s.window(Some((-1, 1))).table_mib(1).run().is_err());
    }
}
