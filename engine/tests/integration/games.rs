//! The small games: take-away games against their theory, tic-tac-toe's classic node counts and
//! board reader, and the control game against a brute-force oracle (generic searches and the
//! Sprague-Grundy solver alike).

use cutoff::advanced::{SearchResult, Searcher};
use cutoff::games::perfect::control::{Control, ControlPos};
use cutoff::games::perfect::takeaway::{TakeAway, MAX_ITEMS};
use cutoff::games::perfect::tictactoe::{Board, TicTacToe};
use cutoff::tt::TranspositionTable;
use cutoff::Notation;
use cutoff::{Algorithm, Game, GameError, Player, Value};
use std::collections::HashMap;

/// Runs `algo` on `game` from `root` to the end, with a table for the searches that use one.
fn run<G: Game>(game: &G, root: G::Pos, algo: Algorithm) -> SearchResult<G::Move> {
    if algo.uses_table() {
        let tt = TranspositionTable::new(1);
        let mut s = Searcher::new(game, root, None).table(&tt);
        let (value, best_move) = s.run(algo);
        SearchResult {
            value,
            best_move,
            pv: s.pv().to_vec(),
            stats: s.stats(),
            algo,
        }
    } else {
        cutoff::advanced::search(game, root, algo, None)
    }
}

/// Checks that `pv` is a line of legal moves from `root`.
fn assert_legal_line<G: Game>(game: &G, root: G::Pos, pv: &[G::Move]) {
    let mut pos = root;
    for &mv in pv {
        assert!(game.outcome(&pos).is_none(), "the line goes past the end");
        let mut moves = G::Moves::default();
        game.moves(&pos, &mut moves);
        assert!(
            cutoff::MoveBuffer::as_slice(&moves).contains(&mv),
            "{mv:?} is illegal"
        );
        pos = game.play(&pos, mv);
    }
}

/// A small xorshift generator, seeded: the tests are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

// ---------------------------------------------------------------------------------------------
// Take-away games.

/// Brute-force value (side to move) of a take-away game with `items` left.
fn takeaway_oracle(
    items: u32,
    takes: &[u32],
    misere: bool,
    memo: &mut HashMap<u32, Value>,
) -> Value {
    if let Some(&v) = memo.get(&items) {
        return v;
    }
    let min = *takes.iter().min().unwrap();
    let v = if items < min {
        if misere && items == 0 {
            1
        } else {
            -1
        }
    } else {
        takes
            .iter()
            .filter(|&&t| t <= items)
            .map(|&t| -takeaway_oracle(items - t, takes, misere, memo))
            .max()
            .unwrap()
    };
    memo.insert(items, v);
    v
}

#[test]
fn matchsticks_6_first_player_wins_by_taking_1() {
    let game = TakeAway::matchsticks(6).unwrap();
    assert_eq!(game.name(), "matchsticks");
    let root = game.initial();
    assert_eq!(root.items, 6);
    assert_eq!(game.to_move(&root), Player::First);
    for algo in Algorithm::ALL {
        let r = run(&game, root, algo);
        assert_eq!(r.value, 1, "{algo}: the first player wins");
        let best = r.best_move.expect("a best move");
        assert_eq!(game.format_move(&root, best), "1", "{algo}");
        assert_legal_line(&game, root, &r.pv);
    }
    // The whole tree, counted by hand: T(n) = 1 + sum T(n - t) over the legal takes.
    fn tree_size(n: u32) -> u64 {
        1 + (1..=3.min(n)).map(|t| tree_size(n - t)).sum::<u64>()
    }
    let r = cutoff::advanced::search(&game, root, Algorithm::Minimax, None);
    assert_eq!(r.stats.nodes, tree_size(6));
}

#[test]
fn stones_4_first_player_wins_by_taking_1() {
    let game = TakeAway::stones(4).unwrap();
    assert_eq!(game.name(), "stones");
    let root = game.initial();
    for algo in Algorithm::ALL {
        let r = run(&game, root, algo);
        assert_eq!(r.value, 1, "{algo}");
        assert_eq!(game.format_move(&root, r.best_move.unwrap()), "1", "{algo}");
    }
}

