//! Hand-written trees: the textbook walk-throughs (values, settle order, pruned subtrees), the
//! parser's errors, the `cutoff tree` command, and every search against a brute-force minimax
//! on random trees.

use cutoff::advanced::Searcher;
use cutoff::games::perfect::tree::{Spec, Tree, MAX_CHILDREN, MAX_DEPTH};
use cutoff::trace::{Event, Trace};
use cutoff::tt::TranspositionTable;
use cutoff::Notation;
use cutoff::{Algorithm, Game, Player, Stats, Value};
use cutoff_app::walk::{CutKind, TreeWalk};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const EXERCISE: &str = "((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))";
const THREE: &str = "(3 5 1) (2 9) (0 8)";

/// The plain searches of the course.
const SIX: [Algorithm; 6] = [
    Algorithm::Minimax,
    Algorithm::Negamax,
    Algorithm::AlphaBeta,
    Algorithm::AlphaBetaHard,
    Algorithm::Veb,
    Algorithm::Ab,
];

/// The searches with an (alpha, beta) window or the course's bounds: they prune.
const PRUNING: [Algorithm; 4] = [
    Algorithm::AlphaBeta,
    Algorithm::AlphaBetaHard,
    Algorithm::Ab,
    Algorithm::Veb,
];

fn parse(text: &str) -> Tree {
    Tree::parse(text, Player::First).expect("the tree parses")
}

/// Runs `algo` with a trace; the value in the leaf scale, the statistics and the trace.
fn traced(tree: &Tree, algo: Algorithm) -> (Value, Stats, Trace<Tree>) {
    let tt = TranspositionTable::new(1);
    let mut s = Searcher::with_observer(tree, tree.initial(), None, Trace::new());
    if algo.uses_table() {
        s = s.table(&tt);
    }
    let (v, _) = s.run(algo);
    let stats = s.stats();
    (tree.root_side().sign() * v, stats, s.into_observer())
}

/// The leaves a trace evaluated, as their values, in order.
fn evaluated_leaves(tree: &Tree, trace: &Trace<Tree>) -> Vec<Value> {
    trace
        .events()
        .iter()
        .filter_map(|e| match *e {
            Event::Settled { pos, value, .. } if tree.is_leaf(pos.node) => {
                // Settled values are from the side to move; the leaf is written from MAX's.
                Some(value * pos.side.sign())
            }
            _ => None,
        })
        .collect()
}

/// The pruned children of a trace, by name.
fn pruned_names(tree: &Tree, trace: &Trace<Tree>) -> Vec<String> {
    trace
        .events()
        .iter()
        .filter_map(|e| match *e {
            Event::Pruned { parent, mv, .. } => {
                assert_eq!(
                    tree.parent(mv),
                    Some(parent.node),
                    "a pruned move is a child"
                );
                Some(tree.name(mv))
            }
            _ => None,
        })
        .collect()
}

/// Leaf values of the subtree at `node`, left to right (for checking what was pruned).
fn subtree_leaves(tree: &Tree, node: u32) -> Vec<Value> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match tree.value(n) {
            Some(v) => out.push(v),
            None => stack.extend(tree.children(n).rev()),
        }
    }
    out
}

#[test]
fn exercise_tree_value_is_11_for_every_algorithm() {
    let tree = parse(EXERCISE);
    assert_eq!(tree.len(), 19);
    assert_eq!(tree.leaves(), 12);
    assert_eq!(tree.height(), 3);
    for algo in Algorithm::ALL {
        let (v, _, _) = traced(&tree, algo);
        assert_eq!(v, 11, "{algo}");
        let r = cutoff::advanced::search(&tree, tree.initial(), algo, None);
        assert_eq!(r.value, 11, "{algo} without a trace");
        assert_eq!(
            r.best_move.map(|m| tree.name(m)),
            Some("1".into()),
            "{algo}"
        );
    }
}

