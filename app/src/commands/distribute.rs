//! `cutoff distribute GAME [POSITION] --dir DIR [--backend local|mpi|simulate|slurm]
//! [--workers N]`: a whole distributed solve by hypothesis (see `crate::distribute`),
//! resumable from DIR; `cutoff distribute-worker`, a long-lived worker over pipes; and
//! `cutoff distribute-task DIR ROUND [--index I]`, the worker each Slurm task runs.

use crate::distribute::live::{LiveSettings, LiveSummary, MpiRole, MpiStart};
use crate::distribute::local::Local;
pub use crate::distribute::local::WorkerCommand;
use crate::distribute::simulate::Simulate;
use crate::distribute::{self, Backend, RunSpec, Settings, Summary};
use crate::position::{Describe, GameKind, GameOptions, GameVisitor};
use crate::shard::{self, GameSpec};
use crate::{AppError, AppResult, Control, Outcome};
use std::path::PathBuf;

/// The deepest frontier `distribute` takes.
pub const MAX_DEPTH: usize = 8;

/// Arguments of `cutoff distribute`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game, the position to solve (its `--depth K`: plies from the position to the
    /// frontier, default 2) and the tree games' options.
    pub game: GameOptions,
    /// The run folder: every file of the run, written atomically; a run stopped and started
    /// again with the same arguments resumes from it.
    pub dir: PathBuf,
    /// Where the workers run: processes on this machine, or a Slurm job array a round.
    pub backend: Backend,
    /// Workers at once (local: processes; slurm: the array's throttle). Default: every core.
    pub workers: Option<usize>,
    /// Node budget of each frontier position's guessing search.
    pub guess_nodes: u64,
    /// Each task's transposition table, in MiB.
    pub tt_mb: usize,
    /// Table entries of subtrees of at least this many nodes are kept and loaded by every
    /// later task (Connect Four).
    pub hard_nodes: u64,
    /// Split a test a ply deeper before sending it when the position cost more than this
    /// percentage of its round's expected nodes before (0: never).
    pub split_percent: u32,
    /// An opening book (`cutoff book`; `builtin`: the Connect Four book in the binary) whose
    /// values are the guesses of the frontier positions it holds, instead of a guessing
    /// search. Guesses only: every bound is still proved by a test.
    pub book: Option<String>,
    /// No line per round on standard error.
    pub quiet: bool,
    /// The simulated latency of each message (`simulate`).
    pub latency: std::time::Duration,
    /// The first node budget of each test (`None`: from the work so far and the workers).
    pub job_nodes: Option<u64>,
    /// Run brothers the proof may need next on workers that would otherwise sit idle.
    pub speculate: bool,
    /// The program each local worker runs (the front end's own: `cutoff
    /// distribute-worker`, or Python's); needed by the `local` backend.
    pub worker: Option<WorkerCommand>,
    /// How this front end starts MPI; needed by the `mpi` backend. `None` in a front end
    /// built without MPI.
    pub mpi: Option<MpiStart>,
}

/// Arguments of `cutoff distribute-task`.
#[derive(Clone, Debug)]
pub struct TaskOptions {
    /// The run folder.
    pub dir: PathBuf,
    /// The round.
    pub round: usize,
    /// The task, from 0 (default: $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX).
    pub index: Option<usize>,
}

/// The frontier's depth where none is given: two plies on a few workers, where deeper
/// frontiers cost more nodes (Begin-Hard's first 20 on two workers: 1.58x the direct solve
/// at 2, 2.08x at 3); deeper on a cluster, where more jobs from the start keep more workers
/// busy (the empty 7x6 board on 64 simulated workers: 5.2x the direct solve's speed at 3,
/// 6.9x at 4; docs/measurements/distributed.md).
pub fn default_depth(workers: usize) -> usize {
    match workers {
        0..=8 => 2,
        9..=32 => 3,
        _ => 4,
    }
}

