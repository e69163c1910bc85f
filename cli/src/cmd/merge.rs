//! `cutoff merge FILE DIR [--json]`: checks that every shard of a split has its result, for
//! this split and exact, then backs the frontier's values up to the split position and
//! reports it as `cutoff solve` does, with the total work of all the shards.

use super::CliResult;
use crate::output::Report;
use crate::position::{AnyGame, Describe, GameVisitor};
use crate::shard::{self, PathTree, Solved, Split};
use cutoff::{MoveBuffer, Notation, Value};
use serde::Serialize;

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

/// Runs `cutoff merge`.
pub fn run(args: &Args) -> CliResult {
    let split = Split::read(&args.file)?;
    let dir = shard::results_dir(&args.file, args.dir.as_ref());
    let (solved, seconds) = shard::load(&split, &dir)?;
    let lines = shard::intervals(&split, &solved)?;
    let tree = PathTree::new(&split)?;
    let iv = tree.back_up(&lines);
    let [lo, hi] = iv[0];
    if lo != hi {
        return Err(format!(
            "the split position is not settled by this pass: its value lies in [{lo}, {hi}]; \
             `cutoff plan {} {} --out NEXT` writes the pass that settles it",
            crate::cmd::shown_path(&args.file),
            crate::cmd::shown_path(&dir.to_string_lossy())
        ));
    }
    let game = AnyGame::parse(&split.header.game.args()?)?;
    let scale = game.scale();
    let mut report = game.visit(Back {
        split: &split,
        solved: &solved,
        tree: &tree,
        iv: &iv,
    })?;
    if let Some(v) = report.value.as_mut() {
        *v *= scale;
    }
    report.time_ms = (seconds + split.header.prior_seconds) * 1e3;
    if args.json {
        let m = Merged {
            report,
            shards: split.header.shards,
            frontier: split.lines.len(),
        };
        let text = serde_json::to_string(&m).map_err(|e| format!("cannot write JSON: {e}"))?;
        println!("{text}");
    } else {
        println!(
            "{}",
            report.text_with(&[
                ("shards", split.header.shards.to_string()),
                ("frontier", split.lines.len().to_string()),
            ])
        );
    }
    Ok(())
}

struct Back<'a> {
    split: &'a Split,
    solved: &'a [Option<Solved>],
    tree: &'a PathTree,
    iv: &'a [[Value; 2]],
}

impl GameVisitor for Back<'_> {
    type Output = Result<Report, String>;
    fn visit<G: Describe>(self, game: &G) -> Result<Report, String> {
        report(game, &self)
    }
}

/// The report of the settled split position: its value, the line down the tree of paths
/// through children that prove it (each one's negated lower bound reaches its parent's
/// value, so each is settled too), then the frontier line's own line where it was solved
/// exactly, and the nodes of every pass.
fn report<G: Describe>(game: &G, b: &Back<'_>) -> Result<Report, String> {
    let (tree, iv) = (b.tree, b.iv);
    let root_value = iv[0][0];
    let mut pos = game.initial();
    let mut node = 0;
    let mut pv: Vec<String> = Vec::new();
    while tree.line[node].is_none() {
        let v = iv[node][0];
        let Some((mv, c)) = tree.children[node].iter().find(|&&(_, c)| -iv[c][1] == v) else {
            break;
        };
        let m = game
            .parse_move(&pos, mv)
            .map_err(|e| format!("a path's move '{}': {e}", cutoff::game::quote(mv)))?;
        pos = game.play(&pos, m);
        pv.push(mv.clone());
        node = *c;
    }
    if let Some(id) = tree.line[node] {
        if let Some(r) = b.solved[id].as_ref().filter(|r| r.bound == "exact") {
            pv.extend(frontier_line(
                game,
                &pos,
                &b.split.lines[id].paths[0],
                &r.pv,
            )?);
        }
    }
    let mut s = cutoff::Stats {
        nodes: b.split.header.prior_nodes,
        ..cutoff::Stats::default()
    };
    for l in b.solved.iter().flatten() {
        s.nodes += l.nodes;
        s.forced += l.forced;
        s.leaves += l.leaves;
        s.cutoffs += l.cutoffs;
        s.first_move_cutoffs += l.first_move_cutoffs;
        s.max_ply = s.max_ply.max(l.max_ply + b.split.header.depth as u32);
    }
    let root = game.initial();
    let mut line = Vec::new();
    let mut p = root;
    for text in &pv {
        let Ok(m) = game.parse_move(&p, text) else {
            break;
        };
        line.push(m);
        p = game.play(&p, m);
    }
    let result = cutoff::SearchResult {
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
    rep: &[String],
    pv: &[String],
) -> Result<Vec<String>, String> {
    let mut there = super::solve_shard::play_path(game, rep)?;
    let mut here = *pos;
    if game.key(&there) == game.key(&here) {
        return Ok(pv.to_vec());
    }
    let mut out = Vec::new();
    for text in pv {
        let Ok(m) = game.parse_move(&there, text) else {
            break;
        };
        let code = game.mirror_code(game.move_code(m));
        let mut moves = G::Moves::default();
        game.moves(&here, &mut moves);
        let Some(&mine) = moves
            .as_slice()
            .iter()
            .find(|&&x| game.move_code(x) == code)
        else {
            break;
        };
        out.push(game.format_move(&here, mine));
        there = game.play(&there, m);
        here = game.play(&here, mine);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::frontier_line;
    use cutoff::games::connect4::Connect4;
    use cutoff::{Game, Notation};

    #[test]
    fn a_line_solved_on_the_mirror_image_is_mirrored() {
        let game = Connect4::from_moves("").unwrap();
        let here = game.play(
            &game.initial(),
            game.parse_move(&game.initial(), "5").unwrap(),
        );
        let rep = vec!["3".to_string()];
        let pv: Vec<String> = ["3", "2", "1"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            frontier_line(&game, &here, &rep, &pv).unwrap(),
            ["5", "6", "7"]
        );
        // The same position: the line as it is.
        let same = game.play(
            &game.initial(),
            game.parse_move(&game.initial(), "3").unwrap(),
        );
        assert_eq!(frontier_line(&game, &same, &rep, &pv).unwrap(), pv);
    }
}
