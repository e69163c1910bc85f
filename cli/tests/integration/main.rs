//! The command's integration tests, one test binary for all of them: each file a module, so
//! that a build links one binary, not one a file (issue 42). Most run the `cutoff` binary
//! (`CARGO_BIN_EXE_cutoff`); `support` holds what several share.

mod book;
mod cfr;
mod features;
mod file_targets;
mod hardening;
mod honest;
mod impartial_cli;
mod judge;
mod pig;
mod profile;
mod serve;
mod serve_hostile;
mod shard;
mod shard_hostile;
mod signals;
mod suite;
mod support;
mod tree;
mod tree_multi;
