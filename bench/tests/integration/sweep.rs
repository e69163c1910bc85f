//! The sweep's counts against the theory on small grids: minimax evaluates `b^d` leaves,
//! best-first alpha-beta exactly the Knuth-Moore minimal tree, worst-first alpha-beta every
//! leaf; every search of one tree finds the same value; and `cutoff-bench sweep --quick`
//! writes its table, JSON and figure.

use cutoff_bench::sweep::{run_sweep, Grid, Series};
use cutoff_bench::theory::{full_tree, minimal_tree};

fn small_grid() -> Grid {
    Grid {
        branching: vec![2, 3, 4, 5, 7],
        max_depth: 7,
        max_leaves: 1e6,
        seed: 3,
        tt_mib: 4,
    }
}

#[test]
fn counts_match_the_formulas() {
    let sweep = run_sweep(&small_grid(), &mut |_| {}).unwrap();
    assert!(sweep.skipped.is_empty());
    assert_eq!(sweep.cells.len(), 5 * 7 * Series::ALL.len());
    for c in &sweep.cells {
        let (b, d) = (c.b, c.d);
        let leaves = c.leaves as f64;
        match c.series {
            "minimax" | "alphabeta-worst-first" => {
                assert_eq!(leaves, full_tree(b, d), "{} b={b} d={d}", c.series)
            }
            "alphabeta-best-first" => {
                assert_eq!(leaves, minimal_tree(b, d), "best-first b={b} d={d}")
            }
            // Random order lies between the two (alpha-beta never beats the minimal tree).
            "alphabeta-random" => {
                assert!(leaves >= minimal_tree(b, d) && leaves <= full_tree(b, d))
            }
            _ => {}
        }
    }
}

#[test]
fn every_search_of_a_tree_agrees_on_its_value() {
    let sweep = run_sweep(&small_grid(), &mut |_| {}).unwrap();
    for c in sweep.cells.iter().filter(|c| c.order == "random") {
        let minimax = sweep
            .cells
            .iter()
            .find(|m| m.b == c.b && m.d == c.d && m.series == "minimax")
            .unwrap();
        assert_eq!(c.value, minimax.value, "{} b={} d={}", c.series, c.b, c.d);
    }
}

#[test]
fn cells_over_the_cap_are_skipped_and_said_so() {
    let mut grid = small_grid();
    grid.branching = vec![4];
    grid.max_leaves = 300.0;
    let sweep = run_sweep(&grid, &mut |_| {}).unwrap();
    // 4^4 = 256 runs, 4^5 = 1024 does not; the minimal tree of depth 7 (4^4 + 4^3 - 1 = 319)
    // is over the cap too.
    assert!(sweep
        .cells
        .iter()
        .any(|c| c.series == "minimax" && c.d == 4));
    assert!(!sweep
        .cells
        .iter()
        .any(|c| c.series == "minimax" && c.d == 5));
    assert!(sweep
        .skipped
        .iter()
        .any(|s| s.series == "alphabeta-best-first" && s.d == 7));
    let table = sweep.table();
    assert!(
        table.contains("minimax: skipped from depth 5 on"),
        "{table}"
    );
}

#[test]
fn bad_grids_are_refused() {
    for grid in [
        Grid {
            branching: vec![1],
            ..Grid::quick()
        },
        Grid {
            max_depth: 99,
            ..Grid::quick()
        },
        Grid {
            branching: vec![],
            ..Grid::quick()
        },
    ] {
        assert!(run_sweep(&grid, &mut |_| {}).is_err());
    }
}

#[test]
fn quick_sweep_writes_table_json_and_figure() {
    let dir = std::env::temp_dir().join(format!("cutoff-bench-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, svg) = (dir.join("sweep.json"), dir.join("sweep.svg"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cutoff-bench"))
        .args(["sweep", "--quick", "--json"])
        .arg(&json)
        .arg("--svg")
        .arg(&svg)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("alphabeta-best-first") && stdout.contains("pearl"));
    assert!(stdout.contains("tictactoe") && stdout.contains("connect4"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(doc["sweep"]["cells"].as_array().unwrap().len() > 50);
    assert!(doc["build"]["commit"].is_string());
    let figure = std::fs::read_to_string(&svg).unwrap();
    assert!(figure.starts_with("<svg") && figure.contains("b = 4"));
    std::fs::remove_dir_all(&dir).unwrap();
    // A bad grid is a one-line error.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cutoff-bench"))
        .args(["sweep", "--quick", "--branching", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("branching factor 1"), "{err}");
}
