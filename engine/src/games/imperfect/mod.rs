//! Games of imperfect information: the [`Extensive`](crate::cfr::Extensive) model that CFR
//! solves, one file a game.

pub mod kuhn;
pub mod leduc;
