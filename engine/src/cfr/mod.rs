//! Imperfect information: extensive-form games and counterfactual regret minimisation (CFR).
//!
//! # The model
//!
//! An extensive-form game ([`Extensive`]) is a tree of histories of three kinds: chance nodes
//! (nature draws an outcome with known probabilities: a card dealt), decision nodes (a player
//! picks an action) and terminal nodes (one payoff per player). A player does not see the
//! whole history: the game groups the histories a player cannot tell apart into an
//! *information set*, named by a key, and the player's strategy gives one distribution over
//! actions per information set, not per history. The games here have perfect recall (a
//! player never forgets what it saw or did), which the builder checks, because CFR and the
//! best response rely on it.
//!
//! # Why flat arrays
//!
//! CFR walks the whole tree once per player per iteration, thousands of times, and the trees
//! of the games it is meant for (Kuhn poker: 58 nodes; Leduc hold'em: 9,457) fit in cache.
//! So the tree is built once ([`ExtensiveTree::build`]) into flat arrays: nodes numbered breadth first
//! with their children consecutive, each information set owning a run of consecutive *slots*
//! (one per action), and the regrets, current strategy and average strategy as contiguous
//! `f64` arrays indexed by slot. An iteration then is a few loops over those arrays: no
//! hashing of histories or information-set keys, no allocation, no recursion, and the game's
//! own code is never called again. The breadth-first order makes every child come after its
//! parent, so reach probabilities flow down in one forward loop and values flow up in one
//! backward loop.
//!
//! # The parts
//!
//! - [`tree`]: the [`Extensive`] trait and the flat [`ExtensiveTree`];
//! - [`solver`]: [`Cfr`], CFR with alternating updates, and CFR+, linear and discounted
//!   CFR by its [`Params`];
//! - [`best_response`](mod@best_response): expected values, best responses, NashConv and
//!   exploitability, exact;
//! - [`state`]: saving and resuming a solver, bit for bit;
//! - [`mccfr`]: external-sampling Monte Carlo CFR, on the game's own states, in parallel.
//!
//! The games: [`crate::games::imperfect::kuhn`] and [`crate::games::imperfect::leduc`].
//!
//! ```
//! use cutoff::cfr::{exploitability, expected_values, Params, Cfr, ExtensiveTree};
//! use cutoff::games::imperfect::kuhn::Kuhn;
//!
//! let tree = ExtensiveTree::build(&Kuhn).unwrap();
//! let mut cfr = Cfr::new(&tree).params(Params::PLUS);
//! cfr.run(1000);
//! let avg = cfr.average_strategy();
//! assert!(exploitability(&tree, &avg) < 1e-3);
//! // The first player's value of Kuhn poker is -1/18.
//! assert!((expected_values(&tree, &avg)[0] + 1.0 / 18.0).abs() < 1e-3);
//! ```

pub mod best_response;
pub mod mccfr;
mod params;
pub mod solver;
pub mod state;
pub mod tree;

pub use best_response::{
    best_response, best_response_value, expected_values, exploitability, nash_conv, BestResponse,
};
pub use solver::{Cfr, Params, Variant};
pub use tree::{Extensive, ExtensiveTree, Infoset, TreeError};

/// Writes the distribution proportional to the non-negative `sums` into `out` (of the same
/// length), or the uniform one when they sum to 0: an average strategy from its sums.
fn normalise(sums: &[f64], out: &mut [f64]) {
    let total: f64 = sums.iter().sum();
    if total > 0.0 {
        for (o, &x) in out.iter_mut().zip(sums) {
            *o = x / total;
        }
    } else {
        out.fill(1.0 / out.len() as f64);
    }
}
