//! `cutoff plan FILE [DIR] --out NEXT [--shards N]`: the next pass of a two-pass (or
//! many-pass) split. From what the pass in DIR proved of each frontier line (with a window,
//! often only a bound), it picks the lines whose values the split position still needs, each
//! with the window it needs, and writes them as a new split file: the other lines stay in it,
//! unsolved, with what is known of them, so that merge can back everything up.

use crate::shard::{self, Header, Line, Results, Split};
use crate::AppError;
use cutoff::Value;

/// Arguments of `cutoff plan`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The split file of the pass just solved.
    pub file: String,
    /// Its results folder (default: FILE.results).
    pub dir: Option<String>,
    /// The next pass's split file.
    pub out: String,
    /// Shards to group the next pass's lines into (default: the same as this pass).
    pub shards: Option<usize>,
}

/// The next pass of a split, as `cutoff plan` writes it.
pub struct NextPass {
    /// Its header.
    pub header: Header,
    /// Its lines: every line of the split, with what is known of it, and a shard and window
    /// where this pass must solve it.
    pub lines: Vec<Line>,
    /// How many lines it solves.
    pub chosen: usize,
    /// The split position's interval so far.
    pub root: [Value; 2],
}

/// The next pass after `split`'s pass solved as `results` say, in `shards` shards (`cutoff
/// plan` without its output). Counts and times are added with checks: they come from files.
pub fn next_pass(split: &Split, results: &Results, shards: usize) -> Result<NextPass, AppError> {
    if shards == 0 || shards > shard::MAX_SHARDS {
        return Err(AppError::invalid(format!(
            "\u{1}shards\u{2} must be between 1 and {}, got {shards}",
            shard::MAX_SHARDS
        )));
    }
    let known = shard::intervals(split, &results.solved)?;
    let tree = &split.tree;
    let iv = tree.back_up(&known);
    let need = tree.plan(&iv, split.lines.len());
    let chosen: Vec<usize> = (0..split.lines.len())
        .filter(|&i| need[i].is_some())
        .collect();
    let root = iv[0];
    if root[0] != root[1] && chosen.is_empty() {
        // Consistent intervals always leave a line to solve (see `PathTree::plan`).
        return Err(AppError::invalid(format!(
            "the results leave the split position in [{}, {}] but no line to solve",
            root[0], root[1]
        )));
    }
    let costs: Vec<u64> = chosen.iter().map(|&i| split.lines[i].cost).collect();
    let assigned = shard::balance(&costs, shards);
    let mut shard_of = vec![None; split.lines.len()];
    for (k, &i) in chosen.iter().enumerate() {
        shard_of[i] = Some(assigned[k]);
    }
    let h = &split.header;
    let name = &split.name;
    let pass = h.pass.checked_add(1).ok_or_else(|| {
        AppError::invalid(format!(
            "'{name}' line 1: pass {} is the last a split file can number",
            h.pass
        ))
    })?;
    let prior_nodes = h.prior_nodes.checked_add(results.nodes).ok_or_else(|| {
        AppError::invalid(format!(
            "'{name}' line 1: {} earlier nodes and this pass's {} overflow",
            h.prior_nodes, results.nodes
        ))
    })?;
    let prior_seconds = h.prior_seconds + results.seconds;
    if prior_seconds.is_nan() || prior_seconds > shard::MAX_TOTAL_SECONDS {
        return Err(AppError::invalid(format!(
            "'{name}' line 1: the passes' times add up to {prior_seconds:e} s, past {:e} s",
            shard::MAX_TOTAL_SECONDS
        )));
    }
    let header = Header {
        shards,
        pass,
        prior_nodes,
        prior_seconds,
        ..h.clone()
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
    Ok(NextPass {
        header,
        lines,
        chosen: chosen.len(),
        root,
    })
}

/// Runs `cutoff plan`.
pub fn run(args: &Options) -> Result<String, AppError> {
    let split = Split::read(&args.file)?;
    let shards = args.shards.unwrap_or(split.header.shards);
    if shards == 0 || shards > shard::MAX_SHARDS {
        return Err(AppError::invalid(format!(
            "\u{1}shards\u{2} must be between 1 and {}, got {shards}",
            shard::MAX_SHARDS
        )));
    }
    crate::files::check_writable(std::path::Path::new(&args.out))?;
    let dir = shard::results_dir(&args.file, args.dir.as_ref());
    let results = shard::load(&split, &dir)?;
    let next = next_pass(&split, &results, shards)?;
    shard::write_split(&args.out, &next.header, &next.lines)?;
    let [lo, hi] = next.root;
    let settled = if lo == hi {
        format!("already settled at {lo}: merge needs no more work")
    } else {
        format!("the value lies in [{lo}, {hi}]")
    };
    Ok(format!(
        "{}: pass {} solves {} of {} lines in {shards} shards; {settled}\n",
        crate::message::shown_path(&args.out),
        next.header.pass,
        next.chosen,
        split.lines.len()
    ))
}
