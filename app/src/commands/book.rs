//! `cutoff book GAME [POSITION] --plies N --out FILE`: writes an opening book, the exact value
//! of every position up to N plies below the position (see `crate::book`).

use crate::analysis::Engine;
use crate::games::GameKind;
use crate::position::{AnyGame, Describe, GameOptions, GameVisitor};
use crate::{AppError, AppResult};
use cutoff::games::perfect::connect4::geometry::board_bits;
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
pub fn run(args: &Options, stop: &AtomicBool) -> AppResult {
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
    })
}

/// `book` for one game.
struct Build<'a> {
    args: &'a Options,
    threads: usize,
    stop: &'a AtomicBool,
}

impl GameVisitor for Build<'_> {
    type Output = AppResult;

    fn visit<G: Describe>(self, game: &G) -> AppResult {
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
        // Progress only to a person watching: a log keeps to the result line.
        let watched = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let text = crate::book::build(game, from, args.plies, &engine, &header, |i, n| {
            if watched && i % 20 == 0 {
                eprintln!(
                    "cutoff book: solving {} of {n} ({:.0} s)",
                    i + 1,
                    start.elapsed().as_secs_f64()
                );
            }
        })?;
        crate::files::write_atomic(out, text.as_bytes())?;
        let positions = text.lines().filter(|l| !l.starts_with('#')).count() - 1;
        println!(
            "cutoff book: {positions} positions written to '{}' in {:.1} s",
            crate::message::shown_path(&args.out),
            start.elapsed().as_secs_f64()
        );
        Ok(())
    }
}
