//! `Solver::analyse`: every legal move's exact value, checked against brute-force minimax on
//! tic-tac-toe and against the published scores of a Connect Four test set; serial and
//! parallel agree; known values are taken instead of searches; a raised stop flag ends it.

use cutoff::games::perfect::connect4::{parse_suite, Connect4};
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::rng::SplitMix64;
use cutoff::solver::{SolveError, Solver};
use cutoff::{Algorithm, Game, MoveBuffer, Notation, Value};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Brute-force minimax value of `pos` from its side to move (no table, no pruning).
fn minimax<G: Game>(game: &G, pos: G::Pos) -> Value {
    cutoff::advanced::search(game, pos, Algorithm::Minimax, None).value
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
        assert_eq!(a.moves, expected, "{pos:?}");
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
        for &(mv, v) in &serial.moves {
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
    assert!(a.moves.iter().all(|&(_, v)| v == -3));
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
    refused(
        Solver::new(&game)
            .time(Some(Duration::from_secs(1)))
            .analyse(),
    );
    refused(Solver::new(&game).nodes(Some(10)).analyse());
    refused(Solver::new(&game).depth(Some(3)).analyse());
    refused(Solver::new(&game).weak(true).analyse());
    refused(Solver::new(&game).algorithm(Algorithm::Pvs).analyse());
    refused(Solver::new(&game).threads(0).analyse());
}
