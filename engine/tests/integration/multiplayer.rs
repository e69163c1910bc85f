//! The n-player searches: max^n (plain and with shallow pruning), paranoid and best-reply
//! search, against brute-force references written here, on 3-player Pig, on random n-player
//! trees with and without chance nodes, and on hand-made trees that catch the classic mistakes
//! (deep pruning, pruning across a chance node, pruning under the parent's own player).
//!
//! The random trees keep their arithmetic exact (small integer payoffs, probabilities that are
//! multiples of 1/8), so "equal" below means bit for bit.

use cutoff::games::chance::pig::{Pig, PigPos};
use cutoff::multi::{
    search, search_observed, ChanceOutcome, Cut, MultiAlgorithm, MultiGame, MultiLimits,
    MultiObserver, MultiResult, MultiStats, Outcomes, Payoffs, Turn,
};
use cutoff::rng::SplitMix64;
use cutoff::{MoveBuffer, MoveList};

// ---------------------------------------------------------------------------------------------
// An explicit n-player tree, for hand-made and random trees.

/// A node of an explicit tree.
#[derive(Clone, Debug)]
enum Node {
    /// Payoffs, one per player.
    Leaf(Vec<f64>),
    /// The player to move and the children.
    Decision(usize, Vec<u32>),
    /// The children and their probabilities.
    Chance(Vec<(u32, f64)>),
}

/// A tree to be built: the shape, before it is flattened into [`Tree`].
enum Spec {
    L(Vec<f64>),
    D(usize, Vec<Spec>),
    C(Vec<(f64, Spec)>),
}

fn leaf(v: &[f64]) -> Spec {
    Spec::L(v.to_vec())
}

/// An explicit tree as a game. A position is a node, and optionally a player who was handed
/// the move there by `pass_to` (then the node's children are that player's moves).
struct Tree {
    n: usize,
    nodes: Vec<Node>,
    height: Vec<usize>,
    /// The static evaluation of every node, for depth-limited searches.
    eval: Vec<Vec<f64>>,
    bounds: (f64, f64),
    sum: Option<f64>,
    /// Whether `pass_to` works (best-reply search); without it the default answers.
    hook: bool,
}

const NATURAL: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq)]
struct TPos {
    node: u32,
    who: u8,
}

impl Tree {
    /// Flattens `spec` (preorder). Inner nodes evaluate to `eval` of their first leaf, which
    /// keeps the evaluation within the bounds and at the constant sum.
    fn new(n: usize, spec: Spec, bounds: (f64, f64), sum: Option<f64>) -> Tree {
        let mut t = Tree {
            n,
            nodes: Vec::new(),
            height: Vec::new(),
            eval: Vec::new(),
            bounds,
            sum,
            hook: true,
        };
        t.add(spec);
        t
    }

    fn add(&mut self, spec: Spec) -> u32 {
        let id = self.nodes.len();
        self.nodes.push(Node::Leaf(Vec::new()));
        self.height.push(0);
        self.eval.push(Vec::new());
        let (node, height, eval) = match spec {
            Spec::L(v) => {
                assert_eq!(v.len(), self.n);
                (Node::Leaf(v.clone()), 0, v)
            }
            Spec::D(p, kids) => {
                let ids: Vec<u32> = kids.into_iter().map(|k| self.add(k)).collect();
                let h = 1 + ids.iter().map(|&c| self.height[c as usize]).max().unwrap();
                (
                    Node::Decision(p, ids.clone()),
                    h,
                    self.eval[ids[0] as usize].clone(),
                )
            }
            Spec::C(kids) => {
                let ids: Vec<(u32, f64)> =
                    kids.into_iter().map(|(p, k)| (self.add(k), p)).collect();
                let h = 1 + ids
                    .iter()
                    .map(|&(c, _)| self.height[c as usize])
                    .max()
                    .unwrap();
                let e = self.eval[ids[0].0 as usize].clone();
                (Node::Chance(ids), h, e)
            }
        };
        self.nodes[id] = node;
        self.height[id] = height;
        self.eval[id] = eval;
        id as u32
    }

    fn without_hook(mut self) -> Tree {
        self.hook = false;
        self
    }
}

impl MultiGame for Tree {
    type Pos = TPos;
    type Move = u32;
    type Moves = MoveList<u32, 8>;

    fn players(&self) -> usize {
        self.n
    }

    fn initial(&self) -> TPos {
        TPos {
            node: 0,
            who: NATURAL,
        }
    }

    fn turn(&self, pos: &TPos) -> Turn {
        match &self.nodes[pos.node as usize] {
            Node::Leaf(_) => Turn::Terminal,
            _ if pos.who != NATURAL => Turn::Player(pos.who as usize),
            Node::Decision(p, _) => Turn::Player(*p),
            Node::Chance(_) => Turn::Chance,
        }
    }

