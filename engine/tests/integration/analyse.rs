//! `Solver::analyse`: every legal move's exact value, checked against brute-force minimax on
//! tic-tac-toe and against the published scores of a Connect Four test set; serial and
//! parallel agree; known values are taken instead of searches; a raised stop flag ends it.
//! Within a budget: every bound proved holds, the guess lies inside the bounds, the budget
//! is kept, and a budget large enough settles every move with the exact values.

use cutoff::games::perfect::connect4::{parse_suite, Connect4};
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::rng::SplitMix64;
use cutoff::solver::{Analysis, SolveError, Solver};
use cutoff::{Algorithm, Game, MoveBuffer, Notation, Value};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Brute-force minimax value of `pos` from its side to move (no table, no pruning).
fn minimax<G: Game>(game: &G, pos: G::Pos) -> Value {
    cutoff::advanced::search(game, pos, Algorithm::Minimax, None).value
}

/// Each move with its exact value; panics on a move left unsettled.
fn exact<M: Copy + std::fmt::Debug>(a: &Analysis<M>) -> Vec<(M, Value)> {
    a.moves
        .iter()
        .map(|m| (m.mv, m.exact().unwrap_or_else(|| panic!("{m:?} unsettled"))))
        .collect()
}

/// The legal moves of `pos` in the game's order.
fn legal<G: Game>(game: &G, pos: &G::Pos) -> Vec<G::Move> {
    let mut list = G::Moves::default();
    if game.outcome(pos).is_none() {
        game.moves(pos, &mut list);
    }
    list.as_slice().to_vec()
}

