//! cutoff: a game-tree search engine for two-player, zero-sum, perfect-information games,
//! with a second model for chance nodes and more than two players, and CFR for imperfect
//! information.
//!
//! # Solve a position
//!
//! ```
//! use cutoff::games::perfect::connect4::Connect4;
//! use cutoff::solver::Solver;
//!
//! let game = Connect4::from_moves("4453").expect("a legal position");
//! let report = Solver::new(&game).table_mib(16).run().expect("the search runs");
//! println!("{:?}, best move {:?}", report.verdict, report.best_move);
//! ```
//!
//! [`Solver`] is the way into every two-player search: it picks serial or
//! parallel, checks its settings, honours time and node budgets and a stop flag, and says what
//! its value is ([`Verdict`](solver::Verdict): exact, depth-limited, or only bounded).
//! [`Solver::run`](solver::Solver::run) gives one report;
//! [`Solver::analyse`](solver::Solver::analyse) gives every legal move's exact value.
//!
//! # Where things are
//!
//! - [`game`]: the [`Game`] trait every two-player game implements (the rules), and
//!   [`Notation`] (how a front end names a game and writes its moves).
//! - [`knowledge`]: what a solver may know of a game beyond its rules, each hook with a
//!   default that changes nothing.
//! - [`players`]: the words every model shares: [`Player`], [`players::Turn`],
//!   [`players::Payoffs`].
//! - [`games`]: the games, grouped by model: [`games::perfect`] (the [`Game`] model: Connect
//!   Four, tic-tac-toe, Sim, the control game, take-away games, hand-written and random
//!   trees), [`games::chance`] (the [`multi::MultiGame`] model: Pig, random trees with chance
//!   nodes, general tree files), [`games::imperfect`] (the [`cfr::Extensive`] model: Kuhn,
//!   Leduc).
//! - [`solver`]: [`Solver`], one builder for any two-player search, serial or parallel, with
//!   its settings ([`Algorithm`], [`solver::Mode`], [`solver::ParallelConfig`]). Underneath:
//!   the serial searches, one file each in `engine/src/search/` (minimax, negamax, alpha-beta,
//!   VEB, AB, PVS, MTD(f), the null-window solver, iterative deepening) with the one node
//!   routine (`search/pvs.rs`) that the table-driven searches share, and YBWC, ABDADA, Lazy
//!   SMP and root splitting in `engine/src/parallel/` as policies of that routine.
//! - [`advanced`]: the lower-level entry points `Solver` is built on ([`advanced::Searcher`],
//!   [`advanced::search()`], iterative deepening, the parallel driver), for a search driven by
//!   hand or watched node by node.
//! - [`tt`]: the lock-free transposition table; [`ordering`]: move ordering.
//! - [`trace`]: recording the order in which a search settles values and what it prunes.
//! - [`multi`]: games with chance nodes or more than two players: expectiminimax, Star1,
//!   Star2, max^n, paranoid, best-reply search.
//! - [`cfr`]: games of imperfect information, solved by counterfactual regret minimisation.
//! - [`rng`]: the one seeded generator every seed and hash key uses.
//! - [`files`]: the one path by which every file is read (only regular files, bounded) and
//!   written (atomically, links followed, never over a FIFO, a device or a folder).
//!
//! The `cutoff` command and the application code (judge formats, test-set runner, books,
//! split files, the web server) live in the `cutoff-cli` crate, so this library pulls in no
//! command-line or terminal dependency. The book in `docs/` explains the design.

#![deny(missing_docs)]

pub mod advanced;
pub(crate) mod arena;
pub mod cfr;
pub mod clock;
pub mod files;
pub mod game;
pub mod games;
pub mod knowledge;
pub mod multi;
mod names;
pub mod ordering;
pub(crate) mod parallel;
pub mod players;
pub mod profile;
pub mod proof;
pub mod rng;
pub(crate) mod search;
pub mod solver;
pub mod trace;
pub mod tt;

pub use game::{Game, GameError, MoveBuffer, MoveList, Notation, Player, Value, INF};
pub use search::{Algorithm, Stats};
pub use solver::Solver;

/// The README's Rust code blocks, compiled and run as doc-tests, so that its library example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The book's Rust blocks (`docs/design/game-models.md`), compiled and run as doc-tests, so
/// that its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../../docs/design/game-models.md")]
pub struct BookGameModelsDoctests;
