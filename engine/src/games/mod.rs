//! The games, one file each.

pub mod connect4;
pub mod control;
pub mod random_tree;
pub mod sim;
pub mod takeaway;
pub mod tictactoe;
pub mod tree;
