//! `--profile` on `solve` and `suite`: how the nodes of each ply ended, checked against the
//! search's own counts, and its refusals.

use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::{Command, Output};

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("cutoff runs")
}

fn json(args: &[&str]) -> Json {
    let out = cutoff(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The rows of a profile add up to its total, and the total's nodes to `nodes`.
fn check_profile(p: &Json, nodes: u64) {
    let total = &p["total"];
    assert_eq!(total["nodes"].as_u64(), Some(nodes));
    let fields = [
        "nodes",
        "analysis",
        "bounds",
        "table",
        "enhanced_cutoffs",
        "searched",
        "cut_nodes",
        "forced",
        "settled_by_parent",
    ];
    let rows = p["plies"].as_array().expect("plies");
    assert!(!rows.is_empty());
    for f in fields {
        let sum: u64 = rows.iter().map(|r| r[f].as_u64().expect(f)).sum();
        assert_eq!(Some(sum), total[f].as_u64(), "{f}");
    }
    for r in rows {
        let ways = [
            "analysis",
            "bounds",
            "table",
            "enhanced_cutoffs",
            "searched",
        ];
        let ended: u64 = ways.iter().map(|w| r[*w].as_u64().unwrap()).sum();
        assert_eq!(Some(ended), r["nodes"].as_u64(), "ply {}", r["ply"]);
        assert!(r["cut_nodes"].as_u64() <= r["searched"].as_u64());
    }
    assert_eq!(rows[0]["ply"], 0);
}

#[test]
fn solve_profile_adds_up_to_the_counts_and_changes_nothing() {
    let base = [
        "solve",
        "connect4",
        "--board",
        "6x5",
        "1233",
        "--threads",
        "1",
        "--tt-mb",
        "8",
        "--json",
    ];
    let plain = json(&base);
    let profiled = json(&[&base[..], &["--profile"]].concat());
    for k in [
        "value",
        "nodes",
        "forced",
        "searched",
        "cutoffs",
        "best_move",
    ] {
        assert_eq!(plain[k], profiled[k], "{k}");
    }
    assert!(plain.get("profile").is_none());
    let nodes = profiled["nodes"].as_u64().unwrap();
    check_profile(&profiled["profile"], nodes);
    assert_eq!(
        profiled["profile"]["total"]["cut_nodes"],
        profiled["cutoffs"]
    );
    // The text report ends with the table: a header, a row a ply, the total.
    let out = cutoff(&[&base[..base.len() - 1], &["--profile"]].concat());
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let table = text.split("profile: ").nth(1).expect("a profile section");
    assert!(table
        .lines()
        .nth(1)
        .unwrap()
        .trim_start()
        .starts_with("ply"));
    assert!(table
        .trim_end()
        .lines()
        .last()
        .unwrap()
        .trim_start()
        .starts_with("total"));
}

#[test]
fn suite_profile_adds_every_position() {
    let p = json(&[
        "suite",
        "positions/connect4/begin-medium.txt",
        "--limit",
        "3",
        "--tt-mb",
        "8",
        "--profile",
        "--json",
    ]);
    assert_eq!(p["threads"], 1);
    let nodes = (p["mean_nodes"].as_f64().unwrap() * 3.0).round() as u64;
    check_profile(&p["profile"], nodes);
    let plain = json(&[
        "suite",
        "positions/connect4/begin-medium.txt",
        "--limit",
        "3",
        "--tt-mb",
        "8",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(plain["mean_nodes"], p["mean_nodes"]);
    assert!(plain.get("profile").is_none());
}

#[test]
fn profile_refuses_what_it_cannot_profile() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["solve", "connect4", "4453", "--profile", "--threads", "2"],
            "one thread",
        ),
        (
            &["solve", "connect4", "4453", "--profile", "--time-ms", "50"],
            "--time-ms",
        ),
        (
            &[
                "solve",
                "connect4",
                "4453",
                "--profile",
                "--algo",
                "alphabeta",
            ],
            "table-driven",
        ),
        (&["solve", "pig", "--profile"], "two-player"),
        (
            &[
                "suite",
                "positions/connect4/begin-medium.txt",
                "--profile",
                "--threads",
                "2",
            ],
            "one thread",
        ),
    ];
    for (args, says) in cases {
        let out = cutoff(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
