//! Distributed solves by hypothesis (docs/design/distributed.md).
//!
//! The live driver and its parts are the submodules: long-lived workers ([`worker`]) that
//! keep their tables, one message protocol ([`protocol`]), a driver without rounds
//! ([`live`]) and its transports ([`local`], `mpi` with the `mpi` feature, [`simulate`]).
//!
//! This file is the round driver, for batch systems (`--backend slurm`, `local-rounds`;
//! "The round driver" in the design page): it keeps a [`cutoff::proof::Prover`] and hands
//! each of its steps (a guessing round, then rounds of null-window tests) to worker
//! processes as *tasks*: a task is one or more jobs, each a frontier position given by its
//! moves from the root. A worker runs `cutoff distribute-task DIR ROUND --index I`
//! ([`run_task`]), which writes its result file atomically; the driver reads it back, feeds
//! what it proved to the prover, and cancels the tasks of the round the answer made useless.
//!
//! Everything lives in the run folder, each file written whole and renamed into place:
//!
//! ```text
//! DIR/run.json            the game, position and settings; its SHA-256 is the run's digest
//! DIR/rounds/R.json       round R's tasks
//! DIR/rounds/R-end.json   what round R cost: each task's nodes and seconds, its wall time
//! DIR/results/R-I.json    task I of round R: what each job proved, nodes and seconds
//! DIR/hard/R-I.tab        the table entries of task I's subtrees over --hard-nodes nodes
//! DIR/hard.tab            those of every finished task, merged; each task loads it first
//! DIR/logs/R-I.log        the worker's standard error
//! DIR/summary.json        the outcome and every round's costs (`cutoff-bench distributed`)
//! ```
//!
//! Every result is a proven fact about a position, checked against the run's digest and the
//! game's range, so a driver started again on the folder loads every result there and goes
//! on: only the tasks that were running when it stopped are lost.

pub mod live;
pub mod local;
pub mod protocol;
pub mod simulate;
pub mod worker;

use crate::files::{create_folder, write_atomic, FileError};
use crate::position::{Describe, GameVisitor};
use crate::shard::{self, GameSpec, Moves};
use cutoff::proof::{Found, Job, Prover, Step};
use cutoff::solver::Solver;
use cutoff::tt::TranspositionTable;
use cutoff::Value;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The run file's format version.
pub const RUN_VERSION: u32 = 1;

/// Attempts a task gets before the run fails: a task that dies this often is broken, not
/// unlucky.
pub const ATTEMPTS: u32 = 3;

/// Guess jobs a task holds at most: guesses are small, and a process each would cost more
/// than the searches.
const GUESSES_PER_TASK: usize = 64;

/// Why a distributed run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum DistributeError {
    /// A file of the run could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file of the run is not what it should be.
    #[error("{path}: {what}")]
    Bad {
        /// The file.
        path: String,
        /// What is wrong.
        what: String,
    },
    /// The folder holds another run.
    #[error("{dir} holds a run of other settings ({what}): start it again with the same arguments to resume it, or give another \u{1}dir\u{2}")]
    OtherRun {
        /// The folder.
        dir: String,
        /// The first setting that differs.
        what: String,
    },
    /// A task failed every attempt.
    #[error("task {task} of round {round} failed {attempts} times; its log: {log}")]
    TaskFailed {
        /// The round.
        round: usize,
        /// The task.
        task: usize,
        /// Attempts made.
        attempts: u32,
        /// Its log file.
        log: String,
    },
    /// A worker could not be started.
    #[error("cannot start {what}: {source}")]
    Spawn {
        /// The command.
        what: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// A Slurm command failed.
    #[error("{command} failed: {what}")]
    Slurm {
        /// The command.
        command: String,
        /// Its message.
        what: String,
    },
    /// Another driver holds the folder.
    #[error(
        "{dir} is in use by another cutoff distribute (its lock file {dir}/driver.lock is held)"
    )]
    Busy {
        /// The folder.
        dir: String,
    },
    /// Stopped by Ctrl-C or SIGTERM; the folder holds every finished task.
    #[error("interrupted in round {round}; run the same command again to resume")]
    Interrupted {
        /// The round under way.
        round: usize,
    },
    /// A message between the driver and a worker could not be read, or a worker broke
    /// the protocol.
    #[error("a message from {from}: {what}")]
    Protocol {
        /// Who sent it.
        from: String,
        /// What is wrong.
        what: String,
    },
    /// MPI cannot run the workers as asked (one rank alone, no thread support).
    #[error("{0}")]
    Mpi(String),
    /// A live run stopped by Ctrl-C or SIGTERM; the folder keeps every answer.
    #[error("interrupted; run the same command again to resume (the folder keeps every answer)")]
    Stopped,
    /// Every worker of a live run was lost and none could be started again.
    #[error("no worker left to run the proof's jobs: every worker failed; their logs: {logs}")]
    NoWorkers {
        /// The workers' log folder.
        logs: String,
    },
    /// The engine refused the settings.
    #[error(transparent)]
    Solve(#[from] cutoff::solver::SolveError),
    /// The game could not be set up again.
    #[error(transparent)]
    Shard(#[from] shard::ShardError),
    /// A table or table file failed.
    #[error(transparent)]
    Table(#[from] cutoff::tt::TableError),
    /// A table file could not be read, merged or written.
    #[error(transparent)]
    TableFile(#[from] cutoff::tt::file::TableFileError),
}

/// The run: what `run.json` holds. A driver started on a folder with another run refuses it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSpec {
    /// Format version ([`RUN_VERSION`]).
    pub cutoff_distribute: u32,
    /// The game and root position.
    pub game: GameSpec,
    /// Plies from the root to the frontier.
    pub depth: usize,
    /// Node budget of each guessing search.
    pub guess_nodes: u64,
    /// Each task's table, in MiB.
    pub table_mib: usize,
    /// Table entries of subtrees of at least this many nodes are kept and shared.
    pub hard_nodes: u64,
    /// A job whose expected cost is over this percentage of its round's is split a ply
    /// deeper first (0: never).
    pub split_percent: u32,
    /// The opening book whose values are the guesses of the positions it holds: `builtin`,
    /// or the SHA-256 of the book file (absent: no book).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
}

/// One job of a task: a frontier position by its moves from the root, guessed (`at` absent)
/// or tested ("at least `at`?").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobSpec {
    /// The moves from the root.
    pub path: Vec<String>,
    /// The threshold tested, or none for a guess.
    pub at: Option<Value>,
}

/// A round's file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoundFile {
    /// The run's digest.
    pub digest: String,
    /// The round's number, from 0.
    pub round: usize,
    /// Each task's jobs.
    pub tasks: Vec<Vec<JobSpec>>,
}

