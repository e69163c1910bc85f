//! Workers as MPI ranks (the `mpi` feature): under `mpirun -np N` (or `srun`), rank 0 drives
//! the run ([`MpiTransport`], worker `i` being rank `i + 1`) and every other rank is a
//! worker serving it ([`MpiLink`], [`cutoff_app::distribute::worker::serve`]). Each message
//! is the protocol's JSON ([`cutoff_app::distribute::protocol`]) as one MPI message of bytes,
//! all under one tag.
//!
//! It lives in the command rather than in the application library, which reaches it through
//! [`cutoff_app::distribute::live::MpiStart`]: building it needs an MPI library and libclang,
//! and with the feature off the library's build is the same as every other front end's, so
//! the MPI build compiles only the command again (docs/design/builds.md).
//!
//! Only the thread that started MPI ever calls it (`Threading::Funneled`): the driver is
//! single-threaded, and a worker's searches run on threads that never touch the link.
//!
//! A send is non-blocking and completed before `send` returns, receiving meanwhile into an
//! inbox: a blocking `MPI_Send` of a large message waits for its receiver, so a driver
//! sending a `share` to a worker that is sending it a `hard` would wait on it forever.
//!
//! The end is a handshake, so that no rank finalises MPI while a message to or from it is
//! still on its way: the driver sends `stop`, then an empty message (its last) to each
//! worker; a worker whose service ended sends an empty message (its last) to the driver
//! and receives, dropping them, the driver's messages up to its empty one. Each rank
//! receives until it has the empty message of every peer, then finalises MPI.

use cutoff_app::distribute::live::{Event, MpiRole, Transport};
use cutoff_app::distribute::protocol::{decode, encode, FromWorker, ToWorker, MAX_LINE};
use cutoff_app::distribute::worker::Link;
use cutoff_app::distribute::DistributeError;
use mpi::environment::Universe;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};
use mpi::{Rank, Tag, Threading};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The one tag of every message of a run.
const TAG: Tag = 17;

/// The pause between two polls of MPI: short against a job's milliseconds, long enough
/// that a waiting rank does not spin a core.
const POLL: Duration = Duration::from_micros(100);

/// The driver, rank 0.
const DRIVER: Rank = 0;

/// Starts MPI and tells this rank its role (a [`cutoff_app::distribute::live::MpiStart`]).
/// Refuses a world of one rank (there would be no worker) and an MPI library that cannot have
/// threads besides the one that calls it.
pub fn start() -> Result<MpiRole, DistributeError> {
    let Some((universe, threading)) = mpi::initialize_with_threading(Threading::Funneled) else {
        return Err(DistributeError::Mpi(
            "MPI was already started in this process".into(),
        ));
    };
    if threading < Threading::Funneled {
        return Err(DistributeError::Mpi(format!(
            "this MPI library gives {threading:?} threading where {} mpi needs Funneled (a \
             worker searches on a thread of its own)",
            cutoff_app::opt("backend")
        )));
    }
    let world = universe.world();
    let size = world.size();
    if size < 2 {
        return Err(DistributeError::Mpi(format!(
            "{} mpi needs at least 2 ranks: run it under mpirun -np N",
            cutoff_app::opt("backend")
        )));
    }
    let rank = world.rank();
    let mpi = Mpi {
        world,
        inbox: VecDeque::new(),
        _universe: universe,
    };
    Ok(if rank == DRIVER {
        let workers = (size - 1) as usize;
        MpiRole::Driver(Box::new(MpiTransport {
            mpi,
            start: Instant::now(),
            ended: vec![false; workers],
            lost: vec![false; workers],
            finished: false,
        }))
    } else {
        MpiRole::Worker(Box::new(MpiLink {
            mpi,
            driver_ended: false,
        }))
    })
}

/// What both ends share: the world, and the messages received while a send waited.
struct Mpi {
    world: SimpleCommunicator,
    /// Messages received while a send waited, in their order, with their senders.
    inbox: VecDeque<(Rank, Vec<u8>)>,
    /// Finalises MPI when dropped: the last field, so dropped last.
    _universe: Universe,
}

impl Mpi {
    /// One message from `from` (any rank where absent), if one has come.
    fn poll(&mut self, from: Option<Rank>) -> Option<(Rank, Vec<u8>)> {
        let probed = match from {
            Some(r) => self
                .world
                .process_at_rank(r)
                .immediate_matched_probe_with_tag(TAG),
            None => self
                .world
                .any_process()
                .immediate_matched_probe_with_tag(TAG),
        }?;
        let (bytes, status) = probed.matched_receive_vec::<u8>();
        Some((status.source_rank(), bytes))
    }

    /// The next message from `from`: the inbox's first, else one that comes within
    /// `timeout`.
    fn next(&mut self, from: Option<Rank>, timeout: Duration) -> Option<(Rank, Vec<u8>)> {
        if let Some(m) = self.inbox.pop_front() {
            return Some(m);
        }
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(m) = self.poll(from) {
                return Some(m);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            std::thread::sleep(left.min(POLL));
        }
    }

    /// Sends `bytes` to rank `to` and waits until the send is complete, meanwhile taking
    /// the messages from `from` into the inbox: the peer may be sending to this rank too.
    fn send(&mut self, to: Rank, bytes: &[u8], from: Option<Rank>) {
        let Mpi { world, inbox, .. } = self;
        let dest = world.process_at_rank(to);
        mpi::request::scope(|scope| {
            let mut request = dest.immediate_send_with_tag(scope, bytes, TAG);
            loop {
                match request.test() {
                    Ok(_) => return,
                    Err(r) => request = r,
                }
                let probed = match from {
                    Some(r) => world
                        .process_at_rank(r)
                        .immediate_matched_probe_with_tag(TAG),
                    None => world.any_process().immediate_matched_probe_with_tag(TAG),
                };
                match probed {
                    Some(p) => {
                        let (bytes, status) = p.matched_receive_vec::<u8>();
                        inbox.push_back((status.source_rank(), bytes));
                    }
                    None => std::thread::sleep(POLL),
                }
            }
        });
    }
}