#[test]
fn takeaway_values_follow_the_theory_for_every_algorithm() {
    for n in 0..=20u32 {
        let sticks = TakeAway::matchsticks(n).unwrap();
        let stones = TakeAway::stones(n).unwrap();
        // Matchsticks (misère, take 1-3): the mover loses iff n = 1 (mod 4).
        let sticks_expected = if n % 4 == 1 { -1 } else { 1 };
        // Stones (normal play, take 1-2): the mover loses iff n = 0 (mod 3).
        let stones_expected = if n % 3 == 0 { -1 } else { 1 };
        for algo in Algorithm::ALL {
            let r = run(&sticks, sticks.initial(), algo);
            assert_eq!(r.value, sticks_expected, "matchsticks {n}, {algo}");
            assert_legal_line(&sticks, sticks.initial(), &r.pv);
            let r = run(&stones, stones.initial(), algo);
            assert_eq!(r.value, stones_expected, "stones {n}, {algo}");
            assert_legal_line(&stones, stones.initial(), &r.pv);
        }
    }
}

#[test]
fn zero_items_is_a_finished_game() {
    let sticks = TakeAway::matchsticks(0).unwrap();
    // The previous player took the last stick and lost.
    assert_eq!(sticks.outcome(&sticks.initial()), Some(1));
    let stones = TakeAway::stones(0).unwrap();
    assert_eq!(stones.outcome(&stones.initial()), Some(-1));
    assert_eq!(sticks.max_plies(&sticks.initial()), 0);
    let r = cutoff::advanced::search(&sticks, sticks.initial(), Algorithm::AlphaBeta, None);
    assert_eq!((r.value, r.best_move), (1, None));
}

#[test]
fn custom_takeaway_games_agree_with_brute_force() {
    let mut rng = Rng(0x5EED_7A6E);
    for _ in 0..40 {
        let count = 1 + rng.below(4) as usize;
        let mut takes: Vec<u32> = Vec::new();
        while takes.len() < count {
            let t = 1 + rng.below(6) as u32;
            if !takes.contains(&t) {
                takes.push(t);
            }
        }
        let misere = rng.below(2) == 1;
        let mut memo = HashMap::new();
        for n in 0..=18 {
            let game = TakeAway::new(n, &takes, misere).unwrap();
            let expected = takeaway_oracle(n, &takes, misere, &mut memo);
            for algo in [
                Algorithm::AlphaBeta,
                Algorithm::Ab,
                Algorithm::Pvs,
                Algorithm::Solve,
            ] {
                let r = run(&game, game.initial(), algo);
                assert_eq!(
                    r.value, expected,
                    "n={n} takes={takes:?} misere={misere} {algo}"
                );
            }
        }
    }
}

#[test]
fn misere_with_items_left_but_no_fitting_take_is_a_loss_for_the_mover() {
    let game = TakeAway::new(1, &[2, 3], true).unwrap();
    assert_eq!(game.outcome(&game.initial()), Some(-1));
    let game = TakeAway::new(0, &[2, 3], true).unwrap();
    assert_eq!(game.outcome(&game.initial()), Some(1));
    // 3 items, take 2 or 3: taking 3 takes the last item and loses; taking 2 leaves 1,
    // which the opponent cannot take from: the opponent loses.
    let game = TakeAway::new(3, &[2, 3], true).unwrap();
    let r = cutoff::advanced::search(&game, game.initial(), Algorithm::AlphaBeta, None);
    assert_eq!(r.value, 1);
    assert_eq!(r.best_move, Some(2));
    assert_eq!(game.max_plies(&game.initial()), 2);
}

#[test]
fn takeaway_parameters_are_checked() {
    let err = |r: Result<TakeAway, GameError>| r.unwrap_err().to_string();
    assert!(TakeAway::matchsticks(MAX_ITEMS).is_ok());
    assert!(err(TakeAway::matchsticks(MAX_ITEMS + 1)).contains(&(MAX_ITEMS + 1).to_string()));
    assert!(err(TakeAway::stones(u32::MAX)).contains("at most"));
    assert!(err(TakeAway::new(5, &[], false)).contains("at least one"));
    assert!(err(TakeAway::new(5, &[0, 1], false)).contains("at least 1"));
    assert!(err(TakeAway::new(5, &[2, 1, 2], false)).contains("2 is listed twice"));
    assert!(err(TakeAway::new(5, &[1, 2, 3, 4, 5, 6, 7, 8, 9], false)).contains("at most 8"));
    let game = TakeAway::new(5, &[3, 1], false).unwrap();
    assert_eq!(game.takes(), &[1, 3]);
    assert!(!game.misere());
}

