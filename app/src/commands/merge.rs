//! `cutoff merge FILE DIR [--json]`: checks that every shard of a split has its result, for
//! this split and exact, then backs the frontier's values up to the split position and
//! reports it as `cutoff solve` does, with the total work of all the shards.

use crate::output::Report;
use crate::position::{Describe, GameVisitor};
use crate::shard::{self, Path, Results, Solved, Split};
use crate::{AppError, Outcome};
use cutoff::knowledge::Knowledge;
use cutoff::{MoveBuffer, Notation, Value};
use serde::Serialize;

/// Arguments of `cutoff merge`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The split file (from `cutoff split`).
    pub file: String,
    /// The results folder of its shards (default: FILE.results).
    pub dir: Option<String>,
}

/// `merge --json`: `solve --json`'s fields, and the split's size.
#[derive(Serialize)]
struct Merged {
    #[serde(flatten)]
    report: Report,
    /// Shards merged.
    shards: usize,
    /// Frontier positions (lines of the split file).
    frontier: usize,
}

/// What a pass's results make of the split position.
pub enum Merge {
    /// Its value is settled: the report `cutoff merge` prints.
    Settled(Box<Report>),
    /// Its value still lies in `[lo, hi]`: `cutoff plan` writes the pass that settles it.
    Open([Value; 2]),
}

/// Backs the lines' results up to the split position (`cutoff merge` without its output):
/// its value and line of play if they are settled, with the total work of every pass.
pub fn merged(split: &Split, results: &Results) -> Result<Merge, AppError> {
    let lines = shard::intervals(split, &results.solved)?;
    let iv = split.tree.back_up(&lines);
    let [lo, hi] = iv[0];
    if lo != hi {
        return Ok(Merge::Open([lo, hi]));
    }
    let mut report = split.game.visit(Back {
        split,
        solved: &results.solved,
        iv: &iv,
    })?;
    if let Some(v) = report.value.as_mut() {
        *v *= split.game.scale();
    }
    // Both at most MAX_TOTAL_SECONDS (checked on reading): the sum is finite.
    report.time_ms = (results.seconds + split.header.prior_seconds) * 1e3;
    Ok(Merge::Settled(Box::new(report)))
}

/// Runs `cutoff merge`.
pub fn run(args: &Options) -> Result<Outcome, AppError> {
    let split = Split::read(&args.file)?;
    let dir = shard::results_dir(&args.file, args.dir.as_ref());
    let results = shard::load(&split, &dir)?;
    let report = match merged(&split, &results)? {
        Merge::Settled(report) => *report,
        Merge::Open([lo, hi]) => {
            return Err(AppError::invalid(format!(
                "the split position is not settled by this pass: its value lies in [{lo}, {hi}]; \
                 `cutoff plan {} {} --out NEXT` writes the pass that settles it",
                crate::message::shown_path(&args.file),
                crate::message::shown_path(&dir.to_string_lossy())
            )))
        }
    };
    let text = format!(
        "{}\n",
        report.text_with(&[
            ("shards", split.header.shards.to_string()),
            ("frontier", split.lines.len().to_string()),
        ])
    );
    let json = serde_json::to_string(&Merged {
        report,
        shards: split.header.shards,
        frontier: split.lines.len(),
    })
    .map_err(AppError::Json)?;
    Ok(Outcome {
        text,
        json,
        after: None,
    })
}

struct Back<'a> {
    split: &'a Split,
    solved: &'a [Option<Solved>],
    iv: &'a [[Value; 2]],
}

impl GameVisitor for Back<'_> {
    type Output = Result<Report, AppError>;
    fn visit<G: Describe>(self, game: &G) -> Result<Report, AppError> {
        report(game, &self)
    }
}

