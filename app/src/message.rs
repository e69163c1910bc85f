//! The text of messages: file names fit to quote, and the last-resort guard on every error
//! line the program prints, on standard error or in the server's answers.

pub use cutoff::files::shown_path;

/// The last-resort guard on every error line the program prints: control characters
/// escaped (so no message can move the cursor or recolour a terminal), and a line over
/// [`MAX_ERROR_BYTES`] bytes shortened, first by cutting its words of more than 60 bytes
/// (one long token, such as a value clap quotes whole, then leaves room for the rest of the
/// message), then by cutting the line itself, `...` included. The messages quote their
/// tokens with [`cutoff::game::quote`] already; this catches whatever one forgot.
pub fn error_line(msg: &str) -> String {
    use cutoff::game::{quote_max, QUOTE_BYTES};
    let escaped = quote_max(msg, usize::MAX);
    if escaped.len() <= MAX_ERROR_BYTES {
        return escaped;
    }
    let shortened = escaped
        .split(' ')
        .map(|word| {
            if word.len() > 60 {
                quote_max(word, QUOTE_BYTES)
            } else {
                word.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if shortened.len() <= MAX_ERROR_BYTES {
        return shortened;
    }
    let mut cut = MAX_ERROR_BYTES - 3;
    while !shortened.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &shortened[..cut])
}

/// The longest error line [`error_line`] lets through, in bytes.
pub const MAX_ERROR_BYTES: usize = 200;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_lines_are_short_and_printable() {
        assert_eq!(error_line("error: plain"), "error: plain");
        assert_eq!(error_line("a\u{1b}[2Jb\nc"), r"a\x1b[2Jb\nc");
        let long = format!("error: unknown game '{}' (expected x)", "g".repeat(100_000));
        let line = error_line(&long);
        assert!(line.len() <= MAX_ERROR_BYTES, "{line}");
        assert!(line.ends_with("(expected x)"), "{line}");
        let spaced = "word ".repeat(100);
        let line = error_line(&spaced);
        assert_eq!(line.len(), MAX_ERROR_BYTES);
        assert!(line.ends_with("..."));
        let wide = "é".repeat(300);
        assert!(error_line(&wide).len() <= MAX_ERROR_BYTES);
    }
}
