//! cutoff's application library, beneath every front end (the `cutoff` command, its web
//! server, the Python package and the browser page): one typed options struct per command
//! with its checks ([`commands`]), the games a front end names ([`games`], [`position`]),
//! opening books, split files and shards, the distributed driver, the test-set runner, the
//! judge problems' formats, the walk-through of hand-written trees and the server's API
//! logic, with one error type ([`AppError`]).
//!
//! No front end's own machinery lives here: no argument parser, no signal handler, no HTTP.

#![deny(missing_docs)]

pub mod analysis;
pub mod api;
pub mod book;
pub mod commands;
pub mod control;
pub mod distribute;
pub mod error;
pub mod files;
pub mod games;
pub mod judge;
pub mod message;
pub mod options;
pub mod output;
pub mod position;
pub mod profile;
pub mod progress;
pub mod shard;
pub mod suite;
pub mod trees;
pub mod walk;

pub use control::{CfrEvent, Control, Outcome};
pub use error::{opt, AppError, AppResult, Spelling};
