//! A search of a hand-written tree as the textbook walk-through: the order in which values
//! settled, from MAX's view, the pruned subtrees with the kind of cut and its bound, and a
//! Graphviz drawing, read off a [`Trace`] of the search. [`MultiWalk`] does the same for the
//! general trees (chance nodes, n players), read off a [`MultiTrace`].

use cutoff::game::{Player, Value};
use cutoff::games::chance::tree_multi::{format_payoffs, format_value, MultiTree};
use cutoff::games::perfect::tree::Tree;
use cutoff::multi::{Cut as MultiCut, MultiAlgorithm, MultiObserver, Payoffs};
use cutoff::trace::{Event, Trace};
use std::fmt::Write as _;

/// The kind of cut that pruned a subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutKind {
    /// At a MIN node: its value fell to alpha, the best MAX is already sure of above it.
    Alpha,
    /// At a MAX node: its value rose to beta, the best MIN is already sure of above it.
    Beta,
}

impl CutKind {
    /// "alpha" or "beta".
    pub fn name(self) -> &'static str {
        match self {
            CutKind::Alpha => "alpha",
            CutKind::Beta => "beta",
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
    pub cut: CutKind,
    /// The bound from MAX's view: beta at a MAX parent, alpha at a MIN parent.
    pub bound: Value,
}

/// One step of a search, for stepping through it (`cutoff serve`'s alpha-beta view), every
/// value from MAX's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Step {
    /// The search entered `node` with the window `(alpha, beta)`; `None`: unbounded on that
    /// side.
    Enter {
        /// The node.
        node: u32,
        /// The window's lower end.
        alpha: Option<Value>,
        /// The window's upper end.
        beta: Option<Value>,
    },
    /// `node` settled on `value`.
    Settle {
        /// The node.
        node: u32,
        /// Its value.
        value: Value,
    },
    /// The subtree `node` was pruned at `parent` by a `cut` ("alpha" or "beta") on `bound`.
    Prune {
        /// The root of the pruned subtree.
        node: u32,
        /// The node that cut off.
        parent: u32,
        /// "alpha" or "beta".
        cut: &'static str,
        /// The bound that caused it.
        bound: Value,
    },
}

/// A search of a hand-written tree as a textbook walk-through, every value from MAX's view.
#[derive(Clone, Debug, Default)]
pub struct TreeWalk {
    /// The nodes in the order they settled (a node searched twice appears twice).
    pub order: Vec<Settle>,
    /// The pruned subtrees in the order they were cut off.
    pub pruned: Vec<Prune>,
    /// Every event in order: entries with their windows, settlings and prunings.
    pub steps: Vec<Step>,
}

/// A window end as MAX sees it: `None` where the search set no bound.
fn bound(v: Value) -> Option<Value> {
    (v.abs() < cutoff::game::INF - 1).then_some(v)
}

