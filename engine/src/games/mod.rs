//! The games, one file each.

pub mod connect4;
pub mod control;
pub mod kuhn;
pub mod leduc;
pub mod pig;
pub mod random_chance_tree;
pub mod random_tree;
pub mod sim;
pub mod takeaway;
pub mod tictactoe;
pub mod tree;
pub mod tree_multi;
