//! `cutoff suite`: its arguments, converted into
//! [`cutoff_app::commands::suite`]'s options, and its printing.

use crate::args::BoardArgs;
use cutoff::solver::Mode;
use cutoff_app::commands::suite;
use indicatif::{ProgressBar, ProgressStyle};

/// Arguments of `cutoff suite`.
#[derive(clap::Args)]
pub struct Args {
    /// A file of `<moves> <score>` lines (see positions/connect4/), at most 16 MiB. A set
    /// for another board says so in a comment line before its first position:
    /// `# board WxH`, or `# board WxH/K` for K in a row.
    pub file: String,
    /// The board (the file's header, if it has one, else 7x6 with four in a row).
    #[command(flatten)]
    pub shape: BoardArgs,
    /// Weak solving: check only win, draw or loss.
    #[arg(long)]
    pub weak: bool,
    /// Threads searching each position (default: every core, but each position starts on one
    /// thread and goes parallel only once it proves large); 1 runs the serial solver.
    #[arg(long)]
    pub threads: Option<usize>,
    /// How the threads share the work: ybwc, abdada, lazysmp or root.
    #[arg(long, default_value = "ybwc", value_parser = crate::args::parse_mode)]
    pub parallel: Mode,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Where YBWC splits.
    #[command(flatten)]
    pub split: crate::args::SplitArgs,
    /// Keep one table warm across the whole run instead of starting every position from an
    /// empty one (the serial solver's killers and history are kept too).
    #[arg(long)]
    pub keep_table: bool,
    /// Solve only the first N positions (at least 1).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Report how the nodes of each ply from the root ended, all positions together (one
    /// thread; see docs/guide/profile.md).
    #[arg(long)]
    pub profile: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> suite::Options {
        suite::Options {
            file: self.file.clone(),
            shape: self.shape.options(),
            weak: self.weak,
            threads: self.threads,
            parallel: self.parallel,
            tt_mb: self.tt_mb,
            split: self.split.options(),
            keep_table: self.keep_table,
            limit: self.limit,
            profile: self.profile,
        }
    }
}

/// Runs `cutoff suite`, with a progress bar for a person watching a terminal.
pub fn run(args: &Args) -> super::CliResult {
    let bar = std::sync::OnceLock::new();
    let watched = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let on_position = |done: usize, total: usize| {
        if watched {
            bar.get_or_init(|| {
                let b = ProgressBar::new(total as u64);
                if let Ok(style) = ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} positions, {elapsed} (eta {eta})",
                ) {
                    b.set_style(style);
                }
                b
            })
            .set_position(done as u64);
        }
    };
    let outcome = suite::run(&args.options(), &on_position);
    if let Some(b) = bar.get() {
        b.finish_and_clear();
    }
    super::print(outcome?, args.json)
}
