//! Solving beyond one machine: the files that `cutoff split`, `cutoff solve-shard`,
//! `cutoff merge` and `cutoff plan` pass between them, and the checks on them.
//!
//! A split file is JSON lines: a header (the game and position split, the depth, the shard
//! count) and then one line per frontier position, with its stable id, its shard, its
//! estimated cost and every path from the split position that reaches it. A shard's result
//! is one JSON file, `shard-NNNNN.json` in the results folder, carrying the digest of the
//! split file it answers, so that merge never mixes the results of two splits.
//!
//! Both are untrusted input: a file may have been edited, truncated, copied from another
//! split or written by someone hostile. Every reader goes through [`Split::parse`] and
//! [`gather`], which accept only what `split`, `plan` and `solve-shard` can write: counts
//! within the limits they obey, values within the game's range, every path replayed on the
//! game (legal moves written as the game writes them, no deeper than the split, every move
//! of every position above the frontier present, the paths of one line reaching one position
//! or its mirror image), whatever the order of the lines. The tree of paths is built with
//! memory and time linear in the file, and every walk over it is iterative or as deep as
//! the split (at most [`MAX_DEPTH`]). A bad file is a one-line error naming its line.
//!
//! The files: `paths.rs` the moves and paths of a split and the tree they make, `format.rs`
//! the split and result files and how they are named, read and written, `check.rs` the
//! checks of both, `plan.rs` how the work is cut into shards and passes. This file holds the
//! limits and the error type they share, and re-exports their items.

mod check;
mod format;
mod paths;
mod plan;

pub use check::{
    check_result, gather, intervals, load, proved, read_result, Found, Results, Split,
};
pub use format::{
    default_dir, digest, open_game, read, result_path, results_dir, split_text, write_split,
    GameSpec, Header, Line, ShardResult, Solved,
};
pub use paths::{play_path, Moves, Path, PathTree, Paths};
pub use plan::{balance, shard_index};

use crate::files::FileError;
use crate::message::shown_path;
use crate::position::{GameKind, PositionError};
use cutoff::Value;

/// The split file's format version, in its header (2: the position file's digest).
pub const SPLIT_VERSION: u32 = 2;
/// The result file's format version (2: the window solve-shard was given).
pub const RESULT_VERSION: u32 = 2;
/// The most paths a split may write: the frontier's paths are all kept, so this bounds the
/// split file (7^7 = 823,543 for Connect Four 7 plies deep; 8 plies would be 5.8 M).
pub const MAX_PATHS: usize = 2_000_000;
/// The most shards a split may have.
pub const MAX_SHARDS: usize = 1_000_000;
/// The deepest split: plies from the split position to the frontier.
pub const MAX_DEPTH: usize = 64;
/// The deepest estimating search of `split --estimate-depth`.
pub const MAX_ESTIMATE_DEPTH: usize = 64;
/// The largest magnitude of a window's edges given on the command line (`--window`).
pub const MAX_WINDOW: Value = 1_000_000;
/// The most bytes a split or result file may hold.
pub const FILE_LIMIT: u64 = 512 << 20;
/// The longest wall time one shard or line may claim, in seconds (about 31 years): far
/// above any real run, and low enough that no sum of them overflows.
pub const MAX_SECONDS: f64 = 1e9;
/// The longest wall time the passes of a split may claim together, in seconds: a thousand
/// passes of the most shards at the longest time.
pub const MAX_TOTAL_SECONDS: f64 = 1e18;

