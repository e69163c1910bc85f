//! A cluster simulated by execution (docs/design/distributed.md, "Simulation"): N virtual
//! workers in this process, each with its own table, run the live driver's jobs for real,
//! one at a time, in the order a cluster would finish them. A virtual clock advances by
//! each job's measured search time (the CPU time of the thread that ran it, so that other
//! work on a shared machine does not lengthen it) and by the latency of each message, so
//! the driver sees
//! answers in the order and at the times a real run would, and the nodes are those a real
//! run would search.
//!
//! What it leaves out: a job runs whole when it is sent, so a job cancelled while it runs
//! counts the share of its nodes up to the cancel (by time), but its table keeps what the
//! whole search stored; shared entries reach a worker's table at the start of its next job
//! after they arrive; the driver's own time is measured (`driver_seconds`) but not put on
//! the clock; memory bandwidth and contention between workers on one machine are absent.

use super::live::{Event, Transport};
use super::protocol::{FromWorker, ToWorker};
use super::worker::{Ended, Engine, HARD_PER_JOB};
use super::{DistributeError, RunSpec};
use crate::position::Describe;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A virtual worker.
#[derive(Default)]
struct Worker {
    /// When it finishes what it was given.
    free_at: f64,
    /// The job it runs (or ran last): id, start, end, nodes, and its answer's events.
    current: Option<Current>,
    /// Shared entries on their way, with their arrival times.
    shares: Vec<(f64, Vec<String>)>,
}

struct Current {
    id: u64,
    start: f64,
    end: f64,
    nodes: u64,
    events: Vec<u64>,
}

/// The simulated cluster.
pub struct Simulate<'a, G: Describe> {
    game: &'a G,
    run: &'a RunSpec,
    latency: f64,
    engines: Vec<Option<Engine<'a, G>>>,
    workers: Vec<Worker>,
    clock: f64,
    /// Events by time (in nanoseconds) and order of making.
    queue: BinaryHeap<Reverse<(u64, u64)>>,
    payload: HashMap<u64, Event>,
    seq: u64,
    never: AtomicBool,
    digest: String,
    /// Wall seconds spent running the virtual workers' jobs.
    searching: f64,
}

impl<'a, G: Describe> Simulate<'a, G> {
    /// `workers` virtual workers for `run`, each message taking `latency`.
    pub fn new(game: &'a G, run: &'a RunSpec, workers: usize, latency: Duration) -> Self {
        Simulate {
            game,
            run,
            latency: latency.as_secs_f64(),
            engines: (0..workers).map(|_| None).collect(),
            workers: (0..workers).map(|_| Worker::default()).collect(),
            clock: 0.0,
            queue: BinaryHeap::new(),
            payload: HashMap::new(),
            seq: 0,
            never: AtomicBool::new(false),
            digest: String::new(),
            searching: 0.0,
        }
    }

    fn at(&mut self, time: f64, ev: Event) -> u64 {
        let seq = self.seq;
        self.seq += 1;
        self.queue
            .push(Reverse(((time.max(0.0) * 1e9) as u64, seq)));
        self.payload.insert(seq, ev);
        seq
    }
}

