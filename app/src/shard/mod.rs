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

use crate::files::FileError;
use crate::message::shown_path;
use crate::position::{
    AnyGame, Describe, GameKind, GameOptions, GameVisitor, PositionError, RangeOf,
};
use cutoff::knowledge::Knowledge;
use cutoff::{MoveBuffer, Value};
use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

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

/// A sequence of moves in the game's notation, stored compactly (one string and the end of
/// each move in it) so that a file's paths take about the memory of their text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    text: String,
    ends: Vec<u32>,
}

impl Moves {
    /// Appends `mv`; an error if the text would pass 4 GiB.
    pub fn push(&mut self, mv: &str) -> Result<(), ShardError> {
        let end = self
            .text
            .len()
            .checked_add(mv.len())
            .and_then(|e| u32::try_from(e).ok())
            .ok_or(ShardError::MovesTooLong)?;
        self.text.push_str(mv);
        self.ends.push(end);
        Ok(())
    }

    /// The moves `texts`.
    pub fn of<S: AsRef<str>>(texts: &[S]) -> Result<Moves, ShardError> {
        let mut m = Moves::default();
        for t in texts {
            m.push(t.as_ref())?;
        }
        Ok(m)
    }

    /// A view of the whole sequence.
    pub fn path(&self) -> Path<'_> {
        Path {
            text: &self.text,
            ends: &self.ends,
            start: 0,
        }
    }

    /// How many moves.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// A view of a sequence of moves (of [`Moves`] or one of [`Paths`]).
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    text: &'a str,
    ends: &'a [u32],
    start: u32,
}

impl<'a> Path<'a> {
    /// How many moves.
    pub fn len(self) -> usize {
        self.ends.len()
    }

    /// True if there are none.
    pub fn is_empty(self) -> bool {
        self.ends.is_empty()
    }

    /// The moves, in order.
    pub fn iter(self) -> impl Iterator<Item = &'a str> {
        let text = self.text;
        let mut s = self.start as usize;
        self.ends.iter().map(move |&e| {
            let mv = text.get(s..e as usize).unwrap_or_default();
            s = e as usize;
            mv
        })
    }

    /// The moves as strings.
    pub fn to_vec(self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

impl Serialize for Path<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl Serialize for Moves {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.path().serialize(s)
    }
}

/// Reads one move into a [`Moves`].
struct PushMove<'a>(&'a mut Moves);

impl<'de> DeserializeSeed<'de> for PushMove<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for PushMove<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a move")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.push(v).map_err(E::custom)
    }
}

/// Reads a sequence of at most `limit` moves into a [`Moves`]: an error as soon as the
/// sequence passes it, so that a long one costs no memory.
struct PushMoves<'a> {
    moves: &'a mut Moves,
    limit: usize,
}

impl<'de> DeserializeSeed<'de> for PushMoves<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PushMoves<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of moves")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut n = 0;
        while seq.next_element_seed(PushMove(self.moves))?.is_some() {
            n += 1;
            if n > self.limit {
                return Err(de::Error::custom(format!(
                    "a path of more than {} moves",
                    self.limit
                )));
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Moves, D::Error> {
        let mut moves = Moves::default();
        d.deserialize_seq(PushMoves {
            moves: &mut moves,
            limit: usize::MAX,
        })?;
        Ok(moves)
    }
}

/// A frontier line's paths, stored compactly (see [`Moves`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paths {
    moves: Moves,
    /// The end of each path, as a count of moves.
    ends: Vec<u32>,
}

impl Paths {
    /// Appends `path`.
    pub fn push<S: AsRef<str>>(&mut self, path: &[S]) -> Result<(), ShardError> {
        for mv in path {
            self.moves.push(mv.as_ref())?;
        }
        self.end_path()
    }

    fn end_path(&mut self) -> Result<(), ShardError> {
        let end = u32::try_from(self.moves.len()).map_err(|_| ShardError::TooManyMoves)?;
        self.ends.push(end);
        Ok(())
    }

    /// How many paths.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Path `i`.
    pub fn get(&self, i: usize) -> Option<Path<'_>> {
        let e = *self.ends.get(i)? as usize;
        let s = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(Path {
            text: &self.moves.text,
            ends: self.moves.ends.get(s..e)?,
            start: if s == 0 { 0 } else { self.moves.ends[s - 1] },
        })
    }

    /// The first path: the one solve-shard plays (every checked line has one).
    pub fn first(&self) -> Path<'_> {
        self.get(0).unwrap_or(Path {
            text: "",
            ends: &[],
            start: 0,
        })
    }

    /// The paths, in order.
    pub fn iter(&self) -> impl Iterator<Item = Path<'_>> {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

impl Serialize for Paths {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Paths {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Paths, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Paths;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of paths")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Paths, A::Error> {
                let mut paths = Paths::default();
                loop {
                    let seed = PushMoves {
                        moves: &mut paths.moves,
                        limit: MAX_DEPTH,
                    };
                    if seq.next_element_seed(seed)?.is_none() {
                        return Ok(paths);
                    }
                    paths.end_path().map_err(de::Error::custom)?;
                    if paths.len() > MAX_PATHS {
                        return Err(de::Error::custom(format!("more than {MAX_PATHS} paths")));
                    }
                }
            }
        }
        d.deserialize_seq(V)
    }
}

/// The game and position of a split, as the command line gave them: enough to set the game
/// up again in another process.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSpec {
    /// The game's command-line name.
    pub game: String,
    /// The position text, if any.
    pub position: Option<String>,
    /// Random trees: branching factor.
    pub branching: Option<usize>,
    /// Random trees: depth.
    pub depth: Option<usize>,
    /// Random trees: seed.
    pub seed: u64,
    /// Random trees: move ordering.
    pub order: String,
    /// Trees: the root's kind, "max" or "min".
    pub root: String,
    /// The SHA-256 of the file the position was read from (a tree file, a control matrix in
    /// a file), so that no pass is ever run on another file of that name.
    #[serde(default)]
    pub position_sha256: Option<String>,
    /// Connect Four: the board, `WxH` or `WxH/K`, where the command line chose one (absent:
    /// the default 7x6 with four in a row, as in split files from before boards were chosen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
}