impl TreeWalk {
    /// Reads a trace of a search of `tree`.
    pub fn new(tree: &Tree, trace: &Trace<Tree>) -> Self {
        let mut walk = TreeWalk::default();
        for e in trace.events() {
            match *e {
                Event::Entered {
                    pos, alpha, beta, ..
                } => {
                    // From the side to move to MAX's view: a MIN node's (a, b) is (-b, -a).
                    let (lo, hi) = match pos.side {
                        Player::First => (alpha, beta),
                        Player::Second => (-beta, -alpha),
                    };
                    walk.steps.push(Step::Enter {
                        node: pos.node,
                        alpha: bound(lo),
                        beta: bound(hi),
                    });
                }
                Event::Settled { pos, value, .. } => {
                    let s = Settle {
                        node: pos.node,
                        value: value * pos.side.sign(),
                    };
                    walk.order.push(s);
                    walk.steps.push(Step::Settle {
                        node: s.node,
                        value: s.value,
                    });
                }
                Event::Pruned {
                    parent, mv, bound, ..
                } => {
                    let (cut, bound) = match parent.side {
                        Player::First => (CutKind::Beta, bound),
                        Player::Second => (CutKind::Alpha, -bound),
                    };
                    debug_assert_eq!(tree.parent(mv), Some(parent.node));
                    walk.pruned.push(Prune {
                        node: mv,
                        parent: parent.node,
                        cut,
                        bound,
                    });
                    walk.steps.push(Step::Prune {
                        node: mv,
                        parent: parent.node,
                        cut: cut.name(),
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

// ---------------------------------------------------------------------------------------------
// General trees: chance nodes, vector leaves, n players.

/// One event of a search of a [`MultiTree`], as the search reported it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MultiEvent {
    /// A node's values settled (`exact` false: the search proved only a bound).
    Settled {
        /// The node.
        node: u32,
        /// One value per player.
        values: Payoffs,
        /// False where the value is only a bound.
        exact: bool,
    },
    /// The children of `parent` from index `from` on were skipped.
    Pruned {
        /// The node that cut off.
        parent: u32,
        /// The first skipped child, as an index among its siblings (0-based).
        from: usize,
        /// The kind of cut and its bound.
        cut: MultiCut,
    },
    /// The search entered `node` with a window on `player`'s payoff (see
    /// [`MultiObserver::entered`]).
    Entered {
        /// The node.
        node: u32,
        /// Whose payoff the window bounds.
        player: usize,
        /// The window's ends (infinite: unbounded).
        window: (f64, f64),
    },
}

/// Records the events of a search of a [`MultiTree`] (the observer the searches call).
#[derive(Clone, Debug, Default)]
pub struct MultiTrace {
    /// The events in the order they happened.
    pub events: Vec<MultiEvent>,
}

impl MultiObserver<MultiTree> for MultiTrace {
    fn settled(&mut self, _ply: usize, pos: &u32, value: &Payoffs, exact: bool) {
        self.events.push(MultiEvent::Settled {
            node: *pos,
            values: *value,
            exact,
        });
    }

    fn pruned(&mut self, _ply: usize, parent: &u32, from: usize, cut: MultiCut) {
        self.events.push(MultiEvent::Pruned {
            parent: *parent,
            from,
            cut,
        });
    }

    fn entered(&mut self, _ply: usize, pos: &u32, player: usize, window: (f64, f64)) {
        self.events.push(MultiEvent::Entered {
            node: *pos,
            player,
            window,
        });
    }
}

/// One step of a search of a general tree, for stepping through it (`cutoff serve`'s
/// alpha-beta view). Scalar trees show values and bounds from MAX's view, as [`Step`] does;
/// vector trees name the player a window or bound is for.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum MultiStep {
    /// The search entered `node` with the window `(alpha, beta)`; `None`: unbounded.
    Enter {
        /// The node.
        node: u32,
        /// The window's lower end.
        alpha: Option<f64>,
        /// The window's upper end.
        beta: Option<f64>,
        /// Vector trees: whose payoff the window bounds (`None` for scalar trees, and where
        /// the window is unbounded).
        player: Option<usize>,
    },
    /// `node` settled on `value`, as [`show_values`] writes it; `exact` false: a bound.
    Settle {
        /// The node.
        node: u32,
        /// Its value.
        value: String,
        /// False where the search proved only a bound.
        exact: bool,
    },
    /// The subtree `node` was skipped at `parent` by a `cut` ("decision", "chance" or
    /// "probe") on `bound`.
    Prune {
        /// The root of the skipped subtree.
        node: u32,
        /// The node that cut off.
        parent: u32,
        /// The kind of cut.
        cut: &'static str,
        /// The bound, as [`format_value`] writes it.
        bound: String,
        /// Vector trees: whose payoff the bound is.
        player: Option<usize>,
    },
}

/// A finite window end to six decimals (Star1's windows carry rounding: -9.499999999999998),
/// `None` for an infinite one.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then(|| (v * 1e6).round() / 1e6)
}

/// A node settling in a search of a general tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiSettle {
    /// The node.
    pub node: u32,
    /// One value per player (for scalar trees the zero-sum pair, MAX's first).
    pub values: Payoffs,
    /// False where the search proved only a bound.
    pub exact: bool,
}

/// A child skipped in a search of a general tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiPrune {
    /// The root of the skipped subtree.
    pub node: u32,
    /// The node that cut off.
    pub parent: u32,
    /// The kind of cut and its bound, as the search reported them.
    pub cut: MultiCut,
    /// The player whose payoff the reported bound is (see [`bound_owner`]).
    pub owner: usize,
    /// The bound as the walk shows it: for scalar trees from MAX's view (the leaves' scale),
    /// for vector trees `owner`'s payoff.
    pub bound: f64,
}

/// A cut's bound as a payoff: the player whose payoff it is and its value for that player,
/// read by the convention of `algo`'s search at `node`, the node that cut. Star1 and Star2
/// (negamax form) report it for the node's owner (its player, or at a chance node the player
/// who moved into it); paranoid runs Star1 on the game seen as the root player against the
/// coalition, so for the root player, negated where the coalition owns the node; best-reply
/// search for the root player; max^n's shallow pruning for the player of the node's parent,
/// whose best value it is.
pub fn bound_owner(tree: &MultiTree, algo: MultiAlgorithm, node: u32, bound: f64) -> (usize, f64) {
    // The player who moved into `n` (the nearest decision ancestor's), 0 above the root as
    // the searches take it.
    let mover = |mut n: u32| loop {
        match tree.player(n) {
            Some(p) => break p,
            None => match tree.parent(n) {
                Some(q) => n = q,
                None => break 0,
            },
        }
    };
    let root = mover(tree.root());
    match algo {
        MultiAlgorithm::Maxn | MultiAlgorithm::MaxnPlain => (
            tree.parent(node).and_then(|q| tree.player(q)).unwrap_or(0),
            bound,
        ),
        MultiAlgorithm::Paranoid if mover(node) != root => (root, -bound),
        MultiAlgorithm::Paranoid | MultiAlgorithm::Brs => (root, bound),
        _ => (mover(node), bound),
    }
}

/// The name of a cut: "decision" (alpha-beta or shallow max^n pruning at a player's node),
/// "chance" (Star1's bounds at a chance node) or "probe" (Star2's probing).
pub fn cut_name(cut: MultiCut) -> &'static str {
    match cut {
        MultiCut::Decision(_) => "decision",
        MultiCut::Chance(_) => "chance",
        MultiCut::Probe(_) => "probe",
    }
}

/// The bound of a cut, as the search reported it.
pub fn cut_bound(cut: MultiCut) -> f64 {
    match cut {
        MultiCut::Decision(b) | MultiCut::Chance(b) | MultiCut::Probe(b) => b,
    }
}

/// Values as the walk shows them: for scalar trees player 0's (MAX's) value, the leaves'
/// scale; for vector trees the vector, `(3, 1, 4)`.
pub fn show_values(tree: &MultiTree, values: &Payoffs) -> String {
    if tree.has_vectors() {
        format_payoffs(values)
    } else {
        format_value(values.get(0))
    }
}

/// What a node is: "MAX" or "MIN" (two players), "player k" (more), "chance" or "leaf".
pub fn node_kind(tree: &MultiTree, node: u32) -> String {
    match tree.player(node) {
        Some(p) if tree.player_count() == 2 => if p == 0 { "MAX" } else { "MIN" }.to_string(),
        Some(p) => format!("player {p}"),
        None if tree.is_chance(node) => "chance".to_string(),
        None => "leaf".to_string(),
    }
}

/// A search of a general tree as a textbook walk-through.
#[derive(Clone, Debug, Default)]
pub struct MultiWalk {
    /// The nodes in the order they settled.
    pub order: Vec<MultiSettle>,
    /// The skipped children, one by one, in the order they were cut off.
    pub pruned: Vec<MultiPrune>,
    /// Every event in order: entries with their windows, settlings and skipped subtrees.
    pub steps: Vec<MultiStep>,
}

impl MultiWalk {
    /// Reads a trace of a search of `tree` by `algo`. A cut names the first skipped child by
    /// its index in the order the search tried them; searched without a table, every search of
    /// [`cutoff::multi`] tries a tree's children in file order, so the index is the file's.
    pub fn new(tree: &MultiTree, trace: &MultiTrace, algo: MultiAlgorithm) -> Self {
        let mut walk = MultiWalk::default();
        for e in &trace.events {
            match *e {
                MultiEvent::Settled {
                    node,
                    values,
                    exact,
                } => {
                    walk.order.push(MultiSettle {
                        node,
                        values,
                        exact,
                    });
                    walk.steps.push(MultiStep::Settle {
                        node,
                        value: show_values(tree, &values),
                        exact,
                    });
                }
                MultiEvent::Entered {
                    node,
                    player,
                    window: (a, b),
                } => {
                    let vectors = tree.has_vectors();
                    // Scalar trees: MIN's window on its own payoff is (-b, -a) for MAX.
                    let (a, b) = if !vectors && player == 1 {
                        (-b, -a)
                    } else {
                        (a, b)
                    };
                    let bounded = a.is_finite() || b.is_finite();
                    walk.steps.push(MultiStep::Enter {
                        node,
                        alpha: finite(a),
                        beta: finite(b),
                        player: (vectors && bounded).then_some(player),
                    });
                }
                MultiEvent::Pruned { parent, from, cut } => {
                    let (owner, b) = bound_owner(tree, algo, parent, cut_bound(cut));
                    // Scalar trees show every value from MAX's view, bounds included.
                    let bound = if !tree.has_vectors() && owner == 1 {
                        -b
                    } else {
                        b
                    };
                    for node in tree.children(parent).skip(from) {
                        walk.pruned.push(MultiPrune {
                            node,
                            parent,
                            cut,
                            owner,
                            bound,
                        });
                        walk.steps.push(MultiStep::Prune {
                            node,
                            parent,
                            cut: cut_name(cut),
                            bound: format_value(bound),
                            player: tree.has_vectors().then_some(owner),
                        });
                    }
                }
            }
        }
        walk
    }