#[test]
fn takeaway_moves_parse_and_print() {
    let game = TakeAway::matchsticks(2).unwrap();
    let root = game.initial();
    assert_eq!(game.parse_move(&root, " 2 "), Ok(2));
    assert_eq!(game.format_move(&root, 2), "2");
    let err = |t: &str| game.parse_move(&root, t).unwrap_err().to_string();
    assert!(err("two").contains("invalid move 'two'"));
    assert!(err("-1").contains("invalid move"));
    assert!(err("4").contains("allowed amounts are 1, 2, 3"));
    assert!(err("3").contains("only 2 left"));
    let mut moves = <TakeAway as Game>::Moves::default();
    game.moves(&root, &mut moves);
    assert_eq!(cutoff::MoveBuffer::as_slice(&moves), &[1, 2]);
}

#[test]
fn takeaway_keys_tell_positions_apart() {
    let game = TakeAway::matchsticks(MAX_ITEMS).unwrap();
    let mut seen = HashMap::new();
    for items in 0..=MAX_ITEMS {
        for side in [Player::First, Player::Second] {
            let pos = game.position(items, side).unwrap();
            assert!(seen.insert(game.key(&pos), pos).is_none(), "{pos:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tic-tac-toe.

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A brute-force tic-tac-toe minimax over a cell array (1 = X, 2 = O): the value from the side
/// to move, X moving when the counts are equal.
fn ttt_oracle(cells: &mut [u8; 9]) -> Value {
    let nx = cells.iter().filter(|&&c| c == 1).count();
    let no = cells.iter().filter(|&&c| c == 2).count();
    let (me, them) = if nx == no { (1, 2) } else { (2, 1) };
    if LINES.iter().any(|l| l.iter().all(|&i| cells[i] == them)) {
        return -1;
    }
    if cells.iter().all(|&c| c != 0) {
        return 0;
    }
    let mut best = -2;
    for i in 0..9 {
        if cells[i] == 0 {
            cells[i] = me;
            best = best.max(-ttt_oracle(cells));
            cells[i] = 0;
        }
    }
    best
}

fn cells_to_text(cells: &[u8; 9]) -> String {
    cells.iter().map(|&c| ['.', 'X', 'O'][c as usize]).collect()
}

#[test]
fn empty_board_is_a_draw_for_every_algorithm() {
    let game = TicTacToe::new();
    for algo in Algorithm::ALL {
        let r = run(&game, game.initial(), algo);
        assert_eq!(r.value, 0, "{algo}");
        assert_legal_line(&game, game.initial(), &r.pv);
        assert!(r.best_move.is_some(), "{algo}");
    }
}

#[test]
fn minimax_visits_the_classic_549946_nodes_and_255168_games() {
    let game = TicTacToe::new();
    for algo in [Algorithm::Minimax, Algorithm::Negamax] {
        let r = cutoff::advanced::search(&game, game.initial(), algo, None);
        assert_eq!(r.stats.nodes, 549_946, "{algo}");
        assert_eq!(r.stats.leaves, 255_168, "{algo}");
        assert_eq!(r.stats.max_ply, 9, "{algo}");
    }
}

#[test]
fn alphabeta_visits_far_fewer_nodes() {
    let game = TicTacToe::new();
    for algo in [
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaHard,
        Algorithm::Ab,
    ] {
        let r = cutoff::advanced::search(&game, game.initial(), algo, None);
        assert_eq!(r.value, 0);
        assert!(
            r.stats.nodes < 549_946 / 10,
            "{algo} visited {} nodes",
            r.stats.nodes
        );
        assert!(r.stats.cutoffs > 0);
    }
}

#[test]
fn every_reachable_board_agrees_with_brute_force() {
    // Every position reachable from the empty board, once each.
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![[0u8; 9]];
    let mut wins = 0;
    while let Some(cells) = stack.pop() {
        if !seen.insert(cells) {
            continue;
        }
        let text = cells_to_text(&cells);
        let game = TicTacToe::from_board(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let pos = game.initial();
        assert_eq!(game.board().notation().replace('/', ""), text);
        let expected = ttt_oracle(&mut cells.clone());
        let nx = cells.iter().filter(|&&c| c == 1).count();
        let no = cells.iter().filter(|&&c| c == 2).count();
        let side = if nx == no {
            Player::First
        } else {
            Player::Second
        };
        assert_eq!(game.to_move(&pos), side, "{text}");
        for algo in [Algorithm::AlphaBeta, Algorithm::Veb, Algorithm::Pvs] {
            let r = run(&game, pos, algo);
            assert_eq!(r.value, expected, "{text} {algo}");
        }
        if expected == 1 && game.outcome(&pos).is_none() {
            wins += 1;
            // The best move keeps the forced win.
            let r = cutoff::advanced::search(&game, pos, Algorithm::AlphaBeta, None);
            let mut after = cells;
            let cell = r.best_move.unwrap() as usize - 1;
            after[cell] = if side == Player::First { 1 } else { 2 };
            assert_eq!(ttt_oracle(&mut after), -1, "{text}: best move {}", cell + 1);
        }
        if game.outcome(&pos).is_none() {
            let me = if side == Player::First { 1 } else { 2 };
            for i in 0..9 {
                if cells[i] == 0 {
                    let mut next = cells;
                    next[i] = me;
                    stack.push(next);
                }
            }
        }
    }
    assert_eq!(seen.len(), 5478, "the legal tic-tac-toe positions");
    assert!(wins > 0);
}

#[test]
fn known_forced_wins() {
    // X to move completes the top row.
    let game = TicTacToe::from_board("XX./OO./...").unwrap();
    let r = cutoff::advanced::search(&game, game.initial(), Algorithm::AlphaBeta, None);
    assert_eq!(r.value, 1);
    assert_eq!(game.format_move(&game.initial(), r.best_move.unwrap()), "3");
    // O to move must block, then X forks: X wins (corner, centre, opposite corner for O
    // leads to X's double threat).
    let text = "X.. / .O. / ..X";
    let game = TicTacToe::from_board(text).unwrap();
    let expected = ttt_oracle(&mut [1, 0, 0, 0, 2, 0, 0, 0, 1]);
    assert_eq!(game.to_move(&game.initial()), Player::Second);
    for algo in Algorithm::ALL {
        assert_eq!(run(&game, game.initial(), algo).value, expected, "{algo}");
    }
    // X in a corner, O on an adjacent edge: X forces a win.
    let game = TicTacToe::from_board("xo.\n...\n...\n").unwrap();
    assert_eq!(ttt_oracle(&mut [1, 2, 0, 0, 0, 0, 0, 0, 0]), 1);
    for algo in Algorithm::ALL {
        assert_eq!(run(&game, game.initial(), algo).value, 1, "{algo}");
    }
}

#[test]
fn board_notations_agree() {
    let expected = Board {
        x: 0b000_010_011,
        o: 0b110_000_100,
    };
    for text in [
        "XXO.X..OO",
        "XXO#X##OO",
        "XXO/.X./.OO",
        "xxo\n#x#\n#oo\n",
        "  XXO  .X.  .OO  ",
        "X X O . X . . O O",
        "XXO\r\n.X.\r\n.OO\r\n",
    ] {
        let game = TicTacToe::from_board(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(game.board(), expected, "{text:?}");
    }
}

#[test]
fn board_errors_name_the_problem() {
    let err = |t: &str| TicTacToe::from_board(t).unwrap_err().to_string();
    assert_eq!(err("XXO.X..O"), "expected 9 cells, found 8");
    assert_eq!(err("XXO.X..OO."), "expected 9 cells, found 10");
    assert_eq!(err(""), "expected 9 cells, found 0");
    assert!(err("XXO.X..OZ").contains("'Z'"));
    assert!(err("XXO.X..O0").contains("'0'"));
    assert!(err("XXO./X./.OO").contains("three rows"));
    assert!(err("XXX/XOO/...").contains("impossible counts: 4 X and 2 O"));
    assert!(err("OO./.../...").contains("impossible counts"));
    assert!(err("XXX/OOO/X..").contains("both"));
    // X's line with equal counts: O moved last, so X cannot have just completed it.
    assert!(err("XXX/OO./O..").contains("X has three in a row"));
    // O's line with X to have moved last.
    assert!(err("OOO/XX./XX.").contains("O has three in a row"));
}

#[test]
fn tictactoe_moves_and_outcomes() {
    let game = TicTacToe::from_board("XO./.../...").unwrap();
    let pos = game.initial();
    assert_eq!(game.max_plies(&pos), 7);
    assert_eq!(game.parse_move(&pos, "3"), Ok(3));
    let err = |t: &str| game.parse_move(&pos, t).unwrap_err().to_string();
    assert!(err("0").contains("out of range"));
    assert!(err("10").contains("out of range"));
    assert!(err("a").contains("invalid move 'a'"));
    assert!(err("+3").contains("invalid move"));
    assert!(err("2").contains("cell 2 is already taken"));
    let mut moves = <TicTacToe as Game>::Moves::default();
    game.moves(&pos, &mut moves);
    assert_eq!(cutoff::MoveBuffer::as_slice(&moves), &[3, 4, 5, 6, 7, 8, 9]);
    // The player who just moved has a line: a loss for the side to move.
    let won = TicTacToe::from_board("XXX/OO./...").unwrap();
    assert_eq!(won.outcome(&won.initial()), Some(-1));
    let full = TicTacToe::from_board("XOX/XOO/OXX").unwrap();
    assert_eq!(full.outcome(&full.initial()), Some(0));
    // Keys differ between positions and are never 0.
    let mut keys = std::collections::HashSet::new();
    let mut p = game.initial();
    for mv in [3, 5, 7] {
        assert!(keys.insert(game.key(&p)));
        assert_ne!(game.key(&p), 0);
        p = game.play(&p, mv);
    }
    assert_ne!(TicTacToe::new().key(&TicTacToe::new().initial()), 0);
}

// ---------------------------------------------------------------------------------------------
// The control game.

/// Brute force: true if the side to move wins with the vertices of `free` uncontrolled.
fn control_oracle(closed: &[u64], free: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if free == 0 {
        return false;
    }
    if let Some(&w) = memo.get(&free) {
        return w;
    }
    let win = (0..closed.len())
        .filter(|&v| free >> v & 1 == 1)
        .any(|v| !control_oracle(closed, free & !closed[v], memo));
    memo.insert(free, win);
    win
}

/// The oracle's answer for the whole graph.
fn oracle_wins(g: &Control) -> bool {
    let n = g.vertices();
    let closed: Vec<u64> = (0..n).map(|v| g.neighbours(v) | 1 << v).collect();
    let all = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    control_oracle(&closed, all, &mut HashMap::new())
}

fn path(n: usize) -> Control {
    let edges: Vec<_> = (1..n).map(|v| (v - 1, v)).collect();
    Control::from_edges(n, &edges).unwrap()
}

fn cycle(n: usize) -> Control {
    let edges: Vec<_> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    Control::from_edges(n, &edges).unwrap()
}

fn star(n: usize) -> Control {
    let edges: Vec<_> = (1..n).map(|v| (0, v)).collect();
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

fn random_graph(rng: &mut Rng, n: usize, density_percent: u64) -> Control {
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(100) < density_percent {
                edges.push((a, b));
            }
        }
    }
    Control::from_edges(n, &edges).unwrap()
}

/// Grundy values of Node Kayles on paths, by the segment recursion: a move on vertex `i`
/// of a path of `n` leaves paths of `i - 1` and `n - i - 2` vertices (clamped at 0).
fn path_grundy(max: usize) -> Vec<u32> {
    let mut g = vec![0u32; max + 1];
    for n in 1..=max {
        let mut seen = [false; 130];
        for i in 0..n {
            let left = i.saturating_sub(1);
            let right = n.saturating_sub(i + 2);
            seen[(g[left] ^ g[right]) as usize] = true;
        }
        g[n] = seen.iter().position(|&s| !s).unwrap() as u32;
    }
    g
}

/// The assorted small graphs of the tests: paths, cycles, stars and complete graphs.
fn families(max: usize) -> Vec<(String, Control)> {
    let mut out = Vec::new();
    for n in 1..=max {
        out.push((format!("path {n}"), path(n)));
        out.push((format!("star {n}"), star(n)));
        out.push((format!("complete {n}"), complete(n)));
        if n >= 3 {
            out.push((format!("cycle {n}"), cycle(n)));
        }
    }
    out
}

#[test]
fn small_graphs_every_search_agrees_with_the_oracle() {
    for (name, g) in families(10) {
        let expected = if oracle_wins(&g) { 1 } else { -1 };
        assert_eq!(g.first_player_wins(), expected == 1, "{name}");
        for algo in [
            Algorithm::AlphaBeta,
            Algorithm::AlphaBetaHard,
            Algorithm::Ab,
            Algorithm::Veb,
            Algorithm::Pvs,
            Algorithm::Mtdf,
            Algorithm::Solve,
        ] {
            let r = run(&g, g.initial(), algo);
            assert_eq!(r.value, expected, "{name} {algo}");
            assert_legal_line(&g, g.initial(), &r.pv);
        }
        if g.vertices() <= 7 {
            for algo in [Algorithm::Minimax, Algorithm::Negamax] {
                assert_eq!(run(&g, g.initial(), algo).value, expected, "{name} {algo}");
            }
        }
    }
}

#[test]
fn bigger_families_first_player_wins_agrees_with_the_oracle() {
    for (name, g) in families(20) {
        assert_eq!(g.first_player_wins(), oracle_wins(&g), "{name}");
    }
}

#[test]
fn sixty_four_vertex_families_follow_the_theory() {
    let g = path_grundy(64);
    for n in 1..=64 {
        assert_eq!(path(n).grundy(u64::MAX), g[n], "path {n}");
        assert_eq!(path(n).first_player_wins(), g[n] != 0, "path {n}");
        // One vertex covers a star or a complete graph.
        assert!(star(n).first_player_wins(), "star {n}");
        assert!(complete(n).first_player_wins(), "complete {n}");
        assert_eq!(complete(n).grundy(u64::MAX), 1, "complete {n}");
        if n >= 4 {
            // Any first move on a cycle leaves a path of n - 3 vertices.
            assert_eq!(cycle(n).first_player_wins(), g[n - 3] == 0, "cycle {n}");
        }
        // No edges: n lone vertices, each worth 1.
        let lonely = Control::from_edges(n, &[]).unwrap();
        assert_eq!(lonely.grundy(u64::MAX), (n % 2) as u32, "{n} lone vertices");
    }
    // A perfect matching on 64 vertices: 32 edges worth 1 each, XOR 0.
    let edges: Vec<_> = (0..32).map(|i| (2 * i, 2 * i + 1)).collect();
    let matching = Control::from_edges(64, &edges).unwrap();
    assert!(!matching.first_player_wins());
    // The sum of a path and a copy of itself is a loss for the first player.
    let mut edges: Vec<_> = (1..32).map(|v| (v - 1, v)).collect();
    edges.extend((33..64).map(|v| (v - 1, v)));
    assert!(!Control::from_edges(64, &edges).unwrap().first_player_wins());
}

#[test]
fn random_graphs_first_player_wins_agrees_with_the_oracle() {
    let mut rng = Rng(0x0C04_7201);
    for round in 0..300 {
        let n = 1 + rng.below(16) as usize;
        let density = [10, 20, 35, 50, 80][round % 5];
        let g = random_graph(&mut rng, n, density);
        let expected = oracle_wins(&g);
        assert_eq!(g.first_player_wins(), expected, "round {round}: {g:?}");
        // Sub-positions too: Grundy 0 exactly when the side to move loses.
        let closed: Vec<u64> = (0..n).map(|v| g.neighbours(v) | 1 << v).collect();
        let mut memo = HashMap::new();
        for _ in 0..4 {
            let free = rng.next() & ((1u64 << n) - 1);
            assert_eq!(
                g.grundy(free) != 0,
                control_oracle(&closed, free, &mut memo),
                "round {round}, free {free:#x}"
            );
        }
        if n <= 10 {
            let r = run(&g, g.initial(), Algorithm::AlphaBeta);
            assert_eq!(r.value == 1, expected, "round {round} alphabeta");
            let r = run(&g, g.initial(), Algorithm::Pvs);
            assert_eq!(r.value == 1, expected, "round {round} pvs");
        }
    }
}

#[test]
fn control_moves_keys_and_notation() {
    let g = path(4);
    let root = g.initial();
    assert_eq!(root.free, 0b1111);
    assert_eq!(g.max_plies(&root), 4);
    let mut moves = <Control as Game>::Moves::default();
    g.moves(&root, &mut moves);
    assert_eq!(cutoff::MoveBuffer::as_slice(&moves), &[0, 1, 2, 3]);
    let after = g.play(&root, 1);
    assert_eq!(after.free, 0b1000);
    assert_eq!(after.side, Player::Second);
    assert_eq!(g.format_move(&root, 1), "2");
    assert_eq!(g.parse_move(&root, "4"), Ok(3));
    let err = |p: &ControlPos, t: &str| g.parse_move(p, t).unwrap_err().to_string();
    assert!(err(&root, "0").contains("out of range"));
    assert!(err(&root, "5").contains("out of range"));
    assert!(err(&root, "x").contains("invalid move"));
    assert!(err(&after, "1").contains("already controlled"));
    assert_eq!(g.outcome(&g.position(0, Player::First)), Some(-1));
    assert_ne!(
        g.key(&g.position(0b101, Player::First)),
        g.key(&g.position(0b101, Player::Second))
    );
    assert_ne!(
        g.key(&g.position(0b101, Player::First)),
        g.key(&g.position(0b110, Player::First))
    );
}

#[test]
fn matrix_notations_agree() {
    let expected: Vec<u64> = vec![0b010, 0b101, 0b010];
    for text in [
        "3\n010\n101\n010\n",
        "010\n101\n010",
        "0 1 0\n1 0 1\n0 1 0\n",
        "3\r\n0 1 0\r\n1 0 1\r\n0 1 0\r\n\r\n",
        "010/101/010",
        "\n\n  010 \n 101\n010\n\n",
        // The diagonal is ignored.
        "110\n111\n011",
    ] {
        let g = Control::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let got: Vec<u64> = (0..g.vertices()).map(|v| g.neighbours(v)).collect();
        assert_eq!(got, expected, "{text:?}");
    }
    // One vertex, with or without the header.
    assert_eq!(Control::parse("1\n0").unwrap().vertices(), 1);
    assert_eq!(Control::parse("0").unwrap().vertices(), 1);
    assert_eq!(Control::parse("1").unwrap().vertices(), 1);
    // Two vertices without a header: "01" is a row, not a count.
    assert_eq!(Control::parse("01\n10").unwrap().neighbours(0), 0b10);
    assert!(Control::parse("2\n01\n10").unwrap().first_player_wins());
}

#[test]
fn matrix_errors_name_the_problem() {
    let err = |t: &str| Control::parse(t).unwrap_err().to_string();
    assert_eq!(
        err("00010\n00001\n00000\n10000\n00000"),
        "matrix is not symmetric: a[2][5]=1 but a[5][2]=0"
    );
    assert!(err("012\n101\n010").contains("row 1, column 3: expected 0 or 1, found '2'"));
    assert!(err("0 1 x\n1 0 1\n0 1 0").contains("column 3"));
    assert!(err("010\n10\n010").contains("not square: row 2 has 2 entries, expected 3"));
    assert!(err("").contains("empty"));
    assert!(err("\n \n").contains("empty"));
    assert!(err("3\n010\n101").contains("expected 3 rows"));
    assert!(err("65\n0\n0").contains("vertex count 65 is out of range"));
    let row = "0".repeat(65);
    let big = vec![row.as_str(); 65].join("\n");
    assert!(err(&big).contains("at most 64"));
    let ferr = |rows: &[Vec<u8>]| Control::from_matrix(rows).unwrap_err().to_string();
    assert!(ferr(&[]).contains("empty"));
    assert!(ferr(&[vec![0, 2], vec![2, 0]]).contains("a[1][2]=2"));
    assert!(ferr(&[vec![0, 1], vec![0, 0]]).contains("a[1][2]=1 but a[2][1]=0"));
    assert!(ferr(&[vec![0, 1, 0], vec![1, 0]]).contains("not square"));
    assert!(ferr(&vec![vec![0; 65]; 65]).contains("at most 64"));
    assert!(Control::from_matrix(&vec![vec![0; 64]; 64]).is_ok());
    let eerr = |n: usize, e: &[(usize, usize)]| Control::from_edges(n, e).unwrap_err().to_string();
    assert!(eerr(0, &[]).contains("1 to 64"));
    assert!(eerr(65, &[]).contains("1 to 64"));
    assert!(eerr(3, &[(0, 3)]).contains("out of range"));
}
