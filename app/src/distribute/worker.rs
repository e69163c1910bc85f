//! A long-lived worker of a distributed run (docs/design/distributed.md, "Workers that live
//! for the run"): set up once from the driver's `setup`, it keeps one transposition table
//! (and so every subtree it searched) across all the jobs it is given, and takes jobs until
//! told to stop. The transport is the caller's: a pipe ([`PipeLink`]), MPI, or the
//! simulator's direct calls ([`Engine`]).

use super::protocol::{decode, encode, FromWorker, Proved, ToWorker};
use super::{DistributeError, RunSpec};
use crate::position::{Describe, GameVisitor};
use crate::shard::{self, Moves};
use cutoff::proof::{Found, Job};
use cutoff::solver::{Solver, Stop};
use cutoff::tt::file::{Collected, Keep};
use cutoff::tt::TranspositionTable;
use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Table entries a worker sends at a time, at most, while a job runs (every
/// [`HARD_EVERY`]) and after it: the stream of shared entries is bounded (about 10,000
/// entries, some 500 kB, a second a worker), so that a worker that finds many never floods
/// the driver or the others.
pub const HARD_PER_JOB: usize = 512;

/// How often a running job's large-subtree entries go out.
pub const HARD_EVERY: Duration = Duration::from_millis(50);

/// How a worker hears from and answers its driver.
pub trait Link {
    /// The driver's next message, waiting up to `timeout`; `None` if none came.
    fn recv(&mut self, timeout: Duration) -> Result<Option<ToWorker>, DistributeError>;
    /// Sends a message to the driver.
    fn send(&mut self, msg: &FromWorker) -> Result<(), DistributeError>;
}

/// A worker's link over its standard input and output: one message a line.
pub struct PipeLink {
    rx: mpsc::Receiver<Result<String, String>>,
    out: std::io::Stdout,
}

impl PipeLink {
    /// Reads standard input on a thread of its own, so that a running search can be told
    /// to stop.
    pub fn stdio() -> PipeLink {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut lines = stdin.lock();
            loop {
                let mut line = String::new();
                match (&mut lines)
                    .take(super::protocol::MAX_LINE as u64)
                    .read_line(&mut line)
                {
                    Ok(0) => {
                        let _ = tx.send(Err("the driver closed the pipe".into()));
                        return;
                    }
                    Ok(_) if !line.ends_with('\n') => {
                        let _ = tx.send(Err("a message longer than the limit".into()));
                        return;
                    }
                    Ok(_) => {
                        if tx.send(Ok(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e.to_string()));
                        return;
                    }
                }
            }
        });
        PipeLink {
            rx,
            out: std::io::stdout(),
        }
    }
}

impl Link for PipeLink {
    fn recv(&mut self, timeout: Duration) -> Result<Option<ToWorker>, DistributeError> {
        match self.rx.recv_timeout(timeout) {
            Ok(Ok(line)) => decode(&line, "the driver").map(Some),
            // A closed pipe means the driver is gone: stop as told to.
            Ok(Err(_)) | Err(mpsc::RecvTimeoutError::Disconnected) => Ok(Some(ToWorker::Stop)),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    fn send(&mut self, msg: &FromWorker) -> Result<(), DistributeError> {
        let mut out = self.out.lock();
        writeln!(out, "{}", encode(msg))
            .and_then(|_| out.flush())
            .map_err(|e| DistributeError::Protocol {
                from: "the worker".into(),
                what: format!("cannot write to the driver: {e}"),
            })
    }
}

/// This process, named for the logs.
pub fn process_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "localhost".into());
    format!("{host}:{}", std::process::id())
}

/// Serves one driver over `link` until it says stop (or `stop` is raised): the whole life
/// of a worker.
pub fn serve(link: &mut dyn Link, stop: &AtomicBool) -> Result<(), DistributeError> {
    let (run, digest) = loop {
        if stop.load(Relaxed) {
            return Ok(());
        }
        match link.recv(Duration::from_millis(50))? {
            Some(ToWorker::Setup { run, digest }) => break (run, digest),
            Some(ToWorker::Stop) => return Ok(()),
            _ => {}
        }
    };
    let game = run.game.game()?;
    let out = game.visit(Serve {
        link,
        run: &run,
        digest: &digest,
        stop,
    });
    if let Err(e) = &out {
        let _ = link.send(&FromWorker::Failed {
            message: e.to_string(),
        });
    }
    out
}

