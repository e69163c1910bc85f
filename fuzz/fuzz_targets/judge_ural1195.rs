//! The URAL 1195 judge format: `cutoff_app::judge::ural1195`. An accepted board gives one of
//! the three answers, and the same board written back (rows of `X`, `O`, `#`) gives the same.
#![no_main]

use cutoff_app::judge::ural1195;
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let answer = match ural1195(&text) {
        Ok(a) => a,
        // Holds today: the judge quotes at most 30 characters, escaped.
        Err(e) => return check_message("ural1195", &e.0, STRICT),
    };
    assert!(["Crosses win", "Ouths win", "Draw"].contains(&answer));
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(ural1195(&rows.join("\n")), Ok(answer));
});
