//! Exact evaluation of strategy profiles on a [`ExtensiveTree`]: expected values, best responses,
//! NashConv and exploitability.
//!
//! A profile is one `&[f64]` of [`ExtensiveTree::slots`] probabilities (every player's strategy in
//! one array). Nothing here is approximate: every walk covers the whole tree.
//!
//! A best response of player `p` is found information set by information set: at set `I` it
//! picks the action maximising `sum over h in I of reach_-p(h) * value(h, a)`, where
//! `reach_-p` is the probability that the other players and chance reach `h`, and the values
//! below already follow the best response at `p`'s later sets. With perfect recall this is a
//! best response in the whole game. The walk recurses (memoising node values and the choice
//! at each set), so its depth is the depth of the tree: fine for the small games the tree is
//! built for.

use super::tree::{ExtensiveTree, CHANCE, TERMINAL};
use crate::players::MAX_PLAYERS;

/// The expected payoff of every player when all play `profile`.
pub fn expected_values(tree: &ExtensiveTree, profile: &[f64]) -> Vec<f64> {
    let probs = tree.with_chance(profile);
    let players = tree.players();
    let mut val = vec![0.0; tree.nodes() * players];
    for n in 0..tree.nodes() {
        if tree.owner(n) == TERMINAL {
            val[n * players..(n + 1) * players].copy_from_slice(tree.node_payoffs(n));
        }
    }
    for e in tree.inner().iter().rev() {
        let mut acc = [0.0; MAX_PLAYERS];
        let f = e.first_child as usize;
        for k in 0..e.count as usize {
            let w = probs[e.slot as usize + k];
            let c = f + k;
            for (a, &v) in acc.iter_mut().zip(&val[c * players..(c + 1) * players]) {
                *a += w * v;
            }
        }
        let n = e.node as usize;
        val[n * players..(n + 1) * players].copy_from_slice(&acc[..players]);
    }
    val[..players].to_vec()
}

/// A best response of one player to the others' strategies.
#[derive(Clone, Debug, PartialEq)]
pub struct BestResponse {
    /// The player who responds.
    pub player: usize,
    /// The player's expected payoff when responding best.
    pub value: f64,
    /// The profile with the player's strategy replaced by the (pure) best response: 1 on the
    /// chosen action of each of the player's information sets, the others' strategies as
    /// given.
    pub profile: Vec<f64>,
}

/// The best response of `player` to the other players' strategies in `profile`.
pub fn best_response(tree: &ExtensiveTree, profile: &[f64], player: usize) -> BestResponse {
    assert!(player < tree.players(), "player {player} out of range");
    let probs = tree.with_chance(profile);
    let n = tree.nodes();
    // The reach of each node by the others and chance: `player`'s own edges count 1.
    let mut reach = vec![0.0; n];
    if n > 0 {
        reach[0] = 1.0;
    }
    for e in tree.inner() {
        let r = reach[e.node as usize];
        for k in 0..e.count as usize {
            let w = if e.owner as usize == player {
                1.0
            } else {
                probs[e.slot as usize + k]
            };
            reach[e.first_child as usize + k] = r * w;
        }
    }
    let mut br = Br {
        tree,
        probs: &probs,
        player,
        reach,
        value: vec![f64::NAN; n],
        best: vec![u32::MAX; tree.infosets().len()],
    };
    let value = br.value(0);
    let mut out = profile.to_vec();
    for &i in tree.player_infosets(player) {
        let set = &tree.infosets()[i as usize];
        let a = br.choose(i as usize);
        let f = set.first_slot as usize;
        let o = &mut out[f..f + set.actions as usize];
        o.fill(0.0);
        o[a] = 1.0;
    }
    BestResponse {
        player,
        value,
        profile: out,
    }
}

/// The best-response walk's state: memoised node values and choices.
struct Br<'a> {
    tree: &'a ExtensiveTree,
    probs: &'a [f64],
    player: usize,
    reach: Vec<f64>,
    /// Node values for `player` (NaN: not computed yet).
    value: Vec<f64>,
    /// The chosen action of each information set (`u32::MAX`: not chosen yet).
    best: Vec<u32>,
}

impl Br<'_> {
    /// The value of node `n` for the player, the player responding best below it.
    fn value(&mut self, n: usize) -> f64 {
        let known = self.value[n];
        if !known.is_nan() {
            return known;
        }
        let tree = self.tree;
        let o = tree.owner(n);
        let v = if o == TERMINAL {
            tree.node_payoffs(n)[self.player]
        } else if o as usize == self.player {
            let a = self.choose(tree.node_infoset(n));
            self.value(tree.children(n).start + a)
        } else {
            let w: &[f64] = if o == CHANCE {
                tree.node_chance_probs(n)
            } else {
                let set = &tree.infosets()[tree.node_infoset(n)];
                let f = set.first_slot as usize;
                &self.probs[f..f + set.actions as usize]
            };
            let mut v = 0.0;
            for (c, &w) in tree.children(n).zip(w) {
                if w != 0.0 {
                    v += w * self.value(c);
                }
            }
            v
        };
        self.value[n] = v;
        v
    }

    /// The action the player picks at information set `i`: the first that maximises the
    /// reach-weighted sum of its values over the set's histories.
    fn choose(&mut self, i: usize) -> usize {
        if self.best[i] != u32::MAX {
            return self.best[i] as usize;
        }
        let tree = self.tree;
        let actions = tree.infosets()[i].actions as usize;
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for a in 0..actions {
            let mut total = 0.0;
            for &h in tree.infoset_nodes(i) {
                let h = h as usize;
                let r = self.reach[h];
                if r != 0.0 {
                    total += r * self.value(tree.children(h).start + a);
                }
            }
            if total > best_value {
                best = a;
                best_value = total;
            }
        }
        self.best[i] = best as u32;
        best
    }
}

/// The value `player` gets by responding best to the others' strategies in `profile`.
pub fn best_response_value(tree: &ExtensiveTree, profile: &[f64], player: usize) -> f64 {
    best_response(tree, profile, player).value
}

/// NashConv: the sum over players of what each gains by switching alone to a best response.
/// Zero exactly at a Nash equilibrium.
pub fn nash_conv(tree: &ExtensiveTree, profile: &[f64]) -> f64 {
    let ev = expected_values(tree, profile);
    (0..tree.players())
        .map(|p| best_response_value(tree, profile, p) - ev[p])
        .sum()
}

/// Exploitability: NashConv over the number of players (in a two-player zero-sum game, the
/// mean of what each player's best response wins against the other).
pub fn exploitability(tree: &ExtensiveTree, profile: &[f64]) -> f64 {
    nash_conv(tree, profile) / tree.players() as f64
}
