//! The parsers on hostile input (issue 9, part 3): a byte-order mark is forgiven, a blank
//! position is an error, and every error quotes its token cut short and escaped.

use cutoff::game::{quote, QUOTE_BYTES};
use cutoff::games::perfect::connect4::{parse_suite, Connect4};
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::sim::Sim;
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::games::perfect::tree::Tree;
use cutoff::{Game, Notation, Player};

/// Checks an error message: one line, short, no control characters, mentioning `mentions`.
fn check_message(msg: &str, mentions: &str) {
    assert!(!msg.chars().any(char::is_control), "{msg:?}");
    assert!(msg.len() <= 200, "{} bytes: {msg}", msg.len());
    assert!(
        msg.contains(mentions),
        "{msg:?} should mention {mentions:?}"
    );
}

#[test]
fn a_byte_order_mark_starts_a_tree_file() {
    let with = Tree::parse("\u{feff}(3 5) (2 9)", Player::First).expect("parses");
    let without = Tree::parse("(3 5) (2 9)", Player::First).unwrap();
    assert_eq!(with.len(), without.len());
    // Positions in errors count from after the mark.
    let e = Tree::parse("\u{feff}(1 x)", Player::First).unwrap_err();
    check_message(&e.0, "bad token 'x' at 1:4");
    // Anywhere else it is a bad token, shown escaped.
    let e = Tree::parse("(1 \u{feff})", Player::First).unwrap_err();
    check_message(&e.0, r"bad token '\u{feff}'");
}

#[test]
fn a_byte_order_mark_starts_a_suite_file() {
    let lines = parse_suite("\u{feff}2252576253462244111563365343671351441 -1\n").expect("parses");
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].expected, -1);
}

#[test]
fn a_blank_position_is_an_error_but_the_empty_string_is_the_empty_board() {
    assert_eq!(
        Connect4::from_moves("").unwrap().initial(),
        Connect4::new().initial()
    );
    assert_eq!(
        Connect4::from_moves(" 44 ").unwrap().initial(),
        Connect4::from_moves("44").unwrap().initial()
    );
    for blank in [" ", "\t", "\n", "   "] {
        let e = Connect4::from_moves(blank).unwrap_err();
        check_message(&e.0, "blank position");
        let e = Sim::from_moves(blank).unwrap_err();
        check_message(&e.0, "blank position");
    }
    assert!(Sim::from_moves(" , ").is_err());
    assert_eq!(Sim::from_moves("").unwrap().initial(), Sim::new().initial());
    assert!(Sim::from_moves(" 12 ").is_ok());
}

#[test]
fn errors_quote_long_tokens_cut_short() {
    let big = "x".repeat(10 << 20);
    let e = Tree::parse(&format!("(1 {big})"), Player::First).unwrap_err();
    check_message(&e.0, "(10485760 characters)");
    let Err(e) = Tree::parse(&format!("(1 9{big}:2)"), Player::First) else {
        panic!("a bad label parsed");
    };
    check_message(&e.0, "bad label '9xxx");
    let digits = "9".repeat(1 << 20);
    let e = Tree::parse(&format!("(1 {digits})"), Player::First).unwrap_err();
    check_message(&e.0, "out of range");
    let e = parse_suite(&format!("44 1 {big}\n")).unwrap_err();
    check_message(&e.0, "line 1");
    let e = parse_suite(&format!("44 {big}\n")).unwrap_err();
    check_message(&e.0, "bad score");
    let e = Sim::from_moves(&format!("12 {big}")).unwrap_err();
    check_message(&e.0, "bad edge");
    let g = Connect4::new();
    let e = g.parse_move(&g.initial(), &big).unwrap_err();
    check_message(&e.0, "bad column");
    let t = TicTacToe::new();
    let e = t.parse_move(&t.initial(), &"9".repeat(1000)).unwrap_err();
    check_message(&e.0, "out of range");
    let r = RandomTree::new(2, 3, 1, Order::Random).unwrap();
    let e = r.parse_move(&r.initial(), &big).unwrap_err();
    check_message(&e.0, "invalid move");
    let e = big.parse::<Order>().unwrap_err();
    check_message(&e.0, "unknown order");
    let e = big.parse::<cutoff::Algorithm>().unwrap_err();
    check_message(&e, "unknown algorithm");
    let e = big.parse::<cutoff::solver::Mode>().unwrap_err();
    check_message(&e, "unknown parallel mode");
    let tree = Tree::parse("(1 2)", Player::First).unwrap();
    let e = tree.parse_move(&tree.initial(), &big).unwrap_err();
    check_message(&e.0, "is not a child");
}

#[test]
fn errors_escape_control_characters() {
    let esc = "\u{1b}[2J";
    let e = Connect4::from_moves(&format!("4{esc}")).unwrap_err();
    check_message(&e.0, r"bad move '\x1b' at position 2");
    let e = TicTacToe::from_board(&format!("XO{esc}......")).unwrap_err();
    check_message(&e.0, r"invalid character '\x1b'");
    let e = Tree::parse(&format!("(1 {esc})"), Player::First).unwrap_err();
    check_message(&e.0, r"bad token '\x1b[2J'");
    let e = parse_suite(&format!("44 {esc}\n")).unwrap_err();
    check_message(&e.0, r"bad score '\x1b[2J'");
    assert_eq!(quote(esc), r"\x1b[2J");
    assert!(quote(&"\u{1b}".repeat(1000)).len() <= QUOTE_BYTES + 30);
}