#[test]
fn tic_tac_toe_moves_match_brute_force_minimax() {
    let game = TicTacToe::new();
    let mut rng = SplitMix64::new(7);
    let mut checked = 0;
    for _ in 0..40 {
        // A random position a few plies in (a finished one has no moves to score).
        let mut pos = game.initial();
        let plies = rng.next_u64() % 6;
        for _ in 0..plies {
            let moves = legal(&game, &pos);
            if moves.is_empty() {
                break;
            }
            pos = game.play(&pos, moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        let a = Solver::new(&game)
            .position(pos)
            .threads(1)
            .table_mib(1)
            .analyse()
            .unwrap();
        assert!(!a.stopped);
        let mut expected: Vec<(u8, Value)> = legal(&game, &pos)
            .into_iter()
            .map(|mv| (mv, -minimax(&game, game.play(&pos, mv))))
            .collect();
        // Cells are written as numbers, so analyse lists them in that order.
        expected.sort_by_key(|&(mv, _)| game.format_move(&pos, mv).parse::<u64>().unwrap());
        assert_eq!(exact(&a), expected, "{pos:?}");
        if let Some(v) = game.outcome(&pos) {
            assert!(a.moves.is_empty(), "a finished position ({v}) has no moves");
        } else {
            assert_eq!(a.best().map(|(_, v)| v), Some(minimax(&game, pos)));
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} positions in play");
}

#[test]
fn connect4_best_move_reaches_the_published_score_serial_and_parallel() {
    let text = include_str!("../../../positions/connect4/end-easy.txt");
    let lines = parse_suite(text).unwrap();
    for line in lines.iter().step_by(97).take(8) {
        let game = &line.game;
        let serial = Solver::new(game).threads(1).table_mib(8).analyse().unwrap();
        assert_eq!(
            serial.best().map(|(_, v)| v),
            Some(line.expected),
            "{}",
            line.moves
        );
        let parallel = Solver::new(game).threads(2).table_mib(8).analyse().unwrap();
        assert_eq!(parallel.moves, serial.moves, "{}", line.moves);
        // Each move's value is the negated exact value of the position it leads to.
        for (mv, v) in exact(&serial) {
            let child = Connect4::from_moves(&format!("{}{}", line.moves, mv + 1)).unwrap();
            let out = Solver::new(&child).threads(1).table_mib(8).run().unwrap();
            assert_eq!(
                Some(-v),
                out.verdict.value(),
                "{} then {}",
                line.moves,
                mv + 1
            );
        }
    }
}

#[test]
fn known_values_replace_searches() {
    let game = Connect4::from_moves("4453").unwrap();
    let known = |_: &<Connect4 as Game>::Pos| Some(3);
    let a = Solver::new(&game)
        .threads(1)
        .table_mib(1)
        .known_values(&known)
        .analyse()
        .unwrap();
    assert_eq!(a.moves.len(), 7);
    assert!(exact(&a).iter().all(|&(_, v)| v == -3));
    assert_eq!(a.nodes, 0);
}

#[test]
fn a_raised_stop_flag_ends_it_early() {
    let stop = AtomicBool::new(true);
    let game = Connect4::from_moves("").unwrap();
    let a = Solver::new(&game)
        .threads(1)
        .table_mib(1)
        .stop_flag(&stop)
        .analyse()
        .unwrap();
    assert!(a.stopped);
    assert!(a.moves.is_empty());
}

#[test]
fn settings_analyse_cannot_honour_are_refused() {
    let game = TicTacToe::new();
    let refused = |r: Result<_, SolveError>| {
        assert!(matches!(r, Err(SolveError::Settings(_))));
    };
    refused(Solver::new(&game).depth(Some(3)).analyse());
    refused(Solver::new(&game).weak(true).analyse());
    refused(Solver::new(&game).algorithm(Algorithm::Pvs).analyse());
    refused(Solver::new(&game).threads(0).analyse());
}

#[test]
fn a_budget_large_enough_settles_every_move_exactly() {
    let game = TicTacToe::new();
    let mut rng = SplitMix64::new(11);
    for _ in 0..20 {
        let mut pos = game.initial();
        for _ in 0..rng.next_u64() % 4 {
            let moves = legal(&game, &pos);
            pos = game.play(&pos, moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        let plain = Solver::new(&game).position(pos).threads(1).table_mib(1);
        let want = exact(&plain.analyse().unwrap());
        for budget in [
            Solver::new(&game).nodes(Some(1 << 40)),
            Solver::new(&game).time(Some(Duration::from_secs(3600))),
        ] {
            let a = budget
                .position(pos)
                .threads(1)
                .table_mib(1)
                .analyse()
                .unwrap();
            assert!(a.settled() && !a.stopped);
            assert_eq!(exact(&a), want, "{pos:?}");
        }
    }
}

/// Connect Four positions of Begin-Medium (hard enough that small budgets leave moves open),
/// each with its moves' exact values.
fn open_positions() -> Vec<(Connect4, Vec<(u8, Value)>)> {
    let text = include_str!("../../../positions/connect4/begin-medium.txt");
    let lines = parse_suite(text).unwrap();
    let tt = cutoff::tt::TranspositionTable::new(16);
    lines
        .iter()
        .step_by(61)
        .take(4)
        .map(|l| {
            let a = Solver::new(&l.game)
                .threads(1)
                .table(&tt)
                .analyse()
                .unwrap();
            (l.game.clone(), exact(&a))
        })
        .collect()
}

#[test]
fn a_small_budget_proves_only_true_bounds_and_keeps_to_it() {
    let mut left_open = 0;
    for (game, want) in open_positions() {
        for (budget, threads) in [(3_000u64, 1), (40_000, 1), (300_000, 1), (300_000, 2)] {
            let a = Solver::new(&game)
                .threads(threads)
                .table_mib(4)
                .nodes(Some(budget))
                .analyse()
                .unwrap();
            assert!(!a.stopped);
            assert_eq!(a.moves.len(), want.len());
            // One thread stops at its cap, within a check's few thousand nodes; several
            // overshoot by a few nodes each.
            assert!(a.nodes <= budget + 8_192, "{} nodes for {budget}", a.nodes);
            for (m, &(mv, v)) in a.moves.iter().zip(&want) {
                assert_eq!(m.mv, mv);
                assert!(m.lo <= v && v <= m.hi, "{m:?} but the value is {v}");
                assert!(m.lo <= m.guess && m.guess <= m.hi, "{m:?}");
                if m.exact().is_none() {
                    left_open += 1;
                }
            }
            let value = want.iter().map(|&(_, v)| v).max().unwrap();
            let (lo, hi) = a.bounds().unwrap();
            assert!(
                lo <= value && value <= hi,
                "{lo}..{hi} but the value is {value}"
            );
            let (mv, guess) = a.best().unwrap();
            let chosen = a.moves.iter().find(|m| m.mv == mv).unwrap();
            assert_eq!(chosen.guess, guess);
            // No move was proved better than the one chosen.
            assert!(a.moves.iter().all(|m| m.lo <= chosen.hi), "{:?}", a.moves);
        }
    }
    assert!(
        left_open > 0,
        "every budget settled everything: the test tests nothing"
    );
}

#[test]
fn a_raised_stop_flag_ends_a_budgeted_analysis() {
    let stop = AtomicBool::new(true);
    let game = Connect4::from_moves("").unwrap();
    let a = Solver::new(&game)
        .threads(1)
        .table_mib(1)
        .time(Some(Duration::from_secs(60)))
        .stop_flag(&stop)
        .analyse()
        .unwrap();
    assert!(a.stopped);
}
