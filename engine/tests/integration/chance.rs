//! Expectiminimax, Star1 and Star2: the published Pig values, and Star1 and Star2 against
//! expectiminimax on thousands of random chance trees, for any window.

use cutoff::game::{MoveBuffer, MoveList};
use cutoff::games::chance::pig::Pig;
use cutoff::multi::star::star_window;
use cutoff::multi::{
    search, BoundsTable, ChanceOutcome, Ctx, MultiAlgorithm, MultiGame, MultiLimits,
    NoMultiObserver, Outcomes, Payoffs, Turn,
};
use cutoff::rng::SplitMix64;

const ALGOS: [MultiAlgorithm; 4] = [
    MultiAlgorithm::Expectiminimax,
    MultiAlgorithm::Expectinegamax,
    MultiAlgorithm::Star1,
    MultiAlgorithm::Star2,
];

/// The table: (players, win, faces, horizon, piglet), value, decision and chance nodes
/// of the full tree (the first row's split is given; the others total).
fn rows() -> Vec<(Pig, f64, u64)> {
    vec![
        (Pig::new(2, 4, 3, 6, false).unwrap(), 8.0 / 27.0, 886),
        (Pig::new(2, 5, 3, 8, false).unwrap(), 0.256058527663, 10_431),
        (Pig::new(2, 6, 6, 6, false).unwrap(), 0.544495884774, 4_193),
        (Pig::new(2, 3, 2, 8, true).unwrap(), 0.0703125, 3_837),
    ]
}

#[test]
fn pig_values_and_node_counts() {
    for (pig, value, inner) in rows() {
        let r = search(
            &pig,
            &pig.initial(),
            MultiAlgorithm::Expectiminimax,
            &MultiLimits::default(),
            None,
        )
        .unwrap();
        assert!((r.value - value).abs() < 1e-11, "{pig:?}: {}", r.value);
        assert_eq!(r.stats.inner(), inner, "{pig:?}");
        assert!(r.exact);
        let n = search(
            &pig,
            &pig.initial(),
            MultiAlgorithm::Expectinegamax,
            &MultiLimits::default(),
            None,
        )
        .unwrap();
        assert!((n.value - r.value).abs() < 1e-12);
        assert_eq!(n.stats, r.stats);
    }
    let first = Pig::new(2, 4, 3, 6, false).unwrap();
    let r = search(
        &first,
        &first.initial(),
        MultiAlgorithm::Expectiminimax,
        &MultiLimits::default(),
        None,
    )
    .unwrap();
    assert_eq!((r.stats.decision_nodes, r.stats.chance_nodes), (709, 177));
}

#[test]
fn star_equals_expectiminimax_on_pig() {
    for (pig, value, _) in rows() {
        for algo in [MultiAlgorithm::Star1, MultiAlgorithm::Star2] {
            for table in [None, Some(BoundsTable::new(4))] {
                let r = search(
                    &pig,
                    &pig.initial(),
                    algo,
                    &MultiLimits::default(),
                    table.as_ref(),
                )
                .unwrap();
                assert!(
                    (r.value - value).abs() < 1e-11,
                    "{algo} {pig:?}: {}",
                    r.value
                );
                assert!(r.exact);
                assert!(r.best_move.is_some());
            }
            // Deepening under a node budget that is never reached ends on the exact value.
            let t = BoundsTable::new(4);
            let lim = MultiLimits {
                nodes: Some(u64::MAX / 2),
                ..Default::default()
            };
            let r = search(&pig, &pig.initial(), algo, &lim, Some(&t)).unwrap();
            assert!((r.value - value).abs() < 1e-11, "{algo} deepening {pig:?}");
            assert!(r.exact && !r.stopped);
        }
    }
}

