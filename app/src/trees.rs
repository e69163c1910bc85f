//! Hand-written trees, as `cutoff tree` and the server's trace read them: which search a
//! tree gets. Plain two-player trees go through the two-player searches
//! ([`cutoff::advanced::Searcher`]); trees with chance nodes, vector leaves or decimals, and plain trees
//! given a search of that kind, go through [`cutoff::multi`].

use crate::position::AnyAlgo as TreeAlgo;
use cutoff::games::chance::tree_multi::MultiTree;
use cutoff::games::perfect::tree::Tree;
use cutoff::multi::{MultiAlgorithm, MultiGame};
use cutoff::Algorithm;

/// Why a search cannot search a tree.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// A two-player search given a tree that is not plain.
    #[error("{algo} searches plain two-player trees; this one has {has}: use {instead}")]
    NotPlain {
        /// The search.
        algo: Algorithm,
        /// What the tree has that plain trees lack.
        has: String,
        /// The searches to use instead.
        instead: &'static str,
    },
    /// A two-player search of [`cutoff::multi`] given payoffs that do not sum to zero.
    #[error(
        "{0} needs zero-sum payoffs (every leaf's summing to 0): use maxn-plain, paranoid or brs"
    )]
    NotZeroSum(MultiAlgorithm),
}

/// The search a tree gets (see [`choose`]).
pub enum TreeSearch<'t> {
    /// A two-player search of the plain tree.
    Plain(&'t Tree, Algorithm),
    /// A search of [`cutoff::multi`].
    Multi(MultiAlgorithm),
}

/// The search `algo` asks for on `tree` (`None`: alpha-beta for plain two-player trees, else
/// `default_multi`), or why it cannot search it, naming what the tree has and what to use.
pub fn choose(tree: &MultiTree, algo: Option<TreeAlgo>) -> Result<TreeSearch<'_>, TreeError> {
    let players = tree.player_count();
    let zero_sum = tree.payoff_sum().is_some_and(|s| s.abs() <= 1e-9);
    match (algo, tree.as_plain()) {
        (None, Some(plain)) => Ok(TreeSearch::Plain(plain, Algorithm::AlphaBeta)),
        (Some(TreeAlgo::Two(algo)), Some(plain)) => Ok(TreeSearch::Plain(plain, algo)),
        (Some(TreeAlgo::Two(algo)), None) => {
            let what = if tree.chance_nodes() > 0 {
                "chance nodes".to_string()
            } else if players != 2 {
                format!("{players} players")
            } else if tree.has_vectors() {
                "vector leaves".to_string()
            } else {
                "decimal leaves".to_string()
            };
            let use_instead = if players == 2 && zero_sum {
                "expectiminimax, expectinegamax, star1 or star2"
            } else {
                "maxn, maxn-plain, paranoid or brs"
            };
            Err(TreeError::NotPlain {
                algo,
                has: what,
                instead: use_instead,
            })
        }
        (None, None) => Ok(TreeSearch::Multi(default_multi(tree))),
        (Some(TreeAlgo::Multi(algo)), _) => {
            if algo.two_player_only() && players == 2 && !zero_sum {
                return Err(TreeError::NotZeroSum(algo));
            }
            Ok(TreeSearch::Multi(algo))
        }
    }
}

/// The search for a tree that is not plain: expectiminimax for two players and zero-sum
/// payoffs, else max^n (without shallow pruning when the payoffs' sum varies).
fn default_multi(tree: &MultiTree) -> MultiAlgorithm {
    match tree.payoff_sum() {
        Some(s) if tree.player_count() == 2 && s.abs() <= 1e-9 => MultiAlgorithm::Expectiminimax,
        Some(_) => MultiAlgorithm::Maxn,
        None => MultiAlgorithm::MaxnPlain,
    }
}
