//! Solving beyond one machine: the files that `cutoff split`, `cutoff solve-shard` and
//! `cutoff merge` pass between them, and the checks on them.
//!
//! A split file is JSON lines: a header (the game and position split, the depth, the shard
//! count) and then one line per frontier position, with its stable id, its shard, its
//! estimated cost and every path from the split position that reaches it. A shard's result
//! is one JSON file, `shard-NNNNN.json` in the results folder, carrying the digest of the
//! split file it answers, so that merge never mixes the results of two splits.

use crate::position::{GameArgs, GameKind};
use cutoff::Value;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The split file's format version, in its header.
pub const SPLIT_VERSION: u32 = 1;
/// The result file's format version.
pub const RESULT_VERSION: u32 = 1;
/// The most paths a split may write: the frontier's paths are all kept, so this bounds the
/// split file (7^7 = 823,543 for Connect Four 7 plies deep; 8 plies would be 5.8 M).
pub const MAX_PATHS: usize = 2_000_000;
/// The most bytes a split or result file may hold.
pub const FILE_LIMIT: u64 = 512 << 20;

/// The game and position of a split, as the command line gave them: enough to set the game
/// up again in another process.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSpec {
    /// The game's command-line name.
    pub game: String,
    /// The position text, if any.
    pub position: Option<String>,
    /// Random trees: branching factor.
    pub branching: Option<usize>,
    /// Random trees: depth.
    pub depth: Option<usize>,
    /// Random trees: seed.
    pub seed: u64,
    /// Random trees: move ordering.
    pub order: String,
    /// Trees: the root's kind, "max" or "min".
    pub root: String,
}

impl GameSpec {
    /// The spec of `args`.
    pub fn of(args: &GameArgs) -> Self {
        GameSpec {
            game: args.game.name().to_string(),
            position: args.position.clone(),
            branching: args.branching,
            depth: args.depth,
            seed: args.seed,
            order: args.order.name().to_string(),
            root: match args.root {
                cutoff::Player::First => "max".into(),
                cutoff::Player::Second => "min".into(),
            },
        }
    }

    /// The command-line arguments that set the game up again.
    pub fn args(&self) -> Result<GameArgs, String> {
        use clap::ValueEnum;
        let kind = GameKind::from_str(&self.game, false)
            .map_err(|_| format!("unknown game '{}'", cutoff::game::quote(&self.game)))?;
        let mut args = GameArgs::new(kind, self.position.as_deref());
        args.branching = self.branching;
        args.depth = self.depth;
        args.seed = self.seed;
        args.order = crate::position::parse_order(&self.order)?;
        args.root = crate::position::parse_root(&self.root)?;
        Ok(args)
    }
}

/// The first line of a split file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header {
    /// The format version ([`SPLIT_VERSION`]).
    pub cutoff_split: u32,
    /// The game and the position split.
    pub game: GameSpec,
    /// Plies from the split position to the frontier.
    pub depth: usize,
    /// Shards the lines are grouped into.
    pub shards: usize,
    /// Frontier lines (distinct positions, mirror images merged).
    pub frontier: usize,
    /// Paths from the split position to the frontier.
    pub paths: usize,
    /// The depth of the searches that estimated each line's cost (0: none, every line 1).
    pub estimate_depth: usize,
}

/// A frontier position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Line {
    /// Its stable id: lines are numbered in the order a depth-first walk of the moves, in the
    /// game's order, first meets them.
    pub id: usize,
    /// The shard that solves it.
    pub shard: usize,
    /// Its estimated cost: the nodes of a shallow search of it.
    pub cost: u64,
    /// The position, as `cutoff solve` takes it where the game can say so, else in words.
    pub position: String,
    /// Every path of moves from the split position that reaches it (or its mirror image); the
    /// first is the one solve-shard plays.
    pub paths: Vec<Vec<String>>,
}

/// The solved value of one line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Solved {
    /// The line's id.
    pub id: usize,
    /// The value, from the side to move at the line's position.
    pub value: Value,
    /// "exact", or with a window "lower" (the value is at least `value`) or "upper" (at most).
    pub bound: String,
    /// The principal variation from the line's position (its first path), in the game's
    /// notation.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Positions passed through as forced (not in `nodes`).
    pub forced: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Fail-high cutoffs.
    pub cutoffs: u64,
    /// Cutoffs made by the first move tried.
    pub first_move_cutoffs: u64,
    /// Deepest ply reached, from the line's position.
    pub max_ply: u32,
    /// Wall time of the line's search.
    pub ms: f64,
}

