//! Opening books: the exact values of every position a few plies from the start, solved once
//! (`cutoff book`), so that `cutoff analyse --book` and `cutoff serve` answer the first moves
//! of a game at once, where solving them takes a minute or more (Connect Four's empty board:
//! 83 s for its seven moves on two cores).
//!
//! A book is text: `#` comments, a line `game NAME`, then one line per position, `POSITION
//! VALUE`, the position written as `cutoff solve` takes it (Connect Four: the columns played)
//! and its value from the side to move. Positions are looked up by the game's table key, so a
//! mirror image finds its twin; only games whose table key is the position itself (no hash
//! that two positions could share) may have books: [`KEYED_EXACTLY`].

use crate::cmd::analyse::Engine;
use crate::position::{AnyGame, Describe, GameArgs, GameKind, GameVisitor, RangeOf};
use cutoff::{MoveBuffer, Value};
use std::collections::HashMap;

/// The games whose table key is the position itself, one to one up to the mirror image, so
/// that a book keyed by it cannot mistake one position for another.
pub const KEYED_EXACTLY: [&str; 1] = ["connect4"];

/// The Connect Four book in the binary: every position of at most 4 stones (see
/// `positions/connect4/book.txt` for the command that made it).
pub const CONNECT4: &str = include_str!("../../positions/connect4/book.txt");

/// [`CONNECT4`], read once.
pub fn builtin() -> Result<&'static Book, String> {
    static BOOK: std::sync::OnceLock<Result<Book, String>> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| Book::parse(CONNECT4))
        .as_ref()
        .map_err(Clone::clone)
}

/// The most positions a book may hold (a bad file must not take unbounded memory).
const MAX_ENTRIES: usize = 1 << 20;

/// An opening book, read and checked.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// The game it is for, as the command line names it.
    pub game: String,
    /// Value from the side to move, by table key.
    values: HashMap<u64, Value>,
}

/// The table key of the position a command-line position argument gives.
struct KeyOf;

impl GameVisitor for KeyOf {
    type Output = u64;
    fn visit<G: Describe>(self, game: &G) -> u64 {
        game.table_key(&game.initial()).0
    }
}

impl Book {
    /// Reads a book; an error names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::default();
        let mut kind = None;
        for (i, line) in text.lines().enumerate() {
            let at = |msg: String| format!("book line {}: {msg}", i + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let (first, second) = (words.next(), words.next());
            if words.next().is_some() {
                return Err(at("expected a position and its value".into()));
            }
            if first == Some("game") {
                let name = second.ok_or_else(|| at("`game` needs a name".into()))?;
                if !KEYED_EXACTLY.contains(&name) {
                    return Err(at(format!(
                        "books are for {}, not {}",
                        KEYED_EXACTLY.join(", "),
                        cutoff::game::quote_max(name, 40)
                    )));
                }
                let parsed =
                    <GameKind as clap::ValueEnum>::from_str(name, false).map_err(|_| {
                        at(format!(
                            "unknown game {}",
                            cutoff::game::quote_max(name, 40)
                        ))
                    })?;
                book.game = name.to_string();
                kind = Some(parsed);
                continue;
            }
            let kind = kind.ok_or_else(|| at("a `game NAME` line comes first".into()))?;
            // An empty position (the start) is written `-`.
            let (Some(pos), Some(value)) = (first, second) else {
                return Err(at("expected a position and its value".into()));
            };
            let value: Value = value
                .parse()
                .map_err(|_| at(format!("bad value {}", cutoff::game::quote_max(value, 20))))?;
            let game =
                AnyGame::parse(&GameArgs::new(kind, (pos != "-").then_some(pos))).map_err(at)?;
            let (lo, hi) = game.visit(RangeOf);
            if !(lo..=hi).contains(&value) {
                return Err(at(format!("value {value} outside the game's {lo}..={hi}")));
            }
            let key = game.visit(KeyOf);
            if book.values.insert(key, value).is_some_and(|v| v != value) {
                return Err(at(
                    "the position (or its mirror image) has another value above".into(),
                ));
            }
            if book.values.len() > MAX_ENTRIES {
                return Err(at(format!("more than {MAX_ENTRIES} positions")));
            }
        }
        if kind.is_none() {
            return Err("book: no `game NAME` line".into());
        }
        Ok(book)
    }

    /// The value of `pos` from its side to move, if the book has it and is for `game`.
    pub fn value<G: Describe>(&self, game: &G, pos: &G::Pos) -> Option<Value> {
        if game.name() != self.game {
            return None;
        }
        self.values.get(&game.table_key(pos).0).copied()
    }

