//! The control-game judge format: `cutoff_app::judge::control`. The answers come one per
//! announced board. Inputs over 1,100 bytes are skipped: the judge solves every board it
//! reads, and a sparse random graph of 50 or more vertices can take minutes (the game is
//! PSPACE-complete); 1,100 bytes hold at most a 32-vertex matrix, solved in milliseconds.
#![no_main]

use cutoff_app::judge::control;
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > 1100 {
        return;
    }
    let text = text(data);
    match control(&text) {
        Ok(answers) => {
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let k: usize = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .and_then(|l| l.parse().ok())
                .expect("an accepted input starts with the board count");
            assert_eq!(answers.len(), k);
        }
        // Holds today: the judge quotes at most 30 characters, escaped.
        Err(e) => check_message("judge::control", &e.0, STRICT),
    }
});
