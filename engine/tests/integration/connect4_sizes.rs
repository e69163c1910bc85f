//! Connect Four on other boards and other line lengths: the published results of the small
//! boards solved from the empty board, and the solver's knowledge (threats, static bounds,
//! claimeven on even and odd heights, the mirrored key) against plain alpha-beta, which
//! knows nothing of Connect Four, on positions near the end of random games.

use cutoff::advanced::search;
use cutoff::games::perfect::connect4::{Connect4, Fixed128, Fixed64, Geometry, Shape, Word};
use cutoff::games::perfect::connect4::{Connect4Knowledge as K, Connect4Scratch};
use cutoff::knowledge::{Assessment, Knowledge};
use cutoff::solver::Verdict;
use cutoff::{Algorithm, Game, MoveBuffer, Solver, Value};

/// The published outcome of every board with W x H <= 30, from the empty board: the winner
/// (1 the first player, -1 the second, 0 a draw) and the move on which the game ends with
/// perfect play (Tromp's results for W + H <= 15, with the end moves of Steininger's
/// solver's results table; a draw ends on the last cell).
const PUBLISHED: [(u32, u32, i32, u32); 10] = [
    (4, 4, 0, 16),
    (5, 4, 0, 20),
    (6, 4, -1, 24),
    (7, 4, 0, 28),
    (4, 5, 0, 20),
    (5, 5, 0, 25),
    (6, 5, 0, 30),
    (4, 6, 0, 24),
    (5, 6, 0, 30),
    (4, 7, 0, 28),
];

/// Solves `game` from its start: the exact value.
fn solve<G: Geometry>(game: &Connect4<G>) -> Value {
    let report = Solver::new(game)
        .threads(1)
        .table_mib(16)
        .run()
        .expect("the solver runs");
    report.verdict.value().expect("an exact solve")
}

#[test]
fn every_board_up_to_30_cells_gives_its_published_result() {
    for (w, h, winner, end) in PUBLISHED {
        let game = Connect4::empty(Shape::<u64>::new(w, h, 4).unwrap());
        let value = solve(&game);
        assert_eq!(value.signum(), winner, "{w}x{h}: value {value}");
        let at = game.end_move(&game.board(), value).unwrap_or(w * h);
        assert_eq!(at, end, "{w}x{h}: value {value} ends on move {at}");
        // The same board on the wide word gives the same value.
        let wide = Connect4::empty(Shape::<u128>::new(w, h, 4).unwrap());
        assert_eq!(solve(&wide), value, "{w}x{h} on u128");
    }
}

/// `count` positions with `stones` stones and the game not over, by random play from `game`'s
/// start.
fn late_positions<G: Geometry>(
    game: &Connect4<G>,
    count: usize,
    stones: u32,
    seed: u64,
) -> Vec<Connect4<G>> {
    late_lines(game, count, stones, seed)
        .iter()
        .map(|line| game.after(line).expect("a legal line"))
        .collect()
}

/// The lines (columns from 1, with commas) of [`late_positions`].
fn late_lines<G: Geometry>(
    game: &Connect4<G>,
    count: usize,
    stones: u32,
    mut seed: u64,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        assert!(tries < 100 * count, "few games reach {stones} stones");
        let mut pos = game.board();
        let mut moves = G::Moves::default();
        let mut line = Vec::new();
        while pos.moves < stones && game.outcome(&pos).is_none() {
            game.moves(&pos, &mut moves);
            seed = cutoff::rng::splitmix64(seed);
            // A random move that does not end the game, where there is one: random games
            // on large boards end long before their last cells otherwise.
            let list = moves.as_slice();
            let start = (seed % list.len() as u64) as usize;
            let mv = (0..list.len())
                .map(|i| list[(start + i) % list.len()])
                .find(|&m| game.outcome(&game.play(&pos, m)).is_none())
                .unwrap_or(list[start]);
            line.push((mv + 1).to_string());
            pos = game.play(&pos, mv);
        }
        if pos.moves == stones && game.outcome(&pos).is_none() {
            out.push(line.join(","));
        }
    }
    out
}

