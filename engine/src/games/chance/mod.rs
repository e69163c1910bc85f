//! Games with chance nodes or more than two players: the
//! [`MultiGame`](crate::multi::MultiGame) model, one file a game.

pub mod pig;
pub mod random_chance_tree;
pub mod tree_multi;