#[test]
fn exercise_tree_pruning_searches_evaluate_7_leaves_and_prune_7_8_6_and_1_15() {
    let tree = parse(EXERCISE);
    for algo in PRUNING {
        let (v, stats, trace) = traced(&tree, algo);
        assert_eq!(v, 11, "{algo}");
        assert_eq!(stats.leaves, 7, "{algo}");
        assert_eq!(
            evaluated_leaves(&tree, &trace),
            [3, 11, 2, 13, 0, 4, 5],
            "{algo}"
        );
        assert_eq!(
            pruned_names(&tree, &trace),
            ["1.2.3", "1.2.4", "1.2.5", "2.2"],
            "{algo}"
        );
        let pruned_values: Vec<Vec<Value>> = trace
            .events()
            .iter()
            .filter_map(|e| match *e {
                Event::Pruned { mv, .. } => Some(subtree_leaves(&tree, mv)),
                _ => None,
            })
            .collect();
        assert_eq!(
            pruned_values,
            [vec![7], vec![8], vec![6], vec![1, 15]],
            "{algo}"
        );

        // The kinds of cut and their bounds, from MAX's view.
        let walk = TreeWalk::new(&tree, &trace);
        let cuts: Vec<(String, String, CutKind, Value)> = walk
            .pruned
            .iter()
            .map(|p| (tree.name(p.node), tree.name(p.parent), p.cut, p.bound))
            .collect();
        let expect = |n: &str, p: &str, c, b| (n.to_string(), p.to_string(), c, b);
        assert_eq!(
            cuts,
            [
                expect("1.2.3", "1.2", CutKind::Beta, 11),
                expect("1.2.4", "1.2", CutKind::Beta, 11),
                expect("1.2.5", "1.2", CutKind::Beta, 11),
                expect("2.2", "2", CutKind::Alpha, 11),
            ],
            "{algo}"
        );
        let text = walk.lines(&tree);
        assert!(
            text.contains("1.2.3 (leaf 7): beta cut at 1.2"),
            "{algo}:\n{text}"
        );
        assert!(
            text.contains("2.2 (subtree of 3 nodes): alpha cut at 2"),
            "{algo}:\n{text}"
        );
    }
}

#[test]
fn exercise_tree_settle_order_for_alphabeta() {
    let tree = parse(EXERCISE);
    let (_, _, trace) = traced(&tree, Algorithm::AlphaBeta);
    let walk = TreeWalk::new(&tree, &trace);
    let order: Vec<(String, Value)> = walk
        .order
        .iter()
        .map(|s| (tree.name(s.node), s.value))
        .collect();
    let expect: Vec<(String, Value)> = [
        ("1.1.1", 3),
        ("1.1.2", 11),
        ("1.1", 11),
        ("1.2.1", 2),
        ("1.2.2", 13),
        ("1.2", 13),
        ("1", 11),
        ("2.1.1", 0),
        ("2.1.2", 4),
        ("2.1.3", 5),
        ("2.1", 5),
        ("2", 5),
        ("root", 11),
    ]
    .iter()
    .map(|&(n, v)| (n.to_string(), v))
    .collect();
    assert_eq!(order, expect);
}

#[test]
fn exercise_tree_minimax_and_negamax_evaluate_all_12_leaves() {
    let tree = parse(EXERCISE);
    for algo in [Algorithm::Minimax, Algorithm::Negamax] {
        let (v, stats, trace) = traced(&tree, algo);
        assert_eq!(v, 11);
        assert_eq!(stats.leaves, 12, "{algo}");
        assert_eq!(stats.nodes, 19, "{algo}");
        assert_eq!(
            evaluated_leaves(&tree, &trace),
            [3, 11, 2, 13, 7, 8, 6, 0, 4, 5, 1, 15],
            "{algo}"
        );
        assert!(pruned_names(&tree, &trace).is_empty(), "{algo}");
    }
}

