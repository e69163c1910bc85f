//! `scaling` on small hand-made tables: a good one draws an SVG that names every mode; a
//! missing, malformed, empty or wrongly shaped one is a one-line error (exit 2), no panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bench(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff-bench"))
        .arg("scaling")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh directory of this test's own.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "cutoff-bench-scaling-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rows as `scripts/scaling.sh` writes them, for `workloads` x `modes` x 1, 2, 4 threads.
fn table(workloads: &[&str], modes: &[&str]) -> String {
    let mut rows = Vec::new();
    for w in workloads {
        for (i, m) in modes.iter().enumerate() {
            for t in [1u32, 2, 4] {
                let speedup = 1.0 + (t - 1) as f64 * (0.3 + 0.2 * i as f64);
                rows.push(serde_json::json!({
                    "workload": w, "mode": m, "threads": t,
                    "seconds": 10.0 / speedup, "nodes": 1_000_000.0 * (1.0 + 0.1 * t as f64),
                    "speedup": speedup, "overhead": 1.0 + 0.1 * t as f64, "mnps": 2.5,
                }));
            }
        }
    }
    serde_json::to_string_pretty(&rows).unwrap()
}

#[test]
fn draws_speedup_of_every_mode() {
    let dir = temp_dir("good");
    let (json, svg) = (dir.join("scaling.json"), dir.join("scaling.svg"));
    let modes = ["ybwc", "lazysmp", "root"];
    std::fs::write(&json, table(&["connect4", "random-trees", "empty"], &modes)).unwrap();
    let out = bench(&[&json, Path::new("--svg"), &svg]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let figure = std::fs::read_to_string(&svg).expect("the SVG was written");
    assert!(figure.starts_with("<svg"), "{figure}");
    assert!(figure.contains("Speed-up"), "{figure}");
    for m in modes {
        assert!(figure.contains(m), "no {m} in the figure");
    }
    for w in ["connect4", "random-trees", "empty"] {
        assert!(figure.contains(w), "no {w} in the figure");
    }
    assert!(figure.contains("ideal"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_a_one_line_error() {
    let dir = temp_dir("bad");
    let svg = dir.join("out.svg");
    let one_row = |extra: &str| {
        format!("[{{\"workload\": \"connect4\", \"mode\": \"ybwc\", \"threads\": 1, {extra}}}]")
    };
    let cases = [
        ("not_json", "this is not json".to_string()),
        (
            "truncated",
            table(&["connect4"], &["ybwc"])[..40].to_string(),
        ),
        ("object", "{\"rows\": []}".to_string()),
        ("empty", "[]".to_string()),
        ("missing_fields", one_row("\"seconds\": 1.0")),
        (
            "wrong_type",
            one_row(
                "\"seconds\": 1, \"nodes\": 1, \"speedup\": \"fast\", \"overhead\": 1, \
                 \"mnps\": 1",
            ),
        ),
        (
            "zero_speedup",
            one_row("\"seconds\": 1, \"nodes\": 1, \"speedup\": 0, \"overhead\": 1, \"mnps\": 1"),
        ),
    ];
    let mut files: Vec<(String, PathBuf)> = cases
        .iter()
        .map(|(name, text)| {
            let path = dir.join(format!("{name}.json"));
            std::fs::write(&path, text).unwrap();
            (name.to_string(), path)
        })
        .collect();
    files.push(("missing_file".into(), dir.join("no-such-file.json")));
    for (name, path) in &files {
        let out = bench(&[path, Path::new("--svg"), &svg]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.starts_with("error: "), "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(!svg.exists(), "{name}: an SVG was written");
    }
    // --svg is required.
    let out = bench(&[&files[0].1]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .trim_end()
            .lines()
            .count(),
        1
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