    /// The walk-through as text: the settle order, then the skipped subtrees.
    pub fn lines(&self, tree: &MultiTree) -> String {
        let cut_nodes: std::collections::HashSet<u32> =
            self.pruned.iter().map(|p| p.parent).collect();
        let mut out = if tree.has_vectors() {
            String::from("settle order (values: one payoff per player):\n")
        } else {
            String::from("settle order (values from MAX's view):\n")
        };
        for (i, s) in self.order.iter().enumerate() {
            let name = tree.name(s.node);
            let v = show_values(tree, &s.values);
            let kind = node_kind(tree, s.node);
            let cut = if cut_nodes.contains(&s.node) {
                ", cut off"
            } else {
                ""
            };
            let _ = if s.exact {
                writeln!(out, "  {:>3}. {name} = {v} ({kind}{cut})", i + 1)
            } else {
                // Outside its window a node's value is only a bound on its true value.
                writeln!(out, "  {:>3}. {name} ~ {v} ({kind}, a bound{cut})", i + 1)
            };
        }
        if self.pruned.is_empty() {
            out.push_str("pruned: nothing\n");
        } else {
            out.push_str("pruned:\n");
            for p in &self.pruned {
                let mut what = match tree.leaf_payoffs(p.node) {
                    Some(v) => format!("leaf {}", show_values(tree, &v)),
                    None => format!("subtree of {} nodes", tree.subtree_size(p.node)),
                };
                if let Some(prob) = tree.prob_text(p.node) {
                    let _ = write!(what, ", p = {prob}");
                }
                let whose = if tree.has_vectors() {
                    format!(" for player {}", p.owner)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "  {} ({what}): {} cut at {} ({}), bound {}{whose}",
                    tree.name(p.node),
                    cut_name(p.cut),
                    tree.name(p.parent),
                    node_kind(tree, p.parent),
                    format_value(p.bound)
                );
            }
        }
        out
    }

