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
    /// The game's value range: what a line's bound leaves open on its other side.
    pub range: [Value; 2],
    /// 1 for a split; each `cutoff plan` writes the next pass.
    #[serde(default = "first_pass")]
    pub pass: u32,
    /// Nodes searched by the earlier passes, counted into merge's total.
    #[serde(default)]
    pub prior_nodes: u64,
    /// Wall time of the earlier passes' shards, in seconds.
    #[serde(default)]
    pub prior_seconds: f64,
}

fn first_pass() -> u32 {
    1
}

/// A frontier position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Line {
    /// Its stable id: lines are numbered in the order a depth-first walk of the moves, in the
    /// game's order, first meets them.
    pub id: usize,
    /// The shard that solves it; `null` when this pass need not solve it (its `known`
    /// interval settles what the split position needs of it).
    pub shard: Option<usize>,
    /// Its estimated cost: the nodes of a shallow search of it.
    pub cost: u64,
    /// The position, as `cutoff solve` takes it where the game can say so, else in words.
    pub position: String,
    /// Every path of moves from the split position that reaches it (or its mirror image); the
    /// first is the one solve-shard plays.
    pub paths: Vec<Vec<String>>,
    /// The window to solve it in (see `cutoff::solver::Solver::window`); absent: exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<[Value; 2]>,
    /// What earlier passes proved of its value: `[lo, hi]`; absent: nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<[Value; 2]>,
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
        Split::parse(&read(path)?, path)
    }

    /// Reads and checks a split file's bytes (see [`Split::read`]); errors name it `path`.
    pub fn parse(bytes: &[u8], path: &str) -> Result<Split, String> {
        let what = crate::cmd::shown_path(path);
        let text = std::str::from_utf8(bytes)
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
            if let Some(sh) = line.shard.filter(|&sh| sh >= header.shards) {
                return Err(format!(
                    "'{what}' line {}: shard {sh} of {}",
                    i + 1,
                    header.shards
                ));
            }
            if let Some([a, b]) = line.window.filter(|[a, b]| a >= b) {
                return Err(format!("'{what}' line {}: empty window [{a}, {b}]", i + 1));
            }
            if let Some([a, b]) = line.known.filter(|[a, b]| a > b) {
                return Err(format!(
                    "'{what}' line {}: empty interval [{a}, {b}]",
                    i + 1
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
            digest: digest(bytes),
            header,
            lines,
        })
    }

    /// The ids of shard `shard`'s lines, in order.
    pub fn shard_ids(&self, shard: usize) -> Vec<usize> {
        self.lines
            .iter()
            .filter(|l| l.shard == Some(shard))
            .map(|l| l.id)
            .collect()
    }
}

/// What a line's result proves of its value, as `[lo, hi]`, within the game's `range`.
pub fn proved(r: &Solved, range: [Value; 2]) -> Result<[Value; 2], String> {
    match r.bound.as_str() {
        "exact" => Ok([r.value, r.value]),
        "upper" => Ok([range[0], r.value]),
        "lower" => Ok([r.value, range[1]]),
        other => Err(format!(
            "line {}: unknown bound '{}'",
            r.id,
            cutoff::game::quote(other)
        )),
    }
}

/// Every shard's result in `dir`, checked (see [`read_result`]): each line's result by id
/// (`None` for lines this pass does not solve), and the shards' total wall time. Names the
/// missing shards if any.
pub fn load(split: &Split, dir: &std::path::Path) -> Result<(Vec<Option<Solved>>, f64), String> {
    let n = split.header.shards;
    let mut solved: Vec<Option<Solved>> = vec![None; split.lines.len()];
    let mut missing = Vec::new();
    let mut seconds = 0.0;
    for i in 0..n {
        match read_result(split, dir, i)? {
            None => missing.push(i),
            Some(r) => {
                seconds += r.seconds;
                for l in r.lines {
                    let id = l.id;
                    solved[id] = Some(l);
                }
            }
        }
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().take(20).map(|i| i.to_string()).collect();
        let more = if missing.len() > 20 { ", ..." } else { "" };
        return Err(format!(
            "{} of {n} shards have no result in '{}': {}{more}",
            missing.len(),
            crate::cmd::shown_path(&dir.to_string_lossy()),
            list.join(", ")
        ));
    }
    Ok((solved, seconds))
}

