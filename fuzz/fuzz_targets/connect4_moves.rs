//! Connect Four move strings: `Connect4::from_moves`. A parsed position, its moves formatted
//! back one by one with `format_move`, parses to the same board; the mirrored string gives
//! the mirrored board; the stone count is the number of columns (digits, or comma-separated).
#![no_main]

use cutoff::games::perfect::connect4::Connect4;
use cutoff::{Game, Notation};
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let game = match Connect4::from_moves(&text) {
        Ok(g) => g,
        Err(e) => return check_message("Connect4::from_moves", &e.0, STRICT),
    };
    let board = game.board();
    let moves = text.trim();
    // The columns as given: separated by commas, or one digit each.
    let columns: Vec<String> = if moves.contains(',') {
        moves.split(',').map(|c| c.trim().to_string()).collect()
    } else {
        moves.chars().map(String::from).collect()
    };
    let columns: Vec<String> = columns.into_iter().filter(|c| !c.is_empty()).collect();
    assert_eq!(board.moves as usize, columns.len());
    // Replay through the notation: every move parses, and formats back to itself.
    let g = Connect4::new();
    let mut pos = g.initial();
    let mut written = String::new();
    for col in &columns {
        let mv = g
            .parse_move(&pos, col)
            .unwrap_or_else(|e| panic!("{moves}: move '{col}': {e}"));
        written.push_str(&g.format_move(&pos, mv));
        pos = g.play(&pos, mv);
    }
    assert_eq!(pos, board);
    let again = Connect4::from_moves(&written).expect("written back, it parses");
    assert_eq!(again.board(), board);
    // The mirror image.
    let image: String = written
        .chars()
        .map(|c| char::from(b'8' - (c as u8 - b'0')))
        .collect();
    let mirrored = Connect4::from_moves(&image).expect("the mirror image parses");
    assert_eq!(mirrored.board(), g.mirror(&board));
    assert_eq!(g.mirror(&g.mirror(&board)), board);
    assert_eq!(mirrored.board().key(), board.mirrored_key());
});
