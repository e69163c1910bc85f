//! The game description ([`Extensive`]) and the flat tree built from it once ([`ExtensiveTree`]).
//!
//! # Layout
//!
//! Nodes are numbered breadth first from the root (node 0), so that
//!
//! - the children of a node have consecutive numbers (a node stores its first child and a
//!   count, no child list), and
//! - every child has a larger number than its parent: one forward loop carries reach
//!   probabilities down, one backward loop carries values up, with no recursion and no stack;
//! - the nodes of one depth are consecutive and, among themselves, in the order a depth-first
//!   walk meets them, so the backward loop, taking the depths deepest first and each depth
//!   front to back, adds up an information set's histories in a recursive CFR's order.
//!
//! The non-terminal nodes are also kept in a packed array of their own, in the same order,
//! which is all the solver's loops read besides the values, probabilities and regrets.
//!
//! Every (information set, action) pair owns a *slot*, and an information set's slots are
//! consecutive and in the order of its actions, so a node's action `a` reads slot
//! `first_slot + a`. A strategy is a `&[f64]` of [`ExtensiveTree::slots`] probabilities. Chance
//! probabilities get slots of their own after the strategy slots ([`ExtensiveTree::chance_probs`]), so
//! the walks read a decision node's strategy and a chance node's distribution from one array
//! with the same code.
//!
//! Information sets are numbered in the order the breadth-first walk first meets them. With
//! perfect recall (which the builder checks) an information set that follows another of the
//! same player always gets the larger number, so one forward pass over a player's information
//! sets computes the player's own reach probabilities.

use crate::players::{Turn, MAX_PLAYERS};
use std::collections::{HashMap, VecDeque};
use std::fmt;

/// No slot: the parent sequence of an information set its player reaches without acting first.
pub const NO_SLOT: u32 = u32::MAX;

/// The owner of a chance node in [`ExtensiveTree::owner`].
pub const CHANCE: u8 = 254;

/// The owner of a terminal node in [`ExtensiveTree::owner`].
pub const TERMINAL: u8 = 255;

/// Most nodes a tree may have (indices are `u32`, and one value is kept free).
pub const MAX_NODES: usize = u32::MAX as usize - 1;

/// An extensive-form game with imperfect information, as the tree builder sees it.
///
/// Actions and chance outcomes are numbered `0..n` at each node. The full-width solvers
/// see the game only through the [`ExtensiveTree`] built from it, once; external-sampling MCCFR
/// ([`super::mccfr`]) walks the game itself and calls `turn`, `play`, `chance`, `payoffs` and
/// `infoset_key` at every node of every traversal, so those should not allocate.
pub trait Extensive {
    /// A history (a node of the game tree): the moves and outcomes so far, or whatever
    /// determines them.
    type State: Clone;

    /// The game's name, for reports.
    fn name(&self) -> &'static str;

    /// Number of players, 1..=[`MAX_PLAYERS`].
    fn players(&self) -> usize;

    /// The root history.
    fn root(&self) -> Self::State;

    /// Who acts at `s`: a player, chance, or nobody (terminal).
    fn turn(&self, s: &Self::State) -> Turn;

    /// The number of actions of the player to move at `s` (at least 1). Every history of an
    /// information set must have the same number, with the same meaning.
    fn actions(&self, s: &Self::State) -> usize;

    /// The outcome probabilities of the chance node `s`, written into `out` (cleared first):
    /// outcome `i` is played as action `i`. They are positive and sum to 1.
    fn chance(&self, s: &Self::State, out: &mut Vec<f64>);

    /// The history after action (or outcome) `a` at `s`.
    fn play(&self, s: &Self::State, a: usize) -> Self::State;

    /// The key of the information set of the player to move at `s`, written into `out`
    /// (cleared first): equal exactly for the histories that player cannot tell apart. Keys of
    /// different players must differ. A buffer rather than a returned `String`, so that the
    /// sampling solvers, which ask for a key at every decision node they walk, reuse one
    /// buffer and allocate nothing.
    fn infoset_key(&self, s: &Self::State, out: &mut String);

    /// The payoffs of the terminal history `s`, one per player, written into `out`
    /// (`out.len() == players()`).
    fn payoffs(&self, s: &Self::State, out: &mut [f64]);

