//! Test-set files of `<moves> <score>` lines: `connect4::parse_suite`. Every parsed line
//! names a non-blank, non-comment line of the input, its move string parses on its own to the
//! same board, and the lines come in file order; the lines written back parse to the same.
#![no_main]

use cutoff::games::perfect::connect4::{parse_suite, Connect4};
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let suite = match parse_suite(&text) {
        Ok(s) => s,
        Err(e) => return check_message("parse_suite", &e.0, STRICT),
    };
    assert!(!suite.is_empty());
    // The parser skips a byte-order mark at the start.
    let lines: Vec<&str> = text
        .strip_prefix('\u{feff}')
        .unwrap_or(&text)
        .lines()
        .collect();
    let mut last = 0;
    let mut written = String::new();
    for s in &suite {
        assert!(s.line > last, "lines out of order");
        last = s.line;
        let raw = lines[s.line - 1].trim();
        assert!(!raw.is_empty() && !raw.starts_with('#'));
        assert!(
            raw.starts_with(s.moves.as_str()),
            "{raw:?} vs {:?}",
            s.moves
        );
        let alone = Connect4::from_moves(&s.moves).expect("the move string parses alone");
        assert_eq!(alone.board(), s.game.board());
        written.push_str(&format!("{} {}\n", s.moves, s.expected));
    }
    let again = parse_suite(&written).expect("written back, the suite parses");
    assert_eq!(again.len(), suite.len());
    for (a, b) in again.iter().zip(&suite) {
        assert_eq!((&a.moves, a.expected), (&b.moves, b.expected));
        assert_eq!(a.game.board(), b.game.board());
    }
});
