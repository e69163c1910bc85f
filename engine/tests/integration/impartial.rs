//! Impartial games solved as such: `Knowledge::theory_value` (Sprague-Grundy for the control game,
//! a table of heap sizes for the take-away games) against plain tree searches, `theory`'s best
//! moves and lines, and the facts the theory is built on (parity of lone vertices, the mirror
//! strategy on grids, the take-away closed forms).

use cutoff::advanced::theory;
use cutoff::advanced::Searcher;
use cutoff::games::perfect::control::{Control, ControlPos};
use cutoff::games::perfect::takeaway::{TakeAway, MAX_ITEMS};
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::knowledge::Knowledge;
use cutoff::{Algorithm, Game, MoveBuffer, Player, Value};

/// splitmix64, seeded: the tests are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A random permutation of `0..n`.
    fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            p.swap(i, self.below(i as u64 + 1) as usize);
        }
        p
    }
}

/// The graph on `n` vertices with each edge present with probability `percent`/100.
fn random_graph(rng: &mut Rng, n: usize, percent: u64) -> Control {
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(100) < percent {
                edges.push((a, b));
            }
        }
    }
    Control::from_edges(n, &edges).unwrap()
}

/// The `rows` x `cols` grid graph, vertex `r * cols + c` at row `r`, column `c`, each vertex
/// renamed by `label` (the identity for the usual numbering).
fn grid_labelled(rows: usize, cols: usize, label: &[usize]) -> Control {
    let mut edges = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let v = r * cols + c;
            if c + 1 < cols {
                edges.push((label[v], label[v + 1]));
            }
            if r + 1 < rows {
                edges.push((label[v], label[v + cols]));
            }
        }
    }
    Control::from_edges(rows * cols, &edges).unwrap()
}

fn grid(rows: usize, cols: usize) -> Control {
    let identity: Vec<usize> = (0..rows * cols).collect();
    grid_labelled(rows, cols, &identity)
}

fn path(n: usize) -> Control {
    let edges: Vec<_> = (1..n).map(|v| (v - 1, v)).collect();
    Control::from_edges(n, &edges).unwrap()
}

fn cycle(n: usize) -> Control {
    let edges: Vec<_> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    Control::from_edges(n, &edges).unwrap()
}

fn complete(n: usize) -> Control {
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            edges.push((a, b));
        }
    }
    Control::from_edges(n, &edges).unwrap()
}

