//! The application's one error type, [`AppError`]: what any command refused or could not
//! do, in one line. Options are named in it by their field (`tt_mb`), marked with [`opt`],
//! so that each front end spells them its own way ([`Spelling`]): the command as flags
//! (`--tt-mb`), Python as keywords (`tt_mb`).

use crate::analysis::PoolError;
use crate::book::BookError;
use crate::files::FileError;
use crate::position::PositionError;
use crate::shard::ShardError;
use crate::suite::SuiteError;
use crate::trees::TreeError;

/// Where an option's name begins in a message (see [`opt`]).
const OPEN: char = '\u{1}';
/// Where it ends.
const CLOSE: char = '\u{2}';

/// An option's name in a message: its field name (`tt_mb`), marked for [`Spelling::apply`].
/// Messages quote input through [`cutoff::game::quote`], which escapes control characters,
/// so the marks cannot come from what a user typed.
pub fn opt(field: &str) -> String {
    format!("{OPEN}{field}{CLOSE}")
}

/// How a front end names the options in its messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// As the command's flags: `tt_mb` is `--tt-mb`.
    Flag,
    /// As the options structs' fields and Python's keywords: `tt_mb`.
    Field,
}

impl Spelling {
    /// `msg` with every option name marked by [`opt`] spelled this way.
    pub fn apply(self, msg: &str) -> String {
        let mut out = String::with_capacity(msg.len() + 8);
        let mut rest = msg;
        while let Some(start) = rest.find(OPEN) {
            out.push_str(&rest[..start]);
            let after = &rest[start + OPEN.len_utf8()..];
            let Some(end) = after.find(CLOSE) else {
                out.push_str(after);
                return out;
            };
            let name = &after[..end];
            match self {
                Spelling::Flag => {
                    out.push_str("--");
                    out.push_str(&name.replace('_', "-"));
                }
                Spelling::Field => out.push_str(name),
            }
            rest = &after[end + CLOSE.len_utf8()..];
        }
        out.push_str(rest);
        out
    }
}

/// Why a command failed: the errors of the code beneath it, and the command's own (its
/// arguments, its output). `main` prints the message as one line, `error: ...`.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A file or standard input could not be read, or a file written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The game or its position could not be set up.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// An opening book could not be read, checked or built.
    #[error(transparent)]
    Book(#[from] BookError),
    /// A split file, a shard's result or a pass could not be read, checked or written.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// A tree cannot be searched as asked.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// A test set's run failed.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The threads would not start.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The engine refused a game, a position or an input.
    #[error(transparent)]
    Game(#[from] cutoff::GameError),
    /// The engine's solver refused its settings or could not get its resources.
    #[error(transparent)]
    Solve(#[from] cutoff::solver::SolveError),
    /// A transposition table could not be allocated.
    #[error(transparent)]
    Table(#[from] cutoff::tt::TableError),
    /// A table file could not be read or written.
    #[error(transparent)]
    TableFile(#[from] cutoff::tt::file::TableFileError),
    /// A search of the chance and n-player model failed.
    #[error(transparent)]
    Multi(#[from] cutoff::multi::MultiError),
    /// A distributed run could not go on.
    #[error(transparent)]
    Distribute(#[from] crate::distribute::DistributeError),
    /// A CFR run could not start, resume, save or draw.
    #[error(transparent)]
    Cfr(#[from] crate::commands::cfr::CfrError),
    /// What is wrong with the file `path` (a tree, a test set).
    #[error("{}: {source}", crate::message::shown_path(.path))]
    InFile {
        /// The file, as given.
        path: String,
        /// What is wrong with it.
        source: Box<AppError>,
    },
    /// `threads` of 0.
    #[error("{} must be at least 1", opt("threads"))]
    NoThreads,
    /// More threads than [`max_threads`](crate::options::max_threads).
    #[error(
        "{} {asked} is too many: at most {max} on this machine ({cores} cores; 4 threads \
         per core, at least 16)",
        opt("threads")
    )]
    TooManyThreads {
        /// The threads asked for.
        asked: usize,
        /// The most accepted.
        max: usize,
        /// The machine's cores.
        cores: usize,
    },
    /// A `tt_mb` outside the accepted range.
    #[error("{} must be between 1 and 1048576, got {}", opt("tt_mb"), .0)]
    TableSize(usize),
    /// Stopped by Ctrl-C (or SIGTERM) before the work was done.
    #[error("interrupted after {nodes} nodes{}", .before.as_ref().map_or(String::new(), |b| format!(", before {b}")))]
    Interrupted {
        /// Nodes searched by then.
        nodes: u64,
        /// What was not done yet, if the message says.
        before: Option<String>,
    },
    /// Stopped by Ctrl-C (or SIGTERM) during a step that counts no nodes.
    #[error("interrupted while {0}")]
    InterruptedWhile(String),
    /// A report could not be written as JSON.
    #[error("cannot write JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// An argument, or a combination of them, that the command refuses; the message, made
    /// where the check is, says which and why.
    #[error("{0}")]
    Invalid(String),
}

impl AppError {
    /// The command's own refusal, `msg`.
    pub fn invalid(msg: impl Into<String>) -> AppError {
        AppError::Invalid(msg.into())
    }
}

/// A subcommand's outcome: `Err` says what is wrong, in one line.
pub type AppResult = Result<(), AppError>;

impl AppError {
    /// The one-line message, with the options spelled as `spelling` says.
    pub fn message(&self, spelling: Spelling) -> String {
        spelling.apply(&self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_spelled_by_each_front_end() {
        let e = AppError::TableSize(0);
        assert_eq!(
            e.message(Spelling::Flag),
            "--tt-mb must be between 1 and 1048576, got 0"
        );
        assert_eq!(
            e.message(Spelling::Field),
            "tt_mb must be between 1 and 1048576, got 0"
        );
        let two = format!("{} needs {} solve", opt("weak"), opt("algo"));
        assert_eq!(Spelling::Flag.apply(&two), "--weak needs --algo solve");
        assert_eq!(Spelling::Field.apply(&two), "weak needs algo solve");
        assert_eq!(Spelling::Flag.apply("no marks"), "no marks");
    }
}