/// What one job proved and cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobResult {
    /// The job.
    pub job: JobSpec,
    /// Proven lower bound.
    pub lo: Value,
    /// Proven upper bound.
    pub hi: Value,
    /// The guess (guessing jobs).
    pub guess: Option<Value>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds taken.
    pub seconds: f64,
}

/// A task's result file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskResult {
    /// The run's digest.
    pub digest: String,
    /// The round.
    pub round: usize,
    /// The task.
    pub task: usize,
    /// Its jobs' results, in its order.
    pub jobs: Vec<JobResult>,
    /// Nodes of all its jobs.
    pub nodes: u64,
    /// Seconds from its start to its end, its table's setup included.
    pub seconds: f64,
    /// Table entries it kept for the later tasks.
    pub hard_entries: u64,
}

/// The work of a task stopped before its end: `results/R-I.stopped.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stopped {
    /// The run's digest.
    pub digest: String,
    /// Nodes it searched.
    pub nodes: u64,
    /// Seconds it ran.
    pub seconds: f64,
}

/// What a round cost: `rounds/R-end.json`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RoundEnd {
    /// The round.
    pub round: usize,
    /// "guess" or "test".
    pub kind: String,
    /// The root's threshold, for a test round.
    pub at: Option<Value>,
    /// Tasks planned.
    pub planned: usize,
    /// Each finished task's seconds (its own, as it measured them).
    pub task_seconds: Vec<f64>,
    /// Each finished task's nodes.
    pub task_nodes: Vec<u64>,
    /// Tasks cancelled (not started, or killed) because an answer made them useless.
    pub cancelled: usize,
    /// Task attempts that died and were submitted again.
    pub retried: usize,
    /// Seconds from the round's submission to its last answer.
    pub wall_seconds: f64,
}

/// The end of a run: what the command prints, and `summary.json`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Summary {
    /// The root's exact value.
    pub value: Value,
    /// A best move at the root (absent at a finished position).
    pub best_move: Option<String>,
    /// Nodes of every round's jobs together: guesses, tests, and the work of tasks stopped
    /// before their end (`cancelled_nodes`).
    pub nodes: u64,
    /// Nodes of the guessing jobs.
    pub guess_nodes: u64,
    /// Rounds (guessing rounds included).
    pub rounds: usize,
    /// Jobs that ran to their end, in this run and the runs it resumed.
    pub jobs: usize,
    /// Tasks cancelled.
    pub cancelled: usize,
    /// Nodes of the tasks stopped before their end (cancelled while running, or running
    /// when a driver was stopped), as they recorded them; part of `nodes`.
    pub cancelled_nodes: u64,
    /// Task attempts submitted again.
    pub retried: usize,
    /// Results found in the folder at the start (a resumed run).
    pub resumed: usize,
    /// The most tasks of one round.
    pub largest_round: usize,
    /// Tests "at least w?" at the root.
    pub tests: usize,
    /// Frontier positions (after any splits).
    pub frontier: usize,
    /// Frontier positions some test answered for.
    pub tested: usize,
    /// Frontier positions whose value was settled exactly.
    pub solved: usize,
    /// Seconds from the start to the end of this invocation.
    pub seconds: f64,
    /// Every round's costs, in order.
    pub round_costs: Vec<RoundEnd>,
}

/// Where the workers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Long-lived worker processes on this machine, over pipes ([`live`]).
    Local,
    /// Long-lived workers as MPI ranks, rank 0 driving (the `mpi` feature).
    Mpi,
    /// Virtual workers in this process on a simulated clock ([`simulate`]).
    Simulate,
    /// A round at a time, each task a process of this machine started for it: the Slurm
    /// backend's rounds without Slurm.
    LocalRounds,
    /// A job array a round on a Slurm cluster (`sbatch --array`, `scancel`).
    Slurm,
}

