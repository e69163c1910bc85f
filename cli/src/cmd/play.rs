//! `cutoff play GAME [POSITION]`: play against the solver in the terminal, one command a line
//! from standard input (so a game can be piped in), the engine answering with an exact solve,
//! or within a budget a move (`--time-ms`, `--nodes`, or the game's default on boards beyond
//! exact reach) with the best move it found.

use cutoff::{MoveBuffer, Player};
use cutoff_app::analysis::{score_moves, Engine, MoveJson};
use cutoff_app::output::{move_table, with_words};
use cutoff_app::position::{AnyGame, Describe, GameVisitor};
use cutoff_app::{AppError, AppResult};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Who moves first from the position given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// The person at the terminal.
    Human,
    /// The solver.
    Engine,
}

fn parse_first(s: &str) -> Result<First, String> {
    match s {
        "human" => Ok(First::Human),
        "engine" => Ok(First::Engine),
        _ => Err(format!("unknown player '{s}' (expected human or engine)")),
    }
}

/// Arguments of `cutoff play`.
#[derive(clap::Args)]
pub struct Args {
    /// The game and the position to start from.
    #[command(flatten)]
    pub game: crate::args::GameArgs,
    /// Who moves first from the position: human or engine.
    #[arg(long, default_value = "human", value_parser = parse_first)]
    pub first: First,
    /// Transposition table size in MiB, one table kept for the whole game.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Threads for the engine's searches (default: all cores); 1 runs the serial search.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Time budget for each engine move and hint, in milliseconds: the engine plays the best
    /// move it found and says what it proved. Connect Four boards larger than 7x6 have a
    /// budget of 3000 ms unless given one (or --exact).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node budget for each engine move and hint, as --time-ms is one of time.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Solve every move exactly, on any board (no default budget).
    #[arg(long, conflicts_with_all = ["time_ms", "nodes"])]
    pub exact: bool,
}

/// Raised while the program waits at the prompt: Ctrl-C then ends it at once (during a
/// search it stops the search instead).
static AT_PROMPT: AtomicBool = AtomicBool::new(false);

/// Watches for Ctrl-C at the prompt, where no search polls the flag: reading standard input
/// resumes after the signal, so a thread ends the program instead.
fn watch_prompt(stop: &'static AtomicBool) {
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(50));
        if AT_PROMPT.load(Relaxed) && stop.load(Relaxed) {
            println!();
            std::process::exit(i32::from(crate::interrupt::exit_status()));
        }
    });
}

/// Runs `cutoff play`.
pub fn run(args: &Args) -> super::CliResult {
    Ok(play(args)?)
}

fn play(args: &Args) -> AppResult {
    cutoff_app::options::table_mib(args.tt_mb)?;
    let threads = cutoff_app::options::threads(args.threads)?;
    let game = AnyGame::parse(&args.game.options())?;
    let stop = crate::interrupt::install();
    watch_prompt(stop);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    game.visit(Play {
        args,
        threads,
        stop,
        input: stdin.lock(),
        out: stdout.lock(),
    })
}

/// `play` for one game, reading commands from `input` and writing to `out`.
pub struct Play<'a, R, W> {
    /// The command line.
    pub args: &'a Args,
    /// Threads for the engine's searches.
    pub threads: usize,
    /// The flag Ctrl-C raises.
    pub stop: &'a AtomicBool,
    /// The commands, one a line.
    pub input: R,
    /// Where the game is shown.
    pub out: W,
}

/// Writes a line, ignoring a closed output (the input's end ends the game).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

const HELP: &str = "commands:
  MOVE          play a move in the game's notation
  hint, scores  the exact score of every move, for you
  undo          take back your last move and the engine's reply
  board         show the position again
  help          this list
  quit          end the game";

/// The longest command line `play` reads, in bytes.
const MAX_LINE: u64 = 4096;