impl GameSpec {
    /// The spec of `args`, with no file digest.
    pub fn of(args: &GameOptions) -> Self {
        GameSpec {
            game: args.game.name().to_string(),
            position: args.position.clone(),
            branching: args.branching,
            depth: args.depth,
            seed: args.seed,
            order: args.order.name().to_string(),
            root: match args.root {
                cutoff::Player::First => "max".into(),
                cutoff::Player::Second => "min".into(),
            },
            position_sha256: None,
            board: args
                .shape
                .given()
                .then(|| crate::position::shape_name(args.shape.shape())),
        }
    }

    /// The command-line arguments that set the game up again.
    pub fn args(&self) -> Result<GameOptions, ShardError> {
        let kind = GameKind::from_name(&self.game)
            .ok_or_else(|| ShardError::UnknownGame(self.game.clone()))?;
        let mut args = GameOptions::new(kind, self.position.as_deref());
        args.branching = self.branching;
        args.depth = self.depth;
        args.seed = self.seed;
        args.order = crate::position::parse_order(&self.order)?;
        args.root = crate::position::parse_root(&self.root)?;
        if let Some(board) = &self.board {
            let (w, h, k) = crate::position::parse_shape(board).map_err(ShardError::Board)?;
            args.shape = crate::position::ShapeOptions {
                board: Some((w, h)),
                connect: Some(k),
            };
        }
        Ok(args)
    }

    /// The game, set up again: where the position is a file, only if the file is still the
    /// one the split read (its SHA-256 is the recorded one).
    pub fn game(&self) -> Result<AnyGame, ShardError> {
        let args = self.args()?;
        if args.game == GameKind::Random {
            return Err(ShardError::RandomTree);
        }
        match (&self.position_sha256, position_file(&args)) {
            (Some(want), _) => {
                let file = args
                    .position
                    .as_deref()
                    .ok_or(ShardError::DigestWithoutPosition)?;
                let bytes = read_position_file(file)?;
                let got = digest(&bytes);
                if &got != want {
                    return Err(ShardError::OtherPositionFile {
                        file: file.to_string(),
                        found: got,
                        recorded: want.clone(),
                    });
                }
                game_from_text(&args, file, &bytes)
            }
            (None, Some(file)) => Err(ShardError::NoDigest(file.to_string())),
            (None, None) => Ok(AnyGame::parse(&args)?),
        }
    }
}

/// The file the game reads its position from, if it reads one: a tree game's position
/// always names one; a control game's does unless it is a matrix written out and no file
/// has that name (the rule of [`crate::files::control_text`]).
fn position_file(args: &GameOptions) -> Option<&str> {
    let p = args.position.as_deref()?;
    match args.game {
        GameKind::Tree => Some(p),
        GameKind::Control => {
            let matrix = p
                .chars()
                .all(|c| matches!(c, '0' | '1' | '/') || c.is_whitespace());
            (!matrix || std::path::Path::new(p).exists()).then_some(p)
        }
        _ => None,
    }
}

/// A position file's bytes: a regular file of at most the input limit.
fn read_position_file(file: &str) -> Result<Vec<u8>, FileError> {
    crate::files::read_regular(std::path::Path::new(file), crate::files::INPUT_LIMIT)
}

/// The game of `args` from its position file's bytes (read once, so that the digest is of
/// the text parsed).
fn game_from_text(args: &GameOptions, file: &str, bytes: &[u8]) -> Result<AnyGame, ShardError> {
    let text = std::str::from_utf8(bytes).map_err(|e| FileError::NotUtf8 {
        input: crate::files::Input::file(file),
        offset: e.valid_up_to(),
    })?;
    match args.game {
        GameKind::Tree => Ok(AnyGame::Tree(Box::new(
            cutoff::games::perfect::tree::Tree::parse(text, args.root)?,
        ))),
        GameKind::Control => Ok(AnyGame::Control(Box::new(
            cutoff::games::perfect::control::Control::parse(text)?,
        ))),
        other => Err(ShardError::NotFromFile(other)),
    }
}

/// Sets up the game of `args` for `split`, with the SHA-256 of its position file if it reads
/// one (only a regular file is read).
pub fn open_game(args: &GameOptions) -> Result<(AnyGame, Option<String>), ShardError> {
    match position_file(args) {
        None => Ok((AnyGame::parse(args)?, None)),
        Some(file) => {
            let bytes = read_position_file(file)?;
            Ok((game_from_text(args, file, &bytes)?, Some(digest(&bytes))))
        }
    }
}

/// The first line of a split file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header {
    /// The format version ([`SPLIT_VERSION`]).
    pub cutoff_split: u32,
    /// The game and the position split.
    pub game: GameSpec,
    /// Plies from the split position to the frontier.
    pub depth: usize,
    /// Shards the lines are grouped into.
    pub shards: usize,
    /// Frontier lines (distinct positions, mirror images merged).
    pub frontier: usize,
    /// Paths from the split position to the frontier.
    pub paths: usize,
    /// The depth of the searches that estimated each line's cost (0: none, every line 1).
    pub estimate_depth: usize,
    /// The game's value range: what a line's bound leaves open on its other side.
    pub range: [Value; 2],
    /// 1 for a split; each `cutoff plan` writes the next pass.
    #[serde(default = "first_pass")]
    pub pass: u32,
    /// Nodes searched by the earlier passes, counted into merge's total.
    #[serde(default)]
    pub prior_nodes: u64,
    /// Wall time of the earlier passes' shards, in seconds.
    #[serde(default)]
    pub prior_seconds: f64,
}

fn first_pass() -> u32 {
    1
}

/// A frontier position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Line {
    /// Its stable id: lines are numbered in the order a depth-first walk of the moves, in the
    /// game's order, first meets them.
    pub id: usize,
    /// The shard that solves it; `null` when this pass need not solve it (its `known`
    /// interval settles what the split position needs of it).
    pub shard: Option<usize>,
    /// Its estimated cost: the nodes of a shallow search of it.
    pub cost: u64,
    /// The position, as `cutoff solve` takes it where the game can say so, else in words.
    pub position: String,
    /// Every path of moves from the split position that reaches it (or its mirror image); the
    /// first is the one solve-shard plays.
    pub paths: Paths,
    /// The window to solve it in (see `cutoff::solver::Solver::window`); absent: exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<[Value; 2]>,
    /// What earlier passes proved of its value: `[lo, hi]`; absent: nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<[Value; 2]>,
}

