//! `compare` on hand-made run files (`tests/fixtures/`): a changed value, a changed serial node
//! count and a slower time are regressions (exit 1, named); two runs of one build pass (exit
//! 0); unreadable or malformed files are a one-line error (exit 2). The library is checked
//! directly too, and `merge` and the workload runner on tiny inputs.

use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::Algorithm;
use cutoff_bench::compare::{compare, Options, Problem};
use cutoff_bench::record::RunFile;
use cutoff_bench::workload::{run_suite, suite, Item};
use std::process::{Command, Output};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> RunFile {
    RunFile::load(&fixture(name)).unwrap()
}

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff-bench"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn cmp_files(base: &str, current: &str, extra: &[&str]) -> (i32, String, String) {
    let (b, c) = (fixture(base), fixture(current));
    let mut args = vec!["compare", b.as_str(), c.as_str()];
    args.extend(extra);
    let out = bench(&args);
    (
        out.status.code().expect("exited"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn same_build_twice_passes() {
    let (code, out, err) = cmp_files("base", "same", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no regression"), "{out}");
    // The tiny item doubled its time but is under --min-ms; the parallel item's nodes moved.
    assert!(out.contains("too fast to time"), "{out}");
    assert_eq!(cmp_files("base", "base", &[]).0, 0);
}

#[test]
fn changed_value_is_a_regression() {
    let (code, out, _) = cmp_files("base", "value_changed", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("1 item(s) regressed: tictactoe/minimax"),
        "{out}"
    );
    assert!(out.contains("value 0 -> 1"), "{out}");
    // --allow-nodes does not excuse a wrong value.
    assert_eq!(cmp_files("base", "value_changed", &["--allow-nodes"]).0, 1);
}

#[test]
fn changed_serial_nodes_is_a_regression_unless_allowed() {
    let (code, out, _) = cmp_files("base", "nodes_changed", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("1 item(s) regressed: connect4/middle-medium/1"),
        "{out}"
    );
    let (code, out, _) = cmp_files("base", "nodes_changed", &["--allow-nodes"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("nodes changed, allowed"), "{out}");
}

#[test]
fn slower_time_is_a_regression_beyond_the_tolerance() {
    // 120 ms against 100 ms: 20% slower.
    let (code, out, _) = cmp_files("base", "slower", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("1 item(s) regressed: random/b4-d8/alphabeta"),
        "{out}"
    );
    assert!(out.contains("20.0% slower"), "{out}");
    assert_eq!(cmp_files("base", "slower", &["--tolerance", "25%"]).0, 0);
    assert_eq!(cmp_files("base", "slower", &["--tolerance", "0.25"]).0, 0);
    assert_eq!(cmp_files("base", "slower", &["--tolerance", "15%"]).0, 1);
    // Faster is never a regression.
    assert_eq!(cmp_files("slower", "base", &[]).0, 0);
}

#[test]
fn missing_and_new_items_are_reported() {
    let (code, out, _) = cmp_files("base", "missing_and_new", &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("1 item(s) missing from the current run, 1 new"),
        "{out}"
    );
    assert!(out.contains("missing") && out.contains("new/item"), "{out}");
}

#[test]
fn bad_files_are_one_line_errors() {
    let cases = [
        ("malformed", "is not a cutoff-bench run file"),
        ("missing_field", "missing field `nodes`"),
        ("no_such_file", "cannot read"),
    ];
    for (name, expected) in cases {
        let (code, out, err) = cmp_files("base", name, &[]);
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(expected) && err.contains(name),
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let (code, _, err) = cmp_files("base", "same", &["--tolerance", "lots"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("tolerance"), "{err}");
}

#[test]
fn unknown_suite_is_a_one_line_error() {
    let out = bench(&["run", "--suite", "nightly", "--json", "/dev/null"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown suite 'nightly'"), "{err}");
    assert!(suite("quick").is_ok() && suite("full").is_ok());
}

#[test]
fn library_flags_each_problem() {
    let base = load("base");
    let opts = Options::default();
    let problems = |name: &str| -> Vec<Problem> {
        compare(&base, &load(name), &opts)
            .rows
            .into_iter()
            .flat_map(|r| r.problems)
            .collect()
    };
    assert!(problems("same").is_empty());
    assert_eq!(
        problems("value_changed"),
        vec![Problem::Value {
            base: 0,
            current: 1
        }]
    );
    assert_eq!(
        problems("nodes_changed"),
        vec![Problem::Nodes {
            base: 267089,
            current: 267100
        }]
    );
    match problems("slower").as_slice() {
        [Problem::Slower { ratio }] => assert!((ratio - 1.2).abs() < 1e-9),
        other => panic!("expected one slow-down, got {other:?}"),
    }
}

#[test]
fn merge_pools_times_and_rejects_different_results() {
    let base = load("base");
    let mut again = base.clone();
    for it in &mut again.items {
        it.times_ms = vec![it.time_ms * 2.0, it.time_ms * 2.0];
        it.time_ms *= 2.0;
    }
    let merged = RunFile::merge(&[base.clone(), again]).unwrap();
    assert_eq!(merged.repeats, base.repeats + 3);
    let it = &merged.items[0];
    assert_eq!(it.times_ms.len(), 5);
    // 98, 100, 103, 200, 200: the median is 103.
    assert_eq!(it.time_ms, 103.0);
    let mut wrong = base.clone();
    wrong.items[0].value += 1;
    assert!(RunFile::merge(&[base, wrong])
        .unwrap_err()
        .contains("different results"));
}

#[test]
fn a_run_records_values_counts_and_every_time() {
    let items = vec![
        Item::search(
            "ttt/alphabeta",
            TicTacToe::new(),
            Algorithm::AlphaBeta,
            None,
        ),
        Item::search("ttt/pvs", TicTacToe::new(), Algorithm::Pvs, None),
    ];
    let mut calls = 0;
    let run = run_suite("tiny", &items, 3, &mut |_, _| calls += 1).unwrap();
    assert_eq!(calls, 6);
    assert_eq!(run.repeats, 3);
    let ab = &run.items[0];
    assert_eq!((ab.value, ab.nodes, ab.leaves), (0, 18297, 7330));
    assert_eq!((ab.threads, ab.serial, ab.times_ms.len()), (1, true, 3));
    // Saved and read back unchanged, and compared with itself: no regression.
    let path = std::env::temp_dir().join(format!("cutoff-bench-run-{}.json", std::process::id()));
    let path = path.to_str().unwrap();
    run.save(path).unwrap();
    let back = RunFile::load(path).unwrap();
    std::fs::remove_file(path).unwrap();
    assert_eq!(back, run);
    assert!(compare(&run, &back, &Options::default())
        .regressions()
        .is_empty());
    assert!(run_suite("tiny", &items, 0, &mut |_, _| {}).is_err());
}