#[test]
fn three_children_value_2_prunes_only_the_leaf_8() {
    let tree = parse(THREE);
    assert_eq!(tree.children(tree.root()).len(), 3);
    for algo in SIX {
        let (v, _, trace) = traced(&tree, algo);
        assert_eq!(v, 2, "{algo}");
        let pruned = pruned_names(&tree, &trace);
        if PRUNING.contains(&algo) {
            assert_eq!(pruned, ["3.2"], "{algo}");
            let walk = TreeWalk::new(&tree, &trace);
            assert_eq!(tree.value(walk.pruned[0].node), Some(8));
            assert_eq!(walk.pruned[0].cut, CutKind::Alpha);
            assert_eq!(walk.pruned[0].bound, 2);
        } else {
            assert!(pruned.is_empty(), "{algo}");
        }
    }
    let r = cutoff::advanced::search(&tree, tree.initial(), Algorithm::AlphaBeta, None);
    assert_eq!(tree.format_move(&tree.initial(), r.best_move.unwrap()), "2");
}

#[test]
fn labelled_tree_parses_and_names_its_nodes() {
    let tree = parse("P11:(P21:(3 11) P22:(2 13 7 8 6))");
    let root = tree.root();
    assert_eq!(tree.name(root), "P11");
    assert_eq!(tree.label(root), Some("P11"));
    let kids: Vec<u32> = tree.children(root).collect();
    assert_eq!(kids.len(), 2);
    assert_eq!(tree.name(kids[0]), "P21");
    assert_eq!(tree.name(kids[1]), "P22");
    // Unlabelled nodes are named by their path.
    let first_leaf = tree.children(kids[1]).next().unwrap();
    assert_eq!(tree.name(first_leaf), "2.1");
    assert_eq!(tree.label(first_leaf), None);
    // MAX at P11, MIN at P21 (3) and P22 (2): value 3 through P21.
    for algo in Algorithm::ALL {
        let r = cutoff::advanced::search(&tree, tree.initial(), algo, None);
        assert_eq!(r.value, 3, "{algo}");
        let best = r.best_move.expect("a move");
        assert_eq!(tree.format_move(&tree.initial(), best), "P21", "{algo}");
    }
    // Moves by label or by index.
    let pos = tree.initial();
    assert_eq!(tree.parse_move(&pos, "P22"), Ok(kids[1]));
    assert_eq!(tree.parse_move(&pos, "1"), Ok(kids[0]));
    assert!(tree.parse_move(&pos, "3").is_err());
    assert!(tree.parse_move(&pos, "P33").is_err());
    assert!(tree.parse_move(&pos, "0").is_err());
    let child = tree.play(&pos, kids[1]);
    assert_eq!(child.side, Player::Second);
    assert_eq!(
        tree.format_move(&child, tree.parse_move(&child, "5").unwrap()),
        "5"
    );
    let leaf = tree.play(&child, tree.parse_move(&child, "5").unwrap());
    assert_eq!(tree.outcome(&leaf), Some(6));
    assert!(tree.parse_move(&leaf, "1").is_err());
}

#[test]
fn labels_with_comments_and_single_leaves() {
    let tree = parse("# a comment\nA:3 # the only node\n");
    assert_eq!(tree.len(), 1);
    assert_eq!(tree.name(0), "A");
    assert_eq!(tree.height(), 0);
    let r = cutoff::advanced::search(&tree, tree.initial(), Algorithm::AlphaBeta, None);
    assert_eq!((r.value, r.best_move), (3, None));
    let min = Tree::parse("-7", Player::Second).unwrap();
    assert_eq!(
        min.root_side().sign()
            * cutoff::advanced::search(&min, min.initial(), Algorithm::Negamax, None).value,
        -7
    );
    let t = parse("x_1.y-z:(a:1 b:-2) (_c:4)");
    assert_eq!(t.name(1), "x_1.y-z");
    assert_eq!(t.name(2), "2");
    assert_eq!(t.name(5), "_c");
}