/// The mask of the first `n` vertices.
fn all(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// The value of `pos` by plain alpha-beta, to the end of the game.
fn alphabeta<G: Game>(game: &G, pos: G::Pos) -> Value {
    cutoff::advanced::search(game, pos, Algorithm::AlphaBeta, None).value
}

/// The legal moves of `pos`.
fn moves<G: Game>(game: &G, pos: &G::Pos) -> Vec<G::Move> {
    let mut list = G::Moves::default();
    game.moves(pos, &mut list);
    list.as_slice().to_vec()
}

/// Checks `theory`'s answer at `root` against the exact values: the value is the root's, the
/// best move is the first whose child keeps the value, and the line is legal, keeps the value
/// at every step and runs to the end of the game.
fn check_theory<G: Game>(game: &G, root: G::Pos, what: &str) {
    let (value, best, line) = theory(game, root).expect("the game has a theory");
    assert_eq!(
        Some(value),
        G::Knowledge::theory_value(game, &root),
        "{what}"
    );
    assert_eq!(best, line.first().copied(), "{what}");
    let mut pos = root;
    let mut v = value;
    for (ply, &mv) in line.iter().enumerate() {
        assert!(
            game.outcome(&pos).is_none(),
            "{what}: the line goes past the end"
        );
        let legal = moves(game, &pos);
        assert!(
            legal.contains(&mv),
            "{what}: {mv:?} at ply {ply} is illegal"
        );
        // The first legal move that keeps the value, in the game's order.
        let first = legal
            .iter()
            .copied()
            .find(|&m| G::Knowledge::theory_value(game, &game.play(&pos, m)) == Some(-v));
        assert_eq!(first, Some(mv), "{what}: ply {ply}");
        pos = game.play(&pos, mv);
        v = -v;
    }
    assert!(game.outcome(&pos).is_some(), "{what}: the line stops early");
    assert_eq!(
        game.outcome(&pos),
        Some(v),
        "{what}: the line ends on the wrong value"
    );
}

// ---------------------------------------------------------------------------------------------
// The control game.

#[test]
fn control_exact_value_agrees_with_alphabeta_on_random_graphs() {
    let mut rng = Rng(0x1A2B_3C4D);
    for round in 0..400 {
        let n = 1 + rng.below(12) as usize;
        let percent = [5, 10, 20, 30, 45, 60, 85][round % 7];
        let g = random_graph(&mut rng, n, percent);
        let root = g.initial();
        let expected = alphabeta(&g, root);
        assert_eq!(g.exact_value(&root), Some(expected), "round {round}: {g:?}");
        // A fresh copy (no memo kept from the solve above) agrees.
        assert_eq!(
            g.clone().exact_value(&root),
            Some(expected),
            "round {round}"
        );
        // Sub-positions, with either side to move: an impartial game does not care which.
        for _ in 0..6 {
            let free = rng.next() & all(n);
            let side = if rng.below(2) == 0 {
                Player::First
            } else {
                Player::Second
            };
            let pos = g.position(free, side);
            assert_eq!(
                g.exact_value(&pos),
                Some(alphabeta(&g, pos)),
                "round {round}, free {free:#x}"
            );
            // The Grundy value is 0 exactly for losses.
            assert_eq!(g.grundy(free) == 0, alphabeta(&g, pos) < 0, "round {round}");
        }
    }
}

#[test]
fn control_exact_value_agrees_with_minimax_on_small_graphs() {
    let mut rng = Rng(0x5EED);
    for round in 0..150 {
        let n = 1 + rng.below(8) as usize;
        let g = random_graph(&mut rng, n, [15, 35, 55][round % 3]);
        let root = g.initial();
        let minimax = cutoff::advanced::search(&g, root, Algorithm::Minimax, None).value;
        assert_eq!(g.exact_value(&root), Some(minimax), "round {round}: {g:?}");
    }
}

#[test]
fn control_terminal_positions_are_losses() {
    let g = path(5);
    let done = g.position(0, Player::Second);
    assert_eq!(g.outcome(&done), Some(-1));
    assert_eq!(g.exact_value(&done), Some(-1));
    let (value, best, line) = theory(&g, done).unwrap();
    assert_eq!((value, best, line.len()), (-1, None, 0));
}

#[test]
fn control_theory_best_moves_achieve_the_value() {
    let mut rng = Rng(0xBE57);
    for round in 0..120 {
        let n = 1 + rng.below(12) as usize;
        let g = random_graph(&mut rng, n, [8, 20, 40][round % 3]);
        check_theory(&g, g.initial(), &format!("round {round}"));
        // The best move really wins (or the root really loses), by alpha-beta.
        let (value, best, _) = theory(&g, g.initial()).unwrap();
        let best = best.expect("a graph with a vertex has a move");
        assert_eq!(
            -alphabeta(&g, g.play(&g.initial(), best)),
            value,
            "round {round}"
        );
    }
    // Bigger positions, checked against the theory itself.
    for (name, g) in [
        ("path 20", path(20)),
        ("cycle 17", cycle(17)),
        ("grid 4x5", grid(4, 5)),
    ] {
        check_theory(&g, g.initial(), name);
    }
}

#[test]
fn lone_vertices_win_exactly_when_their_number_is_odd() {
    for n in 1..=64 {
        let g = Control::from_edges(n, &[]).unwrap();
        let want = if n % 2 == 1 { 1 } else { -1 };
        assert_eq!(g.exact_value(&g.initial()), Some(want), "{n} lone vertices");
    }
    // Every subset of 64 lone vertices, by its size.
    let g = Control::from_edges(64, &[]).unwrap();
    let mut rng = Rng(64);
    for _ in 0..200 {
        let free = rng.next();
        let want = if free.count_ones() % 2 == 1 { 1 } else { -1 };
        assert_eq!(g.exact_value(&g.position(free, Player::First)), Some(want));
    }
    // The line: every move takes one vertex, the first free one.
    let (value, best, line) = theory(&g, g.initial()).unwrap();
    assert_eq!((value, best, line.len()), (-1, Some(0), 64));
    assert_eq!(line, (0..64).collect::<Vec<u8>>());
}

#[test]
fn the_8x8_grid_is_lost_for_the_first_player_by_the_mirror() {
    let g = grid(8, 8);
    assert_eq!(g.exact_value(&g.initial()), Some(-1));
    // The mirror is the half turn of the board, vertex v and 63 - v, and it answers every
    // vertex.
    let (mirror, bad) = g.mirror().expect("the grid has a mirror");
    assert!(mirror
        .iter()
        .enumerate()
        .all(|(v, &m)| usize::from(m) == 63 - v));
    assert_eq!(bad, 0);
    // Every first move loses to its mirror image.
    let root = g.initial();
    for v in [0u8, 9, 27, 36, 63] {
        let child = g.play(&root, v);
        assert_eq!(g.exact_value(&child), Some(1), "after {v}");
        let answered = g.play(&child, 63 - v);
        assert_eq!(
            g.exact_value(&answered),
            Some(-1),
            "after {v} and {}",
            63 - v
        );
    }
    // The same grid with its vertices renamed at random: the mirror is found all the same.
    let mut rng = Rng(0x6121D);
    for _ in 0..3 {
        let label = rng.permutation(64);
        let shuffled = grid_labelled(8, 8, &label);
        assert_eq!(shuffled.mirror().map(|m| m.1), Some(0));
        assert_eq!(shuffled.exact_value(&shuffled.initial()), Some(-1));
    }
}

#[test]
fn mirrors_are_only_claimed_where_they_hold() {
    // The mask of vertices the mirror cannot answer, if there is one.
    let bad = |g: &Control| g.mirror().map(|m| m.1);
    // A path's reversal maps its two middle vertices onto each other, and they are adjacent:
    // the mirror cannot answer them. (P4 is lost for the first player all the same: an end
    // leaves P2 and a middle vertex one lone vertex, both worth 1, so P4 is worth 0.)
    assert_eq!(bad(&path(4)), Some(0b0110));
    assert_eq!(path(4).grundy(u64::MAX), 0);
    assert_eq!(bad(&path(64)), Some(3 << 31));
    // Odd cycles: the reversal fixes a vertex and swaps two neighbours.
    assert_eq!(bad(&cycle(9)), Some(1 << 4 | 1 << 8 | 1));
    // A grid with two odd sides: the half turn fixes the centre, and the first player wins by
    // taking it and answering every move with its image.
    assert_eq!(bad(&grid(7, 9)), Some(1 << 31));
    assert_eq!(grid(7, 9).exact_value(&grid(7, 9).initial()), Some(1));
    assert_eq!(
        grid(7, 9).grundy(!(1 << 31 | 1 << 30 | 1 << 32 | 1 << 22 | 1 << 40)),
        0
    );
    // Even cycles (the half turn) and grids with two even sides (the half turn again) have
    // one that answers every vertex.
    assert_eq!(bad(&cycle(10)), Some(0));
    assert_eq!(bad(&grid(4, 6)), Some(0));
    // A complete graph has automorphisms galore, but every vertex is next to every other.
    assert!(bad(&complete(10)).is_none_or(|b| b == all(10)));
    // Whatever is claimed is an involutive automorphism, and the vertices it is said to answer
    // are neither fixed nor sent next to themselves.
    let mut rng = Rng(77);
    let mut graphs = vec![
        grid(4, 4),
        grid(2, 8),
        cycle(12),
        Control::from_edges(6, &[]).unwrap(),
    ];
    for _ in 0..50 {
        let n = 2 + 2 * rng.below(6) as usize;
        graphs.push(random_graph(&mut rng, n, 30));
    }
    for g in graphs {
        let Some((m, bad)) = g.mirror() else { continue };
        let n = g.vertices();
        for v in 0..n {
            let u = usize::from(m[v]);
            assert_eq!(usize::from(m[u]), v, "{g:?}");
            if bad >> v & 1 == 0 {
                assert!(u != v && g.neighbours(v) >> u & 1 == 0, "{g:?}");
            }
            for (w, &mw) in m.iter().enumerate() {
                let mw = usize::from(mw);
                assert_eq!(g.neighbours(v) >> w & 1, g.neighbours(u) >> mw & 1, "{g:?}");
            }
        }
        // And the graph without those vertices and their images is lost for the side to move.
        if n <= 12 {
            let mut gone = bad;
            for (v, &mv) in m.iter().enumerate() {
                if bad >> v & 1 == 1 {
                    gone |= 1 << mv;
                }
            }
            let pos = g.position(all(n) & !gone, Player::First);
            assert_eq!(alphabeta(&g, pos), -1, "{g:?}");
        }
    }
}

#[test]
fn sixty_four_vertex_families() {
    // Node Kayles on paths: a move on vertex i of P_k leaves P_(i-1) and P_(k-i-2).
    let mut pg = vec![0u32; 65];
    for k in 1..=64usize {
        let mut seen = [false; 130];
        for i in 0..k {
            seen[(pg[i.saturating_sub(1)] ^ pg[k.saturating_sub(i + 2)]) as usize] = true;
        }
        pg[k] = seen.iter().position(|&s| !s).unwrap() as u32;
    }
    let value = |g: &Control| g.exact_value(&g.initial()).unwrap();
    assert_eq!(value(&path(64)), if pg[64] != 0 { 1 } else { -1 });
    assert_eq!(value(&cycle(64)), if pg[61] == 0 { 1 } else { -1 });
    assert_eq!(value(&complete(64)), 1);
    assert_eq!(path(64).grundy(u64::MAX), pg[64]);
    // Two disjoint copies of the same graph always cancel.
    let mut edges: Vec<_> = (1..32).map(|v| (v - 1, v)).collect();
    edges.extend((33..64).map(|v| (v - 1, v)));
    edges.extend([(0, 5), (32, 37), (3, 9), (35, 41)]);
    let twins = Control::from_edges(64, &edges).unwrap();
    assert_eq!(value(&twins), -1);
    // Dense random graphs of 64 vertices: one move clears most of the board.
    let mut rng = Rng(0xD3);
    for percent in [50, 80] {
        let g = random_graph(&mut rng, 64, percent);
        let v = value(&g);
        // Some move leaves a lost position, by the theory and by a search of that position.
        let (_, best, _) = theory(&g, g.initial()).unwrap();
        let child = g.play(&g.initial(), best.unwrap());
        if child.free.count_ones() <= 14 {
            assert_eq!(-alphabeta(&g, child), v);
        }
    }
}

#[test]
fn searcher_runs_the_theory_in_one_node() {
    assert_eq!("theory".parse::<Algorithm>(), Ok(Algorithm::Theory));
    assert_eq!(Algorithm::Theory.name(), "theory");
    assert!(!Algorithm::Theory.uses_table());
    assert!(Algorithm::ALL.contains(&Algorithm::Theory));
    let g = grid(3, 4);
    let root = g.initial();
    let mut s = Searcher::new(&g, root, None);
    let (value, best) = s.run(Algorithm::Theory);
    let (v, b, line) = theory(&g, root).unwrap();
    assert_eq!((value, best), (v, b));
    assert_eq!(s.pv(), &line[..]);
    assert_eq!(s.stats().nodes, 1);
    assert_eq!(value, alphabeta(&g, root));
    // A game without a theory is searched instead.
    let ttt = TicTacToe::new();
    let r = cutoff::advanced::search(&ttt, ttt.initial(), Algorithm::Theory, None);
    assert_eq!(r.value, 0);
    assert!(r.best_move.is_some());
    assert!(r.stats.nodes > 1);
    assert_eq!(
        <TicTacToe as Game>::Knowledge::theory_value(&ttt, &ttt.initial()),
        None
    );
    assert!(theory(&ttt, ttt.initial()).is_none());
}

#[test]
fn control_positions_are_free_masks() {
    // The theory reads only the free vertices: a hand-made position with bits beyond the
    // graph is masked like `position` does.
    let g = path(3);
    let pos = ControlPos {
        free: u64::MAX,
        side: Player::First,
    };
    assert_eq!(g.exact_value(&pos), g.exact_value(&g.initial()));
}

// ---------------------------------------------------------------------------------------------
// The take-away games.

/// The take-away games of the tests: the two classics and a few other rule sets.
fn takeaway_games(n: u32) -> Vec<TakeAway> {
    vec![
        TakeAway::matchsticks(n).unwrap(),
        TakeAway::stones(n).unwrap(),
        TakeAway::new(n, &[2, 3], true).unwrap(),
        TakeAway::new(n, &[2, 5], false).unwrap(),
        TakeAway::new(n, &[1, 3, 4], false).unwrap(),
        TakeAway::new(n, &[4, 1, 7], true).unwrap(),
    ]
}

#[test]
fn takeaway_exact_value_agrees_with_alphabeta_up_to_30() {
    for n in 0..=30 {
        for game in takeaway_games(n) {
            for side in [Player::First, Player::Second] {
                let pos = game.position(n, side).unwrap();
                let expected = alphabeta(&game, pos);
                assert_eq!(
                    game.exact_value(&pos),
                    Some(expected),
                    "{:?} misere {} with {n}",
                    game.takes(),
                    game.misere()
                );
            }
        }
    }
}

#[test]
fn takeaway_closed_forms_hold_up_to_the_largest_heap() {
    let matchsticks = TakeAway::matchsticks(MAX_ITEMS).unwrap();
    let stones = TakeAway::stones(MAX_ITEMS).unwrap();
    for n in 0..=MAX_ITEMS {
        let pos = matchsticks.position(n, Player::First).unwrap();
        let want = if n % 4 == 1 { -1 } else { 1 };
        assert_eq!(matchsticks.exact_value(&pos), Some(want), "matchsticks {n}");
        let pos = stones.position(n, Player::First).unwrap();
        let want = if n % 3 == 0 { -1 } else { 1 };
        assert_eq!(stones.exact_value(&pos), Some(want), "stones {n}");
    }
    // Matchsticks 1000: 1000 % 4 == 0, a win, by taking 3 (leaving 997, 997 % 4 == 1).
    let game = TakeAway::matchsticks(1000).unwrap();
    let (value, best, line) = theory(&game, game.initial()).unwrap();
    assert_eq!((value, best), (1, Some(3)));
    check_theory(&game, game.initial(), "matchsticks 1000");
    assert_eq!(line.iter().sum::<u32>(), 1000);
    let mut s = Searcher::new(&game, game.initial(), None);
    assert_eq!(s.run(Algorithm::Theory), (1, Some(3)));
}

#[test]
fn takeaway_theory_lines_end_the_game() {
    for n in [0, 1, 2, 5, 13, 30, 99] {
        for game in takeaway_games(n) {
            check_theory(
                &game,
                game.initial(),
                &format!("{:?} with {n}", game.takes()),
            );
        }
    }
}