impl<R: BufRead, W: Write> GameVisitor for Play<'_, R, W> {
    type Output = AppResult;

    fn visit<G: Describe>(mut self, game: &G) -> AppResult {
        let tt = cutoff_app::options::table(self.args.tt_mb)?;
        let pool = Engine::pool(self.threads)?;
        let mut budget = cutoff_app::options::budget(self.args.time_ms, self.args.nodes)?;
        if !budget.is_set() && !self.args.exact {
            budget.time = game.play_budget();
        }
        let engine = Engine {
            budget,
            ..Engine::new(&tt, pool.as_ref(), self.args.threads.is_none(), self.stop)
        };
        let out = &mut self.out;
        let mut pos = game.initial();
        let human = match self.args.first {
            First::Human => game.to_move(&pos),
            First::Engine => game.to_move(&pos).other(),
        };
        say!(
            out,
            "{}: you play {}, the engine {}. Type a move{}, or help.",
            game.name(),
            game.side_name(human),
            game.side_name(human.other()),
            example(game, &pos).map_or(String::new(), |m| format!(" (like {m})")),
        );
        if let Some(words) = budget.words() {
            say!(
                out,
                "The engine plays from a budget of {words} a move: the best move it finds, \
                 not a proof (--exact solves every move)."
            );
        }
        show(game, &pos, human, out);
        // The positions before each of the human's moves, for undo.
        let mut history: Vec<G::Pos> = Vec::new();
        let mut announced = false;
        let mut line = String::new();
        loop {
            let over = game.outcome(&pos);
            if over.is_none() && game.to_move(&pos) != human {
                let (mv, said) = engine_move(game, &pos, &engine)?;
                say!(out, "engine plays {}  ({said})", game.format_move(&pos, mv));
                pos = game.play(&pos, mv);
                show(game, &pos, human, out);
                continue;
            }
            if let Some(v) = over {
                if !announced {
                    announce(game, &pos, v, human, out);
                    announced = true;
                }
            }
            let _ = write!(out, "{}> ", game.side_name(human));
            let _ = out.flush();
            line.clear();
            AT_PROMPT.store(true, Relaxed);
            // A line is read up to a bound: an endless one (`< /dev/zero`) is an error, not a
            // growing buffer.
            let read =
                <&mut R as std::io::Read>::take(&mut self.input, MAX_LINE + 1).read_line(&mut line);
            AT_PROMPT.store(false, Relaxed);
            match read {
                Ok(0) => {
                    say!(out, "");
                    return Ok(());
                }
                Ok(n) if n as u64 > MAX_LINE => {
                    return Err(AppError::invalid(format!(
                        "a line of input is longer than the {MAX_LINE}-byte limit"
                    )))
                }
                Ok(_) => {}
                Err(source) => {
                    return Err(cutoff_app::files::FileError::Read {
                        input: cutoff_app::files::Input::Stdin,
                        source,
                    }
                    .into())
                }
            }
            let cmd = line.trim();
            match cmd.to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" | "q" => return Ok(()),
                "help" | "?" => say!(out, "{HELP}"),
                "board" | "show" => show(game, &pos, human, out),
                "undo" => match history.pop() {
                    Some(before) => {
                        pos = before;
                        announced = false;
                        say!(out, "taken back");
                        show(game, &pos, human, out);
                    }
                    None => say!(out, "nothing to undo"),
                },
                "hint" | "scores" => {
                    if over.is_some() {
                        say!(out, "the game is over: undo or quit");
                        continue;
                    }
                    let scores = score_moves(game, &pos, &engine)
                        .map_err(|_| AppError::InterruptedWhile("scoring the moves".into()))?;
                    let rows: Vec<MoveJson> = scores
                        .moves
                        .iter()
                        .map(|m| MoveJson::new(game, &pos, m, 1))
                        .collect();
                    say!(out, "scores for you ({}):", game.side_name(human));
                    let _ = write!(out, "{}", move_table(&rows));
                    if let Some((mv, v)) = scores.best() {
                        let words = with_words(v, &game.explain_value(&pos, v));
                        if scores.settled() {
                            say!(out, "best: {}, {words}", game.format_move(&pos, mv));
                        } else {
                            say!(
                                out,
                                "best found: {}, guess {words} (not proved within {})",
                                game.format_move(&pos, mv),
                                engine.budget.words().unwrap_or_default()
                            );
                        }
                    }
                }
                _ => {
                    if over.is_some() {
                        say!(out, "the game is over: undo or quit");
                        continue;
                    }
                    match game.parse_move(&pos, cmd) {
                        Ok(mv) => {
                            history.push(pos);
                            say!(out, "you play {}", game.format_move(&pos, mv));
                            pos = game.play(&pos, mv);
                            show(game, &pos, human, out);
                        }
                        Err(e) => say!(out, "{e}; type help for the commands"),
                    }
                }
            }
        }
    }
}

