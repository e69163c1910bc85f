//! What a front end shows of a game: values explained in words ([`Notation::explain_value`])
//! and board diagrams ([`Notation::diagram`]).

use cutoff::advanced::Searcher;
use cutoff::games::perfect::connect4::Connect4;
use cutoff::games::perfect::control::Control;
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::sim::Sim;
use cutoff::games::perfect::takeaway::TakeAway;
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::games::perfect::tree::Tree;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game, Notation, Player};

/// Win, draw and loss by the sign, for every game whose values are -1, 0 and +1.
#[test]
fn win_draw_loss_games_explain_by_sign() {
    fn check<G: Notation>(game: &G) {
        let pos = game.initial();
        assert_eq!(game.value_range(), (-1, 1), "{}", game.name());
        assert_eq!(game.explain_value(&pos, 1), "win");
        assert_eq!(game.explain_value(&pos, 0), "draw");
        assert_eq!(game.explain_value(&pos, -1), "loss");
    }
    check(&TicTacToe::new());
    check(&TakeAway::matchsticks(6).unwrap());
    check(&TakeAway::stones(4).unwrap());
    check(&Control::parse("011/101/110").unwrap());
    check(&Sim::new());
}

/// Other games say the number.
#[test]
fn random_trees_explain_the_number() {
    let game = RandomTree::new(3, 4, 7, Order::Random).unwrap();
    let pos = game.initial();
    assert_eq!(game.explain_value(&pos, 37), "37");
    assert_eq!(game.explain_value(&pos, -5), "-5");
    assert_eq!(game.explain_value(&pos, 0), "0");
}

/// A hand-written tree explains a value in the leaves' scale: MAX's view, whoever moves.
#[test]
fn trees_explain_the_leaf_value() {
    let max_root = Tree::parse("(3 5) (2 9)", Player::First).unwrap();
    assert_eq!(
        max_root.explain_value(&max_root.initial(), 3),
        "leaf value 3"
    );
    let min_root = Tree::parse("(3 5) (2 9)", Player::Second).unwrap();
    // At a MIN node a value of 3 for the side to move is -3 for MAX.
    assert_eq!(
        min_root.explain_value(&min_root.initial(), 3),
        "leaf value -3"
    );
}

/// Connect Four's scores count the winner's own stones: `22 - k` for a win with the k-th.
#[test]
fn connect4_scores_name_the_winning_stone() {
    let game = Connect4::new();
    let pos = game.initial();
    let cases = [
        (21, "win with its 1st stone"),
        (20, "win with its 2nd stone"),
        (19, "win with its 3rd stone"),
        (18, "win with its 4th stone"),
        (11, "win with its 11th stone"),
        (10, "win with its 12th stone"),
        (9, "win with its 13th stone"),
        (1, "win with its 21st stone"),
        (0, "draw"),
        (-1, "loss: the opponent's 21st stone wins"),
        (-2, "loss: the opponent's 20th stone wins"),
        (-18, "loss: the opponent's 4th stone wins"),
        (-21, "loss: the opponent's 1st stone wins"),
    ];
    for (value, words) in cases {
        assert_eq!(game.explain_value(&pos, value), words, "score {value}");
    }
}

/// On real positions: X wins at once with its 4th stone (column 1 after 121212), and at the
/// end of that game the loser to move reads the same stone.
#[test]
fn connect4_explains_solved_positions() {
    let game = Connect4::from_moves("121212").unwrap();
    let pos = game.initial();
    let child = game.play(&pos, 0);
    // The game is over after the move: the loser to move sees -18.
    let outcome = game.outcome(&child).expect("four in a row");
    assert_eq!(outcome, -18);
    assert_eq!(
        game.explain_value(&child, outcome),
        "loss: the opponent's 4th stone wins"
    );
    let tt = TranspositionTable::new(1);
    let (value, best) = Searcher::new(&game, pos, None)
        .table(&tt)
        .run(Algorithm::Solve);
    assert_eq!((value, best), (18, Some(0)));
    assert_eq!(game.explain_value(&pos, value), "win with its 4th stone");
}

/// The Connect Four diagram: top row first, X the first player, columns numbered.
#[test]
fn connect4_diagram() {
    let game = Connect4::from_moves("4453").unwrap();
    let expected = [
        " . . . . . . .",
        " . . . . . . .",
        " . . . . . . .",
        " . . . . . . .",
        " . . . O . . .",
        " . . O X X . .",
        " 1 2 3 4 5 6 7",
    ]
    .join("\n");
    assert_eq!(game.diagram(&game.initial()).unwrap(), expected);
    // With O to move the colours stay with the players.
    let game = Connect4::from_moves("445").unwrap();
    let d = game.diagram(&game.initial()).unwrap();
    assert!(d.contains(" . . . X X . ."), "{d}");
    assert!(d.contains(" . . . O . . ."), "{d}");
}

/// The tic-tac-toe diagram: the marks, and each empty cell's number.
#[test]
fn tictactoe_diagram() {
    let game = TicTacToe::from_board("XX./OO./...").unwrap();
    let expected = [
        " X | X | 3",
        "---+---+---",
        " O | O | 6",
        "---+---+---",
        " 7 | 8 | 9",
    ]
    .join("\n");
    assert_eq!(game.diagram(&game.initial()).unwrap(), expected);
}

/// Games without a diagram say so.
#[test]
fn other_games_have_no_diagram() {
    let stones = TakeAway::stones(4).unwrap();
    assert!(stones.diagram(&stones.initial()).is_none());
    let sim = Sim::new();
    assert!(sim.diagram(&sim.initial()).is_none());
    let control = Control::parse("011/101/110").unwrap();
    assert!(control.diagram(&control.initial()).is_none());
}