/// How to run: the run's settings and where.
#[derive(Clone)]
pub struct Settings {
    /// What `run.json` holds.
    pub spec: RunSpec,
    /// The run folder.
    pub dir: PathBuf,
    /// Workers at once.
    pub workers: usize,
    /// Where they run.
    pub backend: Backend,
    /// Tells [`Settings::note`] one line per round.
    pub verbose: bool,
    /// The opening book that guesses the positions it holds (as guesses only: a test still
    /// proves every bound).
    pub book: Option<crate::book::Book>,
    /// Raised to stop the run (the command's Ctrl-C and SIGTERM): the workers are stopped
    /// and the run folder keeps what was proved.
    pub stop: &'static AtomicBool,
    /// Told the driver's log lines (a round's end, a result set aside), for the front end to
    /// show; options in them are marked as in errors ([`crate::opt`]); the front end's
    /// `Control::note`.
    pub note: &'static (dyn Fn(&str) + Sync),
}

fn bad(path: &Path, what: impl Into<String>) -> DistributeError {
    DistributeError::Bad {
        path: crate::message::shown_path(&path.to_string_lossy()),
        what: what.into(),
    }
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, DistributeError> {
    let bytes = shard::read(&path.to_string_lossy())?;
    serde_json::from_slice(&bytes).map_err(|e| bad(path, format!("not a valid file: {e}")))
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), DistributeError> {
    let bytes = serde_json::to_vec(value).map_err(|e| bad(path, e.to_string()))?;
    Ok(write_atomic(path, &bytes)?)
}

/// The result file of task `task` of round `round`.
pub fn result_path(dir: &Path, round: usize, task: usize) -> PathBuf {
    dir.join("results").join(format!("{round}-{task}.json"))
}

fn stopped_path(dir: &Path, round: usize, task: usize) -> PathBuf {
    dir.join("results")
        .join(format!("{round}-{task}.stopped.json"))
}

fn round_path(dir: &Path, round: usize) -> PathBuf {
    dir.join("rounds").join(format!("{round}.json"))
}

fn hard_path(dir: &Path, round: usize, task: usize) -> PathBuf {
    dir.join("hard").join(format!("{round}-{task}.tab"))
}

fn log_path(dir: &Path, round: usize, task: usize) -> PathBuf {
    dir.join("logs").join(format!("{round}-{task}.log"))
}

/// Reads `run.json` and its digest.
pub fn read_run(dir: &Path) -> Result<(RunSpec, String), DistributeError> {
    let path = dir.join("run.json");
    let bytes = shard::read(&path.to_string_lossy())?;
    let spec: RunSpec =
        serde_json::from_slice(&bytes).map_err(|e| bad(&path, format!("not a run file: {e}")))?;
    if spec.cutoff_distribute != RUN_VERSION {
        return Err(bad(
            &path,
            format!(
                "format {} where this cutoff reads {RUN_VERSION}",
                spec.cutoff_distribute
            ),
        ));
    }
    Ok((spec, shard::digest(&bytes)))
}

/// Reads a task's result file and checks it: the run's digest, its round and task, its
/// jobs those the round asked for, each interval inside the game's range.
pub fn read_result(
    dir: &Path,
    digest: &str,
    round: &RoundFile,
    task: usize,
    range: (Value, Value),
) -> Result<TaskResult, DistributeError> {
    let path = result_path(dir, round.round, task);
    let r: TaskResult = read_json(&path)?;
    if r.digest != digest {
        return Err(bad(&path, "the result of another run (its digest differs)"));
    }
    if r.round != round.round || r.task != task {
        return Err(bad(
            &path,
            format!("holds task {} of round {}", r.task, r.round),
        ));
    }
    let asked = round.tasks.get(task).map_or(&[][..], |t| &t[..]);
    if r.jobs.len() != asked.len() || r.jobs.iter().zip(asked).any(|(j, a)| &j.job != a) {
        return Err(bad(&path, "its jobs are not the round's"));
    }
    if let Some(j) = r
        .jobs
        .iter()
        .find(|j| j.lo > j.hi || j.lo < range.0 || j.hi > range.1)
    {
        return Err(bad(
            &path,
            format!("interval [{}, {}] outside the game's range", j.lo, j.hi),
        ));
    }
    Ok(r)
}

/// Runs task `task` of round `round` of the run in `dir` and writes its result file: a
/// worker's whole job (`cutoff distribute-task`).
pub fn run_task(
    dir: &Path,
    round: usize,
    task: usize,
    stop: &AtomicBool,
) -> Result<TaskResult, DistributeError> {
    let (spec, digest) = read_run(dir)?;
    let rpath = round_path(dir, round);
    let file: RoundFile = read_json(&rpath)?;
    if file.digest != digest {
        return Err(bad(&rpath, "a round of another run (its digest differs)"));
    }
    let Some(jobs) = file.tasks.get(task) else {
        return Err(bad(
            &rpath,
            format!("no task {task}: the round has {}", file.tasks.len()),
        ));
    };
    let game = spec.game.game()?;
    let result = game.visit(Worker {
        dir,
        spec: &spec,
        digest: &digest,
        round,
        task,
        jobs,
        stop,
    })?;
    write_json(&result_path(dir, round, task), &result)?;
    Ok(result)
}

struct Worker<'a> {
    dir: &'a Path,
    spec: &'a RunSpec,
    digest: &'a str,
    round: usize,
    task: usize,
    jobs: &'a [JobSpec],
    stop: &'a AtomicBool,
}

