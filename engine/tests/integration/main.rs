//! The engine's integration tests, one test binary for all of them: each file a module, so
//! that a build links one binary against the engine, not one a file (issue 42: with thin LTO
//! each link took seconds). `tests/table_memory.rs` stays a binary of its own: it measures
//! the process's resident memory, which tests running beside it would disturb. The counting
//! allocator of `common/counting.rs` is installed for the whole binary; it counts only the
//! threads a test arms.

mod alloc;
mod analyse;
mod cfr;
mod cfr_state;
mod chance;
mod common;
mod connect4;
mod connect4_sizes;
mod games;
mod hardening;
mod impartial;
mod mccfr;
mod multiplayer;
mod notation;
mod oracle;
mod parallel;
mod proof;
mod random_tree;
mod table;
mod unfinished;
mod window;