    /// Action `a` at decision node `s` in words, for printing strategies.
    fn action_name(&self, _s: &Self::State, a: usize) -> String {
        a.to_string()
    }
}

/// Why a game could not be built into a [`ExtensiveTree`].
#[derive(Clone, Debug, PartialEq)]
pub enum TreeError {
    /// [`Extensive::players`] is 0 or above [`MAX_PLAYERS`].
    Players(usize),
    /// A decision node named a player out of range.
    BadPlayer(String),
    /// A node with no actions or no chance outcomes.
    NoActions(String),
    /// A chance node whose probabilities are not positive or do not sum to 1.
    BadChance(String),
    /// Two histories of one information set disagree on the player or the number of actions.
    Inconsistent(String),
    /// Two histories of one information set differ in the player's own earlier information
    /// sets and actions: the game does not have perfect recall.
    NotPerfectRecall(String),
    /// The tree has more than [`MAX_NODES`] nodes, or more slots than fit in `u32`.
    TooLarge,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::Players(n) => write!(f, "{n} players (1 to {MAX_PLAYERS} allowed)"),
            TreeError::BadPlayer(k) => write!(f, "player out of range at information set {k}"),
            TreeError::NoActions(k) => write!(f, "no actions at {k}"),
            TreeError::BadChance(k) => write!(f, "bad chance probabilities at {k}"),
            TreeError::Inconsistent(k) => {
                write!(
                    f,
                    "histories of information set {k} disagree on player or actions"
                )
            }
            TreeError::NotPerfectRecall(k) => {
                write!(f, "information set {k} breaks perfect recall")
            }
            TreeError::TooLarge => write!(f, "the tree is too large"),
        }
    }
}

impl std::error::Error for TreeError {}

/// An information set: where a player decides without knowing which of its histories is the
/// real one.
#[derive(Clone, Debug, PartialEq)]
pub struct Infoset {
    /// The player who decides.
    pub player: usize,
    /// Its first slot; action `a` is slot `first_slot + a`.
    pub first_slot: u32,
    /// The number of actions.
    pub actions: u32,
    /// The slot of the player's last own action before reaching this set ([`NO_SLOT`] for
    /// none): with perfect recall the same for every history of the set, so the player's own
    /// reach probability of the set is a product along these links.
    pub parent_slot: u32,
    /// The key the game gave it.
    pub key: String,
}

/// A node's entry in the walks' inner loops: everything a non-terminal node needs, packed in
/// 16 bytes and stored breadth first, so the loops read one array front to back (or back to
/// front).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inner {
    /// The node's number.
    pub node: u32,
    /// Its first child; the others follow.
    pub first_child: u32,
    /// The slot of its first action (decision) or first outcome (chance), in the combined
    /// strategy-then-chance array.
    pub slot: u32,
    /// Number of children.
    pub count: u16,
    /// The player to move, or [`CHANCE`].
    pub owner: u8,
}

/// The game tree of an [`Extensive`] game, built once into flat arrays (see the module
/// comment).
#[derive(Clone, Debug)]
pub struct ExtensiveTree {
    name: &'static str,
    players: usize,
    /// Owner of each node: a player, [`CHANCE`] or [`TERMINAL`].
    owner: Vec<u8>,
    /// First child of each node (0 for terminals).
    first_child: Vec<u32>,
    /// Children of each node (0 for terminals).
    count: Vec<u16>,
    /// Decision node: its information set. Chance node: the offset of its outcome
    /// probabilities in `chance_probs`. Terminal: its number among the terminals.
    index: Vec<u32>,
    /// The non-terminal nodes, breadth first.
    inner: Vec<Inner>,
    /// Where each depth's non-terminal nodes start in `inner`, and the end.
    levels: Vec<u32>,
    /// The probability of each node's chance outcomes (the product along its path).
    chance_reach: Vec<f64>,
    /// The payoffs of terminal `t`: `payoffs[t * players..][..players]`.
    payoffs: Vec<f64>,
    /// The chance outcome probabilities, node after node.
    chance_probs: Vec<f64>,
    infosets: Vec<Infoset>,
    /// The information set of each slot.
    slot_infoset: Vec<u32>,
    /// The action names, one per slot.
    action_names: Vec<String>,
    /// The information sets of each player, in increasing order.
    player_infosets: Vec<Vec<u32>>,
    /// The nodes of information set `i`: `infoset_nodes[infoset_start[i]..infoset_start[i + 1]]`.
    infoset_nodes: Vec<u32>,
    infoset_start: Vec<u32>,
    slots: usize,
    decision_nodes: usize,
    chance_nodes: usize,
    terminal_nodes: usize,
}