/// The solved value of one line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Solved {
    /// The line's id.
    pub id: usize,
    /// The value, from the side to move at the line's position.
    pub value: Value,
    /// "exact", or with a window "lower" (the value is at least `value`) or "upper" (at most).
    pub bound: String,
    /// The principal variation from the line's position (its first path), in the game's
    /// notation.
    pub pv: Moves,
    /// Nodes searched.
    pub nodes: u64,
    /// Positions passed through as forced (not in `nodes`).
    pub forced: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Fail-high cutoffs.
    pub cutoffs: u64,
    /// Cutoffs made by the first move tried.
    pub first_move_cutoffs: u64,
    /// Deepest ply reached, from the line's position.
    pub max_ply: u32,
    /// Wall time of the line's search.
    pub ms: f64,
}

/// A shard's result file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardResult {
    /// The format version ([`RESULT_VERSION`]).
    pub cutoff_shard: u32,
    /// The SHA-256 of the split file it answers.
    pub digest: String,
    /// This shard's index.
    pub shard: usize,
    /// The split's shard count.
    pub shards: usize,
    /// The window `solve-shard --window` gave every line instead of the split file's;
    /// `null`: the split file's.
    pub window: Option<[Value; 2]>,
    /// Every line of the shard, in id order.
    pub lines: Vec<Solved>,
    /// Total nodes of the shard.
    pub nodes: u64,
    /// Wall time of the shard.
    pub seconds: f64,
}

/// A split file, read and checked, with its game set up and the tree of its paths.
pub struct Split {
    /// Its SHA-256, as lowercase hex.
    pub digest: String,
    /// Its name as messages show it.
    pub name: String,
    /// Its header.
    pub header: Header,
    /// The lines, in id order.
    pub lines: Vec<Line>,
    /// Each line's row in the file, from 1 (for messages).
    rows: Vec<usize>,
    /// The game, at the split position.
    pub game: AnyGame,
    /// The tree of every path.
    pub tree: PathTree,
}

/// The SHA-256 of `bytes`, as lowercase hex.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Reads at most [`FILE_LIMIT`] bytes of the regular file `path`; errors name it.
pub fn read(path: &str) -> Result<Vec<u8>, FileError> {
    crate::files::read_regular(std::path::Path::new(path), FILE_LIMIT)
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

/// Checks that `w` is a window `split --window` or `solve-shard --window` can give.
fn check_window([a, b]: [Value; 2]) -> Result<(), ShardError> {
    if a >= b {
        return Err(ShardError::EmptyWindow([a, b]));
    }
    if a < -MAX_WINDOW || b > MAX_WINDOW {
        return Err(ShardError::WideWindow([a, b]));
    }
    Ok(())
}

/// Checks that `x` is a time a run can take: finite, not negative, at most `most`.
fn check_time(x: f64, most: f64, what: &'static str) -> Result<(), ShardError> {
    if x.is_finite() && (0.0..=most).contains(&x) {
        return Ok(());
    }
    Err(ShardError::Time {
        what,
        value: x,
        most,
    })
}

impl Split {
    /// Reads and checks the split file at `path` (see [`Split::parse`]).
    pub fn read(path: &str) -> Result<Split, ShardError> {
        Split::parse(&read(path)?, path)
    }

    /// Reads and checks a split file's bytes; errors name it `path` and the line at fault.
    /// Accepts only what `split` and `plan` write: a header within their limits, lines
    /// numbered 0, 1, ... with shards, windows and intervals in range, and paths that replay
    /// on the game (see [`PathTree`]).
    pub fn parse(bytes: &[u8], path: &str) -> Result<Split, ShardError> {
        let what = shown_path(path);
        let text =
            std::str::from_utf8(bytes).map_err(|_| ShardError::SplitNotUtf8(what.clone()))?;
        let text = crate::files::strip_bom(text);
        let mut rows = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = rows
            .next()
            .ok_or_else(|| ShardError::SplitEmpty(what.clone()))?;
        let header: Header =
            serde_json::from_str(first).map_err(|source| ShardError::NotSplit {
                file: what.clone(),
                source,
            })?;
        check_header(&header).map_err(|e| e.in_split(&what, 1))?;
        let game = header.game.game().map_err(|e| e.in_split(&what, 1))?;
        let (lo, hi) = game.visit(RangeOf);
        if header.range != [lo, hi] {
            return Err(ShardError::Range {
                range: header.range,
                game: [lo, hi],
            }
            .in_split(&what, 1));
        }
        let mut lines = Vec::with_capacity(header.frontier.min(1 << 16));
        let mut line_rows = Vec::with_capacity(header.frontier.min(1 << 16));
        let mut paths = 0usize;
        // The first pass's window, seen from the split position (see `split`).
        let mut root_window: Option<Option<[Value; 2]>> = None;
        for (i, row) in rows {
            let at = |e: ShardError| e.in_split(&what, i + 1);
            if lines.len() >= header.frontier {
                return Err(at(ShardError::MoreLines(header.frontier)));
            }
            let line: Line = serde_json::from_str(row).map_err(|e| at(ShardError::Json(e)))?;
            paths = paths.saturating_add(line.paths.len());
            if paths > header.paths {
                return Err(at(ShardError::MorePaths(header.paths)));
            }
            check_line(&header, &line, lines.len()).map_err(at)?;
            if header.pass == 1 {
                let w = line.window.map(|[a, b]| {
                    if line.paths.first().len() % 2 == 1 {
                        [-b, -a]
                    } else {
                        [a, b]
                    }
                });
                if *root_window.get_or_insert(w) != w {
                    return Err(at(ShardError::WindowDiffers));
                }
            }
            lines.push(line);
            line_rows.push(i + 1);
        }
        if lines.len() != header.frontier || paths != header.paths {
            return Err(ShardError::Truncated {
                file: what,
                lines: lines.len(),
                paths,
                header: [header.frontier, header.paths],
            });
        }
        let tree = game.visit(Check {
            what: &what,
            header: &header,
            lines: &lines,
            rows: &line_rows,
        })?;
        Ok(Split {
            digest: digest(bytes),
            name: what,
            header,
            lines,
            rows: line_rows,
            game,
            tree,
        })
    }

    /// The ids of shard `shard`'s lines, in order.
    pub fn shard_ids(&self, shard: usize) -> Vec<usize> {
        self.lines
            .iter()
            .filter(|l| l.shard == Some(shard))
            .map(|l| l.id)
            .collect()
    }

    /// The row of line `id` in the file, from 1.
    pub fn row(&self, id: usize) -> usize {
        self.rows.get(id).copied().unwrap_or(0)
    }
}

/// The header's claims within what `split` and `plan` write.
fn check_header(h: &Header) -> Result<(), ShardError> {
    if h.cutoff_split != SPLIT_VERSION {
        return Err(ShardError::SplitVersion(h.cutoff_split));
    }
    if h.shards == 0 || h.shards > MAX_SHARDS {
        return Err(ShardError::Shards(h.shards));
    }
    if h.depth > MAX_DEPTH {
        return Err(ShardError::Depth(h.depth));
    }
    if h.estimate_depth > MAX_ESTIMATE_DEPTH {
        return Err(ShardError::EstimateDepth(h.estimate_depth));
    }
    if h.paths > MAX_PATHS || h.frontier == 0 || h.frontier > h.paths {
        return Err(ShardError::Counts {
            frontier: h.frontier,
            paths: h.paths,
        });
    }
    if h.pass == 0 || (h.pass == 1 && (h.prior_nodes != 0 || h.prior_seconds != 0.0)) {
        return Err(ShardError::Pass {
            pass: h.pass,
            nodes: h.prior_nodes,
            seconds: h.prior_seconds,
        });
    }
    check_time(h.prior_seconds, MAX_TOTAL_SECONDS, "prior_seconds")
}

/// One line's fields within what `split` and `plan` write (its paths are checked on the
/// game by [`Check`]).
fn check_line(h: &Header, line: &Line, expected_id: usize) -> Result<(), ShardError> {
    if line.id != expected_id {
        return Err(ShardError::Id {
            found: line.id,
            expected: expected_id,
        });
    }
    if let Some(sh) = line.shard.filter(|&sh| sh >= h.shards) {
        return Err(ShardError::ShardOutOfRange {
            shard: sh,
            shards: h.shards,
        });
    }
    if line.paths.is_empty() {
        return Err(ShardError::NoPaths);
    }
    if let Some(p) = line.paths.iter().find(|p| p.len() > h.depth) {
        return Err(ShardError::DeepPath {
            moves: p.len(),
            depth: h.depth,
        });
    }
    let [lo, hi] = h.range;
    if let Some([a, b]) = line.known {
        if a > b || a < lo || b > hi {
            return Err(ShardError::KnownOutOfRange {
                known: [a, b],
                range: h.range,
            });
        }
    }
    if h.pass == 1 {
        // `split`: every line in a shard, nothing known yet.
        if line.shard.is_none() || line.known.is_some() {
            return Err(ShardError::FirstPass);
        }
        if let Some(w) = line.window {
            check_window(w)?;
        }
    } else {
        // `plan`: what is known of every line; a window exactly for the lines it solves,
        // within one of what is known, which it leaves open.
        let Some([klo, khi]) = line.known else {
            return Err(ShardError::NoKnown);
        };
        if line.shard.is_some() != line.window.is_some() {
            return Err(ShardError::WindowWithoutShard);
        }
        if let Some([a, b]) = line.window {
            if a >= b || klo == khi || a < klo - 1 || b > khi + 1 {
                return Err(ShardError::WindowOutsideKnown {
                    window: [a, b],
                    known: [klo, khi],
                });
            }
        }
    }
    Ok(())
}

/// Builds the tree of a split's paths, replaying them on the game (see [`PathTree`]).
struct Check<'a> {
    what: &'a str,
    header: &'a Header,
    lines: &'a [Line],
    rows: &'a [usize],
}

