//! CFR solver states through `cutoff cfr --resume` (`cutoff_app::commands::cfr::resume`, the
//! command's own steps): a state file read, checked, resumed for a few iterations and
//! reported. Nothing may panic; an accepted state must give finite figures, an average
//! strategy that is a distribution at every information set, and a saved state that is
//! accepted in turn (what a run saves, a run resumes); an error, as the binary prints it, is
//! one short printable line.
//!
//! The first byte picks the game (Kuhn or Leduc), the algorithm, 0 to 3 more iterations (the
//! time budget of an input, whatever iteration count or batch the state claims) and the mode:
//! the other bytes are the state file itself, or edits to a state a real run saved, each
//! setting one number (or all of an array) to any `f64` bits or the iteration count to any
//! `u64`. Random bytes rarely spell a sum near `f64::MAX` in every slot of a set, which is
//! what broke the earlier checks; the edits reach such states at once.
#![no_main]

use cutoff::cfr::state::CfrState;
use cutoff::cfr::{Cfr, ExtensiveTree, Variant};
use cutoff::games::imperfect::{kuhn::Kuhn, leduc::Leduc};
use cutoff_app::commands::cfr::resume;
use cutoff_fuzz::{check_message, STRICT};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Kuhn's and Leduc's trees, built once: the command builds its own for each run.
fn trees() -> &'static [ExtensiveTree; 2] {
    static TREES: OnceLock<[ExtensiveTree; 2]> = OnceLock::new();
    TREES.get_or_init(|| [ExtensiveTree::build(&Kuhn).unwrap(), ExtensiveTree::build(&Leduc).unwrap()])
}

const ALGOS: [&str; 5] = ["cfr", "cfr+", "lcfr", "dcfr", "mccfr-es"];

/// MCCFR states the command saved (the committed seeds, less their first byte).
const MCCFR: [&[u8]; 2] = [
    include_bytes!("../corpus/cfr_resume/kuhn-mccfr"),
    include_bytes!("../corpus/cfr_resume/leduc-mccfr"),
];

/// The states of the full-width algorithms after 10 iterations, game by game.
fn saved() -> &'static [Vec<CfrState>; 2] {
    static SAVED: OnceLock<[Vec<CfrState>; 2]> = OnceLock::new();
    SAVED.get_or_init(|| {
        trees().each_ref().map(|t| {
            Variant::ALL
                .iter()
                .map(|v| {
                    let mut s = Cfr::new(t).variant(*v);
                    s.run(10);
                    s.state()
                })
                .collect()
        })
    })
}

/// Numbers at the edges, for an edit to pick by index (most of `f64`'s bits are ordinary
/// numbers).
const EDGES: [f64; 14] = [
    f64::MAX,
    -f64::MAX,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    1e300,
    -1e300,
    1e154,
    f64::MIN_POSITIVE,
    5e-324,
    -0.0,
    9007199254740992.0,
    1.0,
    0.5,
];

/// Iteration counts at the edges.
const COUNTS: [u64; 7] = [
    u64::MAX,
    u64::MAX - 5,
    1 << 53,
    (1 << 53) + 1,
    (1 << 53) - 3,
    0,
    1,
];

/// The state file that `edits` make of a state a real run saved: 10 bytes an edit, a field
/// (with a flag: the value one of [`EDGES`] or [`COUNTS`]), an index (128 and up: every entry)
/// and 8 bytes of value.
fn edited(tree: usize, algo: usize, edits: &[u8]) -> String {
    let edits = edits.chunks_exact(10).map(|e| {
        let bits = u64::from_le_bytes(e[2..10].try_into().unwrap());
        let edge = e[0] & 0x80 != 0;
        let x = if edge {
            EDGES[(bits % EDGES.len() as u64) as usize]
        } else {
            f64::from_bits(bits)
        };
        let n = if edge {
            COUNTS[(bits % COUNTS.len() as u64) as usize]
        } else {
            bits
        };
        (e[0] % 4, e[1], x, n)
    });
    if algo < 4 {
        let mut state = saved()[tree][algo].clone();
        for (field, index, x, n) in edits {
            let array = match field {
                0 => &mut state.current,
                1 => &mut state.regret,
                2 => &mut state.avg,
                _ => {
                    state.iterations = n;
                    continue;
                }
            };
            set(array, index, x);
        }
        state.to_text()
    } else {
        let text = std::str::from_utf8(&MCCFR[tree][1..]).unwrap();
        let (magic, json) = text.split_once('\n').unwrap();
        let mut json = json.to_string();
        for (field, index, x, n) in edits {
            // JSON has no infinities or NaN: the nearest it has, which the reader refuses.
            let x = if x.is_finite() {
                format!("{x:e}")
            } else {
                "1e999".into()
            };
            json = match field {
                0 => with_numbers(&json, "regrets", index, &x),
                1 => with_numbers(&json, "averages", index, &x),
                2 => with_numbers(&json, "baselines", index, &x),
                _ => with_numbers(&json, "iterations", 0, &n.to_string()),
            };
        }
        format!("{magic}\n{json}\n")
    }
}