    /// The tree as a Graphviz `digraph`: decision nodes by player (two players: MAX boxes,
    /// MIN ellipses), chance nodes circles, leaves plain text, each labelled with its name
    /// and the values it last settled on; the edges out of a chance node carry their
    /// probabilities as written. Edges into skipped subtrees and every node never searched
    /// inside them are dashed and grey.
    pub fn dot(&self, tree: &MultiTree) -> String {
        /// One shape per player, in player order (more players than shapes reuse them).
        const SHAPES: [&str; 8] = [
            "box",
            "ellipse",
            "hexagon",
            "diamond",
            "house",
            "invhouse",
            "octagon",
            "trapezium",
        ];
        let n = tree.len();
        let mut value: Vec<Option<String>> = vec![None; n];
        for s in &self.order {
            value[s.node as usize] = Some(show_values(tree, &s.values));
        }
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
        let players = tree.player_count();
        let mut out = String::from("digraph tree {\n");
        if players == 2 {
            out.push_str("  // MAX nodes are boxes, MIN nodes ellipses");
        } else {
            out.push_str("  // decision nodes by player:");
            for (p, shape) in SHAPES.iter().enumerate().take(players) {
                let _ = write!(out, " {p} {shape}");
            }
        }
        out.push_str(
            "; chance nodes circles, leaves text; edges out of chance nodes carry \
             probabilities; dashed grey: pruned.\n",
        );
        out.push_str("  node [fontname=\"Helvetica\"];\n  edge [arrowhead=none];\n");
        for k in 0..n as u32 {
            let shape = match tree.player(k) {
                Some(p) => SHAPES[p % SHAPES.len()],
                None if tree.is_chance(k) => "circle",
                None => "plaintext",
            };
            let name = escape(&tree.name(k));
            let label = match &value[k as usize] {
                Some(v) => format!("{name}\\n{}", escape(v)),
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
            let mut attrs = Vec::new();
            if let Some(p) = tree.prob_text(k) {
                attrs.push(format!("label=\"{}\"", escape(p)));
            }
            if pruned[k as usize] && value[k as usize].is_none() {
                attrs.push("style=dashed, color=grey".to_string());
            }
            if attrs.is_empty() {
                let _ = writeln!(out, "  n{parent} -> n{k};");
            } else {
                let _ = writeln!(out, "  n{parent} -> n{k} [{}];", attrs.join(", "));
            }
        }
        out.push_str("}\n");
        out
    }
}
