//! `cutoff analyse`: its arguments, converted into
//! [`cutoff_app::commands::analyse`]'s options, and its printing.

use crate::args::GameArgs;
use cutoff_app::commands::analyse;

/// Arguments of `cutoff analyse`.
#[derive(clap::Args)]
pub struct Args {
    /// The game and its position.
    #[command(flatten)]
    pub game: GameArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Transposition table size in MiB, one table shared by every move's search.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Threads for each move's search (default: all cores); 1 runs the serial search.
    #[arg(long)]
    pub threads: Option<usize>,
    /// An opening book (`cutoff book`): moves to positions it holds take its values instead
    /// of a search. `builtin` is the Connect Four book in the binary; any other word is a
    /// file (a file called builtin: `./builtin`). The book must be for the game analysed. Its
    /// lines are checked where that is cheap (legal positions still in play, values in
    /// range, agreeing with moves that end the game, with the game's analysis without a
    /// search and with each other by negamax); values beyond those checks, the deepest
    /// positions', are believed.
    #[arg(long)]
    pub book: Option<String>,
    /// Time budget in milliseconds: every move gets the bounds proved for it in that time and
    /// a best guess (from iterative deepening); the answer comes within the budget.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node budget over every move, as --time-ms is one of time.
    #[arg(long)]
    pub nodes: Option<u64>,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> analyse::Options {
        analyse::Options {
            game: self.game.options(),
            tt_mb: self.tt_mb,
            threads: self.threads,
            book: self.book.clone(),
            time_ms: self.time_ms,
            nodes: self.nodes,
        }
    }
}

/// Runs `cutoff analyse`.
pub fn run(args: &Args) -> super::CliResult {
    super::print(
        analyse::compute(&args.options(), super::control(true, None))?,
        args.json,
    )
}
