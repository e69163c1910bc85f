//! Hardening (issue 9, part 3): the `cutoff` command never aborts and never hangs on input it
//! accepts, reads at most 16 MiB of any input, and every error of its own is one short line
//! with no control characters. Each run here is limited in time and in address space, so a
//! regression fails the test instead of taking the machine's memory.

#![cfg(unix)]

use crate::support;

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Address space a run may take: the default 64 MiB table and a few threads fit easily.
const ADDRESS_SPACE: u64 = 4 << 30;

/// Wall time a run may take, generous for a loaded machine: every run here takes well
/// under a second.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// The longest error line allowed, in bytes.
const MAX_LINE: usize = 200;

/// A small test set: three End-Easy positions.
const SUITE: &str = "2252576253462244111563365343671351441 -1\n\
                     7422341735647741166133573473242566 1\n\
                     23163416124767223154467471272416755633 0\n";

/// What a run reads on standard input.
enum Input<'a> {
    /// Nothing (`/dev/null`).
    Null,
    /// These bytes.
    Bytes(&'a [u8]),
    /// This file, opened for reading (`< FILE`).
    File(&'a str),
}

/// A temporary file, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(bytes: impl AsRef<[u8]>) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("cutoff-hardening-{}-{n}.txt", std::process::id()));
        std::fs::write(&path, bytes).expect("write a temporary file");
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

/// Runs `cutoff` with `args` and `input` in at most `address_space` bytes and
/// [`TIME_LIMIT`]; panics if it runs past the limit.
fn run_limited(args: &[&str], input: Input, address_space: u64) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cutoff"));
    cmd.args(args);
    let bytes = match input {
        Input::Null => {
            cmd.stdin(Stdio::null());
            None
        }
        Input::Bytes(b) => Some(b.to_vec()),
        Input::File(p) => {
            cmd.stdin(std::fs::File::open(p).expect("open the input"));
            None
        }
    };
    support::run_limited(cmd, bytes, address_space, TIME_LIMIT)
}

fn run_in(args: &[&str], input: Input) -> Output {
    run_limited(args, input, ADDRESS_SPACE)
}

