//! `cutoff merge FILE DIR [--json]`: checks that every shard of a split has its result, for
//! this split and exact, then backs the frontier's values up to the split position and
//! reports it as `cutoff solve` does, with the total work of all the shards.

use super::CliResult;
use crate::output::Report;
use crate::position::{AnyGame, Describe, GameVisitor};
use crate::shard::{self, Solved, Split};
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
    let dir = args
        .dir
        .as_ref()
        .map_or_else(|| shard::default_dir(&args.file), std::path::PathBuf::from);
    let n = split.header.shards;
    let mut solved: Vec<Option<Solved>> = vec![None; split.lines.len()];
    let mut missing = Vec::new();
    let mut seconds = 0.0;
    for i in 0..n {
        match shard::read_result(&split, &dir, i)? {
            None => missing.push(i),
            Some(r) => {
                seconds += r.seconds;
                for l in r.lines {
                    if l.bound != "exact" {
                        return Err(format!(
                            "shard {i}: line {} holds a bound ({} {}), not an exact value",
                            l.id, l.bound, l.value
                        ));
                    }
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
    // `read_result` checked each shard's ids against the split, so every line is here.
    let solved: Vec<Solved> = solved.into_iter().flatten().collect();
    if solved.len() != split.lines.len() {
        return Err("the results do not cover every line of the split".into());
    }
    let game = AnyGame::parse(&split.header.game.args()?)?;
    let scale = game.scale();
    let mut report = game.visit(Back {
        split: &split,
        solved: &solved,
    })?;
    if let Some(v) = report.value.as_mut() {
        *v *= scale;
    }
    report.time_ms = seconds * 1e3;
    if args.json {
        let m = Merged {
            report,
            shards: n,
            frontier: split.lines.len(),
        };
        let text = serde_json::to_string(&m).map_err(|e| format!("cannot write JSON: {e}"))?;
        println!("{text}");
    } else {
        println!(
            "{}",
            report.text_with(&[
                ("shards", n.to_string()),
                ("frontier", split.lines.len().to_string()),
            ])
        );
    }
    Ok(())
}

struct Back<'a> {
    split: &'a Split,
    solved: &'a [Solved],
}

impl GameVisitor for Back<'_> {
    type Output = Result<Report, String>;
    fn visit<G: Describe>(self, game: &G) -> Result<Report, String> {
        back_up(game, self.split, self.solved)
    }
}

/// The tree of the split's paths: each node a position between the split position and the
/// frontier, its children by move text, or a frontier line.
#[derive(Default)]
struct Trie {
    children: Vec<(String, usize)>,
    line: Option<usize>,
}

/// Negamax over the paths' tree: the value of `node` from its side to move.
fn value(trie: &[Trie], node: usize, solved: &[Solved]) -> Value {
    let t = &trie[node];
    match t.line {
        Some(id) => solved[id].value,
        None => t
            .children
            .iter()
            .map(|&(_, c)| -value(trie, c, solved))
            .max()
            .unwrap_or(0),
    }
}

fn back_up<G: Describe>(game: &G, split: &Split, solved: &[Solved]) -> Result<Report, String> {
    let mut trie = vec![Trie::default()];
    for line in &split.lines {
        for path in &line.paths {
            let mut node = 0;
            for mv in path {
                node = match trie[node].children.iter().find(|(m, _)| m == mv) {
                    Some(&(_, c)) => c,
                    None => {
                        trie.push(Trie::default());
                        let c = trie.len() - 1;
                        trie[node].children.push((mv.clone(), c));
                        c
                    }
                };
            }
            if trie[node].line.is_some_and(|l| l != line.id) || !trie[node].children.is_empty() {
                return Err(format!(
                    "the split file is inconsistent: a path of line {} ends where another \
                     line's does or passes through",
                    line.id
                ));
            }
            trie[node].line = Some(line.id);
        }
    }
    let root_value = value(&trie, 0, solved);
    // The line: best children down to the frontier, then the frontier's own line.
    let mut pos = game.initial();
    let mut node = 0;
    let mut path: Vec<String> = Vec::new();
    while trie[node].line.is_none() {
        let v = value(&trie, node, solved);
        let Some(&(ref mv, c)) = trie[node]
            .children
            .iter()
            .find(|&&(_, c)| -value(&trie, c, solved) == v)
        else {
            break;
        };
        let m = game
            .parse_move(&pos, mv)
            .map_err(|e| format!("a path's move '{}': {e}", cutoff::game::quote(mv)))?;
        pos = game.play(&pos, m);
        path.push(mv.clone());
        node = c;
    }
    let mut pv = path.clone();
    if let Some(id) = trie[node].line {
        pv.extend(frontier_line(
            game,
            &pos,
            &split.lines[id].paths[0],
            &solved[id].pv,
        )?);
    }
    let mut s = cutoff::Stats::default();
    for l in solved {
        s.nodes += l.nodes;
        s.forced += l.forced;
        s.leaves += l.leaves;
        s.cutoffs += l.cutoffs;
        s.first_move_cutoffs += l.first_move_cutoffs;
        s.max_ply = s.max_ply.max(l.max_ply + split.header.depth as u32);
    }
    // The report of a solve whose line is `pv` from the split position.
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