#[test]
fn a_min_root_flips_the_levels() {
    let text = "(3 5) (9 2) (8 1 4)";
    // By hand: with MAX at the root, max(min(3,5), min(9,2), min(8,1,4)) = max(3, 2, 1) = 3;
    // with MIN at the root, min(max(3,5), max(9,2), max(8,1,4)) = min(5, 9, 8) = 5.
    let leaves = [vec![3, 5], vec![9, 2], vec![8, 1, 4]];
    let max_root = leaves
        .iter()
        .map(|c| *c.iter().min().unwrap())
        .max()
        .unwrap();
    let min_root = leaves
        .iter()
        .map(|c| *c.iter().max().unwrap())
        .min()
        .unwrap();
    assert_eq!((max_root, min_root), (3, 5));
    let tmax = Tree::parse(text, Player::First).unwrap();
    let tmin = Tree::parse(text, Player::Second).unwrap();
    assert_eq!(tmin.side(tmin.root()), Player::Second);
    assert_eq!(tmin.side(1), Player::First);
    for algo in Algorithm::ALL {
        assert_eq!(traced(&tmax, algo).0, max_root, "{algo}");
        assert_eq!(traced(&tmin, algo).0, min_root, "{algo}");
    }
    let r = cutoff::advanced::search(&tmin, tmin.initial(), Algorithm::AlphaBeta, None);
    assert_eq!(tmin.format_move(&tmin.initial(), r.best_move.unwrap()), "1");
    // With MIN at the root the children are MAX nodes: once child 1 gives MIN 5, the 9 under
    // child 2 and the 8 under child 3 reach beta = 5 and cut off the leaves after them.
    let (_, _, trace) = traced(&tmin, Algorithm::AlphaBeta);
    assert_eq!(pruned_names(&tmin, &trace), ["2.2", "3.2", "3.3"]);
    let walk = TreeWalk::new(&tmin, &trace);
    assert!(
        walk.pruned
            .iter()
            .all(|p| p.cut == CutKind::Beta && p.bound == 5),
        "{walk:?}"
    );
    // With MAX at the root the same leaves fall to alpha cuts at MIN nodes, alpha = 3.
    let (_, _, trace) = traced(&tmax, Algorithm::AlphaBeta);
    assert_eq!(pruned_names(&tmax, &trace), ["3.3"]);
    let walk = TreeWalk::new(&tmax, &trace);
    assert!(
        walk.pruned
            .iter()
            .all(|p| p.cut == CutKind::Alpha && p.bound == 3),
        "{walk:?}"
    );
}

/// Parses `text` and returns the error message, checking there is one.
fn error_of(text: &str) -> String {
    match Tree::parse(text, Player::First) {
        Ok(t) => panic!("{text:?} parsed into {} nodes", t.len()),
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "one line: {msg}");
            msg
        }
    }
}

#[test]
fn parser_errors_name_the_problem() {
    let m = error_of("((1 2) (3 4)");
    assert!(m.contains("unclosed '('") && m.contains("1:1"), "{m}");
    let m = error_of("(1 2)\n (3 4))");
    assert!(m.contains("unexpected ')'") && m.contains("2:7"), "{m}");
    let m = error_of("");
    assert!(m.contains("empty tree file"), "{m}");
    let m = error_of("   \n\t\n");
    assert!(m.contains("empty tree file"), "{m}");
    let m = error_of("# only a comment\n# and another\n");
    assert!(m.contains("empty tree file"), "{m}");
    let m = error_of("(1 ())");
    assert!(m.contains("empty list") && m.contains("1:4"), "{m}");
    let m = error_of("()");
    assert!(m.contains("empty list"), "{m}");
    let m = error_of("(1 3x 4)");
    assert!(m.contains("bad token '3x'") && m.contains("1:4"), "{m}");
    let m = error_of("(1 +3)");
    assert!(m.contains("bad token '+3'"), "{m}");
    let m = error_of("(1 99999999999999999999999)");
    assert!(m.contains("out of range"), "{m}");
    let m = error_of("(1 -1000000001)");
    assert!(m.contains("out of range"), "{m}");
    assert!(Tree::parse("(1000000000 -1000000000)", Player::First).is_ok());
    let m = error_of("(A:1 B:2 A:3)");
    assert!(
        m.contains("duplicate label 'A'") && m.contains("1:10"),
        "{m}"
    );
    // The same label under different parents is fine.
    assert!(Tree::parse("(A:1 B:2) (A:3 B:4)", Player::First).is_ok());
    let m = error_of("(1 A:)");
    assert!(m.contains("label 'A'") && m.contains("no node"), "{m}");
    let m = error_of("(1 2) A:");
    assert!(m.contains("no node"), "{m}");
    let m = error_of("(1 A: B:2)");
    assert!(m.contains("no node"), "{m}");
    let m = error_of("(1 9a:2)");
    assert!(m.contains("bad label"), "{m}");
    let m = error_of("(1 é)");
    assert!(m.contains("bad token"), "{m}");
}