#[test]
fn star_windows_on_pig() {
    let mut rng = SplitMix64::new(11);
    for (pig, value, _) in rows() {
        let depth = pig.max_plies(&pig.initial());
        for _ in 0..40 {
            let (a, b) = window(&mut rng, -1.0, 1.0);
            for probe in [false, true] {
                let mut ctx = Ctx::new(
                    &pig,
                    &pig.initial(),
                    &MultiLimits::default(),
                    None,
                    NoMultiObserver,
                );
                let r = star_window(&mut ctx, &pig.initial(), depth, probe, a, b).unwrap();
                check_window(value, r, a, b);
            }
        }
    }
}

/// A random window inside `[lo - 0.1, hi + 0.1]`, alpha < beta.
fn window(rng: &mut SplitMix64, lo: f64, hi: f64) -> (f64, f64) {
    let w = hi - lo + 0.2;
    let x = lo - 0.1 + rng.next_f64() * w;
    let y = lo - 0.1 + rng.next_f64() * w;
    if x < y {
        (x, y)
    } else if y < x {
        (y, x)
    } else {
        (x, x + 0.01)
    }
}

fn ok_window(v: f64, r: f64, a: f64, b: f64) -> bool {
    const EPS: f64 = 1e-12;
    if v <= a {
        r <= a + EPS && r >= v - EPS
    } else if v >= b {
        r >= b - EPS && r <= v + EPS
    } else {
        (r - v).abs() < EPS
    }
}

/// The fail-soft contract: a result at most alpha is an upper bound on the true value `v`, at
/// least beta a lower bound, anything between equals it (all up to rounding).
fn check_window(v: f64, r: f64, a: f64, b: f64) {
    const EPS: f64 = 1e-12;
    if v <= a {
        assert!(
            r <= a + EPS,
            "fail-low result {r} above alpha {a} (value {v})"
        );
        assert!(r >= v - EPS, "fail-low result {r} below the value {v}");
    } else if v >= b {
        assert!(
            r >= b - EPS,
            "fail-high result {r} below beta {b} (value {v})"
        );
        assert!(r <= v + EPS, "fail-high result {r} above the value {v}");
    } else {
        assert!(
            (r - v).abs() < EPS,
            "result {r} inside ({a}, {b}) but the value is {v}"
        );
    }
}

/// A random two-player chance tree held in a vector: the test's own game, so that the searches
/// meet every shape (decision after decision, chance after chance, the same player moving
/// twice, leaves at any depth).
#[derive(Debug)]
struct ChanceTree {
    nodes: Vec<TNode>,
    bounds: (f64, f64),
}

#[derive(Debug)]
enum TNode {
    Leaf(f64),
    Decision(usize, Vec<usize>),
    Chance(Vec<(usize, f64)>),
}

impl ChanceTree {
    /// `alternate`: decision nodes lead only to chance nodes and leaves, chance nodes to the
    /// other player's decision nodes and leaves (Ballard's *-minimax trees).
    fn random(rng: &mut SplitMix64, depth: usize, alternate: bool) -> ChanceTree {
        let mut t = ChanceTree {
            nodes: Vec::new(),
            bounds: (-8.0, 8.0),
        };
        t.build(rng, depth, alternate, Kind::Decision(0));
        t
    }

    fn build(&mut self, rng: &mut SplitMix64, depth: usize, alt: bool, kind: Kind) -> usize {
        let id = self.nodes.len();
        if depth == 0 || rng.below(8) == 0 {
            // Quarter steps keep the expectations of short sums exact in binary.
            let v = rng.below(65) as f64 / 4.0 - 8.0;
            self.nodes.push(TNode::Leaf(v));
            return id;
        }
        self.nodes.push(TNode::Leaf(0.0));
        let width = 1 + rng.below(4) as usize;
        match kind {
            Kind::Decision(p) => {
                let mut kids = Vec::new();
                for _ in 0..width {
                    let next = if alt || rng.below(2) == 0 {
                        Kind::Chance(p)
                    } else {
                        Kind::Decision(1 - p)
                    };
                    kids.push(self.build(rng, depth - 1, alt, next));
                }
                self.nodes[id] = TNode::Decision(p, kids);
            }
            Kind::Chance(p) => {
                let weights: Vec<f64> = (0..width).map(|_| 1.0 + rng.below(4) as f64).collect();
                let total: f64 = weights.iter().sum();
                let mut kids = Vec::new();
                for w in weights {
                    let next = if alt {
                        Kind::Decision(1 - p)
                    } else {
                        match rng.below(5) {
                            0 => Kind::Chance(p),
                            1 | 2 => Kind::Decision(p),
                            _ => Kind::Decision(1 - p),
                        }
                    };
                    kids.push((self.build(rng, depth - 1, alt, next), w / total));
                }
                self.nodes[id] = TNode::Chance(kids);
            }
        }
        id
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Decision(usize),
    Chance(usize),
}

impl MultiGame for ChanceTree {
    type Pos = usize;
    type Move = usize;
    type Moves = MoveList<usize, 8>;