    fn payoffs(&self, pos: &TPos) -> Payoffs {
        match &self.nodes[pos.node as usize] {
            Node::Leaf(v) => Payoffs::from_slice(v),
            _ => Payoffs::from_slice(&self.eval[pos.node as usize]),
        }
    }

    fn moves(&self, pos: &TPos, out: &mut MoveList<u32, 8>) {
        out.clear();
        match &self.nodes[pos.node as usize] {
            Node::Decision(_, kids) => kids.iter().for_each(|&k| out.push(k)),
            Node::Chance(kids) => kids.iter().for_each(|&(k, _)| out.push(k)),
            Node::Leaf(_) => {}
        }
    }

    fn outcomes(&self, pos: &TPos, out: &mut Outcomes<u32>) {
        out.clear();
        if let Node::Chance(kids) = &self.nodes[pos.node as usize] {
            for &(mv, prob) in kids {
                out.push(ChanceOutcome { mv, prob });
            }
        }
    }

    fn play(&self, _pos: &TPos, mv: u32) -> TPos {
        TPos {
            node: mv,
            who: NATURAL,
        }
    }

    fn key(&self, pos: &TPos) -> u64 {
        pos.node as u64 | (pos.who as u64) << 32
    }

    fn max_plies(&self, pos: &TPos) -> usize {
        self.height[pos.node as usize]
    }

    fn payoff_bounds(&self) -> (f64, f64) {
        self.bounds
    }

    fn payoff_sum(&self) -> Option<f64> {
        self.sum
    }

    fn evaluate(&self, pos: &TPos) -> Payoffs {
        Payoffs::from_slice(&self.eval[pos.node as usize])
    }

    fn pass_to(&self, pos: &TPos, player: usize) -> Option<TPos> {
        let leaf = matches!(self.nodes[pos.node as usize], Node::Leaf(_));
        (self.hook && !leaf).then_some(TPos {
            node: pos.node,
            who: player as u8,
        })
    }

    fn name(&self) -> &'static str {
        "tree"
    }
}

/// A random tree for `n` players, at most `depth` plies deep, with chance nodes when `chance`.
/// Payoffs are `k_i - c` with nonnegative integers `k_i` summing to `units`, so every payoff is
/// at least `-c` and they sum to `units - n c`; probabilities are multiples of 1/8.
fn random_tree(seed: u64, n: usize, chance: bool, depth: usize) -> Tree {
    let mut rng = SplitMix64::new(seed);
    let units = 4 + rng.below(8) as usize;
    let c = rng.below(3) as f64;
    let sum = units as f64 - n as f64 * c;

    fn payoff(rng: &mut SplitMix64, n: usize, units: usize, c: f64) -> Vec<f64> {
        let mut k = vec![0usize; n];
        match rng.below(4) {
            // One player takes all: the extreme vectors where pruning bites.
            0 => k[rng.below(n as u64) as usize] = units,
            _ => (0..units).for_each(|_| k[rng.below(n as u64) as usize] += 1),
        }
        k.into_iter().map(|x| x as f64 - c).collect()
    }

    fn probs(rng: &mut SplitMix64, k: usize) -> Vec<f64> {
        let mut p: Vec<f64> = match k {
            2 => {
                let a = (1 + rng.below(7)) as f64 / 8.0;
                vec![a, 1.0 - a]
            }
            3 => vec![0.5, 0.25, 0.25],
            _ if rng.below(2) == 0 => vec![0.25; 4],
            _ => vec![0.5, 0.25, 0.125, 0.125],
        };
        for i in (1..p.len()).rev() {
            p.swap(i, rng.below(i as u64 + 1) as usize);
        }
        p
    }

    /// What every node of one tree shares: the players, the payoffs' units and offset, and
    /// whether chance nodes may appear.
    struct Shape {
        n: usize,
        units: usize,
        c: f64,
        chance: bool,
    }

    fn gen(rng: &mut SplitMix64, shape: &Shape, left: usize, top: bool, prev: usize) -> Spec {
        let &Shape {
            n,
            units,
            c,
            chance,
        } = shape;
        if left == 0 || (!top && rng.below(6) == 0) {
            return Spec::L(payoff(rng, n, units, c));
        }
        if chance && !top && rng.below(3) == 0 {
            let k = 2 + rng.below(3) as usize;
            let ps = probs(rng, k);
            return Spec::C(
                ps.into_iter()
                    .map(|p| (p, gen(rng, shape, left - 1, false, prev)))
                    .collect(),
            );
        }
        // Mostly round-robin, sometimes anyone (the same player twice in a row included).
        let p = if top {
            0
        } else if rng.below(4) == 0 {
            rng.below(n as u64) as usize
        } else {
            (prev + 1) % n
        };
        let k = if rng.below(8) == 0 {
            1
        } else {
            2 + rng.below(3) as usize
        };
        Spec::D(
            p,
            (0..k)
                .map(|_| gen(rng, shape, left - 1, false, p))
                .collect(),
        )
    }

    let shape = Shape {
        n,
        units,
        c,
        chance,
    };
    let spec = gen(&mut rng, &shape, depth, true, n - 1);
    Tree::new(n, spec, (-c, units as f64 - c), Some(sum))
}