/// The null-window solver, with every piece of knowledge, against plain alpha-beta on
/// positions with `left` empty cells.
fn knowledge_agrees<G: Geometry>(start: Connect4<G>, left: u32, count: usize) -> usize {
    let cells = start.geometry().cells();
    let mut checked = 0;
    for game in late_positions(&start, count, cells - left, cells as u64) {
        let exact = search(&game, game.board(), Algorithm::AlphaBeta, None).value;
        assert_eq!(
            solve(&game),
            exact,
            "{} {:?}",
            game.shape_name(),
            game.board()
        );
        let (lo, hi) = game.static_bounds(&game.board());
        assert!(
            lo <= exact && exact <= hi,
            "static bounds [{lo}, {hi}] miss {exact}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn knowledge_holds_on_odd_and_even_heights_and_every_line_length() {
    let mut checked = 0;
    // Even heights (claimeven's follower claims the even rows), odd heights (the odd rows),
    // four in a row; 6x6 and 6x7 step their probes (`Knowledge::probe_steps`).
    for (w, h) in [(6, 4), (5, 5), (7, 5), (6, 6), (6, 7), (8, 6), (9, 7)] {
        if w * (h + 1) <= 64 {
            checked +=
                knowledge_agrees(Connect4::empty(Shape::<u64>::new(w, h, 4).unwrap()), 12, 12);
        } else {
            checked += knowledge_agrees(
                Connect4::empty(Shape::<u128>::new(w, h, 4).unwrap()),
                12,
                12,
            );
        }
    }
    // Other line lengths.
    for (w, h, k) in [
        (4, 4, 3),
        (5, 4, 3),
        (6, 5, 5),
        (7, 6, 5),
        (7, 6, 6),
        (8, 7, 6),
    ] {
        checked += knowledge_agrees(Connect4::empty(Shape::<u64>::new(w, h, k).unwrap()), 12, 12);
    }
    checked += knowledge_agrees(
        Connect4::empty(Shape::<u128>::new(9, 7, 5).unwrap()),
        12,
        12,
    );
    assert_eq!(checked, 168);
}

/// What [`claimeven_bounds_hold`] counted.
#[derive(Default, Debug)]
struct ClaimCounts {
    /// The mover's upper bounds (`static_bounds`).
    bounded: u32,
    /// Of those, losses graded below -1.
    graded: u32,
    /// Of those, losses with the mover's lines put off.
    put_off: u32,
    /// Lower bounds above 0 the per-move analysis found from its children's.
    per_move: u32,
}

impl ClaimCounts {
    fn add(&mut self, o: ClaimCounts) {
        self.bounded += o.bounded;
        self.graded += o.graded;
        self.put_off += o.put_off;
        self.per_move += o.per_move;
    }
}

/// What the claimeven bounds of `start`'s board gave at random positions with `left` empty
/// cells, each checked against plain alpha-beta.
fn claimeven_bounds_hold<G: Geometry>(start: &Connect4<G>, left: u32, count: usize) -> ClaimCounts {
    let g = start.geometry();
    let cells = g.cells();
    let mut c = ClaimCounts::default();
    let seed = (g.width() * 31 + g.height() * 7 + g.connect()) as u64;
    for game in late_positions(start, count, cells - left, seed) {
        let pos = game.board();
        let (_, hi) = game.static_bounds(&pos);
        let lo = per_move_bound(&game);
        if hi == game.max_score() && lo <= 0 {
            continue;
        }
        let exact = search(&game, pos, Algorithm::AlphaBeta, None).value;
        let what = format!("{} {pos:?}", game.shape_name());
        assert!(exact <= hi, "{what}: {exact} above the bound {hi}");
        assert!(lo <= exact, "{what}: {exact} below the per-move bound {lo}");
        if hi < game.max_score() {
            c.bounded += 1;
            c.graded += (hi < -1) as u32;
            let follower =
                pos.opponent() | (g.board() & !pos.mask & g.claim_rows() & !game.playable(&pos));
            c.put_off += (hi < 0 && g.has_line(g.board() & !follower)) as u32;
        }
        c.per_move += (lo > 0) as u32;
    }
    c
}

/// The analysis's lower bound at `game`'s position where both halves run (more than one
/// move, no value found at once); the least score elsewhere.
fn per_move_bound<G: Geometry>(game: &Connect4<G>) -> Value {
    let pos = game.board();
    let mut moves = G::Moves::default();
    let mut hints = [0; 64];
    let mut scratch = Connect4Scratch::<G>::default();
    if !matches!(
        K::analyse(game, &pos, &mut moves, &mut hints, &mut scratch),
        Assessment::Bounds(..)
    ) || moves.as_slice().len() < 2
    {
        return game.min_score();
    }
    match K::analyse_moves(game, &pos, &moves, &mut hints, &mut scratch) {
        Assessment::Bounds(lo, _) => lo,
        _ => game.min_score(),
    }
}

#[test]
fn graded_claimeven_bounds_hold_on_even_heights() {
    // The claimeven bound on other boards of even height and other line lengths (the second
    // player follows, claiming the even rows), graded by how long the first player can put
    // the loss off, and with the first player's lines lying above the second's: checked
    // against plain alpha-beta wherever it bounds the value.
    let mut all = ClaimCounts::default();
    for (w, h, k) in [
        (6, 4, 4),
        (8, 4, 4),
        (6, 6, 4),
        (5, 4, 3),
        (6, 4, 3),
        (8, 6, 5),
    ] {
        let start = Connect4::empty(Shape::<u64>::new(w, h, k).unwrap());
        all.add(claimeven_bounds_hold(&start, 12, 1500));
    }
    assert!(
        all.bounded >= 400 && all.graded >= 60 && all.put_off >= 20,
        "{all:?}"
    );
}

#[test]
fn claimeven_bounds_hold_on_odd_heights() {
    // On a board of odd height the top row is odd, and the follower claims the odd rows
    // (`Geometry::claim_rows`); on boards with an odd number of cells (7x7, 9x5) the follower
    // is the first player. Both the mover's upper bound and the per-move lower bound are
    // checked against plain alpha-beta wherever they bound the value, on each kind of board.
    for (boards, what) in [
        (
            &[(6, 5, 4), (4, 7, 4), (6, 5, 3), (8, 5, 5)][..],
            "even cells",
        ),
        (
            &[(7, 5, 4), (5, 5, 4), (5, 5, 3), (9, 5, 4), (7, 7, 5)][..],
            "odd cells",
        ),
    ] {
        let mut all = ClaimCounts::default();
        for &(w, h, k) in boards {
            let start = Connect4::empty(Shape::<u64>::new(w, h, k).unwrap());
            // An even number of empty cells: the mover leads; an odd number: the mover
            // follows after each of its moves.
            for left in [12, 11] {
                all.add(claimeven_bounds_hold(&start, left, 800));
            }
        }
        assert!(
            all.bounded >= 300 && all.graded >= 30 && all.put_off >= 10 && all.per_move >= 100,
            "{what}: {all:?}"
        );
    }
}

#[test]
fn odd_threat_bounds_hold() {
    // With an odd number of empty cells the side that just moved may hold a winning cell off
    // the claim rows in a column with an odd number of empty cells, and win there by
    // following up (`odd_threat` in the Connect Four knowledge): the mover's upper bound below
    // 0, which no other static bound of such a position gives, and, one move earlier, the
    // per-move lower bound above 0, which no other per-move bound of a position with an even
    // number of empty cells gives. Both are checked against plain alpha-beta wherever they
    // bound the value, on boards of even and odd height and with an even and odd number of
    // cells.
    let mut total = (0, 0, 0);
    for &(w, h, k) in &[
        (7, 6, 4),
        (6, 5, 4),
        (5, 5, 4),
        (8, 4, 4),
        (4, 7, 4),
        (7, 5, 4),
    ] {
        let start = Connect4::empty(Shape::<u64>::new(w, h, k).unwrap());
        let g = start.geometry();
        let seed = (w * 131 + h * 17 + k) as u64;
        let (mut lost, mut graded, mut won) = (0, 0, 0);
        for left in [11, 12, 13, 14] {
            for game in late_positions(&start, 1500, g.cells() - left, seed ^ left as u64) {
                let pos = game.board();
                let (_, hi) = game.static_bounds(&pos);
                let lo = per_move_bound(&game);
                if hi >= 0 && lo <= 0 {
                    continue;
                }
                let exact = search(&game, pos, Algorithm::AlphaBeta, None).value;
                let what = format!("{} {pos:?}", game.shape_name());
                assert!(exact <= hi, "{what}: {exact} above the bound {hi}");
                assert!(lo <= exact, "{what}: {exact} below the per-move bound {lo}");
                if left % 2 == 1 {
                    lost += (hi < 0) as u32;
                    graded += (hi < -1) as u32;
                } else {
                    won += (lo > 0) as u32;
                }
            }
        }
        assert!(
            lost > 0 && won > 0,
            "{w}x{h} k{k}: {lost} losses, {won} wins"
        );
        total = (total.0 + lost, total.1 + graded, total.2 + won);
    }
    assert!(
        total.0 >= 300 && total.1 >= 150 && total.2 >= 300,
        "{total:?}"
    );
}

#[test]
fn the_runtime_7x6_board_searches_as_the_standard_one() {
    // Same values and node counts: the shape chosen at run time changes nothing but speed.
    for moves in ["44536734", "3344443", "12345671234", "445327"] {
        let std = Connect4::from_moves(moves).unwrap();
        let run = Connect4::empty(Shape::<u64>::new(7, 6, 4).unwrap())
            .after(moves)
            .unwrap();
        let a = Solver::new(&std).threads(1).table_mib(16).run().unwrap();
        let b = Solver::new(&run).threads(1).table_mib(16).run().unwrap();
        assert_eq!(a.verdict.value(), b.verdict.value(), "{moves}");
        assert_eq!(a.stats.nodes, b.stats.nodes, "{moves}");
        assert_eq!(a.best_move, b.best_move, "{moves}");
    }
}

/// Solves `fixed` and the run-time board of its shape at random positions of `stones`
/// stones: the same values, node counts and best moves.
fn compiled_as_runtime<G: Geometry>(fixed: G, stones: u32) -> usize {
    let run = Shape::<G::Word>::new(fixed.width(), fixed.height(), fixed.connect()).unwrap();
    let start = Connect4::empty(fixed);
    let mut checked = 0;
    for line in late_lines(&start, 3, stones, stones as u64 * 31 + 7) {
        let game = start.after(&line).unwrap();
        let same = Connect4::empty(run).after(&line).unwrap();
        let a = Solver::new(&game).threads(1).table_mib(16).run().unwrap();
        let b = Solver::new(&same).threads(1).table_mib(16).run().unwrap();
        let what = format!("{} {line}", game.shape_name());
        assert_eq!(a.verdict.value(), b.verdict.value(), "{what}");
        assert_eq!(a.stats.nodes, b.stats.nodes, "{what}");
        assert_eq!(a.best_move, b.best_move, "{what}");
        checked += 1;
    }
    checked
}

#[test]
fn compiled_shapes_search_as_their_runtime_boards() {
    // A shape compiled in changes nothing but speed, on either word and any line length.
    let mut checked = 0;
    checked += compiled_as_runtime(Fixed64::<6, 6, 4>::new(), 14);
    checked += compiled_as_runtime(Fixed64::<9, 5, 4>::new(), 24);
    checked += compiled_as_runtime(Fixed64::<10, 4, 4>::new(), 22);
    checked += compiled_as_runtime(Fixed64::<8, 7, 4>::new(), 34);
    checked += compiled_as_runtime(Fixed128::<10, 6, 4>::new(), 38);
    checked += compiled_as_runtime(Fixed128::<7, 9, 5>::new(), 40);
    assert_eq!(checked, 18);
}

#[test]
fn wide_keys_fold_to_64_bits_apart() {
    // Positions of a 128-bit board that differ only in the high half keep distinct keys.
    let game = Connect4::empty(Shape::<u128>::new(12, 8, 4).unwrap());
    let a = game.after("12").unwrap();
    let b = game.after("11").unwrap();
    assert_ne!(game.key(&a.board()), game.key(&b.board()));
    assert_ne!(a.board().key().key64(), 0);
}

/// The refutation move reorders moves only: with it at every ply from the root (where the
/// default keeps it 8 plies away), off, or as Connect Four sets it, the null-window solver
/// finds the value plain alpha-beta finds, on positions with 14 empty cells of several boards.
#[test]
fn the_refutation_move_changes_no_value() {
    use cutoff::advanced::Searcher;
    use cutoff::knowledge::Knowledge;
    use cutoff::ordering::Refutation;
    use cutoff::tt::TranspositionTable;
    let tt = TranspositionTable::try_new(8).unwrap();
    let mut checked = 0;
    for (w, h) in [(6, 5), (7, 6), (8, 5)] {
        let start = Connect4::empty(Shape::<u64>::new(w, h, 4).unwrap());
        let base = <Connect4<Shape<u64>> as Game>::Knowledge::default_ordering(&start);
        assert!(base.refutation.is_some(), "on for Connect Four");
        let rules = [
            base,
            cutoff::ordering::OrderingConfig {
                refutation: None,
                ..base
            },
            cutoff::ordering::OrderingConfig {
                refutation: Some(Refutation {
                    min_ply: 0,
                    slack: 100,
                }),
                ..base
            },
        ];
        let cells = start.geometry().cells();
        for game in late_positions(&start, 6, cells - 14, u64::from(w * 31 + h)) {
            let exact = search(&game, game.board(), Algorithm::AlphaBeta, None).value;
            for rule in rules {
                tt.clear();
                let mut s = Searcher::new(&game, game.board(), None)
                    .table(&tt)
                    .ordering(rule);
                let (value, _) = s.run(Algorithm::Solve);
                assert_eq!(value, exact, "{w}x{h} {:?} with {rule:?}", game.board());
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 54);
}

#[test]
fn depth_limited_values_prove_their_horizon_bounds() {
    // `Game::horizon_bounds` against plain alpha-beta, on random positions 12 and 11 cells
    // from the end of three boards (even and odd height, even and odd cells), each searched
    // to every depth short of the end on one table, after a capped exact solve wrote its
    // bounds there as a budgeted `analyse` does: serially and on two threads.
    let (mut checked, mut narrowed, mut decided) = (0, 0, 0);
    for (w, h) in [(7, 6), (5, 5), (8, 6)] {
        let start = Connect4::empty(Shape::<u64>::new(w, h, 4).unwrap());
        let range = start.value_range();
        for left in [12, 11] {
            for game in late_positions(&start, 30, w * h - left, (w * 37 + left) as u64) {
                let pos = game.board();
                let exact = search(&game, pos, Algorithm::AlphaBeta, None).value;
                for threads in [1, 2] {
                    let tt = cutoff::tt::TranspositionTable::new(4);
                    let solver = || Solver::new(&game).threads(threads).table(&tt);
                    solver().exact_nodes(Some(500)).run().unwrap();
                    for depth in 1..left as usize {
                        let report = solver().depth(Some(depth)).run().unwrap();
                        let Verdict::DepthLimited { value, depth: d } = report.verdict else {
                            assert_eq!(report.verdict, Verdict::Exact(exact), "{pos:?}");
                            continue;
                        };
                        assert_eq!(d, depth);
                        let proved = game.horizon_bounds(&pos, d, value);
                        assert_eq!(report.horizon_bounds, proved);
                        let (lo, hi) = proved.expect("Connect Four bounds every depth");
                        assert!(
                            lo <= exact && exact <= hi,
                            "{w}x{h} {pos:?}: depth {d} value {value} gives {lo}..{hi}, \
                             but the value is {exact}"
                        );
                        checked += 1;
                        narrowed += usize::from((lo, hi) != range);
                        decided += usize::from(value != 0);
                    }
                }
            }
        }
    }
    assert!(
        checked >= 3_000 && narrowed == checked && decided >= 1_000 && checked - decided >= 100,
        "{checked} checked, {narrowed} narrowed, {decided} won or lost"
    );
}