impl GameVisitor for Check<'_> {
    type Output = Result<PathTree, ShardError>;
    fn visit<G: Describe>(self, game: &G) -> Result<PathTree, ShardError> {
        check_paths(game, &self)
    }
}

/// A position on the way down the tree of paths.
struct Frame<G: cutoff::Game> {
    node: u32,
    pos: G::Pos,
    moves: G::Moves,
    children: usize,
}

/// Replays every path of `c` on `game` and builds their tree. The paths are taken in the
/// order of their moves' texts, so that a path comes right after its prefixes and next to
/// its equals: the checks do not depend on the order of the lines, each node is played
/// once, and a node's moves are all seen before the walk leaves it, so that an incomplete
/// node is refused at once (the tree of a file that passes is the tree `split` walked).
fn check_paths<G: Describe>(game: &G, c: &Check<'_>) -> Result<PathTree, ShardError> {
    let lines = c.lines;
    let at = |id: usize, e: ShardError| e.in_split(c.what, c.rows[id]);
    // Each path's moves as small numbers, one per distinct text, so that sorting compares
    // numbers: (line, path, start in `seq`, length).
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut seq: Vec<u32> = Vec::new();
    let mut order: Vec<(u32, u32, u32, u32)> = Vec::with_capacity(c.header.paths);
    for (id, l) in lines.iter().enumerate() {
        for (k, path) in l.paths.iter().enumerate() {
            let start = seq.len();
            for mv in path.iter() {
                let next = ids.len() as u32;
                seq.push(*ids.entry(mv).or_insert(next));
            }
            // At most MAX_PATHS paths of at most MAX_DEPTH moves: all fit in u32.
            order.push((id as u32, k as u32, start as u32, path.len() as u32));
        }
    }
    let moves_of = |&(_, _, s, n): &(u32, u32, u32, u32)| &seq[s as usize..(s + n) as usize];
    order.sort_unstable_by(|a, b| moves_of(a).cmp(moves_of(b)));
    let mut tree = PathTree::default();
    let mut stack: Vec<Frame<G>> = vec![Frame {
        node: tree.push(0),
        pos: game.initial(),
        moves: G::Moves::default(),
        children: 0,
    }];
    let mut key_of: Vec<Option<u64>> = vec![None; lines.len()];
    let mut full = vec![false; lines.len()];
    let mut prev: Option<(usize, &[u32])> = None;
    let root_text = c.header.game.position.as_deref();
    for entry in &order {
        let (id, k) = (entry.0 as usize, entry.1 as usize);
        let Some(path) = lines[id].paths.get(k) else {
            continue;
        };
        let here = moves_of(entry);
        let common = prev.map_or(0, |(_, p)| {
            p.iter().zip(here).take_while(|(a, b)| a == b).count()
        });
        while stack.len() > common + 1 {
            close(&mut tree, &mut stack, |e| at(prev.map_or(id, |p| p.0), e))?;
        }
        if prev.is_some() && common == path.len() {
            return Err(at(id, ShardError::SamePathTwice));
        }
        for (d, text) in path.iter().enumerate().skip(common) {
            let Some(top) = stack.last_mut() else { break };
            if let Some(other) = tree.line(top.node as usize) {
                return Err(at(id, ShardError::PastFrontier(c.rows[other])));
            }
            if game.outcome(&top.pos).is_some() {
                return Err(at(
                    id,
                    ShardError::AfterEnd {
                        index: d + 1,
                        mv: text.to_string(),
                    },
                ));
            }
            let mv = game.parse_move(&top.pos, text).map_err(|source| {
                at(
                    id,
                    ShardError::BadMove {
                        index: d + 1,
                        mv: text.to_string(),
                        source,
                    },
                )
            })?;
            if top.children == 0 {
                game.moves(&top.pos, &mut top.moves);
            }
            let index = top.moves.as_slice().iter().position(|&m| m == mv);
            let written = game.format_move(&top.pos, mv);
            let Some(index) = index.filter(|_| written == text) else {
                return Err(at(
                    id,
                    ShardError::IllegalMove {
                        index: d + 1,
                        mv: text.to_string(),
                    },
                ));
            };
            top.children += 1;
            let pos = game.play(&top.pos, mv);
            let index = u16::try_from(index).map_err(|_| at(id, ShardError::TooManyMoves))?;
            stack.push(Frame {
                node: tree.push(index),
                pos,
                moves: G::Moves::default(),
                children: 0,
            });
        }
        let Some(top) = stack.last() else { break };
        tree.set_line(top.node as usize, id);
        let pos = top.pos;
        if path.len() == c.header.depth || game.outcome(&pos).is_some() {
            full[id] = true;
        }
        let key = G::Knowledge::table_key(game, &pos).0;
        match key_of[id] {
            None => key_of[id] = Some(key),
            Some(k0) if k0 != key => return Err(at(id, ShardError::DifferentPositions)),
            Some(_) => {}
        }
        if k == 0 {
            let expected = game
                .position_arg(root_text, &path.to_vec(), &pos)
                .unwrap_or_else(|| game.describe(&pos));
            if lines[id].position != expected {
                return Err(at(
                    id,
                    ShardError::WrongPosition {
                        written: lines[id].position.clone(),
                        reached: expected,
                    },
                ));
            }
        }
        prev = Some((id, here));
    }
    let last = prev.map_or(0, |p| p.0);
    while !stack.is_empty() {
        close(&mut tree, &mut stack, |e| at(last, e))?;
    }
    let mut seen: HashMap<u64, usize> = HashMap::with_capacity(lines.len());
    for id in 0..lines.len() {
        if !full[id] {
            return Err(at(id, ShardError::ShortPaths(c.header.depth)));
        }
        if let Some(key) = key_of[id] {
            if let Some(other) = seen.insert(key, id) {
                return Err(at(id, ShardError::SamePosition(c.rows[other])));
            }
        }
    }
    Ok(tree)
}

