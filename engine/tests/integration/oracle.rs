//! The oracle: every algorithm gives exactly the brute-force minimax value.
//!
//! - On over a thousand random ragged trees (0 to 5 children per node, single-child chains,
//!   depths 1 to 8, values with many ties or spread wide), held by a small game defined here,
//!   against a brute-force minimax written here with explicit MAX and MIN levels; to the end
//!   and at every depth limit, against a depth-limited brute force using the game's evaluation.
//! - On random positions of the real games: tic-tac-toe positions reached by seeded random
//!   playouts, take-away heaps of up to 20 items, control-game graphs of up to 9 vertices, each
//!   against a brute force over the test's own model of the rules.
//!
//! It also checks the result's move and line: the best move leads to a child whose brute-force
//! value is the root value; the PV is a legal line starting with the best move; and for the
//! plain searches (minimax, negamax, alpha-beta fail-soft and fail-hard, VEB, AB) it runs to a
//! terminal position or the horizon, where the utility or evaluation is the root value. That
//! last claim holds because a node whose value falls strictly inside its window gets an exact
//! value, and so does its best child (whose value is then strictly inside the child's window):
//! the line of best children never stops before the game or the search does. The table-driven
//! searches may cut a line short at a table hit, so only its legality is checked for them.

use cutoff::advanced::{SearchResult, Searcher};
use cutoff::games::perfect::control::Control;
use cutoff::games::perfect::takeaway::TakeAway;
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game, MoveBuffer, MoveList, Player, Value};
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------------
// A seeded generator.

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: Value, hi: Value) -> Value {
        lo + self.below((hi - lo) as u64 + 1) as Value
    }
}

// ---------------------------------------------------------------------------------------------
// The test's own game: a ragged tree in a flat vector.

/// A node: its children are `first..first + count`; a node without children is a leaf.
#[derive(Clone, Copy, Debug)]
struct Node {
    first: u32,
    count: u8,
    /// The leaf's value, from MAX's (the first player's) point of view.
    value: Value,
    /// The static evaluation of an inner node, from MAX's point of view.
    eval: Value,
    /// Plies to the deepest leaf below.
    height: u8,
}

/// A ragged game tree.
struct Flat {
    nodes: Vec<Node>,
    root_side: Player,
    /// Mixed into the keys, so that trees sharing a table never share entries.
    salt: u64,
    /// `Some` range: the tree declares its exact value range; `None`: the trait's default.
    range: Option<(Value, Value)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FlatPos {
    node: u32,
    side: Player,
}

/// How leaf values are drawn.
#[derive(Clone, Copy, Debug)]
enum Values {
    /// -3..=3: ties everywhere.
    Small,
    /// 0..=1.
    Binary,
    /// -20,000..=20,000 (fits the table's 16 bits).
    Wide,
    /// -300,000..=300,000 (does not: the table stores none of it).
    Huge,
}

impl Values {
    fn draw(self, rng: &mut Rng) -> Value {
        match self {
            Values::Small => rng.range(-3, 3),
            Values::Binary => rng.range(0, 1),
            Values::Wide => rng.range(-20_000, 20_000),
            Values::Huge => rng.range(-300_000, 300_000),
        }
    }
}

impl Flat {
    /// A random tree at most `depth` plies deep whose first line reaches that depth; inner
    /// nodes get 0 to 5 children (0 makes them leaves), single children included.
    fn random(rng: &mut Rng, depth: usize, values: Values, root_side: Player) -> Flat {
        let mut nodes = vec![Node {
            first: 0,
            count: 0,
            value: 0,
            eval: 0,
            height: 0,
        }];
        // Breadth-first: (node, its depth, on the leftmost line).
        let mut queue = std::collections::VecDeque::from([(0usize, 0usize, true)]);
        while let Some((i, d, leftmost)) = queue.pop_front() {
            let count = if d == depth {
                0
            } else if nodes.len() > 1500 {
                // Keep the trees small enough for a thousand of them.
                usize::from(leftmost)
            } else {
                // 0:15%, 1:20%, 2:25%, 3:15%, 4:15%, 5:10%.
                let c = match rng.below(20) {
                    0..=2 => 0,
                    3..=6 => 1,
                    7..=11 => 2,
                    12..=14 => 3,
                    15..=17 => 4,
                    _ => 5,
                };
                if leftmost {
                    c.max(1)
                } else {
                    c
                }
            };
            nodes[i].value = values.draw(rng);
            nodes[i].eval = values.draw(rng);
            if count > 0 {
                nodes[i].first = nodes.len() as u32;
                nodes[i].count = count as u8;
                for k in 0..count {
                    queue.push_back((nodes.len(), d + 1, leftmost && k == 0));
                    nodes.push(Node {
                        first: 0,
                        count: 0,
                        value: 0,
                        eval: 0,
                        height: 0,
                    });
                }
            }
        }
        // Heights, children before parents (they come later in breadth-first order).
        for i in (0..nodes.len()).rev() {
            let n = nodes[i];
            if n.count > 0 {
                let h = (n.first..n.first + n.count as u32)
                    .map(|c| nodes[c as usize].height)
                    .max()
                    .unwrap();
                nodes[i].height = h + 1;
            }
        }
        let range = if rng.below(2) == 0 {
            let m = nodes
                .iter()
                .map(|n| n.value.abs().max(n.eval.abs()))
                .max()
                .unwrap();
            Some((-m, m))
        } else {
            None
        };
        Flat {
            nodes,
            root_side,
            salt: rng.next(),
            range,
        }
    }

