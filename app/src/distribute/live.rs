//! The driver of a distributed run without rounds (docs/design/distributed.md, "The live
//! driver"): long-lived workers, each keeping its table, are kept busy with the jobs the
//! proof needs now; an answer updates the proof at once, a job the proof no longer needs is
//! cancelled by message, and a test that runs out of its node budget is either opened a ply
//! deeper (when a worker would otherwise sit idle) or sent again, with twice the budget, to
//! the worker whose table holds its subtree.
//!
//! The driver is single-threaded and knows workers only through a [`Transport`]: child
//! processes over pipes (`super::local`), MPI ranks (the command's, through [`MpiStart`]), or
//! the simulator's virtual workers (`super::simulate`).
//!
//! The run folder holds `run.json` (the settings; its digest names the run), `answers.jsonl`
//! (every proven answer, one line each, appended and flushed as it arrives: a driver killed
//! mid-line leaves one torn last line, which a resumed run skips) and `hard.tab` (the shared
//! table entries, [`cutoff::tt::file`]'s format). A driver started again on the folder reads
//! both and goes on from what they prove.

use super::protocol::{FromWorker, Proved, ToWorker};
use super::{lock, read_run, write_json, DistributeError, RunSpec};
use crate::files::{open_append, FileError, Lines};
use crate::position::Describe;
use crate::shard::{self, Moves};
use cutoff::proof::{Found, Job, Prover, Step};
use cutoff::Value;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The least node budget of a test: below it, a job costs more in messages and restarts
/// than it searches.
pub const MIN_JOB_NODES: u64 = 1 << 18;

/// Workers that would otherwise sit idle before a test out of budget is opened a ply
/// deeper: the children's guesses and repairs cost more than two workers gain (Begin-Hard's
/// `53476` on two workers: 11.0 M nodes without a split, 21.9 M with one).
const SPLIT_IDLE: usize = 3;

/// Workers that would otherwise sit idle before a test out of budget whose position is
/// expected to pass it is opened a ply deeper.
const SPLIT_IDLE_PASS: usize = 8;

/// Guessing searches in one job, at most.
const GUESSES_PER_JOB: usize = 64;

/// Times a lost worker is started again, at most.
pub const RESTARTS: u32 = 3;

/// Entries of `hard.tab` sent in one `share` message.
const SHARE_CHUNK: usize = 4096;

/// What happened at a worker, as the transport tells the driver.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A message from worker `.0`.
    Message(usize, FromWorker),
    /// Worker `.0` is gone (its process ended, its pipe closed), for the reason given.
    Lost(usize, String),
}

/// How the driver reaches its workers.
pub trait Transport {
    /// The workers, numbered from 0.
    fn workers(&self) -> usize;
    /// Sends `msg` to worker `worker`; a worker that cannot be reached is reported by a
    /// later [`Event::Lost`], not here.
    fn send(&mut self, worker: usize, msg: &ToWorker) -> Result<(), DistributeError>;
    /// The next event, waiting up to `timeout`; `None` if none came.
    fn recv(&mut self, timeout: Duration) -> Result<Option<Event>, DistributeError>;
    /// Seconds since the transport started: the wall clock, or the simulation's.
    fn now(&self) -> f64;
    /// Starts a lost worker again; false where it cannot be.
    fn restart(&mut self, _worker: usize) -> Result<bool, DistributeError> {
        Ok(false)
    }
    /// Seconds the transport itself spent searching (the simulator runs its virtual
    /// workers' jobs inside [`Transport::send`]): not the driver's own time.
    fn search_seconds(&self) -> f64 {
        0.0
    }
    /// Tells every worker to stop and waits (briefly) for them.
    fn finish(&mut self) -> Result<(), DistributeError>;
    /// The transport's name, for the report.
    fn name(&self) -> &'static str;
}

/// This process's part in an MPI job (`--backend mpi`), as [`MpiStart`] tells it.
pub enum MpiRole {
    /// Rank 0: drives the run over the other ranks.
    Driver(Box<dyn Transport>),
    /// Any other rank: a worker of rank 0 ([`super::worker::serve`]).
    Worker(Box<dyn super::worker::Link>),
}

/// Starts MPI and says this rank's part. A front end built with MPI gives it
/// ([`crate::commands::distribute::Options::mpi`]); the library has none of its own, so that
/// it builds without an MPI library (the command's is `cutoff_cli::mpi::start`, behind its
/// `mpi` feature).
pub type MpiStart = fn() -> Result<MpiRole, DistributeError>;

