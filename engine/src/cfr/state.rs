//! A [`Cfr`](super::Cfr)'s state, to save to a file and resume from: a resumed run
//! equals, bit for bit, the run that was never stopped.
//!
//! The file is plain text, one `name value...` line per field, with every `f64` written as
//! the 16 hex digits of its bits: exact whatever parser reads it back, and no dependency
//! beyond the standard library. The tree itself is not saved (the game rebuilds it); a
//! fingerprint of it (node, information-set and slot counts and a hash of the information
//! sets' keys, owners and action counts) guards against resuming on another tree.
//!
//! # What a state may hold
//!
//! A state file is untrusted: whatever [`CfrState::check`] accepts must run on without a
//! sum reaching infinity or NaN, and report a true exploitability; and whatever a solver saves
//! must pass it, so that every saved run can be resumed. Both follow from bounds on what `T`
//! iterations can make, given `M`, the largest absolute payoff of the tree:
//!
//! - **iterations**: at most [`MAX_ITERATIONS`] (2^53), the most a solver runs (it stops
//!   there): centuries of computing, so no real run is refused, and the iteration number stays
//!   exact as the `f64` the weights are computed from;
//! - **parameters**: finite, the exponents `alpha`, `beta`, `gamma` at most [`MAX_EXPONENT`]
//!   (16), so that `t^16 <= 2^848` stays finite for every `t` up to the cap (a larger one
//!   would make the discount `inf / inf`, NaN);
//! - **regrets**: an iteration adds `cf(h) * (value(h, a) - value(h))` over the histories of
//!   the set, where the values lie in `[-M, M]` and the weights `cf(h)` sum to at most 1
//!   (perfect recall: the histories of a set are exclusive), so at most `2M` a slot; the
//!   discounts and CFR+'s clipping only shrink a regret. After `T` iterations `|regret| <=
//!   2 M T`;
//! - **average sums**: an iteration adds `own reach * t^gamma * strategy` to a set's sums, at
//!   most `t^gamma` over the set's actions, so after `T` iterations a set's sums total at most
//!   `T^(max(gamma, 0) + 1)`.
//!
//! Each bound is checked with a factor [`SLACK`] of 4: rounding makes each of `T` additions
//! at most one part in 2^53 larger, which compounds to at most `e` at the cap. The bounds grow
//! with `T` by at least what an iteration can add, so a state within them stays within them
//! as it runs on: what a resumed run saves can be resumed again. At the cap the
//! bounds are at most `2^56 M` for the regrets and `2^903` for the sums, so a state at its
//! bounds, run on to the cap, stays finite. A state past them was not saved by a solver: it
//! is refused as corrupted. (Sums that reached `f64::MAX` passed the earlier checks, which
//! only asked for finite numbers: the average strategy then came out all zeros, its
//! exploitability 0, and the next save held numbers that could not be read back.)

use super::params::{Params, Variant};
use super::tree::ExtensiveTree;
use std::fmt;

/// The first line of every state file, with the format's version.
pub const MAGIC: &str = "cutoff-cfr-state 1";

/// The most iterations a solver runs and a state may hold: 2^53 (see the module comment).
/// At a million iterations a second, 285 years.
pub const MAX_ITERATIONS: u64 = 1 << 53;

/// The largest exponent (`alpha`, `beta`, `gamma` of [`Params`]) a state may hold (see the
/// module comment).
pub const MAX_EXPONENT: f64 = 16.0;

/// How far past the exact bound on a sum a state's sum may lie, for rounding (see the module
/// comment).
pub const SLACK: f64 = 4.0;

/// What identifies a tree: enough to reject a state saved on another game or another
/// version of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// [`ExtensiveTree::nodes`].
    pub nodes: u64,
    /// Number of information sets.
    pub infosets: u64,
    /// [`ExtensiveTree::slots`].
    pub slots: u64,
    /// FNV-1a hash of each information set's key, player and action count, in order.
    pub keys: u64,
}