impl GameVisitor for Worker<'_> {
    type Output = Result<TaskResult, DistributeError>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let start = Instant::now();
        let tt = TranspositionTable::try_new(self.spec.table_mib)?;
        let stop = self.stop;
        // The hard results of the earlier tasks, and a file of this task's own; a torn one
        // from an earlier attempt is started afresh.
        let identity = game.table_identity();
        let recorder = match &identity {
            Some(id) => {
                cutoff::tt::file::load(&self.dir.join("hard.tab"), id, &tt)?;
                let own = hard_path(self.dir, self.round, self.task);
                let _ = std::fs::remove_file(&own);
                Some(cutoff::tt::file::Recorder::start(
                    &own,
                    id,
                    self.spec.hard_nodes,
                )?)
            }
            None => None,
        };
        let range = game.value_range();
        let mut out = Vec::with_capacity(self.jobs.len());
        for job in self.jobs {
            let pos = shard::play_path(game, Moves::of(&job.path)?.path())?;
            let solver = match job.at {
                None => Solver::new(game)
                    .position(pos)
                    .threads(1)
                    .want_move(false)
                    .nodes(Some(self.spec.guess_nodes)),
                Some(at) => cutoff::proof::test_solver(game, pos, at),
            };
            let mut solver = solver.table(&tt).stop_flag(stop);
            if let Some(r) = &recorder {
                solver = solver.keep(r.keep());
            }
            let r = solver.run()?;
            // A guess ends at its budget; only a signal stops a task short (the driver's
            // SIGTERM when an answer made it useless, scancel, Ctrl-C): it records the work
            // it did, which the run's figures count as cancelled work.
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                let stopped = Stopped {
                    digest: self.digest.to_string(),
                    nodes: out.iter().map(|j: &JobResult| j.nodes).sum::<u64>() + r.stats.nodes,
                    seconds: start.elapsed().as_secs_f64(),
                };
                let _ = write_json(&stopped_path(self.dir, self.round, self.task), &stopped);
                return Err(DistributeError::Interrupted { round: self.round });
            }
            let found = match job.at {
                None => Found::of_guess(range, r.verdict),
                Some(at) => Found::of_test(range, Job { leaf: 0, at }, r.verdict),
            };
            out.push(JobResult {
                job: job.clone(),
                lo: found.lo,
                hi: found.hi,
                guess: found.guess,
                nodes: r.stats.nodes,
                seconds: r.elapsed.as_secs_f64(),
            });
        }
        let hard_entries = match recorder {
            Some(r) => r.finish()?.written,
            None => 0,
        };
        Ok(TaskResult {
            digest: self.digest.to_string(),
            round: self.round,
            task: self.task,
            nodes: out.iter().map(|j| j.nodes).sum(),
            jobs: out,
            seconds: start.elapsed().as_secs_f64(),
            hard_entries,
        })
    }
}

/// Runs the whole distributed solve of the game `game` (at its start position, the root)
/// with `settings`, resuming whatever the folder holds.
pub fn drive<G: Describe>(game: &G, settings: &Settings) -> Result<Summary, DistributeError> {
    let start = Instant::now();
    let dir = &settings.dir;
    for sub in ["rounds", "results", "hard", "logs"] {
        create_folder(&dir.join(sub))?;
    }
    let _lock = lock(dir)?;
    let run = dir.join("run.json");
    let digest = if run.exists() {
        let (old, digest) = read_run(dir)?;
        if old != settings.spec {
            return Err(DistributeError::OtherRun {
                dir: crate::message::shown_path(&dir.to_string_lossy()),
                what: first_difference(&old, &settings.spec),
            });
        }
        digest
    } else {
        write_json(&run, &settings.spec)?;
        // The digest of the bytes on disk, which the workers compute too.
        read_run(dir)?.1
    };
    let mut d = Driver {
        game,
        settings,
        digest,
        prover: Prover::new(game, game.initial(), settings.spec.depth)?,
        facts: HashMap::new(),
        costs: HashMap::new(),
        summary: Summary::default(),
        round: 0,
        hard: Vec::new(),
    };
    d.prover.trust_guesses(settings.book.is_some());
    d.resume()?;
    let (value, best_move) = loop {
        let (tasks, tests, at) = match d.prover.step() {
            Step::Done { value, best_move } => break (value, best_move),
            Step::Guess(leaves) => {
                let leaves = d.guess_from_book(leaves);
                if leaves.is_empty() {
                    continue;
                }
                let size = GUESSES_PER_TASK.min(leaves.len().div_ceil(settings.workers).max(1));
                let tasks = leaves
                    .chunks(size)
                    .map(|c| c.iter().map(|&l| d.job_spec(l, None)).collect())
                    .collect::<Vec<Vec<JobSpec>>>();
                (tasks, Vec::new(), None)
            }
            Step::Test { jobs, at } => {
                if d.split_costly(&jobs)? {
                    continue;
                }
                let tasks = jobs
                    .iter()
                    .map(|j| vec![d.job_spec(j.leaf, Some(j.at))])
                    .collect();
                (tasks, jobs, Some(at))
            }
        };
        d.run_round(tasks, tests, at)?;
    };
    let s = &mut d.summary;
    s.value = value;
    s.best_move = best_move.map(|mv| game.format_move(&game.initial(), mv));
    s.tests = d.prover.tests();
    s.frontier = d.prover.frontier();
    s.tested = d.prover.leaves_tested();
    s.solved = (0..d.prover.frontier())
        .filter(|&l| {
            let (lo, hi, _) = d.prover.known(l);
            lo == hi
        })
        .count();
    s.seconds = start.elapsed().as_secs_f64();
    s.cancelled_nodes = stopped_nodes(dir, &d.digest);
    s.nodes += s.cancelled_nodes;
    let mut ends = Vec::new();
    for r in 0..d.round {
        let p = dir.join("rounds").join(format!("{r}-end.json"));
        if p.exists() {
            ends.push(read_json::<RoundEnd>(&p)?);
        }
    }
    s.rounds = ends.len();
    s.largest_round = ends.iter().map(|e| e.planned).max().unwrap_or(0);
    s.round_costs = ends;
    write_json(&dir.join("summary.json"), &d.summary)?;
    Ok(d.summary)
}