    fn node(&self, pos: &FlatPos) -> &Node {
        &self.nodes[pos.node as usize]
    }
}

impl Game for Flat {
    type Pos = FlatPos;
    type Move = u8;
    type Moves = MoveList<u8, 5>;
    type Knowledge = cutoff::knowledge::NoKnowledge;

    fn initial(&self) -> FlatPos {
        FlatPos {
            node: 0,
            side: self.root_side,
        }
    }

    fn to_move(&self, pos: &FlatPos) -> Player {
        pos.side
    }

    fn outcome(&self, pos: &FlatPos) -> Option<Value> {
        let n = self.node(pos);
        (n.count == 0).then(|| n.value * pos.side.sign())
    }

    fn moves(&self, pos: &FlatPos, out: &mut Self::Moves) {
        out.clear();
        for k in 0..self.node(pos).count {
            out.push(k);
        }
    }

    fn play(&self, pos: &FlatPos, mv: u8) -> FlatPos {
        let n = self.node(pos);
        assert!(mv < n.count, "illegal move {mv} at node {}", pos.node);
        FlatPos {
            node: n.first + mv as u32,
            side: pos.side.other(),
        }
    }

    fn key(&self, pos: &FlatPos) -> u64 {
        // splitmix64's finaliser over node and side, salted per tree.
        let side = u64::from(pos.side == Player::Second);
        cutoff::rng::mix((u64::from(pos.node) << 1 | side).wrapping_add(self.salt))
    }

    fn evaluate(&self, pos: &FlatPos) -> Value {
        self.node(pos).eval * pos.side.sign()
    }

    fn max_plies(&self, pos: &FlatPos) -> usize {
        self.node(pos).height as usize
    }

    fn move_code(&self, mv: u8) -> u8 {
        mv
    }