impl Fingerprint {
    /// The fingerprint of `tree`.
    pub fn of(tree: &ExtensiveTree) -> Fingerprint {
        // FNV-1a: fixed across runs and platforms, unlike std's randomly seeded hasher.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for set in tree.infosets() {
            eat(set.key.as_bytes());
            eat(&[0xff, set.player as u8]);
            eat(&set.actions.to_le_bytes());
        }
        Fingerprint {
            nodes: tree.nodes() as u64,
            infosets: tree.infosets().len() as u64,
            slots: tree.slots() as u64,
            keys: h,
        }
    }
}

/// Everything a [`Cfr`](super::Cfr) needs to go on where it stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct CfrState {
    /// The game's name ([`ExtensiveTree::name`]).
    pub game: String,
    /// The variant's name ([`Variant::name`]), or `custom` for other parameters.
    pub algo: String,
    /// The parameters.
    pub params: Params,
    /// The tree's fingerprint.
    pub fingerprint: Fingerprint,
    /// Iterations run.
    pub iterations: u64,
    /// The current strategy, one probability per slot.
    pub current: Vec<f64>,
    /// The cumulative regrets, one per slot.
    pub regret: Vec<f64>,
    /// The cumulative average-strategy sums, one per slot.
    pub avg: Vec<f64>,
}

/// Why a state cannot be read or resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// The text is not a saved solver state (or is truncated or corrupted); says where.
    NotAState(String),
    /// The state belongs to another game.
    WrongGame {
        /// The game of the state.
        saved: String,
        /// The game of the tree.
        tree: String,
    },
    /// Same game name, but the tree's fingerprint differs (another version of the game, or
    /// a corrupted file).
    WrongTree,
    /// A number that cannot be: more iterations than a solver runs, a parameter that is not
    /// finite or too large, a sum that is not finite or more than the state's iterations can
    /// make, a negative average sum, or a current strategy that is not a distribution at some
    /// information set (see the module comment).
    BadValues(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::NotAState(why) => write!(f, "not a saved CFR solver state ({why})"),
            StateError::WrongGame { saved, tree } => {
                write!(f, "the saved state is of game {saved}, not {tree}")
            }
            StateError::BadValues(why) => write!(f, "the saved state is corrupted ({why})"),
            StateError::WrongTree => write!(
                f,
                "the saved state's tree fingerprint does not match this game's tree"
            ),
        }
    }
}

impl std::error::Error for StateError {}

/// The variant named `name`, if any.
pub fn variant_named(name: &str) -> Option<Variant> {
    Variant::ALL.into_iter().find(|v| v.name() == name)
}

