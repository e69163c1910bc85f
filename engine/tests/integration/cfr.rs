//! Imperfect information: the Kuhn and Leduc trees, exact evaluation (expected values, best
//! responses, NashConv), and CFR, CFR+, linear and discounted CFR, against published numbers
//! and against a plain recursive CFR.

use cutoff::cfr::tree::{CHANCE, TERMINAL};
use cutoff::cfr::{
    best_response, expected_values, exploitability, nash_conv, Cfr, Extensive, ExtensiveTree,
    Params, TreeError, Variant,
};
use cutoff::games::imperfect::kuhn::Kuhn;
use cutoff::games::imperfect::leduc::Leduc;
use cutoff::multi::Turn;
use cutoff::rng::SplitMix64;

/// Kuhn poker's value for the first player.
const KUHN_VALUE: f64 = -1.0 / 18.0;

/// Leduc hold'em's value for the first player.
const LEDUC_VALUE: f64 = -0.085606424078;

fn kuhn() -> ExtensiveTree {
    ExtensiveTree::build(&Kuhn).expect("Kuhn builds")
}

fn leduc() -> ExtensiveTree {
    ExtensiveTree::build(&Leduc).expect("Leduc builds")
}

// ---------------------------------------------------------------------------------------------
// The trees.

#[test]
fn kuhn_tree_has_12_information_sets() {
    let t = kuhn();
    assert_eq!(t.players(), 2);
    assert_eq!(t.infosets().len(), 12);
    assert_eq!(t.player_infosets(0).len(), 6);
    assert_eq!(t.player_infosets(1).len(), 6);
    // 6 deals x (root, p, b, pb); 6 x (pp, pbp, pbb, bp, bb); the deal one card at a time.
    assert_eq!(t.decision_nodes(), 24);
    assert_eq!(t.terminal_nodes(), 30);
    assert_eq!(t.chance_nodes(), 4);
    assert_eq!(t.nodes(), 58);
    assert_eq!(t.slots(), 24);
    for key in ["J", "Q", "K", "Jpb", "Qpb", "Kpb"] {
        let i = t.find_infoset(key).expect(key);
        assert_eq!(t.infosets()[i].player, 0, "{key}");
        // Each of the first player's sets holds the two deals of the other card.
        assert_eq!(t.infoset_nodes(i).len(), 2, "{key}");
    }
    for key in ["Jp", "Qp", "Kp", "Jb", "Qb", "Kb"] {
        assert_eq!(t.infosets()[t.find_infoset(key).expect(key)].player, 1);
    }
    let kb = t.find_infoset("Kb").unwrap();
    let f = t.infosets()[kb].first_slot as usize;
    assert_eq!(t.action_name(f), "fold");
    assert_eq!(t.action_name(f + 1), "call");
}

#[test]
fn leduc_tree_has_936_information_sets_and_the_published_node_counts() {
    let t = leduc();
    assert_eq!(t.infosets().len(), 936);
    assert_eq!(t.player_infosets(0).len(), 468);
    assert_eq!(t.player_infosets(1).len(), 468);
    assert_eq!(t.decision_nodes(), 3_780);
    assert_eq!(t.terminal_nodes(), 5_520);
    // The deal one card at a time: 1 chance node for the first card, 6 for the second, and
    // 30 deals x 5 first-round betting lines that reach the public card.
    assert_eq!(t.chance_nodes(), 1 + 6 + 150);
    assert_eq!(t.nodes(), 157 + 3_780 + 5_520);
    // Per private card 14 slots in the first round; per (card, public card) 5 x 14.
    assert_eq!(t.slots(), 6 * 14 + 30 * 70);
    // The first round: 36 sets of 5 histories (the other's card); the second: 900 of 4.
    let sizes: Vec<usize> = (0..936).map(|i| t.infoset_nodes(i).len()).collect();
    assert_eq!(sizes.iter().filter(|&&n| n == 5).count(), 36);
    assert_eq!(sizes.iter().filter(|&&n| n == 4).count(), 900);
    for (key, player, actions) in [
        ("K1:", 0, 2),
        ("K1:r", 1, 3),
        ("J2:rr", 0, 2),
        ("Q1:cr", 0, 3),
        ("J1K2:rc/r", 1, 3),
        ("J1K2:crrc/rr", 0, 2),
    ] {
        let i = t.find_infoset(key).expect(key);
        assert_eq!(t.infosets()[i].player, player, "{key}");
        assert_eq!(t.infosets()[i].actions, actions, "{key}");
    }
    // Chance reaches: every deal of two private cards and a public card is 1/120.
    for n in 0..t.nodes() {
        if t.owner(n) < 2 && t.infosets()[t.node_infoset(n)].key.contains('/') {
            assert!((t.chance_reach(n) - 1.0 / 120.0).abs() < 1e-15);
        }
    }
}

