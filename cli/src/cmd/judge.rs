//! `cutoff judge`: its arguments, converted into
//! [`cutoff_app::commands::judge`]'s options, and its printing.

use cutoff_app::commands::judge;

/// Arguments of `cutoff judge`.
#[derive(clap::Args)]
pub struct Args {
    /// The problem: ural1195 (tic-tac-toe, X to move after three moves each) or control (the
    /// control game on K graphs).
    pub problem: String,
    /// The input file; standard input when left out. Either is read up to 16 MiB.
    pub file: Option<String>,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> judge::Options {
        judge::Options {
            problem: self.problem.clone(),
            file: self.file.clone(),
        }
    }
}

/// Runs `cutoff judge`.
pub fn run(args: &Args) -> super::CliResult {
    use std::io::Write;
    let answer = judge::run(&args.options())?;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(answer.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| super::CliError(format!("cannot write the answer: {e}")))
}