/// The random trees of the sweeps: 3 and 4 players, with and without chance nodes.
fn random_trees() -> impl Iterator<Item = (String, Tree)> {
    (0..400u64).map(|i| {
        let n = 3 + (i % 2) as usize;
        let chance = i % 4 >= 2;
        let depth = 3 + (i / 4 % 4) as usize;
        let name = format!("seed {i}: {n} players, chance {chance}, depth {depth}");
        (name, random_tree(0x5eed_0000 + i, n, chance, depth))
    })
}

// ---------------------------------------------------------------------------------------------
// Brute-force references: plain recursion over the game interface, no pruning.

fn leaf_payoffs<G: MultiGame>(g: &G, pos: &G::Pos) -> Payoffs {
    if g.turn(pos) == Turn::Terminal {
        g.payoffs(pos)
    } else {
        g.evaluate(pos)
    }
}

fn moves_of<G: MultiGame>(g: &G, pos: &G::Pos) -> Vec<G::Move> {
    let mut m = G::Moves::default();
    g.moves(pos, &mut m);
    m.as_slice().to_vec()
}

fn outcomes_of<G: MultiGame>(g: &G, pos: &G::Pos) -> Vec<ChanceOutcome<G::Move>> {
    let mut o = Outcomes::default();
    g.outcomes(pos, &mut o);
    o.as_slice().to_vec()
}

/// Plain max^n: the vector and the number of inner nodes.
fn maxn_ref<G: MultiGame>(g: &G, pos: &G::Pos, depth: usize) -> (Payoffs, u64) {
    let turn = g.turn(pos);
    if turn == Turn::Terminal || depth == 0 {
        return (leaf_payoffs(g, pos), 0);
    }
    let mut inner = 1;
    match turn {
        Turn::Player(p) => {
            let mut best: Option<Payoffs> = None;
            for m in moves_of(g, pos) {
                let (v, k) = maxn_ref(g, &g.play(pos, m), depth - 1);
                inner += k;
                if best.is_none_or(|b| v.get(p) > b.get(p)) {
                    best = Some(v);
                }
            }
            (best.unwrap_or_else(|| g.payoffs(pos)), inner)
        }
        _ => {
            let mut mean = Payoffs::zeros(g.players());
            for o in outcomes_of(g, pos) {
                let (v, k) = maxn_ref(g, &g.play(pos, o.mv), depth - 1);
                inner += k;
                mean.add_scaled(o.prob, &v);
            }
            (mean, inner)
        }
    }
}

/// max^n with deep pruning: every ancestor's bound, not only the parent's. Wrong on purpose,
/// to show that the hand-made tree tells the two apart.
fn maxn_deep<G: MultiGame>(g: &G, pos: &G::Pos, above: &[(usize, f64)]) -> Payoffs {
    let Turn::Player(p) = g.turn(pos) else {
        return g.payoffs(pos);
    };
    let (floor, _) = g.payoff_bounds();
    let s = g.payoff_sum().unwrap();
    let mut best: Option<Payoffs> = None;
    for m in moves_of(g, pos) {
        let mut down = above.to_vec();
        if let Some(b) = best {
            down.push((p, b.get(p)));
        }
        let v = maxn_deep(g, &g.play(pos, m), &down);
        if best.is_none_or(|b| v.get(p) > b.get(p)) {
            best = Some(v);
        }
        let x = best.unwrap().get(p);
        let rest = (g.players() - 2) as f64 * floor;
        if above.iter().any(|&(q, b)| q != p && s - x - rest <= b) {
            break;
        }
    }
    best.unwrap()
}

