//! `cutoff book GAME [POSITION] --plies N --out FILE`: writes an opening book, the exact value
//! of every position up to N plies below the position (see `crate::book`).

use crate::analysis::Engine;
use crate::book::{BookError, KEYED_EXACTLY};
use crate::games::GameKind;
use crate::position::{AnyGame, Describe, GameOptions, GameVisitor};
use crate::AppError;
use cutoff::games::perfect::connect4::geometry::board_bits;
use cutoff::knowledge::Knowledge;
use cutoff::{MoveBuffer, Value};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// Arguments of `cutoff book`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game (connect4) and the position the book starts from (default: the start).
    pub game: GameOptions,
    /// Plies below the position: every position up to this deep goes into the book (at most
    /// 8).
    pub plies: usize,
    /// Where to write the book (atomically: a temporary file renamed), checked before the
    /// solving starts. The name goes into the book's header comment with its control
    /// characters escaped (a newline in it cannot start a line of the book).
    pub out: String,
    /// Transposition table size in MiB, one table shared by every solve.
    pub tt_mb: usize,
    /// Threads for each solve (default: all cores).
    pub threads: Option<usize>,
}

/// The deepest book `cutoff book` makes: 8 plies of Connect Four are 184,275 positions.
const MAX_PLIES: usize = 8;

/// Runs `cutoff book`.
pub fn run(
    args: &Options,
    stop: &AtomicBool,
    on_position: OnPosition<'_>,
) -> Result<String, AppError> {
    if args.plies > MAX_PLIES {
        return Err(AppError::invalid(format!(
            "\u{1}plies\u{2} must be at most {MAX_PLIES}, got {}",
            args.plies
        )));
    }
    crate::options::table_mib(args.tt_mb)?;
    let threads = crate::options::threads(args.threads)?;
    let game = AnyGame::parse(&args.game)?;
    let (w, h, k) = args.game.shape.shape();
    let bits = board_bits(w, h);
    if args.game.game == GameKind::Connect4 && bits > 64 {
        return Err(AppError::invalid(format!(
            "opening books are for boards of at most 64 bits, whose table key is the position \
             itself: the {} board takes {}",
            crate::position::shape_name((w, h, k)),
            bits
        )));
    }
    game.visit(Build {
        args,
        threads,
        stop,
        on_position,
    })
}

/// Told as each position of the deepest ply starts: its index from 0, and how many there are.
pub type OnPosition<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// `book` for one game.
struct Build<'a> {
    args: &'a Options,
    threads: usize,
    stop: &'a AtomicBool,
    on_position: OnPosition<'a>,
}

impl GameVisitor for Build<'_> {
    type Output = Result<String, AppError>;

    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let args = self.args;
        let tt = crate::options::table(args.tt_mb)?;
        let pool = Engine::pool(self.threads)?;
        let engine = Engine::new(&tt, pool.as_ref(), args.threads.is_none(), self.stop);
        let from = args.game.position.as_deref();
        // What the header quotes from the command line is kept to one printable line: a
        // newline in a name would end the comment and let the rest be read as book lines.
        let shown_from = from.map(crate::files::one_line);
        let shape = &args.game.shape;
        let command = format!(
            "cutoff book {}{}{}{} --plies {} --out {}",
            game.name(),
            shown_from
                .as_ref()
                .map_or(String::new(), |p| format!(" {p}")),
            shape
                .board
                .map_or(String::new(), |(w, h)| format!(" --board {w}x{h}")),
            shape
                .connect
                .map_or(String::new(), |k| format!(" --connect {k}")),
            args.plies,
            crate::files::one_line(&args.out)
        );
        let header = format!(
            "# An opening book: the exact value, from the side to move, of every position up to\n\
             # {} plies below {}, positions that end the game left out. Those {} plies deep\n\
             # were solved exactly, the others valued by negamax over their children.\n\
             # Made by: {command}\n",
            args.plies,
            shown_from.map_or("the start".to_string(), |p| format!("`{p}`")),
            args.plies,
        );
        // A book takes minutes: a path it cannot be written to is an error before, not after.
        let out = std::path::Path::new(&args.out);
        crate::files::check_writable(out)?;
        let start = std::time::Instant::now();
        let text = build(game, from, args.plies, &engine, &header, self.on_position)?;
        crate::files::write_atomic(out, text.as_bytes())?;
        let positions = text.lines().filter(|l| !l.starts_with('#')).count() - 1;
        Ok(format!(
            "cutoff book: {positions} positions written to '{}' in {:.1} s\n",
            crate::message::shown_path(&args.out),
            start.elapsed().as_secs_f64()
        ))
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
fn build<G: Describe>(
    game: &G,
    root: Option<&str>,
    plies: usize,
    engine: &Engine<'_>,
    header: &str,
    mut report: impl FnMut(usize, usize),
) -> Result<String, BookError> {
    if !KEYED_EXACTLY.contains(&game.name()) {
        return Err(BookError::NotForBooks(game.name().to_string()));
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
            .map_err(BookError::Stopped)?;
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
                    None => lines[index[&G::Knowledge::table_key(game, &child).0]]
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
    if let Some(board) = game.board() {
        text.push_str(&format!("board {board}\n"));
    }
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
) -> Result<(), BookError> {
    if game.outcome(&pos).is_some() {
        return Ok(());
    }
    let key = G::Knowledge::table_key(game, &pos).0;
    if index.contains_key(&key) {
        return Ok(());
    }
    let arg = game
        .position_arg(root, path, &pos)
        .ok_or(BookError::CannotWrite(game.name()))?;
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
