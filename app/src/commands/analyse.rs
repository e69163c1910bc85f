//! `cutoff analyse GAME [POSITION]`: the exact value of every legal move, as the front ends of
//! the strong Connect Four solvers show the seven column scores.

use crate::analysis::{report, AnalyseJson, Budget, Engine};
use crate::output::{move_table, with_words};
use crate::position::{AnyGame, Describe, GameOptions, GameVisitor};
use crate::{AppError, Control, Outcome};
use cutoff::Value;

/// Arguments of `cutoff analyse`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game and its position.
    pub game: GameOptions,
    /// Transposition table size in MiB, one table shared by every move's search.
    pub tt_mb: usize,
    /// Threads for each move's search (default: all cores); 1 runs the serial search.
    pub threads: Option<usize>,
    /// An opening book (`cutoff book`): moves to positions it holds take its values instead
    /// of a search. `builtin` is the Connect Four book in the binary; any other word is a
    /// file (a file called builtin: `./builtin`). The book must be for the game analysed. Its
    /// lines are checked where that is cheap (legal positions still in play, values in
    /// range, agreeing with moves that end the game, with the game's analysis without a
    /// search and with each other by negamax); values beyond those checks, the deepest
    /// positions', are believed.
    pub book: Option<String>,
    /// A time budget in milliseconds: every move then gets the bounds proved for it in that
    /// time and a best guess (see [`crate::analysis::Budget`]).
    pub time_ms: Option<u64>,
    /// A node budget, over every move, as `time_ms` is one of time.
    pub nodes: Option<u64>,
}

/// What `cutoff analyse` finds, under `control` (its stop flag), before it is printed.
pub fn compute(args: &Options, control: Control<'_>) -> Result<Outcome, AppError> {
    run(args, control, None)
}

/// [`compute`] with the caller's transposition table instead of a fresh one of
/// `args.tt_mb` MiB (which is then only checked): the entries of earlier searches on it
/// answer this one's transpositions, and this one's stay for the next (the Python package's
/// `Solver`).
pub fn compute_in(
    args: &Options,
    control: Control<'_>,
    table: &cutoff::tt::TranspositionTable,
) -> Result<Outcome, AppError> {
    run(args, control, Some(table))
}

/// [`compute`], on `table` if given.
fn run(
    args: &Options,
    control: Control<'_>,
    table: Option<&cutoff::tt::TranspositionTable>,
) -> Result<Outcome, AppError> {
    crate::options::table_mib(args.tt_mb)?;
    let threads = crate::options::threads(args.threads)?;
    let budget = crate::options::budget(args.time_ms, args.nodes)?;
    let game = AnyGame::parse(&args.game)?;
    let scale = game.scale();
    game.visit(Analyse {
        args,
        control,
        table,
        threads,
        scale,
        budget,
    })
}

/// `analyse` for one game.
struct Analyse<'a> {
    args: &'a Options,
    control: Control<'a>,
    table: Option<&'a cutoff::tt::TranspositionTable>,
    threads: usize,
    scale: Value,
    budget: Budget,
}

impl GameVisitor for Analyse<'_> {
    type Output = Result<Outcome, AppError>;

    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let pos = game.initial();
        let fresh;
        let tt = match self.table {
            Some(given) => given,
            None => {
                fresh = crate::options::table(self.args.tt_mb)?;
                &fresh
            }
        };
        let pool = Engine::pool(self.threads)?;
        let book = match self.args.book.as_deref() {
            None => None,
            Some(spec) => {
                if spec == crate::book::BUILTIN && std::path::Path::new(spec).exists() {
                    // The word wins over the file: say so, the file is one `./` away.
                    self.control.note(
                        "cutoff analyse: \u{1}book\u{2} builtin is the book in the binary; \
                         write \u{1}book\u{2} ./builtin for the file of that name",
                    );
                }
                Some(crate::book::load(
                    spec,
                    game.name(),
                    game.board().as_deref(),
                )?)
            }
        };
        let engine = Engine {
            book: book.as_ref(),
            budget: self.budget,
            ..Engine::new(
                tt,
                pool.as_ref(),
                self.args.threads.is_none(),
                self.control.stop,
            )
        };
        let report = report(
            game,
            &pos,
            &engine,
            self.args.game.position.clone(),
            self.scale,
        )
        .map_err(|nodes| AppError::Interrupted {
            nodes,
            before: Some("every move was scored".into()),
        })?;
        Ok(Outcome {
            text: text_report(game, &pos, &report),
            json: serde_json::to_string(&report).map_err(AppError::Json)?,
            after: None,
        })
    }
}

/// The text report: the position, a table of the moves and the totals.
fn text_report<G: Describe>(game: &G, pos: &G::Pos, r: &AnalyseJson) -> String {
    let mut s = String::new();
    s.push_str(&format!("game:      {}\n", r.game));
    s.push_str(&format!("position:  {}\n", game.describe(pos)));
    if r.terminal {
        s.push_str(&format!(
            "terminal position: no moves; value {}\n",
            with_words(r.value, &r.explain)
        ));
        return s;
    }
    s.push_str(&format!(
        "scores for {}, the side to move:\n",
        game.to_move_name(pos)
    ));
    s.push_str(&move_table(&r.moves));
    if r.exact {
        s.push_str(&format!("value:     {}\n", with_words(r.value, &r.explain)));
    } else {
        s.push_str(&format!(
            "value:     not proved within {}: between {} and {}, best guess {}\n",
            r.budget.as_deref().unwrap_or("the budget"),
            r.lo,
            r.hi,
            with_words(r.value, &r.explain)
        ));
    }
    s.push_str(&format!(
        "best move: {}{}\n",
        r.best_move.as_deref().unwrap_or("none"),
        if r.exact || r.best_move.is_none() {
            ""
        } else {
            " (the best found, not proved)"
        }
    ));
    s.push_str(&format!("nodes:     {}\n", r.nodes));
    s.push_str(&format!("time:      {:.3} ms\n", r.time_ms));
    s
}
