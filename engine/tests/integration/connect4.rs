//! Connect Four's game knowledge against known values: the analysis hook, the static bounds,
//! the mirrored table key and the searches that use them.

use cutoff::advanced::{search, Searcher};
use cutoff::games::perfect::connect4::{parse_suite, SuiteLine};
use cutoff::games::perfect::connect4::{Bitboard, Connect4, Geometry, MAX_SCORE, MIN_SCORE};
use cutoff::games::perfect::connect4::{Connect4Knowledge as K, Connect4Scratch};
use cutoff::knowledge::{Assessment, Knowledge};
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game, MoveBuffer};

fn set(name: &str) -> Vec<SuiteLine> {
    let path = format!(
        "{}/../positions/connect4/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    parse_suite(&std::fs::read_to_string(path).expect("the test sets are in positions/"))
        .expect("the set parses")
}

const SETS: [&str; 6] = [
    "end-easy",
    "middle-easy",
    "middle-medium",
    "begin-easy",
    "begin-medium",
    "begin-hard",
];

#[test]
fn analysis_agrees_with_every_published_score() {
    // 6,000 positions with their published exact scores: a value the analysis gives must be
    // the score, and bounds must hold it.
    let game = Connect4::new();
    let (mut values, mut bounded, mut tight) = (0, 0, 0);
    for name in SETS {
        for l in set(name) {
            let pos = l.game.board();
            let mut moves = <Connect4 as Game>::Moves::default();
            let mut hints = [0; 64];
            let mut scratch = Connect4Scratch::default();
            match K::analyse(&game, &pos, &mut moves, &mut hints, &mut scratch) {
                Assessment::Value(v) => {
                    assert_eq!(v, l.expected, "{name} {}: analysed value", l.moves);
                    values += 1;
                }
                Assessment::Bounds(lo, hi) => {
                    assert!(
                        lo <= l.expected && l.expected <= hi,
                        "{name} {}: score {} outside [{lo}, {hi}]",
                        l.moves,
                        l.expected
                    );
                    assert!(!moves.is_empty(), "{name} {}: no move listed", l.moves);
                    bounded += 1;
                    if moves.len() > 1 {
                        let (lo, hi) =
                            match K::analyse_moves(&game, &pos, &moves, &mut hints, &mut scratch) {
                                Assessment::Value(v) => (v, v),
                                Assessment::Bounds(lo, hi) => (lo, hi),
                            };
                        assert!(
                            lo <= l.expected && l.expected <= hi,
                            "{name} {}: score {} outside the per-move analysis' [{lo}, {hi}]",
                            l.moves,
                            l.expected
                        );
                    }
                    if hi - lo < MAX_SCORE - MIN_SCORE - 4 {
                        tight += 1;
                    }
                }
            }
            let (lo, hi) = game.static_bounds(&pos);
            assert!(
                lo <= l.expected && l.expected <= hi,
                "{name} {}: static bounds [{lo}, {hi}] miss {}",
                l.moves,
                l.expected
            );
        }
    }
    assert_eq!(values + bounded, 6000);
    assert!(
        values > 0 && tight > 0,
        "{values} values, {tight} tight bounds"
    );
}

/// Positions near the end, reached by random play from the test sets' positions.
fn late_positions(count: usize) -> Vec<Bitboard> {
    late_positions_at(count, 30, 0x2545_F491_4F6C_DD1D)
}

/// `count` positions with `stones` stones and the game not over, reached by random play
/// (from `seed`) from the Middle-Easy positions.
fn late_positions_at(count: usize, stones: u32, mut seed: u64) -> Vec<Bitboard> {
    let game = Connect4::new();
    let mut out = Vec::new();
    for l in set("middle-easy").iter().cycle() {
        let mut pos = l.game.board();
        let mut moves = <Connect4 as Game>::Moves::default();
        while pos.moves < stones && game.outcome(&pos).is_none() {
            game.moves(&pos, &mut moves);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves.as_slice()[(seed % moves.len() as u64) as usize];
            pos = game.play(&pos, mv);
        }
        if pos.moves == stones && game.outcome(&pos).is_none() {
            out.push(pos);
        }
        if out.len() == count {
            return out;
        }
    }
    unreachable!()
}

#[test]
fn analysis_and_listed_moves_agree_with_plain_alphabeta_near_the_end() {
    // A value must be exact; with bounds, the listed moves must still reach the exact value.
    let game = Connect4::new();
    let mut checked = 0;
    for pos in late_positions(150) {
        let exact = search(&game, pos, Algorithm::AlphaBeta, None).value;
        let mut moves = <Connect4 as Game>::Moves::default();
        let mut hints = [0; 64];
        let mut scratch = Connect4Scratch::default();
        match K::analyse(&game, &pos, &mut moves, &mut hints, &mut scratch) {
            Assessment::Value(v) => assert_eq!(v, exact, "{pos:?}"),
            Assessment::Bounds(lo, hi) => {
                assert!(
                    lo <= exact && exact <= hi,
                    "{pos:?}: {exact} not in [{lo}, {hi}]"
                );
                let best = moves
                    .as_slice()
                    .iter()
                    .map(|&mv| {
                        -search(&game, game.play(&pos, mv), Algorithm::AlphaBeta, None).value
                    })
                    .max()
                    .expect("moves listed");
                assert_eq!(best, exact, "{pos:?}: the listed moves miss the best one");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 150);
}

#[test]
fn claimeven_bound_holds_with_columns_of_odd_height() {
    // The evens bound with the first player to move and some columns of odd height (their
    // playable cells on even rows go to the first player): checked against plain alpha-beta,
    // which knows nothing of Connect Four, on every position where it bounds the value.
    let game = Connect4::new();
    let claim_rows = game.geometry().claim_rows();
    let (mut odd_columns, mut losses, mut graded, mut put_off) = (0, 0, 0, 0);
    for stones in [24, 26, 28] {
        for pos in late_positions_at(3000, stones, cutoff::rng::GOLDEN ^ stones as u64) {
            let (_, hi) = game.static_bounds(&pos);
            if hi == MAX_SCORE {
                continue;
            }
            let exact = search(&game, pos, Algorithm::AlphaBeta, None).value;
            assert!(exact <= hi, "{pos:?}: {exact} above the bound {hi}");
            // A loss before the last move: the graded bound (`claimeven_win`).
            graded += (hi < -1) as u32;
            // A loss although the first player could still make a line: its lines all lie
            // above the second player's (`claimeven_follower`).
            let g = game.geometry();
            let follower =
                pos.opponent() | (g.board() & !pos.mask & claim_rows & !game.playable(&pos));
            put_off += (hi < 0 && g.has_line(g.board() & !follower)) as u32;
            if game.playable(&pos) & claim_rows != 0 {
                odd_columns += 1;
                losses += (hi < 0) as u32;
            }
        }
    }
    assert!(
        odd_columns >= 100 && losses >= 20 && graded >= 40 && put_off >= 40,
        "{odd_columns} bounds with odd columns, {losses} of them losses; {graded} graded losses, \
         {put_off} with lines put off"
    );
}

#[test]
fn per_move_lower_bounds_hold() {
    // The per-move analysis raises the lower bound from the children's static bounds (the
    // opponent cannot make four after a move, or we can follow claimeven after it): checked
    // against plain alpha-beta wherever it gives one.
    let game = Connect4::new();
    let (mut raised, mut wins, mut graded) = (0, 0, 0);
    for stones in [23, 25, 27] {
        for pos in late_positions_at(5000, stones, 0xD1B5_4A32_D192_ED03 ^ stones as u64) {
            let mut moves = <Connect4 as Game>::Moves::default();
            let mut hints = [0; 64];
            let mut scratch = Connect4Scratch::default();
            if !matches!(
                K::analyse(&game, &pos, &mut moves, &mut hints, &mut scratch),
                Assessment::Bounds(..)
            ) || moves.len() < 2
            {
                continue;
            }
            let Assessment::Bounds(lo, hi) =
                K::analyse_moves(&game, &pos, &moves, &mut hints, &mut scratch)
            else {
                continue;
            };
            if lo == MIN_SCORE {
                continue;
            }
            let exact = search(&game, pos, Algorithm::AlphaBeta, None).value;
            assert!(
                lo <= exact && exact <= hi,
                "{pos:?}: {exact} not in [{lo}, {hi}]"
            );
            raised += 1;
            wins += (lo > 0) as u32;
            graded += (lo > 1) as u32;
        }
    }
    assert!(
        raised >= 200 && wins >= 100 && graded >= 50,
        "{raised} raised lower bounds, {wins} of them wins, {graded} above 1"
    );
}

#[test]
fn playing_an_analysed_move_gives_the_played_position() {
    // `play_analysed` reuses the per-move analysis: after `analyse` alone (a forced move) and
    // after both halves, every listed move must give exactly what `play` gives.
    let game = Connect4::new();
    let (mut single, mut several) = (0, 0);
    // One buffer for all, as in the search: what one position left must not leak into the next.
    let mut hints = [0; 64];
    let mut scratch = Connect4Scratch::default();
    for name in SETS {
        for l in set(name).iter().take(300) {
            let pos = l.game.board();
            let mut moves = <Connect4 as Game>::Moves::default();
            let Assessment::Bounds(..) =
                K::analyse(&game, &pos, &mut moves, &mut hints, &mut scratch)
            else {
                continue;
            };
            if moves.len() > 1 {
                if let Assessment::Value(_) =
                    K::analyse_moves(&game, &pos, &moves, &mut hints, &mut scratch)
                {
                    continue;
                }
                several += 1;
            } else {
                single += 1;
            }
            for &mv in moves.as_slice() {
                assert_eq!(
                    K::play_analysed(&game, &pos, mv, &scratch),
                    game.play(&pos, mv),
                    "{} then column {}",
                    l.moves,
                    mv + 1
                );
            }
        }
    }
    assert!(
        single > 50 && several > 500,
        "{single} forced, {several} with a choice"
    );
}

#[test]
fn mirror_images_share_a_key_and_a_value() {
    let game = Connect4::new();
    let tt = TranspositionTable::new(16);
    for l in set("middle-easy").iter().take(150) {
        let pos = l.game.board();
        let image = game.mirror(&pos);
        assert_eq!(game.mirror(&image), pos);
        let (k, flipped) = K::table_key(&game, &pos);
        let (ki, flipped_i) = K::table_key(&game, &image);
        assert_eq!(k, ki, "{}: mirror images under different keys", l.moves);
        if pos != image {
            assert_ne!(flipped, flipped_i, "{}", l.moves);
        }
        for c in 0..7 {
            assert_eq!(K::mirror_code(&game, K::mirror_code(&game, c)), c);
        }
        // One table for both: the image is solved from what the original stored, and its
        // best move, mapped back through the mirror, must still reach the score.
        for root in [pos, image] {
            let mut s = Searcher::new(&game, root, None).table(&tt);
            let (v, best) = s.run(Algorithm::Solve);
            assert_eq!(v, l.expected, "{}", l.moves);
            let child = game.play(&root, best.expect("a move"));
            let mut c = Searcher::new(&game, child, None).table(&tt);
            assert_eq!(-c.run(Algorithm::Solve).0, v, "{}: best move", l.moves);
        }
    }
}

#[test]
fn forced_lines_and_enhanced_cutoffs_are_used_and_change_no_value() {
    let game = Connect4::new();
    let tt = TranspositionTable::new(16);
    let (mut forced, mut etc) = (0, 0);
    for l in set("begin-easy").iter().take(40) {
        tt.clear();
        let mut s = Searcher::new(&game, l.game.board(), None).table(&tt);
        let (v, _) = s.run(Algorithm::Solve);
        assert_eq!(v, l.expected, "{}", l.moves);
        forced += s.stats().forced;
        etc += s.stats().etc_cutoffs;
    }
    assert!(forced > 0, "no forced line passed through");
    assert!(etc > 0, "no enhanced transposition cutoff");
}

#[test]
fn searched_nodes_are_those_not_settled_on_entry_serial_and_parallel() {
    // `searched` counts the nodes whose moves were tried: fewer than `nodes`, since children
    // settled on entry (by the analysis, the table or an enhanced cutoff) are nodes too, and
    // the parallel search's threads hand theirs in like their other counts.
    for threads in [1, 2] {
        let (mut nodes, mut searched) = (0u64, 0u64);
        for l in set("begin-easy").iter().take(20) {
            let r = cutoff::Solver::new(&l.game)
                .position(l.game.board())
                .threads(threads)
                .table_mib(16)
                .run()
                .unwrap();
            assert_eq!(r.verdict.value(), Some(l.expected), "{}", l.moves);
            assert!(r.stats.searched <= r.stats.nodes, "{}", l.moves);
            nodes += r.stats.nodes;
            searched += r.stats.searched;
        }
        assert!(searched > 0, "{threads} threads: no searched node counted");
        assert!(
            searched < nodes,
            "{threads} threads: no node settled on entry ({searched} of {nodes})"
        );
    }
}

#[test]
fn weak_solving_costs_no_more_than_exact_solving() {
    // Weak solving is a prefix of the exact bisection: never more nodes on a fresh table.
    let game = Connect4::new();
    let tt = TranspositionTable::new(16);
    let (mut weak_total, mut exact_total) = (0, 0);
    for l in set("begin-easy").iter().take(30) {
        let mut nodes = [0u64; 2];
        for (i, weak) in [false, true].into_iter().enumerate() {
            tt.clear();
            let mut s = Searcher::new(&game, l.game.board(), None)
                .table(&tt)
                .weak(weak)
                .want_move(false);
            let (v, _) = s.run(Algorithm::Solve);
            let want = if weak {
                l.expected.signum()
            } else {
                l.expected
            };
            assert_eq!(v, want, "{} weak={weak}", l.moves);
            nodes[i] = s.stats().nodes;
        }
        assert!(
            nodes[1] <= nodes[0],
            "{}: weak {} > exact {}",
            l.moves,
            nodes[1],
            nodes[0]
        );
        exact_total += nodes[0];
        weak_total += nodes[1];
    }
    assert!(
        weak_total < exact_total,
        "weak {weak_total}, exact {exact_total}"
    );
}
