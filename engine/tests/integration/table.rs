//! The table-driven searches (PVS, MTD(f), the null-window solver) against the plain ones:
//! the table and the game's knowledge hooks must never change a root value.

use cutoff::advanced::{iterative_deepening, Limits};
use cutoff::advanced::{search, Searcher};
use cutoff::games::perfect::connect4::Connect4;
use cutoff::games::perfect::connect4::{parse_suite, SuiteLine};
use cutoff::games::perfect::sim::Sim;
use cutoff::rng::mix;
use cutoff::tt::{Bound, Entry, TranspositionTable, TtStats};
use cutoff::Notation;
use cutoff::{Algorithm, Game};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const TABLE_ALGOS: [Algorithm; 3] = [Algorithm::Pvs, Algorithm::Mtdf, Algorithm::Solve];

fn end_easy() -> Vec<SuiteLine> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/connect4/end-easy.txt"
    ))
    .expect("the End-Easy set is in positions/connect4");
    parse_suite(&text).expect("the set parses")
}

#[test]
fn connect4_table_searches_agree_with_plain_alphabeta_near_the_end() {
    let tt = TranspositionTable::new(4);
    let mut checked = 0;
    for l in end_easy()
        .iter()
        .filter(|l| l.game.board().moves >= 33)
        .take(60)
    {
        let root = l.game.initial();
        let plain = search(&l.game, root, Algorithm::AlphaBeta, None);
        assert_eq!(plain.value, l.expected, "plain alpha-beta on {}", l.moves);
        for algo in TABLE_ALGOS {
            tt.clear();
            let mut s = Searcher::new(&l.game, root, None).table(&tt);
            let (v, best) = s.run(algo);
            assert_eq!(v, l.expected, "{algo} with the table on {}", l.moves);
            // The best move really achieves the value.
            let child = l
                .game
                .play(&root, best.expect("a non-terminal root has a move"));
            let after = search(&l.game, child, Algorithm::AlphaBeta, None);
            assert_eq!(-after.value, v, "{algo}'s best move on {}", l.moves);
            // And the same search without the table agrees.
            let mut bare = Searcher::new(&l.game, root, None);
            assert_eq!(
                bare.run(algo).0,
                v,
                "{algo} without the table on {}",
                l.moves
            );
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} positions near the end");
}

#[test]
fn connect4_weak_solving_gives_the_sign() {
    let tt = TranspositionTable::new(4);
    for l in end_easy().iter().take(200) {
        let mut s = Searcher::new(&l.game, l.game.initial(), None)
            .table(&tt)
            .weak(true);
        assert_eq!(
            s.run(Algorithm::Solve).0,
            l.expected.signum(),
            "{}",
            l.moves
        );
    }
}

#[test]
fn connect4_reused_table_and_searcher_give_the_same_values() {
    // One searcher and one table across many roots, as the suite runner does.
    let tt = TranspositionTable::new(1);
    let lines = end_easy();
    let game = Connect4::new();
    let mut s = Searcher::new(&game, game.initial(), None).table(&tt);
    for l in lines.iter().take(300) {
        s.set_root(l.game.board(), None);
        assert_eq!(s.run(Algorithm::Solve).0, l.expected, "{}", l.moves);
    }
}

#[test]
fn sim_second_player_wins() {
    let g = Sim::new();
    let tt = TranspositionTable::new(8);
    for algo in TABLE_ALGOS {
        tt.clear();
        let mut s = Searcher::new(&g, g.initial(), None).table(&tt);
        let (v, best) = s.run(algo);
        assert_eq!(v, -1, "{algo}: the first player to move loses Sim");
        assert!(best.is_some());
    }
}

#[test]
fn sim_table_values_match_plain_alphabeta_on_late_positions() {
    // Positions with 9 edges coloured are small enough for alpha-beta without a table.
    let g = Sim::new();
    let tt = TranspositionTable::new(1);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut checked = 0;
    while checked < 40 {
        let mut pos = g.initial();
        let mut ok = true;
        for _ in 0..9 {
            if g.outcome(&pos).is_some() {
                ok = false;
                break;
            }
            let mut moves = <Sim as Game>::Moves::default();
            g.moves(&pos, &mut moves);
            use cutoff::MoveBuffer;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mv = moves.as_slice()[(x % moves.len() as u64) as usize];
            pos = g.play(&pos, mv);
        }
        if !ok || g.outcome(&pos).is_some() {
            continue;
        }
        let plain = search(&g, pos, Algorithm::AlphaBeta, None).value;
        for algo in TABLE_ALGOS {
            let mut s = Searcher::new(&g, pos, None).table(&tt);
            assert_eq!(s.run(algo).0, plain, "{algo} on {pos:?}");
        }
        checked += 1;
    }
}

#[test]
fn iterative_deepening_respects_a_node_budget() {
    let g = Connect4::new();
    let tt = TranspositionTable::new(4);
    let budget = 200_000;
    let limits = Limits {
        nodes: Some(budget),
        ..Limits::default()
    };
    let d = iterative_deepening(&g, g.initial(), &tt, limits, None);
    // The check runs every few thousand nodes: the overshoot is bounded by that.
    assert!(d.stats.nodes <= budget + 10_000, "{} nodes", d.stats.nodes);
    let last = d.last.expect("shallow iterations finish within 200k nodes");
    assert!(last.depth >= 4 && !last.exact);
    assert!(last.best_move.is_some());
    // Depths finished in order, one by one.
    for (i, (depth, _)) in d.history.iter().enumerate() {
        assert_eq!(*depth, i + 1);
    }
}

#[test]
fn iterative_deepening_stops_promptly_on_time_and_on_the_flag() {
    let g = Connect4::new();
    let tt = TranspositionTable::new(4);
    let start = Instant::now();
    let limits = Limits {
        deadline: Some(start + Duration::from_millis(100)),
        ..Limits::default()
    };
    let d = iterative_deepening(&g, g.initial(), &tt, limits, None);
    // Generous margin: the point is that it stops, not how precisely.
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(d.last.is_some());

    let raised = AtomicBool::new(true);
    let limits = Limits {
        stop: Some(&raised),
        ..Limits::default()
    };
    let start = Instant::now();
    let d = iterative_deepening(&g, g.initial(), &tt, limits, None);
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(
        d.stats.nodes <= 10_000,
        "a raised flag stops within one check interval"
    );
}

#[test]
fn iterative_deepening_reaches_the_exact_value_when_unlimited() {
    // Tic-tac-toe-sized work: a Connect Four position 8 plies from the end.
    let l = end_easy()
        .into_iter()
        .find(|l| l.game.board().moves == 34)
        .expect("a 34-stone position");
    let tt = TranspositionTable::new(4);
    let d = iterative_deepening(&l.game, l.game.initial(), &tt, Limits::default(), None);
    let last = d.last.expect("finished");
    assert!(last.exact);
    assert_eq!(last.value, l.expected);
}

#[test]
fn connect4_solver_lines_are_legal_and_end_in_the_value() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/connect4/middle-easy.txt"
    ))
    .expect("the Middle-Easy set is in positions/connect4");
    let tt = TranspositionTable::new(8);
    for l in parse_suite(&text).expect("parses").iter().take(60) {
        let root = l.game.initial();
        let mut s = Searcher::new(&l.game, root, None).table(&tt);
        let (v, best) = s.run(Algorithm::Solve);
        assert_eq!(v, l.expected);
        let line = s.pv().to_vec();
        assert_eq!(line.first().copied(), best);
        // Play the line: every move legal, and the game ends with the promised score.
        let mut pos = root;
        let mut sign = 1;
        for &mv in &line {
            assert!(
                l.game.outcome(&pos).is_none(),
                "line goes past the end: {}",
                l.moves
            );
            let text = l.game.format_move(&pos, mv);
            assert_eq!(
                l.game.parse_move(&pos, &text),
                Ok(mv),
                "illegal move in the line"
            );
            pos = l.game.play(&pos, mv);
            sign = -sign;
        }
        assert_eq!(
            l.game.outcome(&pos).map(|u| sign * u),
            Some(v),
            "the line from {} does not end in its value",
            l.moves
        );
    }
}