/// How to run, besides what `run.json` holds.
pub struct LiveSettings<'a> {
    /// What `run.json` holds.
    pub spec: RunSpec,
    /// The run folder.
    pub dir: PathBuf,
    /// The first node budget of a test (`None`: from the work so far and the workers, at
    /// least [`MIN_JOB_NODES`]).
    pub job_nodes: Option<u64>,
    /// Run the brothers the proof may need next on workers that would otherwise sit idle.
    pub speculate: bool,
    /// The opening book whose values guess the positions it holds.
    pub book: Option<&'a crate::book::Book>,
    /// Raised to stop the run; the folder keeps every answer.
    pub stop: &'a AtomicBool,
    /// Log lines (workers lost, answers refused), for the front end to show.
    pub note: &'a (dyn Fn(&str) + Sync),
}

/// What a live run found and cost: what the command reports, and `summary.json`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LiveSummary {
    /// The root's exact value.
    pub value: Value,
    /// A best move at the root (absent at a finished position).
    pub best_move: Option<String>,
    /// Every node the workers searched: guesses, tests, and cancelled jobs' work.
    pub nodes: u64,
    /// Nodes of the guessing jobs.
    pub guess_nodes: u64,
    /// Nodes of jobs cancelled while they ran (part of `nodes`).
    pub cancelled_nodes: u64,
    /// Jobs answered (guess jobs and tests).
    pub jobs: usize,
    /// Jobs cancelled.
    pub cancelled: usize,
    /// Tests that ran out of their budget and were opened a ply deeper.
    pub splits: usize,
    /// Tests that ran out of their budget and were sent again with twice the budget.
    pub resent: usize,
    /// Jobs run on a worker other than the one whose table held their position.
    pub moved: usize,
    /// Speculative jobs sent (the proof did not need them yet).
    pub speculative: usize,
    /// Workers lost (their jobs ran elsewhere).
    pub lost: usize,
    /// Answers read from the folder at the start (a resumed run).
    pub resumed: usize,
    /// Shared table entries received from the workers.
    pub shared_entries: u64,
    /// Tests "at least w?" settled at the root.
    pub tests: usize,
    /// Frontier positions (after any splits).
    pub frontier: usize,
    /// Frontier positions some test answered for.
    pub tested: usize,
    /// Frontier positions whose value was settled exactly.
    pub solved: usize,
    /// Seconds from the start to the value, on the transport's clock: the wall clock, or
    /// the simulated one.
    pub seconds: f64,
    /// Wall seconds this invocation took (the simulation's own time, for `simulate`).
    pub wall_seconds: f64,
    /// Wall seconds the driver spent deciding (its own work, not waiting).
    pub driver_seconds: f64,
    /// The longest single job, in seconds of search.
    pub longest_job_seconds: f64,
    /// Workers.
    pub workers: usize,
    /// The transport.
    pub backend: String,
}

/// One proven answer, as `answers.jsonl` keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AnswerLine {
    /// The run's digest.
    pub digest: String,
    /// The position, by its moves from the root.
    pub path: Vec<String>,
    /// The test's threshold (absent: a guess).
    pub at: Option<Value>,
    /// What it proved.
    pub proved: Proved,
    /// Nodes the job's search of this position took (a guess job's share).
    pub nodes: u64,
    /// False where a test ran out of its budget.
    pub complete: bool,
}

/// One job as `jobs.jsonl` keeps it: where and when it ran and how it ended, for the
/// study of a run's schedule (`scripts/distribute-timeline.py`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobLine {
    /// The job's number in this invocation.
    pub id: u64,
    /// The worker that ran it.
    pub worker: usize,
    /// `guess`, `test` (the proof needed it when sent) or `spare` (speculative).
    pub kind: String,
    /// The position (the first, for a guess job), by its moves from the root.
    pub path: Vec<String>,
    /// The test's threshold (absent: a guess).
    pub at: Option<Value>,
    /// The root's threshold under test when the job was sent.
    pub root_at: Option<Value>,
    /// When it was sent and when its end reached the driver, on the transport's clock.
    pub sent: f64,
    /// See `sent`.
    pub ended: f64,
    /// Seconds of search the worker reported.
    pub seconds: f64,
    /// Nodes searched.
    pub nodes: u64,
    /// `answered`, `budget` (out of its budget), `cancelled` or `lost`.
    pub outcome: String,
}