/// The engine's move at `pos` and what it says of it: solved exactly, or without a budget
/// the best move found within it, with the bounds proved.
fn engine_move<G: Describe>(
    game: &G,
    pos: &G::Pos,
    engine: &Engine<'_>,
) -> Result<(G::Move, String), AppError> {
    let thinking = || AppError::InterruptedWhile("the engine was thinking".into());
    let no_move = || AppError::invalid("the engine found no move in a position that is not over");
    let words = |v: cutoff::Value| {
        let w = game.explain_value(pos, v);
        if w == v.to_string() {
            String::new()
        } else {
            format!(": {w}")
        }
    };
    if !engine.budget.is_set() {
        let (value, best, _) = engine.solve(game, *pos).map_err(|_| thinking())?;
        let mv = best.or_else(|| first_move(game, pos)).ok_or_else(no_move)?;
        return Ok((mv, format!("score {value} for the engine{}", words(value))));
    }
    let scores = score_moves(game, pos, engine).map_err(|_| thinking())?;
    let (mv, guess) = scores.best().ok_or_else(no_move)?;
    let (lo, hi) = scores.bounds().unwrap_or((guess, guess));
    let said = if lo == hi {
        format!(
            "score {lo} for the engine{}, proved within the budget",
            words(lo)
        )
    } else if (lo, hi) == game.value_range() {
        format!(
            "from the budget, not a proof: no bound proved yet, best guess {guess}{}",
            words(guess)
        )
    } else {
        format!(
            "from the budget, not a proof: score between {lo} and {hi} for the engine, best \
             guess {guess}{}",
            words(guess)
        )
    };
    Ok((mv, said))
}

/// The first legal move of `pos`, if any.
fn first_move<G: Describe>(game: &G, pos: &G::Pos) -> Option<G::Move> {
    let mut list = G::Moves::default();
    game.moves(pos, &mut list);
    list.as_slice().first().copied()
}

/// A legal move of `pos` in the game's notation, to show what a move looks like.
fn example<G: Describe>(game: &G, pos: &G::Pos) -> Option<String> {
    if game.outcome(pos).is_some() {
        return None;
    }
    first_move(game, pos).map(|mv| game.format_move(pos, mv))
}

/// The position: the game's diagram where it has one, else its one-line description.
fn show<G: Describe, W: Write>(game: &G, pos: &G::Pos, human: Player, out: &mut W) {
    match game.diagram(pos) {
        Some(d) => {
            say!(out, "{d}");
            if game.outcome(pos).is_none() {
                let who = if game.to_move(pos) == human {
                    "you"
                } else {
                    "the engine"
                };
                say!(out, "{} to move ({who})", game.to_move_name(pos));
            }
        }
        None => say!(out, "{}", game.describe(pos)),
    }
}

/// Says who won the game ended at `pos`, whose outcome is `value` for the side to move.
fn announce<G: Describe, W: Write>(
    game: &G,
    pos: &G::Pos,
    value: cutoff::Value,
    human: Player,
    out: &mut W,
) {
    let mover = game.to_move(pos);
    let verdict = match value.signum() {
        0 => "a draw".to_string(),
        s => {
            let winner = if s > 0 { mover } else { mover.other() };
            if winner == human {
                format!("you win ({} wins)", game.side_name(winner))
            } else {
                format!("the engine wins ({} wins)", game.side_name(winner))
            }
        }
    };
    say!(out, "game over: {verdict}");
    if game.value_range() != (-1, 1) {
        say!(
            out,
            "final score for {}: {}",
            game.side_name(mover),
            with_words(value, &game.explain_value(pos, value))
        );
    }
    say!(out, "(undo takes your last move back; quit ends)");
}