/// A shard's result file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardResult {
    /// The format version ([`RESULT_VERSION`]).
    pub cutoff_shard: u32,
    /// The SHA-256 of the split file it answers.
    pub digest: String,
    /// This shard's index.
    pub shard: usize,
    /// The split's shard count.
    pub shards: usize,
    /// Every line of the shard, in id order.
    pub lines: Vec<Solved>,
    /// Total nodes of the shard.
    pub nodes: u64,
    /// Wall time of the shard.
    pub seconds: f64,
}

/// A split file, read and checked.
pub struct Split {
    /// Its SHA-256, as lowercase hex.
    pub digest: String,
    /// Its header.
    pub header: Header,
    /// The lines, in id order.
    pub lines: Vec<Line>,
}

/// The SHA-256 of `bytes`, as lowercase hex.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Reads at most [`FILE_LIMIT`] bytes of `path`; errors name it.
pub fn read(path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let what = crate::cmd::shown_path(path);
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read '{what}': {e}"))?;
    let mut bytes = Vec::new();
    file.take(FILE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read '{what}': {e}"))?;
    if bytes.len() as u64 > FILE_LIMIT {
        return Err(format!(
            "cannot read '{what}': larger than the {} MiB limit",
            FILE_LIMIT >> 20
        ));
    }
    Ok(bytes)
}

impl Split {
    /// Reads and checks the split file at `path`: its header, and lines numbered 0, 1, ...
    /// with shards in range and at least one path each.
    pub fn read(path: &str) -> Result<Split, String> {
        let bytes = read(path)?;
        let what = crate::cmd::shown_path(path);
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| format!("'{what}' is not a split file (not UTF-8 text)"))?;
        let mut rows = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = rows
            .next()
            .ok_or_else(|| format!("'{what}' is empty, not a split file"))?;
        let header: Header = serde_json::from_str(first)
            .map_err(|e| format!("'{what}' is not a split file (line 1: {e})"))?;
        if header.cutoff_split != SPLIT_VERSION {
            return Err(format!(
                "'{what}' is a split file of version {}, this cutoff reads version {SPLIT_VERSION}",
                header.cutoff_split
            ));
        }
        if header.shards == 0 {
            return Err(format!("'{what}': the header gives 0 shards"));
        }
        let mut lines = Vec::with_capacity(header.frontier.min(1 << 20));
        for (i, row) in rows {
            let line: Line =
                serde_json::from_str(row).map_err(|e| format!("'{what}' line {}: {e}", i + 1))?;
            if line.id != lines.len() {
                return Err(format!(
                    "'{what}' line {}: id {} where {} was expected",
                    i + 1,
                    line.id,
                    lines.len()
                ));
            }
            if line.shard >= header.shards {
                return Err(format!(
                    "'{what}' line {}: shard {} of {}",
                    i + 1,
                    line.shard,
                    header.shards
                ));
            }
            if line.paths.is_empty() {
                return Err(format!("'{what}' line {}: no paths", i + 1));
            }
            lines.push(line);
        }
        if lines.len() != header.frontier {
            return Err(format!(
                "'{what}' holds {} lines where its header says {} (truncated?)",
                lines.len(),
                header.frontier
            ));
        }
        Ok(Split {
            digest: digest(&bytes),
            header,
            lines,
        })
    }

    /// The ids of shard `shard`'s lines, in order.
    pub fn shard_ids(&self, shard: usize) -> Vec<usize> {
        self.lines
            .iter()
            .filter(|l| l.shard == shard)
            .map(|l| l.id)
            .collect()
    }
}

/// Where shard `index`'s result goes in `dir`.
pub fn result_path(dir: &std::path::Path, index: usize) -> std::path::PathBuf {
    dir.join(format!("shard-{index:05}.json"))
}

/// The results folder a split file's shards go to when none is given: `FILE.results`.
pub fn default_dir(split: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(format!("{split}.results"))
}

