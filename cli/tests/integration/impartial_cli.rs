//! `cutoff` answers the impartial games through their own theory: 64 lone vertices and
//! matchsticks 1000 with `solve --algo theory`, the 8x8 grid with `judge control`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `cutoff` with `args`, feeding `stdin`; panics unless it succeeds.
fn cutoff(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cutoff runs");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(stdin.as_bytes())
        .expect("input written");
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("cutoff ends");
    let stderr = String::from_utf8_lossy(&stderr);
    assert!(status.success(), "cutoff {args:?} failed: {stderr}");
    String::from_utf8(stdout).expect("UTF-8 output")
}

/// The JSON report of `cutoff solve` with `args` (and `--json --quiet`).
fn solve_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "--quiet"]);
    let out = cutoff(&all, "");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The adjacency matrix rows of the `rows` x `cols` grid graph.
fn grid_rows(rows: usize, cols: usize) -> Vec<String> {
    let n = rows * cols;
    (0..n)
        .map(|v| {
            (0..n)
                .map(|w| {
                    let (r, c) = (v / cols, v % cols);
                    let (r2, c2) = (w / cols, w % cols);
                    if r.abs_diff(r2) + c.abs_diff(c2) == 1 {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn sixty_four_lone_vertices_are_a_second_player_win() {
    let matrix = vec!["0".repeat(64); 64].join("/");
    let r = solve_json(&["control", &matrix, "--algo", "theory"]);
    assert_eq!(r["algo"], "theory");
    assert_eq!(r["value"], -1, "{r}");
    // Every move takes one vertex: the line has all 64.
    assert_eq!(r["pv"].as_array().map(Vec::len), Some(64), "{r}");
    // 63 lone vertices: an odd number, a first-player win.
    let matrix = vec!["0".repeat(63); 63].join("/");
    assert_eq!(
        solve_json(&["control", &matrix, "--algo", "theory"])["value"],
        1
    );
}

#[test]
fn matchsticks_1000_is_won_by_taking_3() {
    let r = solve_json(&["matchsticks", "1000", "--algo", "theory"]);
    assert_eq!(r["value"], 1, "{r}");
    assert_eq!(r["best_move"], "3", "{r}");
    // 1000 % 4 == 0: a win; 997 and 1001 leave the mover with n % 4 == 1, a loss.
    assert_eq!(
        solve_json(&["matchsticks", "997", "--algo", "theory"])["value"],
        -1
    );
    assert_eq!(
        solve_json(&["stones", "999", "--algo", "theory"])["value"],
        -1
    );
    assert_eq!(
        solve_json(&["stones", "1000", "--algo", "theory"])["value"],
        1
    );
}

#[test]
fn judge_control_answers_the_8x8_grid() {
    // The 8x8 grid is lost for the first player (the second mirrors every move through the
    // centre); a 2x3 grid is won (a middle vertex leaves the two far corners, which cancel);
    // a single vertex is won.
    let mut input = String::from("3\n");
    for (rows, cols) in [(8, 8), (2, 3), (1, 1)] {
        input.push_str(&format!("{}\n", rows * cols));
        for row in grid_rows(rows, cols) {
            input.push_str(&row);
            input.push('\n');
        }
        input.push('\n');
    }
    assert_eq!(cutoff(&["judge", "control"], &input), "0\n1\n1\n");
}
