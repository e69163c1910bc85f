//! cutoff: a game-tree search engine for two-player, zero-sum, perfect-information games.
//!
//! - [`game`]: the [`Game`] trait every game implements, with inline move lists, and
//!   [`Notation`], how a front end names a game and writes its moves.
//! - [`search`](mod@search): the serial searches (minimax, negamax, alpha-beta, VEB, AB, PVS, MTD(f), the
//!   null-window solver, iterative deepening).
//! - [`parallel`]: Young Brothers Wait, Lazy SMP and root splitting over one shared table.
//! - [`tt`]: the lock-free transposition table; [`ordering`]: move ordering.
//! - [`games`]: the games: take-away games, tic-tac-toe, the control game, Sim, Connect Four,
//!   hand-written trees and uniform random trees.
//! - [`trace`]: recording the order in which a search settles values and what it prunes.
//! - [`multi`]: games with chance nodes or more than two players (the [`multi::MultiGame`]
//!   model beside [`Game`]): expectiminimax, Star1, Star2, max^n, paranoid, best-reply search.
//! - [`cfr`]: games of imperfect information, solved by counterfactual regret minimisation.
//!
//! The `cutoff` command and the application code (judge formats, test-set runner, tree
//! walk-throughs) live in the `cutoff-cli` crate, so this library pulls in no command-line or
//! terminal dependency.

#![deny(missing_docs)]

pub(crate) mod arena;
pub mod cfr;
pub mod game;
pub mod games;
pub mod multi;
pub mod ordering;
pub mod parallel;
pub mod rng;
pub mod search;
pub mod solver;
pub mod trace;
pub mod tt;

pub use game::{Game, GameError, MoveBuffer, MoveList, Notation, Player, Value, INF};
pub use search::{search, Algorithm, SearchResult, Searcher, Stats};

/// The README's Rust code blocks, compiled and run as doc-tests, so that its library example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
