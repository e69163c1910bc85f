//! Saving and resuming CFR: a run stopped after 100 iterations, saved as text, read back and
//! resumed for 100 more equals the 200-iteration run that was never stopped, bit for bit;
//! and states that do not fit are refused.

use cutoff::cfr::state::{CfrState, StateError};
use cutoff::cfr::{Cfr, ExtensiveTree, Variant};
use cutoff::games::imperfect::kuhn::Kuhn;
use cutoff::games::imperfect::leduc::Leduc;

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

fn resumed_equals_straight(tree: &ExtensiveTree) {
    for v in Variant::ALL {
        let mut straight = Cfr::new(tree).variant(v);
        straight.run(200);
        let mut first = Cfr::new(tree).variant(v);
        first.run(100);
        let text = first.state().to_text();
        drop(first);
        let state = CfrState::from_text(&text).expect("reads back");
        assert_eq!(state.algo, v.name());
        let mut resumed = Cfr::from_state(tree, &state).expect("fits the tree");
        assert_eq!(resumed.iterations(), 100);
        resumed.run(100);
        assert_eq!(resumed.iterations(), 200);
        let name = format!("{} {}", tree.name(), v.name());
        assert_eq!(bits(resumed.regrets()), bits(straight.regrets()), "{name}");
        assert_eq!(
            bits(resumed.current_strategy()),
            bits(straight.current_strategy()),
            "{name}"
        );
        assert_eq!(
            bits(&resumed.average_strategy()),
            bits(&straight.average_strategy()),
            "{name}"
        );
        assert_eq!(resumed.state(), straight.state(), "{name}");
    }
}

#[test]
fn kuhn_resumed_run_equals_the_straight_run() {
    resumed_equals_straight(&ExtensiveTree::build(&Kuhn).unwrap());
}

#[test]
fn leduc_resumed_run_equals_the_straight_run() {
    resumed_equals_straight(&ExtensiveTree::build(&Leduc).unwrap());
}

#[test]
fn text_round_trips_every_bit() {
    let tree = ExtensiveTree::build(&Kuhn).unwrap();
    let mut s = Cfr::new(&tree).variant(Variant::Discounted);
    s.run(37);
    let state = s.state();
    assert_eq!(CfrState::from_text(&state.to_text()).unwrap(), state);
}

#[test]
fn states_that_do_not_fit_are_refused() {
    let kuhn = ExtensiveTree::build(&Kuhn).unwrap();
    let leduc = ExtensiveTree::build(&Leduc).unwrap();
    let mut s = Cfr::new(&kuhn).variant(Variant::Plus);
    s.run(3);
    let state = s.state();
    // Another game.
    let e = Cfr::from_state(&leduc, &state).unwrap_err();
    assert!(matches!(e, StateError::WrongGame { .. }), "{e}");
    assert_eq!(e.to_string(), "the saved state is of game kuhn, not leduc");
    // Same name, another tree.
    let mut other = state.clone();
    other.fingerprint.keys ^= 1;
    assert_eq!(
        Cfr::from_state(&kuhn, &other).unwrap_err(),
        StateError::WrongTree
    );
    // Not a state at all, or a damaged one.
    for text in [
        "".to_string(),
        "hello\n".to_string(),
        state.to_text().replace("regret ", "regrets "),
        state
            .to_text()
            .lines()
            .take(6)
            .collect::<Vec<_>>()
            .join("\n"),
        state.to_text().replacen(" 3f", " zz", 1),
    ] {
        let e = CfrState::from_text(&text).unwrap_err();
        assert!(matches!(e, StateError::NotAState(_)), "{e}");
        assert!(!e.to_string().contains('\n'));
    }
}

#[test]
fn states_with_impossible_numbers_are_refused() {
    let tree = ExtensiveTree::build(&Kuhn).unwrap();
    let mut s = Cfr::new(&tree).variant(Variant::Discounted);
    s.run(50);
    let good = s.state();
    assert_eq!(good.check(&tree), Ok(()));
    let refused = |edit: &dyn Fn(&mut CfrState), what: &str| {
        let mut bad = good.clone();
        edit(&mut bad);
        // Through the text too: the reader keeps every bit, so the check sees the same.
        let bad = CfrState::from_text(&bad.to_text()).unwrap();
        match Cfr::from_state(&tree, &bad) {
            Err(StateError::BadValues(why)) => assert!(why.contains(what), "{why}"),
            Err(e) => panic!("{what}: {e}"),
            Ok(_) => panic!("{what}: accepted"),
        }
    };
    refused(&|s| s.params.gamma = f64::NAN, "parameter");
    refused(&|s| s.params.alpha = Some(f64::INFINITY), "parameter");
    refused(&|s| s.regret[3] = f64::NAN, "regret");
    refused(&|s| s.avg[2] = -1.0, "average");
    refused(&|s| s.avg[2] = f64::INFINITY, "average");
    refused(&|s| s.current[0] = f64::NAN, "not a distribution");
    refused(&|s| s.current[0] += 0.25, "not a distribution");
    refused(
        &|s| {
            s.current[0] = -0.5;
            s.current[1] = 1.5;
        },
        "not a distribution",
    );
}