/// Runs `cutoff distribute`.
pub fn run(args: &Options, control: Control<'static>) -> Result<Outcome, AppError> {
    if args.game.game.is_multi() || args.game.game == GameKind::Random {
        return Err(AppError::invalid(format!(
            "{} cannot be distributed: distribute works on two-player games set up from their \
             arguments (random trees take --depth as their own)",
            args.game.game
        )));
    }
    let workers = args.workers.unwrap_or_else(crate::analysis::cores);
    if workers == 0 || workers > 4096 {
        return Err(AppError::invalid(format!(
            "\u{1}workers\u{2} must be between 1 and 4096, got {workers}"
        )));
    }
    let depth = args.game.depth.unwrap_or_else(|| default_depth(workers));
    if depth == 0 || depth > MAX_DEPTH {
        return Err(AppError::invalid(format!(
            "\u{1}depth\u{2} must be between 1 and {MAX_DEPTH}, got {depth}"
        )));
    }
    // The command's parser refuses these itself; a front end without it (Python) is
    // checked here, as the command is (a node budget of 0 would double to 0 for ever).
    for (field, nodes) in [
        ("guess_nodes", Some(args.guess_nodes)),
        ("hard_nodes", Some(args.hard_nodes)),
        ("job_nodes", args.job_nodes),
    ] {
        if nodes == Some(0) {
            return Err(AppError::invalid(format!(
                "\u{1}{field}\u{2} must be at least 1, got 0"
            )));
        }
    }
    if args.split_percent > 100 {
        return Err(AppError::invalid(format!(
            "\u{1}split_percent\u{2} must be between 0 and 100, got {}",
            args.split_percent
        )));
    }
    let (game, sha) = shard::open_game(&args.game)?;
    let mut spec = GameSpec::of(&args.game);
    spec.position_sha256 = sha;
    // `--depth` is the frontier's here, not the game's (random trees are refused above).
    spec.depth = None;
    // The run records which book guessed (the built-in one, or a file's digest), so that a
    // resumed run uses the same.
    let book_id = match args.book.as_deref() {
        None => None,
        Some(crate::book::BUILTIN) => Some(crate::book::BUILTIN.to_string()),
        Some(file) => Some(shard::digest(&shard::read(file)?)),
    };
    let settings = Settings {
        spec: RunSpec {
            cutoff_distribute: distribute::RUN_VERSION,
            game: spec,
            depth,
            guess_nodes: args.guess_nodes,
            table_mib: crate::options::table_mib(args.tt_mb)?,
            hard_nodes: args.hard_nodes,
            split_percent: args.split_percent,
            book: book_id,
        },
        dir: args.dir.clone(),
        workers,
        backend: args.backend,
        verbose: !args.quiet,
        book: None,
        stop: control.stop,
        note: control.notes(),
    };
    match args.backend {
        Backend::Slurm | Backend::LocalRounds => game.visit(Drive {
            settings,
            book: args.book.as_deref(),
        }),
        Backend::Local | Backend::Simulate | Backend::Mpi => {
            game.visit(LiveDrive { settings, args })
        }
    }
}

struct LiveDrive<'a> {
    settings: Settings,
    args: &'a Options,
}

impl GameVisitor for LiveDrive<'_> {
    type Output = Result<Outcome, AppError>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let (settings, args) = (&self.settings, self.args);
        let book = match &args.book {
            Some(spec) => Some(crate::book::load(
                spec,
                game.name(),
                game.board().as_deref(),
            )?),
            None => None,
        };
        let live = LiveSettings {
            spec: settings.spec.clone(),
            dir: settings.dir.clone(),
            job_nodes: args.job_nodes,
            speculate: args.speculate,
            book: book.as_ref(),
            stop: settings.stop,
            note: settings.note,
        };
        let summary = match args.backend {
            Backend::Simulate => {
                let mut t = Simulate::new(game, &settings.spec, settings.workers, args.latency);
                distribute::live::drive(game, &live, &mut t)?
            }
            Backend::Mpi => return mpi(game, &live, args.mpi),
            _ => {
                let Some(command) = args.worker.clone() else {
                    return Err(AppError::invalid(
                        "the local backend needs a worker program, which this front end does not give"
                            .to_string(),
                    ));
                };
                let mut t = Local::start(command, settings.workers, &settings.dir.join("logs"))?;
                distribute::live::drive(game, &live, &mut t)?
            }
        };
        live_report(
            game,
            &summary,
            &settings.spec,
            args.backend == Backend::Simulate,
        )
    }
}

