//! The front-end features, run through the `cutoff` binary: `analyse` (every move's exact
//! score), `play` (a game against the solver, commands piped in) and `--version`.

use serde_json::Value as Json;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `cutoff` with `args`, feeding it `input` on standard input.
fn cutoff(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cutoff starts");
    // The program may stop reading early (quit): a closed pipe is no failure here.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("cutoff runs")
}

/// The repository root, where `positions/` lies.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `cutoff args` and expects success; its standard output.
fn ok(args: &[&str], input: &str) -> String {
    let out = cutoff(args, input);
    assert!(
        out.status.success(),
        "cutoff {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        stdout(&out)
    );
    stdout(&out)
}

/// `cutoff analyse ... --json`, parsed.
fn analyse_json(args: &[&str]) -> Json {
    let mut all = vec!["analyse"];
    all.extend(args);
    all.extend(["--json", "--threads", "1", "--tt-mb", "16"]);
    serde_json::from_str(&ok(&all, "")).expect("analyse prints one JSON object")
}

/// The first `n` lines of a Connect Four test set: moves and score.
fn test_set(file: &str, n: usize) -> Vec<(String, i64)> {
    let text = std::fs::read_to_string(root().join("positions/connect4").join(file)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(n)
        .map(|l| {
            let (moves, score) = l.split_once(' ').unwrap();
            (moves.to_string(), score.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn analyse_connect4_best_move_scores_the_listed_value() {
    let mut positions = test_set("end-easy.txt", 6);
    positions.extend(test_set("middle-easy.txt", 2));
    for (moves, score) in positions {
        let r = analyse_json(&["connect4", &moves]);
        let values: Vec<i64> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["value"].as_i64().unwrap())
            .collect();
        assert_eq!(values.iter().max().copied(), Some(score), "{moves}: {r}");
        assert_eq!(r["value"].as_i64(), Some(score), "{moves}");
        // The best move is one that reaches the value, and every legal column is listed once.
        let best = r["best_move"].as_str().unwrap();
        let best_value = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == best)
            .map(|m| m["value"].as_i64().unwrap());
        assert_eq!(best_value, Some(score), "{moves}");
        let game = cutoff::games::perfect::connect4::Connect4::from_moves(&moves).unwrap();
        let legal = (0..7).filter(|&c| game.can_play(&game.board(), c)).count();
        assert_eq!(values.len(), legal, "{moves}");
    }
}

#[test]
fn analyse_json_lists_moves_with_values_and_words() {
    let r = analyse_json(&["tictactoe", "XX.OO...."]);
    assert_eq!(r["game"], "tictactoe");
    assert_eq!(r["position"], "XX.OO....");
    assert_eq!(r["value"], 1);
    assert_eq!(r["best_move"], "3");
    assert_eq!(r["terminal"], false);
    assert!(r["nodes"].is_u64());
    assert!(r["time_ms"].is_number());
    let moves = r["moves"].as_array().unwrap();
    let cells: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(cells, ["3", "6", "7", "8", "9"]);
    assert_eq!(moves[0]["value"], 1);
    assert_eq!(moves[0]["explain"], "win");
    // 6 blocks O's row and draws; anything else lets O complete it.
    assert_eq!(moves[1]["value"], 0);
    assert_eq!(moves[1]["explain"], "draw");
    for m in &moves[2..] {
        assert_eq!(m["value"], -1, "{m}");
        assert_eq!(m["explain"], "loss");
    }
}

#[test]
fn analyse_text_aligns_moves_values_and_words() {
    let text = ok(&["analyse", "connect4", "121212", "--threads", "1"], "");
    assert!(
        text.contains("  1        18  win with its 4th stone\n"),
        "{text}"
    );
    assert!(text.contains("best move: 1\n"), "{text}");
    assert!(
        text.contains("value:     18 (win with its 4th stone)\n"),
        "{text}"
    );
}

#[test]
fn analyse_says_a_terminal_position_has_no_moves() {
    let text = ok(&["analyse", "tictactoe", "XXXOO...."], "");
    assert!(text.contains("terminal position: no moves"), "{text}");
    let r = analyse_json(&["connect4", "1212121"]);
    assert_eq!(r["terminal"], true);
    assert_eq!(r["moves"].as_array().unwrap().len(), 0);
    assert_eq!(r["best_move"], Json::Null);
    assert_eq!(r["value"], -18);
    assert_eq!(r["explain"], "loss: the opponent's 4th stone wins");
}

/// Every game `solve` takes: the best move's score is the value `solve` finds.
#[test]
fn analyse_agrees_with_solve_on_every_game() {
    let cases: [&[&str]; 9] = [
        &["matchsticks", "6"],
        &["stones", "4"],
        &["tictactoe", "X...O...."],
        &["control", "0110/1011/1101/0110"],
        &["tree", "app/assets/trees/exercise.tree"],
        &["tree", "app/assets/trees/exercise.tree", "--root", "min"],
        &["random", "--branching", "3", "--depth", "4", "--seed", "5"],
        &["connect4", "5554224333234511764415115"],
        &["sim", "12 34 15"],
    ];
    for args in cases {
        let r = analyse_json(args);
        let mut solve = vec!["solve"];
        solve.extend(args);
        solve.extend(["--json", "--threads", "1"]);
        if args[0] == "random" || args[0] == "tree" {
            solve.extend(["--algo", "solve"]);
        }
        let s: Json = serde_json::from_str(&ok(&solve, "")).unwrap();
        assert_eq!(r["value"], s["value"], "{args:?}: {r}");
        assert!(!r["moves"].as_array().unwrap().is_empty(), "{args:?}");
    }
}

#[test]
fn analyse_rejects_bad_games_and_positions() {
    for args in [
        &["analyse", "chess"][..],
        &["analyse", "connect4", "448"],
        &["analyse", "stones"],
        &["analyse", "random", "--branching", "3"],
    ] {
        let out = cutoff(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        // Our own errors are one line; clap's usage errors (status 2) are clap's own.
        if out.status.code() != Some(2) {
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A Connect Four position whose solves take milliseconds; column 4 is open, O to move (and
/// only column 6 does not lose: X wins at once after any other).
const MIDGAME: &str = "5554224333234511764415115";

#[test]
fn play_connect4_shows_the_board_takes_back_and_hints() {
    let game = cutoff::games::perfect::connect4::Connect4::from_moves(MIDGAME).unwrap();
    use cutoff::Notation;
    let start = game.diagram(&game.board()).unwrap();
    let text = ok(
        &[
            "play",
            "connect4",
            MIDGAME,
            "--threads",
            "1",
            "--tt-mb",
            "16",
        ],
        "4\nundo\nhint\n4\nquit\n",
    );
    assert!(text.contains(" 1 2 3 4 5 6 7"), "{text}");
    assert!(text.contains("you play 4"), "{text}");
    assert!(text.contains("engine plays"), "{text}");
    // The start, then after undo the same board again.
    assert!(text.matches(&start).count() >= 2, "{text}");
    assert!(text.contains("taken back"), "{text}");
    // The hint: the six open columns with scores and words, column 6 the only win.
    assert!(text.contains("scores for you (O):"), "{text}");
    assert!(
        text.contains("  6         4  win with its 18th stone"),
        "{text}"
    );
    assert!(
        text.contains("best: 6, 4 (win with its 18th stone)"),
        "{text}"
    );
    // Column 4 loses at once: the engine wins with its 14th stone, and says so.
    assert!(
        text.contains("engine plays 6  (score 8 for the engine: win with its 14th stone)"),
        "{text}"
    );
    assert!(
        text.contains("game over: the engine wins (X wins)"),
        "{text}"
    );
    // After undo the human plays 4 again: two human moves, two engine replies.
    assert_eq!(text.matches("you play 4").count(), 2, "{text}");
    assert_eq!(text.matches("engine plays").count(), 2, "{text}");
}

#[test]
fn play_from_a_budget_says_so_and_answers_every_move() {
    // 16x7 is beyond exact reach: a default budget, said at the start and at every move.
    let text = ok(
        &[
            "play",
            "connect4",
            "--board",
            "16x7",
            "--first",
            "engine",
            "--threads",
            "1",
            "--nodes",
            "20000",
        ],
        "8\n9\nhint\nquit\n",
    );
    assert!(
        text.contains("The engine plays from a budget of 20000 nodes a move"),
        "{text}"
    );
    let replies = text
        .lines()
        .filter(|l| l.starts_with("engine plays "))
        .count();
    assert_eq!(replies, 3, "{text}");
    assert!(text.contains("from the budget, not a proof: "), "{text}");
    // The hint: sixteen columns, each a guess with its proven bounds.
    assert!(text.contains("proved"), "{text}");
    assert!(text.contains("best found: "), "{text}");
    // A finished position's move is still proved within a budget.
    let text = ok(
        &[
            "play",
            "connect4",
            MIDGAME,
            "--threads",
            "1",
            "--nodes",
            "100000",
        ],
        "4\nquit\n",
    );
    assert!(
        text.contains("engine plays 6  (score 8 for the engine: win with its 14th stone, proved within the budget)"),
        "{text}"
    );
}

#[test]
fn analyse_within_a_budget_gives_every_move_bounds() {
    let j = analyse_json(&["connect4", "1,2", "--board", "8x7", "--nodes", "100000"]);
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8, "{j}");
    assert!(moves.iter().any(|m| m["exact"] == false), "{j}");
    for m in moves {
        assert!(m["lo"].as_i64() <= m["value"].as_i64(), "{m}");
        assert!(m["value"].as_i64() <= m["hi"].as_i64(), "{m}");
    }
    assert_eq!(j["budget"], "100000 nodes");
    // Near the end the budget proves everything: the same answer as without it.
    let exact = analyse_json(&["connect4", MIDGAME]);
    let budgeted = analyse_json(&["connect4", MIDGAME, "--time-ms", "60000"]);
    assert_eq!(budgeted["moves"], exact["moves"]);
    assert_eq!(budgeted["exact"], true);
    for bad in [["--time-ms", "0"], ["--nodes", "0"]] {
        let out = cutoff(&[&["analyse", "connect4", "4"][..], &bad[..]].concat(), "");
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(e.contains(bad[0]) && e.contains("at least 1"), "{e}");
    }
}

#[test]
fn play_bad_input_gets_a_message_and_the_game_goes_on() {
    let text = ok(
        &[
            "play",
            "connect4",
            MIDGAME,
            "--threads",
            "1",
            "--tt-mb",
            "16",
        ],
        "banana\n9\n\nundo\n6\n",
    );
    assert!(text.contains("bad column 'banana'"), "{text}");
    assert!(text.contains("bad column '9'"), "{text}");
    assert!(text.contains("nothing to undo"), "{text}");
    // ... and the game went on: the move after the bad ones was played and answered.
    assert!(text.contains("you play 6"), "{text}");
    assert!(text.contains("engine plays"), "{text}");
    // A full column too.
    let text = ok(
        &["play", "connect4", "444444", "--threads", "1"],
        "4\nquit\n",
    );
    assert!(text.contains("column 4 is full"), "{text}");
}

#[test]
fn play_ends_cleanly_at_end_of_input() {
    for args in [
        &["play", "tictactoe"][..],
        &["play", "stones", "5"],
        &["play", "tictactoe", "--first", "engine", "--threads", "1"],
    ] {
        let text = ok(args, "");
        assert!(!text.is_empty(), "{args:?}");
    }
    let text = ok(&["play", "tictactoe", "--threads", "1"], "help\n");
    assert!(text.contains("undo"), "{text}");
}

#[test]
fn play_describes_positions_of_games_without_a_diagram() {
    let text = ok(&["play", "stones", "5", "--threads", "1"], "1\n");
    assert!(text.contains("5 stones left"), "{text}");
    assert!(text.contains("you play 1"), "{text}");
    // From 4 stones the engine (to move) wins by taking 1.
    assert!(
        text.contains("engine plays 1  (score 1 for the engine: win)"),
        "{text}"
    );
    assert!(text.contains("3 stones left"), "{text}");
    let text = ok(&["play", "control", "011/101/110", "--threads", "1"], "2\n");
    assert!(text.contains("free vertices: 1 2 3"), "{text}");
    assert!(text.contains("game over: you win"), "{text}");
    let text = ok(
        &[
            "play",
            "tree",
            "app/assets/trees/exercise.tree",
            "--threads",
            "1",
        ],
        "1\n",
    );
    assert!(text.contains("node root, MAX to move"), "{text}");
}

/// A small deterministic generator for the human's orders of preference.
fn shuffled(seed: u64) -> Vec<u32> {
    let mut cells: Vec<u32> = (1..=9).collect();
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..cells.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        cells.swap(i, (s % (i as u64 + 1)) as usize);
    }
    cells
}

/// The human tries the cells in a fixed order of preference (a taken cell is refused and the
/// next line tried): whatever the order, the engine never loses, and the game ends.
#[test]
fn play_tictactoe_the_human_never_wins() {
    for seed in 0..24 {
        let order = shuffled(seed);
        let input: String = order.iter().map(|c| format!("{c}\n")).collect();
        let text = ok(
            &["play", "tictactoe", "--threads", "1", "--tt-mb", "1"],
            &input,
        );
        assert!(text.contains("game over"), "order {order:?}:\n{text}");
        assert!(!text.contains("you win"), "order {order:?}:\n{text}");
        assert!(text.contains(" X |"), "{text}");
    }
    // The engine moving first on an empty board never loses either.
    for seed in 0..8 {
        let order = shuffled(100 + seed);
        let input: String = order.iter().map(|c| format!("{c}\n")).collect();
        let text = ok(
            &[
                "play",
                "tictactoe",
                "--first",
                "engine",
                "--threads",
                "1",
                "--tt-mb",
                "1",
            ],
            &input,
        );
        assert!(text.contains("game over"), "{text}");
        assert!(!text.contains("you win"), "{text}");
    }
}

/// From a position X wins at once, the human can win, and the game says so; undo then
/// takes the winning move back.
#[test]
fn play_announces_the_winner_and_undo_reopens_the_game() {
    let text = ok(
        &["play", "tictactoe", "XX.OO....", "--threads", "1"],
        "3\n5\nundo\nquit\n",
    );
    assert!(text.contains("game over: you win (X wins)"), "{text}");
    assert!(text.contains("the game is over: undo or quit"), "{text}");
    assert!(text.contains("taken back"), "{text}");
}

#[test]
fn version_names_the_commit() {
    let text = ok(&["--version"], "");
    let line = text.trim();
    let rest = line
        .strip_prefix(concat!("cutoff ", env!("CARGO_PKG_VERSION"), " ("))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("unexpected version line: {line}"));
    let hash = rest.strip_suffix("-dirty").unwrap_or(rest);
    assert!(
        hash == "unknown" || (hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit())),
        "{line}"
    );
}

/// `cutoff args` expected to fail: its one-line error.
fn refused(args: &[&str]) -> String {
    let out = cutoff(args, "");
    assert!(!out.status.success(), "cutoff {args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    err
}

/// `cutoff solve ... --json`, parsed.
fn solve_json(args: &[&str]) -> Json {
    let mut all = vec!["solve"];
    all.extend(args);
    all.extend(["--json", "--threads", "1", "--tt-mb", "16"]);
    serde_json::from_str(&ok(&all, "")).expect("solve prints one JSON object")
}

#[test]
fn connect4_boards_are_chosen_on_the_command_line() {
    // Published: 5x4 is a draw; on 6x4 the second player wins on the last move, 24.
    let r = solve_json(&["connect4", "--board", "5x4"]);
    assert_eq!(
        (r["value"].as_i64(), r["board"].as_str()),
        (Some(0), Some("5x4"))
    );
    let r = solve_json(&["connect4", "--board", "6x4"]);
    assert_eq!(r["value"].as_i64(), Some(-1), "{r}");
    assert!(r["explained"].as_str().unwrap().contains("move 24"), "{r}");
    // The default board says nothing of its board, and --board 7x6 is the default.
    let a = solve_json(&["connect4", "444444"]);
    let b = solve_json(&["connect4", "444444", "--board", "7x6", "--connect", "4"]);
    assert_eq!(a["board"], Json::Null);
    assert_eq!(
        (a["value"].clone(), a["nodes"].clone()),
        (b["value"].clone(), b["nodes"].clone())
    );
    // Columns may be separated by commas (boards wider than 9 need them): the second player
    // must block the first's three in column 1.
    let r = analyse_json(&["connect4", "1,2,1,2,1", "--board", "5x4"]);
    assert_eq!(r["board"].as_str(), Some("5x4"));
    assert_eq!(r["best_move"].as_str(), Some("1"), "{r}");
    let r = solve_json(&["connect4", "--board", "4x4", "--connect", "3"]);
    assert_eq!(r["board"].as_str(), Some("4x4/3"));
    assert!(r["value"].as_i64().unwrap() > 0, "{r}");
}

#[test]
fn connect4_boards_beyond_the_limits_are_refused_in_one_line() {
    let e = refused(&["solve", "connect4", "--board", "3x6"]);
    assert!(e.contains("at least 4"), "{e}");
    let e = refused(&["solve", "connect4", "--board", "10x12"]);
    assert!(e.contains("130 is more than the 128 bits"), "{e}");
    // A malformed board is clap's usage error, which adds a line pointing at --help.
    let out = cutoff(&["solve", "connect4", "--board", "7by6"], "");
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && e.contains("expected WIDTHxHEIGHT"),
        "{e}"
    );
    let e = refused(&["solve", "connect4", "--connect", "7"]);
    assert!(e.contains("3 to 6"), "{e}");
    let e = refused(&["solve", "connect4", "123", "--board", "12x4"]);
    assert!(e.contains("separated by commas"), "{e}");
}

#[test]
fn a_test_set_names_its_board_in_a_header_line() {
    // Scores from an independent search (plain alpha-beta) of each 5x4 position.
    let moves = ["3", "1,2", "33", "5151", "2323", "1"];
    let mut set = String::from("# a 5x4 set\n# board 5x4\n\n");
    for m in moves {
        let args = ["connect4", m, "--board", "5x4", "--algo", "alphabeta"];
        let v = solve_json(&args)["value"].as_i64().expect("a value");
        set.push_str(&format!("{m} {v}\n"));
    }
    let dir = std::env::temp_dir().join(format!("cutoff-board-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("set.txt");
    std::fs::write(&file, &set).unwrap();
    let path = file.to_str().unwrap();
    let r: Json = serde_json::from_str(&ok(&["suite", path, "--threads", "1", "--json"], ""))
        .expect("one JSON object");
    assert_eq!(
        (
            r["positions"].as_u64(),
            r["mismatches"].as_u64(),
            r["board"].as_str()
        ),
        (Some(moves.len() as u64), Some(0), Some("5x4")),
        "{r}"
    );
    // The same set without its header, with the board on the command line.
    let bare: String = set
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, &bare).unwrap();
    ok(&["suite", path, "--board", "5x4", "--threads", "1"], "");
    // Read with three in a row, its scores are wrong: the first player wins at once.
    let e = refused(&["suite", path, "--board", "5x4", "--connect", "3"]);
    assert!(e.contains("gave the wrong score"), "{e}");
    // A header the options contradict, and a header that cannot be read.
    std::fs::write(&file, &set).unwrap();
    let e = refused(&["suite", path, "--board", "6x4"]);
    assert!(e.contains("is for the 5x4 board, not the 6x4 one"), "{e}");
    std::fs::write(&file, format!("# board five by four\n{bare}")).unwrap();
    let e = refused(&["suite", path]);
    assert!(e.contains("line 1: bad board header"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_table_file_spares_the_next_solve_its_hardest_subtrees() {
    let dir = std::env::temp_dir().join(format!("cutoff-table-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c4.tbl");
    let path = file.to_str().unwrap();
    let kept = ["--table-file", path, "--table-file-nodes", "5000"];
    let plain = solve_json(&["connect4", "44536"]);
    let mut args = vec!["connect4", "44536"];
    args.extend(kept);
    let first = solve_json(&args);
    let second = solve_json(&args);
    assert_eq!(first["nodes"], plain["nodes"], "recording changes nothing");
    assert_eq!(
        (first["value"].clone(), second["value"].clone()),
        (plain["value"].clone(), plain["value"].clone())
    );
    let written = first["table_file"]["written"].as_u64().unwrap();
    assert!(written > 0, "{first}");
    assert_eq!(second["table_file"]["loaded"].as_u64(), Some(written));
    assert!(
        second["nodes"].as_u64().unwrap() * 2 < plain["nodes"].as_u64().unwrap(),
        "{second}"
    );
    // Another position of the same game may use the file; another board or rule may not.
    let mut other = vec!["connect4", "445"];
    other.extend(kept);
    assert_eq!(
        solve_json(&other)["table_file"]["loaded"].as_u64(),
        Some(written + second["table_file"]["written"].as_u64().unwrap())
    );
    let e = refused(&["solve", "connect4", "--board", "5x4", "--table-file", path]);
    assert!(
        e.contains("holds entries for connect4 7x6/4, not for connect4 5x4/4 folded-keys"),
        "{e}"
    );
    let e = refused(&["solve", "connect4", "--connect", "3", "--table-file", path]);
    assert!(e.contains("not for connect4 7x6/3 folded-keys"), "{e}");
    let e = refused(&["solve", "connect4", "--board", "10x6", "--table-file", path]);
    assert!(e.contains("not for connect4 10x6/4 mixed-keys"), "{e}");
    // Two threads keep the subtrees they split between them too, and find the same value.
    let two = dir.join("two.tbl");
    let r: Json = serde_json::from_str(&ok(
        &[
            "solve",
            "connect4",
            "44536",
            "--json",
            "--threads",
            "2",
            "--table-file",
            two.to_str().unwrap(),
            "--table-file-nodes",
            "5000",
        ],
        "",
    ))
    .unwrap();
    assert_eq!(r["value"], plain["value"]);
    assert!(r["table_file"]["written"].as_u64().unwrap() > 0, "{r}");
    let e = refused(&["solve", "tictactoe", "--table-file", path]);
    assert!(e.contains("keeps none"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_book_for_another_board_is_made_read_and_kept_to_its_board() {
    let dir = std::env::temp_dir().join(format!("cutoff-board-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("5x4.txt");
    let path = file.to_str().unwrap();
    ok(
        &[
            "book",
            "connect4",
            "--board",
            "5x4",
            "--plies",
            "2",
            "--out",
            path,
            "--threads",
            "1",
        ],
        "",
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\ngame connect4\nboard 5x4\n"), "{text}");
    assert!(text.contains("--board 5x4 --plies 2"), "{text}");
    // The book's scores are the searches' own.
    let with = analyse_json(&["connect4", "3", "--board", "5x4", "--book", path]);
    let without = analyse_json(&["connect4", "3", "--board", "5x4"]);
    assert_eq!(with["moves"], without["moves"], "{with}");
    let e = refused(&["analyse", "connect4", "3", "--book", path]);
    assert!(
        e.contains("the book is for connect4 5x4, not connect4"),
        "{e}"
    );
    let e = refused(&[
        "analyse", "connect4", "3", "--board", "5x4", "--book", "builtin",
    ]);
    assert!(
        e.contains("the book is for connect4, not connect4 5x4"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_other_boards_sets_hold_an_independent_solvers_scores() {
    // Scored by Steininger's solver built for each board (positions/connect4/README.md).
    for board in ["6x6", "6x7", "7x7"] {
        let file = root().join(format!("positions/connect4/boards/{board}.txt"));
        let r: Json = serde_json::from_str(&ok(
            &["suite", file.to_str().unwrap(), "--threads", "1", "--json"],
            "",
        ))
        .expect("one JSON object");
        assert_eq!(
            (r["board"].as_str(), r["mismatches"].as_u64()),
            (Some(board), Some(0)),
            "{r}"
        );
        assert_eq!(r["positions"].as_u64(), Some(10), "{r}");
    }
}
