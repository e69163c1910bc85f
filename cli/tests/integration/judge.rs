//! The judge problems: URAL 1195 and the control game, through the library and through
//! `cutoff judge`.

use cutoff_app::judge::{control, ural1195};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------------------------
// URAL 1195.

#[test]
fn ural1195_examples() {
    assert_eq!(ural1195("XXO\n#X#\n#OO\n"), Ok("Ouths win"));
    assert_eq!(ural1195("O#O\n#X#\nXOX\n"), Ok("Draw"));
}

#[test]
fn ural1195_crosses_can_win() {
    // X completes the middle column.
    assert_eq!(ural1195("OXO\n#X#\nO#X"), Ok("Crosses win"));
    // X has two threats; O has one: X wins at once.
    assert_eq!(ural1195("XX#\nXOO\nO##"), Ok("Crosses win"));
}

#[test]
fn ural1195_is_lenient_about_whitespace() {
    assert_eq!(ural1195("XXO\r\n#X#\r\n#OO\r\n"), Ok("Ouths win"));
    assert_eq!(ural1195("\n  XXO \n#X#\n\n#OO\n\n"), Ok("Ouths win"));
    assert_eq!(ural1195("\u{feff}XXO\n#X#\n#OO\n"), Ok("Ouths win"));
}

#[test]
fn ural1195_finished_positions() {
    // O has a line already: O won.
    assert_eq!(ural1195("OOO\nXX#\nX##"), Ok("Ouths win"));
    // X has a line with equal counts: O moved last, so the game would have ended earlier.
    let e = ural1195("XXX\nOO#\nO##").unwrap_err().to_string();
    assert!(e.contains("X has three in a row"), "{e}");
}

#[test]
fn ural1195_bad_inputs() {
    let err = |t: &str| ural1195(t).unwrap_err().to_string();
    assert!(err("").contains("expected 3 lines"));
    assert!(err("XXO\n#X#").contains("found 2 non-empty lines"));
    assert!(err("XXO\n#X#\n#OO\nXXX").contains("found 4"));
    assert!(err("XXO\n#X#X\n#OO").contains("line 2: expected 3 characters, found 4"));
    assert!(err("XXO\n.X.\n#OO").contains("line 2: invalid character '.'"));
    assert!(err("XXO\n#x#\n#OO").contains("invalid character 'x'"));
    assert!(err("XXO\n#X#\n#O#").contains("found 3 X and 2 O"));
    assert!(err("XXO\nXX#\n#OO").contains("found 4 X and 3 O"));
}

// ---------------------------------------------------------------------------------------------
// The control game.

/// Brute force over the free mask: true if the side to move wins.
fn oracle(closed: &[u64], free: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if free == 0 {
        return false;
    }
    if let Some(&w) = memo.get(&free) {
        return w;
    }
    let win = (0..closed.len())
        .filter(|&v| free >> v & 1 == 1)
        .any(|v| !oracle(closed, free & !closed[v], memo));
    memo.insert(free, win);
    win
}

/// The oracle's answer for a matrix.
fn oracle_matrix(rows: &[&str]) -> bool {
    let n = rows.len();
    let closed: Vec<u64> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'1')
                .fold(1u64 << i, |m, (j, _)| m | 1 << j)
        })
        .collect();
    oracle(&closed, (1u64 << n) - 1, &mut HashMap::new())
}

/// A judge input holding the given boards.
fn judge_input(boards: &[&[&str]]) -> String {
    let mut s = format!("{}\n", boards.len());
    for (i, b) in boards.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&format!("{}\n", b.len()));
        for r in *b {
            s.push_str(r);
            s.push('\n');
        }
    }
    s
}

const P1: &[&str] = &["0"];
const P2: &[&str] = &["01", "10"];
const P3: &[&str] = &["010", "101", "010"];
const TRIANGLE: &[&str] = &["011", "101", "110"];
const P4: &[&str] = &["0100", "1010", "0101", "0010"];
const C4: &[&str] = &["0101", "1010", "0101", "1010"];
const TWO_EDGES: &[&str] = &["0100", "1000", "0001", "0010"];
const EMPTY2: &[&str] = &["00", "00"];