fn run(args: &[&str]) -> Output {
    run_in(args, Input::Null)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Checks that the run ended on its own (no signal: no abort, no segfault) with `code`.
fn assert_exit(o: &Output, code: i32, args: &str) {
    assert!(
        o.status.signal().is_none(),
        "{args}: killed by signal {:?}: {}",
        o.status.signal(),
        stderr(o)
    );
    assert_eq!(o.status.code(), Some(code), "{args}: {}", stderr(o));
}

/// Checks a failed run of ours: exit status 1, and stderr one line of at most 200 bytes, with
/// no control characters, that mentions each of `mentions`.
fn assert_error(o: &Output, mentions: &[&str]) {
    let err = stderr(o);
    assert_exit(o, 1, &err);
    assert!(err.ends_with('\n'), "ends its line: {err:?}");
    let line = &err[..err.len() - 1];
    assert!(!line.contains('\n'), "one line: {err:?}");
    assert!(line.len() <= MAX_LINE, "{} bytes: {err:?}", line.len());
    assert!(
        !line.chars().any(char::is_control),
        "control characters: {err:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
    for m in mentions {
        assert!(err.contains(m), "stderr should mention {m:?}: {err}");
    }
    assert!(o.stdout.is_empty(), "no output on failure");
}

/// Checks a usage error from clap: exit status 2, clap's own lines (any number), each at
/// most 200 bytes with no control characters, mentioning each of `mentions`.
fn assert_usage_error(o: &Output, mentions: &[&str]) {
    let err = stderr(o);
    assert_exit(o, 2, &err);
    for line in err.lines() {
        assert!(line.len() <= MAX_LINE, "{} bytes: {line:?}", line.len());
        assert!(
            !line.chars().any(char::is_control),
            "control characters: {line:?}"
        );
    }
    assert!(!err.contains("panicked"), "{err}");
    for m in mentions {
        assert!(err.contains(m), "stderr should mention {m:?}: {err}");
    }
}

// 1. Tables larger than the machine.

#[test]
fn suite_refuses_a_table_larger_than_the_machine_naming_the_size_and_the_memory() {
    let f = TempFile::new(SUITE);
    let o = run(&["suite", f.path(), "--tt-mb", "1048576", "--threads", "1"]);
    assert_error(&o, &["1048576 MiB", "MiB of memory available"]);
}

#[test]
fn solve_refuses_a_table_larger_than_the_machine_naming_the_size_and_the_memory() {
    for algo in ["solve", "pvs", "mtdf"] {
        let o = run(&[
            "solve",
            "connect4",
            "4444433",
            "--algo",
            algo,
            "--tt-mb",
            "1048576",
            "--threads",
            "1",
        ]);
        assert_error(&o, &["1048576 MiB", "MiB of memory available"]);
    }
}

#[test]
fn a_refused_allocation_is_an_error_not_an_abort() {
    // 1 GiB of address space for a 2000 MiB table: refused by the kernel (or, on a machine
    // with less than 2000 MiB available, before asking it).
    let f = TempFile::new(SUITE);
    let o = run_limited(
        &["suite", f.path(), "--tt-mb", "2000", "--threads", "1"],
        Input::Null,
        1 << 30,
    );
    assert_error(&o, &["2000 MiB", "memory available"]);
    let o = run_limited(
        &[
            "solve",
            "connect4",
            "4444433",
            "--tt-mb",
            "2000",
            "--threads",
            "1",
        ],
        Input::Null,
        1 << 30,
    );
    assert_error(&o, &["2000 MiB", "memory available"]);
}

// 2. Threads.

#[test]
fn more_threads_than_the_machine_can_use_is_an_error() {
    let max = cutoff_app::options::max_threads();
    assert!(max >= 16);
    let too_many = (max + 1).to_string();
    let o = run(&["solve", "connect4", "4444433", "--threads", &too_many]);
    assert_error(&o, &["--threads", &too_many, &format!("at most {max}")]);
    let f = TempFile::new(SUITE);
    let o = run(&["suite", f.path(), "--threads", &too_many]);
    assert_error(&o, &["--threads", &format!("at most {max}")]);
    let o = run(&["solve", "connect4", "4444433", "--threads", "0"]);
    assert_error(&o, &["--threads must be at least 1"]);
    // The limit itself is accepted.
    let o = run(&["solve", "connect4", "4444433", "--threads", "16"]);
    assert_exit(&o, 0, &stderr(&o));
}

// 3. Input limits, missing files, text that is not UTF-8.

#[test]
fn endless_input_files_are_refused_and_large_ones_cut_at_16_mib() {
    // A device (an endless one above all) is not a regular file: refused before a byte is
    // read (issue 41). Standard input is still read, and cut at 16 MiB, below.
    let big = TempFile::new(vec![b' '; (16 << 20) + 1]);
    for file in ["/dev/zero", big.path()] {
        for args in [
            &["tree", file][..],
            &["suite", file],
            &["judge", "control", file],
            &["judge", "ural1195", file],
            &["solve", "tree", file],
        ] {
            let o = run(args);
            let said = if file == "/dev/zero" {
                "not a regular file"
            } else {
                "larger than the 16 MiB input limit"
            };
            assert_error(&o, &[said]);
        }
    }
}

#[test]
fn endless_standard_input_is_cut_at_16_mib() {
    for problem in ["control", "ural1195"] {
        let o = run_in(&["judge", problem], Input::File("/dev/zero"));
        assert_error(
            &o,
            &["standard input", "larger than the 16 MiB input limit"],
        );
    }
}

#[test]
fn a_control_matrix_file_is_cut_at_16_mib() {
    let o = run(&["solve", "control", "/dev/zero"]);
    assert_error(&o, &["'/dev/zero'", "not a regular file"]);
    let big = TempFile::new(vec![b'0'; (16 << 20) + 1]);
    let o = run(&["solve", "control", big.path()]);
    assert_error(&o, &["larger than the 16 MiB input limit"]);
}

#[test]
fn a_missing_control_file_is_reported_as_missing() {
    let o = run(&["solve", "control", "nosuchfile.txt"]);
    assert_error(&o, &["cannot read 'nosuchfile.txt'", "No such file"]);
    // Without a dot, and holding other characters than 0, 1 and '/', it is a file name too.
    let o = run(&["solve", "control", "nosuchfile"]);
    assert_error(&o, &["cannot read 'nosuchfile'"]);
}

#[test]
fn text_that_is_not_utf8_is_an_error() {
    let f = TempFile::new(b"(1 2 \xff\xfe)");
    let o = run(&["tree", f.path()]);
    assert_error(&o, &["not UTF-8", "offset 5"]);
    let o = run_in(&["judge", "control"], Input::Bytes(b"1\n1\n\xff\n"));
    assert_error(&o, &["standard input", "not UTF-8"]);
    let f = TempFile::new(b"44\xff 1\n");
    let o = run(&["suite", f.path()]);
    assert_error(&o, &["not UTF-8"]);
    // Arguments: clap's error.
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"4\xff");
    let o = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("solve")
        .arg("connect4")
        .arg(bad)
        .output()
        .expect("run cutoff");
    assert_usage_error(&o, &["UTF-8"]);
}

// 4. Quoted tokens: cut short, control characters escaped.

#[test]
fn long_tokens_are_cut_short_in_errors() {
    let big = "x".repeat(10 << 20);
    let f = TempFile::new(format!("(1 {big})"));
    let o = run(&["tree", f.path()]);
    assert_error(&o, &["bad token 'xxxx", "... (10485760 characters)"]);
    let f = TempFile::new(format!("44 1 {big}\n"));
    let o = run(&["suite", f.path()]);
    assert_error(
        &o,
        &[
            "line 1: expected '<moves> <score>'",
            "(10485765 characters)",
        ],
    );
    let f = TempFile::new(format!("{big} 0\n"));
    let o = run(&["suite", f.path()]);
    assert_error(&o, &["line 1: bad move 'x' at position 1"]);
    let f = TempFile::new(format!("44 {big}\n"));
    let o = run(&["suite", f.path()]);
    assert_error(&o, &["line 1: bad score", "(10485760 characters)"]);
    // Arguments are at most 128 KiB on Linux.
    let arg = "7".repeat(100_000);
    let o = run(&["solve", "sim", &arg]);
    assert_error(&o, &["bad edge", "(100000 characters)"]);
    let o = run(&["solve", "tictactoe", &format!("XO.{arg}")]);
    assert_error(&o, &["invalid character '7'"]);
    let o = run(&[
        "solve",
        "random",
        "--branching",
        "2",
        "--depth",
        "2",
        "--order",
        &arg,
    ]);
    assert_usage_error(&o, &["unknown order", "(100000 characters)"]);
    let o = run(&["tree", "x", "--algo", &arg]);
    assert_usage_error(&o, &["unknown algorithm"]);
}

#[test]
fn control_characters_are_escaped_in_errors() {
    let esc = "\u{1b}[31m";
    let o = run(&["solve", "connect4", &format!("12{esc}")]);
    assert_error(&o, &[r"bad move '\x1b'", "position 3"]);
    let o = run(&["solve", "sim", &format!("12 {esc}")]);
    assert_error(&o, &[r"bad edge '\x1b[31m'"]);
    let o = run(&["solve", "tictactoe", &format!("XO{esc}......")]);
    assert_error(&o, &[r"invalid character '\x1b'"]);
    let f = TempFile::new(format!("(1 2{esc})"));
    let o = run(&["tree", f.path()]);
    assert_error(&o, &[r"bad token '2\x1b[31m'"]);
    let f = TempFile::new(format!("(1 {esc}:2)"));
    let o = run(&["tree", f.path()]);
    assert_error(&o, &[r"bad label '\x1b[31m'"]);
    let f = TempFile::new(format!("44 1{esc}\n"));
    let o = run(&["suite", f.path()]);
    assert_error(&o, &[r"bad score '1\x1b[31m'"]);
    let o = run(&["judge", &format!("nim{esc}")]);
    assert_error(&o, &[r"unknown problem 'nim\x1b[31m'"]);
    // clap's errors quote the value too.
    let o = run(&["solve", "connect4", "--algo", esc]);
    assert_usage_error(&o, &["--algo"]);
    let o = run(&["tree", "x", "--algo", esc]);
    assert_usage_error(&o, &["unknown algorithm", r"\x1b[31m"]);
    let o = run(&["tree", "x", "--root", esc]);
    assert_usage_error(&o, &["max or min", r"\x1b[31m"]);
    let o = run(&["solve", "connect4", "--parallel", &format!("a\tb{esc}")]);
    assert_usage_error(&o, &["unknown parallel mode", r"a\tb\x1b[31m"]);
}

#[test]
fn the_last_line_of_defence_cuts_and_escapes_every_error() {
    // Whatever a message quotes, the lines printed are short and printable: here clap's
    // message, which quotes the value whole (the guard in `main` cuts it).
    let game = format!("{}{}", "\u{1b}[2J", "g".repeat(100_000));
    let o = run(&["solve", &game]);
    assert_usage_error(&o, &["invalid value", "characters)"]);
    assert!(!stderr(&o).contains('\u{1b}'));
}

// 5. Byte-order marks.

#[test]
fn a_byte_order_mark_is_accepted_at_the_start_of_every_input() {
    let f = TempFile::new("\u{feff}(3 5) (2 9)\n");
    let o = run(&["tree", f.path()]);
    assert_exit(&o, 0, &stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .any(|l| l.starts_with("value") && l.contains(" 3")),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = run(&["solve", "tree", f.path()]);
    assert_exit(&o, 0, &stderr(&o));
    let f = TempFile::new(format!("\u{feff}{SUITE}"));
    let o = run(&[
        "suite",
        f.path(),
        "--threads",
        "1",
        "--tt-mb",
        "16",
        "--json",
    ]);
    assert_exit(&o, 0, &stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(
        (j["positions"].as_u64(), j["mismatches"].as_u64()),
        (Some(3), Some(0))
    );
    let o = run_in(
        &["judge", "control"],
        Input::Bytes("\u{feff}1\n2\n01\n10\n".as_bytes()),
    );
    assert_exit(&o, 0, &stderr(&o));
    assert_eq!(o.stdout, b"1\n");
    let o = run_in(
        &["judge", "ural1195"],
        Input::Bytes("\u{feff}XXO\n#X#\n#OO\n".as_bytes()),
    );
    assert_exit(&o, 0, &stderr(&o));
    assert_eq!(o.stdout, b"Ouths win\n");
}

// 6. Blank positions.

#[test]
fn a_blank_position_is_an_error_not_the_empty_board() {
    for game in ["connect4", "sim"] {
        for blank in [" ", "\t", "  \n"] {
            let o = run(&["solve", game, blank]);
            assert_error(&o, &["blank position", "leave the position out"]);
        }
    }
    let o = run(&["solve", "sim", " , "]);
    assert_error(&o, &["blank position"]);
    let o = run(&["solve", "tictactoe", " "]);
    assert_error(&o, &["expected 9 cells, found 0"]);
}

// 7. --limit 0.

#[test]
fn suite_limit_zero_is_an_error() {
    let f = TempFile::new(SUITE);
    let o = run(&["suite", f.path(), "--limit", "0"]);
    assert_error(&o, &["--limit must be at least 1"]);
    let o = run(&[
        "suite",
        f.path(),
        "--limit",
        "1",
        "--threads",
        "1",
        "--json",
    ]);
    assert_exit(&o, 0, &stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(j["positions"].as_u64(), Some(1));
}

// 8. clap renders its own errors.

#[test]
fn usage_errors_keep_clap_s_usage_and_hints() {
    let o = run(&["solve"]);
    assert_usage_error(&o, &["<GAME>", "Usage:"]);
    let o = run(&["solve", "connect4", "--thread", "2"]);
    assert_usage_error(&o, &["--thread", "--threads"]);
    let o = run(&["sovle"]);
    assert_usage_error(&o, &["sovle", "solve"]);
    let o = run(&["solve", "matchsticks", "--tt-mb", "-5"]);
    assert_usage_error(&o, &["'-5'", "Usage:"]);
    let o = run(&["solve", "matchsticks", "--seed", "99999999999999999999999"]);
    assert_usage_error(&o, &["--seed"]);
}

// 9. Control matrices.

#[test]
fn a_trailing_slash_in_a_control_matrix_is_forgiven() {
    let o = run(&["solve", "control", "01/10/"]);
    assert_exit(&o, 0, &stderr(&o));
    let plain = run(&["solve", "control", "01/10"]);
    assert_exit(&plain, 0, &stderr(&plain));
    let value = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find(|l| l.starts_with("value"))
            .map(str::to_string)
    };
    assert!(value(&o).is_some());
    assert_eq!(value(&o), value(&plain));
}