/// Gives the frontier positions `book` holds its values as their guesses (not as bounds:
/// the tests prove them); returns the others. Both drivers use it.
fn guess_from_book<G: Describe>(
    game: &G,
    prover: &mut Prover<G>,
    book: Option<&crate::book::Book>,
    leaves: Vec<usize>,
) -> Vec<usize> {
    let Some(book) = book else {
        return leaves;
    };
    let (lo, hi) = game.value_range();
    let mut rest = Vec::new();
    for l in leaves {
        // A position one ply past the book: its parent's value v bounds it from below (no
        // move of the parent does better than v), and the best move meets the bound, so -v
        // is the likeliest value.
        let guess = book.value(game, &prover.position(l)).or_else(|| {
            let (_, up) = prover.path(l).split_last()?;
            let parent = up.iter().fold(game.initial(), |p, &mv| game.play(&p, mv));
            book.value(game, &parent).map(|v| -v)
        });
        match guess {
            Some(g) => prover.learn(
                l,
                Found {
                    lo,
                    hi,
                    guess: Some(g),
                },
            ),
            None => rest.push(l),
        }
    }
    rest
}

/// The moves from the root to frontier position `leaf`, written in the game's notation.
fn leaf_path<G: Describe>(game: &G, prover: &Prover<G>, leaf: usize) -> Vec<String> {
    let mut pos = game.initial();
    let mut path = Vec::new();
    for &mv in prover.path(leaf) {
        path.push(game.format_move(&pos, mv));
        pos = game.play(&pos, mv);
    }
    path
}

/// The nodes every stopped task of the run recorded.
fn stopped_nodes(dir: &Path, digest: &str) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir.join("results")) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".stopped.json"))
        .filter_map(|e| read_json::<Stopped>(&e.path()).ok())
        .filter(|st| st.digest == digest)
        .map(|st| st.nodes)
        .sum()
}

/// Takes the folder's lock for this driver's lifetime (the returned file holds it; the system
/// drops it when the process ends, however it ends): two drivers on one folder would write
/// the same rounds.
fn lock(dir: &Path) -> Result<std::fs::File, DistributeError> {
    let path = dir.join("driver.lock");
    // Opened through the one write path: a FIFO or a device planted at the name is refused,
    // not opened (and waited on).
    let file = crate::files::open_append(&path)?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: `flock` takes a descriptor that `file` owns and keeps open while the lock
        // is wanted; it touches no memory of ours.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r != 0 {
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                return Err(DistributeError::Busy {
                    dir: crate::message::shown_path(&dir.to_string_lossy()),
                });
            }
            return Err(FileError::Write { path, source: e }.into());
        }
    }
    Ok(file)
}

/// The first field in which two runs' settings differ, named.
fn first_difference(old: &RunSpec, new: &RunSpec) -> String {
    let pairs = [
        ("game", old.game != new.game),
        ("\u{1}depth\u{2}", old.depth != new.depth),
        ("\u{1}guess_nodes\u{2}", old.guess_nodes != new.guess_nodes),
        ("\u{1}tt_mb\u{2}", old.table_mib != new.table_mib),
        ("\u{1}hard_nodes\u{2}", old.hard_nodes != new.hard_nodes),
        (
            "\u{1}split_percent\u{2}",
            old.split_percent != new.split_percent,
        ),
        ("\u{1}book\u{2}", old.book != new.book),
    ];
    pairs
        .iter()
        .find(|p| p.1)
        .map_or("format", |p| p.0)
        .to_string()
}

struct Driver<'a, G: Describe> {
    game: &'a G,
    settings: &'a Settings,
    digest: String,
    prover: Prover<G>,
    /// Every fact proved so far, by position key: applied to a leaf when it appears.
    facts: HashMap<u64, Vec<Found>>,
    /// The most nodes a job on each position took, by position key.
    costs: HashMap<u64, u64>,
    summary: Summary,
    /// The next round's number.
    round: usize,
    /// The hard-result files of finished tasks.
    hard: Vec<PathBuf>,
}

