//! Progress and honest stops: what `cutoff solve` says while it runs and when it is stopped,
//! what a budgeted value is, the node budget, the automatic thread count and the text output.

#![cfg(unix)]

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("run cutoff")
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cutoff")
}

fn signal_after(child: Child, signal: libc::c_int, ms: u64) -> Output {
    std::thread::sleep(Duration::from_millis(ms));
    // SAFETY: `kill` only sends a signal to our own child, whose pid is still ours to use
    // because we have not waited for it yet.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    child.wait_with_output().expect("wait for cutoff")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("one JSON object ({e}): {}", text(&out.stdout)))
}

#[test]
fn sigterm_is_handled_like_ctrl_c_and_reports_the_proven_bounds() {
    for (signal, status) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let child = spawn(&["solve", "connect4", "--threads", "1", "--json"]);
        let out = signal_after(child, signal, 1500);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(status), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains("interrupted"), "{err}");
        let v = json(&out);
        assert_eq!(v["exact"], false);
        assert!(v["value"].is_null());
        assert_eq!(v["stopped"], "interrupted");
        let b = v["bounds"].as_array().expect("bounds");
        let (lo, hi) = (b[0].as_i64().unwrap(), b[1].as_i64().unwrap());
        // The empty board's value is +1: whatever was proven must hold it.
        assert!(lo <= 1 && 1 <= hi, "[{lo}, {hi}]");
    }
}

#[test]
fn progress_every_prints_plain_lines_with_nodes_rate_and_window() {
    let child = spawn(&[
        "solve",
        "connect4",
        "--threads",
        "1",
        "--progress-every",
        "0.2",
    ]);
    let out = signal_after(child, libc::SIGINT, 1500);
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("progress:")).collect();
    assert!(lines.len() >= 2, "{err}");
    for l in &lines {
        assert!(
            l.contains(" nodes, ") && l.contains("kN/s") && l.contains("window ["),
            "{l}"
        );
    }
    // 1.5 s into the empty board the first probe is running: it names its bound and counts
    // the moves it has settled at the root (7 columns) and below.
    let last = lines.last().expect("a line");
    assert!(last.contains(", testing > "), "{last}");
    let settled = last
        .split(", settled ")
        .nth(1)
        .and_then(|t| t.strip_suffix(" (root first)"))
        .unwrap_or_else(|| panic!("no settled moves: {last}"));
    // A ply between two that have settled moves may not know its count yet: "0/?".
    let plies: Vec<(u32, Option<u32>)> = settled
        .split(' ')
        .map(|p| {
            let (d, n) = p.split_once('/').expect("done/total");
            let d = d.parse().expect("a count");
            let n = (n != "?").then(|| n.parse().expect("a count"));
            assert!(n.is_some() || d == 0, "{last}");
            (d, n)
        })
        .collect();
    assert_eq!(plies[0].1, Some(7), "{last}");
    assert!(
        plies
            .iter()
            .all(|&(d, n)| n.is_none_or(|n| d <= n && n <= 7)),
        "{last}"
    );
}

#[test]
fn quiet_and_not_a_terminal_mean_no_progress() {
    let out = cutoff(&["solve", "connect4", "44444432", "--threads", "1"]);
    assert!(out.status.success());
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}