#[test]
fn control_multi_board_matches_the_oracle() {
    let boards: &[&[&str]] = &[P1, P2, P3, TRIANGLE, P4, C4, TWO_EDGES, EMPTY2];
    let expected: Vec<bool> = boards.iter().map(|b| oracle_matrix(b)).collect();
    // Two disjoint edges and two lone vertices are second-player wins.
    assert!(!expected[6] && !expected[7]);
    assert_eq!(control(&judge_input(boards)), Ok(expected));
}

#[test]
fn control_is_lenient_about_layout() {
    let expected = vec![oracle_matrix(P3), oracle_matrix(C4)];
    // Spaced rows, CRLF, extra blank lines, trailing whitespace, no blank line between blocks.
    let text = "\r\n2 \r\n\r\n\r\n3\r\n0 1 0\r\n1 0 1 \r\n0 1 0\r\n\r\n\r\n4\r\n0101\r\n1010\r\n0101\r\n1010\r\n\r\n";
    assert_eq!(control(text), Ok(expected.clone()));
    let text = "2\n3\n010\n101\n010\n4\n0101\n1010\n0101\n1010";
    assert_eq!(control(text), Ok(expected.clone()));
    let text = "\u{feff}2\n\n3\n010\n101\n010\n\n4\n0101\n1010\n0101\n1010\n";
    assert_eq!(control(text), Ok(expected));
}

