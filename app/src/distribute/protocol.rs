//! The messages between a distributed run's driver and its long-lived workers
//! (docs/design/distributed.md, "Workers that live for the run"): one protocol over every
//! transport. Each message is one JSON object; over a pipe, one line.

use super::{DistributeError, RunSpec};
use cutoff::Value;
use serde::{Deserialize, Serialize};

/// The longest message line a reader takes (a `share` of many entries is the largest).
pub const MAX_LINE: usize = 16 << 20;

/// From the driver to a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
// `Setup` (the run's spec) is the large one, sent once a worker: the others are made and
// dropped as they go, never stored by the thousand.
#[allow(clippy::large_enum_variant)]
pub enum ToWorker {
    /// The run: the first message, once. The worker sets the game up from it and makes its
    /// table, which it keeps until `stop`.
    Setup {
        /// What `run.json` holds.
        run: RunSpec,
        /// The run's digest, which every answer carries back.
        digest: String,
    },
    /// Search these positions (each by its moves from the root): guesses with the run's
    /// guess budget where `at` is absent, else the one position's test "at least `at`?",
    /// stopped after `budget` nodes (absent: none).
    Job {
        /// The driver's number for it.
        id: u64,
        /// The positions, each as its moves from the root.
        paths: Vec<Vec<String>>,
        /// The threshold tested, or none for guesses.
        at: Option<Value>,
        /// The most nodes a test may take before it returns what it proved.
        budget: Option<u64>,
    },
    /// Stop job `id` if it is still running: the proof no longer needs it.
    Cancel {
        /// The job.
        id: u64,
    },
    /// Table entries of large subtrees another worker searched (table file lines).
    Share {
        /// The entries.
        entries: Vec<String>,
    },
    /// End: the worker finishes (stopping any job) and exits.
    Stop,
}

/// What one position of a job proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proved {
    /// Proven lower bound.
    pub lo: Value,
    /// Proven upper bound.
    pub hi: Value,
    /// The guess (a guessing job).
    pub guess: Option<Value>,
}

/// From a worker to the driver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FromWorker {
    /// Set up and waiting for jobs.
    Ready {
        /// Where it runs (host and process), for the logs.
        name: String,
    },
    /// Job `id` ended: what each of its positions proved.
    Answer {
        /// The job.
        id: u64,
        /// The run's digest.
        digest: String,
        /// One per position, in the job's order.
        proved: Vec<Proved>,
        /// False where a test ran out of its budget: `proved` holds what it proved so far.
        complete: bool,
        /// Nodes searched.
        nodes: u64,
        /// Seconds of search.
        seconds: f64,
    },
    /// Job `id` was stopped by a `cancel` (or was not running any more).
    Cancelled {
        /// The job.
        id: u64,
        /// Nodes it had searched.
        nodes: u64,
        /// Seconds it had run.
        seconds: f64,
    },
    /// Table entries of subtrees over the run's `hard_nodes`, for the other workers.
    Hard {
        /// The entries (table file lines).
        entries: Vec<String>,
    },
    /// The worker cannot go on.
    Failed {
        /// Why, in one line.
        message: String,
    },
}

/// A message as one line of JSON (without its newline).
pub fn encode<T: Serialize>(msg: &T) -> String {
    // Serialising these types cannot fail: every field is a plain value or string.
    serde_json::to_string(msg).unwrap_or_else(|_| String::from("{}"))
}

/// A message from one line of JSON.
pub fn decode<T: for<'de> Deserialize<'de>>(line: &str, from: &str) -> Result<T, DistributeError> {
    serde_json::from_str(line.trim_end()).map_err(|e| DistributeError::Protocol {
        from: from.to_string(),
        what: e.to_string(),
    })
}