/// Each line's interval: what earlier passes knew, narrowed by this pass's result.
pub fn intervals(split: &Split, solved: &[Option<Solved>]) -> Result<Vec<[Value; 2]>, String> {
    let range = split.header.range;
    split
        .lines
        .iter()
        .zip(solved)
        .map(|(line, r)| {
            let mut iv = line.known.unwrap_or(range);
            if let Some(r) = r {
                let [lo, hi] = proved(r, range)?;
                iv = [iv[0].max(lo), iv[1].min(hi)];
                if iv[0] > iv[1] {
                    return Err(format!(
                        "line {}: this pass's result {} {} contradicts the earlier passes' [{}, {}]",
                        line.id,
                        r.bound,
                        r.value,
                        line.known.unwrap_or(range)[0],
                        line.known.unwrap_or(range)[1]
                    ));
                }
            }
            Ok(iv)
        })
        .collect()
}

/// The tree of a split's paths: the positions between the split position and the frontier,
/// each a node with its children by move, or a frontier line. Node 0 is the split position;
/// a child always comes after its parent.
pub struct PathTree {
    /// Each node's children, as (move text, node).
    pub children: Vec<Vec<(String, usize)>>,
    /// The frontier line a node is, if it is one.
    pub line: Vec<Option<usize>>,
}

impl PathTree {
    /// The tree of every path of `split`.
    pub fn new(split: &Split) -> Result<PathTree, String> {
        let mut t = PathTree {
            children: vec![Vec::new()],
            line: vec![None],
        };
        for line in &split.lines {
            for path in &line.paths {
                let mut node = 0;
                for mv in path {
                    node = match t.children[node].iter().find(|(m, _)| m == mv) {
                        Some(&(_, c)) => c,
                        None => {
                            t.children.push(Vec::new());
                            t.line.push(None);
                            let c = t.children.len() - 1;
                            t.children[node].push((mv.clone(), c));
                            c
                        }
                    };
                }
                if t.line[node].is_some_and(|l| l != line.id) || !t.children[node].is_empty() {
                    return Err(format!(
                        "the split file is inconsistent: a path of line {} ends where another \
                         line's does or passes through",
                        line.id
                    ));
                }
                t.line[node] = Some(line.id);
            }
        }
        Ok(t)
    }

    /// Every node's interval, from the lines' (negamax: a node's value is the most of its
    /// children's negated values, so its bounds are the most of their negated bounds).
    pub fn back_up(&self, lines: &[[Value; 2]]) -> Vec<[Value; 2]> {
        let mut iv = vec![[0, 0]; self.children.len()];
        // Children come after their parents: backwards, every child is done first.
        for n in (0..self.children.len()).rev() {
            iv[n] = match self.line[n] {
                Some(id) => lines[id],
                None => {
                    let mut b = [Value::MIN, Value::MIN];
                    for &(_, c) in &self.children[n] {
                        b = [b[0].max(-iv[c][1]), b[1].max(-iv[c][0])];
                    }
                    b
                }
            };
        }
        iv
    }

    /// The windows in which lines must be solved so that the split position's value comes
    /// out exact, given every node's interval `iv` so far: alpha-beta over intervals. A node
    /// needs nothing if its interval already settles it within its window; a child that
    /// cannot rise above both the window and its brothers' proven lower bounds needs nothing
    /// either; every other child gets the window between those and the node's beta. Solved
    /// fail-hard in these windows, the lines settle the root in one more pass.
    pub fn plan(&self, iv: &[[Value; 2]]) -> Vec<Option<[Value; 2]>> {
        let mut need: Vec<Option<[Value; 2]>> = vec![None; self.line.iter().flatten().count()];
        if let Some(&[lo, hi]) = iv.first() {
            if lo < hi {
                self.select(0, lo - 1, hi + 1, iv, &mut need);
            }
        }
        need
    }

