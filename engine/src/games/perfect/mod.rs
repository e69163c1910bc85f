//! Two-player, zero-sum games of perfect information without chance: the
//! [`Game`](crate::Game) model, one file a game.

pub mod connect4;
pub mod control;
pub mod random_tree;
pub mod sim;
pub mod takeaway;
pub mod tictactoe;
pub mod tree;
