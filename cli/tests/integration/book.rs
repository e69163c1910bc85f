//! Opening books: `cutoff book` writes values `cutoff analyse` agrees with; the book in the
//! binary holds every Connect Four position of at most 4 stones, each consistent with its
//! children by negamax, the empty board's seven scores as published, and a sample of its
//! deepest positions solved again; bad books are one-line errors.

use cutoff::games::perfect::connect4::Connect4;
use cutoff::knowledge::Knowledge;
use cutoff::solver::{Solver, Verdict};
use cutoff::{Game, MoveBuffer, Value};
use cutoff_app::book::{self, Book};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::process::{Command, Output};

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = cutoff(args);
    assert!(
        out.status.success(),
        "cutoff {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The scores `cutoff analyse --json` gives, by move.
fn scores(json: &str) -> Vec<(String, i64)> {
    let j: Json = serde_json::from_str(json).expect("JSON");
    j["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["value"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The book's lines: position argument and value.
fn lines(text: &str) -> Vec<(String, Value)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("game ") && !l.trim().is_empty())
        .map(|l| {
            let (p, v) = l.split_once(' ').expect("two fields");
            let p = if p == "-" { "" } else { p };
            (p.to_string(), v.parse().expect("a value"))
        })
        .collect()
}

#[test]
#[ignore = "slow (20 s on two cores): CI runs it, with --include-ignored"]
fn a_built_book_agrees_with_analyse_and_makes_analyse_search_nothing() {
    let dir = std::env::temp_dir().join(format!("cutoff-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("book.txt");
    let file = file.to_str().unwrap();
    let root = "4453";
    ok(&[
        "book",
        "connect4",
        root,
        "--plies",
        "2",
        "--out",
        file,
        "--threads",
        "2",
        "--tt-mb",
        "16",
    ]);
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(&format!("# Made by: cutoff book connect4 {root} --plies 2")));
    let entries = lines(&text);
    // 1 + 7 + 49 paths, fewer positions: no mirror image here, but transpositions meet.
    assert!(
        entries.len() > 8 && entries.len() <= 57,
        "{}",
        entries.len()
    );
    // Each position's value is what analyse gives for the move into it, negated; the root's
    // is the best of its moves.
    let direct = scores(&ok(&[
        "analyse",
        "connect4",
        root,
        "--json",
        "--threads",
        "1",
    ]));
    let by_pos: HashMap<&str, Value> = entries.iter().map(|(p, v)| (p.as_str(), *v)).collect();
    for (mv, s) in &direct {
        assert_eq!(
            by_pos[format!("{root}{mv}").as_str()] as i64,
            -s,
            "{root}{mv}"
        );
    }
    assert_eq!(
        by_pos[root] as i64,
        direct.iter().map(|d| d.1).max().unwrap()
    );
    // With the book, analyse of the root takes every score from it: no node is searched.
    let booked = ok(&["analyse", "connect4", root, "--json", "--book", file]);
    assert_eq!(scores(&booked), direct);
    let j: Json = serde_json::from_str(&booked).unwrap();
    assert_eq!(j["nodes"], 0);
    // A position outside the book is searched as before.
    let deeper = format!("{root}1");
    let plain = scores(&ok(&["analyse", "connect4", &deeper, "--json"]));
    assert_eq!(
        scores(&ok(&[
            "analyse", "connect4", &deeper, "--json", "--book", file
        ])),
        plain
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[ignore = "slow (25 s on two cores): CI runs it, with --include-ignored"]
fn the_builtin_book_holds_every_position_of_four_stones_and_is_consistent() {
    let text = book::CONNECT4;
    let book = Book::parse(text).expect("the built-in book reads");
    assert_eq!(book.game, "connect4");
    // Every position of at most 4 stones, mirror images together, none ending the game.
    let game = Connect4::from_moves("").unwrap();
    let mut seen = HashMap::new();
    let mut frontier = vec![game.initial()];
    for ply in 0..=4 {
        let mut next = Vec::new();
        for pos in frontier {
            if seen
                .insert(<Connect4 as Game>::Knowledge::table_key(&game, &pos).0, ply)
                .is_some()
            {
                continue;
            }
            let mut moves = <Connect4 as Game>::Moves::default();
            game.moves(&pos, &mut moves);
            next.extend(moves.as_slice().iter().map(|&m| game.play(&pos, m)));
        }
        frontier = next;
    }
    assert_eq!(book.len(), seen.len());
    assert_eq!(seen.len(), 1 + 4 + 25 + 121 + 568);
    // Negamax between the plies: each position of at most 3 stones is the best of its
    // children negated.
    let entries = lines(text);
    assert_eq!(entries.len(), book.len());
    for (moves, v) in &entries {
        if moves.len() == 4 {
            continue;
        }
        let g = Connect4::from_moves(moves).unwrap();
        let pos = g.initial();
        let mut list = <Connect4 as Game>::Moves::default();
        g.moves(&pos, &mut list);
        let best = list
            .as_slice()
            .iter()
            .map(|&m| {
                -book
                    .value(&g, &g.play(&pos, m))
                    .expect("children in the book")
            })
            .max()
            .unwrap();
        assert_eq!(best, *v, "{moves}");
    }
    // The published scores of the empty board's seven moves (the first player wins with
    // the centre only).
    let direct = scores(&ok(&["analyse", "connect4", "--json", "--book", "builtin"]));
    let want: Vec<(String, i64)> = [-2, -1, 0, 1, 0, -1, -2]
        .iter()
        .enumerate()
        .map(|(c, &s)| ((c + 1).to_string(), s))
        .collect();
    assert_eq!(direct, want);
    assert_eq!(entries[0], (String::new(), 1));
    // A sample of the positions 4 plies deep, solved again: every 71st.
    for (moves, v) in entries.iter().filter(|e| e.0.len() == 4).step_by(71) {
        let g = Connect4::from_moves(moves).unwrap();
        let out = Solver::new(&g).table_mib(64).run().unwrap();
        assert_eq!(out.verdict, Verdict::Exact(*v), "{moves}");
    }
}

#[test]
fn bad_books_are_one_line_errors() {
    let dir = std::env::temp_dir().join(format!("cutoff-badbook-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (text, words) in [
        ("4 1\n", "a `game NAME` line comes first"),
        ("game tictactoe\n", "books are for connect4"),
        ("game connect4\n4 x\n", "bad value"),
        ("game connect4\n4 99\n", "outside the game's"),
        ("game connect4\n48 1\n", "line 2"),
        ("game connect4\n4 1\n4 2\n", "another value"),
        ("game connect4\n1 -2\n7 -3\n", "another value"),
        ("game connect4\n4 1 1\n", "a position and its value"),
        ("# nothing\n", "no `game NAME` line"),
    ] {
        let file = dir.join("bad.txt");
        std::fs::write(&file, text).unwrap();
        let out = cutoff(&["analyse", "connect4", "4", "--book", file.to_str().unwrap()]);
        assert!(!out.status.success(), "{text:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{text:?}: {err}");
        assert!(err.contains(words), "{text:?}: {err}");
    }
    let out = cutoff(&[
        "analyse",
        "connect4",
        "4",
        "--book",
        "/nonexistent/book.txt",
    ]);
    assert!(!out.status.success());
    let out = cutoff(&["book", "tictactoe", "--plies", "1", "--out", "/tmp/x"]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("books are for connect4"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `cutoff ARGS` expecting a one-line error; returns it.
fn one_line_error(args: &[&str]) -> String {
    let out = cutoff(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        !out.status.success(),
        "cutoff {args:?} succeeded: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.lines().count(), 1, "cutoff {args:?}: {err}");
    err
}

#[test]
fn a_file_name_cannot_write_lines_into_the_book() {
    let dir = scratch("book-name");
    // A name that, written raw into the header comment, ends the comment and adds a `game`
    // line and a position valued as the game's best.
    let file = dir.join("b\ngame connect4\n4 18\n# x");
    let file = file.to_str().unwrap();
    let root = "4453";
    let out = ok(&[
        "book",
        "connect4",
        root,
        "--plies",
        "1",
        "--out",
        file,
        "--threads",
        "1",
        "--tt-mb",
        "16",
    ]);
    assert_eq!(out.lines().count(), 1, "{out}");
    let text = std::fs::read_to_string(file).unwrap();
    let data: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(data[0], "game connect4", "{text}");
    assert!(
        data[1..].iter().all(|l| l.starts_with(root)),
        "a line not of the book's positions: {text}"
    );
    assert!(text.contains(r"b\ngame connect4\n4 18\n# x"), "{text}");
    // It loads, and gives the moves of the root from its own lines.
    let j: Json = serde_json::from_str(&ok(&[
        "analyse", "connect4", root, "--json", "--book", file,
    ]))
    .unwrap();
    assert_eq!(j["nodes"], 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn books_that_contradict_what_the_game_knows_are_refused() {
    let dir = scratch("book-lies");
    let file = dir.join("lies.txt");
    let file = file.to_str().unwrap();
    for (book, analysed, words) in [
        // X has won at 4343434: the book would score X's winning move 4 at 434343 a loss.
        ("4343434 5", "434343", "the game is over"),
        // X wins at once at 434343 with 4: a loss for X there makes O's move 3 a win.
        ("434343 -5", "43434", "ends the game at once"),
        // O has no win with its next stone at 1234567, so 18 (that win) is not its value.
        ("1234567 18", "123456", "analysis without a search"),
        // Nor can X win with its next stone there, so -17 (that loss) is not either.
        ("1234567 -17", "123456", "analysis without a search"),
    ] {
        std::fs::write(file, format!("game connect4\n{book}\n")).unwrap();
        let err = one_line_error(&["analyse", "connect4", analysed, "--book", file]);
        assert!(
            err.contains("book line 2") && err.contains(words),
            "{book}: {err}"
        );
    }
    // Negamax between the lines, whatever their order: the built-in book with the empty
    // board's value changed, on its own line, first or last.
    let value = lines(book::CONNECT4)
        .into_iter()
        .find(|(p, _)| p.is_empty())
        .unwrap()
        .1;
    let changed = book::CONNECT4.replace(&format!("\n- {value}\n"), "\n");
    assert_eq!(lines(&changed).len() + 1, lines(book::CONNECT4).len());
    for text in [
        format!("{changed}- {}\n", value + 1),
        changed.replacen(
            "game connect4\n",
            &format!("game connect4\n- {}\n", value + 1),
            1,
        ),
    ] {
        std::fs::write(file, text).unwrap();
        let err = one_line_error(&["analyse", "connect4", "444", "--book", file]);
        assert!(
            err.contains("each in the book or ending the game, give at best"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_book_of_another_game_is_an_error_naming_both() {
    let err = one_line_error(&["analyse", "tictactoe", "--book", "builtin"]);
    assert!(
        err.contains("connect4") && err.contains("tictactoe"),
        "{err}"
    );
    let dir = scratch("book-game");
    let file = dir.join("c4.txt");
    std::fs::write(&file, "game connect4\n").unwrap();
    let err = one_line_error(&["analyse", "sim", "--book", file.to_str().unwrap()]);
    assert!(err.contains("connect4") && err.contains("sim"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn builtin_is_the_binarys_book_and_dot_slash_builtin_the_file() {
    let dir = scratch("book-builtin");
    std::fs::write(dir.join("builtin"), "game connect4\n4 x\n").unwrap();
    let run = |spec: &str| {
        Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(["analyse", "connect4", "444", "--json", "--book", spec])
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    // The word is the book in the binary, with a note that the file is `./builtin`.
    let out = run("builtin");
    assert!(out.status.success());
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(note.contains("./builtin"), "{note}");
    let j: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["nodes"], 0);
    // The path is the file.
    let out = run("./builtin");
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("./builtin: book line 2: bad value"), "{err}");
    // And the help says how to name it.
    assert!(ok(&["analyse", "--help"]).contains("./builtin"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_byte_order_mark_starts_a_book_as_any_input() {
    let dir = scratch("book-bom");
    let file = dir.join("bom.txt");
    std::fs::write(&file, format!("\u{feff}{}", book::CONNECT4)).unwrap();
    let file = file.to_str().unwrap();
    let with = ok(&["analyse", "connect4", "444", "--json", "--book", file]);
    let builtin = ok(&["analyse", "connect4", "444", "--json", "--book", "builtin"]);
    assert_eq!(scores(&with), scores(&builtin));
    std::fs::remove_dir_all(&dir).ok();
}