/// The MPI backend: rank 0 drives, every other rank serves as a worker.
fn mpi<G: Describe>(
    game: &G,
    live: &LiveSettings<'_>,
    start: Option<MpiStart>,
) -> Result<Outcome, AppError> {
    let Some(start) = start else {
        return Err(AppError::invalid(
            "this cutoff was built without MPI: build it with `--features mpi` (Open MPI's \
             libraries and libclang installed) to use \u{1}backend\u{2} mpi"
                .to_string(),
        ));
    };
    match start()? {
        MpiRole::Driver(mut t) => {
            let summary = distribute::live::drive(game, live, &mut *t)?;
            live_report(game, &summary, &live.spec, false)
        }
        MpiRole::Worker(mut link) => {
            // A worker that fails has told the driver (`failed`), which goes on without it;
            // an error exit here would make mpirun end the whole job, driver included.
            if let Err(e) = distribute::worker::serve(&mut *link, live.stop) {
                (live.note)(&format!("distribute: this worker stopped: {e}"));
            }
            Ok(Outcome {
                text: String::new(),
                json: String::new(),
                after: None,
            })
        }
    }
}

/// What a live run reports: `cutoff solve`'s fields, then the run's.
fn live_report<G: Describe>(
    game: &G,
    s: &LiveSummary,
    spec: &RunSpec,
    simulated: bool,
) -> Result<Outcome, AppError> {
    let root = game.initial();
    let explained = game.explain_value(&root, s.value);
    let json = {
        let mut v = serde_json::to_value(s).map_err(AppError::Json)?;
        if let Some(m) = v.as_object_mut() {
            m.insert("game".into(), spec.game.game.clone().into());
            m.insert("explained".into(), explained.clone().into());
            m.insert(
                "pv".into(),
                serde_json::Value::Array(s.best_move.iter().map(|m| m.clone().into()).collect()),
            );
            m.insert("time_ms".into(), (s.wall_seconds * 1e3).into());
            m.insert("depth".into(), spec.depth.into());
            if simulated {
                m.insert("simulated_seconds".into(), s.seconds.into());
            }
        }
        v.to_string()
    };
    let clock = if simulated {
        format!(
            "{:.3} s simulated ({:.3} s to simulate, {:.3} s of it the driver's)",
            s.seconds, s.wall_seconds, s.driver_seconds
        )
    } else {
        format!(
            "{:.3} s ({:.3} s of it the driver's)",
            s.seconds, s.driver_seconds
        )
    };
    let lines = [
        ("game", spec.game.game.clone()),
        ("value", format!("{} ({explained}; exact)", s.value)),
        (
            "best move",
            s.best_move.clone().unwrap_or_else(|| "none".into()),
        ),
        ("pv", s.best_move.clone().unwrap_or_default()),
        (
            "nodes",
            format!(
                "{} ({} guessing, {} in cancelled jobs)",
                s.nodes, s.guess_nodes, s.cancelled_nodes
            ),
        ),
        ("time", clock),
        (
            "workers",
            format!("{} ({}, {} lost)", s.workers, s.backend, s.lost),
        ),
        (
            "jobs",
            format!(
                "{} answered, {} cancelled, {} speculative, {} from an earlier run",
                s.jobs, s.cancelled, s.speculative, s.resumed
            ),
        ),
        (
            "budgets",
            format!(
                "{} tests opened a ply deeper, {} sent again; longest job {:.3} s",
                s.splits, s.resent, s.longest_job_seconds
            ),
        ),
        (
            "frontier",
            format!(
                "{} positions, {} tested, {} solved exactly",
                s.frontier, s.tested, s.solved
            ),
        ),
    ];
    Ok(outcome(&lines, json))
}

