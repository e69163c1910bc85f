//! `cutoff-bench distributed`: a finished `cutoff distribute` run replayed on N simulated
//! workers (docs/measurements/distributed.md).
//!
//! Each round's tasks, with the seconds each took as it measured them, are scheduled largest
//! first onto the least-loaded worker (the LPT rule); the round lasts its most loaded
//! worker's time plus a fixed per-round latency (submitting the round and hearing its last
//! answer, measured separately on a real cluster), and the rounds follow one another. What it
//! leaves out: a cancelled task's partial work (recorded in the run's `cancelled_nodes`;
//! more workers start more tasks before an answer makes them useless: more nodes, not more
//! time, since the round does not wait for them), how answers arriving at other times would change which tasks are cancelled, and
//! contention between tasks on one machine.

use serde::Deserialize;

/// One round of the run's summary: what the simulation needs.
#[derive(Clone, Debug, Deserialize)]
pub struct Round {
    /// Each finished task's seconds.
    pub task_seconds: Vec<f64>,
}

/// The run's `summary.json`, the fields read here.
#[derive(Clone, Debug, Deserialize)]
pub struct Summary {
    /// The root's value.
    pub value: i64,
    /// Nodes of every job.
    pub nodes: u64,
    /// Every round's costs.
    pub round_costs: Vec<Round>,
}

/// Reads a run's `summary.json`.
pub fn load(path: &str) -> Result<Summary, String> {
    let text = cutoff::files::read_file(path).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("{path} is not a distribute summary: {e}"))
}

/// The simulated wall time of the run's rounds on `workers` workers, with `latency` seconds
/// added to every round.
pub fn simulate(rounds: &[Round], workers: usize, latency: f64) -> f64 {
    let workers = workers.max(1);
    let mut total = 0.0;
    for r in rounds {
        let mut tasks = r.task_seconds.clone();
        tasks.sort_by(|a, b| b.total_cmp(a));
        let mut load = vec![0.0f64; workers.min(tasks.len().max(1))];
        for t in tasks {
            // The least-loaded worker takes the next largest task.
            let i = (0..load.len())
                .min_by(|&a, &b| load[a].total_cmp(&load[b]))
                .unwrap_or(0);
            load[i] += t;
        }
        total += load.iter().copied().fold(0.0, f64::max) + latency;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(t: &[f64]) -> Round {
        Round {
            task_seconds: t.to_vec(),
        }
    }

    #[test]
    fn rounds_add_up_and_workers_share_a_round() {
        let rounds = [round(&[3.0, 1.0, 1.0, 1.0]), round(&[2.0])];
        assert_eq!(simulate(&rounds, 1, 0.0), 8.0);
        // Largest first: 3 | 1+1+1 on two workers.
        assert_eq!(simulate(&rounds, 2, 0.0), 5.0);
        assert_eq!(simulate(&rounds, 1024, 0.5), 6.0);
        assert_eq!(simulate(&[], 8, 1.0), 0.0);
    }
}
