//! A [`Solver`](super::Solver)'s state, to save to a file and resume from: a resumed run
//! equals, bit for bit, the run that was never stopped.
//!
//! The file is plain text, one `name value...` line per field, with every `f64` written as
//! the 16 hex digits of its bits: exact whatever parser reads it back, and no dependency
//! beyond the standard library. The tree itself is not saved (the game rebuilds it); a
//! fingerprint of it (node, information-set and slot counts and a hash of the information
//! sets' keys, owners and action counts) guards against resuming on another tree.

use super::solver::{Params, Variant};
use super::tree::Tree;
use std::fmt;

/// The first line of every state file, with the format's version.
pub const MAGIC: &str = "cutoff-cfr-state 1";

/// What identifies a tree: enough to reject a state saved on another game or another
/// version of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// [`Tree::nodes`].
    pub nodes: u64,
    /// Number of information sets.
    pub infosets: u64,
    /// [`Tree::slots`].
    pub slots: u64,
    /// FNV-1a hash of each information set's key, player and action count, in order.
    pub keys: u64,
}

impl Fingerprint {
    /// The fingerprint of `tree`.
    pub fn of(tree: &Tree) -> Fingerprint {
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

/// Everything a [`Solver`](super::Solver) needs to go on where it stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverState {
    /// The game's name ([`Tree::name`]).
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
    /// A number that cannot be: a parameter or sum that is not finite, a negative average
    /// sum, or a current strategy that is not a distribution at some information set.
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

impl SolverState {
    /// Checks that the state fits `tree`: same game, same fingerprint, arrays of the right
    /// length.
    pub fn check(&self, tree: &Tree) -> Result<(), StateError> {
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
        let p = self.params;
        if !([p.alpha, p.beta].iter().flatten().all(|x| x.is_finite()) && p.gamma.is_finite()) {
            return Err(StateError::BadValues("a parameter is not finite".into()));
        }
        if self.regret.iter().any(|x| !x.is_finite()) {
            return Err(StateError::BadValues("a regret is not finite".into()));
        }
        if self.avg.iter().any(|&x| !(x.is_finite() && x >= 0.0)) {
            return Err(StateError::BadValues(
                "an average sum is negative or not finite".into(),
            ));
        }
        for set in tree.infosets() {
            let f = set.first_slot as usize;
            let probs = &self.current[f..f + set.actions as usize];
            let sum: f64 = probs.iter().sum();
            // Regret matching's own rounding leaves a sum within a few ulps of 1.
            if probs.iter().any(|&x| !(0.0..=1.0).contains(&x)) || (sum - 1.0).abs() > 1e-9 {
                return Err(StateError::BadValues(format!(
                    "the current strategy at {} is not a distribution",
                    set.key
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

    /// Reads a state written by [`SolverState::to_text`].
    pub fn from_text(text: &str) -> Result<SolverState, StateError> {
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
        Ok(SolverState {
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
