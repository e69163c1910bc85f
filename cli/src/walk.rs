//! A search of a hand-written tree as the textbook walk-through: the order in which values
//! settled, from MAX's view, the pruned subtrees with the kind of cut and its bound, and a
//! Graphviz drawing, read off a [`Trace`] of the search.

use cutoff::game::{Player, Value};
use cutoff::games::tree::Tree;
use cutoff::trace::{Event, Trace};
use std::fmt::Write as _;

/// The kind of cut that pruned a subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// At a MIN node: its value fell to alpha, the best MAX is already sure of above it.
    Alpha,
    /// At a MAX node: its value rose to beta, the best MIN is already sure of above it.
    Beta,
}

impl Cut {
    /// "alpha" or "beta".
    pub fn name(self) -> &'static str {
        match self {
            Cut::Alpha => "alpha",
            Cut::Beta => "beta",
        }
    }
}

/// A node settling, from MAX's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settle {
    /// The node.
    pub node: u32,
    /// Its value from MAX's view (leaf scale).
    pub value: Value,
}

/// A pruned subtree, from MAX's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prune {
    /// The root of the pruned subtree.
    pub node: u32,
    /// The node that cut off.
    pub parent: u32,
    /// Beta cut at a MAX parent, alpha cut at a MIN parent.
    pub cut: Cut,
    /// The bound from MAX's view: beta at a MAX parent, alpha at a MIN parent.
    pub bound: Value,
}

/// A search of a hand-written tree as a textbook walk-through, every value from MAX's view.
#[derive(Clone, Debug, Default)]
pub struct TreeWalk {
    /// The nodes in the order they settled (a node searched twice appears twice).
    pub order: Vec<Settle>,
    /// The pruned subtrees in the order they were cut off.
    pub pruned: Vec<Prune>,
}

impl TreeWalk {
    /// Reads a trace of a search of `tree`.
    pub fn new(tree: &Tree, trace: &Trace<Tree>) -> Self {
        let mut walk = TreeWalk::default();
        for e in trace.events() {
            match *e {
                Event::Settled { pos, value, .. } => walk.order.push(Settle {
                    node: pos.node,
                    value: value * pos.side.sign(),
                }),
                Event::Pruned {
                    parent, mv, bound, ..
                } => {
                    let (cut, bound) = match parent.side {
                        Player::First => (Cut::Beta, bound),
                        Player::Second => (Cut::Alpha, -bound),
                    };
                    debug_assert_eq!(tree.parent(mv), Some(parent.node));
                    walk.pruned.push(Prune {
                        node: mv,
                        parent: parent.node,
                        cut,
                        bound,
                    });
                }
            }
        }
        walk
    }

    /// The leaves evaluated, in order (a leaf evaluated twice appears twice).
    pub fn leaves<'a>(&'a self, tree: &'a Tree) -> impl Iterator<Item = u32> + 'a {
        self.order
            .iter()
            .map(|s| s.node)
            .filter(|&n| tree.is_leaf(n))
    }

    /// The walk-through as text: the settle order, then the pruned subtrees.
    pub fn lines(&self, tree: &Tree) -> String {
        let cut_nodes: std::collections::HashSet<u32> =
            self.pruned.iter().map(|p| p.parent).collect();
        let mut out = String::from("settle order (values from MAX's view):\n");
        for (i, s) in self.order.iter().enumerate() {
            let name = tree.name(s.node);
            let _ = if tree.is_leaf(s.node) {
                writeln!(out, "  {:>3}. {name} = {} (leaf)", i + 1, s.value)
            } else {
                let side = side_name(tree.side(s.node));
                if cut_nodes.contains(&s.node) {
                    // A cut node's value is a bound: at least it at MAX, at most at MIN.
                    let rel = if tree.side(s.node) == Player::First {
                        ">="
                    } else {
                        "<="
                    };
                    writeln!(
                        out,
                        "  {:>3}. {name} {rel} {} ({side}, cut off)",
                        i + 1,
                        s.value
                    )
                } else {
                    writeln!(out, "  {:>3}. {name} = {} ({side})", i + 1, s.value)
                }
            };
        }
        if self.pruned.is_empty() {
            out.push_str("pruned: nothing\n");
        } else {
            out.push_str("pruned:\n");
            for p in &self.pruned {
                let what = match tree.value(p.node) {
                    Some(v) => format!("leaf {v}"),
                    None => format!("subtree of {} nodes", tree.subtree_size(p.node)),
                };
                let _ = writeln!(
                    out,
                    "  {} ({what}): {} cut at {} ({}), {} = {}",
                    tree.name(p.node),
                    p.cut.name(),
                    tree.name(p.parent),
                    side_name(tree.side(p.parent)),
                    p.cut.name(),
                    p.bound
                );
            }
        }
        out
    }

    /// The tree as a Graphviz `digraph`: MAX nodes as boxes, MIN nodes as ellipses, each
    /// labelled with its name and the value it last settled on (leaves: their value). Edges
    /// into pruned subtrees and every node never searched inside them are dashed and grey;
    /// nodes never searched get no value.
    pub fn dot(&self, tree: &Tree) -> String {
        let n = tree.len();
        let mut value: Vec<Option<Value>> = vec![None; n];
        for s in &self.order {
            value[s.node as usize] = Some(s.value);
        }
        // Inside a pruned subtree: the pruned roots, then (breadth-first, parents first) their
        // descendants.
        let mut pruned = vec![false; n];
        for p in &self.pruned {
            pruned[p.node as usize] = true;
        }
        for k in 1..n as u32 {
            let parent = tree.parent(k).expect("only the root has no parent");
            if pruned[parent as usize] {
                pruned[k as usize] = true;
            }
        }
        let mut out = String::from("digraph tree {\n");
        out.push_str("  // MAX nodes are boxes, MIN nodes ellipses; dashed grey: pruned.\n");
        out.push_str("  node [fontname=\"Helvetica\"];\n  edge [arrowhead=none];\n");
        for k in 0..n as u32 {
            let shape = match tree.side(k) {
                Player::First => "box",
                Player::Second => "ellipse",
            };
            let name = escape(&tree.name(k));
            let label = match value[k as usize] {
                Some(v) => format!("{name}\\n{v}"),
                None => name,
            };
            let dashed = pruned[k as usize] && value[k as usize].is_none();
            let style = if dashed {
                ", style=dashed, color=grey, fontcolor=grey"
            } else {
                ""
            };
            let _ = writeln!(out, "  n{k} [shape={shape}, label=\"{label}\"{style}];");
        }
        for k in 1..n as u32 {
            let parent = tree.parent(k).expect("only the root has no parent");
            let dashed = pruned[k as usize] && value[k as usize].is_none();
            let style = if dashed {
                " [style=dashed, color=grey]"
            } else {
                ""
            };
            let _ = writeln!(out, "  n{parent} -> n{k}{style};");
        }
        out.push_str("}\n");
        out
    }
}

fn side_name(side: Player) -> &'static str {
    match side {
        Player::First => "MAX",
        Player::Second => "MIN",
    }
}

/// Escapes a DOT string (labels hold only letters, digits and `_-.`, but be safe).
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
