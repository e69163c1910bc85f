//! Split, solve-shard and merge, and `distribute`: the value and best move are `cutoff solve`'s,
//! in whatever order the shards run, after workers and the driver are killed, and files of
//! another run, missing or truncated ones are refused.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cutoff(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cutoff"));
    c.args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = cutoff(args, &[]);
    assert!(
        out.status.success(),
        "cutoff {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The one-line error of a run that must fail.
fn fails(args: &[&str]) -> String {
    let out = cutoff(args, &[]);
    assert!(!out.status.success(), "cutoff {args:?} should fail");
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cutoff-shard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn json(text: &str) -> Json {
    serde_json::from_str(text).expect("one JSON object")
}

/// Splits `game pos` `depth` plies deep into `shards` shards under `dir`, returns the split
/// file's path.
fn split(dir: &Path, game: &[&str], depth: usize, shards: usize) -> PathBuf {
    let file = dir.join("split.jsonl");
    let (d, n) = (depth.to_string(), shards.to_string());
    let mut args = vec!["split"];
    args.extend(game);
    args.extend(["--depth", &d, "--shards", &n, "--out", s(&file)]);
    ok(&args);
    file
}

fn solve_shard(file: &Path, out: &Path, i: usize) {
    ok(&[
        "solve-shard",
        s(file),
        "--index",
        &i.to_string(),
        "--out",
        s(out),
        "--threads",
        "1",
        "-q",
    ]);
}

fn merge(file: &Path, out: &Path) -> Json {
    json(&ok(&["merge", s(file), s(out), "--json"]))
}

/// The moves `analyse` scores best, and their score.
fn best_moves(game: &[&str]) -> Option<Vec<String>> {
    let mut args = vec!["analyse"];
    args.extend(game);
    args.push("--json");
    let out = cutoff(&args, &[]);
    if !out.status.success() {
        return None;
    }
    let a = json(&String::from_utf8_lossy(&out.stdout));
    let moves = a["moves"].as_array()?;
    let best = moves.iter().filter_map(|m| m["value"].as_i64()).max()?;
    Some(
        moves
            .iter()
            .filter(|m| m["value"].as_i64() == Some(best))
            .filter_map(|m| m["move"].as_str().map(str::to_string))
            .collect(),
    )
}

/// Split, solve every shard in three orders (forward, backward, one shard twice) and merge:
/// each time the value is `solve`'s and the best move is one of the best.
fn agrees_with_solve(name: &str, game: &[&str], depth: usize, shards: usize) {
    let mut args = vec!["solve"];
    args.extend(game);
    args.extend(["--json", "-q", "--threads", "1"]);
    let direct = json(&ok(&args));
    let dir = scratch(name);
    let file = split(&dir, game, depth, shards);
    let header = json(
        std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    );
    assert_eq!(header["shards"], shards);
    let orders: [Vec<usize>; 3] = [
        (0..shards).collect(),
        (0..shards).rev().collect(),
        (0..shards).chain([0]).collect(),
    ];
    for (k, order) in orders.iter().enumerate() {
        let out = dir.join(format!("results-{k}"));
        for &i in order {
            solve_shard(&file, &out, i);
        }
        let m = merge(&file, &out);
        assert_eq!(m["value"], direct["value"], "{name} order {k}");
        assert_eq!(m["exact"], true);
        assert_eq!(m["shards"], shards);
        assert_eq!(m["frontier"], header["frontier"]);
        assert!(m["nodes"].as_u64().unwrap() > 0);
        // The searched count is the sum of the lines' counts in the result files (absent when
        // 0, as `solve` prints it), and part of the nodes.
        let mut lines_searched = 0;
        for f in std::fs::read_dir(&out).unwrap() {
            let r = json(&std::fs::read_to_string(f.unwrap().path()).unwrap());
            for l in r["lines"].as_array().unwrap() {
                lines_searched += l["searched"].as_u64().expect("a line's searched count");
            }
        }
        let searched = m["searched"].as_u64().unwrap_or(0);
        assert_eq!(searched, lines_searched, "{name} order {k}");
        assert!(
            searched <= m["nodes"].as_u64().unwrap(),
            "{name}: {searched}"
        );
        let best = m["best_move"].as_str().expect("a best move");
        match best_moves(game) {
            Some(ok) => assert!(
                ok.contains(&best.to_string()),
                "{name}: {best} not in {ok:?}"
            ),
            None => assert_eq!(m["best_move"], direct["best_move"]),
        }
        // The line starts with the best move and is legal all the way.
        let pv: Vec<&str> = m["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(pv.first().copied(), Some(best));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn connect4_split_merges_to_the_solved_value() {
    agrees_with_solve("c4", &["connect4", "274552224131661"], 3, 4);
    agrees_with_solve("c4b", &["connect4", "5455174361263362"], 2, 3);
}

#[test]
fn connect4_splits_on_other_boards_merge_to_the_solved_value() {
    // The split file records the board; every later pass plays on it.
    agrees_with_solve("c4-5x4", &["connect4", "3", "--board", "5x4"], 2, 3);
    agrees_with_solve(
        "c4-10x4",
        &["connect4", "10,1,5,5", "--board", "10x4", "--connect", "3"],
        1,
        2,
    );
    // A 128-bit board, 44 stones in.
    let late =
        "7,7,1,5,9,8,7,5,8,6,4,9,3,5,3,2,5,9,3,5,2,2,6,8,9,2,6,7,7,4,9,8,8,9,5,1,9,1,2,7,1,8,2,6";
    agrees_with_solve("c4-9x7", &["connect4", late, "--board", "9x7"], 2, 2);
}

#[test]
fn tictactoe_split_merges_to_the_solved_value() {
    agrees_with_solve("ttt", &["tictactoe"], 2, 3);
    agrees_with_solve("ttt2", &["tictactoe", "X../.O./..."], 3, 2);
}

#[test]
fn control_split_merges_to_the_solved_value() {
    agrees_with_solve("control", &["control", "0110/1011/1101/0110"], 1, 2);
    agrees_with_solve(
        "control6",
        &["control", "010001/101000/010100/001010/000101/100010"],
        2,
        3,
    );
}

#[test]
fn mirror_images_and_transpositions_share_a_line() {
    let dir = scratch("mirror");
    let file = split(&dir, &["connect4"], 2, 1);
    let text = std::fs::read_to_string(&file).unwrap();
    let header = json(text.lines().next().unwrap());
    // 49 paths of two moves to 49 distinct positions; mirror images pair 1-2 with 7-6 and so
    // on, all but 4-4, which is its own: 24 pairs and one.
    assert_eq!(header["paths"], 49);
    assert_eq!(header["frontier"], 25);
    let paths: usize = text
        .lines()
        .skip(1)
        .map(|l| json(l)["paths"].as_array().unwrap().len())
        .sum();
    assert_eq!(paths, 49);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_index_comes_from_slurm_or_kubernetes() {
    let dir = scratch("env");
    let file = split(&dir, &["connect4", "274552224131661"], 2, 2);
    let out = dir.join("r");
    for (var, i) in [("SLURM_ARRAY_TASK_ID", "0"), ("JOB_COMPLETION_INDEX", "1")] {
        let o = cutoff(
            &["solve-shard", s(&file), "--out", s(&out), "-q"],
            &[(var, i)],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.join(format!("shard-0000{i}.json")).exists());
    }
    // Rerun: skipped, the file untouched.
    let before = std::fs::read(out.join("shard-00000.json")).unwrap();
    let o = cutoff(
        &["solve-shard", s(&file), "--index", "0", "--out", s(&out)],
        &[],
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("skipped"));
    assert_eq!(std::fs::read(out.join("shard-00000.json")).unwrap(), before);
    let e = fails(&["solve-shard", s(&file), "--out", s(&out)]);
    assert!(e.contains("no shard index"), "{e}");
    let e = fails(&["solve-shard", s(&file), "--index", "2", "--out", s(&out)]);
    assert!(e.contains("out of range"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_missing_truncated_and_foreign_results() {
    let dir = scratch("bad");
    let file = split(&dir, &["connect4", "274552224131661"], 2, 3);
    let out = dir.join("r");
    solve_shard(&file, &out, 0);
    solve_shard(&file, &out, 2);
    let e = fails(&["merge", s(&file), s(&out)]);
    assert!(
        e.contains("1 of 3 shards have no result") && e.contains(": 1"),
        "{e}"
    );
    solve_shard(&file, &out, 1);
    merge(&file, &out);

    // Truncated.
    let r1 = out.join("shard-00001.json");
    let whole = std::fs::read(&r1).unwrap();
    std::fs::write(&r1, &whole[..whole.len() / 2]).unwrap();
    let e = fails(&["merge", s(&file), s(&out)]);
    assert!(e.contains("shard 1") && e.contains("truncated"), "{e}");
    std::fs::write(&r1, &whole).unwrap();

    // Foreign: a result of another split of the same shape.
    let other_dir = dir.join("other");
    std::fs::create_dir_all(&other_dir).unwrap();
    let other = split(&other_dir, &["connect4", "5455174361263362"], 2, 3);
    let other_out = other_dir.join("r");
    solve_shard(&other, &other_out, 1);
    std::fs::copy(other_out.join("shard-00001.json"), &r1).unwrap();
    let e = fails(&["merge", s(&file), s(&out)]);
    assert!(e.contains("shard 1") && e.contains("another split"), "{e}");
    // solve-shard will not overwrite it either.
    let e = fails(&["solve-shard", s(&file), "--index", "1", "--out", s(&out)]);
    assert!(e.contains("another split"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn split_rejects_bad_settings() {
    let dir = scratch("args");
    let f = dir.join("x.jsonl");
    let e = fails(&["split", "connect4", "4453", "--out", s(&f)]);
    assert!(e.contains("--depth"), "{e}");
    let e = fails(&[
        "split",
        "connect4",
        "--depth",
        "2",
        "--shards",
        "0",
        "--out",
        s(&f),
    ]);
    assert!(e.contains("--shards"), "{e}");
    let e = fails(&["merge", s(&f)]);
    assert!(e.contains("cannot read"), "{e}");
    std::fs::write(&f, "not json\n").unwrap();
    let e = fails(&["merge", s(&f)]);
    assert!(e.contains("not a split file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_line_through_a_mirror_image_is_mirrored() {
    // A symmetric position: each frontier line below it stands for a path and its mirror
    // image, and the merged line must be played on the side the best path actually took.
    let pos = "147444442266";
    let dir = scratch("mirrorline");
    let file = split(&dir, &["connect4", pos], 2, 2);
    let out = dir.join("r");
    for i in 0..2 {
        solve_shard(&file, &out, i);
    }
    let m = merge(&file, &out);
    let direct = json(&ok(&["solve", "connect4", pos, "--json", "-q"]));
    assert_eq!(m["value"], direct["value"]);
    let pv: String = m["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(pv.len() > 4, "a line past the frontier: {pv}");
    // Every move legal, and two plies in the value is the same for the same side.
    let whole = format!("{pos}{pv}");
    let end = cutoff(&["solve", "connect4", &whole, "--json", "-q"], &[]);
    assert!(
        end.status.success() || String::from_utf8_lossy(&end.stderr).contains("game ended"),
        "{}",
        String::from_utf8_lossy(&end.stderr)
    );
    for k in [2, 4] {
        let p = format!("{pos}{}", &pv[..k]);
        let v = json(&ok(&["solve", "connect4", &p, "--json", "-q"]));
        assert_eq!(v["value"], direct["value"], "after {}", &pv[..k]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A two-pass solve: the first pass within `window` (the split position's side), `plan`, the
/// second pass, merge: `solve`'s value, with only the lines the proof needs solved twice.
fn two_pass(name: &str, game: &[&str], depth: usize, window: &str) {
    let mut args = vec!["solve"];
    args.extend(game);
    args.extend(["--json", "-q", "--threads", "1"]);
    let direct = json(&ok(&args));
    let dir = scratch(name);
    let p1 = dir.join("p1.jsonl");
    let d = depth.to_string();
    let w = format!("--window={window}");
    let mut args = vec!["split"];
    args.extend(game);
    args.extend(["--depth", &d, "--shards", "2", &w, "--out", s(&p1)]);
    ok(&args);
    let r1 = dir.join("r1");
    for i in 0..2 {
        solve_shard(&p1, &r1, i);
    }
    let p2 = dir.join("p2.jsonl");
    ok(&["plan", s(&p1), s(&r1), "--out", s(&p2)]);
    let r2 = dir.join("r2");
    for i in 0..2 {
        solve_shard(&p2, &r2, i);
    }
    let m = merge(&p2, &r2);
    assert_eq!(m["value"], direct["value"], "{name}");
    assert_eq!(m["exact"], true);
    // The first pass's nodes come as one figure, without a searched count: no partial sum.
    assert!(m["searched"].is_null(), "{name}: {}", m["searched"]);
    // The second pass solves no line the first settled exactly, and not every line.
    let text = std::fs::read_to_string(&p2).unwrap();
    let lines: Vec<Json> = text.lines().skip(1).map(json).collect();
    for l in &lines {
        let k = l["known"].as_array().unwrap();
        if k[0] == k[1] {
            assert!(l["shard"].is_null(), "{name}: line {} was settled", l["id"]);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_pass_splits_merge_to_the_solved_value() {
    two_pass("tp-c4", &["connect4", "5455174361263362"], 3, "-1,1");
    two_pass("tp-c4b", &["connect4", "5455174361263362"], 2, "-2,0");
    two_pass("tp-c4c", &["connect4", "274552224131661"], 2, "2,4");
    two_pass("tp-ttt", &["tictactoe"], 2, "-1,1");
    two_pass(
        "tp-control",
        &["control", "010001/101000/010100/001010/000101/100010"],
        2,
        "0,1",
    );
}

#[test]
fn merge_says_when_a_pass_leaves_the_value_open() {
    // Win, draw or loss only: a Connect Four loss's score is still open after it.
    let pos = "5455174361263362";
    let dir = scratch("open");
    let p1 = dir.join("p1.jsonl");
    ok(&[
        "split",
        "connect4",
        pos,
        "--depth",
        "2",
        "--window=-1,1",
        "--out",
        s(&p1),
    ]);
    let r1 = dir.join("r1");
    solve_shard(&p1, &r1, 0);
    let e = fails(&["merge", s(&p1), s(&r1)]);
    assert!(
        e.contains("not settled") && e.contains("cutoff plan"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cutoff distribute` of `game` into `dir` with extra `args`; its JSON.
fn distribute(dir: &Path, game: &[&str], args: &[&str]) -> Json {
    let mut a = vec!["distribute"];
    a.extend(game);
    a.extend(["--dir", s(dir), "--json", "-q"]);
    a.extend(args);
    json(&ok(&a))
}

/// Checks a live run's `jobs.jsonl` against its summary: one line a job answered or
/// cancelled, their nodes summing to the run's, each ending after it was sent.
fn jobs_log_agrees(dir: &std::path::Path, d: &Json, name: &str) {
    let text = std::fs::read_to_string(dir.join("jobs.jsonl")).unwrap();
    let lines: Vec<Json> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ended = d["jobs"].as_u64().unwrap() + d["cancelled"].as_u64().unwrap();
    assert_eq!(lines.len() as u64, ended, "{name}: one line a job");
    let nodes: u64 = lines.iter().map(|l| l["nodes"].as_u64().unwrap()).sum();
    assert_eq!(
        nodes,
        d["nodes"].as_u64().unwrap(),
        "{name}: the jobs' nodes"
    );
    for l in &lines {
        assert!(
            l["ended"].as_f64().unwrap() >= l["sent"].as_f64().unwrap(),
            "{name}: {l}"
        );
        let kind = l["kind"].as_str().unwrap();
        assert!(["guess", "test", "spare"].contains(&kind), "{name}: {l}");
        assert_eq!(l["at"].is_null(), kind == "guess", "{name}: {l}");
    }
}

/// Checks a distributed run against `cutoff solve`: the value, and a best move among the
/// best.
fn distributed_agrees(name: &str, game: &[&str], d: &Json) {
    let mut args = vec!["solve"];
    args.extend(game);
    args.extend(["--json", "-q", "--threads", "1"]);
    let direct = json(&ok(&args));
    assert_eq!(d["value"], direct["value"], "{name}");
    for field in ["nodes", "jobs", "cancelled"] {
        assert!(d[field].is_u64(), "{name}: {field} in {d}");
    }
    let best = d["best_move"].as_str().expect("a best move");
    match best_moves(game) {
        Some(ok) => assert!(
            ok.contains(&best.to_string()),
            "{name}: {best} not in {ok:?}"
        ),
        None => assert_eq!(d["best_move"], direct["best_move"]),
    }
}

#[test]
fn distribute_gets_the_solved_value_on_every_game() {
    let cases: [(&str, &[&str], &str); 5] = [
        ("c4", &["connect4", "44444432"], "2"),
        ("c4-deep", &["connect4", "274552224131661"], "3"),
        ("c4-6x5", &["connect4", "3344", "--board", "6x5"], "2"),
        ("ttt", &["tictactoe"], "3"),
        ("matchsticks", &["matchsticks", "21"], "2"),
    ];
    // Long-lived workers, the simulated cluster (small budgets, so that tests run out and
    // are split or sent again), and the rounds.
    let backends: [&[&str]; 4] = [
        &["--backend", "local", "--workers", "2"],
        &[
            "--backend",
            "simulate",
            "--workers",
            "16",
            "--job-nodes",
            "2000",
        ],
        &[
            "--backend",
            "local",
            "--workers",
            "3",
            "--job-nodes",
            "1000",
            "--no-speculate",
        ],
        &["--backend", "local-rounds", "--workers", "2"],
    ];
    for (name, game, depth) in cases {
        for backend in backends {
            let dir = scratch(&format!("dist-{name}"));
            let mut args = vec!["--depth", depth];
            args.extend(backend);
            let d = distribute(&dir, game, &args);
            distributed_agrees(&format!("{name} {backend:?}"), game, &d);
            assert!(d["jobs"].as_u64().unwrap() > 0, "{name}");
            if backend[1] != "local-rounds" {
                jobs_log_agrees(&dir, &d, name);
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

#[test]
fn a_live_run_resumes_from_its_answers_and_skips_what_is_not_its_own() {
    let game = ["connect4", "44444432"];
    let dir = scratch("dist-live-resume");
    let first = distribute(&dir, &game, &["--depth", "2", "--workers", "2"]);
    let answers = dir.join("answers.jsonl");
    let text = std::fs::read_to_string(&answers).unwrap();
    let lines = text.lines().count();
    assert!(lines > 0 && lines as u64 >= first["jobs"].as_u64().unwrap());
    // Run again: every answer is read back, the value holds, and little is searched.
    let again = distribute(&dir, &game, &["--depth", "2", "--workers", "2"]);
    assert_eq!(again["value"], first["value"]);
    assert_eq!(again["resumed"].as_u64().unwrap() as usize, lines);
    assert!(again["nodes"].as_u64().unwrap() < first["nodes"].as_u64().unwrap());
    // A torn last line (a driver killed mid-write) and a line of another run are skipped
    // with a note; the rest are taken.
    let mut damaged = text.replacen("\"digest\":\"", "\"digest\":\"0", 1);
    damaged.push_str("{\"digest\":");
    std::fs::write(&answers, damaged).unwrap();
    let out = cutoff(
        &[
            "distribute",
            "connect4",
            "44444432",
            "--depth",
            "2",
            "--workers",
            "2",
            "--dir",
            s(&dir),
            "--json",
        ],
        &[],
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 line(s)") && err.contains("skipped"),
        "{err}"
    );
    let d = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(d["value"], first["value"]);
    // Simulated latencies that are not numbers are refused, naming the option.
    for bad in ["NaN", "-1", "inf"] {
        let bad = format!("--latency={bad}");
        let out = cutoff(
            &[
                "distribute",
                "connect4",
                "44",
                "--dir",
                s(&dir),
                "--backend",
                "simulate",
                &bad,
            ],
            &[],
        );
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.contains("--latency"), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A command built without the `mpi` feature refuses `--backend mpi` in one line that says
/// how to build it with MPI, and writes nothing.
#[cfg(not(feature = "mpi"))]
#[test]
fn distribute_without_mpi_says_how_to_build_it() {
    let dir = scratch("dist-no-mpi");
    let run = dir.join("run");
    let e = fails(&[
        "distribute",
        "connect4",
        "44",
        "--dir",
        s(&run),
        "--backend",
        "mpi",
    ]);
    assert!(
        e.contains("built without MPI")
            && e.contains("--features mpi")
            && e.contains("--backend mpi"),
        "{e}"
    );
    assert!(!run.exists(), "the run folder was made");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `distribute connect4 44444432` run again on `dir`, which must succeed: its standard error
/// and its JSON.
fn rerun(dir: &Path) -> (String, Json) {
    let out = cutoff(
        &[
            "distribute",
            "connect4",
            "44444432",
            "--depth",
            "2",
            "--dir",
            s(dir),
            "--json",
            "-q",
            "--backend",
            "local-rounds",
        ],
        &[],
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (err, json(&String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn distribute_resumes_and_refuses_what_is_not_its_own() {
    let game = ["connect4", "44444432"];
    let dir = scratch("dist-resume");
    let rounds = [
        "--depth",
        "2",
        "--workers",
        "2",
        "--backend",
        "local-rounds",
    ];
    let first = distribute(&dir, &game, &rounds);
    // Everything is in the folder: a second run reuses every result and runs nothing.
    let again = distribute(&dir, &game, &rounds);
    assert_eq!(again["value"], first["value"]);
    assert_eq!(again["nodes"], first["nodes"]);
    assert_eq!(again["jobs"], first["jobs"]);
    let files = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().contains("stopped"))
        .count();
    assert_eq!(again["resumed"], files, "every result reused");
    // Other settings are refused, in one line that names the difference.
    let e = fails(&[
        "distribute",
        "connect4",
        "44444432",
        "--depth",
        "3",
        "--dir",
        s(&dir),
    ]);
    assert!(e.contains("holds a run of other settings (--depth)"), "{e}");
    let e = fails(&[
        "distribute",
        "connect4",
        "4444443",
        "--depth",
        "2",
        "--dir",
        s(&dir),
    ]);
    assert!(e.contains("(game)"), "{e}");
    // A truncated result and one of another run are set aside and their work done again.
    let results = dir.join("results");
    let r0 = results.join("1-0.json");
    let text = std::fs::read_to_string(&r0).unwrap();
    std::fs::write(&r0, &text[..text.len() / 2]).unwrap();
    let r1 = results.join("0-0.json");
    let other =
        std::fs::read_to_string(&r1)
            .unwrap()
            .replacen("\"digest\":\"", "\"digest\":\"0", 1);
    std::fs::write(&r1, other).unwrap();
    let (err, again) = rerun(&dir);
    assert!(err.contains("another run"), "{err}");
    assert!(err.contains("not a valid file"), "{err}");
    assert_eq!(again["value"], first["value"]);
    assert!(results.join("1-0.refused").exists() && results.join("0-0.refused").exists());
    // A damaged round file: its results are not trusted, the rest are, and the value holds.
    std::fs::write(dir.join("rounds").join("2.json"), "{\"digest\": 1").unwrap();
    let (err, again) = rerun(&dir);
    assert!(err.contains("ignoring round 2"), "{err}");
    assert_eq!(again["value"], first["value"]);
    // A second driver on a folder in use is refused.
    let busy = scratch("dist-busy");
    let mut first = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args([
            "distribute",
            "connect4",
            "4453",
            "--depth",
            "2",
            "-q",
            "--dir",
            s(&busy),
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while !busy.join("run.json").exists() && first.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    if first.try_wait().unwrap().is_none() {
        let e = fails(&[
            "distribute",
            "connect4",
            "4453",
            "--depth",
            "2",
            "--dir",
            s(&busy),
        ]);
        assert!(e.contains("in use by another cutoff distribute"), "{e}");
    }
    assert!(first.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&busy);
    // Bad settings.
    for (args, want) in [
        (vec!["--depth", "0"], "--depth must be between 1"),
        (vec!["--workers", "0"], "--workers must be between 1"),
    ] {
        let mut a = vec!["distribute", "connect4", "44", "--dir", s(&dir)];
        a.extend(args);
        let e = fails(&a);
        assert!(e.contains(want), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The live child processes of `pid` (not zombies).
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // Fields after the command's closing parenthesis: state, ppid, ...
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 1 && f[1] == pid.to_string() && f[0] != "Z" {
            out.push(e.file_name().to_string_lossy().parse().unwrap_or(0));
        }
    }
    out
}

#[cfg(target_os = "linux")]
#[test]
fn killed_workers_and_a_killed_driver_lose_only_the_running_work() {
    use std::process::Stdio;
    // One direct solve is the reference for both runs (the value; `distribute_gets_...`
    // checks best moves).
    let direct = json(&ok(&["solve", "connect4", "4453", "--json", "-q"]));
    let args = |dir: &Path| -> Vec<String> {
        let mut a: Vec<String> = [
            "distribute",
            "connect4",
            "4453",
            "--depth",
            "2",
            "--workers",
            "2",
        ]
        .map(String::from)
        .to_vec();
        a.extend(["--json".into(), "-q".into(), "--dir".into(), s(dir).into()]);
        a
    };
    // Workers killed in the middle of their jobs: their tasks run again.
    let dir = scratch("dist-kill-worker");
    let mut driver = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args(&dir))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut killed = 0;
    // Two kills at most: a task gets three attempts, and both may hit the same one.
    while killed < 2 && driver.try_wait().unwrap().is_none() {
        if let Some(&c) = children(driver.id()).first() {
            std::thread::sleep(std::time::Duration::from_millis(20));
            // SAFETY: `kill` on a pid only sends a signal.
            if unsafe { libc::kill(c as i32, libc::SIGKILL) } == 0 {
                killed += 1;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let out = driver.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let d = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(d["value"], direct["value"], "killed workers");
    assert!(killed > 0);
    assert!(d["lost"].as_u64().unwrap() > 0, "{d}");
    let _ = std::fs::remove_dir_all(&dir);

    // The driver killed mid-run: started again, it keeps every answer it had.
    let dir = scratch("dist-kill-driver");
    let mut driver = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args(&dir))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let answers = dir.join("answers.jsonl");
    let count = || {
        std::fs::read_to_string(&answers)
            .map_or(0, |t| t.lines().filter(|l| l.ends_with('}')).count())
    };
    while count() < 4 && driver.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    driver.kill().unwrap();
    driver.wait().unwrap();
    let before = count();
    let d = json(&ok(&args(&dir)
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()));
    assert_eq!(d["value"], direct["value"], "killed driver");
    assert!(d["resumed"].as_u64().unwrap() as usize >= before, "{d}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn distribute_takes_its_guesses_from_a_book() {
    let dir = scratch("dist-book");
    let book = dir.join("book.txt");
    ok(&[
        "book",
        "connect4",
        "--board",
        "5x4",
        "--plies",
        "3",
        "--out",
        s(&book),
    ]);
    let game = ["connect4", "--board", "5x4"];
    let d = distribute(
        &dir.join("run"),
        &game,
        &["--depth", "3", "--workers", "2", "--book", s(&book)],
    );
    distributed_agrees("5x4 with a book", &game, &d);
    // Every frontier position was guessed from the book: no guessing search ran.
    assert_eq!(d["guess_nodes"], 0, "{d}");
    // A run resumed with another book is refused.
    let e = fails(&[
        "distribute",
        "connect4",
        "--board",
        "5x4",
        "--depth",
        "3",
        "--dir",
        s(&dir.join("run")),
    ]);
    assert!(e.contains("(--book)"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The live driver against the direct solve on many random 5x4 positions, with budgets
/// small enough that tests run out, are opened a ply deeper or sent again, and with
/// simulated clusters of several sizes.
#[test]
fn live_runs_agree_with_the_direct_solve_on_random_positions() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut checked = 0;
    for case in 0..40 {
        let stones = 2 + next(7);
        let mut heights = [0u8; 5];
        let mut moves = String::new();
        for _ in 0..stones {
            let c = next(5) as usize;
            if heights[c] < 4 {
                heights[c] += 1;
                moves.push(char::from(b'1' + c as u8));
            }
        }
        let game = ["connect4", moves.as_str(), "--board", "5x4"];
        let mut a = vec!["solve"];
        a.extend(game);
        a.extend(["--json", "-q", "--threads", "1"]);
        let out = cutoff(&a, &[]);
        // A position already won is no question for distribute.
        if !out.status.success() {
            continue;
        }
        let direct = json(&String::from_utf8_lossy(&out.stdout));
        let workers = ["1", "4", "32"][case % 3];
        let budget = ["300", "3000", "100000"][case % 3 / 2 + (case % 2)];
        let dir = scratch(&format!("dist-random-{case}"));
        let d = distribute(
            &dir,
            &game,
            &[
                "--depth",
                "2",
                "--backend",
                "simulate",
                "--workers",
                workers,
                "--job-nodes",
                budget,
                "--guess-nodes",
                "64",
            ],
        );
        assert_eq!(d["value"], direct["value"], "{moves} on {workers} workers");
        checked += 1;
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(checked >= 20, "{checked} positions checked");
}
