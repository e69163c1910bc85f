//! Hand-written general trees: chance nodes and vector leaves. The course's expectiminimax and
//! max^n examples by hand, the walk-through of the pruning searches, the `cutoff tree`
//! command's reports, drawings and errors, and every search against a brute force on random
//! trees.

use cutoff::games::chance::tree_multi::MultiTree;
use cutoff::multi::{self, MultiAlgorithm, MultiGame, MultiLimits, MultiResult};
use cutoff_app::walk::{MultiTrace, MultiWalk};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const EXPECTI_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../app/assets/trees/expectiminimax.tree"
);
const MAXN_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../app/assets/trees/maxn3.tree"
);

/// The course's expectiminimax example (the file's tree, without its comments): MAX, then
/// chance, then MIN, then leaves.
const EXPECTI: &str =
    "A:[0.5 (3 6)  0.5 (4 5)]\nB:[0.8 (1 7)  0.2 (10 9)]\nC:[1/3 (0 10) 2/3 (5 6)]";

/// The three-player max^n example (the file's tree).
const MAXN3: &str = "A:( A1:(<1 3 6> <4 1 5>)  A2:(<6 3 1> <5 4 1>) )\n\
                     B:( B1:(<4 2 4> <2 1 7>)  B2:(<7 2 1> <3 3 4>) )";

