//! `cutoff cfr`: the JSON report against the published Kuhn numbers, save and resume through
//! the command equal to an uninterrupted run, the figure, and every bad input refused with one
//! line.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("cutoff runs")
}

fn json(args: &[&str]) -> Value {
    let out = cutoff(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON value")
}

/// The one-line error of a failing command.
fn fails(args: &[&str]) -> String {
    let out = cutoff(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

/// A fresh directory for one test's files.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-cfr-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

#[test]
fn kuhn_cfr_json_reproduces_the_published_exploitability() {
    let v = json(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr",
        "--iterations",
        "1000",
        "--json",
    ]);
    assert_eq!(v["game"], "kuhn");
    assert_eq!(v["algo"], "cfr");
    assert_eq!(v["iterations"], 1000);
    let e = v["exploitability"].as_f64().unwrap();
    assert!(close(e, 0.000937617, 1e-6), "{e}");
    let nc = v["nash_conv"].as_f64().unwrap();
    assert!(close(nc, 2.0 * e, 1e-12), "{nc}");
    let value = v["value"].as_f64().unwrap();
    assert!((value + 1.0 / 18.0).abs() < 1e-2, "{value}");
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["iterations_per_second"].as_f64().unwrap() >= 0.0);
    let curve: Vec<(u64, f64)> = serde_json::from_value(v["curve"].clone()).unwrap();
    let at: Vec<u64> = curve.iter().map(|p| p.0).collect();
    assert_eq!(at, [1, 10, 100, 1000]);
    for (got, want) in curve
        .iter()
        .zip([0.458333, 0.0686988, 0.00822598, 0.000937617])
    {
        assert!(close(got.1, want, 1e-5), "{got:?} against {want}");
    }
    let strategy = v["strategy"].as_array().unwrap();
    assert_eq!(strategy.len(), 12);
    for s in strategy {
        let p: Vec<f64> = serde_json::from_value(s["probabilities"].clone()).unwrap();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{s}");
    }
}

#[test]
fn every_k_sets_the_curve() {
    let v = json(&[
        "cfr",
        "kuhn",
        "--iterations",
        "25",
        "--every",
        "10",
        "--json",
    ]);
    assert_eq!(v["algo"], "cfr+");
    let at: Vec<u64> = v["curve"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[0].as_u64().unwrap())
        .collect();
    assert_eq!(at, [10, 20, 25]);
}

#[test]
fn text_report_has_the_figures_and_the_strategy() {
    let out = cutoff(&["cfr", "kuhn", "--algo", "cfr+", "--iterations", "100"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for word in [
        "iteration       100  exploitability",
        "value",
        "nash_conv",
        "iterations/s",
        "Kb: fold",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

/// The fields that must not depend on whether the run was stopped and resumed.
fn result(v: &Value) -> (Value, Value, Value, Value, Value) {
    (
        v["iterations"].clone(),
        v["value"].clone(),
        v["nash_conv"].clone(),
        v["exploitability"].clone(),
        v["strategy"].clone(),
    )
}

#[test]
fn save_and_resume_equal_the_uninterrupted_run() {
    let dir = temp("resume");
    for (game, algo, half, all) in [
        ("kuhn", "cfr", "100", "200"),
        ("leduc", "cfr+", "50", "100"),
        ("leduc", "dcfr", "50", "100"),
        ("kuhn", "lcfr", "100", "200"),
        ("leduc", "mccfr-es", "160", "320"),
    ] {
        let file = dir.join(format!("{game}-{algo}.state"));
        let file = file.to_str().unwrap();
        let straight = json(&["cfr", game, "--algo", algo, "--iterations", all, "--json"]);
        json(&[
            "cfr",
            game,
            "--algo",
            algo,
            "--iterations",
            half,
            "--save",
            file,
            "--json",
        ]);
        let resumed = json(&[
            "cfr",
            game,
            "--algo",
            algo,
            "--iterations",
            all,
            "--resume",
            file,
            "--json",
        ]);
        assert_eq!(result(&resumed), result(&straight), "{game} {algo}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_one_line() {
    let dir = temp("bad");
    let state = dir.join("kuhn.state");
    let state = state.to_str().unwrap();
    json(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr",
        "--iterations",
        "10",
        "--save",
        state,
        "--json",
    ]);
    let leduc = dir.join("leduc.state");
    let leduc = leduc.to_str().unwrap();
    json(&[
        "cfr",
        "leduc",
        "--algo",
        "cfr",
        "--iterations",
        "10",
        "--save",
        leduc,
        "--json",
    ]);
    let junk = dir.join("junk");
    std::fs::write(&junk, "not a state\n").unwrap();
    let junk = junk.to_str().unwrap();
    let damaged = dir.join("damaged");
    let text = std::fs::read_to_string(state).unwrap();
    std::fs::write(&damaged, text.replacen("tree 58", "tree 59", 1)).unwrap();
    let damaged = damaged.to_str().unwrap();
    let cases: [(&[&str], &str); 12] = [
        (&["cfr", "chess", "--iterations", "5"], "unknown game"),
        (
            &["cfr", "kuhn", "--algo", "foo", "--iterations", "5"],
            "unknown algorithm",
        ),
        (
            &["cfr", "kuhn", "--algo", "cfr,bar", "--iterations", "5"],
            "unknown algorithm",
        ),
        (
            &["cfr", "kuhn", "--iterations", "0"],
            "--iterations must be at least 1",
        ),
        (
            &["cfr", "kuhn", "--iterations", "5", "--every", "0"],
            "--every must be at least 1",
        ),
        (
            &["cfr", "kuhn", "--iterations", "5", "--threads", "2"],
            "single-threaded",
        ),
        (
            &["cfr", "kuhn", "--iterations", "20", "--resume", junk],
            "not a saved CFR solver state",
        ),
        (
            &[
                "cfr",
                "leduc",
                "--algo",
                "cfr",
                "--iterations",
                "20",
                "--resume",
                state,
            ],
            "of game kuhn, not leduc",
        ),
        (
            &[
                "cfr",
                "kuhn",
                "--algo",
                "cfr",
                "--iterations",
                "20",
                "--resume",
                damaged,
            ],
            "fingerprint",
        ),
        (
            &[
                "cfr",
                "kuhn",
                "--algo",
                "cfr+",
                "--iterations",
                "20",
                "--resume",
                state,
            ],
            "of algorithm cfr, not cfr+",
        ),
        (
            &[
                "cfr",
                "kuhn",
                "--algo",
                "cfr",
                "--iterations",
                "5",
                "--resume",
                state,
            ],
            "fewer than the 10 iterations",
        ),
        (
            &[
                "cfr",
                "kuhn",
                "--algo",
                "cfr,cfr+",
                "--iterations",
                "20",
                "--resume",
                state,
            ],
            "single --algo",
        ),
    ];
    for (args, want) in cases {
        let err = fails(args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let err = fails(&[
        "cfr",
        "leduc",
        "--algo",
        "mccfr-es",
        "--iterations",
        "100",
        "--save",
        state,
    ]);
    assert!(err.contains("a multiple of its batch"), "{err}");
    let err = fails(&[
        "cfr",
        "kuhn",
        "--algo",
        "mccfr-es",
        "--iterations",
        "20",
        "--resume",
        state,
    ]);
    assert!(err.contains("of algorithm cfr, not mccfr-es"), "{err}");
    let err = fails(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr",
        "--iterations",
        "20",
        "--resume",
        "/no/such/file",
    ]);
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mccfr_batch_and_variance_options() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "cfr",
            "kuhn",
            "--algo",
            "mccfr-es",
            "--iterations",
            "64",
            "--json",
        ];
        args.extend_from_slice(extra);
        let v = json(&args);
        v["nash_conv"].as_f64().unwrap()
    };
    let default = run(&[]);
    assert_eq!(run(&["--batch", "16", "--variance", "both"]), default);
    // Other settings sample otherwise; threads do not change the result.
    assert_ne!(run(&["--variance", "none"]), default);
    assert_ne!(run(&["--batch", "1"]), default);
    assert_eq!(
        run(&["--batch", "32", "--threads", "2"]),
        run(&["--batch", "32", "--threads", "1"])
    );
    let dir = temp("batch");
    let file = dir.join("m.state");
    let file = file.to_str().unwrap();
    json(&[
        "cfr",
        "kuhn",
        "--algo",
        "mccfr-es",
        "--iterations",
        "32",
        "--batch",
        "8",
        "--variance",
        "stratify",
        "--save",
        file,
        "--json",
    ]);
    let straight = json(&[
        "cfr",
        "kuhn",
        "--algo",
        "mccfr-es",
        "--iterations",
        "64",
        "--batch",
        "8",
        "--variance",
        "stratify",
        "--json",
    ]);
    let resumed = json(&[
        "cfr",
        "kuhn",
        "--algo",
        "mccfr-es",
        "--iterations",
        "64",
        "--resume",
        file,
        "--json",
    ]);
    assert_eq!(result(&resumed), result(&straight));
    for (extra, want) in [
        (&["--batch", "16"][..], "batches of 8"),
        (&["--variance", "both"][..], "another variance reduction"),
    ] {
        let mut args = vec![
            "cfr",
            "kuhn",
            "--algo",
            "mccfr-es",
            "--iterations",
            "64",
            "--resume",
            file,
        ];
        args.extend_from_slice(extra);
        let err = fails(&args);
        assert!(err.contains(want), "{extra:?}: {err}");
    }
    for (extra, want) in [
        (&["--batch", "0"][..], "--batch must be between 1 and 65536"),
        (
            &["--batch", "70000"][..],
            "--batch must be between 1 and 65536",
        ),
        (&["--variance", "more"][..], "unknown --variance 'more'"),
    ] {
        let mut args = vec!["cfr", "kuhn", "--algo", "mccfr-es", "--iterations", "64"];
        args.extend_from_slice(extra);
        let err = fails(&args);
        assert!(err.contains(want), "{extra:?}: {err}");
    }
    let err = fails(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr",
        "--iterations",
        "4",
        "--batch",
        "2",
    ]);
    assert!(err.contains("mccfr-es only, not to cfr"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn svg_draws_one_line_per_algorithm() {
    let dir = temp("svg");
    let svg = dir.join("kuhn.svg");
    let v = json(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr,cfr+",
        "--algo",
        "lcfr",
        "--iterations",
        "200",
        "--svg",
        svg.to_str().unwrap(),
        "--json",
    ]);
    let runs = v.as_array().expect("one object per algorithm");
    let algos: Vec<&str> = runs.iter().map(|r| r["algo"].as_str().unwrap()).collect();
    assert_eq!(algos, ["cfr", "cfr+", "lcfr"]);
    let text = std::fs::read_to_string(&svg).expect("the figure is written");
    assert!(text.starts_with("<svg"), "{}", &text[..100.min(text.len())]);
    for name in ["cfr+", "lcfr", "iterations", "exploitability"] {
        assert!(text.contains(name), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_time_budget_runs_each_algorithm_for_its_seconds() {
    let v = json(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr+,mccfr-es",
        "--seconds",
        "0.2",
        "--threads",
        "1",
        "--json",
    ]);
    let runs = v.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for r in runs {
        let curve = r["curve"].as_array().unwrap();
        let secs: Vec<f64> = r["curve_seconds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(curve.len(), secs.len());
        assert!(curve.len() >= 10, "{r}");
        assert!(secs.windows(2).all(|w| w[0] <= w[1]), "{secs:?}");
        let its: Vec<u64> = curve.iter().map(|p| p[0].as_u64().unwrap()).collect();
        assert!(its.windows(2).all(|w| w[0] < w[1]), "{its:?}");
        // The run stops once its budget is spent, at its last point.
        assert!(r["seconds"].as_f64().unwrap() >= 0.2, "{r}");
        assert_eq!(*secs.last().unwrap(), r["seconds"].as_f64().unwrap());
        assert_eq!(*its.last().unwrap(), r["iterations"].as_u64().unwrap());
    }
    // mccfr-es's points are whole batches.
    assert!(runs[1]["curve"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p[0].as_u64().unwrap() % 16 == 0));
    for (args, want) in [
        (&["--seconds", "0"][..], "--seconds must be more than 0"),
        (&["--seconds", "1e9"][..], "at most 86400"),
        (&["--seconds", "nan"][..], "--seconds must be more than 0"),
        (
            &["--iterations", "1000000000", "--every", "1"][..],
            "--every 1 would report 1000000000 times; at most 100000",
        ),
        (&[][..], "give --iterations N or --seconds S"),
        (&["--iterations", "5", "--seconds", "1"][..], "S, not both"),
    ] {
        let mut a = vec!["cfr", "kuhn"];
        a.extend_from_slice(args);
        let err = fails(&a);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn hand_edited_states_are_refused_or_run_promptly() {
    let dir = temp("edited");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let m = path("m.state");
    json(&[
        "cfr",
        "kuhn",
        "--algo",
        "mccfr-es",
        "--iterations",
        "32",
        "--save",
        &m,
        "--json",
    ]);
    let text = std::fs::read_to_string(&m).unwrap();
    let (magic, body) = text.split_once('\n').unwrap();
    let state: Value = serde_json::from_str(body).unwrap();
    let write = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut s = state.clone();
        edit(&mut s);
        let p = path(name);
        std::fs::write(&p, format!("{magic}\n{s}\n")).unwrap();
        p
    };
    let resume = |p: &str, extra: &[&str]| {
        let mut a = vec!["cfr", "kuhn", "--algo", "mccfr-es", "--resume", p];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let cases: Vec<(String, &str)> = vec![
        (
            write("actions.state", &|s| s["infosets"][0]["actions"] = 3.into()),
            "is not this game's",
        ),
        (
            write("key.state", &|s| s["infosets"][0]["key"] = "Z".into()),
            "is not this game's",
        ),
        (
            write("batch.state", &|s| s["batch"] = 1_000_000_000_000u64.into()),
            "batch is not in 1..=65536",
        ),
        // Finite, but more than 32 iterations can make (see the engine's MccfrState::check).
        (
            write("regret.state", &|s| s["regrets"][0] = 1e308.into()),
            "regrets at J are more than 32 iterations can make",
        ),
    ];
    for (p, want) in &cases {
        let args = resume(p, &["--iterations", "64"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = fails(&args);
        assert!(err.contains(want), "{p}: {err}");
    }
    // --seed must agree with the saved one.
    let args = resume(&m, &["--iterations", "64", "--seed", "7"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(fails(&args).contains("goes on with its seed 1"));
    // A state far along, resumed against the clock with a report every iteration: the
    // report points start past it, not at 1.
    let far = write("far.state", &|s| {
        s["iterations"] = 1_000_000_000_000_000u64.into()
    });
    let args = resume(&far, &["--seconds", "0.05", "--every", "1", "--json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = json(&args);
    assert!(v["iterations"].as_u64().unwrap() > 1_000_000_000_000_000);
    // A full-width state whose parameters are not those of its label.
    let f = path("f.state");
    json(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr",
        "--iterations",
        "10",
        "--save",
        &f,
        "--json",
    ]);
    let text = std::fs::read_to_string(&f).unwrap();
    let plus = with_params_line(&text, "params 1 - - 3ff0000000000000");
    std::fs::write(&f, plus).unwrap();
    let err = fails(&[
        "cfr",
        "kuhn",
        "--algo",
        "cfr",
        "--iterations",
        "20",
        "--resume",
        &f,
    ]);
    assert!(err.contains("not those of algorithm cfr"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `text`, a full-width solver's saved state, with its `params` line replaced by `line`.
fn with_params_line(text: &str, line: &str) -> String {
    text.lines()
        .map(|l| if l.starts_with("params ") { line } else { l })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// A full-width solver's state file, saved by the command after `iterations` of `algo` on
/// Kuhn poker.
fn saved_state(dir: &std::path::Path, name: &str, algo: &str, iterations: &str) -> String {
    let p = dir.join(name).to_str().unwrap().to_string();
    json(&[
        "cfr",
        "kuhn",
        "--algo",
        algo,
        "--iterations",
        iterations,
        "--save",
        &p,
        "--json",
    ]);
    p
}

/// `text`, a full-width solver's state, with the line of `field` given `words`: one value
/// repeated over an array's slots, or the words as they are for any other field.
fn with_field(text: &str, field: &str, words: &str) -> String {
    text.lines()
        .map(|l| match l.split_once(' ') {
            Some((f, rest)) if f == field => {
                let n = rest.split(' ').count();
                let values = if matches!(field, "current" | "regret" | "avg") {
                    vec![words; n].join(" ")
                } else {
                    words.to_string()
                };
                format!("{f} {values}")
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// `x` as a state file writes it: the 16 hex digits of its bits.
fn hex(x: f64) -> String {
    format!("{:016x}", x.to_bits())
}

/// Runs the command, killing it and failing the test if it is still running after a minute
/// (a guard against a hang, not a timing).
fn within_a_minute(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cutoff runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} still running after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The files left in `dir`.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn a_save_that_fails_keeps_the_previous_state() {
    use std::os::unix::process::CommandExt;
    for ignore_signal in [false, true] {
        let dir = temp(&format!("fsize-{ignore_signal}"));
        let state = saved_state(&dir, "kuhn.state", "cfr", "10");
        let before = std::fs::read(&state).unwrap();
        let before_names = listing(&dir);
        // The limit lies inside the state (about 1.3 KB): the new one cannot be written
        // whole. With SIGXFSZ at its default the kernel kills a writer past the limit; with
        // it ignored (as a shell may leave it) the write fails with EFBIG.
        let limit = before.len() as u64 / 2;
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cutoff"));
        cmd.args([
            "cfr",
            "kuhn",
            "--algo",
            "cfr",
            "--iterations",
            "20",
            "--resume",
            &state,
            "--save",
            &state,
            "--json",
        ]);
        // SAFETY: the closure runs in the child between fork and exec and calls only
        // setrlimit and signal, both async-signal-safe; it touches no memory of the parent.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if ignore_signal {
                    libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                }
                Ok(())
            });
        }
        let out = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "ignored SIGXFSZ {ignore_signal}: {:?} {err}",
            out.status
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("cannot write") && err.contains("kuhn.state"),
            "{err}"
        );
        assert_eq!(
            std::fs::read(&state).unwrap(),
            before,
            "the old state changed"
        );
        assert_eq!(listing(&dir), before_names, "a temporary file was left");
        // And it still resumes.
        let v = json(&[
            "cfr",
            "kuhn",
            "--algo",
            "cfr",
            "--iterations",
            "20",
            "--resume",
            &state,
            "--json",
        ]);
        assert_eq!(v["iterations"], 20);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn an_unwritable_save_path_is_refused_before_the_run() {
    let dir = temp("unwritable");
    let missing = dir.join("no-such-folder").join("kuhn.state");
    let folder = dir.to_str().unwrap();
    for (flag, path) in [
        ("--save", missing.to_str().unwrap()),
        ("--save", folder),
        ("--svg", missing.to_str().unwrap()),
        ("--svg", folder),
    ] {
        let args = [
            "cfr",
            "kuhn",
            "--algo",
            "cfr",
            "--iterations",
            "100",
            "--every",
            "10",
            flag,
            path,
        ];
        let out = cutoff(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("cannot write"), "{args:?}: {err}");
        // Nothing ran: no report point, no report.
        assert!(
            out.stdout.is_empty(),
            "{args:?} ran first: {:?}",
            out.stdout
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sums_beyond_what_the_iterations_make_are_refused() {
    let dir = temp("sums");
    let state = saved_state(&dir, "kuhn.state", "cfr", "10");
    let text = std::fs::read_to_string(&state).unwrap();
    let forged = |name: &str, field: &str, value: f64| {
        let p = dir.join(name).to_str().unwrap().to_string();
        std::fs::write(&p, with_field(&text, field, &hex(value))).unwrap();
        p
    };
    let resume = |p: &str| {
        vec![
            "cfr".to_string(),
            "kuhn".into(),
            "--algo".into(),
            "cfr".into(),
            "--iterations".into(),
            "12".into(),
            "--resume".into(),
            p.into(),
        ]
    };
    // Average sums at f64::MAX summed to infinity: the strategy came out all zeros with an
    // exploitability of 0. Regrets at f64::MAX did the same to the current strategy, which
    // was saved and then refused.
    for (name, field, value, want) in [
        ("avg.state", "avg", f64::MAX, "average-strategy sums at J"),
        ("avg2.state", "avg", 1e300, "average-strategy sums at J"),
        ("regret.state", "regret", f64::MAX, "regrets at J"),
        ("regret2.state", "regret", -1e300, "regrets at J"),
    ] {
        let p = forged(name, field, value);
        let args = resume(&p);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = fails(&args);
        assert!(
            err.contains(want) && err.contains("more than 10 iterations can make"),
            "{name}: {err}"
        );
    }
    // The same for MCCFR's sums and baselines.
    let m = dir.join("m.state").to_str().unwrap().to_string();
    json(&[
        "cfr",
        "kuhn",
        "--algo",
        "mccfr-es",
        "--iterations",
        "32",
        "--save",
        &m,
        "--json",
    ]);
    let text = std::fs::read_to_string(&m).unwrap();
    let (magic, body) = text.split_once('\n').unwrap();
    let saved: Value = serde_json::from_str(body).unwrap();
    for (what, want) in [
        ("averages", "average-strategy sums"),
        ("regrets", "regrets"),
        ("baselines", "baseline in slot"),
    ] {
        let mut s = saved.clone();
        for x in s[what].as_array_mut().unwrap() {
            match x.as_array_mut() {
                Some(pair) => pair[1] = 1.7e308.into(),
                None => *x = 1.7e308.into(),
            }
        }
        let p = dir.join(format!("m-{what}.state"));
        std::fs::write(&p, format!("{magic}\n{s}\n")).unwrap();
        let err = fails(&[
            "cfr",
            "kuhn",
            "--algo",
            "mccfr-es",
            "--iterations",
            "64",
            "--resume",
            p.to_str().unwrap(),
        ]);
        assert!(err.contains(want), "{what}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn states_at_their_bounds_run_on_to_finite_figures_and_resume_again() {
    let dir = temp("bounds");
    let state = saved_state(&dir, "kuhn.state", "cfr", "10");
    let text = std::fs::read_to_string(&state).unwrap();
    // Kuhn's payoffs are at most 2, so 10 iterations make regrets of at most 2 * 2 * 10 and
    // average sums of at most 10 a set: the check allows 4 times that for rounding. Every
    // regret and every sum at those bounds, and the same near the cap in a second file.
    let at_bounds = with_field(&with_field(&text, "regret", &hex(160.0)), "avg", &hex(20.0));
    let cap = 1u64 << 53;
    let t = (cap - 3) as f64;
    let at_cap = with_field(
        &with_field(
            &with_field(&text, "regret", &hex(-16.0 * t)),
            "avg",
            &hex(2.0 * t),
        ),
        "iterations",
        &(cap - 3).to_string(),
    );
    for (name, forged, budget) in [
        ("bounds.state", at_bounds, ["--iterations", "30"]),
        ("cap.state", at_cap, ["--seconds", "0.05"]),
    ] {
        let p = dir.join(name).to_str().unwrap().to_string();
        std::fs::write(&p, forged).unwrap();
        let saved = dir.join(format!("re-{name}")).to_str().unwrap().to_string();
        let out = within_a_minute(&[
            "cfr", "kuhn", "--algo", "cfr", budget[0], budget[1], "--every", "1", "--resume", &p,
            "--save", &saved, "--json",
        ]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        for field in ["value", "nash_conv", "exploitability"] {
            assert!(v[field].as_f64().unwrap().is_finite(), "{name}: {field}");
        }
        assert!(v["exploitability"].as_f64().unwrap() > 0.0, "{name}");
        for set in v["strategy"].as_array().unwrap() {
            let p: Vec<f64> = set["probabilities"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{name}: {set}");
        }
        // What it saved resumes.
        let more = v["iterations"].as_u64().unwrap().min(cap - 1) + 1;
        let more = more.to_string();
        let resumed = within_a_minute(&[
            "cfr",
            "kuhn",
            "--algo",
            "cfr",
            "--iterations",
            if name == "cap.state" {
                "9007199254740992"
            } else {
                &more
            },
            "--resume",
            &saved,
            "--json",
        ]);
        assert!(
            resumed.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&resumed.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn iteration_counts_near_the_top_are_refused_or_end_at_the_cap() {
    let dir = temp("top");
    let state = saved_state(&dir, "kuhn.state", "cfr", "10");
    let text = std::fs::read_to_string(&state).unwrap();
    let with_iterations = |name: &str, n: u64| {
        let p = dir.join(name).to_str().unwrap().to_string();
        std::fs::write(&p, with_field(&text, "iterations", &n.to_string())).unwrap();
        p
    };
    // Near u64::MAX, --every 1 counted report points past the top and round again, forever.
    let top = with_iterations("top.state", u64::MAX - 5);
    for budget in [
        ["--seconds", "0.05"],
        ["--iterations", "18446744073709551615"],
    ] {
        let out = within_a_minute(&[
            "cfr", "kuhn", "--algo", "cfr", budget[0], budget[1], "--every", "1", "--resume", &top,
        ]);
        assert_eq!(out.status.code(), Some(1), "{budget:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("more than the 9007199254740992"), "{err}");
    }
    let err = fails(&["cfr", "kuhn", "--iterations", "9007199254740993"]);
    assert!(err.contains("more than the 9007199254740992"), "{err}");
    // Just under the cap, against the clock, with and without --every: the run stops there.
    let near = with_iterations("near.state", (1 << 53) - 3);
    for every in [&["--every", "1"][..], &[]] {
        let mut args = vec![
            "cfr",
            "kuhn",
            "--algo",
            "cfr",
            "--seconds",
            "0.05",
            "--resume",
            &near,
            "--json",
        ];
        args.extend_from_slice(every);
        let out = within_a_minute(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["iterations"].as_u64(), Some(1 << 53), "{every:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