/// What a worker is doing.
#[derive(Clone, Debug)]
struct Running {
    id: u64,
    work: Work,
    /// A cancel was sent.
    cancelled: bool,
    /// The test's budget.
    budget: Option<u64>,
    /// Sent as spare (speculative) work.
    spare: bool,
    /// The root's threshold under test when sent.
    root_at: Option<Value>,
    /// When it was sent, on the transport's clock.
    sent: f64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Work {
    Guess(Vec<usize>),
    Test(Job),
}

/// Runs the distributed solve of `game`'s initial position on `transport`'s workers,
/// resuming what the folder holds. The transport is a trait object: a message costs far more
/// than the virtual call, and the driver is then built once a game, not once a game and a
/// transport (docs/design/builds.md).
pub fn drive<G: Describe>(
    game: &G,
    settings: &LiveSettings<'_>,
    transport: &mut dyn Transport,
) -> Result<LiveSummary, DistributeError> {
    let wall = Instant::now();
    let dir = &settings.dir;
    crate::files::create_folder(dir)?;
    let _lock = lock(dir)?;
    let run = dir.join("run.json");
    let digest = if run.exists() {
        let (old, digest) = read_run(dir)?;
        if old != settings.spec {
            return Err(DistributeError::OtherRun {
                dir: crate::message::shown_path(&dir.to_string_lossy()),
                what: super::first_difference(&old, &settings.spec),
            });
        }
        digest
    } else {
        write_json(&run, &settings.spec)?;
        read_run(dir)?.1
    };
    let workers = transport.workers();
    let mut d = Live {
        game,
        settings,
        digest,
        prover: Prover::new(game, game.initial(), settings.spec.depth)?,
        facts: HashMap::new(),
        costs: HashMap::new(),
        owner: HashMap::new(),
        budgets: HashMap::new(),
        running: vec![None; workers],
        alive: vec![true; workers],
        restarts: vec![0; workers],
        next_id: 0,
        answers: None,
        jobs: None,
        hard: None,
        summary: LiveSummary {
            workers,
            backend: transport.name().to_string(),
            ..LiveSummary::default()
        },
        busy: Duration::ZERO,
    };
    d.prover.trust_guesses(settings.book.is_some());
    d.resume()?;
    d.answers = Some(open_append(&dir.join("answers.jsonl"))?);
    d.jobs = Some(std::io::BufWriter::new(open_append(
        &dir.join("jobs.jsonl"),
    )?));
    let result = d.run(transport);
    let finish = transport.finish();
    if let Some(f) = &mut d.jobs {
        f.flush()
            .map_err(|e| write_error(&dir.join("jobs.jsonl"), e))?;
    }
    let (value, best_move) = result?;
    finish?;
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
    s.seconds = transport.now();
    s.wall_seconds = wall.elapsed().as_secs_f64();
    s.driver_seconds = (d.busy.as_secs_f64() - transport.search_seconds()).max(0.0);
    write_json(&dir.join("summary.json"), &d.summary)?;
    Ok(d.summary)
}

struct Live<'a, G: Describe> {
    game: &'a G,
    settings: &'a LiveSettings<'a>,
    digest: String,
    prover: Prover<G>,
    /// Every fact proved so far, by position key: applied to a leaf when it appears.
    facts: HashMap<u64, Vec<Found>>,
    /// The most nodes a test of each position took, by key.
    costs: HashMap<u64, u64>,
    /// The worker whose table holds each position's subtree, by key.
    owner: HashMap<u64, usize>,
    /// The next budget of a position's test, where a test of it ran out before.
    budgets: HashMap<u64, u64>,
    running: Vec<Option<Running>>,
    alive: Vec<bool>,
    restarts: Vec<u32>,
    next_id: u64,
    answers: Option<std::fs::File>,
    /// `jobs.jsonl`: one line a job that ended.
    jobs: Option<std::io::BufWriter<std::fs::File>>,
    hard: Option<std::fs::File>,
    summary: LiveSummary,
    /// The driver's own time.
    busy: Duration,
}

