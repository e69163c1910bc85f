//! The `cutoff` command under signals: Ctrl-C (SIGINT) during a search and a closed pipe.

#![cfg(unix)]

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cutoff")
}

/// Sends SIGINT to `child` after `ms` milliseconds and collects its output.
fn interrupt_after(child: Child, ms: u64) -> Output {
    std::thread::sleep(Duration::from_millis(ms));
    // SAFETY: `kill` only sends a signal to our own child, whose pid is still ours to use
    // because we have not waited for it yet.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    child.wait_with_output().expect("wait for cutoff")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn ctrl_c_during_an_exact_solve_says_so_and_exits_130() {
    // The empty board takes far longer than the second we give it (time enough to start
    // and install the handler even on a loaded machine).
    for threads in ["1", "2"] {
        let out = interrupt_after(spawn(&["solve", "connect4", "--threads", threads]), 1000);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{threads} threads: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains("interrupted"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn ctrl_c_during_iterative_deepening_reports_the_last_finished_depth() {
    let child = spawn(&["solve", "connect4", "--time-ms", "600000", "--json"]);
    let out = interrupt_after(child, 1000);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["stopped"], "interrupted");
    assert_eq!(v["exact"], false);
    assert!(v["depth_reached"].as_u64().expect("a depth") >= 1);
    assert!(v["best_move"].is_string());
}

#[test]
fn a_closed_output_pipe_ends_the_command_without_a_panic() {
    // `cutoff ... | head` closes the pipe early: the command must end quietly.
    let mut child = spawn(&["solve", "tictactoe", "--algo", "minimax"]);
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for cutoff");
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "nothing on stderr: {err}");
}
