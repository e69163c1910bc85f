//! `cutoff tree`: its arguments, converted into
//! [`cutoff_app::commands::tree`]'s options, and its printing.

use cutoff::Player;
use cutoff_app::commands::tree;
use cutoff_app::position::{parse_any_algo as parse_algo, AnyAlgo as TreeAlgo};

/// Arguments of `cutoff tree`.
#[derive(clap::Args)]
pub struct Args {
    /// The tree file: leaves are integers from MAX's view, inner nodes parenthesised lists,
    /// optional labels `name:`, `#` comments; chance nodes `[0.5 (3 5) 0.5 (2 9)]`, vector
    /// leaves `<3 1 4>` (one payoff per player), decimal leaves (see cli/assets/trees/). At
    /// most 16 MiB.
    pub file: String,
    /// Search algorithm. Plain two-player trees: minimax, negamax, alphabeta (the default),
    /// alphabeta-hard, veb, ab, pvs, mtdf, solve. Any tree (chance nodes, vector or decimal
    /// leaves): expectiminimax (the default for two players), expectinegamax, star1, star2,
    /// maxn (the default for more; maxn-plain if the payoffs' sum varies), maxn-plain,
    /// paranoid, brs.
    #[arg(long, value_parser = parse_algo)]
    pub algo: Option<TreeAlgo>,
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

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> tree::Options {
        tree::Options {
            file: self.file.clone(),
            algo: self.algo,
            root: self.root,
            trace: self.trace,
            dot: self.dot,
            json: self.json,
        }
    }
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

/// Runs `cutoff tree`.
pub fn run(args: &Args) -> super::CliResult {
    super::emit(&tree::run(&args.options())?)
}
