//! Sim move strings: `Sim::from_moves`. A parsed position has disjoint edge sets in turn
//! order; its moves, formatted back with `format_move` and joined by spaces, commas and
//! tabs, parse to the same position; every legal move reads back through
//! `parse_move(format_move(..))`. Positions with five or fewer uncoloured edges are searched by
//! every algorithm, which must agree with minimax.
#![no_main]

use cutoff::games::perfect::sim::Sim;
use cutoff::advanced::search;
use cutoff::Algorithm;
use cutoff::{Game, MoveBuffer, Notation};
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let game = match Sim::from_moves(&text) {
        Ok(g) => g,
        Err(e) => return check_message("Sim::from_moves", &e.0, STRICT),
    };
    let end = game.initial();
    assert_eq!(end.first & end.second, 0);
    assert_eq!((end.first | end.second) >> 15, 0);
    let (nf, ns) = (end.first.count_ones(), end.second.count_ones());
    assert!(nf == ns || nf == ns + 1);

    // Replay with a fresh game (one for all runs: building one maps 720 relabellings),
    // writing each move back.
    static FRESH: OnceLock<Sim> = OnceLock::new();
    let g = FRESH.get_or_init(Sim::new);
    let mut pos = g.initial();
    let mut written = String::new();
    let separators = [" ", ",", ", ", "\t"];
    for (i, tok) in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let mv = g
            .parse_move(&pos, tok)
            .unwrap_or_else(|e| panic!("{text:?}: move {tok:?}: {e}"));
        if i > 0 {
            written.push_str(separators[i % separators.len()]);
        }
        written.push_str(&g.format_move(&pos, mv));
        pos = g.play(&pos, mv);
    }
    assert_eq!(pos, end);
    let again = Sim::from_moves(&written).unwrap_or_else(|e| panic!("written as {written:?}: {e}"));
    assert_eq!(again.initial(), end, "{written:?}");

    if game.outcome(&end).is_none() {
        let mut moves = <Sim as Game>::Moves::default();
        game.moves(&end, &mut moves);
        assert_eq!(moves.len() as u32, 15 - nf - ns);
        for &mv in moves.as_slice() {
            let s = game.format_move(&end, mv);
            assert_eq!(game.parse_move(&end, &s), Ok(mv), "move {s}");
        }
        if moves.len() <= 5 {
            let want = search(&game, end, Algorithm::Minimax, None).value;
            for algo in Algorithm::ALL {
                assert_eq!(
                    search(&game, end, algo, None).value,
                    want,
                    "{algo:?} after {written:?}"
                );
            }
        }
    }
});
