//! Split files and shard results as hostile input (issue 27, finding 2): `merge`, `plan` and
//! `solve-shard` accept only what `split`, `plan` and `solve-shard` write, refuse anything
//! else with one line naming the file's line, and never overflow the stack, hang, run in
//! quadratic time or take memory out of proportion to the file.
//!
//! Each test starts from files the binary writes itself and then edits them as JSON, so the
//! same tests run against an older binary (`CUTOFF_TEST_BIN=path cargo test --test
//! shard_hostile`) to show what it accepted.

use crate::support;

use cutoff_app::shard::digest;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Longest any run may take: every refusal here is immediate, so this only catches hangs.
const TIME_LIMIT: Duration = Duration::from_secs(30);
/// Address space of every run: far above what the commands need on these small files.
const ADDRESS_SPACE: u64 = 2 << 30;

fn bin() -> String {
    std::env::var("CUTOFF_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_cutoff").into())
}

/// Runs the binary in at most `address_space` bytes and [`TIME_LIMIT`]; panics if it runs
/// past the limit.
fn run_in(args: &[&str], address_space: u64) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .stdin(Stdio::null());
    support::run_limited(cmd, None, address_space, TIME_LIMIT)
}

fn run(args: &[&str]) -> Output {
    run_in(args, ADDRESS_SPACE)
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "cutoff {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts that `out` is a refusal: exit status 1 and one line on standard error that
/// mentions each of `mentions`.
fn refused(out: &Output, mentions: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "expected a refusal (exit 1), got {:?}: stdout {} stderr {err}",
        out.status,
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    for m in mentions {
        assert!(err.contains(m), "'{m}' not in: {err}");
    }
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cutoff-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A split file as JSON: its header and lines.
struct SplitJson {
    header: Json,
    lines: Vec<Json>,
}

impl SplitJson {
    fn read(path: &Path) -> SplitJson {
        let text = std::fs::read_to_string(path).expect("a split file");
        let mut rows = text.lines().map(|l| serde_json::from_str(l).expect("JSON"));
        let header = rows.next().expect("a header");
        SplitJson {
            header,
            lines: rows.collect(),
        }
    }

    /// Writes it, with the header's counts and the ids made to fit the lines.
    fn write(&mut self, path: &Path) {
        let paths: usize = self
            .lines
            .iter()
            .map(|l| l["paths"].as_array().map_or(0, Vec::len))
            .sum();
        self.header["frontier"] = json!(self.lines.len());
        self.header["paths"] = json!(paths);
        for (i, l) in self.lines.iter_mut().enumerate() {
            l["id"] = json!(i);
        }
        self.write_as_is(path);
    }

    fn write_as_is(&self, path: &Path) {
        let mut out = serde_json::to_string(&self.header).unwrap();
        out.push('\n');
        for l in &self.lines {
            out.push_str(&serde_json::to_string(l).unwrap());
            out.push('\n');
        }
        std::fs::write(path, out).expect("write the split file");
    }
}

/// Splits `game` `depth` plies deep into `shards` shards, as `dir/split.jsonl`.
fn split(dir: &Path, game: &[&str], depth: usize, shards: usize, extra: &[&str]) -> PathBuf {
    let file = dir.join("split.jsonl");
    let (d, n) = (depth.to_string(), shards.to_string());
    let mut args = vec!["split"];
    args.extend(game);
    args.extend(["--depth", &d, "--shards", &n, "--out", s(&file)]);
    args.extend(extra);
    ok(&args);
    file
}

/// Solves every shard of `file` into `out`.
fn solve_all(file: &Path, out: &Path) {
    let shards = SplitJson::read(file).header["shards"].as_u64().unwrap();
    for i in 0..shards {
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
}

fn result_file(out: &Path, i: usize) -> PathBuf {
    out.join(format!("shard-{i:05}.json"))
}

fn read_result(out: &Path, i: usize) -> Json {
    serde_json::from_slice(&std::fs::read(result_file(out, i)).unwrap()).unwrap()
}

fn write_result(out: &Path, i: usize, r: &Json) {
    std::fs::write(result_file(out, i), serde_json::to_vec(r).unwrap()).unwrap();
}

/// Points every result in `out` at the split file `file` as it is now (after an edit).
fn redigest(file: &Path, out: &Path) {
    let d = digest(&std::fs::read(file).unwrap());
    for e in std::fs::read_dir(out).unwrap() {
        let p = e.unwrap().path();
        let mut r: Json = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        r["digest"] = json!(d);
        std::fs::write(&p, serde_json::to_vec(&r).unwrap()).unwrap();
    }
}

/// Solves every shard of `file` and merges: the first command that fails, else merge's
/// output.
fn solve_and_merge(file: &Path, out: &Path) -> Output {
    let _ = std::fs::remove_dir_all(out);
    let shards = SplitJson::read(file).header["shards"].as_u64().unwrap();
    for i in 0..shards {
        let o = run(&[
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
        if !o.status.success() {
            return o;
        }
    }
    run(&["merge", s(file), s(out), "--json"])
}

/// A later pass in which no line is solved: every line known exactly (its value from a
/// solved first pass), one shard holding nothing. Returns the split and its results folder.
fn settled_pass(dir: &Path, game: &[&str], depth: usize) -> (SplitJson, PathBuf) {
    let file = split(dir, game, depth, 1, &[]);
    let out = dir.join("r1");
    solve_all(&file, &out);
    let r = read_result(&out, 0);
    let mut sj = SplitJson::read(&file);
    sj.header["pass"] = json!(2);
    for (l, solved) in sj.lines.iter_mut().zip(r["lines"].as_array().unwrap()) {
        let v = solved["value"].clone();
        l["shard"] = Json::Null;
        l["known"] = json!([v, v]);
    }
    let out = dir.join("r2");
    std::fs::create_dir_all(&out).unwrap();
    let mut empty = r.clone();
    empty["lines"] = json!([]);
    empty["nodes"] = json!(0);
    write_result(&out, 0, &empty);
    (sj, out)
}

#[test]
fn a_path_far_deeper_than_the_split_is_refused_not_a_stack_overflow() {
    let dir = scratch("deep");
    let (mut sj, out) = settled_pass(&dir, &["connect4", C4], 1);
    let range = sj.header["range"].clone();
    sj.lines.truncate(1);
    sj.lines[0]["known"] = range;
    sj.lines[0]["paths"] = json!([vec!["1"; 1_000_000]]);
    let file = dir.join("deep.jsonl");
    sj.write(&file);
    redigest(&file, &out);
    let next = dir.join("next.jsonl");
    refused(
        &run(&["plan", s(&file), s(&out), "--out", s(&next)]),
        &["line 2", "64 moves"],
    );
    refused(&run(&["merge", s(&file), s(&out)]), &["line 2"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn absurd_header_claims_are_refused() {
    let dir = scratch("header");
    let file = split(
        &dir,
        &["connect4", "2252576253462244111563365343671351441"],
        2,
        2,
        &[],
    );
    let out = dir.join("r");
    solve_all(&file, &out);
    let edited = dir.join("edited.jsonl");
    // A shard count in the trillions: merge would look for every shard's file.
    let mut sj = SplitJson::read(&file);
    sj.header["shards"] = json!(1_000_000_000_000u64);
    sj.write_as_is(&edited);
    let none = dir.join("none");
    std::fs::create_dir_all(&none).unwrap();
    refused(
        &run(&["merge", s(&edited), s(&none)]),
        &["line 1", "shards"],
    );
    refused(
        &run(&["solve-shard", s(&edited), "--index", "0", "--out", s(&out)]),
        &["line 1", "shards"],
    );
    // A value range the game does not have, to the ends of i32: plan's windows overflow.
    for range in [json!([i32::MIN, i32::MAX]), json!([-1, 1])] {
        let mut sj = SplitJson::read(&file);
        sj.header["range"] = range;
        sj.write_as_is(&edited);
        redigest(&edited, &out);
        let next = dir.join("next.jsonl");
        refused(
            &run(&["plan", s(&edited), s(&out), "--out", s(&next)]),
            &["line 1", "range"],
        );
        refused(&run(&["merge", s(&edited), s(&out)]), &["line 1", "range"]);
    }
    // More paths or lines than the header says, or fewer.
    for (field, n) in [("paths", 1), ("frontier", 1), ("paths", 3_000_000)] {
        let mut sj = SplitJson::read(&file);
        sj.header[field] = json!(n);
        sj.write_as_is(&edited);
        refused(&run(&["merge", s(&edited), s(&out)]), &["line"]);
    }
    // A depth past what split writes.
    let mut sj = SplitJson::read(&file);
    sj.header["depth"] = json!(1u64 << 40);
    sj.write_as_is(&edited);
    refused(&run(&["merge", s(&edited), s(&out)]), &["line 1", "depth"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn results_outside_the_game_s_range_are_refused() {
    let dir = scratch("range");
    let file = split(
        &dir,
        &["connect4", "2252576253462244111563365343671351441"],
        2,
        1,
        &[],
    );
    let out = dir.join("r");
    solve_all(&file, &out);
    let good = read_result(&out, 0);
    let range = &SplitJson::read(&file).header["range"];
    let (lo, hi) = (range[0].as_i64().unwrap(), range[1].as_i64().unwrap());
    let cases = [
        ("exact", hi + 1),
        ("exact", lo - 1),
        ("lower", i32::MIN as i64),
        ("upper", i32::MAX as i64),
        ("exact", i32::MIN as i64),
    ];
    for (bound, v) in cases {
        let mut r = good.clone();
        r["lines"][0]["value"] = json!(v);
        r["lines"][0]["bound"] = json!(bound);
        write_result(&out, 0, &r);
        refused(
            &run(&["merge", s(&file), s(&out)]),
            &["shard 0", "id 0", "range"],
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bound_must_be_one_the_line_s_window_gives() {
    let dir = scratch("window");
    let pos = "5455174361263362";
    let file = split(&dir, &["connect4", pos], 2, 1, &["--window=-1,1"]);
    let out = dir.join("r");
    solve_all(&file, &out);
    let good = read_result(&out, 0);
    let lines = good["lines"].as_array().unwrap();
    // A line proved at most its window's lower edge: claim a bound above the edge instead.
    let k = lines
        .iter()
        .position(|l| l["bound"] == "upper")
        .expect("a line below the window");
    let mut r = good.clone();
    r["lines"][k]["value"] = json!(5);
    write_result(&out, 0, &r);
    refused(&run(&["merge", s(&file), s(&out)]), &["shard 0", "window"]);
    // A bound where the split gave no window.
    let plain = dir.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let file2 = split(&plain, &["connect4", pos], 2, 1, &[]);
    let out2 = plain.join("r");
    solve_all(&file2, &out2);
    let mut r = read_result(&out2, 0);
    r["lines"][0]["bound"] = json!("lower");
    r["lines"][0]["pv"] = json!([]);
    write_result(&out2, 0, &r);
    refused(&run(&["merge", s(&file2), s(&out2)]), &["shard 0", "id 0"]);
    // A line of play with an illegal move.
    let mut r = read_result(&out2, 0);
    r["lines"][0]["bound"] = json!("exact");
    r["lines"][0]["pv"] = json!(["9"]);
    write_result(&out2, 0, &r);
    refused(&run(&["merge", s(&file2), s(&out2)]), &["shard 0", "id 0"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_lines_each_leaving_the_root_by_its_own_move_are_refused_at_once() {
    let dir = scratch("wide");
    let (mut sj, out) = settled_pass(&dir, &["connect4", C4], 1);
    let template = sj.lines[0].clone();
    sj.lines = (0..300_000)
        .map(|i| {
            let mut l = template.clone();
            l["paths"] = json!([[format!("m{i}")]]);
            l
        })
        .collect();
    let file = dir.join("wide.jsonl");
    sj.write(&file);
    redigest(&file, &out);
    let start = Instant::now();
    refused(&run(&["merge", s(&file), s(&out)]), &["line", "move 1"]);
    let next = dir.join("next.jsonl");
    refused(
        &run(&["plan", s(&file), s(&out), "--out", s(&next)]),
        &["line", "move 1"],
    );
    // Not a timing assertion: the time limit above catches a quadratic merge; this says
    // what the two refusals took if one of them fails later.
    eprintln!("two refusals in {:?}", start.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_40_mb_path_is_refused_in_little_memory() {
    let dir = scratch("big");
    let (mut sj, out) = settled_pass(&dir, &["connect4", C4], 1);
    sj.lines[0]["paths"] = json!([vec!["4"; 11_000_000]]);
    let file = dir.join("big.jsonl");
    sj.write(&file);
    assert!(std::fs::metadata(&file).unwrap().len() > 40 << 20);
    redigest(&file, &out);
    // A quarter of a GiB of address space: far more than the file, far less than a path
    // of ten million strings.
    refused(
        &run_in(&["merge", s(&file), s(&out)], 256 << 20),
        &["line 2", "64 moves"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Connect Four position whose lines are not mirror images of each other.
const C4: &str = "274552224131661";

#[test]
fn paths_are_replayed_on_the_game() {
    // Three plies deep, transpositions give lines several paths; solve-shard plays only the
    // first, so only merge's checks see the others.
    let dir = scratch("replay");
    let file = split(&dir, &["connect4", C4], 3, 2, &[]);
    let out = dir.join("r");
    let edited = dir.join("edited.jsonl");
    let good = SplitJson::read(&file);
    let paths =
        |l: &Json| -> Vec<Vec<String>> { serde_json::from_value(l["paths"].clone()).unwrap() };
    let multi = good
        .lines
        .iter()
        .position(|l| paths(l).len() > 1)
        .expect("a line with a transposition");
    let row = format!("line {}", multi + 2);
    // An illegal move.
    let mut sj = SplitJson::read(&file);
    sj.lines[multi]["paths"][1][2] = json!("9");
    sj.write_as_is(&edited);
    refused(&solve_and_merge(&edited, &out), &[&row, "move 3"]);
    // A path deeper than the split.
    let mut sj = SplitJson::read(&file);
    let mut p = paths(&sj.lines[multi])[1].clone();
    p.push("1".into());
    sj.lines[multi]["paths"][1] = json!(p);
    sj.write_as_is(&edited);
    refused(&solve_and_merge(&edited, &out), &[&row, "deeper"]);
    // A claimed transposition that is not one: another line's one path given to this
    // line, that line removed (the tree of paths stays the same).
    let other = (0..good.lines.len())
        .find(|&i| i != multi && paths(&good.lines[i]).len() == 1)
        .expect("a line with one path");
    let mut sj = SplitJson::read(&file);
    let p = paths(&sj.lines[other])[0].clone();
    sj.lines[multi]["paths"]
        .as_array_mut()
        .unwrap()
        .push(json!(p));
    sj.lines.remove(other);
    sj.write(&edited);
    refused(&solve_and_merge(&edited, &out), &["different positions"]);
    // A move of the split position left out: merge would back up a value without it.
    let gone = json!(paths(&good.lines[0])[0][0]);
    let mut sj = SplitJson::read(&file);
    sj.lines.retain(|l| l["paths"][0][0] != gone);
    for l in &mut sj.lines {
        let kept: Vec<Json> = l["paths"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p[0] != gone)
            .cloned()
            .collect();
        l["paths"] = json!(kept);
    }
    sj.write(&edited);
    refused(&solve_and_merge(&edited, &out), &["legal moves"]);
    // A move written otherwise than the game writes it (in the file's first path, so that
    // the check meets it before the move it replaces is missed).
    let mut sj = SplitJson::read(&file);
    let m = paths(&sj.lines[0])[0][0].clone();
    sj.lines[0]["paths"][0][0] = json!(format!("{m} "));
    sj.write_as_is(&edited);
    refused(&solve_and_merge(&edited, &out), &["line 2", "move 1"]);
    // A line's position described wrongly.
    let mut sj = SplitJson::read(&file);
    sj.lines[0]["position"] = json!("44");
    sj.write_as_is(&edited);
    refused(&solve_and_merge(&edited, &out), &["line 2", "position"]);
    // The same position twice, as two lines.
    let mut sj = SplitJson::read(&file);
    let dup = sj.lines[0].clone();
    sj.lines.push(dup);
    sj.write(&edited);
    refused(&solve_and_merge(&edited, &out), &["line"]);
    // And the untouched file still merges.
    let o = solve_and_merge(&file, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_short_path_is_accepted_only_where_split_writes_one() {
    // Stones 10 split 4 deep: taking 2 then 2 reaches the position that taking 1 four times
    // reached first, so split ends that path there, two moves deep.
    let dir = scratch("short");
    let file = split(&dir, &["stones", "10"], 4, 1, &[]);
    let out = dir.join("r");
    let o = solve_and_merge(&file, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sj = SplitJson::read(&file);
    assert!(
        sj.lines
            .iter()
            .any(|l| l["paths"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p.as_array().unwrap().len() < 4)),
        "a line with a short path"
    );
    // A path stopped two moves deep at a position met nowhere at four (8 stones left):
    // every path through it dropped, the position made a line of its own.
    let mut sj = SplitJson::read(&file);
    let through = |p: &Json| p[0] == "1" && p[1] == "1";
    for l in &mut sj.lines {
        let kept: Vec<Json> = l["paths"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| !through(p))
            .cloned()
            .collect();
        l["paths"] = json!(kept);
    }
    sj.lines
        .retain(|l| !l["paths"].as_array().unwrap().is_empty());
    let mut early = sj.lines[0].clone();
    early["paths"] = json!([["1", "1"]]);
    early["position"] = json!("8 stones left, first player to move");
    sj.lines.insert(0, early);
    let edited = dir.join("edited.jsonl");
    sj.write(&edited);
    refused(&solve_and_merge(&edited, &out), &["line 2", "4 moves long"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_checks_do_not_depend_on_the_order_of_the_lines() {
    // A line whose path is a prefix of other lines' paths: a file that puts it first and
    // one that puts it last are both refused.
    let dir = scratch("order");
    let file = split(&dir, &["tictactoe"], 2, 1, &[]);
    let out = dir.join("r");
    let good = SplitJson::read(&file);
    let mut prefix = good.lines[0].clone();
    prefix["paths"] = json!([["5"]]);
    prefix["position"] = json!(".../.X./...");
    let edited = dir.join("edited.jsonl");
    for first in [true, false] {
        let mut sj = SplitJson::read(&file);
        if first {
            sj.lines.insert(0, prefix.clone());
        } else {
            sj.lines.push(prefix.clone());
        }
        sj.write(&edited);
        refused(&solve_and_merge(&edited, &out), &["line"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tree_split_is_tied_to_its_file() {
    let dir = scratch("tree");
    let tree = dir.join("game.tree");
    std::fs::write(&tree, "((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))\n").unwrap();
    let file = split(&dir, &["tree", s(&tree)], 2, 2, &[]);
    let out = dir.join("r");
    solve_all(&file, &out);
    let before = ok(&["merge", s(&file), s(&out), "--json"]);
    // Another tree under the same name: every pass must refuse it.
    std::fs::write(&tree, "((3 11) (2 13 7 8 6)) ((0 4 5) (1 16))\n").unwrap();
    for args in [
        vec!["merge", s(&file), s(&out)],
        vec![
            "plan",
            s(&file),
            s(&out),
            "--out",
            s(&dir.join("next.jsonl")),
        ],
    ] {
        refused(&run(&args), &["line 1", "game.tree"]);
    }
    let fresh = dir.join("fresh");
    refused(
        &run(&["solve-shard", s(&file), "--index", "1", "--out", s(&fresh)]),
        &["line 1", "game.tree"],
    );
    // The same tree again: as before.
    std::fs::write(&tree, "((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))\n").unwrap();
    assert_eq!(ok(&["merge", s(&file), s(&out), "--json"]), before);
    // A control matrix in a file too.
    let m = dir.join("matrix.txt");
    std::fs::write(&m, "4\n0110\n1011\n1101\n0110\n").unwrap();
    let cdir = dir.join("c");
    std::fs::create_dir_all(&cdir).unwrap();
    let cfile = split(&cdir, &["control", s(&m)], 1, 1, &[]);
    std::fs::write(&m, "4\n0110\n1001\n1001\n0110\n").unwrap();
    refused(
        &run(&["solve-shard", s(&cfile), "--index", "0", "--out", s(&fresh)]),
        &["line 1", "matrix.txt"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_as_a_shard_result_is_refused_at_once() {
    let dir = scratch("fifo");
    let file = split(&dir, &["connect4", C4], 2, 2, &[]);
    let out = dir.join("r");
    solve_all(&file, &out);
    let r1 = result_file(&out, 1);
    std::fs::remove_file(&r1).unwrap();
    let c = std::ffi::CString::new(s(&r1)).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    refused(
        &run(&["merge", s(&file), s(&out)]),
        &["shard-00001.json", "not a regular file"],
    );
    // solve-shard looks at it too, to skip a solved shard.
    refused(
        &run(&["solve-shard", s(&file), "--index", "1", "--out", s(&out)]),
        &["not a regular file"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn times_must_be_finite_and_not_negative() {
    let dir = scratch("time");
    let file = split(&dir, &["connect4", C4], 2, 1, &[]);
    let out = dir.join("r");
    solve_all(&file, &out);
    let good = read_result(&out, 0);
    for (field, v) in [("seconds", -1e308), ("seconds", -1.0), ("seconds", 1e300)] {
        let mut r = good.clone();
        r[field] = json!(v);
        write_result(&out, 0, &r);
        refused(&run(&["merge", s(&file), s(&out)]), &["shard 0", "seconds"]);
    }
    let mut r = good.clone();
    r["lines"][0]["ms"] = json!(-5.0);
    write_result(&out, 0, &r);
    refused(
        &run(&["merge", s(&file), s(&out)]),
        &["shard 0", "id 0", "ms"],
    );
    // And the earlier passes' time in the header.
    write_result(&out, 0, &good);
    let (mut sj, out2) = settled_pass(&dir, &["connect4", C4], 2);
    sj.header["prior_seconds"] = json!(-1e308);
    let edited = dir.join("edited.jsonl");
    sj.write(&edited);
    redigest(&edited, &out2);
    refused(
        &run(&["merge", s(&edited), s(&out2)]),
        &["line 1", "prior_seconds"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn counts_that_overflow_are_refused() {
    let dir = scratch("overflow");
    let file = split(&dir, &["connect4", C4], 2, 2, &[]);
    let out = dir.join("r");
    solve_all(&file, &out);
    // A shard's line at 2^64 - 1 nodes: the total with the other shard's overflows.
    let mut r = read_result(&out, 0);
    r["lines"][0]["nodes"] = json!(u64::MAX);
    r["nodes"] = json!(u64::MAX);
    write_result(&out, 0, &r);
    refused(&run(&["merge", s(&file), s(&out)]), &["shard", "node"]);
    // The pass number at its top: plan cannot number the next pass.
    let (mut sj, out2) = settled_pass(&dir, &["connect4", C4], 2);
    sj.header["pass"] = json!(u32::MAX);
    let edited = dir.join("edited.jsonl");
    sj.write(&edited);
    redigest(&edited, &out2);
    let next = dir.join("next.jsonl");
    refused(
        &run(&["plan", s(&edited), s(&out2), "--out", s(&next)]),
        &["pass"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_byte_order_mark_is_accepted_like_everywhere_else() {
    let dir = scratch("bom");
    let file = split(&dir, &["connect4", C4], 2, 1, &[]);
    let out = dir.join("r");
    solve_all(&file, &out);
    let plain = ok(&["merge", s(&file), s(&out), "--json"]);
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend(std::fs::read(&file).unwrap());
    let bom = dir.join("bom.jsonl");
    std::fs::write(&bom, bytes).unwrap();
    redigest(&bom, &out);
    assert_eq!(ok(&["merge", s(&bom), s(&out), "--json"]), plain);
    let _ = std::fs::remove_dir_all(&dir);
}