struct Serve<'a> {
    link: &'a mut dyn Link,
    run: &'a RunSpec,
    digest: &'a str,
    stop: &'a AtomicBool,
}

/// A job waiting or running.
struct Queued {
    id: u64,
    paths: Vec<Vec<String>>,
    at: Option<cutoff::Value>,
    budget: Option<u64>,
}

impl GameVisitor for Serve<'_> {
    type Output = Result<(), DistributeError>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        let engine = Engine::new(game, self.run)?;
        let link = self.link;
        link.send(&FromWorker::Ready {
            name: process_name(),
        })?;
        let mut queue: VecDeque<Queued> = VecDeque::new();
        let mut stopping = false;
        loop {
            if stopping || self.stop.load(Relaxed) {
                return Ok(());
            }
            let Some(job) = queue.pop_front() else {
                if let Some(msg) = link.recv(Duration::from_millis(50))? {
                    handle(msg, &mut queue, None, &mut stopping, link, &engine)?;
                }
                continue;
            };
            let cancel = AtomicBool::new(false);
            let answer = std::thread::scope(|s| {
                let search = s.spawn(|| engine.run(&job.paths, job.at, job.budget, &cancel));
                let mut shared = Instant::now();
                while !search.is_finished() {
                    // Large subtrees as they are found, not only when the job ends: the
                    // others' jobs in the same region gain while this one still runs.
                    if shared.elapsed() >= HARD_EVERY {
                        shared = Instant::now();
                        let hard = engine.hard(HARD_PER_JOB);
                        if !hard.is_empty() {
                            link.send(&FromWorker::Hard { entries: hard })?;
                        }
                    }
                    if self.stop.load(Relaxed) {
                        cancel.store(true, Relaxed);
                        stopping = true;
                    }
                    if let Some(msg) = link.recv(Duration::from_millis(1))? {
                        let running = Some((job.id, &cancel));
                        handle(msg, &mut queue, running, &mut stopping, link, &engine)?;
                    }
                }
                search.join().map_err(|_| DistributeError::Protocol {
                    from: "the worker".into(),
                    what: "a search thread failed".into(),
                })
            })??;
            link.send(&answer.message(job.id, self.digest))?;
            let hard = engine.hard(HARD_PER_JOB);
            if !hard.is_empty() {
                link.send(&FromWorker::Hard { entries: hard })?;
            }
        }
    }
}

/// Takes in one message of the driver: a job is queued, a cancel stops the running job or
/// drops a queued one, shared entries go into the table, stop ends the worker.
fn handle<G: Describe>(
    msg: ToWorker,
    queue: &mut VecDeque<Queued>,
    running: Option<(u64, &AtomicBool)>,
    stopping: &mut bool,
    link: &mut dyn Link,
    engine: &Engine<'_, G>,
) -> Result<(), DistributeError> {
    match msg {
        ToWorker::Job {
            id,
            paths,
            at,
            budget,
        } => queue.push_back(Queued {
            id,
            paths,
            at,
            budget,
        }),
        ToWorker::Cancel { id } => {
            if let Some((r, flag)) = running {
                if r == id {
                    flag.store(true, Relaxed);
                }
            }
            if let Some(i) = queue.iter().position(|q| q.id == id) {
                queue.remove(i);
                link.send(&FromWorker::Cancelled {
                    id,
                    nodes: 0,
                    seconds: 0.0,
                })?;
            }
        }
        ToWorker::Share { entries } => engine.share(&entries),
        ToWorker::Stop => {
            *stopping = true;
            if let Some((_, flag)) = running {
                flag.store(true, Relaxed);
            }
        }
        ToWorker::Setup { .. } => {}
    }
    Ok(())
}

/// How a job ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ended {
    /// It ran to its end (`complete`), or to its budget.
    Answered {
        /// What each position proved.
        proved: Vec<Proved>,
        /// False where a test ran out of its budget.
        complete: bool,
        /// Nodes searched.
        nodes: u64,
        /// Seconds of search.
        seconds: f64,
    },
    /// Its cancel flag stopped it.
    Cancelled {
        /// Nodes searched before it stopped.
        nodes: u64,
        /// Seconds it ran.
        seconds: f64,
    },
}