    fn select(
        &self,
        n: usize,
        alpha: Value,
        beta: Value,
        iv: &[[Value; 2]],
        need: &mut [Option<[Value; 2]>],
    ) {
        let [lo, hi] = iv[n];
        if lo >= beta || hi <= alpha || lo == hi {
            return;
        }
        if let Some(id) = self.line[n] {
            let w = [alpha.max(lo - 1), beta.min(hi + 1)];
            need[id] = Some(match need[id] {
                Some([a, b]) => [a.min(w[0]), b.max(w[1])],
                None => w,
            });
            return;
        }
        // The two best proven lower bounds among the children, as the parent sees them.
        let los: Vec<Value> = self.children[n].iter().map(|&(_, c)| -iv[c][1]).collect();
        let (mut first, mut second) = (Value::MIN, Value::MIN);
        let mut arg = usize::MAX;
        for (k, &l) in los.iter().enumerate() {
            if l > first {
                (second, first, arg) = (first, l, k);
            } else if l > second {
                second = l;
            }
        }
        for (k, &(_, c)) in self.children[n].iter().enumerate() {
            let others = if k == arg { second } else { first };
            let t = alpha.max(others);
            if -iv[c][0] <= t {
                continue;
            }
            self.select(c, -beta, -t, iv, need);
        }
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

/// The results folder `dir`, or the split file's default one.
pub fn results_dir(split: &str, dir: Option<&String>) -> std::path::PathBuf {
    dir.map_or_else(|| default_dir(split), std::path::PathBuf::from)
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

/// Writes a split file (`cutoff split`, `cutoff plan`): the header, then the lines, one JSON
/// object a line, atomically.
pub fn write_split(path: &str, header: &Header, lines: &[Line]) -> Result<(), String> {
    let mut out = json_line(header)?;
    out.push('\n');
    for line in lines {
        out.push_str(&json_line(line)?);
        out.push('\n');
    }
    crate::files::write_atomic(std::path::Path::new(path), out.as_bytes())
}

/// `v` as one line of JSON.
fn json_line<T: Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| format!("cannot write JSON: {e}"))
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

    /// A random tree of paths (depth up to 4, 1 to 4 children) with random leaf values.
    fn random_tree(seed: u64) -> (PathTree, Vec<Value>) {
        let mut rng = cutoff::rng::SplitMix64::new(seed);
        let mut t = PathTree {
            children: vec![Vec::new()],
            line: vec![None],
        };
        let mut values = Vec::new();
        let mut stack = vec![(0usize, 0usize)];
        let depth = 1 + rng.next_u64() as usize % 4;
        while let Some((n, d)) = stack.pop() {
            if d == depth || (d > 0 && rng.next_u64().is_multiple_of(5)) {
                t.line[n] = Some(values.len());
                values.push((rng.next_u64() % 11) as Value - 5);
                continue;
            }
            for k in 0..1 + rng.next_u64() % 4 {
                t.children.push(Vec::new());
                t.line.push(None);
                let c = t.children.len() - 1;
                t.children[n].push((k.to_string(), c));
                stack.push((c, d + 1));
            }
        }
        (t, values)
    }

    fn negamax(t: &PathTree, n: usize, values: &[Value]) -> Value {
        match t.line[n] {
            Some(id) => values[id],
            None => t.children[n]
                .iter()
                .map(|&(_, c)| -negamax(t, c, values))
                .max()
                .unwrap(),
        }
    }

    /// What a fail-hard solve of a line of value `v` in `(a, b)` proves.
    fn solve_in(v: Value, [a, b]: [Value; 2], range: [Value; 2]) -> [Value; 2] {
        if v <= a {
            [range[0], a]
        } else if v >= b {
            [b, range[1]]
        } else {
            [v, v]
        }
    }

    #[test]
    fn one_planned_pass_settles_the_root_whatever_the_first_pass_proved() {
        let range = [-5, 5];
        for seed in 0..3000 {
            let (t, values) = random_tree(seed);
            let truth = negamax(&t, 0, &values);
            // First pass: every line in one window of the root's, seen from its own side
            // (here: the window of the line's parity, as split writes it).
            let mut rng = cutoff::rng::SplitMix64::new(seed ^ 0xabc);
            let a = (rng.next_u64() % 11) as Value - 6;
            let b = a + 1 + (rng.next_u64() % 4) as Value;
            let mut known: Vec<[Value; 2]> = values
                .iter()
                .map(|&v| solve_in(v, [a.min(4), b.min(5)], range))
                .collect();
            let iv = t.back_up(&known);
            assert!(iv[0][0] <= truth && truth <= iv[0][1], "seed {seed}");
            let need = t.plan(&iv);
            for (id, w) in need.iter().enumerate() {
                if let Some(w) = w {
                    assert!(w[0] < w[1], "seed {seed}: empty window");
                    let r = solve_in(values[id], *w, range);
                    known[id] = [known[id][0].max(r[0]), known[id][1].min(r[1])];
                }
            }
            let iv = t.back_up(&known);
            assert_eq!(iv[0], [truth, truth], "seed {seed}: {need:?}");
        }
    }

    #[test]
    fn digest_is_sha256() {
        assert_eq!(
            digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