/// The report of the settled split position: its value, the line down the tree of paths
/// through children that prove it (each one's negated lower bound reaches its parent's
/// value, so each is settled too), then the frontier line's own line where it was solved
/// exactly, and the nodes of every pass (sums checked: the counts come from files).
fn report<G: Describe>(game: &G, b: &Back<'_>) -> Result<Report, AppError> {
    let (tree, iv) = (&b.split.tree, b.iv);
    let root_value = iv[0][0];
    let root = game.initial();
    let mut pos = root;
    let mut node = 0;
    let mut line = Vec::new();
    while tree.line(node).is_none() {
        let v = iv[node][0];
        let Some(c) = tree.children(node).find(|&c| -iv[c][1] == v) else {
            break;
        };
        let mut moves = G::Moves::default();
        game.moves(&pos, &mut moves);
        // The tree was built from these moves (see `shard::PathTree`).
        let Some(&m) = moves.as_slice().get(tree.move_index(c)) else {
            break;
        };
        line.push(m);
        pos = game.play(&pos, m);
        node = c;
    }
    if let Some(id) = tree.line(node) {
        if let Some(r) = b.solved[id].as_ref().filter(|r| r.bound == "exact") {
            line.extend(frontier_line(
                game,
                &pos,
                b.split.lines[id].paths.first(),
                r.pv.path(),
            )?);
        }
    }
    let overflow = || AppError::invalid("the results' node counts overflow");
    let mut s = cutoff::Stats {
        nodes: b.split.header.prior_nodes,
        ..cutoff::Stats::default()
    };
    let depth = u32::try_from(b.split.header.depth).unwrap_or(u32::MAX);
    // The searched count is a sum over every line or absent (0), never a silent undercount:
    // absent when a line has none (a result written before it was kept) or when earlier
    // passes' nodes come as one figure (`prior_nodes`) without one.
    let mut searched = (b.split.header.prior_nodes == 0).then_some(0u64);
    for l in b.solved.iter().flatten() {
        s.nodes = s.nodes.checked_add(l.nodes).ok_or_else(overflow)?;
        s.forced = s.forced.checked_add(l.forced).ok_or_else(overflow)?;
        searched = match (searched, l.searched) {
            (Some(a), Some(n)) => Some(a.checked_add(n).ok_or_else(overflow)?),
            _ => None,
        };
        s.leaves = s.leaves.checked_add(l.leaves).ok_or_else(overflow)?;
        s.cutoffs = s.cutoffs.checked_add(l.cutoffs).ok_or_else(overflow)?;
        s.first_move_cutoffs = s
            .first_move_cutoffs
            .checked_add(l.first_move_cutoffs)
            .ok_or_else(overflow)?;
        s.max_ply = s.max_ply.max(l.max_ply.saturating_add(depth));
    }
    s.searched = searched.unwrap_or(0);
    let result = cutoff::advanced::SearchResult {
        value: root_value,
        best_move: line.first().copied(),
        pv: line,
        stats: s,
        algo: cutoff::Algorithm::Solve,
    };
    let mut r = Report::new(game, &root, &result, None, 0.0);
    r.explained = Some(game.explain_value(&root, root_value));
    Ok(r)
}

/// The frontier line's principal variation `pv`, solved from the position its first path
/// `rep` reaches, as moves from `pos`: the same moves where `pos` is that position, mirrored
/// through the game's move codes where it is the mirror image. Stops where a move cannot be
/// carried over.
fn frontier_line<G: Notation>(
    game: &G,
    pos: &G::Pos,
    rep: Path<'_>,
    pv: Path<'_>,
) -> Result<Vec<G::Move>, AppError> {
    let mut there = shard::play_path(game, rep)?;
    let mut here = *pos;
    let same = game.key(&there) == game.key(&here);
    let mut out = Vec::new();
    for text in pv.iter() {
        let Ok(m) = game.parse_move(&there, text) else {
            break;
        };
        let mine = if same {
            Some(m)
        } else {
            let code = G::Knowledge::mirror_code(game, game.move_code(m));
            let mut moves = G::Moves::default();
            game.moves(&here, &mut moves);
            moves
                .as_slice()
                .iter()
                .find(|&&x| game.move_code(x) == code)
                .copied()
        };
        let Some(mine) = mine else {
            break;
        };
        out.push(mine);
        there = game.play(&there, m);
        here = game.play(&here, mine);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::frontier_line;
    use crate::shard::Moves;
    use cutoff::games::perfect::connect4::Connect4;
    use cutoff::{Game, Notation};

    #[test]
    fn a_line_solved_on_the_mirror_image_is_mirrored() {
        let game = Connect4::from_moves("").unwrap();
        let texts = |pos, moves: Vec<_>| -> Vec<String> {
            let mut p = pos;
            moves
                .into_iter()
                .map(|m| {
                    let t = game.format_move(&p, m);
                    p = game.play(&p, m);
                    t
                })
                .collect()
        };
        let here = game.play(
            &game.initial(),
            game.parse_move(&game.initial(), "5").unwrap(),
        );
        let rep = Moves::of(&["3"]).unwrap();
        let pv = Moves::of(&["3", "2", "1"]).unwrap();
        let line = frontier_line(&game, &here, rep.path(), pv.path()).unwrap();
        assert_eq!(texts(here, line), ["5", "6", "7"]);
        // The same position: the line as it is.
        let same = game.play(
            &game.initial(),
            game.parse_move(&game.initial(), "3").unwrap(),
        );
        let line = frontier_line(&game, &same, rep.path(), pv.path()).unwrap();
        assert_eq!(texts(same, line), ["3", "2", "1"]);
    }
}
