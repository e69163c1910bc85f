//! (being written)

/// Arguments (being written).
#[derive(clap::Args)]
pub struct Args {}

/// Runs the subcommand (being written).
pub fn run(_args: &Args) -> super::CliResult {
    let _ = super::output::Report::text;
    Err("not implemented yet".into())
}