#[test]
fn parser_limits_depth_and_width_without_recursing() {
    let nest = |d: usize| format!("{}1{}", "(".repeat(d), ")".repeat(d));
    let m = error_of(&nest(MAX_DEPTH + 1));
    assert!(m.contains("nesting deeper than 1000"), "{m}");
    // Hostile input: a million open parentheses is an error, not a stack overflow.
    let m = error_of(&"(".repeat(1_000_000));
    assert!(m.contains("nesting deeper"), "{m}");
    let m = error_of(&")".repeat(1_000_000));
    assert!(m.contains("unexpected ')'"), "{m}");
    // The deepest tree allowed searches fine.
    let deep = Tree::parse(&nest(MAX_DEPTH), Player::First).unwrap();
    assert_eq!(deep.height(), MAX_DEPTH);
    for algo in SIX {
        let (v, _, _) = traced(&deep, algo);
        assert_eq!(v, 1, "{algo}");
    }

    let wide = |n: usize| format!("({})", vec!["1"; n].join(" "));
    assert!(Tree::parse(&wide(MAX_CHILDREN), Player::First).is_ok());
    let m = error_of(&wide(MAX_CHILDREN + 1));
    assert!(m.contains("more than 64") && m.contains("move list"), "{m}");
    let m = error_of(&vec!["1"; MAX_CHILDREN + 1].join(" "));
    assert!(m.contains("more than 64"), "{m}");
}

