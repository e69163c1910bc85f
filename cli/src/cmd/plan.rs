//! `cutoff plan`: its arguments, converted into
//! [`cutoff_app::commands::plan`]'s options, and its printing.

use cutoff_app::commands::plan;

/// Arguments of `cutoff plan`.
#[derive(clap::Args)]
pub struct Args {
    /// The split file of the pass just solved.
    pub file: String,
    /// Its results folder (default: FILE.results).
    pub dir: Option<String>,
    /// The next pass's split file.
    #[arg(long)]
    pub out: String,
    /// Shards to group the next pass's lines into (default: the same as this pass).
    #[arg(long)]
    pub shards: Option<usize>,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> plan::Options {
        plan::Options {
            file: self.file.clone(),
            dir: self.dir.clone(),
            out: self.out.clone(),
            shards: self.shards,
        }
    }
}

/// Runs `cutoff plan`.
pub fn run(args: &Args) -> super::CliResult {
    print!("{}", plan::run(&args.options())?);
    Ok(())
}