/// The one entry ever stored for `key`: every field a function of the key.
fn entry_of(key: u64) -> Entry {
    let h = mix(key ^ 0x5EED);
    Entry {
        value: h as u16 as i16,
        bound: [Bound::Exact, Bound::Lower, Bound::Upper][(h >> 16) as usize % 3],
        mv: (h >> 24) as u8,
        depth: (h >> 32) as u8,
        work: (h >> 40) as u8 & 63,
    }
}

#[test]
fn concurrent_writers_on_one_cluster_never_give_another_keys_data() {
    // Many keys fighting over the ways of one cluster, stored and probed by four threads
    // at once. Every entry's fields are a function of its key, so a probe that returned
    // anything else would have accepted a torn entry (word 0 of one store beside word 1 of
    // another). Same-line tears are rare on their own; every eighth store yields between its
    // two words so that other writers get in between, and the torn ways are counted.
    let tt = TranspositionTable::new(1);
    let target = tt.cluster_index(mix(1));
    let keys: Vec<u64> = (1..)
        .map(mix)
        .filter(|&k| k != 0 && tt.cluster_index(k) == target)
        .take(64)
        .collect();
    const THREADS: u64 = 4;
    const OPS: u64 = 100_000;
    let start = Instant::now();
    let (hits, probes, tears) = std::thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let (tt, keys) = (&tt, &keys);
                s.spawn(move || {
                    let mut stats = TtStats::default();
                    let mut tears = 0u64;
                    let mut x = mix(t + 100);
                    for i in 0..OPS {
                        x = mix(x);
                        let key = keys[(x % keys.len() as u64) as usize];
                        match x >> 61 {
                            0 => tt.store_with(
                                key,
                                entry_of(key),
                                &mut stats,
                                std::thread::yield_now,
                            ),
                            1..=3 => tt.store(key, entry_of(key), &mut stats),
                            _ => {
                                if let Some(e) = tt.probe(key, &mut stats) {
                                    assert_eq!(
                                        e,
                                        entry_of(key),
                                        "key {key:#x} read another key's data"
                                    );
                                }
                            }
                        }
                        if i % 16 == 0 {
                            tears += tt
                                .decoded_keys(target)
                                .iter()
                                .filter(|k| **k != 0 && !keys.contains(k))
                                .count() as u64;
                        }
                    }
                    (stats.hits, stats.probes, tears)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker panicked"))
            .fold((0, 0, 0), |(h, p, n), (wh, wp, wn)| {
                (h + wh, p + wp, n + wn)
            })
    });
    eprintln!(
        "{hits} hits of {probes} probes, {tears} torn ways seen, {:?}",
        start.elapsed()
    );
    // The test means something only if probes found entries while others were writing.
    assert!(hits > probes / 100, "{hits} hits of {probes} probes");
}