struct Drive<'a> {
    settings: Settings,
    book: Option<&'a str>,
}

impl GameVisitor for Drive<'_> {
    type Output = Result<Outcome, AppError>;
    fn visit<G: Describe>(mut self, game: &G) -> Self::Output {
        if let Some(spec) = self.book {
            self.settings.book = Some(crate::book::load(
                spec,
                game.name(),
                game.board().as_deref(),
            )?);
        }
        let s = distribute::drive(game, &self.settings).map_err(AppError::from)?;
        report(game, &s, &self.settings)
    }
}

/// What `distribute` reports: `cutoff solve`'s fields, then the run's.
fn report<G: Describe>(game: &G, s: &Summary, settings: &Settings) -> Result<Outcome, AppError> {
    let root = game.initial();
    let explained = game.explain_value(&root, s.value);
    let json = {
        let mut v = serde_json::to_value(s).map_err(AppError::Json)?;
        if let Some(m) = v.as_object_mut() {
            m.insert("game".into(), settings.spec.game.game.clone().into());
            m.insert("explained".into(), explained.clone().into());
            m.insert(
                "pv".into(),
                serde_json::Value::Array(s.best_move.iter().map(|m| m.clone().into()).collect()),
            );
            m.insert("time_ms".into(), (s.seconds * 1e3).into());
            m.insert("depth".into(), settings.spec.depth.into());
            m.insert("workers".into(), settings.workers.into());
            m.insert(
                "backend".into(),
                match settings.backend {
                    Backend::Slurm => "slurm",
                    _ => "local-rounds",
                }
                .into(),
            );
        }
        v.to_string()
    };
    let lines = [
        ("game", settings.spec.game.game.clone()),
        ("value", format!("{} ({explained}; exact)", s.value)),
        (
            "best move",
            s.best_move.clone().unwrap_or_else(|| "none".into()),
        ),
        ("pv", s.best_move.clone().unwrap_or_default()),
        (
            "nodes",
            format!(
                "{} ({} guessing, {} in cancelled tasks)",
                s.nodes, s.guess_nodes, s.cancelled_nodes
            ),
        ),
        ("time", format!("{:.3} s", s.seconds)),
        (
            "rounds",
            format!("{} (largest {} tasks)", s.rounds, s.largest_round),
        ),
        (
            "jobs",
            format!(
                "{} run, {} cancelled, {} retried, {} from an earlier run",
                s.jobs, s.cancelled, s.retried, s.resumed
            ),
        ),
        (
            "frontier",
            format!(
                "{} positions, {} tested, {} solved exactly",
                s.frontier, s.tested, s.solved
            ),
        ),
    ];
    Ok(outcome(&lines, json))
}

/// Runs `cutoff distribute-worker`: a long-lived worker serving one driver over its
/// standard input and output, until the driver says stop or closes the pipe.
pub fn run_worker(control: Control<'_>) -> AppResult {
    let mut link = distribute::worker::PipeLink::stdio();
    distribute::worker::serve(&mut link, control.stop)?;
    Ok(())
}

/// Runs `cutoff distribute-task`.
pub fn run_task(args: &TaskOptions, control: Control<'_>) -> AppResult {
    let index = shard::shard_index(args.index)?;
    let r = distribute::run_task(&args.dir, args.round, index, control.stop)?;
    control.note(&format!(
        "round {} task {}: {} job(s), {} nodes, {:.3} s",
        r.round,
        r.task,
        r.jobs.len(),
        r.nodes,
        r.seconds
    ));
    Ok(())
}

/// A report's text, one `name value` line each, and its JSON.
fn outcome(lines: &[(&str, String)], json: String) -> Outcome {
    let text = lines
        .iter()
        .map(|(k, v)| format!("{k:<10} {v}\n"))
        .collect();
    Outcome {
        text,
        json,
        after: None,
    }
}