#[test]
fn trees_are_consistent() {
    for t in [kuhn(), leduc()] {
        let mut kinds = [0usize; 3];
        for n in 0..t.nodes() {
            match t.owner(n) {
                TERMINAL => {
                    kinds[2] += 1;
                    assert!(t.children(n).is_empty());
                    let p = t.node_payoffs(n);
                    assert_eq!(p[0], -p[1], "zero-sum");
                }
                CHANCE => {
                    kinds[1] += 1;
                    let sum: f64 = t.node_chance_probs(n).iter().sum();
                    assert!((sum - 1.0).abs() < 1e-12);
                    assert_eq!(t.node_chance_probs(n).len(), t.children(n).len());
                }
                p => {
                    kinds[0] += 1;
                    let set = &t.infosets()[t.node_infoset(n)];
                    assert_eq!(set.player, p as usize);
                    assert_eq!(set.actions as usize, t.children(n).len());
                    assert!(t.infoset_nodes(t.node_infoset(n)).contains(&(n as u32)));
                }
            }
            // Breadth first: children after their parent, consecutive.
            for c in t.children(n) {
                assert!(c > n);
            }
        }
        assert_eq!(
            kinds,
            [t.decision_nodes(), t.chance_nodes(), t.terminal_nodes()]
        );
        // Slots: every set's run, in order, and each slot knows its set.
        let mut next = 0;
        for (i, set) in t.infosets().iter().enumerate() {
            assert_eq!(set.first_slot as usize, next);
            for a in 0..set.actions as usize {
                assert_eq!(t.slot_infoset(next + a), i);
            }
            next += set.actions as usize;
            // Perfect recall: the parent slot is the same player's and comes earlier.
            if set.parent_slot != cutoff::cfr::tree::NO_SLOT {
                let parent = t.slot_infoset(set.parent_slot as usize);
                assert!(parent < i);
                assert_eq!(t.infosets()[parent].player, set.player);
            }
        }
        assert_eq!(next, t.slots());
    }
}

/// Plays `actions` (outcome or action numbers) from the root of Leduc.
fn leduc_line(actions: &[usize]) -> cutoff::games::imperfect::leduc::LeducState {
    let g = Leduc;
    actions.iter().fold(g.root(), |s, &a| g.play(&s, a))
}

