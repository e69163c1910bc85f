//! `cutoff solve`: its arguments, converted into
//! [`cutoff_app::commands::solve`]'s options, and its printing.

use crate::args::GameArgs;
use cutoff::solver::Mode;
use cutoff_app::commands::solve;

/// Arguments of `cutoff solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The game, its position and the tree games' options.
    #[command(flatten)]
    pub game: GameArgs,
    /// The search's settings, shared with the chance and n-player model's searches.
    #[command(flatten)]
    pub search: crate::args::SearchArgs,
    /// How the threads share the work: ybwc, abdada, lazysmp or root.
    #[arg(long, default_value = "ybwc", value_parser = crate::args::parse_mode)]
    pub parallel: Mode,
    /// Where YBWC splits.
    #[command(flatten)]
    pub split: crate::args::SplitArgs,
    /// Keeping the expensive table entries across runs.
    #[command(flatten)]
    pub table: crate::args::TableFileArgs,
    /// Report how the nodes of each ply ended: leaves, bounds, table, enhanced cutoffs,
    /// searched, and how soon the searched ones cut off (one thread, pvs, mtdf or solve, no
    /// budget; see docs/guide/profile.md).
    #[arg(long)]
    pub profile: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> solve::Options {
        solve::Options {
            game: self.game.options(),
            search: self.search.options(),
            parallel: self.parallel,
            split: self.split.options(),
            table: self.table.options(),
            profile: self.profile,
        }
    }
}

/// Runs `cutoff solve`.
pub fn run(args: &Args) -> super::CliResult {
    let control = super::control(args.search.quiet, args.search.progress_every);
    let outcome = solve::compute(&args.options(), control);
    crate::progress::finish();
    super::print(outcome?, args.json)
}