#[test]
fn control_bigger_boards() {
    // A path of 30 and a cycle of 30: the judge's largest boards.
    let n: usize = 30;
    let mut input = String::from("2\n");
    for cyclic in [false, true] {
        input.push_str(&format!("{n}\n"));
        for i in 0..n {
            let row: String = (0..n)
                .map(|j| {
                    let adj = i.abs_diff(j) == 1 || cyclic && i.abs_diff(j) == n - 1;
                    if adj {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect();
            input.push_str(&row);
            input.push('\n');
        }
        input.push('\n');
    }
    // Node Kayles on paths (Dawson's Kayles shifted): P30 and, after the first move, P27.
    let g = {
        let mut g = vec![0u32; n + 1];
        for m in 1..=n {
            let mut seen = [false; 64];
            for i in 0..m {
                seen[(g[i.saturating_sub(1)] ^ g[m.saturating_sub(i + 2)]) as usize] = true;
            }
            g[m] = seen.iter().position(|&s| !s).unwrap() as u32;
        }
        g
    };
    assert_eq!(control(&input), Ok(vec![g[n] != 0, g[n - 3] == 0]));
}

#[test]
fn control_errors_name_the_board_and_the_problem() {
    let err = |t: &str| control(t).unwrap_err().to_string();
    assert!(err("").contains("empty input"));
    assert!(err("0\n").contains("number of boards must be 1 to 1000, got 0"));
    assert!(err("1001\n").contains("got 1001"));
    assert!(err("x\n").contains("expected the number of boards, found 'x'"));
    assert!(
        err("1\n0\n").contains("board 1, line 2: the number of vertices must be 1 to 64, got 0")
    );
    assert!(err("1\n65\n").contains("got 65"));
    assert!(err("1\nthree\n").contains("expected the number of vertices, found 'three'"));
    assert!(err("2\n1\n0\n\n3\n010\n100\n010\n")
        .contains("board 2: matrix is not symmetric: a[2][3]=0 but a[3][2]=1"));
    assert!(err("1\n3\n010\n121\n010\n")
        .contains("board 1, line 4: row 2, column 2: expected 0 or 1, found '2'"));
    assert!(
        err("1\n3\n010\n10\n010\n").contains("board 1, line 4: row 2 has 2 entries, expected 3")
    );
    assert!(err("1\n3\n010\n101\n").contains("board 1: expected 3 rows, found 2"));
    assert!(err("2\n3\n011\n101\n\n2\n01\n10\n").contains("board 1: expected 3 rows, found 2"));
    assert!(err("2\n1\n0\n").contains("expected 2 boards, found 1"));
    assert!(err("1\n1\n0\n\n1\n0\n").contains("line 5: unexpected input after the 1 boards"));
    assert!(err("1\n2\n01\n10\ngarbage").contains("unexpected input"));
}

// ---------------------------------------------------------------------------------------------
// The command line.

/// A temporary file with a unique name holding `text`, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(text: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("cutoff-judge-test-{}-{n}.txt", std::process::id()));
        std::fs::write(&path, text).expect("write a temporary file");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `cutoff` with `args`, feeding `stdin` to it.
fn cutoff(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cutoff");
    let mut input = child.stdin.take().expect("stdin");
    // The command may exit before reading everything (an unknown problem): ignore the error.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("wait for cutoff")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Checks a failed run: non-zero exit, one line on stderr, no panic.
fn assert_fails(o: &Output, mentions: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "should fail: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(mentions),
        "stderr should mention {mentions:?}: {err}"
    );
    assert!(stdout(o).is_empty(), "no answer on failure: {}", stdout(o));
}

#[test]
fn cli_ural1195_prints_the_answer() {
    let o = cutoff(&["judge", "ural1195"], "XXO\n#X#\n#OO\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Ouths win\n");
    let o = cutoff(&["judge", "ural1195"], "O#O\n#X#\nXOX\n");
    assert_eq!(stdout(&o), "Draw\n");
    let f = TempFile::new("OXO\n#X#\nO#X\n");
    let o = cutoff(&["judge", "ural1195", f.path()], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Crosses win\n");
}

#[test]
fn cli_control_prints_one_line_per_board() {
    let boards: &[&[&str]] = &[P1, P2, P3, TRIANGLE, TWO_EDGES];
    let expected: String = boards
        .iter()
        .map(|b| if oracle_matrix(b) { "1\n" } else { "0\n" })
        .collect();
    let input = judge_input(boards);
    let o = cutoff(&["judge", "control"], &input);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), expected);
    let f = TempFile::new(&input);
    let o = cutoff(&["judge", "control", f.path()], "");
    assert_eq!(stdout(&o), expected);
}

#[test]
fn cli_errors_are_one_line() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["judge", "control"], "0\n", "number of boards"),
        (&["judge", "control"], "26000\n", "number of boards"),
        (&["judge", "control"], "1\n65\n", "number of vertices"),
        (&["judge", "control"], "1\n0\n", "number of vertices"),
        (&["judge", "control"], "1\n2\n01\n00\n", "not symmetric"),
        (&["judge", "control"], "1\n2\n01\n12\n", "expected 0 or 1"),
        (&["judge", "control"], "1\n3\n010\n101\n", "expected 3 rows"),
        (&["judge", "control"], "2\n1\n0\n", "expected 2 boards"),
        (&["judge", "control"], "", "empty input"),
        (&["judge", "ural1195"], "XXO\n#X#\n", "expected 3 lines"),
        (
            &["judge", "ural1195"],
            "XXO\n#Y#\n#OO\n",
            "invalid character 'Y'",
        ),
        (
            &["judge", "ural1195"],
            "XXX\nXOO\n#OO\n",
            "found 4 X and 4 O",
        ),
        (
            &["judge", "nim"],
            "",
            "unknown problem 'nim' (expected one of: ural1195, control)",
        ),
        (
            &["judge", "control", "/nonexistent/cutoff-judge-input"],
            "",
            "cannot read '/nonexistent/cutoff-judge-input'",
        ),
    ];
    for &(args, input, mentions) in cases {
        let o = cutoff(args, input);
        assert_fails(&o, mentions);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
    }
    // A directory is no input file either.
    let dir = std::env::temp_dir();
    let o = cutoff(&["judge", "ural1195", dir.to_str().unwrap()], "");
    assert_fails(&o, "cannot read");
    // Input that is not UTF-8.
    let f = TempFile::new("");
    std::fs::write(&f.0, [0xFFu8, 0xFE, b'\n']).unwrap();
    let o = cutoff(&["judge", "control", f.path()], "");
    assert_fails(&o, "cannot read");
}