impl CfrState {
    /// Checks that the state fits `tree` (same game, same fingerprint, arrays of the right
    /// length) and that its numbers are within what its iterations can make (see the module
    /// comment): a state that passes runs on without overflow, and every state a solver saves
    /// passes.
    pub fn check(&self, tree: &ExtensiveTree) -> Result<(), StateError> {
        if self.game != tree.name() {
            return Err(StateError::WrongGame {
                saved: self.game.clone(),
                tree: tree.name().to_string(),
            });
        }
        if self.fingerprint != Fingerprint::of(tree) {
            return Err(StateError::WrongTree);
        }
        let n = tree.slots();
        if self.current.len() != n || self.regret.len() != n || self.avg.len() != n {
            return Err(StateError::WrongTree);
        }
        if self.iterations > MAX_ITERATIONS {
            return Err(StateError::BadValues(format!(
                "{} iterations, more than the {MAX_ITERATIONS} a solver runs",
                self.iterations
            )));
        }
        let p = self.params;
        let exponents = [p.alpha, p.beta, Some(p.gamma)];
        if !exponents
            .iter()
            .flatten()
            .all(|&x| x.is_finite() && x <= MAX_EXPONENT)
        {
            return Err(StateError::BadValues(format!(
                "a parameter is not finite or is above {MAX_EXPONENT}"
            )));
        }
        // The bounds of the module comment, for this state's iterations.
        let t = self.iterations as f64;
        let regret_bound = SLACK * 2.0 * tree.max_abs_payoff() * t;
        let sum_bound = SLACK * t.powf(p.gamma.max(0.0) + 1.0);
        let beyond = |what: &str, key: &str| {
            StateError::BadValues(format!(
                "{what} at {} are more than {} iterations can make",
                crate::game::quote(key),
                self.iterations
            ))
        };
        for set in tree.infosets() {
            let slots = set.first_slot as usize..(set.first_slot + set.actions) as usize;
            let regret = &self.regret[slots.clone()];
            if regret.iter().any(|x| !x.is_finite()) {
                return Err(StateError::BadValues("a regret is not finite".into()));
            }
            if regret.iter().any(|x| x.abs() > regret_bound) {
                return Err(beyond("the regrets", &set.key));
            }
            let avg = &self.avg[slots];
            if avg.iter().any(|&x| !(x.is_finite() && x >= 0.0)) {
                return Err(StateError::BadValues(
                    "an average sum is negative or not finite".into(),
                ));
            }
            if avg.iter().sum::<f64>() > sum_bound {
                return Err(beyond("the average-strategy sums", &set.key));
            }
        }
        for set in tree.infosets() {
            let f = set.first_slot as usize;
            let probs = &self.current[f..f + set.actions as usize];
            let sum: f64 = probs.iter().sum();
            // Regret matching's own rounding leaves a sum within a few ulps of 1.
            if probs.iter().any(|&x| !(0.0..=1.0).contains(&x)) || (sum - 1.0).abs() > 1e-9 {
                return Err(StateError::BadValues(format!(
                    "the current strategy at {} is not a distribution",
                    crate::game::quote(&set.key)
                )));
            }
        }
        Ok(())
    }

    /// The state as text (see the module comment).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        s.push_str(MAGIC);
        s.push('\n');
        s.push_str(&format!("game {}\n", self.game));
        s.push_str(&format!("algo {}\n", self.algo));
        let opt = |x: Option<f64>| x.map_or("-".to_string(), hex);
        s.push_str(&format!(
            "params {} {} {} {}\n",
            u8::from(self.params.plus),
            opt(self.params.alpha),
            opt(self.params.beta),
            hex(self.params.gamma)
        ));
        let fp = &self.fingerprint;
        s.push_str(&format!(
            "tree {} {} {} {:016x}\n",
            fp.nodes, fp.infosets, fp.slots, fp.keys
        ));
        s.push_str(&format!("iterations {}\n", self.iterations));
        for (name, xs) in [
            ("current", &self.current),
            ("regret", &self.regret),
            ("avg", &self.avg),
        ] {
            s.push_str(name);
            for &x in xs.iter() {
                s.push(' ');
                s.push_str(&hex(x));
            }
            s.push('\n');
        }
        s
    }

    /// Reads a state written by [`CfrState::to_text`].
    pub fn from_text(text: &str) -> Result<CfrState, StateError> {
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(bad("no 'cutoff-cfr-state 1' header"));
        }
        let mut field = |name: &str| -> Result<Vec<&str>, StateError> {
            let line = lines
                .next()
                .ok_or_else(|| bad(&format!("no '{name}' line")))?;
            let mut words = line.split(' ');
            if words.next() != Some(name) {
                return Err(bad(&format!("expected the '{name}' line")));
            }
            Ok(words.collect())
        };
        let one = |w: Vec<&str>, name: &str| -> Result<String, StateError> {
            match w.as_slice() {
                [x] => Ok(x.to_string()),
                _ => Err(bad(&format!("bad '{name}' line"))),
            }
        };
        let game = one(field("game")?, "game")?;
        let algo = one(field("algo")?, "algo")?;
        let p = field("params")?;
        let params = match p.as_slice() {
            [plus, alpha, beta, gamma] => {
                let opt = |w: &str| -> Result<Option<f64>, StateError> {
                    if w == "-" {
                        Ok(None)
                    } else {
                        unhex(w).map(Some)
                    }
                };
                Params {
                    plus: match *plus {
                        "0" => false,
                        "1" => true,
                        _ => return Err(bad("bad 'params' line")),
                    },
                    alpha: opt(alpha)?,
                    beta: opt(beta)?,
                    gamma: unhex(gamma)?,
                }
            }
            _ => return Err(bad("bad 'params' line")),
        };
        let t = field("tree")?;
        let fingerprint = match t.as_slice() {
            [n, i, s, k] => {
                let num = |w: &str| w.parse::<u64>().map_err(|_| bad("bad 'tree' line"));
                Fingerprint {
                    nodes: num(n)?,
                    infosets: num(i)?,
                    slots: num(s)?,
                    keys: u64::from_str_radix(k, 16).map_err(|_| bad("bad 'tree' line"))?,
                }
            }
            _ => return Err(bad("bad 'tree' line")),
        };
        let iterations = one(field("iterations")?, "iterations")?
            .parse::<u64>()
            .map_err(|_| bad("bad 'iterations' line"))?;
        let mut array = |name: &str| -> Result<Vec<f64>, StateError> {
            let xs = field(name)?
                .into_iter()
                .map(unhex)
                .collect::<Result<Vec<_>, _>>()?;
            if xs.len() as u64 != fingerprint.slots {
                return Err(bad(&format!("the '{name}' line has the wrong length")));
            }
            Ok(xs)
        };
        let current = array("current")?;
        let regret = array("regret")?;
        let avg = array("avg")?;
        Ok(CfrState {
            game,
            algo,
            params,
            fingerprint,
            iterations,
            current,
            regret,
            avg,
        })
    }
}