/// Why a split file, a shard's result or a pass could not be read, checked, merged or
/// written. Each message is one line naming, where it applies, the file, its line, the shard
/// and the id at fault; the context variants ([`ShardError::InSplit`], ...) wrap the problem
/// found there.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The split's game and position could not be set up.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The game refused a position file, an option or a move.
    #[error(transparent)]
    Game(#[from] cutoff::GameError),
    /// What is wrong at line `line` of the split file `file`.
    #[error("'{file}' line {line}: {source}")]
    InSplit {
        /// The split file, as messages show it.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong there.
        source: Box<ShardError>,
    },
    /// What is wrong with shard `shard`'s result.
    #[error("shard {shard}: {source}")]
    InShard {
        /// The shard.
        shard: usize,
        /// What is wrong with it.
        source: Box<ShardError>,
    },
    /// What is wrong inside the result file `file`.
    #[error("'{file}': {source}")]
    InResult {
        /// The result file, as messages show it.
        file: String,
        /// What is wrong in it.
        source: Box<ShardError>,
    },
    /// What is wrong with the result of line `id`.
    #[error("id {id}: {source}")]
    AtId {
        /// The line's id.
        id: usize,
        /// What is wrong with its result.
        source: Box<ShardError>,
    },
    /// Moves whose text would pass 4 GiB.
    #[error("moves longer than 4 GiB")]
    MovesTooLong,
    /// More moves than a count holds.
    #[error("too many moves")]
    TooManyMoves,
    /// A header's board that cannot be read.
    #[error("{0}")]
    Board(String),
    /// A header naming no game.
    #[error("unknown game '{}'", cutoff::game::quote(.0))]
    UnknownGame(String),
    /// A random tree, which has no position to split.
    #[error("random trees cannot be split")]
    RandomTree,
    /// A header with a file digest and no position.
    #[error("the header records a position file's digest but no position")]
    DigestWithoutPosition,
    /// A position file that changed since the split read it.
    #[error(
        "'{}' is not the file this split was made from (SHA-256 {}, the split's {})",
        shown_path(.file), short(.found), short(.recorded)
    )]
    OtherPositionFile {
        /// The position file.
        file: String,
        /// Its digest now.
        found: String,
        /// The digest the split recorded.
        recorded: String,
    },
    /// A position file the header has no digest of.
    #[error("the header records no digest of the position file '{}'", shown_path(.0))]
    NoDigest(String),
    /// A file digest for a game whose position is not a file.
    #[error("a {0} position is not read from a file, yet the header records a file digest")]
    NotFromFile(GameKind),
    /// A split file that is not UTF-8 text.
    #[error("'{0}' is not a split file (not UTF-8 text)")]
    SplitNotUtf8(String),
    /// A split file with no line.
    #[error("'{0}' is empty, not a split file")]
    SplitEmpty(String),
    /// A split file whose first line is not a header.
    #[error("'{file}' is not a split file (line 1: {})", json_error(.source))]
    NotSplit {
        /// The split file, as messages show it.
        file: String,
        /// Why the header did not read.
        source: serde_json::Error,
    },
    /// A line that is not a frontier line.
    #[error("{}", json_error(.0))]
    Json(#[source] serde_json::Error),
    /// A header whose range is not the game's.
    #[error(
        "range [{}, {}], where the game's values lie in [{}, {}]",
        .range[0], .range[1], .game[0], .game[1]
    )]
    Range {
        /// The header's.
        range: [Value; 2],
        /// The game's.
        game: [Value; 2],
    },
    /// More lines than the header gives.
    #[error("more lines than the {0} the header gives")]
    MoreLines(usize),
    /// More paths than the header gives.
    #[error("more paths than the {0} the header gives")]
    MorePaths(usize),
    /// A first pass's line whose window is not the others'.
    #[error(
        "its window is not the other lines' (a split gives every line the split position's, \
         from its own side)"
    )]
    WindowDiffers,
    /// A split file with fewer lines or paths than its header gives.
    #[error(
        "'{file}' holds {lines} lines and {paths} paths where its header says {} and {} \
         (truncated?)",
        .header[0], .header[1]
    )]
    Truncated {
        /// The split file, as messages show it.
        file: String,
        /// Its lines.
        lines: usize,
        /// Its paths.
        paths: usize,
        /// The lines and paths of its header.
        header: [usize; 2],
    },
    /// A split file of another format version.
    #[error("a split file of version {0}, this cutoff reads version {SPLIT_VERSION}")]
    SplitVersion(u32),
    /// A shard count outside the limits.
    #[error("{0} shards, where a split has 1 to {MAX_SHARDS}")]
    Shards(usize),
    /// A split deeper than the limit.
    #[error("depth {0}, where a split is at most {MAX_DEPTH} plies deep")]
    Depth(usize),
    /// An estimate deeper than the limit.
    #[error("estimate depth {0}, at most {MAX_ESTIMATE_DEPTH}")]
    EstimateDepth(usize),
    /// Line and path counts outside the limits.
    #[error(
        "{frontier} lines and {paths} paths, where a split has 1 to {MAX_PATHS} paths and at \
         most one line a path"
    )]
    Counts {
        /// The lines.
        frontier: usize,
        /// The paths.
        paths: usize,
    },
    /// A pass number that does not go with the earlier passes' work.
    #[error("pass {pass} with {nodes} earlier nodes and {seconds} s")]
    Pass {
        /// The pass.
        pass: u32,
        /// The earlier passes' nodes.
        nodes: u64,
        /// The earlier passes' seconds.
        seconds: f64,
    },
    /// A time that is not finite, negative, or over the limit.
    #[error("{what} {} is not a time between 0 and {most:e}", time_text(*.value))]
    Time {
        /// The field.
        what: &'static str,
        /// Its value.
        value: f64,
        /// The most it may be.
        most: f64,
    },
    /// A window whose edges are not in order.
    #[error("empty window [{}, {}]", .0[0], .0[1])]
    EmptyWindow([Value; 2]),
    /// A window beyond [`MAX_WINDOW`].
    #[error("window [{}, {}] beyond ±{MAX_WINDOW}", .0[0], .0[1])]
    WideWindow([Value; 2]),
    /// A line whose id is not the next.
    #[error("id {found} where {expected} was expected")]
    Id {
        /// The line's id.
        found: usize,
        /// The next id.
        expected: usize,
    },
    /// A shard beyond the split's.
    #[error("shard {shard} of {shards}")]
    ShardOutOfRange {
        /// The line's shard.
        shard: usize,
        /// The split's shard count.
        shards: usize,
    },
    /// A line with no path.
    #[error("no paths")]
    NoPaths,
    /// A path deeper than the split.
    #[error("a path of {moves} moves, deeper than the split's {depth}")]
    DeepPath {
        /// The path's moves.
        moves: usize,
        /// The split's depth.
        depth: usize,
    },
    /// A known interval outside the game's range.
    #[error(
        "known interval [{}, {}] is not within the game's range [{}, {}]",
        .known[0], .known[1], .range[0], .range[1]
    )]
    KnownOutOfRange {
        /// The line's interval.
        known: [Value; 2],
        /// The game's range.
        range: [Value; 2],
    },
    /// A first pass's line outside a shard or with something known.
    #[error("a first pass solves every line and knows nothing of any")]
    FirstPass,
    /// A later pass's line with no known interval.
    #[error("a later pass has no known interval for it")]
    NoKnown,
    /// A later pass's window on a line it does not solve, or none on one it does.
    #[error("a later pass gives a window to the lines it solves, and only to them")]
    WindowWithoutShard,
    /// A later pass's window that does not fit what is known.
    #[error(
        "window [{}, {}] for a line known to lie in [{}, {}]",
        .window[0], .window[1], .known[0], .known[1]
    )]
    WindowOutsideKnown {
        /// The line's window.
        window: [Value; 2],
        /// Its known interval.
        known: [Value; 2],
    },
    /// One path written twice.
    #[error("the same path twice")]
    SamePathTwice,
    /// A path through another line's position.
    #[error(
        "a path runs on past the position of line {0} (a frontier position ends every path \
         through it)"
    )]
    PastFrontier(usize),
    /// A move after the game ended.
    #[error(
        "move {index} of a path, '{}', is played after the game ended",
        cutoff::game::quote_max(.mv, 40)
    )]
    AfterEnd {
        /// The move's place in its path, from 1.
        index: usize,
        /// The move.
        mv: String,
    },
    /// A move the game cannot read.
    #[error("move {index} of a path, '{}': {source}", cutoff::game::quote_max(.mv, 40))]
    BadMove {
        /// The move's place in its path, from 1.
        index: usize,
        /// The move.
        mv: String,
        /// The game's reason.
        source: cutoff::GameError,
    },
    /// A move that is not legal, or not written as the game writes it.
    #[error(
        "move {index} of a path, '{}', is not a legal move as the game writes it",
        cutoff::game::quote_max(.mv, 40)
    )]
    IllegalMove {
        /// The move's place in its path, from 1.
        index: usize,
        /// The move.
        mv: String,
    },
    /// A line whose paths reach different positions.
    #[error("its paths reach different positions (neither the same nor mirror images)")]
    DifferentPositions,
    /// A line whose position is not the one its first path reaches.
    #[error(
        "position '{}' where its first path reaches '{}'",
        cutoff::game::quote_max(.written, 40), cutoff::game::quote_max(.reached, 40)
    )]
    WrongPosition {
        /// The line's position.
        written: String,
        /// The one its first path reaches.
        reached: String,
    },
    /// A line none of whose paths reaches the frontier or ends the game.
    #[error(
        "no path of it is {0} moves long or ends the game (split ends a path earlier only at a \
         position met before)"
    )]
    ShortPaths(usize),
    /// Two lines of one position.
    #[error("the same position as line {0} (or its mirror image): split writes one line for both")]
    SamePosition(usize),
    /// A position above the frontier whose moves are not all followed.
    #[error(
        "the position after {depth} moves of its path has {moves} legal moves, the file follows \
         {followed} of them (a split follows every one)"
    )]
    Incomplete {
        /// The position's depth.
        depth: usize,
        /// Its legal moves.
        moves: usize,
        /// The moves the file follows.
        followed: usize,
    },
    /// A result's bound that is none of exact, lower and upper.
    #[error("id {id}: unknown bound '{}'", cutoff::game::quote_max(.bound, 40))]
    UnknownBound {
        /// The line's id.
        id: usize,
        /// The bound.
        bound: String,
    },
    /// Node counts whose sum overflows, over the shards.
    #[error("the shards' node counts overflow")]
    ShardNodesOverflow,
    /// Node counts whose sum overflows, over a shard's lines or a merge's.
    #[error("node counts overflow")]
    NodesOverflow,
    /// Shards with no result.
    #[error("{} of {shards} shards have no result in '{dir}': {}", .missing.len(), missing_text(.missing))]
    Missing {
        /// The shards with no result.
        missing: Vec<usize>,
        /// The split's shard count.
        shards: usize,
        /// Where the results were looked for, as messages show it.
        dir: String,
    },
    /// A result file that does not read as one.
    #[error("'{file}' is truncated or not a result ({source})")]
    NotResult {
        /// The result file, as messages show it.
        file: String,
        /// Why it did not read.
        source: serde_json::Error,
    },
    /// A result file of another format version.
    #[error("'{file}' is a result of version {found}, this cutoff reads version {RESULT_VERSION}")]
    ResultVersion {
        /// The result file, as messages show it.
        file: String,
        /// Its version.
        found: u32,
    },
    /// A result of another split.
    #[error(
        "'{file}' answers another split (digest {}, this split's is {})",
        short(&cutoff::game::quote_max(.found, 64)), short(.ours)
    )]
    OtherSplit {
        /// The result file, as messages show it.
        file: String,
        /// The digest it answers.
        found: String,
        /// This split's.
        ours: String,
    },
    /// A result of another shard.
    #[error("'{file}' says it is shard {shard} of {shards}")]
    OtherShard {
        /// The result file, as messages show it.
        file: String,
        /// The shard it says it is.
        shard: usize,
        /// The shard count it says.
        shards: usize,
    },
    /// A result whose lines are not the shard's, in order.
    #[error(
        "'{file}' holds {found} lines where the shard has {expected}, or not the shard's, or \
         not in order"
    )]
    ResultLines {
        /// The result file, as messages show it.
        file: String,
        /// Its lines.
        found: usize,
        /// The shard's.
        expected: usize,
    },
    /// A value outside the game's range.
    #[error("value {value} outside the game's range [{}, {}]", .range[0], .range[1])]
    ValueOutOfRange {
        /// The value.
        value: Value,
        /// The game's range.
        range: [Value; 2],
    },
    /// A bound that a solve in the line's window cannot give.
    #[error(
        "'{} {value}' is not what a solve in {} gives",
        cutoff::game::quote_max(.bound, 20), window_text(.window)
    )]
    BoundMismatch {
        /// The bound.
        bound: String,
        /// The value.
        value: Value,
        /// The line's window, if any.
        window: Option<[Value; 2]>,
    },
    /// A bound with a line of play.
    #[error("a bound with a line of play")]
    BoundWithLine,
    /// A result whose node count is not its lines'.
    #[error("{claimed} nodes where its lines' add up to {sum}")]
    NodeSum {
        /// The result's count.
        claimed: u64,
        /// Its lines' sum.
        sum: u64,
    },
    /// A move of a result's line of play that is not legal as the game writes it.
    #[error(
        "move {index} of its line, '{}', is not a legal move as the game writes it",
        cutoff::game::quote_max(.mv, 40)
    )]
    IllegalPvMove {
        /// The move's place in the line, from 1.
        index: usize,
        /// The move.
        mv: String,
    },
    /// A result that contradicts what earlier passes proved.
    #[error(
        "this pass's result {bound} {value} contradicts the earlier passes' [{}, {}]",
        .known[0], .known[1]
    )]
    Contradiction {
        /// The result's bound.
        bound: String,
        /// Its value.
        value: Value,
        /// What the earlier passes proved.
        known: [Value; 2],
    },
    /// A split file over [`FILE_LIMIT`].
    #[error(
        "the split file would pass the {} MiB limit: split at a smaller \u{1}depth\u{2}",
        FILE_LIMIT >> 20
    )]
    SplitTooLarge,
    /// JSON that could not be written.
    #[error("cannot write JSON: {0}")]
    WriteJson(#[source] serde_json::Error),
    /// A shard index variable that is not a number.
    #[error("{var} is '{}', not a shard index", cutoff::game::quote_max(.value, 40))]
    BadIndexVar {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
    },
    /// No shard index at all.
    #[error(
        "no shard index: give \u{1}index\u{2} I, or run as a Slurm array task (SLURM_ARRAY_TASK_ID) or \
         a Kubernetes indexed Job (JOB_COMPLETION_INDEX)"
    )]
    NoIndex,
}