#[test]
fn a_budgeted_run_says_its_value_is_depth_limited() {
    let out = cutoff(&["solve", "connect4", "--time-ms", "300", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = json(&out);
    assert_eq!(v["exact"], false);
    assert_eq!(v["stopped"], "budget");
    assert!(v["depth_reached"].as_u64().expect("a depth") >= 1);
    // What the depth proves holds the empty board's published value, 1; on a node budget
    // that reaches past the sixth ply, where the first wins can come, inside the game's
    // range, -18..18.
    let bounds = |v: &serde_json::Value| -> (i64, i64) {
        let b = v["bounds"].as_array().expect("bounds");
        (b[0].as_i64().unwrap(), b[1].as_i64().unwrap())
    };
    let (lo, hi) = bounds(&v);
    assert!(lo <= 1 && 1 <= hi, "{v}");
    let v = json(&cutoff(&[
        "solve",
        "connect4",
        "--nodes",
        "100000",
        "--threads",
        "1",
        "--json",
    ]));
    assert!(v["depth_reached"].as_u64().expect("a depth") > 6, "{v}");
    let (lo, hi) = bounds(&v);
    assert!((-17..=1).contains(&lo) && (1..18).contains(&hi), "{v}");
    let out = cutoff(&["solve", "connect4", "--time-ms", "300"]);
    let t = text(&out.stdout);
    assert!(t.contains("depth-limited: searched"), "{t}");
    assert!(t.contains("which it proves to lie between"), "{t}");
    // A game that cannot tell proves nothing by its depth.
    let v = json(&cutoff(&["solve", "tictactoe", "--depth", "2", "--json"]));
    assert_eq!(v["exact"], false);
    assert!(v.get("bounds").is_none(), "{v}");
    assert!(!t.contains("full"), "{t}");
    // A budget that reaches the end of the game gives an exact value.
    let v = json(&cutoff(&[
        "solve",
        "tictactoe",
        "--time-ms",
        "60000",
        "--json",
    ]));
    assert_eq!(v["exact"], true);
    assert_eq!(v["value"], 0);
}

#[test]
fn the_node_budget_is_hard_on_one_thread_and_tight_on_two() {
    for budget in [1_000u64, 10_000, 100_000] {
        let b = budget.to_string();
        let v = json(&cutoff(&[
            "solve",
            "connect4",
            "--nodes",
            &b,
            "--threads",
            "1",
            "--json",
        ]));
        let nodes = v["nodes"].as_u64().unwrap();
        // The unwinding search may enter a few nodes after the budget is reached.
        assert!(
            nodes <= budget + 16,
            "{nodes} nodes for a budget of {budget}"
        );
        let v = json(&cutoff(&[
            "solve",
            "connect4",
            "--nodes",
            &b,
            "--threads",
            "2",
            "--json",
        ]));
        let nodes = v["nodes"].as_u64().unwrap();
        // Each thread sees the others' nodes only when it looks at the shared count, ever
        // more often as the budget runs out: a few percent over at most.
        assert!(
            nodes <= budget + budget / 20 + 64,
            "{nodes} nodes for a budget of {budget}"
        );
    }
}

#[test]
fn small_positions_stay_on_one_thread_by_default() {
    // End-Easy's first line: a handful of nodes.
    let v = json(&cutoff(&[
        "solve",
        "connect4",
        "2252576253462244111563365343671351441",
        "--json",
    ]));
    assert_eq!(v["threads"], 1, "{v}");
    assert!(v.get("nodes_per_thread").is_none());
}

#[test]
fn text_output_is_aligned_columns_without_json_quoting() {
    let out = cutoff(&["solve", "connect4", "4453", "--threads", "2"]);
    let t = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!t.contains('"') && !t.contains('['), "{t}");
    let starts: Vec<usize> = t
        .lines()
        .map(|l| {
            let key_end = l.find("  ").expect("a key, two spaces, a value");
            key_end + l[key_end..].len() - l[key_end..].trim_start().len()
        })
        .collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{t}");
    assert!(t.contains("threads"), "{t}");
}

#[test]
fn suite_knps_agrees_with_its_mean_nodes_and_mean_time() {
    let set = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/connect4/middle-easy.txt"
    );
    let v = json(&cutoff(&["suite", set, "--limit", "50", "--json"]));
    let (nodes, us, knps) = (
        v["mean_nodes"].as_f64().unwrap(),
        v["mean_us"].as_f64().unwrap(),
        v["knps"].as_f64().unwrap(),
    );
    let expect = nodes / us * 1e3;
    assert!(
        (knps - expect).abs() <= 1e-6 * expect.max(1.0),
        "{knps} against {expect}"
    );
    // The nodes whose moves were searched are some of the nodes, not all.
    let searched = v["mean_searched"].as_f64().unwrap();
    assert!(searched > 0.0 && searched < nodes, "{searched} of {nodes}");
}

#[test]
fn a_table_file_keeps_a_stopped_solves_work_for_the_next_run() {
    let dir = std::env::temp_dir().join(format!("cutoff-table-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c4.tbl");
    let path = file.to_str().unwrap();
    let args = [
        "solve",
        "connect4",
        "--threads",
        "1",
        "--json",
        "--table-file",
        path,
        "--table-file-nodes",
        "20000",
    ];
    // The empty board, stopped after a second: what it proved so far is on disk.
    let first = signal_after(spawn(&args), libc::SIGINT, 1000);
    assert!(!first.status.success());
    let first = json(&first);
    let written = first["table_file"]["written"].as_u64().expect("a count");
    assert!(written > 0, "{first}");
    assert_eq!(first["table_file"]["loaded"], 0);
    let lines = std::fs::read_to_string(&file).unwrap().lines().count() as u64;
    assert_eq!(lines, written + 1, "a header and one line an entry");
    // The next run starts from them.
    let second = json(&signal_after(spawn(&args), libc::SIGINT, 300));
    assert_eq!(
        second["table_file"]["loaded"].as_u64(),
        Some(written),
        "{second}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
