//! The subcommands of the `cutoff` binary, one file each: their clap arguments, converted
//! into the options structs of [`cutoff_app::commands`], and their printing.

pub mod analyse;
pub mod book;
pub mod cfr;
pub mod distribute;
pub mod judge;
pub mod merge;
pub mod plan;
pub mod play;
pub mod solve;
pub mod solve_shard;
pub mod split;
pub mod suite;
pub mod tree;

use cutoff_app::{AppError, Control, Outcome, Spelling};

/// Why a subcommand failed, as the command prints it: one line, its options spelled as
/// flags (`--tt-mb`).
#[derive(Debug)]
pub struct CliError(pub String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<AppError> for CliError {
    fn from(e: AppError) -> CliError {
        CliError(e.message(Spelling::Flag))
    }
}

/// A subcommand's outcome: `Err` says what is wrong, in one line.
pub type CliResult = Result<(), CliError>;

/// The command's control: the flag Ctrl-C and SIGTERM raise ([`crate::interrupt`]),
/// progress on standard error as `--quiet` and `--progress-every` ask, and the work's notes
/// on standard error.
pub fn control(quiet: bool, every: Option<f64>) -> Control<'static> {
    Control {
        stop: crate::interrupt::install(),
        display: crate::progress::display(quiet, every),
        cfr: None,
        note: Some(&note),
    }
}

/// Prints a note of the work on standard error, its options spelled as flags.
fn note(msg: &str) {
    eprintln!("{}", Spelling::Flag.apply(msg));
}

/// Prints `outcome`'s report (JSON if `json`) on standard output, then returns the error
/// after it, if any. An empty report prints nothing, not a blank line: an MPI worker rank's
/// (only rank 0 reports).
pub fn print(outcome: Outcome, json: bool) -> CliResult {
    if json {
        if !outcome.json.is_empty() {
            println!("{}", outcome.json);
        }
    } else {
        print!("{}", outcome.text);
    }
    match outcome.after {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// Writes `text` to standard output; a reader that went away (`| head`) is not an error.
pub fn emit(text: &str) -> CliResult {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError(format!("cannot write the output: {e}"))),
    }
}

/// clap's rendering of a usage error, each line passed through
/// [`error_line`](cutoff_app::message::error_line): unchanged unless a line quotes input
/// with control characters or runs over
/// [`MAX_ERROR_BYTES`](cutoff_app::message::MAX_ERROR_BYTES).
pub fn usage_text(rendered: &str) -> String {
    let mut out: String = rendered
        .lines()
        .map(cutoff_app::message::error_line)
        .collect::<Vec<_>>()
        .join("\n");
    if rendered.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_text_keeps_clap_s_lines_and_makes_them_safe() {
        let clap = "error: invalid value 'x' for '--algo'\n\nUsage: cutoff\n";
        assert_eq!(usage_text(clap), clap);
        let bad = "error: invalid value '\u{1b}[31m' for '--root'\n\nUsage: cutoff\n";
        assert_eq!(
            usage_text(bad),
            "error: invalid value '\\x1b[31m' for '--root'\n\nUsage: cutoff\n"
        );
    }

    #[test]
    fn errors_name_the_flags() {
        let e = CliError::from(AppError::TableSize(0));
        assert_eq!(
            e.to_string(),
            "--tt-mb must be between 1 and 1048576, got 0"
        );
    }
}