impl Ended {
    /// The message that reports it.
    pub fn message(&self, id: u64, digest: &str) -> FromWorker {
        match self {
            Ended::Answered {
                proved,
                complete,
                nodes,
                seconds,
            } => FromWorker::Answer {
                id,
                digest: digest.to_string(),
                proved: proved.clone(),
                complete: *complete,
                nodes: *nodes,
                seconds: *seconds,
            },
            Ended::Cancelled { nodes, seconds } => FromWorker::Cancelled {
                id,
                nodes: *nodes,
                seconds: *seconds,
            },
        }
    }
}

/// A worker's searching half: the game, the run's settings and the table it keeps across
/// jobs. The simulator drives one of these a virtual worker.
pub struct Engine<'a, G: Describe> {
    game: &'a G,
    run: &'a RunSpec,
    tt: TranspositionTable,
    /// The entries of large subtrees, gathered for the other workers (games with table
    /// files only).
    keep: Option<(Keep, Collected)>,
}

impl<'a, G: Describe> Engine<'a, G> {
    /// A worker for `run`, with its table made.
    pub fn new(game: &'a G, run: &'a RunSpec) -> Result<Self, DistributeError> {
        let tt = TranspositionTable::try_new(run.table_mib)?;
        // Touch every page now, at the worker's start, rather than in its first jobs: the
        // system's page faults (and huge-page zeroing) cost tens of milliseconds a table.
        tt.clear();
        let keep = game
            .table_identity()
            .map(|_| Keep::collecting(run.hard_nodes, 16 * HARD_PER_JOB));
        Ok(Engine {
            game,
            run,
            tt,
            keep,
        })
    }

    /// Takes shared entries into the table.
    pub fn share<S: AsRef<str>>(&self, entries: &[S]) {
        if self.keep.is_some() {
            cutoff::tt::file::store_lines(entries, &self.tt);
        }
    }

    /// Up to `max` entries of large subtrees found since the last call.
    pub fn hard(&self, max: usize) -> Vec<String> {
        self.keep
            .as_ref()
            .map_or_else(Vec::new, |(_, c)| c.take(max))
    }

    /// Runs a job: guesses of `paths` (`at` absent) or the test "at least `at`?" of the
    /// one position, within `budget` nodes; `cancel` stops it.
    pub fn run(
        &self,
        paths: &[Vec<String>],
        at: Option<cutoff::Value>,
        budget: Option<u64>,
        cancel: &AtomicBool,
    ) -> Result<Ended, DistributeError> {
        let start = Instant::now();
        let range = self.game.value_range();
        let mut proved = Vec::with_capacity(paths.len());
        let mut nodes = 0;
        let mut complete = true;
        for path in paths {
            let pos = shard::play_path(self.game, Moves::of(path)?.path())?;
            let solver = match at {
                None => Solver::new(self.game)
                    .position(pos)
                    .threads(1)
                    .want_move(false)
                    .nodes(Some(self.run.guess_nodes)),
                Some(at) => cutoff::proof::test_solver(self.game, pos, at).exact_nodes(budget),
            };
            let mut solver = solver.table(&self.tt).stop_flag(cancel);
            if let (Some((keep, _)), Some(_)) = (&self.keep, at) {
                solver = solver.keep(keep);
            }
            let r = solver.run()?;
            nodes += r.stats.nodes;
            if r.stopped == Some(Stop::Interrupted) {
                return Ok(Ended::Cancelled {
                    nodes,
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
            let found = match at {
                None => Found::of_guess(range, r.verdict),
                Some(_) if r.stopped == Some(Stop::Budget) => {
                    complete = false;
                    Found::of_stopped(range, r.verdict)
                }
                Some(at) => Found::of_test(range, Job { leaf: 0, at }, r.verdict),
            };
            proved.push(Proved {
                lo: found.lo,
                hi: found.hi,
                guess: found.guess,
            });
        }
        Ok(Ended::Answered {
            proved,
            complete,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        })
    }
}