#[test]
fn leduc_rules() {
    let g = Leduc;
    let mut pay = [0.0; 2];
    // K1 against J1 (outcome 0 of the 5 left), raise, call; public K2 (outcome 3 of the 4
    // left: J2 Q1 Q2 K2); raise, raise, call: the pair of kings wins 1 + 2 + 4 + 4.
    let s = leduc_line(&[4, 0, 1, 1, 3, 1, 2, 1]);
    assert_eq!(s.cards, [4, 0, 5]);
    assert_eq!(g.turn(&s), Turn::Terminal);
    g.payoffs(&s, &mut pay);
    assert_eq!(pay, [11.0, -11.0]);
    // The same deal, the second player to act after the public card's raise.
    let s = leduc_line(&[4, 0, 1, 1, 3, 1]);
    assert_eq!(g.turn(&s), Turn::Player(1));
    let mut key = String::new();
    g.infoset_key(&s, &mut key);
    assert_eq!(key, "J1K2:rc/r");
    assert_eq!(g.actions(&s), 3);
    assert_eq!(g.action_name(&s, 0), "fold");
    // A raise, a fold: the folder loses the ante.
    let s = leduc_line(&[4, 0, 1, 0]);
    assert_eq!(g.turn(&s), Turn::Terminal);
    g.payoffs(&s, &mut pay);
    assert_eq!(pay, [1.0, -1.0]);
    // Q1 against Q2, public J1, all checks: a split.
    let s = leduc_line(&[2, 2, 0, 0, 0, 0, 0]);
    assert_eq!(s.cards, [2, 3, 0]);
    assert_eq!(g.turn(&s), Turn::Terminal);
    g.payoffs(&s, &mut pay);
    assert_eq!(pay, [0.0, 0.0]);
    // Q1 against K1 with public Q2: the pair of queens beats the king; check, bet, call
    // in the first round (3 each), check, check in the second.
    let s = leduc_line(&[2, 3, 0, 1, 1, 2, 0, 0]);
    assert_eq!(s.cards, [2, 4, 3]);
    g.payoffs(&s, &mut pay);
    assert_eq!(pay, [3.0, -3.0]);
    // Two raises are the most in a round: after bet and raise, fold or call only.
    let s = leduc_line(&[0, 0, 1, 2]);
    assert_eq!(g.turn(&s), Turn::Player(0));
    assert_eq!(g.actions(&s), 2);
}

/// A game built to break the builder's checks.
struct Broken(u8);

impl Extensive for Broken {
    type State = Vec<usize>;
    fn name(&self) -> &'static str {
        "broken"
    }
    fn players(&self) -> usize {
        1
    }
    fn root(&self) -> Vec<usize> {
        Vec::new()
    }
    fn turn(&self, s: &Vec<usize>) -> Turn {
        match (self.0, s.len()) {
            (_, 2) => Turn::Terminal,
            (1 | 2, 0) => Turn::Chance,
            _ => Turn::Player(0),
        }
    }
    fn actions(&self, s: &Vec<usize>) -> usize {
        // Mode 1: the set's histories disagree on the number of actions.
        if self.0 == 1 {
            2 + s[0]
        } else {
            2
        }
    }
    fn chance(&self, _s: &Vec<usize>, out: &mut Vec<f64>) {
        out.clear();
        // Mode 2: probabilities that do not sum to 1.
        out.extend_from_slice(if self.0 == 2 {
            &[0.5, 0.6]
        } else {
            &[0.5, 0.5]
        });
    }
    fn play(&self, s: &Vec<usize>, a: usize) -> Vec<usize> {
        let mut t = s.clone();
        t.push(a);
        t
    }
    fn infoset_key(&self, s: &Vec<usize>, out: &mut String) {
        // Mode 0: the second decision forgets the first.
        *out = format!("x{}", s.len());
    }
    fn payoffs(&self, _s: &Vec<usize>, out: &mut [f64]) {
        out[0] = 0.0;
    }
}

#[test]
fn the_builder_rejects_broken_games() {
    assert!(matches!(
        ExtensiveTree::build(&Broken(0)),
        Err(TreeError::NotPerfectRecall(_))
    ));
    assert!(matches!(
        ExtensiveTree::build(&Broken(1)),
        Err(TreeError::Inconsistent(_))
    ));
    assert!(matches!(
        ExtensiveTree::build(&Broken(2)),
        Err(TreeError::BadChance(_))
    ));
}

// ---------------------------------------------------------------------------------------------
// Exact evaluation.

/// Kuhn poker's equilibrium with the first player bluffing the jack with probability `alpha`
/// (0 to 1/3), by information set: the probability of betting (or calling).
fn kuhn_equilibrium(t: &ExtensiveTree, alpha: f64) -> Vec<f64> {
    let bet = [
        ("J", alpha),
        ("Q", 0.0),
        ("K", 3.0 * alpha),
        ("Jpb", 0.0),
        ("Qpb", alpha + 1.0 / 3.0),
        ("Kpb", 1.0),
        ("Jp", 1.0 / 3.0),
        ("Qp", 0.0),
        ("Kp", 1.0),
        ("Jb", 0.0),
        ("Qb", 1.0 / 3.0),
        ("Kb", 1.0),
    ];
    let mut s = vec![0.0; t.slots()];
    for (key, b) in bet {
        let f = t.infosets()[t.find_infoset(key).expect(key)].first_slot as usize;
        s[f] = 1.0 - b;
        s[f + 1] = b;
    }
    s
}