impl ShardError {
    /// `self` at line `line` of the split file `file` (as messages show it).
    pub fn in_split(self, file: &str, line: usize) -> ShardError {
        ShardError::InSplit {
            file: file.to_string(),
            line,
            source: Box::new(self),
        }
    }

    /// `self` in shard `shard`'s result.
    pub fn in_shard(self, shard: usize) -> ShardError {
        ShardError::InShard {
            shard,
            source: Box::new(self),
        }
    }

    /// `self` in the result of line `id`.
    fn at_id(self, id: usize) -> ShardError {
        ShardError::AtId {
            id,
            source: Box::new(self),
        }
    }

    /// `self` inside the result file `file` (as messages show it).
    fn in_result(self, file: &str) -> ShardError {
        ShardError::InResult {
            file: file.to_string(),
            source: Box::new(self),
        }
    }
}

/// A time for messages: exponents keep a huge number short.
fn time_text(x: f64) -> String {
    if x.abs() < 1e6 {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// A line's window for messages.
fn window_text(window: &Option<[Value; 2]>) -> String {
    window.map_or("no window".to_string(), |[a, b]| {
        format!("the window [{a}, {b}]")
    })
}

/// The first 20 missing shards, for messages.
fn missing_text(missing: &[usize]) -> String {
    let list: Vec<String> = missing.iter().take(20).map(|i| i.to_string()).collect();
    let more = if missing.len() > 20 { ", ..." } else { "" };
    format!("{}{more}", list.join(", "))
}

/// The first 12 hex digits of a digest, for messages.
pub fn short(d: &str) -> &str {
    d.get(..12).unwrap_or(d)
}

/// A JSON error without serde's "at line 1 column N", the row being named apart.
fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&place) {
        Some(m) => format!("{m} (column {})", e.column()),
        None => text,
    }
}
