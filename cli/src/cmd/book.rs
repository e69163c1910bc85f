//! `cutoff book`: its arguments, converted into
//! [`cutoff_app::commands::book`]'s options, and its printing.

use crate::args::GameArgs;
use cutoff_app::commands::book;

/// Arguments of `cutoff book`.
#[derive(clap::Args)]
pub struct Args {
    /// The game (connect4) and the position the book starts from (default: the start).
    #[command(flatten)]
    pub game: GameArgs,
    /// Plies below the position: every position up to this deep goes into the book (at most
    /// 8).
    #[arg(long)]
    pub plies: usize,
    /// Where to write the book (atomically: a temporary file renamed), checked before the
    /// solving starts. The name goes into the book's header comment with its control
    /// characters escaped (a newline in it cannot start a line of the book).
    #[arg(long)]
    pub out: String,
    /// Transposition table size in MiB, one table shared by every solve.
    #[arg(long, default_value_t = 512)]
    pub tt_mb: usize,
    /// Threads for each solve (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> book::Options {
        book::Options {
            game: self.game.options(),
            plies: self.plies,
            out: self.out.clone(),
            tt_mb: self.tt_mb,
            threads: self.threads,
        }
    }
}

/// Runs `cutoff book`.
pub fn run(args: &Args) -> super::CliResult {
    // Progress only to a person watching: a log keeps to the result line.
    let watched = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let start = std::time::Instant::now();
    let on_position = |i: usize, n: usize| {
        if watched && i.is_multiple_of(20) {
            eprintln!(
                "cutoff book: solving {} of {n} ({:.0} s)",
                i + 1,
                start.elapsed().as_secs_f64()
            );
        }
    };
    let report = book::run(&args.options(), crate::interrupt::install(), &on_position)?;
    print!("{report}");
    Ok(())
}