#[test]
fn kuhn_equilibrium_value_is_minus_one_eighteenth_exactly() {
    let t = kuhn();
    for alpha in [0.0, 1.0 / 6.0, 1.0 / 3.0] {
        let eq = kuhn_equilibrium(&t, alpha);
        let ev = expected_values(&t, &eq);
        assert!((ev[0] - KUHN_VALUE).abs() < 1e-15, "{alpha}: {ev:?}");
        assert!((ev[0] + ev[1]).abs() < 1e-15);
        // No player gains by deviating: best responses earn exactly the game value.
        assert!((best_response(&t, &eq, 0).value - KUHN_VALUE).abs() < 1e-15);
        assert!((best_response(&t, &eq, 1).value + KUHN_VALUE).abs() < 1e-15);
        assert!(nash_conv(&t, &eq).abs() < 1e-15);
    }
}

#[test]
fn nash_conv_of_the_uniform_strategy() {
    let t = kuhn();
    let u = t.uniform_strategy();
    assert!((nash_conv(&t, &u) - 11.0 / 12.0).abs() < 1e-15);
    assert!((exploitability(&t, &u) - 11.0 / 24.0).abs() < 1e-15);
    let t = leduc();
    let u = t.uniform_strategy();
    assert!((nash_conv(&t, &u) - 4.747222222222222).abs() < 1e-12);
    assert!((exploitability(&t, &u) - 4.747222222222222 / 2.0).abs() < 1e-12);
}

/// A random profile: each set's probabilities drawn with splitmix64 and normalised, some of
/// them exactly 0.
fn random_profile(t: &ExtensiveTree, g: &mut SplitMix64) -> Vec<f64> {
    let mut s = vec![0.0; t.slots()];
    for set in t.infosets() {
        let f = set.first_slot as usize;
        let n = set.actions as usize;
        for x in &mut s[f..f + n] {
            *x = if g.below(4) == 0 { 0.0 } else { g.next_f64() };
        }
        let sum: f64 = s[f..f + n].iter().sum();
        if sum > 0.0 {
            s[f..f + n].iter_mut().for_each(|x| *x /= sum);
        } else {
            s[f] = 1.0;
        }
    }
    s
}