#[test]
fn from_spec_checks_the_same_limits() {
    use Spec::{Inner, Leaf};
    let t = Tree::from_spec(
        &Inner(vec![Inner(vec![Leaf(3), Leaf(11)]), Leaf(5)]),
        Player::First,
    )
    .unwrap();
    assert_eq!(t.len(), 5);
    assert_eq!(t.name(3), "1.1");
    assert_eq!(t.node_height(1), 1);
    assert_eq!(t.node_height(2), 0);
    assert!(Tree::from_spec(&Inner(vec![]), Player::First).is_err());
    assert!(Tree::from_spec(&Inner(vec![Leaf(1); MAX_CHILDREN + 1]), Player::First).is_err());
    assert!(Tree::from_spec(&Leaf(2_000_000_000), Player::First).is_err());
    let mut deep = Leaf(1);
    for _ in 0..MAX_DEPTH + 1 {
        deep = Inner(vec![deep]);
    }
    assert!(Tree::from_spec(&deep, Player::First).is_err());
    if let Inner(mut v) = deep {
        let inner = v.pop().unwrap();
        assert_eq!(
            Tree::from_spec(&inner, Player::First).unwrap().height(),
            MAX_DEPTH
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Random trees against a brute-force minimax over the spec.

/// xorshift64*: enough randomness for test trees.
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

/// A ragged tree at most `depth` plies deep, with few distinct values (many ties).
fn random_spec(rng: &mut Rng, depth: usize) -> Spec {
    if depth == 0 || (rng.below(4) == 0) {
        return Spec::Leaf(rng.below(7) as Value - 3);
    }
    let n = 1 + rng.below(4) as usize;
    Spec::Inner((0..n).map(|_| random_spec(rng, depth - 1)).collect())
}

/// Minimax over the spec, MAX's view, as in the textbook definition.
fn brute_force(spec: &Spec, maximizing: bool) -> Value {
    match spec {
        Spec::Leaf(v) => *v,
        Spec::Inner(children) => {
            let values = children.iter().map(|c| brute_force(c, !maximizing));
            if maximizing {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
    }
}

#[test]
fn every_algorithm_agrees_with_brute_force_on_random_trees() {
    let mut rng = Rng(cutoff::rng::GOLDEN);
    let tt = TranspositionTable::new(1);
    for i in 0..400 {
        let depth = 1 + i % 6;
        let spec = random_spec(&mut rng, depth);
        for root in [Player::First, Player::Second] {
            let tree = Tree::from_spec(&spec, root).unwrap();
            let expected = brute_force(&spec, root == Player::First);
            for algo in Algorithm::ALL {
                tt.clear();
                let mut s = Searcher::with_observer(&tree, tree.initial(), None, Trace::new());
                if algo.uses_table() {
                    s = s.table(&tt);
                }
                let (v, best) = s.run(algo);
                let value = root.sign() * v;
                assert_eq!(value, expected, "{algo} on tree {i} {spec:?} root {root:?}");
                // The best move leads to a child with the root's value.
                if let Some(mv) = best {
                    let child = tree.play(&tree.initial(), mv);
                    // From the child's side to move: the root's side sees its negation.
                    let cv = cutoff::advanced::search(&tree, child, Algorithm::Minimax, None).value;
                    assert_eq!(-cv, v, "{algo}'s best move on tree {i} {spec:?}");
                } else {
                    assert!(tree.is_leaf(tree.root()), "{algo} gave no move on tree {i}");
                }
                // The trace saw as many leaves as the statistics counted.
                let stats = s.stats();
                let trace = s.into_observer();
                if !algo.uses_table() {
                    assert_eq!(evaluated_leaves(&tree, &trace).len() as u64, stats.leaves);
                }
            }
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
        let path =
            std::env::temp_dir().join(format!("cutoff-tree-test-{}-{n}.tree", std::process::id()));
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

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Checks a failed run: non-zero exit, one line on stderr, no panic.
fn assert_fails(o: &Output, mentions: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "should fail: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(mentions),
        "stderr should mention {mentions:?}: {err}"
    );
}

/// Checks a usage error from clap: status 2, clap's own message, no panic.
fn assert_usage_error(o: &Output, mentions: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("try '--help'"), "clap's message: {err}");
    assert!(
        err.contains(mentions),
        "stderr should mention {mentions:?}: {err}"
    );
}

#[test]
fn cli_prints_the_report() {
    let f = TempFile::new(&format!("# the exercise\n{EXERCISE}\n"));
    let o = cutoff(&["tree", f.path()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("value      11"), "{out}");
    assert!(out.contains("best move  1"), "{out}");
    assert!(out.contains("pv         1 1 2"), "{out}");
    assert!(out.contains("leaves     7"), "{out}");
    assert!(out.contains("algorithm  alphabeta"), "{out}");
    let o = cutoff(&["tree", f.path(), "--algo", "minimax"]);
    assert!(stdout(&o).contains("leaves     12"), "{}", stdout(&o));
}

#[test]
fn cli_json_has_the_report_and_the_walk() {
    let f = TempFile::new(EXERCISE);
    let o = cutoff(&["tree", f.path(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.trim_end().lines().count(), 1, "one JSON object: {out}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    for key in [
        "value",
        "best_move",
        "pv",
        "nodes",
        "leaves",
        "cutoffs",
        "algo",
        "time_ms",
        "order",
        "pruned",
        "root",
    ] {
        assert!(j.get(key).is_some(), "missing {key}: {out}");
    }
    assert_eq!(j["value"], 11);
    assert_eq!(j["best_move"], "1");
    assert_eq!(j["leaves"], 7);
    assert_eq!(j["algo"], "alphabeta");
    assert_eq!(j["root"], "max");
    assert_eq!(j["order"].as_array().unwrap().len(), 13);
    assert_eq!(
        j["order"][0],
        serde_json::json!({"node": "1.1.1", "value": 3})
    );
    assert_eq!(
        j["order"][12],
        serde_json::json!({"node": "root", "value": 11})
    );
    let pruned = j["pruned"].as_array().unwrap();
    assert_eq!(pruned.len(), 4);
    assert_eq!(
        pruned[0],
        serde_json::json!({"node": "1.2.3", "parent": "1.2", "cut": "beta", "bound": 11})
    );
    assert_eq!(
        pruned[3],
        serde_json::json!({"node": "2.2", "parent": "2", "cut": "alpha", "bound": 11})
    );

    let g = TempFile::new("(3 5) (9 2) (8 1 4)");
    let o = cutoff(&["tree", g.path(), "--json", "--root", "min", "--algo", "veb"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(j["value"], 5);
    assert_eq!(j["root"], "min");
    assert_eq!(j["algo"], "veb");
}

#[test]
fn cli_trace_names_the_pruned_nodes_and_cuts() {
    let f = TempFile::new(EXERCISE);
    let o = cutoff(&["tree", f.path(), "--trace"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("value      11"), "{out}");
    assert!(out.contains("settle order"), "{out}");
    for line in [
        "1.2.3 (leaf 7): beta cut at 1.2 (MAX), beta = 11",
        "1.2.4 (leaf 8): beta cut at 1.2 (MAX), beta = 11",
        "1.2.5 (leaf 6): beta cut at 1.2 (MAX), beta = 11",
        "2.2 (subtree of 3 nodes): alpha cut at 2 (MIN), alpha = 11",
    ] {
        assert!(out.contains(line), "missing {line:?}:\n{out}");
    }
    let labelled = TempFile::new("P11:(P21:(3 11) P22:(2 13 7 8 6))");
    let out = stdout(&cutoff(&["tree", labelled.path(), "--trace"]));
    assert!(out.contains("best move  P21"), "{out}");
    assert!(
        out.contains("2.3 (leaf 7): alpha cut at P22 (MIN), alpha = 3"),
        "{out}"
    );
}

#[test]
fn cli_dot_draws_the_tree() {
    let f = TempFile::new(EXERCISE);
    let o = cutoff(&["tree", f.path(), "--dot"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("digraph"), "{out}");
    assert!(out.contains("dashed"), "{out}");
    assert!(out.trim_end().ends_with('}'), "{out}");
    // Every node inside the pruned subtree 2.2 is dashed and has no value.
    assert!(out.contains("label=\"2.2\", style=dashed"), "{out}");
    assert!(out.contains("label=\"2.2.1\", style=dashed"), "{out}");
    assert!(out.contains("label=\"root\\n11\""), "{out}");
    // MAX and MIN get different shapes.
    assert!(
        out.contains("shape=box") && out.contains("shape=ellipse"),
        "{out}"
    );
    assert!(!out.contains("value:"), "no text report: {out}");
}

#[test]
fn cli_errors_are_one_line() {
    let missing = std::env::temp_dir().join(format!(
        "cutoff-tree-test-{}-missing.tree",
        std::process::id()
    ));
    let missing = missing.to_str().unwrap();
    assert_fails(&cutoff(&["tree", missing]), missing);
    let bad = TempFile::new("((1 2)\n (3 4)");
    assert_fails(&cutoff(&["tree", bad.path()]), "unclosed '('");
    let bad = TempFile::new("(1 3x)");
    assert_fails(&cutoff(&["tree", bad.path()]), "bad token");
    let empty = TempFile::new("# nothing here\n");
    assert_fails(&cutoff(&["tree", empty.path()]), "empty tree file");
    // Usage errors are clap's own, several lines, status 2.
    let good = TempFile::new(THREE);
    assert_usage_error(
        &cutoff(&["tree", good.path(), "--algo", "quick"]),
        "unknown algorithm",
    );
    assert_usage_error(
        &cutoff(&["tree", good.path(), "--root", "both"]),
        "max or min",
    );
    let deep = TempFile::new(&"(".repeat(100_000));
    assert_fails(&cutoff(&["tree", deep.path()]), "nesting deeper");
}