/// Sets entry `index` of `xs` (modulo its length; 128 and up: all of them) to `x`.
fn set(xs: &mut [f64], index: u8, x: f64) {
    if index >= 128 {
        xs.fill(x);
    } else if !xs.is_empty() {
        let i = usize::from(index) % xs.len();
        xs[i] = x;
    }
}

/// `json` with the numbers of its field `name` (an array of numbers, of `[slot, value]`
/// pairs whose values are meant, or one number) set as [`set`] does, to `x`.
fn with_numbers(json: &str, name: &str, index: u8, x: &str) -> String {
    let key = format!("\"{name}\":");
    let Some(at) = json.find(&key) else {
        return json.to_string();
    };
    let start = at + key.len();
    let pairs = json[start..].starts_with("[[");
    let end = start
        + json[start..]
            .find(if pairs {
                "]]"
            } else if name == "iterations" {
                ","
            } else {
                "]"
            })
            .map_or(0, |e| {
                e + if pairs {
                    2
                } else {
                    usize::from(name != "iterations")
                }
            });
    let body = &json[start..end];
    let new = if name == "iterations" {
        x.to_string()
    } else if pairs {
        let items: Vec<&str> = body[2..body.len() - 2].split("],[").collect();
        let mut values: Vec<String> = items.iter().map(|p| p.to_string()).collect();
        for (i, v) in values.iter_mut().enumerate() {
            if index >= 128 || usize::from(index) % items.len() == i {
                let slot = v.split(',').next().unwrap_or("0").to_string();
                *v = format!("{slot},{x}");
            }
        }
        format!("[[{}]]", values.join("],["))
    } else {
        let items: Vec<&str> = body[1..body.len() - 1].split(',').collect();
        let values: Vec<&str> = (0..items.len())
            .map(|i| {
                if index >= 128 || usize::from(index) % items.len() == i {
                    x
                } else {
                    items[i]
                }
            })
            .collect();
        format!("[{}]", values.join(","))
    };
    format!("{}{new}{}", &json[..start], &json[end..])
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let game = usize::from(pick & 1);
    let tree = &trees()[game];
    let a = usize::from(pick >> 1 & 7) % ALGOS.len();
    let algo = ALGOS[a];
    let more = u64::from(pick >> 4 & 3);
    let text = if pick & 0x40 != 0 {
        edited(game, a, rest).into()
    } else {
        cutoff_fuzz::text(rest)
    };
    match resume(tree, algo, &text, more) {
        Ok((run, saved)) => {
            for (what, x) in [
                ("value", run.value),
                ("nash_conv", run.nash_conv),
                ("exploitability", run.exploitability),
            ] {
                assert!(x.is_finite(), "{what} {x}");
            }
            // A best response gains at least nothing, up to rounding.
            assert!(run.nash_conv > -1e-9, "nash_conv {}", run.nash_conv);
            assert!(run.curve.iter().all(|&(_, e)| e.is_finite()));
            for set in &run.strategy {
                let p = &set.probabilities;
                assert!(
                    p.iter().all(|x| (0.0..=1.0).contains(x))
                        && (p.iter().sum::<f64>() - 1.0).abs() < 1e-9,
                    "{}: {p:?}",
                    set.infoset
                );
            }
            if let Err(e) = resume(tree, algo, &saved, 0) {
                panic!("the state saved after an accepted one is refused: {e}");
            }
        }
        Err(e) => check_message(
            "cfr::resume",
            &cutoff_app::message::error_line(&format!("error: {e}")),
            STRICT,
        ),
    }
});
