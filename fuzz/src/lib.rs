//! Helpers shared by the fuzz targets in `fuzz_targets/`.
//!
//! Every target turns the fuzzer's bytes into text the way the command line reads a file (as
//! UTF-8; invalid sequences become U+FFFD here so that no input is wasted), calls one parser,
//! and checks cheap properties of what comes back: a parsed value formats back into text that
//! parses to the same value, and an error message is short and printable.

/// Longest error message the command line should print for one bad input, in bytes.
pub const MAX_MESSAGE: usize = 200;

/// The fuzzer's bytes as text.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Which properties of an error message a target asserts (see `check_message`).
#[derive(Clone, Copy, Debug)]
pub struct MessageRules {
    /// At most [`MAX_MESSAGE`] bytes.
    pub short: bool,
    /// No control characters (a newline, an escape sequence, a NUL copied from the input).
    pub printable: bool,
}

/// Both rules.
pub const STRICT: MessageRules = MessageRules {
    short: true,
    printable: true,
};

/// Asserts the `rules` on an error message; `what` names the parser for the panic message.
/// A message is never empty, whatever the rules.
pub fn check_message(what: &str, msg: &str, rules: MessageRules) {
    assert!(!msg.is_empty(), "{what}: empty error message");
    if rules.short {
        assert!(
            msg.len() <= MAX_MESSAGE,
            "{what}: error message of {} bytes (at most {MAX_MESSAGE}): {msg:?}",
            msg.len()
        );
    }
    if rules.printable {
        assert!(
            !msg.chars().any(char::is_control),
            "{what}: control character in the error message: {msg:?}"
        );
    }
}

/// Whether a message breaks a rule, without asserting: for reporting what fails today.
pub fn message_faults(msg: &str) -> (bool, bool) {
    (msg.len() > MAX_MESSAGE, msg.chars().any(char::is_control))
}

/// Makes a FIFO at `path`, for the targets that put one where a file is read or written.
#[cfg(unix)]
pub fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.to_str().expect("a UTF-8 path")).expect("no NUL");
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}
