//! `cutoff plan FILE [DIR] --out NEXT [--shards N]`: the next pass of a two-pass (or
//! many-pass) split. From what the pass in DIR proved of each frontier line (with a window,
//! often only a bound), it picks the lines whose values the split position still needs, each
//! with the window it needs, and writes them as a new split file: the other lines stay in it,
//! unsolved, with what is known of them, so that merge can back everything up.

use super::CliResult;
use crate::shard::{self, Header, Line, PathTree, Split};

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

/// Runs `cutoff plan`.
pub fn run(args: &Args) -> CliResult {
    let split = Split::read(&args.file)?;
    let shards = args.shards.unwrap_or(split.header.shards);
    if shards == 0 || shards > 1_000_000 {
        return Err(format!(
            "--shards must be between 1 and 1000000, got {shards}"
        ));
    }
    let dir = shard::results_dir(&args.file, args.dir.as_ref());
    let (solved, seconds) = shard::load(&split, &dir)?;
    let known = shard::intervals(&split, &solved)?;
    let tree = PathTree::new(&split)?;
    let iv = tree.back_up(&known);
    let need = tree.plan(&iv);
    let chosen: Vec<usize> = (0..split.lines.len())
        .filter(|&i| need[i].is_some())
        .collect();
    let costs: Vec<u64> = chosen.iter().map(|&i| split.lines[i].cost).collect();
    let assigned = shard::balance(&costs, shards);
    let mut shard_of = vec![None; split.lines.len()];
    for (k, &i) in chosen.iter().enumerate() {
        shard_of[i] = Some(assigned[k]);
    }
    let nodes: u64 = solved.iter().flatten().map(|r| r.nodes).sum();
    let header = Header {
        shards,
        pass: split.header.pass + 1,
        prior_nodes: split.header.prior_nodes + nodes,
        prior_seconds: split.header.prior_seconds + seconds,
        ..split.header.clone()
    };
    let lines: Vec<Line> = split
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| Line {
            shard: shard_of[i],
            window: need[i],
            known: Some(known[i]),
            ..l.clone()
        })
        .collect();
    shard::write_split(&args.out, &header, &lines)?;
    let [lo, hi] = iv[0];
    let settled = if lo == hi {
        format!("already settled at {lo}: merge needs no more work")
    } else {
        format!("the value lies in [{lo}, {hi}]")
    };
    println!(
        "{}: pass {} solves {} of {} lines in {shards} shards; {settled}",
        crate::cmd::shown_path(&args.out),
        header.pass,
        chosen.len(),
        split.lines.len()
    );
    Ok(())
}