#[test]
fn best_responses_are_best_and_agree_with_the_expected_value() {
    let mut g = SplitMix64::new(11);
    for t in [kuhn(), leduc()] {
        for _ in 0..4 {
            let profile = random_profile(&t, &mut g);
            let ev = expected_values(&t, &profile);
            assert!((ev[0] + ev[1]).abs() < 1e-12, "zero-sum");
            for (p, &ev_p) in ev.iter().enumerate() {
                let br = best_response(&t, &profile, p);
                // The pure strategy it returns earns the value it reports...
                let v = expected_values(&t, &br.profile)[p];
                assert!(
                    (v - br.value).abs() < 1e-12,
                    "{}: {v} {}",
                    t.name(),
                    br.value
                );
                // ...at least what the profile earns, and what any other strategy earns.
                assert!(br.value >= ev_p - 1e-12);
                for _ in 0..3 {
                    let other = random_profile(&t, &mut g);
                    let mut mixed = profile.clone();
                    for &i in t.player_infosets(p) {
                        let set = &t.infosets()[i as usize];
                        let f = set.first_slot as usize;
                        let n = set.actions as usize;
                        mixed[f..f + n].copy_from_slice(&other[f..f + n]);
                    }
                    assert!(expected_values(&t, &mixed)[p] <= br.value + 1e-12);
                }
                // Responding to a best response's opponents changes nothing.
                let again = best_response(&t, &br.profile, p);
                assert!((again.value - br.value).abs() < 1e-12);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// CFR.

/// The published exploitabilities (NashConv / 2) after 1, 10, 100 and 1000 iterations, from an
/// independent implementation with alternating updates.
const PUBLISHED: [(&str, Params, [&str; 4]); 4] = [
    (
        "kuhn",
        Params::VANILLA,
        ["0.458333", "0.0686988", "0.00822598", "0.000937617"],
    ),
    (
        "kuhn",
        Params::PLUS,
        ["0.458333", "0.0326871", "0.0011944", "8.73653e-5"],
    ),
    (
        "leduc",
        Params::VANILLA,
        ["2.37361", "0.888579", "0.0957164", "0.0118178"],
    ),
    (
        "leduc",
        Params::PLUS,
        ["2.37361", "0.610439", "0.013416", "0.000257152"],
    ),
];

/// Whether `got` agrees with the printed number `printed`: within 1e-6 relative, or (for
/// numbers printed to fewer digits) within half a unit of its last digit.
fn agrees(got: f64, printed: &str) -> bool {
    let want: f64 = printed.parse().unwrap();
    let (mantissa, exp) = match printed.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap()),
        None => (printed, 0),
    };
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    let half_unit = 0.5 * 10f64.powi(exp - decimals);
    let diff = (got - want).abs();
    diff <= 1e-6 * want.abs() || diff <= half_unit * (1.0 + 1e-9)
}

#[test]
fn exploitability_matches_the_published_table() {
    let (k, l) = (kuhn(), leduc());
    for (game, params, row) in PUBLISHED {
        let t = if game == "kuhn" { &k } else { &l };
        let mut cfr = Cfr::new(t).params(params);
        let mut avg = vec![0.0; t.slots()];
        for (iterations, printed) in [1, 10, 100, 1000].into_iter().zip(row) {
            cfr.run(iterations - cfr.iterations());
            cfr.average_strategy_into(&mut avg);
            let e = exploitability(t, &avg);
            assert!(
                agrees(e, printed),
                "{game} {params:?} after {iterations}: {e:.9e}, published {printed}"
            );
        }
    }
}

#[test]
fn the_table_check_is_strict() {
    assert!(agrees(0.0118178, "0.0118178"));
    assert!(agrees(0.011817810, "0.0118178"));
    // The order of additions alone moved Leduc CFR+ to 2.513e-4 once: that must fail.
    assert!(!agrees(2.512999e-4, "0.000257152"));
    assert!(!agrees(0.0118173, "0.0118178"));
    assert!(agrees(8.736532e-5, "8.73653e-5"));
    assert!(agrees(0.001194404, "0.0011944"));
    assert!(!agrees(0.0011946, "0.0011944"));
}

/// A plain recursive CFR in the style of OpenSpiel's Python `CFRSolver`: per history,
/// `regret += cf_reach * (child - value)` straight into the cumulative regret, depth first.
struct Reference<'t> {
    tree: &'t ExtensiveTree,
    plus: bool,
    linear: bool,
    t: u64,
    policy: Vec<f64>,
    regret: Vec<f64>,
    avg: Vec<f64>,
}

impl<'t> Reference<'t> {
    fn new(tree: &'t ExtensiveTree, plus: bool, linear: bool) -> Self {
        Reference {
            tree,
            plus,
            linear,
            t: 0,
            policy: tree.uniform_strategy(),
            regret: vec![0.0; tree.slots()],
            avg: vec![0.0; tree.slots()],
        }
    }

    fn walk(&mut self, n: usize, p: usize, reach: [f64; 3]) -> [f64; 2] {
        let tree = self.tree;
        let o = tree.owner(n);
        if o == cutoff::cfr::tree::TERMINAL {
            let x = tree.node_payoffs(n);
            return [x[0], x[1]];
        }
        if o == cutoff::cfr::tree::CHANCE {
            let mut v = [0.0; 2];
            for (c, &w) in tree.children(n).zip(tree.node_chance_probs(n)) {
                let mut r = reach;
                r[2] *= w;
                let u = self.walk(c, p, r);
                v[0] += w * u[0];
                v[1] += w * u[1];
            }
            return v;
        }
        let q = o as usize;
        let set = &tree.infosets()[tree.node_infoset(n)];
        let f = set.first_slot as usize;
        let k = set.actions as usize;
        let mut child = [[0.0; 2]; 3];
        let mut v = [0.0; 2];
        for (a, c) in tree.children(n).enumerate() {
            let w = self.policy[f + a];
            let mut r = reach;
            r[q] *= w;
            child[a] = self.walk(c, p, r);
            v[0] += w * child[a][0];
            v[1] += w * child[a][1];
        }
        if q == p {
            let cf = reach[1 - q] * reach[2];
            let weight = if self.linear { self.t as f64 } else { 1.0 };
            for (a, u) in child.iter().enumerate().take(k) {
                self.regret[f + a] += cf * (u[q] - v[q]);
                self.avg[f + a] += weight * reach[q] * self.policy[f + a];
            }
        }
        v
    }

    fn iterate(&mut self) {
        self.t += 1;
        for p in 0..2 {
            self.walk(0, p, [1.0; 3]);
            for &i in self.tree.player_infosets(p) {
                let set = &self.tree.infosets()[i as usize];
                let f = set.first_slot as usize;
                let k = set.actions as usize;
                if self.plus {
                    for r in &mut self.regret[f..f + k] {
                        if *r < 0.0 {
                            *r = 0.0;
                        }
                    }
                }
                let pos: f64 = self.regret[f..f + k].iter().filter(|&&r| r > 0.0).sum();
                for a in 0..k {
                    self.policy[f + a] = if pos > 0.0 {
                        self.regret[f + a].max(0.0) / pos
                    } else {
                        1.0 / k as f64
                    };
                }
            }
        }
    }

    fn average(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.tree.slots()];
        for set in self.tree.infosets() {
            let f = set.first_slot as usize;
            let k = set.actions as usize;
            let s: f64 = self.avg[f..f + k].iter().sum();
            for a in 0..k {
                out[f + a] = if s > 0.0 {
                    self.avg[f + a] / s
                } else {
                    1.0 / k as f64
                };
            }
        }
        out
    }
}

