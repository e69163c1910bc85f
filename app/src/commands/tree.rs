//! `cutoff tree FILE`: search a hand-written tree; optionally trace the walk or draw it.
//!
//! Plain two-player trees go through the two-player searches ([`cutoff::advanced::Searcher`]); trees
//! with chance nodes, vector leaves or decimals, and plain trees given a search of that kind,
//! go through [`cutoff::multi`].

use crate::files::read_file;
use crate::output::Report;
use crate::walk::{cut_name, MultiTrace, MultiWalk, TreeWalk};
use crate::AppError;
use cutoff::advanced::Observer;
use cutoff::advanced::{SearchResult, Searcher};
use cutoff::games::chance::tree_multi::{format_payoffs, format_value, MultiTree};
use cutoff::games::perfect::tree::Tree;
use cutoff::multi::{self, MultiAlgorithm, MultiGame, MultiSolver, MultiStats};
use cutoff::trace::Trace;
use cutoff::{Algorithm, Game, Player};
use serde::Serialize;
use std::time::Instant;

use crate::position::AnyAlgo as TreeAlgo;
use crate::trees::{choose, TreeSearch};

/// Arguments of `cutoff tree`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The tree file: leaves are integers from MAX's view, inner nodes parenthesised lists,
    /// optional labels `name:`, `#` comments; chance nodes `[0.5 (3 5) 0.5 (2 9)]`, vector
    /// leaves `<3 1 4>` (one payoff per player), decimal leaves (see app/assets/trees/). At
    /// most 16 MiB.
    pub file: String,
    /// Search algorithm. Plain two-player trees: minimax, negamax, alphabeta (the default),
    /// alphabeta-hard, veb, ab, pvs, mtdf, solve. Any tree (chance nodes, vector or decimal
    /// leaves): expectiminimax (the default for two players), expectinegamax, star1, star2,
    /// maxn (the default for more; maxn-plain if the payoffs' sum varies), maxn-plain,
    /// paranoid, brs.
    pub algo: Option<TreeAlgo>,
    /// Whether the root is a MAX or a MIN node.
    pub root: Player,
    /// Also print the settle order and the pruned subtrees.
    pub trace: bool,
    /// Print the tree as a Graphviz digraph instead of the report.
    pub dot: bool,
    /// Print one JSON object: the report, the settle order and the pruned subtrees.
    pub json: bool,
}

fn root_name(side: Player) -> &'static str {
    match side {
        Player::First => "max",
        Player::Second => "min",
    }
}

/// Searches `tree` from its root with `obs` watching; the result and the wall time in ms.
pub fn search_with<O: Observer<Tree>>(
    tree: &Tree,
    algo: Algorithm,
    obs: O,
) -> Result<(SearchResult<u32>, O, f64), AppError> {
    // A small table for the table-driven searches (the trees are hand-written).
    let tt = if algo.uses_table() {
        Some(crate::options::table(1)?)
    } else {
        None
    };
    let mut s = Searcher::with_observer(tree, tree.initial(), None, obs);
    if let Some(tt) = &tt {
        s = s.table(tt);
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
pub fn run(args: &Options) -> Result<String, AppError> {
    let text = read_file(&args.file)?;
    let in_file = |e: AppError| AppError::InFile {
        path: args.file.clone(),
        source: Box::new(e),
    };
    let root_player = match args.root {
        Player::First => 0,
        Player::Second => 1,
    };
    // One parser reads every tree; the plain ones keep the two-player searches.
    let tree = MultiTree::parse(&text, root_player).map_err(|e| in_file(e.into()))?;
    let players = tree.player_count();
    if args.root == Player::Second && players != 2 {
        return Err(in_file(AppError::invalid(format!(
            "\u{1}root\u{2} min is for two-player trees; this one has {players} players (player 0 moves first)"
        ))));
    }
    match choose(&tree, args.algo).map_err(|e| in_file(e.into()))? {
        TreeSearch::Plain(plain, algo) => run_plain(args, plain, algo),
        TreeSearch::Multi(algo) => run_multi(args, &tree, algo),
    }
}

/// `cutoff tree` on a plain two-player tree with a two-player search.
fn run_plain(args: &Options, tree: &Tree, algo: Algorithm) -> Result<String, AppError> {
    // Trees report values in the leaf scale, MAX's point of view.
    let scale = tree.root_side().sign();
    let want_walk = args.trace || args.dot || args.json;
    let (result, walk, time_ms) = if want_walk {
        let (r, trace, t) = search_with(tree, algo, Trace::new())?;
        (r, Some(TreeWalk::new(tree, &trace)), t)
    } else {
        let (r, _, t) = search_with(tree, algo, cutoff::advanced::NoObserver)?;
        (r, None, t)
    };
    let mut report = Report::new(tree, &tree.initial(), &result, None, time_ms);
    report.value = Some(scale * result.value);

    let text = if args.dot {
        walk.expect("traced for --dot").dot(tree)
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
        let json = serde_json::to_string(&out).map_err(AppError::Json)?;
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
            text.push_str(&walk.lines(tree));
        }
        text
    };
    Ok(text)
}

/// One settled node of a general tree in the JSON output.
#[derive(Serialize)]
struct MultiOrderItem {
    node: String,
    /// Player 0's (MAX's) value, for scalar trees only.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<f64>,
    values: Vec<f64>,
    exact: bool,
}

/// One skipped child of a general tree in the JSON output.
#[derive(Serialize)]
struct MultiPrunedItem {
    node: String,
    parent: String,
    cut: &'static str,
    /// As the text shows it: MAX's view for scalar trees, else `player`'s payoff.
    bound: f64,
    /// The player whose payoff the search's bound is.
    player: usize,
}

/// The report of a search of a general tree (text and JSON).
#[derive(Serialize)]
struct MultiReport {
    game: &'static str,
    algo: &'static str,
    /// Scalar trees: player 0's (MAX's) value, the leaves' scale, as for plain trees. Vector
    /// trees: the payoff of the player who moves first.
    value: f64,
    /// One value per player.
    values: Vec<f64>,
    exact: bool,
    best_move: Option<String>,
    nodes: u64,
    leaves: u64,
    cutoffs: u64,
    max_ply: u32,
    stats: MultiStats,
    time_ms: f64,
    players: usize,
    /// "max" or "min" for two players, else "player k": who moves first.
    root: String,
    chance_nodes: usize,
}

/// The JSON output of a general tree: the report and the walk-through.
#[derive(Serialize)]
struct MultiJson<'a> {
    #[serde(flatten)]
    report: &'a MultiReport,
    order: Vec<MultiOrderItem>,
    pruned: Vec<MultiPrunedItem>,
}

