//! The checks of a split file ([`Split::parse`]) and of shard results ([`gather`]): both are
//! untrusted input (see the comment of the `shard` module).

use super::format::{digest, read, result_path, Header, Line, ShardResult, Solved};
use super::paths::{play_path, Path, PathTree};
use super::{
    ShardError, FILE_LIMIT, MAX_DEPTH, MAX_ESTIMATE_DEPTH, MAX_PATHS, MAX_SECONDS, MAX_SHARDS,
    MAX_TOTAL_SECONDS, MAX_WINDOW, RESULT_VERSION, SPLIT_VERSION,
};
use crate::message::shown_path;
use crate::position::{AnyGame, Describe, GameVisitor, RangeOf};
use cutoff::knowledge::Knowledge;
use cutoff::{MoveBuffer, Value};
use std::collections::HashMap;

/// A split file, read and checked, with its game set up and the tree of its paths.
pub struct Split {
    /// Its SHA-256, as lowercase hex.
    pub digest: String,
    /// Its name as messages show it.
    pub name: String,
    /// Its header.
    pub header: Header,
    /// The lines, in id order.
    pub lines: Vec<Line>,
    /// Each line's row in the file, from 1 (for messages).
    rows: Vec<usize>,
    /// The game, at the split position.
    pub game: AnyGame,
    /// The tree of every path.
    pub tree: PathTree,
}

/// Checks that `w` is a window `split --window` or `solve-shard --window` can give.
fn check_window([a, b]: [Value; 2]) -> Result<(), ShardError> {
    if a >= b {
        return Err(ShardError::EmptyWindow([a, b]));
    }
    if a < -MAX_WINDOW || b > MAX_WINDOW {
        return Err(ShardError::WideWindow([a, b]));
    }
    Ok(())
}

/// Checks that `x` is a time a run can take: finite, not negative, at most `most`.
fn check_time(x: f64, most: f64, what: &'static str) -> Result<(), ShardError> {
    if x.is_finite() && (0.0..=most).contains(&x) {
        return Ok(());
    }
    Err(ShardError::Time {
        what,
        value: x,
        most,
    })
}

impl Split {
    /// Reads and checks the split file at `path` (see [`Split::parse`]).
    pub fn read(path: &str) -> Result<Split, ShardError> {
        Split::parse(&read(path)?, path)
    }

