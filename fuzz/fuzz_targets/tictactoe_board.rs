//! Tic-tac-toe boards: `TicTacToe::from_board`. A parsed board has disjoint X and O cells in
//! counts a game reaches; written back in each notation (rows with '/', nine cells with
//! spaces, rows with newlines) it parses to the same board; every legal move reads back
//! through `parse_move(format_move(..))`. Boards with five or fewer empty cells are searched
//! by every algorithm, which must agree with minimax.
#![no_main]

use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::advanced::search;
use cutoff::Algorithm;
use cutoff::{Game, MoveBuffer, Notation, Player};
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let game = match TicTacToe::from_board(&text) {
        Ok(g) => g,
        Err(e) => return check_message("TicTacToe::from_board", &e.0, STRICT),
    };
    let b = game.board();
    assert_eq!(b.x & b.o, 0);
    assert_eq!((b.x | b.o) >> 9, 0);
    let (nx, no) = (b.x.count_ones(), b.o.count_ones());
    assert!(nx == no || nx == no + 1);
    assert_eq!(
        b.side(),
        if nx == no {
            Player::First
        } else {
            Player::Second
        }
    );
    assert_eq!(b.empty().count_ones(), 9 - nx - no);

    let rows = b.notation();
    let cells: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
    let spaced: String = cells.iter().map(|c| format!("{c} ")).collect();
    let lines = rows.replace('/', "\n");
    let joined: String = cells.iter().collect();
    for written in [&rows, &spaced, &lines, &joined] {
        let again = TicTacToe::from_board(written)
            .unwrap_or_else(|e| panic!("{text:?} written as {written:?} does not parse: {e}"));
        assert_eq!(again.board(), b, "{written:?}");
    }

    let pos = game.initial();
    if game.outcome(&pos).is_none() {
        let mut moves = <TicTacToe as Game>::Moves::default();
        game.moves(&pos, &mut moves);
        assert_eq!(moves.len() as u32, b.empty().count_ones());
        for &mv in moves.as_slice() {
            let s = game.format_move(&pos, mv);
            assert_eq!(game.parse_move(&pos, &s), Ok(mv), "move {s}");
        }
    }
    if b.empty().count_ones() <= 5 {
        let want = search(&game, pos, Algorithm::Minimax, None).value;
        for algo in Algorithm::ALL {
            assert_eq!(
                search(&game, pos, algo, None).value,
                want,
                "{algo:?} on {rows}"
            );
        }
    }
});
