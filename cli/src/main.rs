//! The `cutoff` command: solve positions, walk through hand-written trees, answer judge
//! problems.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The version with the git commit it was built from (see build.rs): `0.1.0 (1a2b3c4)`,
/// `-dirty` after the hash if the sources differed from it, `unknown` outside a git checkout.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CUTOFF_GIT_VERSION"),
    ")"
);

/// cutoff: game-tree search engine.
#[derive(Parser)]
#[command(
    name = "cutoff",
    version = VERSION,
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
    /// The exact score of every legal move of a position, in numbers and words.
    Analyse(cutoff_cli::cmd::analyse::Args),
    /// Write an opening book: the exact value of every position a few plies from the start.
    Book(cutoff_cli::cmd::book::Args),
    /// Play against the solver in the terminal, one command a line from standard input.
    Play(cutoff_cli::cmd::play::Args),
    /// Solve Kuhn poker or Leduc hold'em with CFR and its variants; save, resume, compare.
    Cfr(cutoff_cli::cmd::cfr::Args),
    /// Write the frontier some plies below a position as shards of independent jobs.
    Split(cutoff_cli::cmd::split::Args),
    /// Solve one shard of a split file (a Slurm array task, a Kubernetes indexed Job, ...).
    SolveShard(cutoff_cli::cmd::solve_shard::Args),
    /// Check every shard's result and back the values up to the split position.
    Merge(cutoff_cli::cmd::merge::Args),
    /// From a solved pass of a split, write the next pass: only the lines the value needs.
    Plan(cutoff_cli::cmd::plan::Args),
    /// Solve a position on many workers by hypothesis: null-window tests over a frontier,
    /// on long-lived workers (local processes, MPI ranks, a simulated cluster) or Slurm job
    /// arrays, resumable from its folder.
    Distribute(cutoff_cli::cmd::distribute::Args),
    /// Serve one distributed driver over standard input and output (what `distribute`
    /// starts on each local worker).
    #[command(hide = true)]
    DistributeWorker,
    /// Run one task of a distributed round (what `distribute` starts on each worker).
    #[command(hide = true)]
    DistributeTask(cutoff_cli::cmd::distribute::TaskArgs),
    /// Serve a local web page to play and analyse positions in a browser.
    #[cfg(feature = "serve")]
    Serve(cutoff_cli::serve::Args),
}

/// Lets a closed pipe end the program quietly, as it does any Unix filter: Rust ignores
/// SIGPIPE, so `cutoff ... | head` would otherwise panic on its next print. `cutoff serve`
/// ignores it again (`serve::run`): a client's closed connection must not end the server.
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
            // clap's own rendering, with the names of missing arguments, the usage line and
            // its "did you mean" hints, and its exit status (2). If a line runs long, or an
            // argument holds control characters (which clap would pass through to a
            // terminal), it is printed plain instead, made safe.
            let plain = e.render().to_string();
            let safe = cutoff_cli::cmd::usage_text(&plain);
            let hostile =
                std::env::args_os().any(|a| a.to_string_lossy().chars().any(char::is_control));
            if safe == plain && !hostile {
                let _ = e.print();
            } else {
                eprint!("{safe}");
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let outcome = match &cli.command {
        Command::Solve(args) => cutoff_cli::cmd::solve::run(args),
        Command::Tree(args) => cutoff_cli::cmd::tree::run(args),
        Command::Judge(args) => cutoff_cli::cmd::judge::run(args),
        Command::Suite(args) => cutoff_cli::cmd::suite::run(args),
        Command::Analyse(args) => cutoff_cli::cmd::analyse::run(args),
        Command::Play(args) => cutoff_cli::cmd::play::run(args),
        Command::Book(args) => cutoff_cli::cmd::book::run(args),
        Command::Cfr(args) => cutoff_cli::cmd::cfr::run(args),
        Command::Split(args) => cutoff_cli::cmd::split::run(args),
        Command::SolveShard(args) => cutoff_cli::cmd::solve_shard::run(args),
        Command::Merge(args) => cutoff_cli::cmd::merge::run(args),
        Command::Plan(args) => cutoff_cli::cmd::plan::run(args),
        Command::Distribute(args) => cutoff_cli::cmd::distribute::run(args),
        Command::DistributeWorker => cutoff_cli::cmd::distribute::run_worker(),
        Command::DistributeTask(args) => cutoff_cli::cmd::distribute::run_task(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => cutoff_cli::serve::run(args).map_err(Into::into),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Every message is one line; the guard keeps it short and free of control
            // characters whatever it quotes. Not eprintln!: where SIGPIPE is ignored (the
            // server), a closed standard error would make it panic.
            use std::io::Write;
            let line = cutoff_app::message::error_line(&format!("error: {e}"));
            let _ = writeln!(std::io::stderr(), "{line}");
            if cutoff_cli::interrupt::interrupted() {
                return ExitCode::from(cutoff_cli::interrupt::exit_status());
            }
            ExitCode::FAILURE
        }
    }
}