fn bad(why: &str) -> StateError {
    StateError::NotAState(why.to_string())
}

/// `x`'s bits in hex: exact, unlike a decimal that a parser might round.
fn hex(x: f64) -> String {
    format!("{:016x}", x.to_bits())
}

fn unhex(w: &str) -> Result<f64, StateError> {
    if w.len() != 16 {
        return Err(bad("a number is not 16 hex digits"));
    }
    u64::from_str_radix(w, 16)
        .map(f64::from_bits)
        .map_err(|_| bad("a number is not 16 hex digits"))
}

/// The named variant whose parameters are exactly `params`, if any.
pub fn variant_for(params: Params) -> Option<Variant> {
    Variant::ALL.into_iter().find(|v| v.params() == params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfr::Cfr;
    use crate::games::imperfect::{kuhn::Kuhn, leduc::Leduc};

    /// The largest regret over `2 M T` and the largest set's sums over `T^(gamma + 1)`: the
    /// exact bounds of the module comment, which must hold up to rounding (vanilla CFR's root
    /// sets reach `T` itself).
    fn ratios(tree: &ExtensiveTree, s: &CfrState) -> (f64, f64) {
        let t = s.iterations as f64;
        let r = s.regret.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let sums = tree.infosets().iter().map(|set| {
            let f = set.first_slot as usize;
            s.avg[f..f + set.actions as usize].iter().sum::<f64>()
        });
        let a = sums.fold(0.0f64, f64::max);
        (
            r / (2.0 * tree.max_abs_payoff() * t),
            a / t.powf(s.params.gamma.max(0.0) + 1.0),
        )
    }

    #[test]
    fn every_saved_state_passes_and_the_exact_bounds_hold() {
        for tree in [
            ExtensiveTree::build(&Kuhn).unwrap(),
            ExtensiveTree::build(&Leduc).unwrap(),
        ] {
            for v in Variant::ALL {
                let mut s = Cfr::new(&tree).variant(v);
                assert_eq!(s.state().check(&tree), Ok(()), "a fresh {}", v.name());
                for n in [1, 9, 90] {
                    s.run(n);
                    let state = s.state();
                    assert_eq!(state.check(&tree), Ok(()), "{} {}", tree.name(), v.name());
                    let (r, a) = ratios(&tree, &state);
                    let close = 1.0 + 1e-12;
                    assert!(
                        r <= close && a <= close,
                        "{} {}: {r} {a}",
                        tree.name(),
                        v.name()
                    );
                }
            }
        }
    }

    #[test]
    fn a_state_at_its_bounds_stays_within_them_as_it_runs_on() {
        let tree = ExtensiveTree::build(&Kuhn).unwrap();
        for v in Variant::ALL {
            let mut s = Cfr::new(&tree).variant(v);
            s.run(10);
            let mut state = s.state();
            let t = state.iterations as f64;
            let regret = SLACK * 2.0 * tree.max_abs_payoff() * t;
            let sums = SLACK * t.powf(v.params().gamma + 1.0);
            for (i, x) in state.regret.iter_mut().enumerate() {
                *x = if i % 2 == 0 { regret } else { -regret };
            }
            // Kuhn's sets have two actions.
            state.avg.fill(sums / 2.0);
            assert_eq!(state.check(&tree), Ok(()), "{}", v.name());
            let mut resumed = Cfr::from_state(&tree, &state).unwrap();
            resumed.run(20);
            let again = resumed.state();
            assert_eq!(again.check(&tree), Ok(()), "{}", v.name());
            let avg = resumed.average_strategy();
            assert!(avg.iter().all(|x| x.is_finite()), "{}", v.name());
            let e = crate::cfr::exploitability(&tree, &avg);
            assert!(e.is_finite() && e > 0.0, "{}: {e}", v.name());
            // And just past them: refused.
            let mut past = state.clone();
            past.regret[3] = -regret * (1.0 + 1e-12);
            assert!(past.check(&tree).is_err());
            let mut past = state;
            past.avg[5] *= 1.0 + 1e-12;
            assert!(past.check(&tree).is_err());
        }
    }

    #[test]
    fn numbers_beyond_a_run_are_refused_with_one_line() {
        let tree = ExtensiveTree::build(&Kuhn).unwrap();
        let mut s = Cfr::new(&tree).variant(Variant::Discounted);
        s.run(10);
        let good = s.state();
        let refused = |edit: &dyn Fn(&mut CfrState), what: &str| {
            let mut bad = good.clone();
            edit(&mut bad);
            let e = bad.check(&tree).unwrap_err().to_string();
            assert!(e.contains(what), "{what}: {e}");
            assert!(!e.contains('\n'));
        };
        refused(&|s| s.iterations = MAX_ITERATIONS + 1, "a solver runs");
        refused(&|s| s.iterations = u64::MAX, "a solver runs");
        refused(&|s| s.params.gamma = 17.0, "parameter");
        refused(&|s| s.params.alpha = Some(1e300), "parameter");
        refused(&|s| s.avg.fill(f64::MAX), "sums at J are more than 10");
        refused(&|s| s.regret[1] = f64::MAX, "regrets at J are more than 10");
        refused(&|s| s.regret[4] = -1e30, "regrets at K are more than 10");
        // At 0 iterations a state holds zeros.
        refused(&|s| s.iterations = 0, "more than 0 iterations");
    }

    #[test]
    fn a_solver_stops_at_the_cap() {
        let tree = ExtensiveTree::build(&Kuhn).unwrap();
        let mut s = Cfr::new(&tree).variant(Variant::Plus);
        s.run(3);
        let mut state = s.state();
        state.iterations = MAX_ITERATIONS - 2;
        let mut near = Cfr::from_state(&tree, &state).unwrap();
        near.run(10);
        assert_eq!(near.iterations(), MAX_ITERATIONS);
        near.iterate();
        assert_eq!(near.iterations(), MAX_ITERATIONS);
        assert_eq!(near.state().check(&tree), Ok(()));
    }
}