/// Paranoid minimax: `me` maximises its payoff, everyone else minimises it.
fn paranoid_ref<G: MultiGame>(g: &G, pos: &G::Pos, me: usize, depth: usize) -> f64 {
    let turn = g.turn(pos);
    if turn == Turn::Terminal || depth == 0 {
        return leaf_payoffs(g, pos).get(me);
    }
    match turn {
        Turn::Player(p) => {
            let vals = moves_of(g, pos)
                .into_iter()
                .map(|m| paranoid_ref(g, &g.play(pos, m), me, depth - 1));
            if p == me {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        }
        _ => outcomes_of(g, pos)
            .into_iter()
            .map(|o| o.prob * paranoid_ref(g, &g.play(pos, o.mv), me, depth - 1))
            .sum(),
    }
}

/// Best-reply search without pruning, on the tree the brs module describes: `reply` is the
/// opponent replying since `me`'s last decision, if any.
fn brs_ref<G: MultiGame>(
    g: &G,
    pos: &G::Pos,
    me: usize,
    reply: Option<usize>,
    depth: usize,
) -> f64 {
    let turn = g.turn(pos);
    if turn == Turn::Terminal || depth == 0 {
        return leaf_payoffs(g, pos).get(me);
    }
    let Turn::Player(q) = turn else {
        return outcomes_of(g, pos)
            .into_iter()
            .map(|o| o.prob * brs_ref(g, &g.play(pos, o.mv), me, reply, depth - 1))
            .sum();
    };
    if q == me {
        return moves_of(g, pos)
            .into_iter()
            .map(|m| brs_ref(g, &g.play(pos, m), me, None, depth - 1))
            .fold(f64::NEG_INFINITY, f64::max);
    }
    match reply {
        Some(o) if o == q => moves_of(g, pos)
            .into_iter()
            .map(|m| brs_ref(g, &g.play(pos, m), me, Some(q), depth - 1))
            .fold(f64::INFINITY, f64::min),
        // The reply is over: back to `me` (or on in the game's order without the hook).
        Some(_) => match g.pass_to(pos, me) {
            Some(back) => brs_ref(g, &back, me, None, depth),
            None => brs_ref(g, pos, me, None, depth),
        },
        None => {
            let n = g.players();
            let mut v = f64::INFINITY;
            for o in (0..n).filter(|&o| o != me) {
                let from = if o == q {
                    *pos
                } else {
                    match g.pass_to(pos, o) {
                        Some(p) if g.turn(&p) == Turn::Player(o) => p,
                        _ => continue,
                    }
                };
                for m in moves_of(g, &from) {
                    v = v.min(brs_ref(g, &g.play(&from, m), me, Some(o), depth - 1));
                }
            }
            v
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

fn run<G: MultiGame>(g: &G, root: &G::Pos, algo: MultiAlgorithm) -> MultiResult<G::Move> {
    search(g, root, algo, &MultiLimits::default(), None).expect("a valid request")
}

fn run_to<G: MultiGame>(
    g: &G,
    root: &G::Pos,
    algo: MultiAlgorithm,
    depth: usize,
) -> MultiResult<G::Move> {
    let limits = MultiLimits {
        depth: Some(depth),
        ..MultiLimits::default()
    };
    search(g, root, algo, &limits, None).expect("a valid request")
}

fn pig(win: u32, horizon: u32) -> Pig {
    Pig::new(3, win, 3, horizon, false).expect("valid pig")
}

/// Root player of a search (as `search` reports it).
fn root_player<G: MultiGame>(g: &G, pos: &G::Pos) -> usize {
    match g.turn(pos) {
        Turn::Player(p) => p,
        _ => 0,
    }
}

/// Records what a search reports, to check the traces.
#[derive(Default)]
struct Recorder {
    settled: Vec<(usize, Vec<f64>, bool)>,
    pruned: Vec<(usize, usize, Cut)>,
}

impl<G: MultiGame> MultiObserver<G> for Recorder {
    fn settled(&mut self, ply: usize, _pos: &G::Pos, value: &Payoffs, exact: bool) {
        self.settled.push((ply, value.as_slice().to_vec(), exact));
    }

    fn pruned(&mut self, ply: usize, _parent: &G::Pos, from: usize, cut: Cut) {
        self.pruned.push((ply, from, cut));
    }
}

// ---------------------------------------------------------------------------------------------
// max^n on Pig.

/// The table: 3-player Pig with a 3-sided die.
const PIG_ROWS: [(u32, u32, [f64; 3], u64); 2] = [
    (3, 9, [0.4131992074, -0.0934308794, -0.3197683280], 9_011),
    (4, 10, [0.3029009805, -0.0500939897, -0.2528069908], 83_566),
];

fn assert_close(got: &Payoffs, want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.as_slice().iter().zip(want) {
        assert!((g - w).abs() < 1e-9, "{what}: got {got:?}, want {want:?}");
    }
}

#[test]
fn maxn_plain_reproduces_the_pig_table() {
    for (win, horizon, want, inner) in PIG_ROWS {
        let g = pig(win, horizon);
        let r = run(&g, &g.initial(), MultiAlgorithm::MaxnPlain);
        let what = format!("pig win {win} horizon {horizon}");
        assert_close(&r.values, &want, &what);
        assert_eq!(r.stats.inner(), inner, "{what}");
        assert!(r.exact && !r.stopped, "{what}");
        assert_eq!(r.value, r.values.get(0));
        // The reference agrees on both the vector and the size of the tree.
        let (v, k) = maxn_ref(&g, &g.initial(), usize::MAX);
        assert_eq!(v, r.values, "{what}");
        assert_eq!(k, inner, "{what}");
    }
}

#[test]
fn maxn_shallow_matches_plain_on_pig_with_fewer_nodes() {
    for (win, horizon, want, inner) in PIG_ROWS {
        let g = pig(win, horizon);
        let plain = run(&g, &g.initial(), MultiAlgorithm::MaxnPlain);
        let shallow = run(&g, &g.initial(), MultiAlgorithm::Maxn);
        let what = format!("pig win {win} horizon {horizon}");
        assert_close(&shallow.values, &want, &what);
        assert_eq!(shallow.values, plain.values, "{what}");
        assert_eq!(shallow.best_move, plain.best_move, "{what}");
        assert!(shallow.stats.inner() <= inner, "{what}");
        assert!(shallow.stats.nodes() <= plain.stats.nodes(), "{what}");
        assert_eq!(plain.stats.cutoffs, 0, "{what}");
    }
}

#[test]
fn maxn_matches_the_reference_from_other_pig_positions_and_depths() {
    let g = pig(4, 10);
    let roots = ["", "1,2,0/1/1/3", "2,0,3/0/2/4", "0,3,1/2/0/5/rolling"];
    for text in roots {
        let root = g.parse_pos(text).unwrap();
        for depth in [1, 2, 3, 5, 8, 21] {
            let want = maxn_ref(&g, &root, depth).0;
            let plain = run_to(&g, &root, MultiAlgorithm::MaxnPlain, depth);
            let shallow = run_to(&g, &root, MultiAlgorithm::Maxn, depth);
            let what = format!("root '{text}' depth {depth}");
            assert_eq!(plain.values, want, "{what}");
            assert_close(&shallow.values, want.as_slice(), &what);
            assert!(shallow.stats.nodes() <= plain.stats.nodes(), "{what}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// max^n on hand-made trees.

/// Three players, payoffs at least 0 summing to 10.
fn tree3(spec: Spec) -> Tree {
    Tree::new(3, spec, (0.0, 10.0), Some(10.0))
}

#[test]
fn deep_pruning_would_be_wrong_and_shallow_pruning_is_not() {
    // Root (player 0): A = (5,4,1), then B (player 1): B1 = (6,2,2), then C (player 2):
    // C1 = (0,3,7), C2 = (1,1,8). C is (1,1,8), B keeps B1 (1 < 2 for player 1), and the root
    // takes B: (6,2,2). Deep pruning cuts C after C1 with the root's bound (player 0 gets at
    // most 10 - 7 = 3 <= 5 there), B then takes the partial (0,3,7), and the root A.
    use Spec::D;
    let t = tree3(D(
        0,
        vec![
            leaf(&[5.0, 4.0, 1.0]),
            D(
                1,
                vec![
                    leaf(&[6.0, 2.0, 2.0]),
                    D(2, vec![leaf(&[0.0, 3.0, 7.0]), leaf(&[1.0, 1.0, 8.0])]),
                ],
            ),
        ],
    ));
    let right = Payoffs::from_slice(&[6.0, 2.0, 2.0]);
    assert_eq!(maxn_ref(&t, &t.initial(), usize::MAX).0, right);
    assert_eq!(
        maxn_deep(&t, &t.initial(), &[]),
        Payoffs::from_slice(&[5.0, 4.0, 1.0]),
        "the tree must catch deep pruning"
    );
    let b = moves_of(&t, &t.initial())[1];
    for algo in [MultiAlgorithm::MaxnPlain, MultiAlgorithm::Maxn] {
        let r = run(&t, &t.initial(), algo);
        assert_eq!(r.values, right, "{algo}");
        assert_eq!(r.best_move, Some(b), "{algo}");
        assert_eq!(r.value, 6.0, "{algo}");
    }
}

#[test]
fn shallow_pruning_cuts_and_traces_the_cut() {
    // Root (player 0): A = (5,3,2), then B (player 1): B1 = (1,7,2) gives player 1 seven, so
    // B leaves player 0 at most 10 - 7 = 3 <= 5: B2 is skipped.
    use Spec::D;
    let t = tree3(D(
        0,
        vec![
            leaf(&[5.0, 3.0, 2.0]),
            D(1, vec![leaf(&[1.0, 7.0, 2.0]), leaf(&[0.0, 0.0, 10.0])]),
        ],
    ));
    let limits = MultiLimits::default();
    let (plain, rec_plain) = search_observed(
        &t,
        &t.initial(),
        MultiAlgorithm::MaxnPlain,
        &limits,
        None,
        Recorder::default(),
    )
    .unwrap();
    let (shallow, rec) = search_observed(
        &t,
        &t.initial(),
        MultiAlgorithm::Maxn,
        &limits,
        None,
        Recorder::default(),
    )
    .unwrap();
    assert_eq!(plain.values, Payoffs::from_slice(&[5.0, 3.0, 2.0]));
    assert_eq!(shallow.values, plain.values);
    assert_eq!(plain.stats.leaves, 3);
    assert_eq!(shallow.stats.leaves, 2);
    assert_eq!(shallow.stats.cutoffs, 1);
    assert!(rec_plain.pruned.is_empty());
    assert_eq!(rec.pruned, vec![(1, 1, Cut::Decision(5.0))]);
    // B's vector is settled as a bound only; the root's is exact.
    assert!(rec.settled.contains(&(1, vec![1.0, 7.0, 2.0], false)));
    assert_eq!(rec.settled.last(), Some(&(0, vec![5.0, 3.0, 2.0], true)));
}

#[test]
fn no_shallow_pruning_under_the_parents_own_player() {
    // Root (player 0): A = (5,3,2), then B, player 0 again: B1 = (9,0,1), B2 = (10,0,0).
    // Taken for another player's node, B1 would "leave player 0 at most 10 - 9 = 1 <= 5" and
    // cut B2; but B is player 0's own choice, worth 10 to it.
    use Spec::D;
    let t = tree3(D(
        0,
        vec![
            leaf(&[5.0, 3.0, 2.0]),
            D(0, vec![leaf(&[9.0, 0.0, 1.0]), leaf(&[10.0, 0.0, 0.0])]),
        ],
    ));
    for algo in [MultiAlgorithm::MaxnPlain, MultiAlgorithm::Maxn] {
        let r = run(&t, &t.initial(), algo);
        assert_eq!(r.values, Payoffs::from_slice(&[10.0, 0.0, 0.0]), "{algo}");
        assert_eq!(r.stats.cutoffs, 0, "{algo}");
    }
}

#[test]
fn no_shallow_pruning_across_a_chance_node() {
    // Root (player 0): A = (5,2,3), then a coin: heads B (player 1): B1 = (0,6,4),
    // B2 = (3,7,0); tails (10,0,0). B is (3,7,0), the coin (6.5,3.5,0), and the root takes it.
    // Were the root's bound passed through the coin, B would be cut after B1 (player 0 gets at
    // most 10 - 6 = 4 <= 5 there), the coin would be worth (5,3,2) and the root would keep A.
    use Spec::{C, D};
    let t = tree3(D(
        0,
        vec![
            leaf(&[5.0, 2.0, 3.0]),
            C(vec![
                (
                    0.5,
                    D(1, vec![leaf(&[0.0, 6.0, 4.0]), leaf(&[3.0, 7.0, 0.0])]),
                ),
                (0.5, leaf(&[10.0, 0.0, 0.0])),
            ]),
        ],
    ));
    for algo in [MultiAlgorithm::MaxnPlain, MultiAlgorithm::Maxn] {
        let r = run(&t, &t.initial(), algo);
        assert_eq!(r.values, Payoffs::from_slice(&[6.5, 3.5, 0.0]), "{algo}");
        assert_eq!(r.stats.cutoffs, 0, "{algo}");
    }
}

#[test]
fn maxn_shallow_equals_plain_on_random_trees() {
    let mut cutoffs = 0;
    let (mut plain_nodes, mut shallow_nodes) = (0, 0);
    for (what, t) in random_trees() {
        let root = t.initial();
        let (want, inner) = maxn_ref(&t, &root, usize::MAX);
        let plain = run(&t, &root, MultiAlgorithm::MaxnPlain);
        let shallow = run(&t, &root, MultiAlgorithm::Maxn);
        assert_eq!(plain.values, want, "{what}");
        assert_eq!(plain.stats.inner(), inner, "{what}");
        assert_eq!(shallow.values, want, "{what}");
        assert_eq!(shallow.best_move, plain.best_move, "{what}");
        assert!(shallow.stats.nodes() <= plain.stats.nodes(), "{what}");
        // And at every depth limit, with the evaluation at the horizon.
        for depth in 1..3 {
            let want = maxn_ref(&t, &root, depth).0;
            assert_eq!(
                run_to(&t, &root, MultiAlgorithm::MaxnPlain, depth).values,
                want
            );
            assert_eq!(run_to(&t, &root, MultiAlgorithm::Maxn, depth).values, want);
        }
        cutoffs += shallow.stats.cutoffs;
        plain_nodes += plain.stats.nodes();
        shallow_nodes += shallow.stats.nodes();
    }
    // The sweep exercises the pruning, not only the plain path.
    assert!(cutoffs > 100, "only {cutoffs} cutoffs");
    assert!(shallow_nodes < plain_nodes);
}

#[test]
fn maxn_needs_a_constant_sum_for_shallow_pruning() {
    let mut t = random_tree(1, 3, false, 3);
    t.sum = None;
    let err = search(
        &t,
        &t.initial(),
        MultiAlgorithm::Maxn,
        &MultiLimits::default(),
        None,
    );
    assert!(err.is_err());
    let r = run(&t, &t.initial(), MultiAlgorithm::MaxnPlain);
    assert_eq!(r.values, maxn_ref(&t, &t.initial(), usize::MAX).0);
}

// ---------------------------------------------------------------------------------------------
// Paranoid.

/// Checks paranoid against the reference from `root` at `depth`, to `tol` (0 on the trees,
/// whose arithmetic is exact; Star1's chance-node sums may round differently from the
/// reference's on Pig); returns the stats.
fn check_paranoid<G: MultiGame>(
    g: &G,
    root: &G::Pos,
    depth: usize,
    tol: f64,
    what: &str,
) -> MultiStats {
    let me = root_player(g, root);
    let want = paranoid_ref(g, root, me, depth);
    let r = run_to(g, root, MultiAlgorithm::Paranoid, depth);
    assert!(
        (r.value - want).abs() <= tol,
        "{what}: {} != {want}",
        r.value
    );
    assert_eq!(r.values.get(me), r.value, "{what}");
    // The others split the coalition's share.
    let n = g.players();
    for i in (0..n).filter(|&i| i != me) {
        assert_eq!(r.values.get(i), -r.value / (n - 1) as f64, "{what}");
    }
    r.stats
}

#[test]
fn paranoid_equals_paranoid_minimax_on_pig() {
    for (win, horizon) in [(3, 9), (4, 10)] {
        let g = pig(win, horizon);
        let roots = ["", "1,2,0/1/1/3", "2,0,3/0/2/4", "0,3,1/2/0/5/rolling"];
        for text in roots {
            let root = g.parse_pos(text).unwrap();
            for depth in [1, 2, 4, 7, 100] {
                let what = format!("pig {win}/{horizon} root '{text}' depth {depth}");
                let stats = check_paranoid(&g, &root, depth, 1e-12, &what);
                let plain = run_to(&g, &root, MultiAlgorithm::MaxnPlain, depth).stats;
                // Same tree as max^n, pruned.
                assert!(stats.nodes() <= plain.nodes(), "{what}");
            }
        }
    }
}

#[test]
fn paranoid_on_two_player_pig_is_expectiminimax() {
    let g = Pig::new(2, 5, 3, 12, false).unwrap();
    let emm = run(&g, &g.initial(), MultiAlgorithm::Expectiminimax);
    let par = run(&g, &g.initial(), MultiAlgorithm::Paranoid);
    assert!((emm.value - par.value).abs() < 1e-12);
    assert!(par.stats.cutoffs > 0);
    assert!(par.stats.nodes() < emm.stats.nodes());
}

#[test]
fn paranoid_equals_paranoid_minimax_on_random_trees() {
    let mut cutoffs = 0;
    for (what, t) in random_trees() {
        let root = t.initial();
        let full = t.max_plies(&root);
        let stats = check_paranoid(&t, &root, full, 0.0, &what);
        assert!(stats.nodes() <= run(&t, &root, MultiAlgorithm::MaxnPlain).stats.nodes());
        cutoffs += stats.cutoffs;
        for depth in 1..3 {
            check_paranoid(&t, &root, depth, 0.0, &what);
        }
    }
    assert!(cutoffs > 100, "only {cutoffs} cutoffs");
}

// ---------------------------------------------------------------------------------------------
// Best-reply search.

fn check_brs<G: MultiGame>(g: &G, root: &G::Pos, depth: usize, what: &str) -> MultiStats {
    let me = root_player(g, root);
    let want = brs_ref(g, root, me, None, depth);
    let r = run_to(g, root, MultiAlgorithm::Brs, depth);
    assert_eq!(r.value, want, "{what}");
    assert_eq!(r.values.get(me), want, "{what}");
    r.stats
}

#[test]
fn brs_equals_brute_force_best_reply_on_pig() {
    for (win, horizon) in [(3, 9), (4, 10)] {
        let g = pig(win, horizon);
        let roots = ["", "1,2,0/1/1/3", "2,0,3/0/2/4", "0,3,1/2/0/5/rolling"];
        for text in roots {
            let root = g.parse_pos(text).unwrap();
            for depth in [1, 2, 4, 7, 100] {
                let what = format!("pig {win}/{horizon} root '{text}' depth {depth}");
                check_brs(&g, &root, depth, &what);
            }
        }
    }
}

#[test]
fn pig_passes_the_turn_for_best_reply_search() {
    let g = pig(4, 10);
    let pos = g.parse_pos("1,2,0/3/1/4").unwrap();
    let passed: PigPos = g.pass_to(&pos, 2).unwrap();
    assert_eq!(g.turn(&passed), Turn::Player(2));
    assert_eq!((passed.total, passed.moves, passed.rolling), (0, 4, false));
    assert_eq!(passed.scores, pos.scores);
    let rolling = g.parse_pos("1,2,0/3/1/4/rolling").unwrap();
    assert_eq!(
        g.pass_to(&rolling, 0).map(|p| g.turn(&p)),
        Some(Turn::Player(0))
    );
    let over = g.parse_pos("4,2,0/0/1/4").unwrap();
    assert_eq!(g.pass_to(&over, 0), None);
    assert_eq!(g.pass_to(&pos, 3), None);
    // The hook makes a difference: best-reply is not paranoid on Pig.
    let brs = run(&g, &g.initial(), MultiAlgorithm::Brs);
    let par = run(&g, &g.initial(), MultiAlgorithm::Paranoid);
    assert_ne!(brs.value, par.value);
}

#[test]
fn brs_equals_brute_force_best_reply_on_random_trees() {
    let (mut cutoffs, mut differ) = (0, 0);
    for (what, t) in random_trees() {
        let root = t.initial();
        let full = t.max_plies(&root);
        cutoffs += check_brs(&t, &root, full, &what).cutoffs;
        for depth in 1..4 {
            check_brs(&t, &root, depth, &what);
        }
        let me = root_player(&t, &root);
        differ += (brs_ref(&t, &root, me, None, full) != paranoid_ref(&t, &root, me, full)) as u32;
    }
    assert!(cutoffs > 100, "only {cutoffs} cutoffs");
    assert!(
        differ > 50,
        "best-reply differs from paranoid on only {differ} trees"
    );
}

#[test]
fn brs_without_the_hook_is_paranoid() {
    for (what, t) in random_trees().take(100) {
        let t = t.without_hook();
        let root = t.initial();
        let brs = run(&t, &root, MultiAlgorithm::Brs);
        let par = run(&t, &root, MultiAlgorithm::Paranoid);
        assert_eq!(brs.values, par.values, "{what}");
        assert_eq!(brs.best_move, par.best_move, "{what}");
    }
}

// ---------------------------------------------------------------------------------------------
// All three: budgets and traces.

#[test]
fn n_player_searches_respect_a_node_budget() {
    let g = pig(4, 10);
    for algo in [
        MultiAlgorithm::MaxnPlain,
        MultiAlgorithm::Maxn,
        MultiAlgorithm::Paranoid,
        MultiAlgorithm::Brs,
    ] {
        let limits = MultiLimits {
            nodes: Some(500),
            ..MultiLimits::default()
        };
        let r = search(&g, &g.initial(), algo, &limits, None).unwrap();
        assert!(r.stopped, "{algo}");
        assert!(!r.exact, "{algo}");
        // The nodes of the unfinished iteration are counted too, and stop at the budget.
        assert_eq!(r.stats.nodes(), 500, "{algo}");
        assert!(r.depth >= 1, "{algo}");
    }
}

#[test]
fn n_player_traces_carry_one_payoff_per_player() {
    let g = pig(3, 9);
    for algo in [
        MultiAlgorithm::MaxnPlain,
        MultiAlgorithm::Maxn,
        MultiAlgorithm::Paranoid,
        MultiAlgorithm::Brs,
    ] {
        let (r, rec) = search_observed(
            &g,
            &g.initial(),
            algo,
            &MultiLimits::default(),
            None,
            Recorder::default(),
        )
        .unwrap();
        // Each settled value is a vector of three payoffs, even from paranoid's two-player view.
        assert!(rec.settled.iter().all(|(_, v, _)| v.len() == 3), "{algo}");
        let cuts = r.stats.cutoffs + r.stats.chance_cutoffs + r.stats.probe_cutoffs;
        if algo == MultiAlgorithm::Paranoid {
            // Star1's conventions: a node answered by the leaf bounds settles nothing, and a
            // cut at the last child is counted but skips nothing.
            assert!(rec.settled.len() as u64 <= r.stats.nodes(), "{algo}");
            assert!(rec.pruned.len() as u64 <= cuts, "{algo}");
            assert!(!rec.pruned.is_empty(), "{algo}");
        } else {
            // One settled value per visited node, one trace per cut.
            assert_eq!(rec.settled.len() as u64, r.stats.nodes(), "{algo}");
            assert_eq!(rec.pruned.len() as u64, cuts, "{algo}");
        }
        let (ply, root, exact) = rec.settled.last().unwrap();
        assert_eq!(
            (*ply, root.as_slice(), *exact),
            (0, r.values.as_slice(), true),
            "{algo}"
        );
    }
}

#[test]
fn node_counts_on_the_pig_table() {
    // Printed for the record (`--nocapture`); the relations that must hold are asserted.
    for (win, horizon, _, inner) in PIG_ROWS {
        let g = pig(win, horizon);
        let r: Vec<MultiResult<_>> = [
            MultiAlgorithm::MaxnPlain,
            MultiAlgorithm::Maxn,
            MultiAlgorithm::Paranoid,
            MultiAlgorithm::Brs,
        ]
        .into_iter()
        .map(|a| run(&g, &g.initial(), a))
        .collect();
        for x in &r {
            println!(
                "pig win {win} horizon {horizon}: {:<10} inner {:>7} nodes {:>7} cutoffs {:>6} value {:.10}",
                x.algo.name(),
                x.stats.inner(),
                x.stats.nodes(),
                x.stats.cutoffs,
                x.value
            );
        }
        assert_eq!(r[0].stats.inner(), inner);
        assert!(r[1].stats.inner() <= inner);
        assert!(r[2].stats.inner() <= inner);
        assert!(r.iter().all(|x| x.exact && x.best_move.is_some()));
    }
}
