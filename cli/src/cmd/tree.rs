//! `cutoff tree FILE`: search a hand-written tree; optionally trace the walk or draw it.

use super::{read_file, CliResult};
use crate::output::Report;
use crate::walk::TreeWalk;
use cutoff::games::tree::Tree;
use cutoff::search::Observer;
use cutoff::trace::Trace;
use cutoff::{Algorithm, Game, Player, SearchResult, Searcher};
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// Arguments of `cutoff tree`.
#[derive(clap::Args)]
pub struct Args {
    /// The tree file: leaves are integers from MAX's view, inner nodes parenthesised lists,
    /// optional labels `name:`, `#` comments (see positions/trees/). At most 16 MiB.
    pub file: String,
    /// Search algorithm: minimax, negamax, alphabeta, alphabeta-hard, veb, ab, pvs, mtdf,
    /// solve.
    #[arg(long, default_value = "alphabeta", value_parser = parse_algo)]
    pub algo: Algorithm,
    /// Whether the root is a MAX or a MIN node.
    #[arg(long, default_value = "max", value_parser = parse_root)]
    pub root: Player,
    /// Also print the settle order and the pruned subtrees.
    #[arg(long)]
    pub trace: bool,
    /// Print the tree as a Graphviz digraph instead of the report.
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
    /// Print one JSON object: the report, the settle order and the pruned subtrees.
    #[arg(long)]
    pub json: bool,
}

fn parse_algo(s: &str) -> Result<Algorithm, String> {
    s.parse()
}

fn parse_root(s: &str) -> Result<Player, String> {
    match s {
        "max" => Ok(Player::First),
        "min" => Ok(Player::Second),
        _ => Err(format!(
            "invalid root '{}' (expected max or min)",
            cutoff::game::quote(s)
        )),
    }
}

fn root_name(side: Player) -> &'static str {
    match side {
        Player::First => "max",
        Player::Second => "min",
    }
}

/// Searches `tree` from its root with `obs` watching; the result and the wall time in ms.
fn search_with<O: Observer<Tree>>(
    tree: &Tree,
    algo: Algorithm,
    obs: O,
) -> Result<(SearchResult<u32>, O, f64), String> {
    // A small table for the table-driven searches (the trees are hand-written).
    let tt = if algo.uses_table() {
        Some(super::table(1)?)
    } else {
        None
    };
    let mut s = Searcher::with_observer(tree, tree.initial(), None, obs);
    if let Some(tt) = &tt {
        s = s.with_table(tt);
    }
    let start = Instant::now();
    let (value, best_move) = s.run(algo);
    let time_ms = start.elapsed().as_secs_f64() * 1e3;
    let result = SearchResult {
        value,
        best_move,
        pv: s.pv().to_vec(),
        stats: s.stats(),
        algo,
    };
    Ok((result, s.into_observer(), time_ms))
}

/// One settled node in the JSON output.
#[derive(Serialize)]
struct OrderItem {
    node: String,
    value: i32,
}

/// One pruned subtree in the JSON output.
#[derive(Serialize)]
struct PrunedItem {
    node: String,
    parent: String,
    cut: &'static str,
    bound: i32,
}

/// The JSON output: the report's fields, the root's side, the walk-through.
#[derive(Serialize)]
struct TreeJson<'a> {
    #[serde(flatten)]
    report: &'a Report,
    root: &'static str,
    order: Vec<OrderItem>,
    pruned: Vec<PrunedItem>,
}

/// Runs `cutoff tree`.
pub fn run(args: &Args) -> CliResult {
    let text = read_file(&args.file)?;
    let tree = Tree::parse(&text, args.root)
        .map_err(|e| format!("{}: {e}", super::shown_path(&args.file)))?;
    // Trees report values in the leaf scale, MAX's point of view.
    let scale = tree.root_side().sign();
    let want_walk = args.trace || args.dot || args.json;
    let (result, walk, time_ms) = if want_walk {
        let (r, trace, t) = search_with(&tree, args.algo, Trace::new())?;
        (r, Some(TreeWalk::new(&tree, &trace)), t)
    } else {
        let (r, _, t) = search_with(&tree, args.algo, cutoff::search::NoObserver)?;
        (r, None, t)
    };
    let mut report = Report::new(&tree, &tree.initial(), &result, None, time_ms);
    report.value = Some(scale * result.value);

    let text = if args.dot {
        walk.expect("traced for --dot").dot(&tree)
    } else if args.json {
        let walk = walk.expect("traced for --json");
        let out = TreeJson {
            report: &report,
            root: root_name(tree.root_side()),
            order: walk
                .order
                .iter()
                .map(|s| OrderItem {
                    node: tree.name(s.node),
                    value: s.value,
                })
                .collect(),
            pruned: walk
                .pruned
                .iter()
                .map(|p| PrunedItem {
                    node: tree.name(p.node),
                    parent: tree.name(p.parent),
                    cut: p.cut.name(),
                    bound: p.bound,
                })
                .collect(),
        };
        let json = serde_json::to_string(&out).map_err(|e| e.to_string())?;
        format!("{json}\n")
    } else {
        let root = format!(
            "{} ({} nodes, {} leaves, height {}; values from MAX's view)",
            root_name(tree.root_side()),
            tree.len(),
            tree.leaves(),
            tree.height()
        );
        let mut text = format!("{}\n", report.text_with(&[("root", root)]));
        if let Some(walk) = walk {
            text.push('\n');
            text.push_str(&walk.lines(&tree));
        }
        text
    };
    emit(&text)
}

/// Writes `text` to standard output; a reader that went away (`| head`) is not an error.
fn emit(text: &str) -> CliResult {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}
