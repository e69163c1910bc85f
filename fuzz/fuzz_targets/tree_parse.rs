//! Tree files: `Tree::parse`. A parsed tree is consistent (contiguous children, parents,
//! depths, heights, values in range), writes back as a tree file that parses to the same
//! tree, and every child of the root reads back through `parse_move(format_move(..))`. Small
//! trees are searched by every algorithm, which must agree with minimax.
#![no_main]

use cutoff::games::perfect::tree::{Tree, MAX_ABS_VALUE, MAX_CHILDREN, MAX_DEPTH};
use cutoff::advanced::search;
use cutoff::Algorithm;
use cutoff::{Game, MoveBuffer, Notation, Player};
use cutoff_fuzz::{check_message, text, MessageRules, STRICT};
use libfuzzer_sys::fuzz_target;

/// What holds today for `parse_move`'s messages: printable, but asked for a move at a leaf it
/// names the node by its labels, which have no length limit (`node <label> is a leaf: it has
/// no moves`), so a tree with a 300-letter label makes a message of over 300 bytes.
const MOVE_RULES: MessageRules = MessageRules {
    short: false,
    printable: true,
};

/// Writes the subtree of `node` in the file format (recursion is bounded by MAX_DEPTH + 1).
fn write(t: &Tree, node: u32, out: &mut String) {
    if let Some(l) = t.label(node) {
        out.push_str(l);
        out.push(':');
    }
    match t.value(node) {
        Some(v) => out.push_str(&v.to_string()),
        None => {
            out.push('(');
            for (i, k) in t.children(node).enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write(t, k, out);
            }
            out.push(')');
        }
    }
}

fn check_tree(t: &Tree, side: Player) {
    let n = t.len() as u32;
    assert!(n >= 1 && !t.is_empty());
    assert_eq!(t.root(), 0);
    assert_eq!(t.root_side(), side);
    assert_eq!(t.parent(0), None);
    let mut leaves = 0;
    for v in 0..n {
        let kids = t.children(v);
        assert!(kids.len() <= MAX_CHILDREN);
        assert_eq!(t.is_leaf(v), kids.is_empty());
        match t.value(v) {
            Some(x) => {
                assert!(t.is_leaf(v));
                assert!(x.abs() <= MAX_ABS_VALUE);
                leaves += 1;
            }
            None => assert!(!t.is_leaf(v)),
        }
        let mut h = 0;
        for (i, k) in kids.clone().enumerate() {
            assert!(k > v && k < n, "children come after their parent");
            assert_eq!(t.parent(k), Some(v));
            assert_eq!(t.depth(k), t.depth(v) + 1);
            assert_eq!(t.index_in_parent(k), i + 1);
            h = h.max(t.node_height(k) + 1);
        }
        assert_eq!(t.node_height(v), h);
        if let Some(l) = t.label(v) {
            assert!(!l.is_empty());
        }
    }
    assert_eq!(t.leaves(), leaves);
    assert_eq!(t.height(), t.node_height(0));
    assert_eq!(t.subtree_size(0), n as usize);
    // The implicit top level adds one level above the deepest parentheses.
    assert!(t.height() <= MAX_DEPTH + 1, "height {}", t.height());
}

fn same(a: &Tree, b: &Tree) {
    assert_eq!(a.len(), b.len());
    for v in 0..a.len() as u32 {
        assert_eq!(a.children(v), b.children(v));
        assert_eq!(a.value(v), b.value(v));
        assert_eq!(a.label(v), b.label(v));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else {
        return;
    };
    let side = if flag & 1 == 0 {
        Player::First
    } else {
        Player::Second
    };
    let text = text(rest);
    let tree = match Tree::parse(&text, side) {
        Ok(t) => t,
        Err(e) => return check_message("Tree::parse", &e.0, STRICT),
    };
    check_tree(&tree, side);
    let mut out = String::new();
    write(&tree, 0, &mut out);
    let again = Tree::parse(&out, side)
        .unwrap_or_else(|e| panic!("written back as {out:?}, the tree does not parse: {e}"));
    same(&tree, &again);

    let root = tree.initial();
    let mut moves = <Tree as Game>::Moves::default();
    if !tree.is_leaf(0) {
        tree.moves(&root, &mut moves);
        for &mv in moves.as_slice() {
            let s = tree.format_move(&root, mv);
            assert_eq!(tree.parse_move(&root, &s), Ok(mv), "move {s:?}");
        }
    }
    // At the root and at the last node, a leaf (children come after their parent).
    for pos in [root, tree.pos(tree.len() as u32 - 1)] {
        if let Err(e) = tree.parse_move(&pos, &text) {
            check_message("Tree::parse_move", &e.0, MOVE_RULES);
        }
    }

    if tree.len() <= 200 && tree.height() <= 24 {
        let want = search(&tree, root, Algorithm::Minimax, None).value;
        for algo in Algorithm::ALL {
            let got = search(&tree, root, algo, None).value;
            assert_eq!(got, want, "{algo:?} on {out}");
        }
    }
});