    /// The value of `pos` and a move that reaches it, if the book holds every move's position
    /// (and no move ends the game: those are left to a search); the first best move in the
    /// game's order.
    pub fn best<G: Describe>(&self, game: &G, pos: &G::Pos) -> Option<(Value, G::Move)> {
        if game.outcome(pos).is_some() {
            return None;
        }
        let mut moves = G::Moves::default();
        game.moves(pos, &mut moves);
        let mut best: Option<(Value, G::Move)> = None;
        for &mv in moves.as_slice() {
            let child = game.play(pos, mv);
            if game.outcome(&child).is_some() {
                return None;
            }
            let v = -self.value(game, &child)?;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, mv));
            }
        }
        best
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True if it holds no position.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// One position of a book being built: the position, how to write it, its ply, its value
/// once known.
struct Line<P> {
    pos: P,
    arg: String,
    ply: usize,
    value: Option<Value>,
}

/// Builds the book of every position up to `plies` moves from `game`'s start (`root`: the
/// position argument it came from), positions that end the game left out: those `plies`
/// deep are solved exactly with `engine` (`report(i, n)` before each), the shallower ones
/// valued by negamax over their children (a child that ends the game by its outcome).
/// Returns the book's text, headed by `header`. `Err` if the engine was stopped or the game
/// cannot write positions as arguments.
pub fn build<G: Describe>(
    game: &G,
    root: Option<&str>,
    plies: usize,
    engine: &Engine<'_>,
    header: &str,
    mut report: impl FnMut(usize, usize),
) -> Result<String, String> {
    if !KEYED_EXACTLY.contains(&game.name()) {
        return Err(format!(
            "books are for {}, not {}",
            KEYED_EXACTLY.join(", "),
            game.name()
        ));
    }
    // Every position by key, found depth first in the game's move order: the first path to
    // reach a position writes it.
    let mut lines: Vec<Line<G::Pos>> = Vec::new();
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut path = Vec::new();
    collect(
        game,
        game.initial(),
        root,
        plies,
        &mut path,
        &mut lines,
        &mut index,
    )?;
    let deepest: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].ply == plies)
        .collect();
    for (k, &i) in deepest.iter().enumerate() {
        report(k, deepest.len());
        let (v, _, _) = engine
            .solve(game, lines[i].pos)
            .map_err(|nodes| format!("stopped after {nodes} nodes"))?;
        lines[i].value = Some(v);
    }
    // Shallower positions, deepest first: every child is valued by then.
    for ply in (0..plies).rev() {
        let at_ply: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].ply == ply).collect();
        for i in at_ply {
            let pos = lines[i].pos;
            let mut moves = G::Moves::default();
            game.moves(&pos, &mut moves);
            let mut best = None;
            for &mv in moves.as_slice() {
                let child = game.play(&pos, mv);
                let v = match game.outcome(&child) {
                    Some(v) => v,
                    None => lines[index[&game.table_key(&child).0]]
                        .value
                        .expect("children are valued first"),
                };
                best = Some(best.map_or(-v, |b: Value| b.max(-v)));
            }
            lines[i].value = best;
        }
    }
    let mut text = String::from(header);
    text.push_str(&format!("game {}\n", game.name()));
    for l in &lines {
        let v = l.value.expect("every position is valued");
        text.push_str(&format!(
            "{} {v}\n",
            if l.arg.is_empty() { "-" } else { &l.arg }
        ));
    }
    Ok(text)
}

/// Adds `pos` (reached by `path` from `root`) and, while `left` plies remain, its subtree to
/// the book's positions, each once.
fn collect<G: Describe>(
    game: &G,
    pos: G::Pos,
    root: Option<&str>,
    left: usize,
    path: &mut Vec<String>,
    lines: &mut Vec<Line<G::Pos>>,
    index: &mut HashMap<u64, usize>,
) -> Result<(), String> {
    if game.outcome(&pos).is_some() {
        return Ok(());
    }
    let key = game.table_key(&pos).0;
    if index.contains_key(&key) {
        return Ok(());
    }
    let arg = game
        .position_arg(root, path, &pos)
        .ok_or_else(|| format!("{} cannot write its positions for a book", game.name()))?;
    index.insert(key, lines.len());
    lines.push(Line {
        pos,
        arg,
        ply: path.len(),
        value: None,
    });
    if left == 0 {
        return Ok(());
    }
    let mut moves = G::Moves::default();
    game.moves(&pos, &mut moves);
    for &mv in moves.as_slice() {
        path.push(game.format_move(&pos, mv));
        collect(
            game,
            game.play(&pos, mv),
            root,
            left - 1,
            path,
            lines,
            index,
        )?;
        path.pop();
    }
    Ok(())
}