impl<G: Describe> Driver<'_, G> {
    fn job_spec(&self, leaf: usize, at: Option<Value>) -> JobSpec {
        JobSpec {
            path: leaf_path(self.game, &self.prover, leaf),
            at,
        }
    }

    fn guess_from_book(&mut self, leaves: Vec<usize>) -> Vec<usize> {
        guess_from_book(
            self.game,
            &mut self.prover,
            self.settings.book.as_ref(),
            leaves,
        )
    }

    /// Loads every result the folder holds (a resumed run), as facts.
    fn resume(&mut self) -> Result<(), DistributeError> {
        let dir = &self.settings.dir;
        let note = self.settings.note;
        let mut r = 0;
        while round_path(dir, r).exists() {
            // A round file that cannot be read or is another run's cannot vouch for its
            // results: they are skipped (their work is done again), never trusted.
            let file = match read_json::<RoundFile>(&round_path(dir, r)) {
                Ok(f) if f.digest == self.digest => f,
                Ok(_) => {
                    note(&format!(
                        "distribute: ignoring round {r}: {}",
                        bad(
                            &round_path(dir, r),
                            "a round of another run (its digest differs)"
                        )
                    ));
                    r += 1;
                    continue;
                }
                Err(e) => {
                    note(&format!("distribute: ignoring round {r}: {e}"));
                    r += 1;
                    continue;
                }
            };
            for t in 0..file.tasks.len() {
                if !result_path(dir, r, t).exists() {
                    continue;
                }
                // A result that fails its checks is set aside, and its work done again.
                match read_result(dir, &self.digest, &file, t, self.game.value_range()) {
                    Ok(res) => {
                        self.summary.resumed += 1;
                        self.take(&res)?;
                    }
                    Err(e) => {
                        note(&format!("distribute: ignoring a result: {e}"));
                        let p = result_path(dir, r, t);
                        let _ = crate::files::rename_aside(&p, &p.with_extension("refused"));
                    }
                }
            }
            r += 1;
        }
        self.round = r;
        Ok(())
    }

    /// Takes a checked result in: its facts, its cost and its hard entries.
    fn take(&mut self, res: &TaskResult) -> Result<(), DistributeError> {
        for j in &res.jobs {
            let pos = shard::play_path(self.game, Moves::of(&j.job.path)?.path())?;
            let key = self.game.key(&pos);
            let found = Found {
                lo: j.lo,
                hi: j.hi,
                guess: j.guess,
            };
            self.facts.entry(key).or_default().push(found);
            let c = self.costs.entry(key).or_default();
            *c = (*c).max(j.nodes);
            if let Some(leaf) = self.prover.leaf_of(key) {
                self.prover.learn(leaf, found);
            }
            self.summary.nodes += j.nodes;
            if j.guess.is_some() {
                self.summary.guess_nodes += j.nodes;
            }
            self.summary.jobs += 1;
        }
        if res.hard_entries > 0 {
            self.hard
                .push(hard_path(&self.settings.dir, res.round, res.task));
        }
        Ok(())
    }

    /// Splits the round's jobs whose expected cost (the most a job on the position took
    /// before) is over the set share of the round's: true if any was.
    fn split_costly(&mut self, jobs: &[Job]) -> Result<bool, DistributeError> {
        let share = self.settings.spec.split_percent;
        if share == 0 || jobs.len() < 2 {
            return Ok(false);
        }
        let costs: Vec<u64> = jobs
            .iter()
            .map(|j| {
                let key = self.game.key(&self.prover.position(j.leaf));
                self.costs.get(&key).copied().unwrap_or(0)
            })
            .collect();
        let total: u64 = costs.iter().sum();
        let mut split = false;
        for (j, &c) in jobs.iter().zip(&costs) {
            if c as u128 * 100 > total as u128 * u128::from(share)
                && self.prover.split(self.game, j.leaf)?
            {
                split = true;
            }
        }
        if split {
            // The new frontier positions may be known already.
            for l in 0..self.prover.frontier() {
                let key = self.game.key(&self.prover.position(l));
                if let Some(fs) = self.facts.get(&key) {
                    for &f in fs {
                        self.prover.learn(l, f);
                    }
                }
            }
        }
        Ok(split)
    }

    /// Writes the round's file, runs its tasks on the backend, takes in their results, and
    /// records what the round cost.
    /// `tests` holds a test round's job of each task, in order (none in a guessing round);
    /// `at` is the root's threshold.
    fn run_round(
        &mut self,
        tasks: Vec<Vec<JobSpec>>,
        tests: Vec<Job>,
        at: Option<Value>,
    ) -> Result<(), DistributeError> {
        let dir = self.settings.dir.clone();
        let round = self.round;
        let file = RoundFile {
            digest: self.digest.clone(),
            round,
            tasks,
        };
        write_json(&round_path(&dir, round), &file)?;
        let started = Instant::now();
        let mut end = RoundEnd {
            round,
            kind: if at.is_none() { "guess" } else { "test" }.into(),
            at,
            planned: file.tasks.len(),
            ..RoundEnd::default()
        };
        let range = self.game.value_range();
        let digest = self.digest.clone();
        let (backend, workers) = (self.settings.backend, self.settings.workers);
        let stop = self.settings.stop;
        let note = self.settings.note;
        let mut on_result = |t: usize| -> Result<Option<Vec<usize>>, DistributeError> {
            match read_result(&dir, &digest, &file, t, range) {
                Ok(res) => {
                    end.task_seconds.push(res.seconds);
                    end.task_nodes.push(res.nodes);
                    self.take(&res)?;
                    // Every test task whose job the proof no longer needs is useless now.
                    let useless = tests
                        .iter()
                        .enumerate()
                        .filter(|(_, j)| !self.prover.needed(j))
                        .map(|(u, _)| u)
                        .collect();
                    Ok(Some(useless))
                }
                Err(e) => {
                    note(&format!("distribute: {e}"));
                    let p = result_path(&dir, round, t);
                    let _ = crate::files::rename_aside(&p, &p.with_extension("refused"));
                    Ok(None)
                }
            }
        };
        let n = file.tasks.len();
        let counts = match backend {
            Backend::Slurm => run_slurm(&dir, round, n, workers, stop, &mut on_result)?,
            _ => run_local(&dir, round, n, workers, stop, &mut on_result)?,
        };
        end.cancelled = counts.cancelled;
        end.retried = counts.retried;
        end.wall_seconds = started.elapsed().as_secs_f64();
        self.summary.cancelled += counts.cancelled;
        self.summary.retried += counts.retried;
        if self.settings.verbose {
            note(&format!(
                "round {round}: {} {} task(s), {} cancelled, {} retried, {:.2} s; root in [{}, {}]",
                end.planned,
                end.kind,
                end.cancelled,
                end.retried,
                end.wall_seconds,
                self.prover.bounds().0,
                self.prover.bounds().1
            ));
        }
        write_json(&dir.join("rounds").join(format!("{round}-end.json")), &end)?;
        // The hard results so far, merged for the next round's tasks.
        if let Some(id) = self.game.table_identity() {
            if !self.hard.is_empty() {
                let mut inputs = vec![dir.join("hard.tab")];
                inputs.append(&mut self.hard);
                cutoff::tt::file::merge(&inputs, &id, &dir.join("hard.tab"))?;
            }
        }
        self.round += 1;
        Ok(())
    }
}

