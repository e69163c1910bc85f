//! `cutoff analyse GAME [POSITION]`: the exact value of every legal move, as the front ends of
//! the strong Connect Four solvers show the seven column scores.

use super::CliResult;
use crate::position::{AnyGame, Describe, GameArgs, GameVisitor};
use cutoff::search::{MoveProgress, Progress};
use cutoff::solver::{Analysis, Solver, Threads, Verdict};
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game, Value};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `cutoff analyse`.
#[derive(clap::Args)]
pub struct Args {
    /// The game and its position.
    #[command(flatten)]
    pub game: GameArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Transposition table size in MiB, one table shared by every move's search.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Threads for each move's search (default: all cores); 1 runs the serial search.
    #[arg(long)]
    pub threads: Option<usize>,
    /// An opening book (`cutoff book`): moves to positions it holds take its values instead
    /// of a search. `builtin` is the Connect Four book in the binary; any other word is a
    /// file (a file called builtin: `./builtin`). The book must be for the game analysed. Its
    /// lines are checked where that is cheap (legal positions still in play, values in
    /// range, agreeing with moves that end the game, with the game's analysis without a
    /// search and with each other by negamax); values beyond those checks, the deepest
    /// positions', are believed.
    #[arg(long)]
    pub book: Option<String>,
}

/// How a searcher runs: its table, threads and the flag that stops it.
pub struct Engine<'a> {
    /// The table every search shares.
    pub tt: &'a TranspositionTable,
    /// A pool for the parallel search, `None` for the serial one.
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Automatic threads (one first, the pool once a search proves large) or exactly the
    /// pool's.
    pub auto: bool,
    /// Raised by Ctrl-C: the searches poll it.
    pub stop: &'a AtomicBool,
    /// Where [`score_moves`] publishes what it has done, if anyone watches.
    pub progress: Option<&'a MoveProgress>,
    /// An opening book [`score_moves`] looks positions up in before searching them.
    pub book: Option<&'a crate::book::Book>,
}

impl<'a> Engine<'a> {
    /// Searches with `tt` on `pool` (`auto`: see [`Engine::auto`]), stopped by `stop`, with
    /// nobody watching and no book (set [`Engine::progress`] and [`Engine::book`] to add them).
    pub fn new(
        tt: &'a TranspositionTable,
        pool: Option<&'a rayon::ThreadPool>,
        auto: bool,
        stop: &'a AtomicBool,
    ) -> Self {
        Engine {
            tt,
            pool,
            auto,
            stop,
            progress: None,
            book: None,
        }
    }

    /// A pool of `threads` threads if more than one.
    pub fn pool(threads: usize) -> Result<Option<rayon::ThreadPool>, String> {
        if threads <= 1 {
            return Ok(None);
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(Some)
            .map_err(|e| format!("cannot start {threads} threads: {e}"))
    }

    /// Solves `pos` exactly with the null-window solver (through [`Solver`], the engine's one
    /// way to run a search): its value from the side to move, a best move (where the
    /// position has moves) and the nodes searched; `Err` with the nodes searched if the stop
    /// flag was raised first.
    pub fn solve<G: Game>(
        &self,
        game: &G,
        pos: G::Pos,
    ) -> Result<(Value, Option<G::Move>, u64), u64> {
        self.solve_watched(game, pos, None)
    }

    /// [`Engine::solve`], publishing into `progress` if given.
    pub fn solve_watched<G: Game>(
        &self,
        game: &G,
        pos: G::Pos,
        progress: Option<&Progress>,
    ) -> Result<(Value, Option<G::Move>, u64), u64> {
        let mut solver = self.solver(game).position(pos).algorithm(Algorithm::Solve);
        if let Some(p) = progress {
            solver = solver.progress(p);
        }
        // The settings are always valid and the table is the caller's: no error.
        let out = solver.run().map_err(|_| 0u64)?;
        match out.verdict {
            Verdict::Exact(v) => Ok((v, out.best_move, out.stats.nodes)),
            _ => Err(out.stats.nodes),
        }
    }

    /// A [`Solver`] of `game` with this engine's table, stop flag and threads.
    pub fn solver<'s, G: Game>(&'s self, game: &'s G) -> Solver<'s, G> {
        let solver = Solver::new(game).table(self.tt).stop_flag(self.stop);
        match self.pool {
            Some(pool) if self.auto => solver.pool(pool).thread_policy(Threads::Auto),
            Some(pool) => solver.pool(pool).threads(pool.current_num_threads()),
            None => solver.threads(1),
        }
    }
}

/// Scores every legal move of `pos` with [`Solver::analyse`], looking the moves up in the
/// engine's book first. `Err` with the nodes searched if the stop flag was raised first.
pub fn score_moves<G: Describe>(
    game: &G,
    pos: &G::Pos,
    engine: &Engine<'_>,
) -> Result<Analysis<G::Move>, u64> {
    let known = |p: &G::Pos| engine.book.and_then(|b| b.value(game, p));
    let mut solver = engine.solver(game).position(*pos);
    if engine.book.is_some() {
        solver = solver.known_values(&known);
    }
    if let Some(p) = engine.progress {
        solver = solver.move_progress(p);
    }
    // The settings are always valid and the table is the caller's: no error.
    let scores = solver.analyse().map_err(|_| 0u64)?;
    if scores.stopped {
        return Err(scores.nodes);
    }
    Ok(scores)
}

/// One move in the JSON report.
#[derive(Serialize)]
pub struct MoveJson {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value, from the side to move at the position (trees: the leaves' scale).
    pub value: Value,
    /// The value in words.
    pub explain: String,
}

/// The JSON report of `cutoff analyse`.
#[derive(Serialize)]
pub struct AnalyseJson {
    /// The game's name.
    pub game: String,
    /// The position as given on the command line (`null` if none was).
    pub position: Option<String>,
    /// The side to move, named.
    pub to_move: String,
    /// Whether the position is terminal (then `moves` is empty).
    pub terminal: bool,
    /// The position's value: the best move's, or the outcome at a terminal position.
    pub value: Value,
    /// The value in words.
    pub explain: String,
    /// A best move, `null` at a terminal position.
    pub best_move: Option<String>,
    /// Every legal move with its value.
    pub moves: Vec<MoveJson>,
    /// Nodes searched, over all the moves.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: f64,
}

/// Runs `cutoff analyse`.
pub fn run(args: &Args) -> CliResult {
    if args.tt_mb == 0 || args.tt_mb > 1 << 20 {
        return Err(format!(
            "--tt-mb must be between 1 and 1048576, got {}",
            args.tt_mb
        ));
    }
    let threads = super::threads(args.threads)?;
    let game = AnyGame::parse(&args.game)?;
    let scale = game.scale();
    game.visit(Analyse {
        args,
        threads,
        scale,
    })
}

/// `analyse` for one game.
struct Analyse<'a> {
    args: &'a Args,
    threads: usize,
    scale: Value,
}

impl GameVisitor for Analyse<'_> {
    type Output = CliResult;