/// The driver's transport: worker `i` is rank `i + 1`.
pub struct MpiTransport {
    mpi: Mpi,
    start: Instant,
    /// The workers whose last message (the empty one) has come.
    ended: Vec<bool>,
    /// The workers reported lost: what else they send is dropped.
    lost: Vec<bool>,
    /// Whether the end's handshake is done.
    finished: bool,
}

impl MpiTransport {
    fn rank(worker: usize) -> Rank {
        // `start` made at most `size - 1` workers, and a world's size is a `Rank`.
        (worker + 1) as Rank
    }
}

impl Transport for MpiTransport {
    fn workers(&self) -> usize {
        self.ended.len()
    }

    fn send(&mut self, worker: usize, msg: &ToWorker) -> Result<(), DistributeError> {
        // A worker that ended drops whatever it is sent; sending costs it nothing more.
        if !self.ended[worker] {
            self.mpi
                .send(Self::rank(worker), encode(msg).as_bytes(), None);
        }
        Ok(())
    }

    fn recv(&mut self, timeout: Duration) -> Result<Option<Event>, DistributeError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((rank, bytes)) = self.mpi.next(None, left) else {
                return Ok(None);
            };
            let Some(w) = (rank as usize)
                .checked_sub(1)
                .filter(|&w| w < self.ended.len())
            else {
                continue;
            };
            if bytes.is_empty() {
                self.ended[w] = true;
                if !std::mem::replace(&mut self.lost[w], true) {
                    return Ok(Some(Event::Lost(w, "the rank stopped serving".into())));
                }
                continue;
            }
            if self.lost[w] {
                continue;
            }
            let msg = if bytes.len() > MAX_LINE {
                Err(format!(
                    "a message of {} bytes, over the limit",
                    bytes.len()
                ))
            } else {
                std::str::from_utf8(&bytes)
                    .map_err(|e| format!("a message that is not UTF-8: {e}"))
                    .and_then(|text| {
                        decode::<FromWorker>(text, &format!("worker {w}"))
                            .map_err(|e| e.to_string())
                    })
            };
            return Ok(Some(match msg {
                Ok(msg) => Event::Message(w, msg),
                Err(why) => {
                    self.lost[w] = true;
                    Event::Lost(w, why)
                }
            }));
        }
    }

    fn now(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    fn finish(&mut self) -> Result<(), DistributeError> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        let stop = encode(&ToWorker::Stop);
        for w in 0..self.ended.len() {
            if !self.ended[w] {
                self.mpi.send(Self::rank(w), stop.as_bytes(), None);
            }
            // The last message to each, even one that ended: it waits for it.
            self.mpi.send(Self::rank(w), &[], None);
        }
        // A worker stops its search within milliseconds of `stop`; its last messages come
        // before its empty one, which MPI keeps in order.
        while self.ended.iter().any(|e| !e) {
            if let Some((rank, bytes)) = self.mpi.next(None, Duration::from_millis(50)) {
                if let Some(e) = (rank as usize)
                    .checked_sub(1)
                    .and_then(|w| self.ended.get_mut(w))
                {
                    *e |= bytes.is_empty();
                }
            }
        }
        Ok(())
    }

    fn name(&self) -> &'static str {
        "mpi"
    }
}

impl Drop for MpiTransport {
    /// A driver that failed before its end still stops the workers, so that every rank
    /// finalises MPI and the job ends.
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// A worker's link to rank 0.
pub struct MpiLink {
    mpi: Mpi,
    /// Whether the driver's last message (the empty one) has come.
    driver_ended: bool,
}

impl Link for MpiLink {
    fn recv(&mut self, timeout: Duration) -> Result<Option<ToWorker>, DistributeError> {
        if self.driver_ended {
            return Ok(Some(ToWorker::Stop));
        }
        let Some((_, bytes)) = self.mpi.next(Some(DRIVER), timeout) else {
            return Ok(None);
        };
        if bytes.is_empty() {
            // The driver has ended: nothing more will come.
            self.driver_ended = true;
            return Ok(Some(ToWorker::Stop));
        }
        if bytes.len() > MAX_LINE {
            return Err(DistributeError::Protocol {
                from: "the driver".into(),
                what: format!("a message of {} bytes, over the limit", bytes.len()),
            });
        }
        let text = std::str::from_utf8(&bytes).map_err(|e| DistributeError::Protocol {
            from: "the driver".into(),
            what: format!("a message that is not UTF-8: {e}"),
        })?;
        decode(text, "the driver").map(Some)
    }

    fn send(&mut self, msg: &FromWorker) -> Result<(), DistributeError> {
        self.mpi.send(DRIVER, encode(msg).as_bytes(), Some(DRIVER));
        Ok(())
    }
}

impl Drop for MpiLink {
    /// The worker's end: its last message, then the driver's messages dropped up to the
    /// driver's last, before MPI is finalised.
    fn drop(&mut self) {
        self.mpi.send(DRIVER, &[], Some(DRIVER));
        while !self.driver_ended {
            if let Some((_, bytes)) = self.mpi.next(Some(DRIVER), Duration::from_millis(50)) {
                self.driver_ended = bytes.is_empty();
            }
        }
    }
}