#[test]
fn the_flat_solver_does_the_arithmetic_of_a_recursive_cfr() {
    // Same regrets bit for bit, so the same strategies, for CFR and CFR+.
    for t in [kuhn(), leduc()] {
        for (params, plus) in [(Params::VANILLA, false), (Params::PLUS, true)] {
            let mut flat = Cfr::new(&t).params(params);
            let mut rec = Reference::new(&t, plus, plus);
            for _ in 0..150 {
                flat.iterate();
                rec.iterate();
            }
            assert_eq!(flat.regrets(), &rec.regret[..], "{} {params:?}", t.name());
            assert_eq!(flat.current_strategy(), &rec.policy[..]);
            for (a, b) in flat.average_strategy().iter().zip(rec.average()) {
                assert!((a - b).abs() < 1e-12);
            }
        }
    }
}

#[test]
fn every_variant_converges_to_the_game_values() {
    let (k, l) = (kuhn(), leduc());
    for (t, value, iterations) in [(&k, KUHN_VALUE, 1000), (&l, LEDUC_VALUE, 1000)] {
        let mut last = f64::INFINITY;
        for v in Variant::ALL {
            let mut cfr = Cfr::new(t).variant(v);
            let mut e = Vec::new();
            for n in [10, 100, iterations] {
                cfr.run(n - cfr.iterations());
                e.push(exploitability(t, &cfr.average_strategy()));
            }
            assert!(
                e[0] > e[1] && e[1] > e[2],
                "{} {}: {e:?}",
                t.name(),
                v.name()
            );
            let avg = cfr.average_strategy();
            let ev = expected_values(t, &avg)[0];
            let nc = nash_conv(t, &avg);
            // The value lies between what each player's best response concedes.
            let hi = best_response(t, &avg, 0).value;
            let lo = -best_response(t, &avg, 1).value;
            assert!(
                lo <= value + 1e-12 && value <= hi + 1e-12,
                "{lo} {value} {hi}"
            );
            assert!((hi - lo - nc).abs() < 1e-12);
            assert!(lo <= ev && ev <= hi);
            match v {
                // Vanilla CFR converges as 1/sqrt(T) and linear CFR at a similar rate here;
                // the others are within 1e-3 of the value after 1000 iterations, and so are
                // both ends of their best-response bracket.
                Variant::Vanilla | Variant::Linear => {
                    assert!(e[2] < 0.015, "{} {}: {e:?}", t.name(), v.name())
                }
                Variant::Plus | Variant::Discounted => {
                    assert!(e[2] < 3e-4, "{} {}: {e:?}", t.name(), v.name());
                    assert!((ev - value).abs() < 1e-3, "{} {}: {ev}", t.name(), v.name());
                    assert!(hi - value < 1e-3 && value - lo < 1e-3);
                }
            }
            last = last.min(e[2]);
        }
        assert!(last < 2e-4, "{}: best {last}", t.name());
    }
}

