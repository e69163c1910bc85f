//! `cutoff judge PROBLEM [FILE]`: answer a judge problem read from FILE or standard input.
//!
//! - `ural1195`: prints the one answer line (`Crosses win`, `Ouths win` or `Draw`).
//! - `control`: prints one line per board, `1` if the first player wins, else `0`.

use crate::files::{read_file, read_stdin};
use crate::AppError;

/// The problems the command answers.
const PROBLEMS: [&str; 2] = ["ural1195", "control"];

/// Arguments of `cutoff judge`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The problem: ural1195 (tic-tac-toe, X to move after three moves each) or control (the
    /// control game on K graphs).
    pub problem: String,
    /// The input file; standard input when left out. Either is read up to 16 MiB.
    pub file: Option<String>,
}

/// Runs `cutoff judge`: the answer, as the judge expects it on standard output.
pub fn run(args: &Options) -> Result<String, AppError> {
    if !PROBLEMS.contains(&args.problem.as_str()) {
        return Err(AppError::invalid(format!(
            "unknown problem '{}' (expected one of: {})",
            cutoff::game::quote(&args.problem),
            PROBLEMS.join(", ")
        )));
    }
    let input = match &args.file {
        Some(path) => read_file(path)?,
        None => read_stdin()?,
    };
    let out = if args.problem == "ural1195" {
        let answer = crate::judge::ural1195(&input)?;
        format!("{answer}\n")
    } else {
        let wins = crate::judge::control(&input)?;
        let mut out = String::with_capacity(2 * wins.len());
        for w in wins {
            out.push_str(if w { "1\n" } else { "0\n" });
        }
        out
    };
    Ok(out)
}
