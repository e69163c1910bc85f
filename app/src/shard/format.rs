//! The split file and the shard result file: their lines, the game they name, and how they
//! are named, read and written. Reading them checked is [`super::check`]'s.

use super::paths::{Moves, Paths};
use super::{ShardError, FILE_LIMIT};
use crate::files::FileError;
use crate::position::{AnyGame, GameKind, GameOptions};
use cutoff::Value;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

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
    /// The format version ([`SPLIT_VERSION`](super::SPLIT_VERSION)).
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
    /// Nodes whose moves were searched (`cutoff::Stats::searched`); absent in results written
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub searched: Option<u64>,
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
    /// The format version ([`RESULT_VERSION`](super::RESULT_VERSION)).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_sha256() {
        assert_eq!(
            digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
