//! The `cutoff` command: solve positions, walk through hand-written trees, answer judge
//! problems.



use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// cutoff: game-tree search engine.
#[derive(Parser)]
#[command(
    name = "cutoff",
    version,
    about = "Game-tree search engine: minimax, alpha-beta and friends"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a game position and print its value, best move and principal variation.
    Solve(cutoff_cli::cmd::solve::Args),
    /// Search a hand-written tree from a file; optionally trace the walk or draw it.
    Tree(cutoff_cli::cmd::tree::Args),
    /// Answer a judge problem read from standard input (ural1195, control).
    Judge(cutoff_cli::cmd::judge::Args),
    /// Solve every Connect Four position of a test set and check the expected scores.
    Suite(cutoff_cli::cmd::suite::Args),
}

/// Lets a closed pipe end the program quietly, as it does any Unix filter: Rust ignores
/// SIGPIPE, so `cutoff ... | head` would otherwise panic on its next print.
fn quiet_broken_pipes() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists; restoring the
    // default disposition of SIGPIPE touches no memory of ours.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    quiet_broken_pipes();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line, naming the problem; clap's first line does exactly that.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("{}", first.trim());
            return ExitCode::from(2);
        }
    };
    let outcome = match &cli.command {
        Command::Solve(args) => cutoff_cli::cmd::solve::run(args),
        Command::Tree(args) => cutoff_cli::cmd::tree::run(args),
        Command::Judge(args) => cutoff_cli::cmd::judge::run(args),
        Command::Suite(args) => cutoff_cli::cmd::suite::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            if cutoff_cli::interrupt::interrupted() {
                return ExitCode::from(cutoff_cli::interrupt::EXIT_INTERRUPTED);
            }
            ExitCode::FAILURE
        }
    }
}