/// Leaves the deepest position of the walk: a position with moves must have them all.
fn close<G: Describe>(
    tree: &mut PathTree,
    stack: &mut Vec<Frame<G>>,
    at: impl Fn(ShardError) -> ShardError,
) -> Result<(), ShardError> {
    let Some(f) = stack.pop() else { return Ok(()) };
    if f.children > 0 && f.children != f.moves.len() {
        return Err(at(ShardError::Incomplete {
            depth: stack.len(),
            moves: f.moves.len(),
            followed: f.children,
        }));
    }
    tree.close(f.node as usize);
    Ok(())
}

/// What a line's result proves of its value, as `[lo, hi]`, within the game's `range`.
pub fn proved(r: &Solved, range: [Value; 2]) -> Result<[Value; 2], ShardError> {
    match r.bound.as_str() {
        "exact" => Ok([r.value, r.value]),
        "upper" => Ok([range[0], r.value]),
        "lower" => Ok([r.value, range[1]]),
        other => Err(ShardError::UnknownBound {
            id: r.id,
            bound: other.to_string(),
        }),
    }
}

/// What one pass's results hold: each line's result by id (`None` for the lines this pass
/// does not solve), and the shards' totals.
pub struct Results {
    /// Each line's result.
    pub solved: Vec<Option<Solved>>,
    /// The shards' total wall time, in seconds.
    pub seconds: f64,
    /// The shards' total nodes.
    pub nodes: u64,
}

/// A shard's result file's bytes and its name for messages; `None` if it has none.
pub type Found = Option<(Vec<u8>, String)>;

/// Every shard's result in `dir`, checked (see [`gather`]).
pub fn load(split: &Split, dir: &std::path::Path) -> Result<Results, ShardError> {
    let shown = shown_path(&dir.to_string_lossy());
    gather(split, &shown, |i| result_bytes(dir, i))
}

/// Shard `index`'s result file in `dir`: only a regular file is read (a FIFO would block).
fn result_bytes(dir: &std::path::Path, index: usize) -> Result<Found, ShardError> {
    let path = result_path(dir, index);
    if !path.exists() {
        return Ok(None);
    }
    let shown = shown_path(&path.to_string_lossy());
    let bytes = crate::files::read_regular(&path, FILE_LIMIT)
        .map_err(|e| ShardError::from(e).in_shard(index))?;
    Ok(Some((bytes, shown)))
}