    fn players(&self) -> usize {
        2
    }
    fn initial(&self) -> usize {
        0
    }
    fn turn(&self, pos: &usize) -> Turn {
        match &self.nodes[*pos] {
            TNode::Leaf(_) => Turn::Terminal,
            TNode::Decision(p, _) => Turn::Player(*p),
            TNode::Chance(_) => Turn::Chance,
        }
    }
    fn payoffs(&self, pos: &usize) -> Payoffs {
        match self.nodes[*pos] {
            TNode::Leaf(v) => Payoffs::zero_sum2(0, v),
            _ => unreachable!("payoffs of an inner node"),
        }
    }
    fn moves(&self, pos: &usize, out: &mut Self::Moves) {
        out.clear();
        if let TNode::Decision(_, kids) = &self.nodes[*pos] {
            for &k in kids {
                out.push(k);
            }
        }
    }
    fn outcomes(&self, pos: &usize, out: &mut Outcomes<usize>) {
        out.clear();
        if let TNode::Chance(kids) = &self.nodes[*pos] {
            for &(k, prob) in kids {
                out.push(ChanceOutcome { mv: k, prob });
            }
        }
    }
    fn play(&self, _pos: &usize, mv: usize) -> usize {
        mv
    }
    fn key(&self, pos: &usize) -> u64 {
        cutoff::rng::splitmix64(*pos as u64)
    }
    fn max_plies(&self, _pos: &usize) -> usize {
        16
    }
    fn payoff_bounds(&self) -> (f64, f64) {
        self.bounds
    }
    fn payoff_sum(&self) -> Option<f64> {
        Some(0.0)
    }
    fn evaluate(&self, pos: &usize) -> Payoffs {
        // A deterministic guess in the bounds, so depth-limited searches are comparable.
        Payoffs::zero_sum2(0, (*pos % 17) as f64 / 2.0 - 4.0)
    }
    fn name(&self) -> &'static str {
        "chance-tree"
    }
}

fn value(
    t: &ChanceTree,
    algo: MultiAlgorithm,
    depth: Option<usize>,
    tt: Option<&BoundsTable>,
) -> f64 {
    let lim = MultiLimits {
        depth,
        ..Default::default()
    };
    search(t, &0, algo, &lim, tt).unwrap().values.get(0)
}