impl<G: Describe> Transport for Simulate<'_, G> {
    fn workers(&self) -> usize {
        self.workers.len()
    }

    fn send(&mut self, w: usize, msg: &ToWorker) -> Result<(), DistributeError> {
        let arrival = self.clock + self.latency;
        match msg {
            ToWorker::Setup { digest, .. } => {
                self.digest.clone_from(digest);
                // A worker sets its table up before it says it is ready: not a job's time.
                if self.engines[w].is_none() {
                    self.engines[w] = Some(Engine::new(self.game, self.run)?);
                }
                let name = format!("virtual worker {w}");
                self.at(
                    arrival + self.latency,
                    Event::Message(w, FromWorker::Ready { name }),
                );
            }
            ToWorker::Job {
                id,
                paths,
                at,
                budget,
            } => {
                if self.engines[w].is_none() {
                    self.engines[w] = Some(Engine::new(self.game, self.run)?);
                }
                let start = arrival.max(self.workers[w].free_at);
                let shares = std::mem::take(&mut self.workers[w].shares);
                let (now, later): (Vec<_>, Vec<_>) = shares.into_iter().partition(|s| s.0 <= start);
                self.workers[w].shares = later;
                let Some(engine) = &self.engines[w] else {
                    return Ok(());
                };
                for (_, entries) in &now {
                    engine.share(entries);
                }
                let t = std::time::Instant::now();
                let cpu = thread_seconds();
                let mut ended = engine.run(paths, *at, *budget, &self.never)?;
                let seconds = (thread_seconds() - cpu).max(0.0);
                match &mut ended {
                    Ended::Answered { seconds: s, .. } | Ended::Cancelled { seconds: s, .. } => {
                        *s = seconds;
                    }
                }
                self.searching += t.elapsed().as_secs_f64();
                let hard = engine.hard(HARD_PER_JOB);
                let nodes = match &ended {
                    Ended::Answered { nodes, .. } | Ended::Cancelled { nodes, .. } => *nodes,
                };
                let end = start + seconds;
                let digest = self.digest.clone();
                let mut events = vec![self.at(
                    end + self.latency,
                    Event::Message(w, ended.message(*id, &digest)),
                )];
                if !hard.is_empty() {
                    events.push(self.at(
                        end + self.latency,
                        Event::Message(w, FromWorker::Hard { entries: hard }),
                    ));
                }
                self.workers[w].free_at = end;
                self.workers[w].current = Some(Current {
                    id: *id,
                    start,
                    end,
                    nodes,
                    events,
                });
            }
            ToWorker::Cancel { id } => {
                let Some(c) = self.workers[w]
                    .current
                    .take_if(|c| c.id == *id && c.end > arrival)
                else {
                    return Ok(());
                };
                for e in &c.events {
                    self.payload.remove(e);
                }
                let done = if c.end > c.start {
                    ((arrival - c.start) / (c.end - c.start)).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                let nodes = (c.nodes as f64 * done) as u64;
                self.workers[w].free_at = arrival.max(c.start.min(arrival));
                self.at(
                    arrival + self.latency,
                    Event::Message(
                        w,
                        FromWorker::Cancelled {
                            id: *id,
                            nodes,
                            seconds: (arrival - c.start).max(0.0),
                        },
                    ),
                );
            }
            ToWorker::Share { entries } => self.workers[w].shares.push((arrival, entries.clone())),
            ToWorker::Stop => {}
        }
        Ok(())
    }

    fn recv(&mut self, _timeout: Duration) -> Result<Option<Event>, DistributeError> {
        while let Some(Reverse((t, seq))) = self.queue.pop() {
            if let Some(ev) = self.payload.remove(&seq) {
                self.clock = self.clock.max(t as f64 / 1e9);
                return Ok(Some(ev));
            }
        }
        Ok(None)
    }

    fn now(&self) -> f64 {
        self.clock
    }

    fn search_seconds(&self) -> f64 {
        self.searching
    }

    fn finish(&mut self) -> Result<(), DistributeError> {
        Ok(())
    }

    fn name(&self) -> &'static str {
        "simulate"
    }
}

/// The CPU time of the calling thread, in seconds: a job's search time that other
/// processes on the machine do not lengthen (the wall clock where there is no such clock).
#[cfg(unix)]
fn thread_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the call's duration, and
    // CLOCK_THREAD_CPUTIME_ID is a clock every POSIX system provides; the call writes only
    // `t`.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if r != 0 {
        return wall_seconds();
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

#[cfg(not(unix))]
fn thread_seconds() -> f64 {
    wall_seconds()
}

/// Seconds on a monotonic wall clock since its first use.
fn wall_seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}