/// Every shard's result, as `source` gives each shard's file, checked (see
/// [`check_result`]); names the missing shards if any. `dir` names where they were looked
/// for.
pub fn gather(
    split: &Split,
    dir: &str,
    mut source: impl FnMut(usize) -> Result<Found, ShardError>,
) -> Result<Results, ShardError> {
    let n = split.header.shards;
    let mut count = vec![0usize; n];
    for l in &split.lines {
        if let Some(s) = l.shard {
            count[s] += 1;
        }
    }
    let mut out = Results {
        solved: vec![None; split.lines.len()],
        seconds: 0.0,
        nodes: 0,
    };
    let mut missing = Vec::new();
    for (i, &lines) in count.iter().enumerate() {
        match source(i)? {
            None => missing.push(i),
            Some((bytes, shown)) => {
                let r = check_result(split, i, lines, &bytes, &shown)?;
                out.seconds += r.seconds;
                out.nodes = out
                    .nodes
                    .checked_add(r.nodes)
                    .ok_or_else(|| ShardError::ShardNodesOverflow.in_shard(i))?;
                for l in r.lines {
                    let id = l.id;
                    out.solved[id] = Some(l);
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(ShardError::Missing {
            missing,
            shards: n,
            dir: dir.to_string(),
        });
    }
    Ok(out)
}

/// Reads shard `index`'s result in `dir` and checks it against `split`: `Ok(None)` if there
/// is none, an error naming what is wrong if it is unreadable, truncated, of another split,
/// incomplete or impossible.
pub fn read_result(
    split: &Split,
    dir: &std::path::Path,
    index: usize,
) -> Result<Option<ShardResult>, ShardError> {
    let Some((bytes, shown)) = result_bytes(dir, index)? else {
        return Ok(None);
    };
    let lines = split
        .lines
        .iter()
        .filter(|l| l.shard == Some(index))
        .count();
    check_result(split, index, lines, &bytes, &shown).map(Some)
}

/// Checks shard `index`'s result file (`bytes`, named `shown`) against `split`, whose shard
/// has `lines` lines: its version, digest and shard; its lines exactly the shard's, in
/// order; each value within the game's range, each bound one the line's window can give
/// (exact without one), each line of play legal from the line's position; times finite and
/// not negative, node counts adding up.
pub fn check_result(
    split: &Split,
    index: usize,
    lines: usize,
    bytes: &[u8],
    shown: &str,
) -> Result<ShardResult, ShardError> {
    let file = shown.to_string();
    let r: ShardResult = serde_json::from_slice(bytes)
        .map_err(|source| ShardError::NotResult { file, source }.in_shard(index))?;
    let file = shown.to_string();
    let bad = |e: ShardError| e.in_result(shown).in_shard(index);
    if r.cutoff_shard != RESULT_VERSION {
        return Err(ShardError::ResultVersion {
            file,
            found: r.cutoff_shard,
        }
        .in_shard(index));
    }
    if r.digest != split.digest {
        return Err(ShardError::OtherSplit {
            file,
            found: r.digest,
            ours: split.digest.clone(),
        }
        .in_shard(index));
    }
    if r.shard != index || r.shards != split.header.shards {
        return Err(ShardError::OtherShard {
            file,
            shard: r.shard,
            shards: r.shards,
        }
        .in_shard(index));
    }
    let in_order = r.lines.windows(2).all(|w| w[0].id < w[1].id);
    let ours = r.lines.iter().all(|l| {
        split
            .lines
            .get(l.id)
            .is_some_and(|line| line.shard == Some(index))
    });
    if r.lines.len() != lines || !in_order || !ours {
        return Err(ShardError::ResultLines {
            file,
            found: r.lines.len(),
            expected: lines,
        }
        .in_shard(index));
    }
    if let Some(w) = r.window {
        check_window(w).map_err(bad)?;
    }
    check_time(r.seconds, MAX_SECONDS, "seconds").map_err(bad)?;
    let mut nodes = 0u64;
    let [lo, hi] = split.header.range;
    for l in &r.lines {
        let line = &split.lines[l.id];
        let at = |e: ShardError| bad(e.at_id(l.id));
        nodes = nodes
            .checked_add(l.nodes)
            .ok_or_else(|| at(ShardError::NodesOverflow))?;
        check_time(l.ms, MAX_SECONDS * 1e3, "ms").map_err(at)?;
        if l.value < lo || l.value > hi {
            return Err(at(ShardError::ValueOutOfRange {
                value: l.value,
                range: [lo, hi],
            }));
        }
        let window = r.window.or(line.window);
        let fits = match (l.bound.as_str(), window) {
            ("exact", _) => true,
            ("upper", Some([a, _])) => l.value <= a,
            ("lower", Some([_, b])) => l.value >= b,
            _ => false,
        };
        if !fits {
            return Err(at(ShardError::BoundMismatch {
                bound: l.bound.clone(),
                value: l.value,
                window,
            }));
        }
        if l.bound != "exact" && !l.pv.is_empty() {
            return Err(at(ShardError::BoundWithLine));
        }
        split
            .game
            .visit(PvCheck {
                path: line.paths.first(),
                pv: l.pv.path(),
            })
            .map_err(at)?;
    }
    if nodes != r.nodes {
        return Err(bad(ShardError::NodeSum {
            claimed: r.nodes,
            sum: nodes,
        }));
    }
    Ok(r)
}

/// Checks that a line of play `pv` is legal from the end of `path`, written as the game
/// writes it.
struct PvCheck<'a> {
    path: Path<'a>,
    pv: Path<'a>,
}

impl GameVisitor for PvCheck<'_> {
    type Output = Result<(), ShardError>;
    fn visit<G: Describe>(self, game: &G) -> Result<(), ShardError> {
        let mut pos = play_path(game, self.path)?;
        for (i, text) in self.pv.iter().enumerate() {
            let bad = || ShardError::IllegalPvMove {
                index: i + 1,
                mv: text.to_string(),
            };
            if game.outcome(&pos).is_some() {
                return Err(bad());
            }
            let mv = game.parse_move(&pos, text).map_err(|_| bad())?;
            if game.format_move(&pos, mv) != text {
                return Err(bad());
            }
            pos = game.play(&pos, mv);
        }
        Ok(())
    }
}

/// The position at the end of `path` from the game's start, every move checked.
pub fn play_path<G: cutoff::Notation>(game: &G, path: Path<'_>) -> Result<G::Pos, ShardError> {
    let mut pos = game.initial();
    for (i, text) in path.iter().enumerate() {
        let mv = game
            .parse_move(&pos, text)
            .map_err(|source| ShardError::BadMove {
                index: i + 1,
                mv: text.to_string(),
                source,
            })?;
        pos = game.play(&pos, mv);
    }
    Ok(pos)
}

/// Each line's interval: what earlier passes knew, narrowed by this pass's result.
pub fn intervals(split: &Split, solved: &[Option<Solved>]) -> Result<Vec<[Value; 2]>, ShardError> {
    let range = split.header.range;
    split
        .lines
        .iter()
        .zip(solved)
        .map(|(line, r)| {
            let known = line.known.unwrap_or(range);
            let mut iv = known;
            if let Some(r) = r {
                let [lo, hi] = proved(r, range)?;
                iv = [iv[0].max(lo), iv[1].min(hi)];
                if iv[0] > iv[1] {
                    return Err(ShardError::Contradiction {
                        bound: r.bound.clone(),
                        value: r.value,
                        known,
                    }
                    .in_split(&split.name, split.row(line.id)));
                }
            }
            Ok(iv)
        })
        .collect()
}

/// The tree of a split's paths: the positions between the split position and the frontier,
/// each a node with its children, or a frontier line. Nodes are numbered in preorder (node 0
/// is the split position, a node's subtree is the nodes from it to its size later), so a
/// child always comes after its parent and the tree takes a few bytes a node.
#[derive(Debug, Default)]
pub struct PathTree {
    /// Each node's subtree size, itself included.
    size: Vec<u32>,
    /// The frontier line a node is, or `u32::MAX`.
    line: Vec<u32>,
    /// Each node's move, as its index in its parent's legal moves (`Game::moves`).
    mv: Vec<u16>,
}

impl PathTree {
    /// Adds a node, the child of the last open one by the move `mv` (see
    /// [`PathTree::close`]).
    fn push(&mut self, mv: u16) -> u32 {
        let n = self.size.len() as u32;
        self.size.push(1);
        self.line.push(u32::MAX);
        self.mv.push(mv);
        n
    }

    /// Closes node `n`: the nodes added since are its subtree.
    fn close(&mut self, n: usize) {
        self.size[n] = (self.size.len() - n) as u32;
    }

    /// Makes node `n` the frontier line `id`.
    fn set_line(&mut self, n: usize, id: usize) {
        self.line[n] = id as u32;
    }

    /// How many nodes.
    pub fn len(&self) -> usize {
        self.size.len()
    }

    /// True for a tree with no node.
    pub fn is_empty(&self) -> bool {
        self.size.is_empty()
    }

    /// The frontier line node `n` is, if it is one.
    pub fn line(&self, n: usize) -> Option<usize> {
        let l = *self.line.get(n)?;
        (l != u32::MAX).then_some(l as usize)
    }

    /// Node `n`'s move, as its index in its parent's legal moves.
    pub fn move_index(&self, n: usize) -> usize {
        self.mv.get(n).map_or(0, |&m| m as usize)
    }

    /// Node `n`'s children.
    pub fn children(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let end = n + self.size.get(n).map_or(1, |&s| s as usize);
        let mut c = n + 1;
        std::iter::from_fn(move || {
            (c < end).then(|| {
                let x = c;
                c += self.size[c].max(1) as usize;
                x
            })
        })
    }

    /// Every node's interval, from the lines' (negamax: a node's value is the most of its
    /// children's negated values, so its bounds are the most of their negated bounds).
    pub fn back_up(&self, lines: &[[Value; 2]]) -> Vec<[Value; 2]> {
        let mut iv = vec![[0, 0]; self.len()];
        // Children come after their parents: backwards, every child is done first.
        for n in (0..self.len()).rev() {
            iv[n] = match self.line(n) {
                Some(id) => lines[id],
                None => self
                    .children(n)
                    .map(|c| [-iv[c][1], -iv[c][0]])
                    .reduce(|b, x| [b[0].max(x[0]), b[1].max(x[1])])
                    .unwrap_or([0, 0]),
            };
        }
        iv
    }

    /// The windows in which lines must be solved so that the split position's value comes
    /// out exact, given every node's interval `iv` so far: alpha-beta over intervals. A node
    /// needs nothing if its interval already settles it within its window; a child that
    /// cannot rise above both the window and its brothers' proven lower bounds needs nothing
    /// either; every other child gets the window between those and the node's beta. Solved
    /// fail-hard in these windows, the lines settle the root in one more pass. `lines` is the
    /// number of lines; the recursion is as deep as the tree.
    pub fn plan(&self, iv: &[[Value; 2]], lines: usize) -> Vec<Option<[Value; 2]>> {
        let mut need: Vec<Option<[Value; 2]>> = vec![None; lines];
        if let Some(&[lo, hi]) = iv.first() {
            if lo < hi {
                self.select(0, lo - 1, hi + 1, iv, &mut need);
            }
        }
        need
    }

    fn select(
        &self,
        n: usize,
        alpha: Value,
        beta: Value,
        iv: &[[Value; 2]],
        need: &mut [Option<[Value; 2]>],
    ) {
        let [lo, hi] = iv[n];
        if lo >= beta || hi <= alpha || lo == hi {
            return;
        }
        if let Some(id) = self.line(n) {
            let w = [alpha.max(lo - 1), beta.min(hi + 1)];
            need[id] = Some(match need[id] {
                Some([a, b]) => [a.min(w[0]), b.max(w[1])],
                None => w,
            });
            return;
        }
        // The two best proven lower bounds among the children, as the parent sees them.
        let (mut first, mut second) = (Value::MIN, Value::MIN);
        let mut arg = usize::MAX;
        for c in self.children(n) {
            let l = -iv[c][1];
            if l > first {
                (second, first, arg) = (first, l, c);
            } else if l > second {
                second = l;
            }
        }
        for c in self.children(n) {
            let others = if c == arg { second } else { first };
            let t = alpha.max(others);
            if -iv[c][0] <= t {
                continue;
            }
            self.select(c, -beta, -t, iv, need);
        }
    }
}

/// Where shard `index`'s result goes in `dir`.
pub fn result_path(dir: &std::path::Path, index: usize) -> std::path::PathBuf {
    dir.join(format!("shard-{index:05}.json"))
}

/// The results folder a split file's shards go to when none is given: `FILE.results`.
pub fn default_dir(split: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(format!("{split}.results"))
}

/// The results folder `dir`, or the split file's default one.
pub fn results_dir(split: &str, dir: Option<&String>) -> std::path::PathBuf {
    dir.map_or_else(|| default_dir(split), std::path::PathBuf::from)
}

/// A split file's text: the header, then the lines, one JSON object a line. An error if it
/// would be larger than any reader accepts ([`FILE_LIMIT`]).
pub fn split_text(header: &Header, lines: &[Line]) -> Result<String, ShardError> {
    let mut out = json_line(header)?;
    out.push('\n');
    for line in lines {
        out.push_str(&json_line(line)?);
        out.push('\n');
        if out.len() as u64 > FILE_LIMIT {
            return Err(ShardError::SplitTooLarge);
        }
    }
    Ok(out)
}

/// Writes a split file (`cutoff split`, `cutoff plan`) atomically (see [`split_text`]).
pub fn write_split(path: &str, header: &Header, lines: &[Line]) -> Result<(), ShardError> {
    let text = split_text(header, lines)?;
    Ok(crate::files::write_atomic(
        std::path::Path::new(path),
        text.as_bytes(),
    )?)
}

/// `v` as one line of JSON.
fn json_line<T: Serialize>(v: &T) -> Result<String, ShardError> {
    serde_json::to_string(v).map_err(ShardError::WriteJson)
}

/// The first 12 hex digits of a digest, for messages.
pub fn short(d: &str) -> &str {
    d.get(..12).unwrap_or(d)
}

/// The shard index a job runs: `--index`, else `SLURM_ARRAY_TASK_ID` (Slurm job arrays), else
/// `JOB_COMPLETION_INDEX` (Kubernetes indexed Jobs).
pub fn shard_index(arg: Option<usize>) -> Result<usize, ShardError> {
    if let Some(i) = arg {
        return Ok(i);
    }
    for var in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        if let Ok(v) = std::env::var(var) {
            return v
                .trim()
                .parse()
                .map_err(|_| ShardError::BadIndexVar { var, value: v });
        }
    }
    Err(ShardError::NoIndex)
}

