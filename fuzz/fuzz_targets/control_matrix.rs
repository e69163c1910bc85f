//! Control-game matrices: `Control::parse`. A parsed graph has 1 to 64 vertices and a
//! symmetric closed neighbourhood (each vertex controls itself); written back in each
//! notation (digit rows, spaced rows, rows joined by '/', a header line first) it parses to
//! the same graph; every vertex of the start position reads back through
//! `parse_move(format_move(..))`. The game is not solved here (exponential on large graphs).
#![no_main]

use cutoff::games::perfect::control::{Control, MAX_VERTICES};
use cutoff::{Game, MoveBuffer, Notation};
use cutoff_fuzz::{check_message, text, MessageRules};
use libfuzzer_sys::fuzz_target;

/// What holds today: messages are printable (entries are quoted escaped, at most 20
/// characters), but a vertex count is quoted whole: a header of 300 digits over a short
/// matrix gives `vertex count '999...' is out of range`, over 300 bytes. Set to `STRICT`
/// once the parser shortens it (`cutoff::game::quote`).
const RULES: MessageRules = MessageRules {
    short: false,
    printable: true,
};

fn same(a: &Control, b: &Control) {
    assert_eq!(a.vertices(), b.vertices());
    for v in 0..a.vertices() {
        assert_eq!(a.neighbours(v), b.neighbours(v), "vertex {v}");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let g = match Control::parse(&text) {
        Ok(g) => g,
        Err(e) => return check_message("Control::parse", &e.0, RULES),
    };
    let n = g.vertices();
    assert!((1..=MAX_VERTICES).contains(&n));
    let rows: Vec<String> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i != j && g.neighbours(i) >> j & 1 == 1 {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect();
    for i in 0..n {
        let m = g.neighbours(i);
        if n < 64 {
            assert_eq!(m >> n, 0, "vertex {i} has a neighbour past the last vertex");
        }
        for j in 0..n {
            assert_eq!(m >> j & 1, g.neighbours(j) >> i & 1, "a[{i}][{j}]");
        }
    }
    let spaced: Vec<String> = rows
        .iter()
        .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
        .collect();
    let written = [
        rows.join("\n"),
        spaced.join("\n"),
        rows.join("/"),
        format!("{n}\n{}", rows.join("\n")),
        format!("{n}\r\n{}\r\n", spaced.join("\r\n")),
    ];
    for w in &written {
        let again = Control::parse(w).unwrap_or_else(|e| panic!("{text:?} written as {w:?}: {e}"));
        same(&g, &again);
    }

    let pos = g.initial();
    let mut moves = <Control as Game>::Moves::default();
    g.moves(&pos, &mut moves);
    assert_eq!(moves.len(), n);
    for &mv in moves.as_slice() {
        let s = g.format_move(&pos, mv);
        assert_eq!(g.parse_move(&pos, &s), Ok(mv), "move {s}");
    }
});