fn parse(text: &str) -> MultiTree {
    MultiTree::parse(text, 0).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn search(tree: &MultiTree, algo: MultiAlgorithm) -> MultiResult<u32> {
    multi::search(tree, &tree.initial(), algo, &MultiLimits::default(), None)
        .unwrap_or_else(|e| panic!("{algo}: {e}"))
}

/// Searches with a trace and reads the walk-through.
fn walk(tree: &MultiTree, algo: MultiAlgorithm) -> (MultiResult<u32>, MultiWalk) {
    let (r, trace) = multi::search_observed(
        tree,
        &tree.initial(),
        algo,
        &MultiLimits::default(),
        None,
        MultiTrace::default(),
    )
    .unwrap_or_else(|e| panic!("{algo}: {e}"));
    let w = MultiWalk::new(tree, &trace, algo);
    (r, w)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9
}

const TWO_PLAYER: [MultiAlgorithm; 4] = [
    MultiAlgorithm::Expectiminimax,
    MultiAlgorithm::Expectinegamax,
    MultiAlgorithm::Star1,
    MultiAlgorithm::Star2,
];

#[test]
fn the_file_holds_the_tests_tree() {
    let file = std::fs::read_to_string(EXPECTI_FILE).expect("the example file");
    let (a, b) = (parse(&file), parse(EXPECTI));
    assert_eq!(a.len(), b.len());
    for n in 0..a.len() as u32 {
        assert_eq!(a.name(n), b.name(n));
        assert_eq!(a.leaf_payoffs(n), b.leaf_payoffs(n));
        assert_eq!(a.prob_text(n), b.prob_text(n));
    }
    let file = std::fs::read_to_string(MAXN_FILE).expect("the example file");
    assert_eq!(parse(&file).len(), parse(MAXN3).len());
}

#[test]
fn expectiminimax_example_by_hand() {
    let t = parse(EXPECTI);
    assert_eq!(t.player_count(), 2);
    assert_eq!(t.chance_nodes(), 3);
    assert_eq!((t.len(), t.leaves(), t.height()), (22, 12, 3));
    // By hand: A = 0.5 * min(3, 6) + 0.5 * min(4, 5) = 3.5;
    //          B = 0.8 * min(1, 7) + 0.2 * min(10, 9) = 0.8 + 1.8 = 2.6;
    //          C = 1/3 * min(0, 10) + 2/3 * min(5, 6) = 10/3.
    // MAX takes A: 3.5.
    for algo in TWO_PLAYER {
        let r = search(&t, algo);
        assert!(close(r.value, 3.5), "{algo}: {}", r.value);
        assert!(close(r.values.get(1), -3.5), "{algo}");
        assert_eq!(r.best_move.map(|m| t.name(m)), Some("A".into()), "{algo}");
        assert!(r.exact, "{algo}");
    }
    // Expectiminimax settles every node: the chance nodes at their expectations.
    let (r, w) = walk(&t, MultiAlgorithm::Expectiminimax);
    assert_eq!(r.stats.nodes(), 22);
    assert_eq!(r.stats.chance_nodes, 3);
    assert!(w.pruned.is_empty());
    let chance: Vec<(String, f64)> = w
        .order
        .iter()
        .filter(|s| t.is_chance(s.node))
        .map(|s| (t.name(s.node), s.values.get(0)))
        .collect();
    assert_eq!(chance.len(), 3);
    assert_eq!((chance[0].0.as_str(), chance[1].0.as_str()), ("A", "B"));
    assert!(close(chance[0].1, 3.5) && close(chance[1].1, 2.6));
    assert!(close(chance[2].1, 10.0 / 3.0));
    assert_eq!(t.name(w.order.last().unwrap().node), "root");
}

#[test]
fn star1_cuts_the_chance_node_b_and_two_min_nodes() {
    let t = parse(EXPECTI);
    let (r, w) = walk(&t, MultiAlgorithm::Star1);
    assert!(close(r.value, 3.5));
    // With A = 3.5 in hand and every leaf within [-10, 10]: under B's first outcome the MIN
    // node (1 7) need not look past 1 (B could at best be 0.8 * 1 + 0.2 * 10 = 2.8), so 7 is
    // cut; then B itself is cut before its second outcome, with the bound 2.8. Under C's second
    // outcome, (5 6) needs more than (3.5 - 0) / (2/3) = 5.25 to matter: 5 cuts 6.
    let cuts: Vec<(String, String, &str, f64)> = w
        .pruned
        .iter()
        .map(|p| {
            (
                t.name(p.node),
                t.name(p.parent),
                cutoff_app::walk::cut_name(p.cut),
                p.bound,
            )
        })
        .collect();
    let want = [
        ("2.1.2", "2.1", "decision", 1.0),
        ("2.2", "B", "chance", 2.8),
        ("3.2.2", "3.2", "decision", 5.0),
    ];
    assert_eq!(cuts.len(), want.len(), "{cuts:?}");
    for (got, want) in cuts.iter().zip(want) {
        assert_eq!(
            (got.0.as_str(), got.1.as_str(), got.2),
            (want.0, want.1, want.2)
        );
        assert!(close(got.3, want.3), "{got:?}");
    }
    // B's cut counts, and C's fail-low too (a bound, though nothing is left to skip).
    assert!(r.stats.chance_cutoffs >= 1);
    assert!(r.stats.leaves < 12);
    let text = w.lines(&t);
    assert!(
        text.contains("2.2 (subtree of 3 nodes, p = 0.2): chance cut at B (chance), bound 2.8"),
        "{text}"
    );
    assert!(
        text.contains("2.1.2 (leaf 7): decision cut at 2.1 (MIN), bound 1"),
        "{text}"
    );
    // Star2 reaches the same value, with its probes.
    let (r2, w2) = walk(&t, MultiAlgorithm::Star2);
    assert!(close(r2.value, 3.5));
    assert!(r2.stats.nodes() <= 22);
    assert!(w2.pruned.iter().all(|p| t.parent(p.node) == Some(p.parent)));
}

#[test]
fn maxn_example_by_hand_with_the_tie_rule() {
    let t = parse(MAXN3);
    assert_eq!(t.player_count(), 3);
    assert_eq!(t.payoff_sum(), Some(10.0));
    // A1 (player 2): 6 > 5, (1, 3, 6). A2: 1 = 1, a tie: the first, (6, 3, 1).
    // A (player 1): 3 = 3, a tie: A1, (1, 3, 6). B1: 7 > 4, (2, 1, 7). B2: 4 > 1, (3, 3, 4).
    // B (player 1): 3 > 1: B2. The root (player 0): 3 > 1: B, (3, 3, 4).
    for algo in [MultiAlgorithm::Maxn, MultiAlgorithm::MaxnPlain] {
        let (r, w) = walk(&t, algo);
        assert_eq!(r.values.as_slice(), [3.0, 3.0, 4.0], "{algo}");
        assert_eq!(r.value, 3.0, "{algo}");
        assert_eq!(r.best_move.map(|m| t.name(m)), Some("B".into()), "{algo}");
        let settled = |name: &str| {
            w.order
                .iter()
                .rfind(|s| t.name(s.node) == name)
                .map(|s| s.values.as_slice().to_vec())
        };
        assert_eq!(settled("A2"), Some(vec![6.0, 3.0, 1.0]), "{algo}");
        assert_eq!(settled("A"), Some(vec![1.0, 3.0, 6.0]), "{algo}");
        assert_eq!(settled("B"), Some(vec![3.0, 3.0, 4.0]), "{algo}");
    }
    // A tie at the root keeps the first child even though the second is better for others.
    let tie = parse("<1 5 4> <1 2 7>");
    let r = search(&tie, MultiAlgorithm::MaxnPlain);
    assert_eq!(r.values.as_slice(), [1.0, 5.0, 4.0]);
    assert_eq!(r.best_move, Some(1));
    // A strictly better later child wins.
    let better = parse("<1 5 4> <2 1 7>");
    assert_eq!(
        search(&better, MultiAlgorithm::Maxn).values.as_slice(),
        [2.0, 1.0, 7.0]
    );
}

#[test]
fn maxn_through_chance_nodes_takes_the_mean_vector() {
    // Player 0 picks between a sure (2, 2, 2) and a coin flip whose outcomes are decided by
    // player 1: 0.5 * (4, 1, 1) + 0.5 * (1, 4, 1)... player 1 takes (1, 4, 1) over (4, 1, 1)
    // in the first outcome, and (0, 3, 3) over (6, 0, 0) in the second: the mean is
    // (0.5, 3.5, 2), so player 0 keeps the sure (2, 2, 2).
    let t = parse("<2 2 2> [0.5 (<4 1 1> <1 4 1>) 0.5 (<6 0 0> <0 3 3>)]");
    let r = search(&t, MultiAlgorithm::MaxnPlain);
    assert_eq!(r.values.as_slice(), [2.0, 2.0, 2.0]);
    assert_eq!(r.best_move, Some(1));
    let (_, w) = walk(&t, MultiAlgorithm::MaxnPlain);
    let chance = w.order.iter().find(|s| t.is_chance(s.node)).unwrap();
    assert_eq!(chance.values.as_slice(), [0.5, 3.5, 2.0]);
}

#[test]
fn plain_trees_run_through_the_chance_searches_too() {
    let t = parse("((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))");
    assert!(t.as_plain().is_some());
    for algo in multi::MultiAlgorithm::ALL {
        let r = search(&t, algo);
        assert!(close(r.values.get(0), 11.0), "{algo}: {:?}", r.values);
    }
}

// ---------------------------------------------------------------------------------------------
// Random trees against a brute force.

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A tree in code: leaves hold their payoffs, chance outcomes integer weights.
enum Node {
    Leaf(Vec<f64>),
    Decision(Vec<Node>),
    Chance(Vec<(u64, Node)>),
}

/// A random tree for `players` players (2: scalar leaves) with payoffs summing to 10 (vector
/// leaves) or 0 (scalars), and few distinct values, so that ties are common.
fn random_node(rng: &mut Rng, players: usize, depth: usize) -> Node {
    if depth == 0 || rng.below(5) == 0 {
        return if players == 2 {
            let v = rng.below(9) as f64 - 4.0;
            Node::Leaf(vec![v, -v])
        } else {
            let mut v = vec![0.0; players];
            for _ in 0..10 {
                v[rng.below(players as u64) as usize] += 1.0;
            }
            Node::Leaf(v)
        };
    }
    let n = 1 + rng.below(3) as usize;
    if rng.below(3) == 0 {
        Node::Chance(
            (0..n)
                .map(|_| (1 + rng.below(3), random_node(rng, players, depth - 1)))
                .collect(),
        )
    } else {
        Node::Decision(
            (0..n)
                .map(|_| random_node(rng, players, depth - 1))
                .collect(),
        )
    }
}

fn write(node: &Node, players: usize, out: &mut String) {
    match node {
        Node::Leaf(v) if players == 2 => out.push_str(&v[0].to_string()),
        Node::Leaf(v) => {
            let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            out.push_str(&format!("<{}>", parts.join(" ")));
        }
        Node::Decision(kids) => {
            out.push('(');
            for k in kids {
                write(k, players, out);
                out.push(' ');
            }
            out.push(')');
        }
        Node::Chance(kids) => {
            let total: u64 = kids.iter().map(|(w, _)| w).sum();
            out.push('[');
            for (w, k) in kids {
                out.push_str(&format!("{w}/{total} "));
                write(k, players, out);
                out.push(' ');
            }
            out.push(']');
        }
    }
}

/// max^n by the textbook rule (first child kept unless a later one is strictly better for the
/// mover; chance nodes the weighted mean); `last`: the player who moved last above.
fn brute_maxn(node: &Node, players: usize, last: usize) -> Vec<f64> {
    match node {
        Node::Leaf(v) => v.clone(),
        Node::Decision(kids) => {
            let me = (last + 1) % players;
            let mut best: Option<Vec<f64>> = None;
            for k in kids {
                let v = brute_maxn(k, players, me);
                if best.as_ref().is_none_or(|b| v[me] > b[me]) {
                    best = Some(v);
                }
            }
            best.unwrap()
        }
        Node::Chance(kids) => {
            let total: u64 = kids.iter().map(|(w, _)| w).sum();
            let mut mean = vec![0.0; players];
            for (w, k) in kids {
                let v = brute_maxn(k, players, last);
                let p = *w as f64 / total as f64;
                for i in 0..players {
                    mean[i] += p * v[i];
                }
            }
            mean
        }
    }
}

/// Player 0's paranoid value: player 0 maximises its payoff, every other player minimises it.
fn brute_paranoid(node: &Node, players: usize, last: usize) -> f64 {
    match node {
        Node::Leaf(v) => v[0],
        Node::Decision(kids) => {
            let me = (last + 1) % players;
            let values = kids.iter().map(|k| brute_paranoid(k, players, me));
            if me == 0 {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
        Node::Chance(kids) => {
            let total: u64 = kids.iter().map(|(w, _)| w).sum();
            kids.iter()
                .map(|(w, k)| *w as f64 / total as f64 * brute_paranoid(k, players, last))
                .sum()
        }
    }
}

#[test]
fn two_player_chance_searches_agree_with_brute_force_on_random_trees() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..300 {
        let spec = random_node(&mut rng, 2, 1 + i % 5);
        let mut text = String::new();
        write(&spec, 2, &mut text);
        let tree = parse(&text);
        // Player 0 at the root: the player "before" it is player 1.
        let want = brute_maxn(&spec, 2, 1)[0];
        for algo in multi::MultiAlgorithm::ALL {
            let r = search(&tree, algo);
            assert!(
                close(r.values.get(0), want),
                "{algo} on tree {i} {text}: {} against {want}",
                r.values.get(0)
            );
            // The walk-through sees only children of the nodes that cut.
            let (_, w) = walk(&tree, algo);
            assert!(w
                .pruned
                .iter()
                .all(|p| tree.parent(p.node) == Some(p.parent)));
        }
    }
}

#[test]
fn n_player_searches_agree_with_brute_force_on_random_trees() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for i in 0..300 {
        let players = 3 + i % 2;
        let spec = random_node(&mut rng, players, 1 + i % 5);
        let mut text = String::new();
        write(&spec, players, &mut text);
        let tree = parse(&text);
        assert_eq!(tree.player_count(), players);
        let want = brute_maxn(&spec, players, players - 1);
        for algo in [MultiAlgorithm::Maxn, MultiAlgorithm::MaxnPlain] {
            let r = search(&tree, algo);
            let ok = r
                .values
                .as_slice()
                .iter()
                .zip(&want)
                .all(|(a, b)| close(*a, *b));
            assert!(
                ok,
                "{algo} on tree {i} {text}: {:?} against {want:?}",
                r.values
            );
        }
        let want = brute_paranoid(&spec, players, players - 1);
        for algo in [MultiAlgorithm::Paranoid, MultiAlgorithm::Brs] {
            let r = search(&tree, algo);
            assert!(
                close(r.values.get(0), want),
                "{algo} on tree {i} {text}: {:?} against {want}",
                r.values
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The command line.

/// A temporary file with unique name holding `text`, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(text: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "cutoff-tree-multi-test-{}-{n}.tree",
            std::process::id()
        ));
        std::fs::write(&path, text).expect("write a temporary file");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("run cutoff")
}

fn ok(args: &[&str]) -> String {
    let o = cutoff(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = ok(&all);
    assert_eq!(out.trim_end().lines().count(), 1, "one JSON object: {out}");
    serde_json::from_str(&out).expect("valid JSON")
}

/// Checks a failed run: non-zero exit, one line on stderr, no panic, every piece mentioned.
fn assert_fails(o: &Output, mentions: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "should fail: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for m in mentions {
        assert!(err.contains(m), "stderr should mention {m:?}: {err}");
    }
}

#[test]
fn cli_reports_the_expectiminimax_example() {
    let out = ok(&["tree", EXPECTI_FILE]);
    assert!(out.contains("algorithm  expectiminimax"), "{out}");
    assert!(out.contains("value      3.5 (exact)"), "{out}");
    assert!(out.contains("values     (3.5, -3.5)"), "{out}");
    assert!(out.contains("best move  A"), "{out}");
    assert!(
        out.contains("nodes      22 (7 decision, 3 chance, 12 leaves)"),
        "{out}"
    );
    for algo in ["expectinegamax", "star1", "star2"] {
        let out = ok(&["tree", EXPECTI_FILE, "--algo", algo]);
        assert!(out.contains("value      3.5 (exact)"), "{algo}: {out}");
        assert!(out.contains("best move  A"), "{algo}: {out}");
    }
    let out = ok(&["tree", EXPECTI_FILE, "--trace"]);
    for line in [
        "settle order (values from MAX's view):",
        "    3. 1.1 = 3 (MIN)",
        "    7. A = 3.5 (chance)",
        "   14. B = 2.6 (chance)",
        "   21. C = 3.333333 (chance)",
        "   22. root = 3.5 (MAX)",
        "pruned: nothing",
    ] {
        assert!(out.contains(line), "missing {line:?}:\n{out}");
    }
    let out = ok(&["tree", EXPECTI_FILE, "--trace", "--algo", "star1"]);
    for line in [
        "B ~ 2.8 (chance, a bound, cut off)",
        "2.1.2 (leaf 7): decision cut at 2.1 (MIN), bound 1",
        "2.2 (subtree of 3 nodes, p = 0.2): chance cut at B (chance), bound 2.8",
        "3.2.2 (leaf 6): decision cut at 3.2 (MIN), bound 5",
    ] {
        assert!(out.contains(line), "missing {line:?}:\n{out}");
    }
    let out = ok(&["tree", EXPECTI_FILE, "--trace", "--algo", "star2"]);
    assert!(out.contains("probe cut at"), "{out}");
}

#[test]
fn cli_json_has_the_values_and_the_walk() {
    let j = json(&["tree", EXPECTI_FILE, "--algo", "star1"]);
    for key in [
        "game",
        "algo",
        "value",
        "values",
        "exact",
        "best_move",
        "nodes",
        "leaves",
        "cutoffs",
        "max_ply",
        "stats",
        "time_ms",
        "players",
        "root",
        "chance_nodes",
        "order",
        "pruned",
    ] {
        assert!(j.get(key).is_some(), "missing {key}: {j}");
    }
    assert_eq!(j["algo"], "star1");
    assert_eq!(j["value"], 3.5);
    assert_eq!(j["values"], serde_json::json!([3.5, -3.5]));
    assert_eq!(j["best_move"], "A");
    assert_eq!(j["players"], 2);
    assert_eq!(j["root"], "max");
    assert_eq!(j["chance_nodes"], 3);
    assert_eq!(j["exact"], true);
    assert!(j["stats"]["chance_cutoffs"].as_u64().unwrap() >= 1);
    assert_eq!(
        j["stats"]["decision_nodes"].as_u64().unwrap()
            + j["stats"]["chance_nodes"].as_u64().unwrap()
            + j["stats"]["leaves"].as_u64().unwrap(),
        j["nodes"].as_u64().unwrap()
    );
    let pruned = j["pruned"].as_array().unwrap();
    assert_eq!(pruned.len(), 3);
    assert_eq!(pruned[1]["node"], "2.2");
    assert_eq!(pruned[1]["parent"], "B");
    assert_eq!(pruned[1]["cut"], "chance");
    assert_eq!(pruned[1]["player"], 0);
    assert!(
        close(pruned[1]["bound"].as_f64().unwrap(), 2.8),
        "{}",
        pruned[1]
    );
    let order = j["order"].as_array().unwrap();
    assert_eq!(order.last().unwrap()["node"], "root");
    assert_eq!(order.last().unwrap()["value"], 3.5);
    assert_eq!(order[0]["values"], serde_json::json!([3.0, -3.0]));

    let j = json(&["tree", MAXN_FILE]);
    assert_eq!(j["algo"], "maxn");
    assert_eq!(j["value"], 3.0);
    assert_eq!(j["values"], serde_json::json!([3.0, 3.0, 4.0]));
    assert_eq!(j["best_move"], "B");
    assert_eq!(j["players"], 3);
    assert_eq!(j["root"], "player 0");
    let a = j["order"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["node"] == "A")
        .unwrap()
        .clone();
    assert_eq!(
        a,
        serde_json::json!({"node": "A", "values": [1.0, 3.0, 6.0], "exact": true})
    );
}

#[test]
fn cli_traces_the_maxn_example() {
    let out = ok(&["tree", MAXN_FILE, "--trace"]);
    for line in [
        "value      3 (player 0's payoff; exact)",
        "values     (3, 3, 4)",
        "best move  B",
        "settle order (values: one payoff per player):",
        "A2 = (6, 3, 1) (player 2)",
        "A = (1, 3, 6) (player 1)",
        "B = (3, 3, 4) (player 1)",
        "root = (3, 3, 4) (player 0)",
        "3 players, one payoff each",
    ] {
        assert!(out.contains(line), "missing {line:?}:\n{out}");
    }
    let out = ok(&["tree", MAXN_FILE, "--algo", "maxn-plain"]);
    assert!(out.contains("values     (3, 3, 4)"), "{out}");
    for algo in ["paranoid", "brs"] {
        // Player 0 against the others: A gives it min(1, 4) then min(6, 5), so at most 1;
        // B min(min(4, 2), min(7, 3)) = 2. Paranoid value 2, by B.
        let j = json(&["tree", MAXN_FILE, "--algo", algo]);
        assert_eq!(j["value"], 2.0, "{algo}: {j}");
        assert_eq!(j["best_move"], "B", "{algo}: {j}");
    }
}

#[test]
fn cli_dot_draws_chance_nodes_as_circles_with_probabilities() {
    let out = ok(&["tree", EXPECTI_FILE, "--dot"]);
    assert!(out.starts_with("digraph"), "{out}");
    assert!(out.trim_end().ends_with('}'), "{out}");
    assert!(
        out.contains("n1 [shape=circle, label=\"A\\n3.5\"]"),
        "{out}"
    );
    assert!(
        out.contains("n0 [shape=box, label=\"root\\n3.5\"]"),
        "{out}"
    );
    assert!(
        out.contains("shape=ellipse") && out.contains("shape=plaintext"),
        "{out}"
    );
    assert!(out.contains("n1 -> n4 [label=\"0.5\"]"), "{out}");
    assert!(
        out.contains("[label=\"1/3\"]") && out.contains("[label=\"2/3\"]"),
        "{out}"
    );
    assert!(
        !out.contains("style=dashed"),
        "expectiminimax prunes nothing: {out}"
    );
    let out = ok(&["tree", EXPECTI_FILE, "--dot", "--algo", "star1"]);
    // B's second outcome is pruned: its edge keeps the probability and turns grey.
    assert!(
        out.contains("n2 -> n7 [label=\"0.2\", style=dashed, color=grey]"),
        "{out}"
    );
    assert!(out.contains("label=\"2.2\", style=dashed"), "{out}");
    let out = ok(&["tree", MAXN_FILE, "--dot"]);
    assert!(out.contains("shape=hexagon"), "player 2's shape: {out}");
    assert!(out.contains("label=\"root\\n(3, 3, 4)\""), "{out}");
}

#[test]
fn cli_defaults_and_plain_trees() {
    // A plain tree keeps alpha-beta and the two-player report; the chance searches take it
    // too, in the same scale (MAX's view), whatever the root.
    let plain = TempFile::new("(3 5) (9 2) (8 1 4)");
    let out = ok(&["tree", plain.path()]);
    assert!(out.contains("algorithm  alphabeta"), "{out}");
    for algo in ["expectiminimax", "expectinegamax", "star1", "star2", "maxn"] {
        let j = json(&["tree", plain.path(), "--algo", algo]);
        assert_eq!(j["value"], 3.0, "{algo}: {j}");
        let j = json(&["tree", plain.path(), "--algo", algo, "--root", "min"]);
        assert_eq!(j["value"], 5.0, "{algo} with a MIN root: {j}");
        assert_eq!(j["root"], "min", "{algo}");
    }
    // Decimal leaves make a general tree, searched by expectiminimax.
    let dec = TempFile::new("(2.5 4) (3.25 3.5)");
    let j = json(&["tree", dec.path()]);
    assert_eq!(j["algo"], "expectiminimax");
    assert_eq!(j["value"], 3.25);
    // Vectors whose sum varies: max^n without shallow pruning by default.
    let vary = TempFile::new("(<1 2 3> <0 0 1>) (<5 5 5>)");
    let j = json(&["tree", vary.path()]);
    assert_eq!(j["algo"], "maxn-plain");
    // Player 1 takes (1, 2, 3) over (0, 0, 1), then player 0 takes (5, 5, 5).
    assert_eq!(j["values"], serde_json::json!([5.0, 5.0, 5.0]));
}

#[test]
fn cli_errors_are_one_line() {
    let sum = TempFile::new("# a comment\n(1 2)\n[0.5 (3 5)\n 0.4 (2 9)]\n");
    assert_fails(
        &cutoff(&["tree", sum.path()]),
        &["probabilities of the chance node at 3:1 sum to 0.9, not 1"],
    );
    let bad = TempFile::new("[0.5 1 1.5 2]");
    assert_fails(
        &cutoff(&["tree", bad.path()]),
        &["bad probability '1.5' at 1:8"],
    );
    let ragged = TempFile::new("(<1 2 3> <4 5>)");
    assert_fails(
        &cutoff(&["tree", ragged.path()]),
        &[
            "vector leaf at 1:10 has 2 payoffs",
            "the first one (at 1:2) 3",
        ],
    );
    let one = TempFile::new("(<1> <2>)");
    assert_fails(&cutoff(&["tree", one.path()]), &["has 1 payoff", "2 to 8"]);
    let mixed = TempFile::new("(<1 2 3> 4)");
    assert_fails(&cutoff(&["tree", mixed.path()]), &["scalar leaf at 1:10"]);
    // Searches that do not fit the tree.
    assert_fails(
        &cutoff(&["tree", EXPECTI_FILE, "--algo", "alphabeta"]),
        &[
            "alphabeta searches plain two-player trees",
            "chance nodes",
            "star1",
        ],
    );
    assert_fails(
        &cutoff(&["tree", MAXN_FILE, "--algo", "pvs"]),
        &["3 players", "maxn"],
    );
    assert_fails(
        &cutoff(&["tree", MAXN_FILE, "--algo", "star1"]),
        &["star1 is for two players"],
    );
    assert_fails(
        &cutoff(&["tree", MAXN_FILE, "--root", "min"]),
        &["--root min is for two-player trees", "3 players"],
    );
    let vary = TempFile::new("(<1 2 3> <0 0 1>)");
    assert_fails(
        &cutoff(&["tree", vary.path(), "--algo", "maxn"]),
        &["constant sum", "maxn-plain"],
    );
    let unfair = TempFile::new("(<1 0> <0 1>)");
    assert_fails(
        &cutoff(&["tree", unfair.path(), "--algo", "expectiminimax"]),
        &["expectiminimax needs zero-sum payoffs"],
    );
    // An unknown algorithm is clap's usage error, listing both families.
    let o = cutoff(&["tree", EXPECTI_FILE, "--algo", "expecti"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("unknown algorithm 'expecti'") && err.contains("expectiminimax"),
        "{err}"
    );
    // The plain commands name the general tree when they cannot take it.
    assert_fails(
        &cutoff(&["solve", "tree", EXPECTI_FILE]),
        &["chance node at", "cutoff tree FILE"],
    );
}
