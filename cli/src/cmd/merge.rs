//! `cutoff merge`: its arguments, converted into
//! [`cutoff_app::commands::merge`]'s options, and its printing.

use cutoff_app::commands::merge;

/// Arguments of `cutoff merge`.
#[derive(clap::Args)]
pub struct Args {
    /// The split file (from `cutoff split`).
    pub file: String,
    /// The results folder of its shards (default: FILE.results).
    pub dir: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> merge::Options {
        merge::Options {
            file: self.file.clone(),
            dir: self.dir.clone(),
        }
    }
}

/// Runs `cutoff merge`.
pub fn run(args: &Args) -> super::CliResult {
    super::print(merge::run(&args.options())?, args.json)
}