/// `cutoff tree` with a search of [`cutoff::multi`].
fn run_multi(args: &Options, tree: &MultiTree, algo: MultiAlgorithm) -> Result<String, AppError> {
    let in_file = |e: cutoff::multi::MultiError| AppError::InFile {
        path: args.file.clone(),
        source: Box::new(e.into()),
    };
    let root = tree.initial();
    let solver = || MultiSolver::new(tree).algorithm(algo);
    let want_walk = args.trace || args.dot || args.json;
    // No table: a walk-through shows the search itself, and the children are then tried in
    // file order, which is what the trace's cut indices count in.
    let start = Instant::now();
    let (result, trace) = if want_walk {
        let (r, t) = solver()
            .run_observed(MultiTrace::default())
            .map_err(in_file)?;
        (r, Some(t))
    } else {
        let r = solver().run().map_err(in_file)?;
        (r, None)
    };
    let time_ms = start.elapsed().as_secs_f64() * 1e3;
    let walk = trace.map(|t| MultiWalk::new(tree, &t, algo));
    let players = tree.player_count();
    let value = if tree.has_vectors() {
        result.values.get(tree.root_player())
    } else {
        result.values.get(0)
    };
    let s = result.stats;
    let report = MultiReport {
        game: MultiGame::name(tree),
        algo: algo.name(),
        value,
        values: result.values.as_slice().to_vec(),
        exact: result.exact,
        best_move: result.best_move.map(|m| tree.format_move(&root, m)),
        nodes: s.nodes(),
        leaves: s.leaves,
        cutoffs: s.cutoffs,
        max_ply: s.max_ply,
        stats: s,
        time_ms,
        players,
        root: match (players, tree.root_player()) {
            (2, 0) => "max".to_string(),
            (2, _) => "min".to_string(),
            (_, p) => format!("player {p}"),
        },
        chance_nodes: tree.chance_nodes(),
    };
    let text = if args.dot {
        walk.expect("traced for --dot").dot(tree)
    } else if args.json {
        let walk = walk.expect("traced for --json");
        let out = MultiJson {
            report: &report,
            order: walk
                .order
                .iter()
                .map(|st| MultiOrderItem {
                    node: tree.name(st.node),
                    value: (!tree.has_vectors()).then(|| st.values.get(0)),
                    values: st.values.as_slice().to_vec(),
                    exact: st.exact,
                })
                .collect(),
            pruned: walk
                .pruned
                .iter()
                .map(|p| MultiPrunedItem {
                    node: tree.name(p.node),
                    parent: tree.name(p.parent),
                    cut: cut_name(p.cut),
                    bound: p.bound,
                    player: p.owner,
                })
                .collect(),
        };
        let json = serde_json::to_string(&out).map_err(AppError::Json)?;
        format!("{json}\n")
    } else {
        let mut text = format!("{}\n", multi_text(tree, &report, &result.values));
        if let Some(walk) = walk {
            text.push('\n');
            text.push_str(&walk.lines(tree));
        }
        text
    };
    Ok(text)
}

/// The report of a general tree as aligned `name  value` lines, as the plain report.
fn multi_text(tree: &MultiTree, r: &MultiReport, values: &multi::Payoffs) -> String {
    let exact = if r.exact { "exact" } else { "not exact" };
    let value = if tree.has_vectors() {
        format!("{} ({}'s payoff; {exact})", format_value(r.value), r.root)
    } else {
        format!("{} ({exact})", format_value(r.value))
    };
    let s = &r.stats;
    let root = format!(
        "{} ({} nodes, {} leaves, {} chance node{}, height {}; {})",
        r.root,
        tree.len(),
        tree.leaves(),
        tree.chance_nodes(),
        if tree.chance_nodes() == 1 { "" } else { "s" },
        tree.height(),
        if tree.has_vectors() {
            format!("{} players, one payoff each", r.players)
        } else {
            "values from MAX's view".to_string()
        }
    );
    let rows: Vec<(&str, String)> = vec![
        ("game", r.game.to_string()),
        ("algorithm", r.algo.to_string()),
        ("value", value),
        ("values", format_payoffs(values)),
        (
            "best move",
            r.best_move.clone().unwrap_or_else(|| "none".to_string()),
        ),
        (
            "nodes",
            format!(
                "{} ({} decision, {} chance, {} leaves)",
                r.nodes, s.decision_nodes, s.chance_nodes, s.leaves
            ),
        ),
        ("leaves", r.leaves.to_string()),
        (
            "cutoffs",
            format!(
                "{} decision, {} chance, {} probe",
                s.cutoffs, s.chance_cutoffs, s.probe_cutoffs
            ),
        ),
        ("max ply", r.max_ply.to_string()),
        ("time", format!("{:.3} ms", r.time_ms)),
        ("root", root),
    ];
    crate::output::aligned(&rows)
}
