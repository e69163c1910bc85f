//! What each command does, one file a command: its options struct ([`solve::Options`], ...),
//! their checks and the work, for every front end (the command's arguments in
//! `cli/src/cmd/` convert into these structs; the Python package and the browser build them).

pub mod analyse;
pub mod book;
pub mod cfr;
pub mod distribute;
pub mod judge;
pub mod merge;
pub mod plan;
pub mod solve;
pub mod solve_multi;
pub mod solve_shard;
pub mod split;
pub mod suite;
pub mod tree;