impl ExtensiveTree {
    /// Builds the whole tree of `game`, breadth first.
    pub fn build<G: Extensive>(game: &G) -> Result<ExtensiveTree, TreeError> {
        let players = game.players();
        if players == 0 || players > MAX_PLAYERS {
            return Err(TreeError::Players(players));
        }
        let mut t = ExtensiveTree {
            name: game.name(),
            players,
            owner: Vec::new(),
            first_child: Vec::new(),
            count: Vec::new(),
            index: Vec::new(),
            inner: Vec::new(),
            levels: Vec::new(),
            chance_reach: Vec::new(),
            payoffs: Vec::new(),
            chance_probs: Vec::new(),
            infosets: Vec::new(),
            slot_infoset: Vec::new(),
            action_names: Vec::new(),
            player_infosets: vec![Vec::new(); players],
            infoset_nodes: Vec::new(),
            infoset_start: Vec::new(),
            slots: 0,
            decision_nodes: 0,
            chance_nodes: 0,
            terminal_nodes: 0,
        };
        let mut ids: HashMap<String, u32> = HashMap::new();
        // Per queued node: its history, each player's last own slot on the path to it, its
        // chance reach and its depth.
        let mut queue: VecDeque<(G::State, [u32; MAX_PLAYERS], f64, u32)> = VecDeque::new();
        queue.push_back((game.root(), [NO_SLOT; MAX_PLAYERS], 1.0, 0));
        // Nodes numbered so far (the queue holds exactly the numbered, unexpanded ones).
        let mut numbered: usize = 1;
        let mut probs = Vec::new();
        let mut pay = vec![0.0; players];
        let mut node: u32 = 0;
        // Chance nodes read probabilities at `slots + offset`, and `slots` is only known at
        // the end: remember which inner entries to fix.
        let mut chance_inner = Vec::new();
        while let Some((s, last, chance_reach, depth)) = queue.pop_front() {
            let first = numbered;
            t.chance_reach.push(chance_reach);
            let turn = game.turn(&s);
            // The first non-terminal node of a new depth starts a level.
            if turn != Turn::Terminal && t.levels.len() <= depth as usize {
                t.levels.push(t.inner.len() as u32);
            }
            match turn {
                Turn::Terminal => {
                    game.payoffs(&s, &mut pay);
                    t.owner.push(TERMINAL);
                    t.first_child.push(0);
                    t.count.push(0);
                    t.index.push(t.terminal_nodes as u32);
                    t.payoffs.extend_from_slice(&pay);
                    t.terminal_nodes += 1;
                }
                Turn::Chance => {
                    game.chance(&s, &mut probs);
                    let n = probs.len();
                    let sum: f64 = probs.iter().sum();
                    if n == 0 {
                        return Err(TreeError::NoActions(format!("chance node {node}")));
                    }
                    if probs.iter().any(|&p| p.is_nan() || p <= 0.0) || (sum - 1.0).abs() > 1e-9 {
                        return Err(TreeError::BadChance(format!("chance node {node}")));
                    }
                    if n > u16::MAX as usize {
                        return Err(TreeError::TooLarge);
                    }
                    let offset = t.chance_probs.len() as u32;
                    t.owner.push(CHANCE);
                    t.first_child.push(first as u32);
                    t.count.push(n as u16);
                    t.index.push(offset);
                    chance_inner.push(t.inner.len());
                    t.inner.push(Inner {
                        node,
                        first_child: first as u32,
                        slot: offset,
                        count: n as u16,
                        owner: CHANCE,
                    });
                    t.chance_probs.extend_from_slice(&probs);
                    for (a, &p) in probs.iter().enumerate() {
                        queue.push_back((game.play(&s, a), last, chance_reach * p, depth + 1));
                    }
                    numbered += n;
                    t.chance_nodes += 1;
                }
                Turn::Player(p) => {
                    let mut key = String::new();
                    game.infoset_key(&s, &mut key);
                    if p >= players {
                        return Err(TreeError::BadPlayer(key));
                    }
                    let n = game.actions(&s);
                    if n == 0 {
                        return Err(TreeError::NoActions(key));
                    }
                    if n > u16::MAX as usize {
                        return Err(TreeError::TooLarge);
                    }
                    let id = match ids.get(&key) {
                        Some(&id) => {
                            let set = &t.infosets[id as usize];
                            if set.player != p || set.actions as usize != n {
                                return Err(TreeError::Inconsistent(key));
                            }
                            if set.parent_slot != last[p] {
                                return Err(TreeError::NotPerfectRecall(key));
                            }
                            id
                        }
                        None => {
                            let id = t.infosets.len() as u32;
                            if t.slots + n > u32::MAX as usize - 1 {
                                return Err(TreeError::TooLarge);
                            }
                            for a in 0..n {
                                t.action_names.push(game.action_name(&s, a));
                                t.slot_infoset.push(id);
                            }
                            t.infosets.push(Infoset {
                                player: p,
                                first_slot: t.slots as u32,
                                actions: n as u32,
                                parent_slot: last[p],
                                key: key.clone(),
                            });
                            t.player_infosets[p].push(id);
                            t.slots += n;
                            ids.insert(key, id);
                            id
                        }
                    };
                    let first_slot = t.infosets[id as usize].first_slot;
                    t.owner.push(p as u8);
                    t.first_child.push(first as u32);
                    t.count.push(n as u16);
                    t.index.push(id);
                    t.inner.push(Inner {
                        node,
                        first_child: first as u32,
                        slot: first_slot,
                        count: n as u16,
                        owner: p as u8,
                    });
                    for a in 0..n {
                        let mut l = last;
                        l[p] = first_slot + a as u32;
                        queue.push_back((game.play(&s, a), l, chance_reach, depth + 1));
                    }
                    numbered += n;
                    t.decision_nodes += 1;
                }
            }
            if numbered > MAX_NODES {
                return Err(TreeError::TooLarge);
            }
            node += 1;
        }
        if t.slots + t.chance_probs.len() > u32::MAX as usize - 1 {
            return Err(TreeError::TooLarge);
        }
        for i in chance_inner {
            t.inner[i].slot += t.slots as u32;
        }
        t.levels.push(t.inner.len() as u32);
        // The nodes of each information set, as one flat list (counting sort by set).
        let sets = t.infosets.len();
        let mut start = vec![0u32; sets + 1];
        for (n, &o) in t.owner.iter().enumerate() {
            if (o as usize) < players {
                start[t.index[n] as usize + 1] += 1;
            }
        }
        for i in 0..sets {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        t.infoset_nodes = vec![0; start[sets] as usize];
        for (n, &o) in t.owner.iter().enumerate() {
            if (o as usize) < players {
                let i = t.index[n] as usize;
                t.infoset_nodes[fill[i] as usize] = n as u32;
                fill[i] += 1;
            }
        }
        t.infoset_start = start;
        Ok(t)
    }

    /// The game's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Number of nodes of every kind.
    pub fn nodes(&self) -> usize {
        self.owner.len()
    }

    /// Number of decision nodes.
    pub fn decision_nodes(&self) -> usize {
        self.decision_nodes
    }

    /// Number of chance nodes.
    pub fn chance_nodes(&self) -> usize {
        self.chance_nodes
    }

    /// Number of terminal nodes.
    pub fn terminal_nodes(&self) -> usize {
        self.terminal_nodes
    }

    /// Number of (information set, action) slots: the length of a strategy.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The information sets, numbered in the order the breadth-first build met them.
    pub fn infosets(&self) -> &[Infoset] {
        &self.infosets
    }

    /// The information sets of `player`, in increasing order.
    pub fn player_infosets(&self, player: usize) -> &[u32] {
        &self.player_infosets[player]
    }

    /// The information set with key `key`, if there is one (a linear search: for tests and
    /// reports, not for loops).
    pub fn find_infoset(&self, key: &str) -> Option<usize> {
        self.infosets.iter().position(|s| s.key == key)
    }

    /// The information set that owns `slot`.
    pub fn slot_infoset(&self, slot: usize) -> usize {
        self.slot_infoset[slot] as usize
    }

    /// The name of the action of `slot`.
    pub fn action_name(&self, slot: usize) -> &str {
        &self.action_names[slot]
    }

    /// The decision nodes of information set `i`.
    pub fn infoset_nodes(&self, i: usize) -> &[u32] {
        &self.infoset_nodes[self.infoset_start[i] as usize..self.infoset_start[i + 1] as usize]
    }

    /// The owner of node `n`: a player, [`CHANCE`] or [`TERMINAL`].
    pub fn owner(&self, n: usize) -> u8 {
        self.owner[n]
    }

    /// The children of node `n`, as a range of node numbers (empty for a terminal).
    pub fn children(&self, n: usize) -> std::ops::Range<usize> {
        let f = self.first_child[n] as usize;
        f..f + self.count[n] as usize
    }

    /// The information set of decision node `n`.
    pub fn node_infoset(&self, n: usize) -> usize {
        debug_assert!((self.owner[n] as usize) < self.players);
        self.index[n] as usize
    }

    /// The outcome probabilities of chance node `n`.
    pub fn node_chance_probs(&self, n: usize) -> &[f64] {
        debug_assert_eq!(self.owner[n], CHANCE);
        let o = self.index[n] as usize;
        &self.chance_probs[o..o + self.count[n] as usize]
    }

    /// The payoffs of terminal node `n`, one per player.
    pub fn node_payoffs(&self, n: usize) -> &[f64] {
        debug_assert_eq!(self.owner[n], TERMINAL);
        let t = self.index[n] as usize;
        &self.payoffs[t * self.players..(t + 1) * self.players]
    }

    /// The largest absolute payoff of any player at any terminal node (0 for a tree without
    /// payoffs): the scale of every value, and so of the bounds on a saved state's sums.
    pub fn max_abs_payoff(&self) -> f64 {
        self.payoffs.iter().fold(0.0, |m, &x| m.max(x.abs()))
    }

    /// All chance probabilities, node after node. The walks read them at slot
    /// `slots() + offset`, after the strategy.
    pub fn chance_probs(&self) -> &[f64] {
        &self.chance_probs
    }

    /// The non-terminal nodes, breadth first.
    pub(crate) fn inner(&self) -> &[Inner] {
        &self.inner
    }

    /// The non-terminal nodes of each depth, root first: ranges of indices into
    /// [`ExtensiveTree::inner`].
    pub(crate) fn levels(&self) -> impl DoubleEndedIterator<Item = std::ops::Range<usize>> + '_ {
        self.levels.windows(2).map(|w| w[0] as usize..w[1] as usize)
    }

