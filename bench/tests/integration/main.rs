//! cutoff-bench's integration tests, one test binary for all of them: each file a module (issue
//! 42).

mod chance;
mod compare;
mod scaling;
mod sweep;
