//! The games, grouped by the model they implement:
//!
//! - [`perfect`]: two players, perfect information, no chance: the [`Game`](crate::Game)
//!   model every two-player search takes (Connect Four, tic-tac-toe, Sim, the control game,
//!   the take-away games, hand-written and random trees);
//! - [`chance`]: chance nodes or more than two players: the
//!   [`MultiGame`](crate::multi::MultiGame) model (Pig and Piglet, random trees with chance
//!   nodes, general tree files);
//! - [`imperfect`]: imperfect information: the [`Extensive`](crate::cfr::Extensive) model CFR
//!   solves (Kuhn poker, Leduc hold'em).

pub mod chance;
pub mod imperfect;
pub mod perfect;