    fn value_range(&self) -> (Value, Value) {
        self.range.unwrap_or((-cutoff::INF + 1, cutoff::INF - 1))
    }
}

/// Minimax over the flat tree as the textbook defines it, from MAX's point of view: MAX takes
/// the largest child value, MIN the smallest; leaves give their value; with `depth` plies
/// left at 0, an inner node gives its evaluation.
fn brute(t: &Flat, node: u32, maximizing: bool, depth: Option<usize>) -> Value {
    let n = t.nodes[node as usize];
    if n.count == 0 {
        return n.value;
    }
    if depth == Some(0) {
        return n.eval;
    }
    let below = depth.map(|d| d - 1);
    let children = (n.first..n.first + n.count as u32).map(|c| brute(t, c, !maximizing, below));
    if maximizing {
        children.max().unwrap()
    } else {
        children.min().unwrap()
    }
}

/// The brute-force value of `pos` from its side to move (the convention of the searches).
fn brute_pos(t: &Flat, pos: &FlatPos, depth: Option<usize>) -> Value {
    pos.side.sign() * brute(t, pos.node, pos.side == Player::First, depth)
}

// ---------------------------------------------------------------------------------------------
// Checking a result.

/// The plain searches, whose PV runs to the end of the game or the horizon.
fn full_line(algo: Algorithm) -> bool {
    // The theory's line follows the game's values, and where the game has no theory it is
    // PVS's: neither promises a line to the horizon on ties.
    !algo.uses_table() && algo != Algorithm::Theory
}

/// Runs `algo` on `root` to `depth` (with `tt`, cleared, for the table-driven searches).
fn run<G: Game>(
    game: &G,
    root: G::Pos,
    algo: Algorithm,
    depth: Option<usize>,
    tt: Option<&TranspositionTable>,
) -> SearchResult<G::Move> {
    let mut s = Searcher::new(game, root, depth);
    if let (Some(tt), true) = (tt, algo.uses_table()) {
        tt.clear();
        s = s.table(tt);
    }
    let (value, best_move) = s.run(algo);
    assert!(!s.stopped());
    SearchResult {
        value,
        best_move,
        pv: s.pv().to_vec(),
        stats: s.stats(),
        algo,
    }
}

/// Checks `r` (a search of `root` to `depth`) against the oracle `value_of(pos, depth)`, the
/// brute-force value of a position from its side to move: the value, the best move and the
/// principal variation.
fn check<G: Game>(
    game: &G,
    root: &G::Pos,
    depth: Option<usize>,
    r: &SearchResult<G::Move>,
    value_of: &dyn Fn(&G::Pos, Option<usize>) -> Value,
    what: &str,
) {
    let algo = r.algo;
    let expected = value_of(root, depth);
    assert_eq!(r.value, expected, "{algo} value on {what}, depth {depth:?}");

    let settled = game.outcome(root).is_some() || depth == Some(0);
    let Some(best) = r.best_move else {
        assert!(settled, "{algo} gave no move on {what}, depth {depth:?}");
        assert!(r.pv.is_empty());
        return;
    };
    assert!(!settled, "{algo} gave a move at a settled root on {what}");
    let mut moves = G::Moves::default();
    game.moves(root, &mut moves);
    assert!(
        moves.as_slice().contains(&best),
        "{algo}: illegal best move on {what}"
    );
    let child = game.play(root, best);
    let below = depth.map(|d| d - 1);
    assert_eq!(
        -value_of(&child, below),
        expected,
        "{algo}'s best move {best:?} does not achieve the value on {what}, depth {depth:?}"
    );
    assert_eq!(
        r.pv.first(),
        Some(&best),
        "{algo}: the PV starts with the best move"
    );

    // Follow the line.
    let mut pos = *root;
    for (i, &mv) in r.pv.iter().enumerate() {
        assert!(
            game.outcome(&pos).is_none(),
            "{algo}: PV goes past the end, {what}"
        );
        assert!(
            depth.is_none_or(|d| i < d),
            "{algo}: PV past the horizon, {what}"
        );
        game.moves(&pos, &mut moves);
        assert!(
            moves.as_slice().contains(&mv),
            "{algo}: illegal PV move, {what}"
        );
        pos = game.play(&pos, mv);
    }
    if full_line(algo) {
        let len = r.pv.len();
        let end = match game.outcome(&pos) {
            Some(v) => v,
            None => {
                assert_eq!(
                    Some(len),
                    depth,
                    "{algo}: PV stops early on {what}: {:?}",
                    r.pv
                );
                game.evaluate(&pos)
            }
        };
        let sign = if len % 2 == 0 { 1 } else { -1 };
        assert_eq!(
            sign * end,
            expected,
            "{algo}: the PV's end has another value on {what}: {:?}",
            r.pv
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Random trees.

#[test]
fn every_algorithm_matches_brute_force_on_random_trees() {
    let mut rng = Rng(0x0DDB_A11C_0FFE_E001);
    let tt = TranspositionTable::new(1);
    let kinds = [Values::Small, Values::Binary, Values::Wide, Values::Huge];
    let mut shapes = HashMap::new();
    let mut chains = 0;
    for i in 0..2000 {
        let depth = 1 + i % 8;
        let values = kinds[(i / 8) % kinds.len()];
        let side = if rng.below(2) == 0 {
            Player::First
        } else {
            Player::Second
        };
        let t = Flat::random(&mut rng, depth, values, side);
        let root = t.initial();
        assert_eq!(t.max_plies(&root), depth);
        *shapes.entry(depth).or_insert(0) += 1;
        if t.nodes.iter().any(|n| n.count == 1) {
            chains += 1;
        }
        let what = format!(
            "tree {i} ({} nodes, depth {depth}, {values:?})",
            t.nodes.len()
        );
        let oracle = |p: &FlatPos, d: Option<usize>| brute_pos(&t, p, d);
        for algo in Algorithm::ALL {
            let r = run(&t, root, algo, None, Some(&tt));
            check(&t, &root, None, &r, &oracle, &what);
            // Depth limits, with cutoff::advanced::search (no table).
            for d in 0..=depth {
                let r = cutoff::advanced::search(&t, root, algo, Some(d));
                check(&t, &root, Some(d), &r, &oracle, &what);
            }
        }
    }
    assert_eq!(shapes.len(), 8);
    assert!(chains > 500, "single-child nodes in {chains} trees");
}

#[test]
fn every_algorithm_matches_brute_force_on_degenerate_trees() {
    // A lone leaf, a single chain, a root with one child, all ties.
    let leaf = Flat {
        nodes: vec![Node {
            first: 0,
            count: 0,
            value: 7,
            eval: 0,
            height: 0,
        }],
        root_side: Player::Second,
        salt: 1,
        range: None,
    };
    let mut chain = Flat {
        nodes: Vec::new(),
        root_side: Player::First,
        salt: 2,
        range: Some((-9, 9)),
    };
    for i in 0..8u32 {
        chain.nodes.push(Node {
            first: i + 1,
            count: u8::from(i < 7),
            value: if i == 7 { -9 } else { 0 },
            eval: i as Value,
            height: (7 - i) as u8,
        });
    }
    let mut ties = Flat {
        nodes: Vec::new(),
        root_side: Player::First,
        salt: 3,
        range: Some((-1, 1)),
    };
    // A complete ternary tree of depth 4, every leaf 1.
    let mut next = 1u32;
    for d in 0..=4u8 {
        for _ in 0..3u32.pow(d as u32) {
            let inner = d < 4;
            ties.nodes.push(Node {
                first: if inner { next } else { 0 },
                count: if inner { 3 } else { 0 },
                value: 1,
                eval: 1,
                height: 4 - d,
            });
            if inner {
                next += 3;
            }
        }
    }
    let tt = TranspositionTable::new(1);
    for (name, t) in [("leaf", &leaf), ("chain", &chain), ("ties", &ties)] {
        let root = t.initial();
        let oracle = |p: &FlatPos, d: Option<usize>| brute_pos(t, p, d);
        for algo in Algorithm::ALL {
            let r = run(t, root, algo, None, Some(&tt));
            check(t, &root, None, &r, &oracle, name);
            for d in 0..=t.max_plies(&root) {
                let r = cutoff::advanced::search(t, root, algo, Some(d));
                check(t, &root, Some(d), &r, &oracle, name);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tic-tac-toe.

/// The test's own tic-tac-toe: cells 0..9, 0 empty, 1 X, 2 O.
type Cells = [u8; 9];

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

fn has_line(c: &Cells, who: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| c[i] == who))
}

/// X (1) when both have played as often, else O (2).
fn ttt_side(c: &Cells) -> u8 {
    let xs = c.iter().filter(|&&v| v == 1).count();
    let os = c.iter().filter(|&&v| v == 2).count();
    if xs == os {
        1
    } else {
        2
    }
}

fn ttt_over(c: &Cells) -> bool {
    has_line(c, 1) || has_line(c, 2) || c.iter().all(|&v| v != 0)
}

/// Minimax from the side to move: -1 if the opponent has a line, 0 on a full board, else the
/// best over the empty cells; `depth` plies at most, unfinished positions count as draws.
fn ttt_value(c: &Cells, depth: Option<usize>) -> Value {
    let me = ttt_side(c);
    if has_line(c, 3 - me) {
        return -1;
    }
    if c.iter().all(|&v| v != 0) || depth == Some(0) {
        return 0;
    }
    let mut best = -2;
    for i in 0..9 {
        if c[i] == 0 {
            let mut next = *c;
            next[i] = me;
            best = best.max(-ttt_value(&next, depth.map(|d| d - 1)));
        }
    }
    best
}

fn ttt_notation(c: &Cells) -> String {
    c.iter().map(|&v| ['.', 'X', 'O'][v as usize]).collect()
}

/// The test's board for a game position.
fn ttt_cells(b: &cutoff::games::perfect::tictactoe::Board) -> Cells {
    let mut c = [0; 9];
    for (i, cell) in c.iter_mut().enumerate() {
        if b.x >> i & 1 == 1 {
            *cell = 1;
        } else if b.o >> i & 1 == 1 {
            *cell = 2;
        }
    }
    c
}

#[test]
fn every_algorithm_matches_brute_force_on_random_tictactoe_positions() {
    let mut rng = Rng(0x7777_1234_5678_9ABC);
    let tt = TranspositionTable::new(1);
    let mut finished = 0;
    for i in 0..300 {
        // A seeded random playout of 2 to 9 plies (stopping if the game ends), and the empty
        // board once.
        let mut c: Cells = [0; 9];
        let plies = if i == 0 { 0 } else { 2 + rng.below(8) };
        for _ in 0..plies {
            if ttt_over(&c) {
                break;
            }
            let empty: Vec<usize> = (0..9).filter(|&k| c[k] == 0).collect();
            let k = empty[rng.below(empty.len() as u64) as usize];
            c[k] = ttt_side(&c);
        }
        if ttt_over(&c) {
            finished += 1;
        }
        let text = ttt_notation(&c);
        let game = TicTacToe::from_board(&text).expect("a reachable board");
        let root = game.initial();
        assert_eq!(ttt_cells(&root), c, "{text}");
        let what = format!("tic-tac-toe {text}");
        // With a depth limit: the game's own evaluation at the horizon.
        let oracle = |b: &cutoff::games::perfect::tictactoe::Board, d: Option<usize>| match d {
            None => ttt_value(&ttt_cells(b), None),
            Some(d) => negamax(&game, b, Some(d)),
        };
        for algo in Algorithm::ALL {
            let r = run(&game, root, algo, None, Some(&tt));
            check(&game, &root, None, &r, &oracle, &what);
            if i % 10 == 0 {
                for d in [0, 1, 2, 3] {
                    let r = cutoff::advanced::search(&game, root, algo, Some(d));
                    check(&game, &root, Some(d), &r, &oracle, &what);
                }
            }
        }
    }
    assert!(
        finished > 10,
        "{finished} finished games among the positions"
    );
}

#[test]
fn empty_tictactoe_board_is_a_draw_in_549946_nodes() {
    let game = TicTacToe::new();
    assert_eq!(ttt_value(&[0; 9], None), 0);
    for algo in [Algorithm::Minimax, Algorithm::Negamax] {
        let r = run(&game, game.initial(), algo, None, None);
        assert_eq!(r.value, 0);
        assert_eq!(r.stats.nodes, 549_946, "{algo}");
    }
}

// ---------------------------------------------------------------------------------------------
// Take-away games.

/// The test's own take-away rules: values from the side to move for heaps 0..=n. Terminal when
/// no amount fits; normal play: the side to move loses; misère: it wins at 0 (the opponent took
/// the last item) and loses when items are left that no amount fits.
fn takeaway_values(n: u32, takes: &[u32], misere: bool) -> Vec<Value> {
    let min = *takes.iter().min().unwrap();
    let mut v: Vec<Value> = Vec::new();
    for k in 0..=n {
        let value = if k < min {
            if misere && k == 0 {
                1
            } else {
                -1
            }
        } else {
            takes
                .iter()
                .filter(|&&t| t <= k)
                .map(|&t| -v[(k - t) as usize])
                .max()
                .unwrap()
        };
        v.push(value);
    }
    v
}

#[test]
fn every_algorithm_matches_brute_force_on_takeaway_games() {
    let mut games: Vec<(TakeAway, Vec<u32>, bool)> = Vec::new();
    for n in 0..=20 {
        games.push((TakeAway::matchsticks(n).unwrap(), vec![1, 2, 3], true));
        games.push((TakeAway::stones(n).unwrap(), vec![1, 2], false));
    }
    let mut rng = Rng(0xABCD_EF01_2345_6789);
    for _ in 0..60 {
        let n = rng.below(21) as u32;
        let mut takes: Vec<u32> = (0..1 + rng.below(4))
            .map(|_| 1 + rng.below(6) as u32)
            .collect();
        takes.sort_unstable();
        takes.dedup();
        let misere = rng.below(2) == 0;
        games.push((TakeAway::new(n, &takes, misere).unwrap(), takes, misere));
    }
    // The textbook facts.
    assert_eq!(takeaway_values(6, &[1, 2, 3], true)[6], 1);
    assert_eq!(takeaway_values(5, &[1, 2, 3], true)[5], -1);
    assert_eq!(takeaway_values(4, &[1, 2], false)[4], 1);
    assert_eq!(takeaway_values(3, &[1, 2], false)[3], -1);

    let tt = TranspositionTable::new(1);
    for (game, takes, misere) in &games {
        let root = game.initial();
        let values = takeaway_values(root.items, takes, *misere);
        // With a depth limit: the game's own evaluation at the horizon.
        let oracle = |p: &cutoff::games::perfect::takeaway::TakePos, d: Option<usize>| match d {
            None => values[p.items as usize],
            Some(d) => negamax(game, p, Some(d)),
        };
        let what = format!("take-away {} from {takes:?} misere={misere}", root.items);
        for algo in Algorithm::ALL {
            let r = run(game, root, algo, None, Some(&tt));
            check(game, &root, None, &r, &oracle, &what);
            for d in [0, 1, 3] {
                let r = cutoff::advanced::search(game, root, algo, Some(d));
                check(game, &root, Some(d), &r, &oracle, &what);
            }
        }
    }
}

/// Negamax over the game's interface by plain recursion (for the depth-limited oracles of the
/// real games, whose evaluation is the game's).
fn negamax<G: Game>(game: &G, pos: &G::Pos, depth: Option<usize>) -> Value {
    if let Some(v) = game.outcome(pos) {
        return v;
    }
    if depth == Some(0) {
        return game.evaluate(pos);
    }
    let mut moves = G::Moves::default();
    game.moves(pos, &mut moves);
    moves
        .as_slice()
        .iter()
        .map(|&m| -negamax(game, &game.play(pos, m), depth.map(|d| d - 1)))
        .max()
        .unwrap()
}

// ---------------------------------------------------------------------------------------------
// The control game.

/// The test's own control game: a move on a free vertex takes it and its neighbours; whoever
/// cannot move loses. Memoised by the mask of free vertices.
fn control_value(closed: &[u64], free: u64, memo: &mut HashMap<u64, Value>) -> Value {
    if free == 0 {
        return -1;
    }
    if let Some(&v) = memo.get(&free) {
        return v;
    }
    let mut best = -1;
    for (v, &c) in closed.iter().enumerate() {
        if free >> v & 1 == 1 {
            best = best.max(-control_value(closed, free & !c, memo));
        }
    }
    memo.insert(free, best);
    best
}

/// Nodes of the full game tree from `free` (to keep the unpruned searches' trees small).
fn control_tree_size(closed: &[u64], free: u64, memo: &mut HashMap<u64, u64>) -> u64 {
    if let Some(&n) = memo.get(&free) {
        return n;
    }
    let mut n = 1;
    for (v, &c) in closed.iter().enumerate() {
        if free >> v & 1 == 1 {
            n += control_tree_size(closed, free & !c, memo);
        }
    }
    memo.insert(free, n);
    n
}

#[test]
fn every_algorithm_matches_brute_force_on_control_graphs() {
    let mut rng = Rng(0x5EED_0FC0_4780_1234);
    let tt = TranspositionTable::new(1);
    let mut graphs = 0;
    let mut wins = 0;
    while graphs < 150 {
        let n = 1 + rng.below(9) as usize;
        let percent = [15, 30, 50, 80][rng.below(4) as usize];
        let mut edges = Vec::new();
        let mut closed: Vec<u64> = (0..n).map(|v| 1 << v).collect();
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(100) < percent {
                    edges.push((a, b));
                    closed[a] |= 1 << b;
                    closed[b] |= 1 << a;
                }
            }
        }
        let all = (1u64 << n) - 1;
        if control_tree_size(&closed, all, &mut HashMap::new()) > 100_000 {
            continue;
        }
        graphs += 1;
        let game = Control::from_edges(n, &edges).expect("a valid graph");
        assert_eq!(game.vertices(), n);
        let mut memo = HashMap::new();
        let value = control_value(&closed, all, &mut memo);
        assert_eq!(
            game.first_player_wins(),
            value == 1,
            "{n} vertices {edges:?}"
        );
        if value == 1 {
            wins += 1;
        }
        let root = game.initial();
        let oracle = |p: &cutoff::games::perfect::control::ControlPos, d: Option<usize>| match d {
            None => control_value(&closed, p.free, &mut HashMap::new()),
            Some(d) => negamax(&game, p, Some(d)),
        };
        let what = format!("control {n} vertices {edges:?}");
        for algo in Algorithm::ALL {
            let r = run(&game, root, algo, None, Some(&tt));
            check(&game, &root, None, &r, &oracle, &what);
            for d in [1, 2] {
                let r = cutoff::advanced::search(&game, root, algo, Some(d));
                check(&game, &root, Some(d), &r, &oracle, &what);
            }
        }
    }
    assert!(wins > 20 && wins < 130, "{wins} first-player wins of 150");
}