/// What a backend did with a round's tasks.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    cancelled: usize,
    retried: usize,
}

/// Called with each task whose process ended: `Some(useless tasks)` if its result was taken
/// in, `None` if it had none (it died) and must run again.
type OnResult<'a> = dyn FnMut(usize) -> Result<Option<Vec<usize>>, DistributeError> + 'a;

/// The program the workers run: this one. Where it was replaced on disk while the driver ran
/// (an upgrade), Linux names it "PATH (deleted)"; the file now at PATH is what can be
/// started.
fn worker_exe() -> Result<PathBuf, DistributeError> {
    let exe = std::env::current_exe().map_err(|source| DistributeError::Spawn {
        what: "the worker (this program's path is unknown)".into(),
        source,
    })?;
    let text = exe.to_string_lossy();
    match text.strip_suffix(" (deleted)") {
        Some(path) if Path::new(path).exists() => Ok(PathBuf::from(path)),
        _ => Ok(exe),
    }
}

/// Runs a round's tasks as processes of this machine, `workers` at once.
fn run_local(
    dir: &Path,
    round: usize,
    tasks: usize,
    workers: usize,
    stop: &AtomicBool,
    on_result: &mut OnResult<'_>,
) -> Result<Counts, DistributeError> {
    let exe = worker_exe()?;
    let mut queue: VecDeque<usize> = (0..tasks).collect();
    let mut running: Vec<(usize, Child)> = Vec::new();
    let mut finished = vec![false; tasks];
    let mut attempts = vec![0u32; tasks];
    let mut counts = Counts::default();
    let kill_all = |running: &mut Vec<(usize, Child)>| {
        for (_, c) in running.drain(..) {
            terminate(c);
        }
    };
    loop {
        while running.len() < workers {
            let Some(t) = queue.pop_front() else { break };
            if finished[t] {
                continue;
            }
            attempts[t] += 1;
            let log = crate::files::create_truncated(&log_path(dir, round, t))?;
            let child = Command::new(&exe)
                .arg("distribute-task")
                .arg(dir)
                .arg(round.to_string())
                .arg("--index")
                .arg(t.to_string())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .map_err(|source| DistributeError::Spawn {
                    what: exe.to_string_lossy().into_owned(),
                    source,
                });
            match child {
                Ok(c) => running.push((t, c)),
                Err(e) => {
                    kill_all(&mut running);
                    return Err(e);
                }
            }
        }
        if running.is_empty() {
            return Ok(counts);
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            kill_all(&mut running);
            return Err(DistributeError::Interrupted { round });
        }
        std::thread::sleep(Duration::from_millis(2));
        let mut i = 0;
        while i < running.len() {
            let done = match running[i].1.try_wait() {
                Ok(Some(_)) => true,
                Ok(None) => false,
                Err(_) => true,
            };
            if !done {
                i += 1;
                continue;
            }
            let (t, _) = running.swap_remove(i);
            // Tasks that ended, to take in: this one, and any killed as useless that had
            // written their result first (their answer is as good as any).
            let mut ended = vec![t];
            while let Some(t) = ended.pop() {
                let taken = if result_path(dir, round, t).exists() {
                    match on_result(t) {
                        Ok(v) => v,
                        Err(e) => {
                            kill_all(&mut running);
                            return Err(e);
                        }
                    }
                } else {
                    None
                };
                match taken {
                    Some(useless) => {
                        finished[t] = true;
                        for u in useless {
                            if finished[u] {
                                continue;
                            }
                            finished[u] = true;
                            if let Some(k) = running.iter().position(|(r, _)| *r == u) {
                                let (_, c) = running.swap_remove(k);
                                terminate(c);
                                if result_path(dir, round, u).exists() {
                                    ended.push(u);
                                    continue;
                                }
                            }
                            counts.cancelled += 1;
                        }
                        // Killed tasks may sit before `i`: start the scan again.
                        i = 0;
                    }
                    None if attempts[t] >= ATTEMPTS => {
                        kill_all(&mut running);
                        return Err(DistributeError::TaskFailed {
                            round,
                            task: t,
                            attempts: attempts[t],
                            log: crate::message::shown_path(
                                &log_path(dir, round, t).to_string_lossy(),
                            ),
                        });
                    }
                    None => {
                        finished[t] = false;
                        counts.retried += 1;
                        queue.push_front(t);
                    }
                }
            }
        }
    }
}