    fn visit<G: Describe>(self, game: &G) -> CliResult {
        let pos = game.initial();
        let tt = super::table(self.args.tt_mb)?;
        let pool = Engine::pool(self.threads)?;
        let book = match self.args.book.as_deref() {
            None => None,
            Some(spec) => {
                if spec == crate::book::BUILTIN && std::path::Path::new(spec).exists() {
                    // The word wins over the file: say so, the file is one `./` away.
                    eprintln!(
                        "cutoff analyse: --book builtin is the book in the binary; \
                         write --book ./builtin for the file of that name"
                    );
                }
                Some(crate::book::load(spec, game.name())?)
            }
        };
        let engine = Engine {
            book: book.as_ref(),
            ..Engine::new(
                &tt,
                pool.as_ref(),
                self.args.threads.is_none(),
                crate::interrupt::install(),
            )
        };
        let report = report(
            game,
            &pos,
            &engine,
            self.args.game.position.clone(),
            self.scale,
        )
        .map_err(|nodes| {
            format!("interrupted after {nodes} nodes, before every move was scored")
        })?;
        if self.args.json {
            let text =
                serde_json::to_string(&report).map_err(|e| format!("cannot write JSON: {e}"))?;
            println!("{text}");
        } else {
            print!("{}", text_report(game, &pos, &report));
        }
        Ok(())
    }
}

/// The report of `cutoff analyse` on `pos` (given on the command line as `position`): every
/// move scored with `engine`, values times `scale` (-1 for trees with a MIN root). `Err` with
/// the nodes searched if the stop flag was raised first.
pub fn report<G: Describe>(
    game: &G,
    pos: &G::Pos,
    engine: &Engine<'_>,
    position: Option<String>,
    scale: Value,
) -> Result<AnalyseJson, u64> {
    let start = Instant::now();
    let scores = score_moves(game, pos, engine)?;
    let time_ms = start.elapsed().as_secs_f64() * 1e3;
    let outcome = game.outcome(pos);
    let best = scores.best();
    let value = outcome.or(best.map(|(_, v)| v)).unwrap_or(0);
    let rows: Vec<MoveJson> = scores
        .moves
        .iter()
        .map(|&(mv, v)| MoveJson {
            mv: game.format_move(pos, mv),
            value: v * scale,
            explain: game.explain_value(pos, v),
        })
        .collect();
    Ok(AnalyseJson {
        game: game.name().to_string(),
        position,
        to_move: game.to_move_name(pos).to_string(),
        terminal: outcome.is_some(),
        value: value * scale,
        explain: game.explain_value(pos, value),
        best_move: best.map(|(mv, _)| game.format_move(pos, mv)),
        moves: rows,
        nodes: scores.nodes,
        time_ms,
    })
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
    s.push_str(&format!("value:     {}\n", with_words(r.value, &r.explain)));
    s.push_str(&format!(
        "best move: {}\n",
        r.best_move.as_deref().unwrap_or("none")
    ));
    s.push_str(&format!("nodes:     {}\n", r.nodes));
    s.push_str(&format!("time:      {:.3} ms\n", r.time_ms));
    s
}

/// The moves as aligned columns: move, value, words; one line each, ending in a newline.
pub fn move_table(moves: &[MoveJson]) -> String {
    let mw = moves
        .iter()
        .map(|m| m.mv.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let vw = moves
        .iter()
        .map(|m| m.value.to_string().len())
        .max()
        .unwrap_or(0)
        .max(5);
    // A game whose words are the number itself (random trees) shows no third column.
    let words = moves.iter().any(|m| m.explain != m.value.to_string());
    let mut s = format!("  {:<mw$}  {:>vw$}", "move", "value");
    s.push_str(if words { "  meaning\n" } else { "\n" });
    for m in moves {
        s.push_str(&format!("  {:<mw$}  {:>vw$}", m.mv, m.value));
        if words {
            s.push_str("  ");
            s.push_str(&m.explain);
        }
        s.push('\n');
    }
    s
}

/// `value (words)`, or the value alone where the words are the number itself.
pub fn with_words(value: Value, words: &str) -> String {
    if words == value.to_string() {
        value.to_string()
    } else {
        format!("{value} ({words})")
    }
}