/// Groups `costs` into `shards` shards of balanced total cost: the largest first, each to
/// the shard with the least so far (the LPT rule, within 4/3 of the best balance). Returns
/// each item's shard.
pub fn balance(costs: &[u64], shards: usize) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (Reverse(costs[i]), i));
    let mut load: BinaryHeap<Reverse<(u64, usize)>> =
        (0..shards.max(1)).map(|s| Reverse((0, s))).collect();
    let mut out = vec![0; costs.len()];
    for i in order {
        // The heap holds every shard at all times.
        if let Some(Reverse((l, s))) = load.pop() {
            out[i] = s;
            // Saturating: the costs come from a file.
            load.push(Reverse((l.saturating_add(costs[i].max(1)), s)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_spreads_cost_evenly() {
        let costs = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
        let s = balance(&costs, 3);
        let mut load = [0u64; 3];
        for (i, &sh) in s.iter().enumerate() {
            load[sh] += costs[i];
        }
        // 55 over 3 shards: LPT gives 19/18/18.
        assert!(
            load.iter().max().unwrap() - load.iter().min().unwrap() <= 1,
            "{load:?}"
        );
    }

    #[test]
    fn balance_leaves_extra_shards_empty() {
        let s = balance(&[5, 3], 4);
        assert_ne!(s[0], s[1]);
        assert!(s.iter().all(|&x| x < 4));
    }

    #[test]
    fn balance_survives_costs_at_the_top_of_u64() {
        let s = balance(&[u64::MAX, u64::MAX, u64::MAX], 2);
        assert!(s.iter().all(|&x| x < 2));
    }

    /// A random tree of paths (depth up to 4, 1 to 4 children) with random leaf values,
    /// built in preorder as [`check_paths`] builds it.
    fn random_tree(seed: u64) -> (PathTree, Vec<Value>) {
        fn grow(
            t: &mut PathTree,
            rng: &mut cutoff::rng::SplitMix64,
            values: &mut Vec<Value>,
            d: usize,
            depth: usize,
            mv: u16,
        ) {
            let n = t.push(mv) as usize;
            if d == depth || (d > 0 && rng.next_u64().is_multiple_of(5)) {
                t.set_line(n, values.len());
                values.push((rng.next_u64() % 11) as Value - 5);
            } else {
                for k in 0..1 + rng.next_u64() % 4 {
                    grow(t, rng, values, d + 1, depth, k as u16);
                }
            }
            t.close(n);
        }
        let mut rng = cutoff::rng::SplitMix64::new(seed);
        let mut t = PathTree::default();
        let mut values = Vec::new();
        let depth = 1 + rng.next_u64() as usize % 4;
        grow(&mut t, &mut rng, &mut values, 0, depth, 0);
        (t, values)
    }

    fn negamax(t: &PathTree, n: usize, values: &[Value]) -> Value {
        match t.line(n) {
            Some(id) => values[id],
            None => t.children(n).map(|c| -negamax(t, c, values)).max().unwrap(),
        }
    }

    /// What a fail-hard solve of a line of value `v` in `(a, b)` proves.
    fn solve_in(v: Value, [a, b]: [Value; 2], range: [Value; 2]) -> [Value; 2] {
        if v <= a {
            [range[0], a]
        } else if v >= b {
            [b, range[1]]
        } else {
            [v, v]
        }
    }

    #[test]
    fn one_planned_pass_settles_the_root_whatever_the_first_pass_proved() {
        let range = [-5, 5];
        for seed in 0..3000 {
            let (t, values) = random_tree(seed);
            let truth = negamax(&t, 0, &values);
            // First pass: every line in one window of the root's, seen from its own side
            // (here: the window of the line's parity, as split writes it).
            let mut rng = cutoff::rng::SplitMix64::new(seed ^ 0xabc);
            let a = (rng.next_u64() % 11) as Value - 6;
            let b = a + 1 + (rng.next_u64() % 4) as Value;
            let mut known: Vec<[Value; 2]> = values
                .iter()
                .map(|&v| solve_in(v, [a.min(4), b.min(5)], range))
                .collect();
            let iv = t.back_up(&known);
            assert!(iv[0][0] <= truth && truth <= iv[0][1], "seed {seed}");
            let need = t.plan(&iv, values.len());
            for (id, w) in need.iter().enumerate() {
                if let Some(w) = w {
                    assert!(w[0] < w[1], "seed {seed}: empty window");
                    let r = solve_in(values[id], *w, range);
                    known[id] = [known[id][0].max(r[0]), known[id][1].min(r[1])];
                }
            }
            let iv = t.back_up(&known);
            assert_eq!(iv[0], [truth, truth], "seed {seed}: {need:?}");
        }
    }

    #[test]
    fn digest_is_sha256() {
        assert_eq!(
            digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn paths_keep_their_moves_and_refuse_long_ones() {
        let mut p = Paths::default();
        p.push(&["4", "10"]).unwrap();
        p.push::<&str>(&[]).unwrap();
        p.push(&["é", "x"]).unwrap();
        let all: Vec<Vec<String>> = p.iter().map(|x| x.to_vec()).collect();
        assert_eq!(all, [vec!["4", "10"], vec![], vec!["é", "x"]]);
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, r#"[["4","10"],[],["é","x"]]"#);
        assert_eq!(serde_json::from_str::<Paths>(&json).unwrap(), p);
        let long = format!("[[{}]]", vec!["\"1\""; MAX_DEPTH + 1].join(","));
        let e = serde_json::from_str::<Paths>(&long)
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than 64 moves"), "{e}");
        let m: Moves = serde_json::from_str(r#"["a\"b", "c"]"#).unwrap();
        assert_eq!(m.path().to_vec(), ["a\"b", "c"]);
    }
}