    /// Reads and checks a split file's bytes; errors name it `path` and the line at fault.
    /// Accepts only what `split` and `plan` write: a header within their limits, lines
    /// numbered 0, 1, ... with shards, windows and intervals in range, and paths that replay
    /// on the game (see [`PathTree`]).
    pub fn parse(bytes: &[u8], path: &str) -> Result<Split, ShardError> {
        let what = shown_path(path);
        let text =
            std::str::from_utf8(bytes).map_err(|_| ShardError::SplitNotUtf8(what.clone()))?;
        let text = crate::files::strip_bom(text);
        let mut rows = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = rows
            .next()
            .ok_or_else(|| ShardError::SplitEmpty(what.clone()))?;
        let header: Header =
            serde_json::from_str(first).map_err(|source| ShardError::NotSplit {
                file: what.clone(),
                source,
            })?;
        check_header(&header).map_err(|e| e.in_split(&what, 1))?;
        let game = header.game.game().map_err(|e| e.in_split(&what, 1))?;
        let (lo, hi) = game.visit(RangeOf);
        if header.range != [lo, hi] {
            return Err(ShardError::Range {
                range: header.range,
                game: [lo, hi],
            }
            .in_split(&what, 1));
        }
        let mut lines = Vec::with_capacity(header.frontier.min(1 << 16));
        let mut line_rows = Vec::with_capacity(header.frontier.min(1 << 16));
        let mut paths = 0usize;
        // The first pass's window, seen from the split position (see `split`).
        let mut root_window: Option<Option<[Value; 2]>> = None;
        for (i, row) in rows {
            let at = |e: ShardError| e.in_split(&what, i + 1);
            if lines.len() >= header.frontier {
                return Err(at(ShardError::MoreLines(header.frontier)));
            }
            let line: Line = serde_json::from_str(row).map_err(|e| at(ShardError::Json(e)))?;
            paths = paths.saturating_add(line.paths.len());
            if paths > header.paths {
                return Err(at(ShardError::MorePaths(header.paths)));
            }
            check_line(&header, &line, lines.len()).map_err(at)?;
            if header.pass == 1 {
                let w = line.window.map(|[a, b]| {
                    if line.paths.first().len() % 2 == 1 {
                        [-b, -a]
                    } else {
                        [a, b]
                    }
                });
                if *root_window.get_or_insert(w) != w {
                    return Err(at(ShardError::WindowDiffers));
                }
            }
            lines.push(line);
            line_rows.push(i + 1);
        }
        if lines.len() != header.frontier || paths != header.paths {
            return Err(ShardError::Truncated {
                file: what,
                lines: lines.len(),
                paths,
                header: [header.frontier, header.paths],
            });
        }
        let tree = game.visit(Check {
            what: &what,
            header: &header,
            lines: &lines,
            rows: &line_rows,
        })?;
        Ok(Split {
            digest: digest(bytes),
            name: what,
            header,
            lines,
            rows: line_rows,
            game,
            tree,
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

    /// The row of line `id` in the file, from 1.
    pub fn row(&self, id: usize) -> usize {
        self.rows.get(id).copied().unwrap_or(0)
    }
}

/// The header's claims within what `split` and `plan` write.
fn check_header(h: &Header) -> Result<(), ShardError> {
    if h.cutoff_split != SPLIT_VERSION {
        return Err(ShardError::SplitVersion(h.cutoff_split));
    }
    if h.shards == 0 || h.shards > MAX_SHARDS {
        return Err(ShardError::Shards(h.shards));
    }
    if h.depth > MAX_DEPTH {
        return Err(ShardError::Depth(h.depth));
    }
    if h.estimate_depth > MAX_ESTIMATE_DEPTH {
        return Err(ShardError::EstimateDepth(h.estimate_depth));
    }
    if h.paths > MAX_PATHS || h.frontier == 0 || h.frontier > h.paths {
        return Err(ShardError::Counts {
            frontier: h.frontier,
            paths: h.paths,
        });
    }
    if h.pass == 0 || (h.pass == 1 && (h.prior_nodes != 0 || h.prior_seconds != 0.0)) {
        return Err(ShardError::Pass {
            pass: h.pass,
            nodes: h.prior_nodes,
            seconds: h.prior_seconds,
        });
    }
    check_time(h.prior_seconds, MAX_TOTAL_SECONDS, "prior_seconds")
}

/// One line's fields within what `split` and `plan` write (its paths are checked on the
/// game by [`Check`]).
fn check_line(h: &Header, line: &Line, expected_id: usize) -> Result<(), ShardError> {
    if line.id != expected_id {
        return Err(ShardError::Id {
            found: line.id,
            expected: expected_id,
        });
    }
    if let Some(sh) = line.shard.filter(|&sh| sh >= h.shards) {
        return Err(ShardError::ShardOutOfRange {
            shard: sh,
            shards: h.shards,
        });
    }
    if line.paths.is_empty() {
        return Err(ShardError::NoPaths);
    }
    if let Some(p) = line.paths.iter().find(|p| p.len() > h.depth) {
        return Err(ShardError::DeepPath {
            moves: p.len(),
            depth: h.depth,
        });
    }
    let [lo, hi] = h.range;
    if let Some([a, b]) = line.known {
        if a > b || a < lo || b > hi {
            return Err(ShardError::KnownOutOfRange {
                known: [a, b],
                range: h.range,
            });
        }
    }
    if h.pass == 1 {
        // `split`: every line in a shard, nothing known yet.
        if line.shard.is_none() || line.known.is_some() {
            return Err(ShardError::FirstPass);
        }
        if let Some(w) = line.window {
            check_window(w)?;
        }
    } else {
        // `plan`: what is known of every line; a window exactly for the lines it solves,
        // within one of what is known, which it leaves open.
        let Some([klo, khi]) = line.known else {
            return Err(ShardError::NoKnown);
        };
        if line.shard.is_some() != line.window.is_some() {
            return Err(ShardError::WindowWithoutShard);
        }
        if let Some([a, b]) = line.window {
            if a >= b || klo == khi || a < klo - 1 || b > khi + 1 {
                return Err(ShardError::WindowOutsideKnown {
                    window: [a, b],
                    known: [klo, khi],
                });
            }
        }
    }
    Ok(())
}

/// Builds the tree of a split's paths, replaying them on the game (see [`PathTree`]).
struct Check<'a> {
    what: &'a str,
    header: &'a Header,
    lines: &'a [Line],
    rows: &'a [usize],
}

impl GameVisitor for Check<'_> {
    type Output = Result<PathTree, ShardError>;
    fn visit<G: Describe>(self, game: &G) -> Result<PathTree, ShardError> {
        check_paths(game, &self)
    }
}

/// A position on the way down the tree of paths.
struct Frame<G: cutoff::Game> {
    node: u32,
    pos: G::Pos,
    moves: G::Moves,
    children: usize,
}

/// Replays every path of `c` on `game` and builds their tree. The paths are taken in the
/// order of their moves' texts, so that a path comes right after its prefixes and next to
/// its equals: the checks do not depend on the order of the lines, each node is played
/// once, and a node's moves are all seen before the walk leaves it, so that an incomplete
/// node is refused at once (the tree of a file that passes is the tree `split` walked).
fn check_paths<G: Describe>(game: &G, c: &Check<'_>) -> Result<PathTree, ShardError> {
    let lines = c.lines;
    let at = |id: usize, e: ShardError| e.in_split(c.what, c.rows[id]);
    // Each path's moves as small numbers, one per distinct text, so that sorting compares
    // numbers: (line, path, start in `seq`, length).
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut seq: Vec<u32> = Vec::new();
    let mut order: Vec<(u32, u32, u32, u32)> = Vec::with_capacity(c.header.paths);
    for (id, l) in lines.iter().enumerate() {
        for (k, path) in l.paths.iter().enumerate() {
            let start = seq.len();
            for mv in path.iter() {
                let next = ids.len() as u32;
                seq.push(*ids.entry(mv).or_insert(next));
            }
            // At most MAX_PATHS paths of at most MAX_DEPTH moves: all fit in u32.
            order.push((id as u32, k as u32, start as u32, path.len() as u32));
        }
    }
    let moves_of = |&(_, _, s, n): &(u32, u32, u32, u32)| &seq[s as usize..(s + n) as usize];
    order.sort_unstable_by(|a, b| moves_of(a).cmp(moves_of(b)));
    let mut tree = PathTree::default();
    let mut stack: Vec<Frame<G>> = vec![Frame {
        node: tree.push(0),
        pos: game.initial(),
        moves: G::Moves::default(),
        children: 0,
    }];
    let mut key_of: Vec<Option<u64>> = vec![None; lines.len()];
    let mut full = vec![false; lines.len()];
    let mut prev: Option<(usize, &[u32])> = None;
    let root_text = c.header.game.position.as_deref();
    for entry in &order {
        let (id, k) = (entry.0 as usize, entry.1 as usize);
        let Some(path) = lines[id].paths.get(k) else {
            continue;
        };
        let here = moves_of(entry);
        let common = prev.map_or(0, |(_, p)| {
            p.iter().zip(here).take_while(|(a, b)| a == b).count()
        });
        while stack.len() > common + 1 {
            close(&mut tree, &mut stack, |e| at(prev.map_or(id, |p| p.0), e))?;
        }
        if prev.is_some() && common == path.len() {
            return Err(at(id, ShardError::SamePathTwice));
        }
        for (d, text) in path.iter().enumerate().skip(common) {
            let Some(top) = stack.last_mut() else { break };
            if let Some(other) = tree.line(top.node as usize) {
                return Err(at(id, ShardError::PastFrontier(c.rows[other])));
            }
            if game.outcome(&top.pos).is_some() {
                return Err(at(
                    id,
                    ShardError::AfterEnd {
                        index: d + 1,
                        mv: text.to_string(),
                    },
                ));
            }
            let mv = game.parse_move(&top.pos, text).map_err(|source| {
                at(
                    id,
                    ShardError::BadMove {
                        index: d + 1,
                        mv: text.to_string(),
                        source,
                    },
                )
            })?;
            if top.children == 0 {
                game.moves(&top.pos, &mut top.moves);
            }
            let index = top.moves.as_slice().iter().position(|&m| m == mv);
            let written = game.format_move(&top.pos, mv);
            let Some(index) = index.filter(|_| written == text) else {
                return Err(at(
                    id,
                    ShardError::IllegalMove {
                        index: d + 1,
                        mv: text.to_string(),
                    },
                ));
            };
            top.children += 1;
            let pos = game.play(&top.pos, mv);
            let index = u16::try_from(index).map_err(|_| at(id, ShardError::TooManyMoves))?;
            stack.push(Frame {
                node: tree.push(index),
                pos,
                moves: G::Moves::default(),
                children: 0,
            });
        }
        let Some(top) = stack.last() else { break };
        tree.set_line(top.node as usize, id);
        let pos = top.pos;
        if path.len() == c.header.depth || game.outcome(&pos).is_some() {
            full[id] = true;
        }
        let key = G::Knowledge::table_key(game, &pos).0;
        match key_of[id] {
            None => key_of[id] = Some(key),
            Some(k0) if k0 != key => return Err(at(id, ShardError::DifferentPositions)),
            Some(_) => {}
        }
        if k == 0 {
            let expected = game
                .position_arg(root_text, &path.to_vec(), &pos)
                .unwrap_or_else(|| game.describe(&pos));
            if lines[id].position != expected {
                return Err(at(
                    id,
                    ShardError::WrongPosition {
                        written: lines[id].position.clone(),
                        reached: expected,
                    },
                ));
            }
        }
        prev = Some((id, here));
    }
    let last = prev.map_or(0, |p| p.0);
    while !stack.is_empty() {
        close(&mut tree, &mut stack, |e| at(last, e))?;
    }
    let mut seen: HashMap<u64, usize> = HashMap::with_capacity(lines.len());
    for id in 0..lines.len() {
        if !full[id] {
            return Err(at(id, ShardError::ShortPaths(c.header.depth)));
        }
        if let Some(key) = key_of[id] {
            if let Some(other) = seen.insert(key, id) {
                return Err(at(id, ShardError::SamePosition(c.rows[other])));
            }
        }
    }
    Ok(tree)
}

/// Leaves the deepest position of the walk: a position with moves must have them all.
fn close<G: Describe>(
    tree: &mut PathTree,
    stack: &mut Vec<Frame<G>>,
    at: impl Fn(ShardError) -> ShardError,
) -> Result<(), ShardError> {
    let Some(f) = stack.pop() else { return Ok(()) };
    if f.children > 0 && f.children != f.moves.len() {
        return Err(at(ShardError::Incomplete {
            depth: stack.len(),
            moves: f.moves.len(),
            followed: f.children,
        }));
    }
    tree.close(f.node as usize);
    Ok(())
}

/// What a line's result proves of its value, as `[lo, hi]`, within the game's `range`.
pub fn proved(r: &Solved, range: [Value; 2]) -> Result<[Value; 2], ShardError> {
    match r.bound.as_str() {
        "exact" => Ok([r.value, r.value]),
        "upper" => Ok([range[0], r.value]),
        "lower" => Ok([r.value, range[1]]),
        other => Err(ShardError::UnknownBound {
            id: r.id,
            bound: other.to_string(),
        }),
    }
}

/// What one pass's results hold: each line's result by id (`None` for the lines this pass
/// does not solve), and the shards' totals.
pub struct Results {
    /// Each line's result.
    pub solved: Vec<Option<Solved>>,
    /// The shards' total wall time, in seconds.
    pub seconds: f64,
    /// The shards' total nodes.
    pub nodes: u64,
}

/// A shard's result file's bytes and its name for messages; `None` if it has none.
pub type Found = Option<(Vec<u8>, String)>;

/// Every shard's result in `dir`, checked (see [`gather`]).
pub fn load(split: &Split, dir: &std::path::Path) -> Result<Results, ShardError> {
    let shown = shown_path(&dir.to_string_lossy());
    gather(split, &shown, |i| result_bytes(dir, i))
}

/// Shard `index`'s result file in `dir`: only a regular file is read (a FIFO would block).
fn result_bytes(dir: &std::path::Path, index: usize) -> Result<Found, ShardError> {
    let path = result_path(dir, index);
    if !path.exists() {
        return Ok(None);
    }
    let shown = shown_path(&path.to_string_lossy());
    let bytes = crate::files::read_regular(&path, FILE_LIMIT)
        .map_err(|e| ShardError::from(e).in_shard(index))?;
    Ok(Some((bytes, shown)))
}

/// Every shard's result, as `source` gives each shard's file, checked (see
/// [`check_result`]); names the missing shards if any. `dir` names where they were looked
/// for.
pub fn gather(
    split: &Split,
    dir: &str,
    mut source: impl FnMut(usize) -> Result<Found, ShardError>,
) -> Result<Results, ShardError> {
    let n = split.header.shards;
    let mut count = vec![0usize; n];
    for l in &split.lines {
        if let Some(s) = l.shard {
            count[s] += 1;
        }
    }
    let mut out = Results {
        solved: vec![None; split.lines.len()],
        seconds: 0.0,
        nodes: 0,
    };
    let mut missing = Vec::new();
    for (i, &lines) in count.iter().enumerate() {
        match source(i)? {
            None => missing.push(i),
            Some((bytes, shown)) => {
                let r = check_result(split, i, lines, &bytes, &shown)?;
                out.seconds += r.seconds;
                out.nodes = out
                    .nodes
                    .checked_add(r.nodes)
                    .ok_or_else(|| ShardError::ShardNodesOverflow.in_shard(i))?;
                for l in r.lines {
                    let id = l.id;
                    out.solved[id] = Some(l);
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(ShardError::Missing {
            missing,
            shards: n,
            dir: dir.to_string(),
        });
    }
    Ok(out)
}

/// Reads shard `index`'s result in `dir` and checks it against `split`: `Ok(None)` if there
/// is none, an error naming what is wrong if it is unreadable, truncated, of another split,
/// incomplete or impossible.
pub fn read_result(
    split: &Split,
    dir: &std::path::Path,
    index: usize,
) -> Result<Option<ShardResult>, ShardError> {
    let Some((bytes, shown)) = result_bytes(dir, index)? else {
        return Ok(None);
    };
    let lines = split
        .lines
        .iter()
        .filter(|l| l.shard == Some(index))
        .count();
    check_result(split, index, lines, &bytes, &shown).map(Some)
}

/// Checks shard `index`'s result file (`bytes`, named `shown`) against `split`, whose shard
/// has `lines` lines: its version, digest and shard; its lines exactly the shard's, in
/// order; each value within the game's range, each bound one the line's window can give
/// (exact without one), each line of play legal from the line's position; times finite and
/// not negative, node counts adding up.
pub fn check_result(
    split: &Split,
    index: usize,
    lines: usize,
    bytes: &[u8],
    shown: &str,
) -> Result<ShardResult, ShardError> {
    let file = shown.to_string();
    let r: ShardResult = serde_json::from_slice(bytes)
        .map_err(|source| ShardError::NotResult { file, source }.in_shard(index))?;
    let file = shown.to_string();
    let bad = |e: ShardError| e.in_result(shown).in_shard(index);
    if r.cutoff_shard != RESULT_VERSION {
        return Err(ShardError::ResultVersion {
            file,
            found: r.cutoff_shard,
        }
        .in_shard(index));
    }
    if r.digest != split.digest {
        return Err(ShardError::OtherSplit {
            file,
            found: r.digest,
            ours: split.digest.clone(),
        }
        .in_shard(index));
    }
    if r.shard != index || r.shards != split.header.shards {
        return Err(ShardError::OtherShard {
            file,
            shard: r.shard,
            shards: r.shards,
        }
        .in_shard(index));
    }
    let in_order = r.lines.windows(2).all(|w| w[0].id < w[1].id);
    let ours = r.lines.iter().all(|l| {
        split
            .lines
            .get(l.id)
            .is_some_and(|line| line.shard == Some(index))
    });
    if r.lines.len() != lines || !in_order || !ours {
        return Err(ShardError::ResultLines {
            file,
            found: r.lines.len(),
            expected: lines,
        }
        .in_shard(index));
    }
    if let Some(w) = r.window {
        check_window(w).map_err(bad)?;
    }
    check_time(r.seconds, MAX_SECONDS, "seconds").map_err(bad)?;
    let mut nodes = 0u64;
    let [lo, hi] = split.header.range;
    for l in &r.lines {
        let line = &split.lines[l.id];
        let at = |e: ShardError| bad(e.at_id(l.id));
        nodes = nodes
            .checked_add(l.nodes)
            .ok_or_else(|| at(ShardError::NodesOverflow))?;
        check_time(l.ms, MAX_SECONDS * 1e3, "ms").map_err(at)?;
        if l.value < lo || l.value > hi {
            return Err(at(ShardError::ValueOutOfRange {
                value: l.value,
                range: [lo, hi],
            }));
        }
        let window = r.window.or(line.window);
        let fits = match (l.bound.as_str(), window) {
            ("exact", _) => true,
            ("upper", Some([a, _])) => l.value <= a,
            ("lower", Some([_, b])) => l.value >= b,
            _ => false,
        };
        if !fits {
            return Err(at(ShardError::BoundMismatch {
                bound: l.bound.clone(),
                value: l.value,
                window,
            }));
        }
        if l.bound != "exact" && !l.pv.is_empty() {
            return Err(at(ShardError::BoundWithLine));
        }
        split
            .game
            .visit(PvCheck {
                path: line.paths.first(),
                pv: l.pv.path(),
            })
            .map_err(at)?;
    }
    if nodes != r.nodes {
        return Err(bad(ShardError::NodeSum {
            claimed: r.nodes,
            sum: nodes,
        }));
    }
    Ok(r)
}

/// Checks that a line of play `pv` is legal from the end of `path`, written as the game
/// writes it.
struct PvCheck<'a> {
    path: Path<'a>,
    pv: Path<'a>,
}

impl GameVisitor for PvCheck<'_> {
    type Output = Result<(), ShardError>;
    fn visit<G: Describe>(self, game: &G) -> Result<(), ShardError> {
        let mut pos = play_path(game, self.path)?;
        for (i, text) in self.pv.iter().enumerate() {
            let bad = || ShardError::IllegalPvMove {
                index: i + 1,
                mv: text.to_string(),
            };
            if game.outcome(&pos).is_some() {
                return Err(bad());
            }
            let mv = game.parse_move(&pos, text).map_err(|_| bad())?;
            if game.format_move(&pos, mv) != text {
                return Err(bad());
            }
            pos = game.play(&pos, mv);
        }
        Ok(())
    }
}

/// Each line's interval: what earlier passes knew, narrowed by this pass's result.
pub fn intervals(split: &Split, solved: &[Option<Solved>]) -> Result<Vec<[Value; 2]>, ShardError> {
    let range = split.header.range;
    split
        .lines
        .iter()
        .zip(solved)
        .map(|(line, r)| {
            let known = line.known.unwrap_or(range);
            let mut iv = known;
            if let Some(r) = r {
                let [lo, hi] = proved(r, range)?;
                iv = [iv[0].max(lo), iv[1].min(hi)];
                if iv[0] > iv[1] {
                    return Err(ShardError::Contradiction {
                        bound: r.bound.clone(),
                        value: r.value,
                        known,
                    }
                    .in_split(&split.name, split.row(line.id)));
                }
            }
            Ok(iv)
        })
        .collect()
}
