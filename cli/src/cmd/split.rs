//! `cutoff split`: its arguments, converted into
//! [`cutoff_app::commands::split`]'s options, and its printing.

use crate::args::GameArgs;
use cutoff_app::commands::split;

/// Arguments of `cutoff split`.
#[derive(clap::Args)]
pub struct Args {
    /// The game, the position to split (its `--depth K`: plies from the position to the
    /// frontier) and the tree games' options.
    #[command(flatten)]
    pub game: GameArgs,
    /// The split file to write (JSON lines).
    #[arg(long)]
    pub out: String,
    /// Shards to group the frontier into, of balanced estimated cost.
    #[arg(long, default_value_t = 1)]
    pub shards: usize,
    /// Depth of the shallow search that estimates each frontier position's cost (0: count
    /// positions only).
    #[arg(long, default_value_t = 8)]
    pub estimate_depth: usize,
    /// Solve the split position only within this window, `A,B`: each line gets it from its
    /// own side. The first pass of a two-pass solve (`-1,1` says win, draw or loss; a null
    /// window around a guess tests it); `cutoff plan` then picks what the next pass must
    /// solve.
    #[arg(long, value_name = "A,B", value_parser = crate::args::parse_window, allow_hyphen_values = true)]
    pub window: Option<[cutoff::Value; 2]>,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> split::Options {
        split::Options {
            game: self.game.options(),
            out: self.out.clone(),
            shards: self.shards,
            estimate_depth: self.estimate_depth,
            window: self.window,
        }
    }
}

/// Runs `cutoff split`.
pub fn run(args: &Args) -> super::CliResult {
    print!("{}", split::run(&args.options())?);
    Ok(())
}
