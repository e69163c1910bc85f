//! cutoff: a game-tree search engine for two-player, zero-sum, perfect-information games.
//!
//! - [`game`]: the [`Game`] trait every game implements, with inline move lists.
//! - [`arena`]: the per-ply stack a search allocates once, up front.
//! - [`search`]: the serial searches (minimax, negamax, alpha-beta, VEB, AB).
//! - [`games`]: the games: take-away games, tic-tac-toe, the control game, hand-written trees
//!   and uniform random trees.
//! - [`trace`]: recording the order in which a search settles values and what it prunes.
//! - [`judge`]: the judge problems (URAL 1195, the control game) in their input formats.

#![warn(missing_docs)]

pub mod arena;
pub mod game;
pub mod games;
pub mod judge;
pub mod ordering;
pub mod parallel;
pub mod search;
pub mod suite;
pub mod trace;
pub mod tt;

pub use game::{Game, GameError, MoveBuffer, MoveList, Player, Value, INF};
pub use search::{search, Algorithm, SearchResult, Searcher, Stats};