#[test]
fn star_equals_expectiminimax_on_random_chance_trees() {
    let mut rng = SplitMix64::new(2026);
    let tt = BoundsTable::new(1);
    for i in 0..3000 {
        let t = ChanceTree::random(&mut rng, 2 + i % 8, i % 3 == 0);
        let depth = if i % 4 == 0 { Some(1 + i % 6) } else { None };
        let want = value(&t, MultiAlgorithm::Expectiminimax, depth, None);
        for algo in ALGOS {
            for table in [None, Some(&tt)] {
                tt.clear();
                let got = value(&t, algo, depth, table);
                assert!(
                    (got - want).abs() < 1e-12,
                    "tree {i} {algo} table {}: {got} against {want}",
                    table.is_some()
                );
            }
        }
        // Deepening with the table (a budget that is never reached) ends on the same value.
        for algo in [MultiAlgorithm::Star1, MultiAlgorithm::Star2] {
            tt.clear();
            let lim = MultiLimits {
                depth,
                nodes: Some(u64::MAX / 2),
                ..Default::default()
            };
            let got = search(&t, &0, algo, &lim, Some(&tt)).unwrap().values.get(0);
            assert!((got - want).abs() < 1e-12, "tree {i} {algo} deepening");
        }
        // Any window: the fail-soft contract.
        let full = depth.unwrap_or(16);
        for _ in 0..4 {
            let (a, b) = window(&mut rng, -8.0, 8.0);
            for probe in [false, true] {
                let lim = MultiLimits::default();
                let mut ctx = Ctx::new(&t, &0, &lim, None, NoMultiObserver);
                let r = star_window(&mut ctx, &0, full, probe, a, b).unwrap();
                if std::env::var("DBG").is_ok() && !ok_window(want, r, a, b) {
                    eprintln!("tree {i} probe {probe} depth {depth:?} window ({a}, {b}) got {r} want {want}\n{t:?}");
                }
                check_window(want, r, a, b);
            }
        }
    }
}

#[test]
fn star1_with_infinite_bounds_visits_expectiminimax_nodes() {
    let mut rng = SplitMix64::new(5);
    let lim = MultiLimits {
        bounds: Some((f64::NEG_INFINITY, f64::INFINITY)),
        ..Default::default()
    };
    let mut pruned_some = false;
    for i in 0..1000 {
        let t = ChanceTree::random(&mut rng, 3 + i % 6, true);
        let e = search(&t, &0, MultiAlgorithm::Expectiminimax, &lim, None).unwrap();
        let s = search(&t, &0, MultiAlgorithm::Star1, &lim, None).unwrap();
        assert_eq!(s.stats.nodes(), e.stats.nodes(), "tree {i}");
        assert_eq!(s.stats.inner(), e.stats.inner(), "tree {i}");
        assert!((s.values.get(0) - e.values.get(0)).abs() < 1e-12);
        // With the leaf bounds, Star1 prunes: never more nodes, fewer on some trees.
        let b = search(&t, &0, MultiAlgorithm::Star1, &MultiLimits::default(), None).unwrap();
        assert!(b.stats.nodes() <= e.stats.nodes(), "tree {i}");
        pruned_some |= b.stats.nodes() < e.stats.nodes();
    }
    assert!(pruned_some);
}

#[test]
fn star_prunes_pig() {
    for (pig, _, _) in rows() {
        let count = |algo| {
            search(&pig, &pig.initial(), algo, &MultiLimits::default(), None)
                .unwrap()
                .stats
                .nodes()
        };
        let e = count(MultiAlgorithm::Expectiminimax);
        let s1 = count(MultiAlgorithm::Star1);
        let s2 = count(MultiAlgorithm::Star2);
        assert!(s1 < e, "{pig:?}: star1 {s1} against {e}");
        assert!(s2 < e, "{pig:?}: star2 {s2} against {e}");
    }
}

#[test]
fn budgets_stop_and_report_the_last_iteration() {
    let pig = Pig::new(2, 10, 6, 40, false).unwrap();
    let lim = MultiLimits {
        nodes: Some(20_000),
        ..Default::default()
    };
    let t = BoundsTable::new(4);
    let r = search(&pig, &pig.initial(), MultiAlgorithm::Star2, &lim, Some(&t)).unwrap();
    assert!(r.stopped && !r.exact);
    assert!(r.depth >= 1);
    assert!(r.stats.nodes() <= 20_000);
    assert!(r.best_move.is_some());
}

#[test]
fn two_player_searches_refuse_three_players() {
    let pig = Pig::new(3, 3, 3, 9, false).unwrap();
    for algo in ALGOS {
        let e = search(&pig, &pig.initial(), algo, &MultiLimits::default(), None).unwrap_err();
        assert!(e.0.contains("two players"), "{e}");
    }
}