impl<G: Describe> Live<'_, G> {
    fn note(&self, line: &str) {
        (self.settings.note)(line);
    }

    fn key(&self, leaf: usize) -> u64 {
        self.game.key(&self.prover.position(leaf))
    }

    fn path(&self, leaf: usize) -> Vec<String> {
        super::leaf_path(self.game, &self.prover, leaf)
    }

    /// Reads the answers and shared entries an earlier driver left in the folder.
    fn resume(&mut self) -> Result<(), DistributeError> {
        let path = self.settings.dir.join("answers.jsonl");
        let lines = match Lines::open(&path, super::protocol::MAX_LINE) {
            Ok(lines) => lines,
            Err(FileError::Read { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(())
            }
            Err(e) => return Err(e.into()),
        };
        let (lo, hi) = self.game.value_range();
        let mut refused = 0usize;
        for line in lines {
            let line = line?;
            // A torn last line (a driver killed mid-write), another run's line or one that
            // does not replay is skipped: its work is done again, never trusted.
            let Ok(a) = serde_json::from_str::<AnswerLine>(&line) else {
                refused += 1;
                continue;
            };
            let p = a.proved;
            if a.digest != self.digest || p.lo > p.hi || p.lo < lo || p.hi > hi {
                refused += 1;
                continue;
            }
            let Ok(pos) = Moves::of(&a.path).and_then(|m| shard::play_path(self.game, m.path()))
            else {
                refused += 1;
                continue;
            };
            let key = self.game.key(&pos);
            self.fact(key, found_of(p));
            if a.at.is_some() {
                let c = self.costs.entry(key).or_default();
                *c = (*c).max(a.nodes);
            }
            self.summary.resumed += 1;
        }
        if refused > 0 {
            self.note(&format!(
                "distribute: {refused} line(s) of {} skipped (torn, or not this run's)",
                crate::message::shown_path(&path.to_string_lossy())
            ));
        }
        Ok(())
    }

    /// Records a fact about the position `key` and gives it to its leaf, if it has one.
    fn fact(&mut self, key: u64, found: Found) {
        self.facts.entry(key).or_default().push(found);
        if let Some(leaf) = self.prover.leaf_of(key) {
            self.prover.learn(leaf, found);
        }
    }

    /// Sends the run and the shared entries so far to worker `w`.
    fn setup(&mut self, transport: &mut dyn Transport, w: usize) -> Result<(), DistributeError> {
        transport.send(
            w,
            &ToWorker::Setup {
                run: self.settings.spec.clone(),
                digest: self.digest.clone(),
            },
        )?;
        let hard = self.settings.dir.join("hard.tab");
        if self.game.table_identity().is_some() && hard.exists() {
            let mut chunk = Vec::new();
            // The first line names the format and the game; a worker skips any line that
            // fails its check.
            for line in Lines::open(&hard, 1 << 16)?.skip(1) {
                chunk.push(line?);
                if chunk.len() == SHARE_CHUNK {
                    let entries = std::mem::take(&mut chunk);
                    transport.send(w, &ToWorker::Share { entries })?;
                }
            }
            if !chunk.is_empty() {
                transport.send(w, &ToWorker::Share { entries: chunk })?;
            }
        }
        Ok(())
    }

    /// The whole run: the value and a best move.
    fn run(
        &mut self,
        transport: &mut dyn Transport,
    ) -> Result<(Value, Option<G::Move>), DistributeError> {
        for w in 0..transport.workers() {
            self.setup(transport, w)?;
        }
        loop {
            let t = Instant::now();
            if self.settings.stop.load(Relaxed) {
                return Err(DistributeError::Stopped);
            }
            let (wanted, spare, needed) = match self.prover.step() {
                Step::Done { value, best_move } => return Ok((value, best_move)),
                Step::Guess(leaves) => {
                    let leaves = self.guess_from_book(leaves);
                    if leaves.is_empty() {
                        continue;
                    }
                    (self.guess_work(leaves), Vec::new(), Vec::new())
                }
                Step::Test { jobs, .. } => {
                    // The next root test's jobs only on a cluster: on a few workers, the
                    // brothers of the test under way are needed sooner.
                    let spare = if self.settings.speculate {
                        let next = self.running.len() > SPLIT_IDLE_PASS;
                        self.prover.speculative(self.running.len(), next)
                    } else {
                        Vec::new()
                    };
                    let wanted = jobs.iter().copied().map(Work::Test).collect();
                    (wanted, spare, jobs)
                }
            };
            self.cancel_useless(transport, &needed, &spare)?;
            self.make_room(transport, &needed)?;
            self.assign(transport, wanted, spare)?;
            if self.running.iter().all(Option::is_none) {
                return Err(DistributeError::NoWorkers {
                    logs: crate::message::shown_path(
                        &self.settings.dir.join("logs").to_string_lossy(),
                    ),
                });
            }
            self.busy += t.elapsed();
            if let Some(ev) = transport.recv(Duration::from_millis(100))? {
                let t = Instant::now();
                self.event(transport, ev)?;
                self.busy += t.elapsed();
            }
        }
    }

    /// Guesses from the book for the positions it holds; the others are returned.
    fn guess_from_book(&mut self, leaves: Vec<usize>) -> Vec<usize> {
        super::guess_from_book(self.game, &mut self.prover, self.settings.book, leaves)
    }

    /// The guesses not already running, in jobs of up to [`GUESSES_PER_JOB`], enough
    /// jobs for every idle worker.
    fn guess_work(&self, leaves: Vec<usize>) -> Vec<Work> {
        let running: Vec<usize> = self
            .running
            .iter()
            .flatten()
            .filter_map(|r| match &r.work {
                Work::Guess(ls) => Some(ls.clone()),
                Work::Test(_) => None,
            })
            .flatten()
            .collect();
        let mut waiting: Vec<usize> = leaves
            .into_iter()
            .filter(|l| !running.contains(l))
            .collect();
        let idle = self.idle().len().max(1);
        let size = GUESSES_PER_JOB.min(waiting.len().div_ceil(idle).max(1));
        // Positions of one worker's subtree together, so that each job goes to that worker.
        waiting.sort_by_key(|&l| self.owner.get(&self.key(l)).copied().unwrap_or(usize::MAX));
        waiting
            .chunks(size)
            .map(|c| Work::Guess(c.to_vec()))
            .collect()
    }

    fn idle(&self) -> Vec<usize> {
        (0..self.running.len())
            .filter(|&w| self.alive[w] && self.running[w].is_none())
            .collect()
    }

    /// Cancels every running test that neither the proof (`needed`, the jobs of the test
    /// under way: none while guesses are needed) nor the spare work needs.
    fn cancel_useless(
        &mut self,
        transport: &mut dyn Transport,
        needed: &[Job],
        spare: &[Job],
    ) -> Result<(), DistributeError> {
        if needed.is_empty() && spare.is_empty() {
            // Guesses first: a running test may be needed once they are in.
            return Ok(());
        }
        for w in 0..self.running.len() {
            let Some(r) = &self.running[w] else { continue };
            let Work::Test(job) = r.work else { continue };
            if r.cancelled || needed.contains(&job) || spare.contains(&job) {
                continue;
            }
            let id = r.id;
            transport.send(w, &ToWorker::Cancel { id })?;
            if let Some(r) = &mut self.running[w] {
                r.cancelled = true;
            }
        }
        Ok(())
    }

    /// Workers running spare work not yet cancelled, the last sent first.
    fn on_spare(&self) -> Vec<usize> {
        let mut ws: Vec<(u64, usize)> = (0..self.running.len())
            .filter_map(|w| {
                let r = self.running[w].as_ref()?;
                (r.spare && !r.cancelled).then_some((r.id, w))
            })
            .collect();
        ws.sort_unstable_by_key(|&(id, _)| std::cmp::Reverse(id));
        ws.into_iter().map(|(_, w)| w).collect()
    }

    /// Cancels spare work, the latest sent first, where needed jobs wait and no worker is
    /// idle for them: on a cluster, a needed job never waits behind a speculative one. On a
    /// few workers the spare job runs on its own position's table and is often needed
    /// soon: cancelling it cost nodes (Begin-Hard on two workers: 1.57x and 1.60x the
    /// direct solve with it, 1.53x without).
    fn make_room(
        &mut self,
        transport: &mut dyn Transport,
        needed: &[Job],
    ) -> Result<(), DistributeError> {
        if self.running.len() <= SPLIT_IDLE_PASS {
            return Ok(());
        }
        let running: Vec<Job> = self
            .running
            .iter()
            .flatten()
            .filter_map(|r| match r.work {
                Work::Test(j) => Some(j),
                Work::Guess(_) => None,
            })
            .collect();
        let waiting = needed
            .iter()
            .filter(|j| !running.iter().any(|r| r.leaf == j.leaf))
            .count();
        let freeing = self
            .running
            .iter()
            .flatten()
            .filter(|r| r.cancelled)
            .count();
        let short = waiting.saturating_sub(self.idle().len() + freeing);
        for w in self.on_spare().into_iter().take(short) {
            let Some(r) = &mut self.running[w] else {
                continue;
            };
            // A spare job the proof now needs stays.
            if let Work::Test(j) = r.work {
                if needed.contains(&j) {
                    continue;
                }
            }
            r.cancelled = true;
            let id = r.id;
            transport.send(w, &ToWorker::Cancel { id })?;
        }
        Ok(())
    }

    /// The keys of a leaf's position and of its ancestors below the root, nearest first.
    fn lineage(&self, leaf: usize) -> Vec<u64> {
        let mut pos = self.game.initial();
        let mut keys = Vec::new();
        for &mv in self.prover.path(leaf) {
            pos = self.game.play(&pos, mv);
            keys.push(self.game.key(&pos));
        }
        keys.reverse();
        keys
    }

    /// The worker a job should go to: the one whose table holds its position, or else the
    /// nearest ancestor's (siblings share most of their subtrees through transpositions).
    fn home(&self, work: &Work) -> Option<usize> {
        let leaf = match work {
            Work::Guess(ls) => ls[0],
            Work::Test(j) => j.leaf,
        };
        self.lineage(leaf)
            .iter()
            .find_map(|k| self.owner.get(k).copied())
    }

    /// Records `w` as the worker of `leaf` and of its ancestors that have none yet.
    fn own(&mut self, leaf: usize, w: usize) {
        let keys = self.lineage(leaf);
        if let Some(&k) = keys.first() {
            self.owner.insert(k, w);
        }
        for &k in keys.iter().skip(1) {
            self.owner.entry(k).or_insert(w);
        }
    }

    /// The expected cost of a job, for the order in which waiting jobs are sent: the most
    /// a test of its position took before (unknown first: it may be the longest).
    fn cost(&self, work: &Work) -> u64 {
        match work {
            Work::Guess(_) => u64::MAX,
            Work::Test(j) => self
                .costs
                .get(&self.key(j.leaf))
                .copied()
                .unwrap_or(u64::MAX - 1),
        }
    }

    /// Sends waiting work to idle workers: first each worker's own positions, then, so that
    /// no worker sits idle, any; the spare (speculative) work only where no needed job waits.
    fn assign(
        &mut self,
        transport: &mut dyn Transport,
        wanted: Vec<Work>,
        spare: Vec<Job>,
    ) -> Result<(), DistributeError> {
        let busy: Vec<Work> = self
            .running
            .iter()
            .flatten()
            .map(|r| r.work.clone())
            .collect();
        let busy_leaf = |w: &Work| {
            busy.iter().any(|b| match (b, w) {
                (Work::Test(a), Work::Test(b)) => a.leaf == b.leaf,
                _ => false,
            })
        };
        // Each job's home is found once: it replays the position's moves.
        let mut waiting: Vec<(Work, Option<usize>)> = wanted
            .into_iter()
            .filter(|w| !busy.contains(w))
            .map(|w| {
                let h = self.home(&w);
                (w, h)
            })
            .collect();
        waiting.sort_by_cached_key(|(w, _)| std::cmp::Reverse(self.cost(w)));
        let mut spare: Vec<(Work, Option<usize>)> = spare
            .into_iter()
            .map(Work::Test)
            .filter(|w| !busy_leaf(w) && !waiting.iter().any(|(x, _)| x == w))
            .map(|w| {
                let h = self.home(&w);
                (w, h)
            })
            .collect();
        let mut idle = self.idle();
        // Each idle worker takes the costliest waiting job of its own.
        for &w in &idle.clone() {
            if let Some(i) = waiting.iter().position(|(_, h)| *h == Some(w)) {
                let (job, _) = waiting.remove(i);
                self.send_job(transport, w, job, false)?;
                idle.retain(|&x| x != w);
            }
        }
        let mut unused = Vec::new();
        for w in idle {
            if !waiting.is_empty() {
                let (job, home) = waiting.remove(0);
                if home.is_some_and(|h| h != w) {
                    self.summary.moved += 1;
                }
                self.send_job(transport, w, job, false)?;
            } else if let Some(i) = spare.iter().position(|(_, h)| h.is_none_or(|h| h == w)) {
                let (job, _) = spare.remove(i);
                self.summary.speculative += 1;
                self.send_job(transport, w, job, true)?;
            } else {
                unused.push(w);
            }
        }
        // Spare work on another worker's position searches a cold table for a job that may
        // never be needed: worth it only where many workers would otherwise sit idle.
        if unused.len() >= SPLIT_IDLE_PASS {
            for w in unused {
                if spare.is_empty() {
                    break;
                }
                let (job, _) = spare.remove(0);
                self.summary.speculative += 1;
                self.summary.moved += 1;
                self.send_job(transport, w, job, true)?;
            }
        }
        Ok(())
    }

    /// The node budget of a test of the position `key`: twice what ran out before, else
    /// the set one, else the work so far shared among the workers.
    fn budget(&self, key: u64) -> u64 {
        if let Some(&b) = self.budgets.get(&key) {
            return b;
        }
        self.settings.job_nodes.unwrap_or_else(|| {
            (self.summary.nodes / self.running.len().max(1) as u64).max(MIN_JOB_NODES)
        })
    }

    fn send_job(
        &mut self,
        transport: &mut dyn Transport,
        w: usize,
        work: Work,
        spare: bool,
    ) -> Result<(), DistributeError> {
        let id = self.next_id;
        self.next_id += 1;
        let (paths, at, budget) = match &work {
            Work::Guess(ls) => (ls.iter().map(|&l| self.path(l)).collect(), None, None),
            Work::Test(j) => {
                let key = self.key(j.leaf);
                (vec![self.path(j.leaf)], Some(j.at), Some(self.budget(key)))
            }
        };
        match &work {
            Work::Guess(ls) => {
                for &l in ls {
                    self.own(l, w);
                }
            }
            Work::Test(j) => self.own(j.leaf, w),
        }
        transport.send(
            w,
            &ToWorker::Job {
                id,
                paths,
                at,
                budget,
            },
        )?;
        self.running[w] = Some(Running {
            id,
            work,
            cancelled: false,
            budget,
            spare,
            root_at: self.prover.testing(),
            sent: transport.now(),
        });
        Ok(())
    }

    /// Appends `r`'s line to `jobs.jsonl`.
    fn log_job(
        &mut self,
        now: f64,
        w: usize,
        r: &Running,
        seconds: f64,
        nodes: u64,
        outcome: &str,
    ) -> Result<(), DistributeError> {
        if self.jobs.is_none() {
            return Ok(());
        }
        let (kind, leaf, at) = match &r.work {
            Work::Guess(ls) => ("guess", ls[0], None),
            Work::Test(j) => (if r.spare { "spare" } else { "test" }, j.leaf, Some(j.at)),
        };
        let line = JobLine {
            id: r.id,
            worker: w,
            kind: kind.into(),
            path: self.path(leaf),
            at,
            root_at: r.root_at,
            sent: r.sent,
            ended: now,
            seconds,
            nodes,
            outcome: outcome.into(),
        };
        let text = serde_json::to_string(&line).map_err(|e| DistributeError::Protocol {
            from: "the driver".into(),
            what: e.to_string(),
        })?;
        let path = self.settings.dir.join("jobs.jsonl");
        if let Some(f) = &mut self.jobs {
            writeln!(f, "{text}").map_err(|e| write_error(&path, e))?;
        }
        Ok(())
    }

    /// Takes in one event.
    fn event(&mut self, transport: &mut dyn Transport, ev: Event) -> Result<(), DistributeError> {
        match ev {
            Event::Message(
                w,
                FromWorker::Answer {
                    id,
                    digest,
                    proved,
                    complete,
                    nodes,
                    seconds,
                },
            ) => {
                let Some(r) = self.running[w].take_if(|r| r.id == id) else {
                    return Ok(());
                };
                if digest != self.digest {
                    self.note(&format!("distribute: worker {w} answered for another run"));
                    return Ok(());
                }
                let outcome = if complete { "answered" } else { "budget" };
                self.log_job(transport.now(), w, &r, seconds, nodes, outcome)?;
                self.answer(w, r, proved, complete, nodes, seconds)
            }
            Event::Message(w, FromWorker::Cancelled { id, nodes, seconds }) => {
                if let Some(r) = self.running[w].take_if(|r| r.id == id) {
                    self.log_job(transport.now(), w, &r, seconds, nodes, "cancelled")?;
                    self.summary.cancelled += 1;
                    self.summary.cancelled_nodes += nodes;
                    self.summary.nodes += nodes;
                }
                Ok(())
            }
            Event::Message(w, FromWorker::Hard { entries }) => {
                self.summary.shared_entries += entries.len() as u64;
                self.keep_hard(&entries)?;
                let msg = ToWorker::Share { entries };
                for o in 0..self.running.len() {
                    if o != w && self.alive[o] {
                        transport.send(o, &msg)?;
                    }
                }
                Ok(())
            }
            Event::Message(_, FromWorker::Ready { .. }) => Ok(()),
            Event::Message(w, FromWorker::Failed { message }) => self.lost(transport, w, &message),
            Event::Lost(w, why) => self.lost(transport, w, &why),
        }
    }

    /// A worker is gone: its job waits for another, and it is started again if it can be.
    fn lost(
        &mut self,
        transport: &mut dyn Transport,
        w: usize,
        why: &str,
    ) -> Result<(), DistributeError> {
        if !self.alive[w] {
            return Ok(());
        }
        self.alive[w] = false;
        if let Some(r) = self.running[w].take() {
            self.log_job(transport.now(), w, &r, 0.0, 0, "lost")?;
        }
        self.summary.lost += 1;
        self.owner.retain(|_, o| *o != w);
        self.note(&format!("distribute: worker {w} lost: {why}"));
        if self.restarts[w] < RESTARTS && transport.restart(w)? {
            self.restarts[w] += 1;
            self.alive[w] = true;
            self.setup(transport, w)?;
        }
        Ok(())
    }

    /// Appends shared entries to `hard.tab`, for a resumed run's workers.
    fn keep_hard(&mut self, entries: &[String]) -> Result<(), DistributeError> {
        let Some(id) = self.game.table_identity() else {
            return Ok(());
        };
        let path = self.settings.dir.join("hard.tab");
        if self.hard.is_none() {
            let mut f = open_append(&path)?;
            if f.metadata().map(|m| m.len()).unwrap_or(0) == 0 {
                writeln!(f, "{}", cutoff::tt::file::header(&id))
                    .map_err(|e| write_error(&path, e))?;
            }
            self.hard = Some(f);
        }
        if let Some(f) = &mut self.hard {
            let mut text = entries.join("\n");
            text.push('\n');
            f.write_all(text.as_bytes())
                .map_err(|e| write_error(&path, e))?;
        }
        Ok(())
    }

    /// Takes in a job's answer: its facts at once, its cost, and for a test that ran out of
    /// its budget, a split (where a worker would sit idle) or the same test again.
    fn answer(
        &mut self,
        w: usize,
        r: Running,
        proved: Vec<Proved>,
        complete: bool,
        nodes: u64,
        seconds: f64,
    ) -> Result<(), DistributeError> {
        self.summary.nodes += nodes;
        self.summary.jobs += 1;
        self.summary.longest_job_seconds = self.summary.longest_job_seconds.max(seconds);
        let (leaves, at) = match &r.work {
            Work::Guess(ls) => {
                self.summary.guess_nodes += nodes;
                (ls.clone(), None)
            }
            Work::Test(j) => (vec![j.leaf], Some(j.at)),
        };
        if proved.len() != leaves.len() {
            self.note(&format!(
                "distribute: worker {w} answered {} of {} positions",
                proved.len(),
                leaves.len()
            ));
            return Ok(());
        }
        let (lo, hi) = self.game.value_range();
        let share = nodes / leaves.len().max(1) as u64;
        let mut lines = String::new();
        for (&leaf, &p) in leaves.iter().zip(&proved) {
            if p.lo > p.hi || p.lo < lo || p.hi > hi {
                self.note(&format!(
                    "distribute: worker {w} proved an impossible interval [{}, {}]",
                    p.lo, p.hi
                ));
                continue;
            }
            let key = self.key(leaf);
            self.fact(key, found_of(p));
            let line = AnswerLine {
                digest: self.digest.clone(),
                path: self.path(leaf),
                at,
                proved: p,
                nodes: share,
                complete,
            };
            lines.push_str(&serde_json::to_string(&line).map_err(|e| {
                DistributeError::Protocol {
                    from: "the driver".into(),
                    what: e.to_string(),
                }
            })?);
            lines.push('\n');
        }
        let path = self.settings.dir.join("answers.jsonl");
        if let Some(f) = &mut self.answers {
            // One write a job, whole lines: a crash can tear only the last.
            f.write_all(lines.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| write_error(&path, e))?;
        }
        let Work::Test(job) = r.work else {
            return Ok(());
        };
        let key = self.key(job.leaf);
        let c = self.costs.entry(key).or_default();
        *c = (*c).max(nodes);
        if complete {
            self.budgets.remove(&key);
            return Ok(());
        }
        if r.spare {
            // Spare work out of its budget is not opened: its children's guesses and spare
            // tests would snowball into work the proof may never need. If the proof does
            // need it, it goes out with twice the budget.
            self.double_budget(key, &r);
            return Ok(());
        }
        // Out of budget. Opening the position a ply deeper turns it into several jobs at
        // once where the position is expected to fail the test (every child must then be
        // shown to reach the negated threshold); where it is expected to pass, one child
        // at a time would do, and a split only adds work. It is worth it where a worker
        // would otherwise sit idle; else the same worker, whose table now holds much of
        // the subtree, goes on with twice the budget.
        // Workers on spare work count as idle: needed work takes their place.
        let idle = self.idle().len() + self.on_spare().len();
        let waiting = self.waiting_needed();
        let expect_fail = self.prover.known(job.leaf).2 < job.at;
        let before = self.prover.frontier();
        // Where many workers would idle, a position expected to pass is worth opening too:
        // its children's brothers run as spare work beside the one the proof picks.
        let worth = expect_fail || idle >= waiting + SPLIT_IDLE_PASS;
        if idle >= waiting + SPLIT_IDLE && worth && self.prover.split(self.game, job.leaf)? {
            self.summary.splits += 1;
            for l in before..self.prover.frontier() {
                let k = self.key(l);
                if let Some(fs) = self.facts.get(&k) {
                    for &f in fs.clone().iter() {
                        self.prover.learn(l, f);
                    }
                }
            }
        } else {
            self.summary.resent += 1;
            self.double_budget(key, &r);
        }
        Ok(())
    }

    /// The position `key`'s next test gets twice the budget `r` ran out of.
    fn double_budget(&mut self, key: u64, r: &Running) {
        let b = r.budget.unwrap_or(MIN_JOB_NODES).saturating_mul(2);
        self.budgets.insert(key, b);
    }

    /// Jobs the proof needs that no worker runs.
    fn waiting_needed(&mut self) -> usize {
        let jobs = match self.prover.step() {
            Step::Test { jobs, .. } => jobs,
            _ => return 0,
        };
        jobs.iter()
            .filter(|j| {
                !self
                    .running
                    .iter()
                    .flatten()
                    .any(|r| r.work == Work::Test(**j))
            })
            .count()
    }
}

fn found_of(p: Proved) -> Found {
    Found {
        lo: p.lo,
        hi: p.hi,
        guess: p.guess,
    }
}

fn write_error(path: &Path, source: std::io::Error) -> DistributeError {
    FileError::Write {
        path: path.to_path_buf(),
        source,
    }
    .into()
}