/// Stops a worker that an answer made useless: SIGTERM, so that it records the work it did,
/// then SIGKILL if it has not ended within a second.
fn terminate(mut child: Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: `kill` only sends a signal, to our own child, not yet reaped (so its
            // pid cannot have been reused).
            unsafe {
                libc::kill(pid, libc::SIGTERM);
            }
        }
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Runs a Slurm command and returns its standard output.
fn slurm(command: &str, args: &[String]) -> Result<String, DistributeError> {
    let out = Command::new(command)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| DistributeError::Slurm {
            command: command.into(),
            what: format!("{source} (is Slurm's client installed and on PATH?)"),
        })?;
    if !out.status.success() {
        return Err(DistributeError::Slurm {
            command: command.into(),
            what: String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or("no message")
                .to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Quotes `s` for the shell of `sbatch --wrap`.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Runs a round's tasks as a Slurm job array, `workers` tasks at once; a task that left
/// the queue without a result is submitted again in a new array.
fn run_slurm(
    dir: &Path,
    round: usize,
    tasks: usize,
    workers: usize,
    stop: &AtomicBool,
    on_result: &mut OnResult<'_>,
) -> Result<Counts, DistributeError> {
    let exe = worker_exe()?;
    let dir = std::fs::canonicalize(dir).map_err(|source| FileError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut finished = vec![false; tasks];
    let mut attempts = vec![0u32; tasks];
    let mut counts = Counts::default();
    let mut todo: Vec<usize> = (0..tasks).collect();
    loop {
        // Submit what is left as one array.
        for &t in &todo {
            attempts[t] += 1;
        }
        let list = todo
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let wrap = format!(
            "exec {} distribute-task {} {round}",
            sh_quote(&exe.to_string_lossy()),
            sh_quote(&dir.to_string_lossy())
        );
        let out = slurm(
            "sbatch",
            &[
                "--parsable".into(),
                format!("--job-name=cutoff-r{round}"),
                format!("--array={list}%{workers}"),
                "--cpus-per-task=1".into(),
                format!("--chdir={}", dir.to_string_lossy()),
                format!("--output={}/logs/{round}-%a.log", dir.to_string_lossy()),
                format!("--wrap={wrap}"),
            ],
        )?;
        let job = out.trim().split(';').next().unwrap_or("").to_string();
        let mut waiting = todo.clone();
        // The results folder is looked at every 20 ms (a file system call); the controller
        // is asked only every second, to see whether the array has left the queue with
        // tasks that wrote nothing (they died).
        let mut queued = String::from("pending");
        let mut asked: Option<Instant> = None;
        loop {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = slurm("scancel", std::slice::from_ref(&job));
                return Err(DistributeError::Interrupted { round });
            }
            std::thread::sleep(Duration::from_millis(20));
            // The queue before the results: a task writes its result before it leaves, so
            // a task gone from a queue read earlier has its result there by now, or died.
            if asked.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                queued = slurm(
                    "squeue",
                    &[
                        "-h".into(),
                        "-j".into(),
                        job.clone(),
                        "-o".into(),
                        "%i".into(),
                    ],
                )
                // A controller that does not answer says nothing new.
                .unwrap_or_else(|_| queued.clone());
                asked = Some(Instant::now());
            }
            let mut cancel = Vec::new();
            let mut i = 0;
            while i < waiting.len() {
                let t = waiting[i];
                if finished[t] || !result_path(&dir, round, t).exists() {
                    i += 1;
                    continue;
                }
                waiting.swap_remove(i);
                if let Some(useless) = on_result(t)? {
                    finished[t] = true;
                    for u in useless {
                        if !finished[u] {
                            finished[u] = true;
                            counts.cancelled += 1;
                            cancel.push(format!("{job}_{u}"));
                        }
                    }
                }
            }
            if !cancel.is_empty() {
                // A task that ended meanwhile is simply not found.
                let _ = slurm("scancel", &cancel);
            }
            waiting.retain(|&t| !finished[t]);
            if waiting.is_empty() {
                break;
            }
            if queued.trim().is_empty() {
                // The array has left the queue; what has no result by now died.
                let died: Vec<usize> = waiting
                    .iter()
                    .copied()
                    .filter(|&t| !result_path(&dir, round, t).exists())
                    .collect();
                if died.len() == waiting.len() {
                    break;
                }
            }
        }
        todo = (0..tasks).filter(|&t| !finished[t]).collect();
        if todo.is_empty() {
            return Ok(counts);
        }
        if let Some(&t) = todo.iter().find(|&&t| attempts[t] >= ATTEMPTS) {
            return Err(DistributeError::TaskFailed {
                round,
                task: t,
                attempts: attempts[t],
                log: crate::message::shown_path(&log_path(&dir, round, t).to_string_lossy()),
            });
        }
        counts.retried += todo.len();
    }
}