    /// The probability that chance's outcomes on the path to node `n` all happen.
    pub fn chance_reach(&self, n: usize) -> f64 {
        self.chance_reach[n]
    }

    /// [`ExtensiveTree::chance_reach`] of every node.
    pub(crate) fn chance_reaches(&self) -> &[f64] {
        &self.chance_reach
    }

    /// The uniform strategy: every action of an information set equally likely.
    pub fn uniform_strategy(&self) -> Vec<f64> {
        let mut s = vec![0.0; self.slots];
        for set in &self.infosets {
            let f = set.first_slot as usize;
            let n = set.actions as usize;
            s[f..f + n].fill(1.0 / n as f64);
        }
        s
    }

    /// `strategy` followed by the chance probabilities: the one array the walks read a node's
    /// distribution from.
    pub(crate) fn with_chance(&self, strategy: &[f64]) -> Vec<f64> {
        assert_eq!(
            strategy.len(),
            self.slots,
            "a strategy has one entry per slot"
        );
        let mut p = Vec::with_capacity(self.slots + self.chance_probs.len());
        p.extend_from_slice(strategy);
        p.extend_from_slice(&self.chance_probs);
        p
    }

    /// The strategy of information set `i` in words, for reports: `key: action p, ...`.
    pub fn format_infoset(&self, strategy: &[f64], i: usize) -> String {
        let set = &self.infosets[i];
        let f = set.first_slot as usize;
        let mut s = format!("{}:", set.key);
        for a in 0..set.actions as usize {
            s.push_str(&format!(
                " {} {:.4}",
                self.action_names[f + a],
                strategy[f + a]
            ));
        }
        s
    }
}