#[test]
fn vanilla_cfr_gets_within_1e_3_of_the_values() {
    // Kuhn after 1000 iterations; Leduc, slower, after 3000.
    for (t, value, iterations) in [(kuhn(), KUHN_VALUE, 1000), (leduc(), LEDUC_VALUE, 3000)] {
        let mut cfr = Cfr::new(&t).params(Params::VANILLA);
        cfr.run(iterations);
        let ev = expected_values(&t, &cfr.average_strategy())[0];
        assert!((ev - value).abs() < 1e-3, "{}: {ev}", t.name());
    }
}

#[test]
fn strategies_are_distributions() {
    let t = leduc();
    for v in Variant::ALL {
        let mut cfr = Cfr::new(&t).variant(v);
        cfr.run(50);
        let avg = cfr.average_strategy();
        for s in [cfr.current_strategy(), &avg[..]] {
            for set in t.infosets() {
                let f = set.first_slot as usize;
                let p = &s[f..f + set.actions as usize];
                assert!(p.iter().all(|&x| (0.0..=1.0).contains(&x)));
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
        if v == Variant::Plus {
            assert!(cfr.regrets().iter().all(|&r| r >= 0.0));
        }
    }
    let i = t.find_infoset("K1:").unwrap();
    let line = t.format_infoset(&t.uniform_strategy(), i);
    assert_eq!(line, "K1:: check 0.5000 bet 0.5000");
}

// ---------------------------------------------------------------------------------------------
// No allocation per iteration (the counting allocator of `tests/integration/common/counting.rs`).

use crate::common;
use common::counting::counted;

#[test]
fn iterations_allocate_nothing() {
    let (_, n) = counted(|| std::hint::black_box(Vec::<u64>::with_capacity(10)));
    assert_eq!(n, 1, "the counter counts");
    let t = leduc();
    for v in Variant::ALL {
        let mut cfr = Cfr::new(&t).variant(v);
        let mut avg = vec![0.0; t.slots()];
        let (_, n) = counted(|| {
            cfr.run(20);
            cfr.average_strategy_into(&mut avg);
        });
        assert_eq!(n, 0, "{}: {n} allocations", v.name());
    }
}

#[test]
fn best_responses_to_converged_strategies_pin_the_published_values() {
    // Discounted CFR to a small exploitability: the two best responses bracket the game
    // value within their NashConv, so the published twelve digits of Leduc's value must lie
    // inside a narrow bracket. (Kuhn's value is checked exactly on its analytic equilibria
    // above.)
    let (t, value) = (leduc(), LEDUC_VALUE);
    let mut cfr = Cfr::new(&t).params(Params::DISCOUNTED);
    cfr.run(10_000);
    let avg = cfr.average_strategy();
    let hi = best_response(&t, &avg, 0).value;
    let lo = -best_response(&t, &avg, 1).value;
    eprintln!("leduc: {lo:.12} <= {value:.12} <= {hi:.12}");
    assert!(hi - lo < 2e-5, "bracket {}", hi - lo);
    assert!(
        lo <= value + 1e-12 && value <= hi + 1e-12,
        "{lo} {value} {hi}"
    );
}