/// Reads shard `index`'s result in `dir` and checks it against `split`: `Ok(None)` if there
/// is none, an error naming what is wrong if it is unreadable, truncated, of another split
/// or incomplete.
pub fn read_result(
    split: &Split,
    dir: &std::path::Path,
    index: usize,
) -> Result<Option<ShardResult>, String> {
    let path = result_path(dir, index);
    let shown = crate::cmd::shown_path(&path.to_string_lossy());
    if !path.exists() {
        return Ok(None);
    }
    let bytes = read(&path.to_string_lossy())?;
    let r: ShardResult = serde_json::from_slice(&bytes)
        .map_err(|e| format!("shard {index}: '{shown}' is truncated or not a result ({e})"))?;
    if r.cutoff_shard != RESULT_VERSION {
        return Err(format!(
            "shard {index}: '{shown}' is a result of version {}, this cutoff reads version \
             {RESULT_VERSION}",
            r.cutoff_shard
        ));
    }
    if r.digest != split.digest {
        return Err(format!(
            "shard {index}: '{shown}' answers another split (digest {}, this split's is {})",
            short(&r.digest),
            short(&split.digest)
        ));
    }
    if r.shard != index || r.shards != split.header.shards {
        return Err(format!(
            "shard {index}: '{shown}' says it is shard {} of {}",
            r.shard, r.shards
        ));
    }
    let want = split.shard_ids(index);
    let got: Vec<usize> = r.lines.iter().map(|l| l.id).collect();
    if got != want {
        return Err(format!(
            "shard {index}: '{shown}' holds {} lines where the shard has {}",
            got.len(),
            want.len()
        ));
    }
    Ok(Some(r))
}

/// Writes `bytes` to `path` atomically: into a temporary file beside it, flushed to disk, then
/// renamed over it, so that a reader (or a rerun after a crash) sees the whole file or none.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let shown = crate::cmd::shown_path(&path.to_string_lossy());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp.{}", std::process::id()));
    let fail = |e: std::io::Error| format!("cannot write '{shown}': {e}");
    let mut f = std::fs::File::create(&tmp).map_err(fail)?;
    f.write_all(bytes).map_err(fail)?;
    f.sync_all().map_err(fail)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// The first 12 hex digits of a digest, for messages.
pub fn short(d: &str) -> &str {
    d.get(..12).unwrap_or(d)
}

/// The shard index a job runs: `--index`, else `SLURM_ARRAY_TASK_ID` (Slurm job arrays), else
/// `JOB_COMPLETION_INDEX` (Kubernetes indexed Jobs).
pub fn shard_index(arg: Option<usize>) -> Result<usize, String> {
    if let Some(i) = arg {
        return Ok(i);
    }
    for var in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        if let Ok(v) = std::env::var(var) {
            return v.trim().parse().map_err(|_| {
                format!(
                    "{var} is '{}', not a shard index",
                    cutoff::game::quote_max(&v, 40)
                )
            });
        }
    }
    Err(
        "no shard index: give --index I, or run as a Slurm array task (SLURM_ARRAY_TASK_ID) \
         or a Kubernetes indexed Job (JOB_COMPLETION_INDEX)"
            .into(),
    )
}

/// Groups `costs` into `shards` shards of balanced total cost: the largest first, each to
/// the shard with the least so far (the LPT rule, within 4/3 of the best balance). Returns
/// each item's shard.
pub fn balance(costs: &[u64], shards: usize) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (Reverse(costs[i]), i));
    let mut load: BinaryHeap<Reverse<(u64, usize)>> =
        (0..shards.max(1)).map(|s| Reverse((0, s))).collect();
    let mut out = vec![0; costs.len()];
    for i in order {
        // The heap holds every shard at all times.
        if let Some(Reverse((l, s))) = load.pop() {
            out[i] = s;
            load.push(Reverse((l + costs[i].max(1), s)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_spreads_cost_evenly() {
        let costs = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
        let s = balance(&costs, 3);
        let mut load = [0u64; 3];
        for (i, &sh) in s.iter().enumerate() {
            load[sh] += costs[i];
        }
        // 55 over 3 shards: LPT gives 19/18/18.
        assert!(
            load.iter().max().unwrap() - load.iter().min().unwrap() <= 1,
            "{load:?}"
        );
    }

    #[test]
    fn balance_leaves_extra_shards_empty() {
        let s = balance(&[5, 3], 4);
        assert_ne!(s[0], s[1]);
        assert!(s.iter().all(|&x| x < 4));
    }

    #[test]
    fn digest_is_sha256() {
        assert_eq!(
            digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
