//! The JSON file a regression run writes and `compare` reads: the suite, the build, and per
//! item the value, counts, threads and times.

use crate::build_info::BuildInfo;
use serde::{Deserialize, Serialize};

/// One workload item's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemRecord {
    /// The item's name, unique within the suite.
    pub name: String,
    /// The root value found.
    pub value: i64,
    /// Nodes visited.
    pub nodes: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Threads that searched.
    pub threads: usize,
    /// The median of `times_ms`.
    pub time_ms: f64,
    /// Every measured time, milliseconds, in the order measured.
    #[serde(default)]
    pub times_ms: Vec<f64>,
    /// Whether the search was serial (one thread): its node count is then deterministic.
    pub serial: bool,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    /// The suite's name.
    pub suite: String,
    /// The build that ran it.
    pub build: BuildInfo,
    /// How many times each item was measured.
    pub repeats: usize,
    /// Free text: where and how it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The items, in the order run.
    pub items: Vec<ItemRecord>,
}

/// The median of `xs` (the mean of the middle two for an even count); NaN when empty.
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => 0.5 * (v[n / 2 - 1] + v[n / 2]),
    }
}

impl RunFile {
    /// Reads and checks a run file; the error is one line naming the file and the problem.
    pub fn load(path: &str) -> Result<RunFile, String> {
        let text = cutoff::files::read_file(path).map_err(|e| e.to_string())?;
        let run: RunFile = serde_json::from_str(&text)
            .map_err(|e| format!("'{path}' is not a cutoff-bench run file: {e}"))?;
        run.check().map_err(|e| format!("'{path}': {e}"))?;
        Ok(run)
    }

    /// Writes the file as pretty JSON.
    pub fn save(&self, path: &str) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| format!("cannot encode the run: {e}"))?;
        cutoff::files::write_atomic(std::path::Path::new(path), (text + "\n").as_bytes())
            .map_err(|e| e.to_string())
    }

    /// What JSON alone cannot promise: unique names and sensible times.
    fn check(&self) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for it in &self.items {
            if !seen.insert(it.name.as_str()) {
                return Err(format!("item '{}' appears twice", it.name));
            }
            let times_ok = it.times_ms.iter().all(|t| t.is_finite() && *t >= 0.0);
            if !(it.time_ms.is_finite() && it.time_ms >= 0.0 && times_ok) {
                return Err(format!("item '{}' has a negative or missing time", it.name));
            }
        }
        Ok(())
    }

    /// The item called `name`.
    pub fn item(&self, name: &str) -> Option<&ItemRecord> {
        self.items.iter().find(|i| i.name == name)
    }

    /// Joins runs of one suite by one build (as `scripts/regress.sh` makes them, one repeat
    /// at a time, alternating with another build): the times of each item are pooled and
    /// their median taken. Values and serial node counts must agree across the runs.
    pub fn merge(runs: &[RunFile]) -> Result<RunFile, String> {
        let (first, rest) = runs.split_first().ok_or("nothing to merge")?;
        let mut out = first.clone();
        for r in rest {
            if r.suite != out.suite {
                return Err(format!(
                    "cannot merge runs of different suites ('{}' and '{}')",
                    out.suite, r.suite
                ));
            }
            if r.build != out.build {
                return Err(format!(
                    "cannot merge runs of different builds ({} and {})",
                    out.build.short(),
                    r.build.short()
                ));
            }
            if r.items.len() != out.items.len() {
                return Err("cannot merge runs with different items".into());
            }
            for (a, b) in out.items.iter_mut().zip(&r.items) {
                if a.name != b.name {
                    return Err(format!(
                        "cannot merge runs with different items ('{}' and '{}')",
                        a.name, b.name
                    ));
                }
                if a.value != b.value || (a.serial && b.serial && a.nodes != b.nodes) {
                    return Err(format!(
                        "item '{}' gave different results in two runs of one build",
                        a.name
                    ));
                }
                a.times_ms.extend(&b.times_ms);
                a.time_ms = median(&a.times_ms);
            }
            out.repeats += r.repeats;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn medians() {
        assert!(median(&[]).is_nan());
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
