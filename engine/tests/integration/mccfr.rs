//! External-sampling MCCFR: the exploitability targets on Kuhn and Leduc,
//! reproducibility across runs, thread counts and index maps, and saving and resuming.

use cutoff::cfr::mccfr::{Mccfr, MccfrState, MccfrStateError, Weighting};
use cutoff::cfr::{nash_conv, Extensive, ExtensiveTree};
use cutoff::games::imperfect::kuhn::Kuhn;
use cutoff::games::imperfect::leduc::Leduc;

/// The NashConv after `iterations` of `m` for each seed of `seeds`, sorted.
fn nash_convs<G: Extensive + Sync + Send + Clone>(
    game: &G,
    seeds: std::ops::Range<u64>,
    iterations: u64,
    make: impl Fn(Mccfr<G>) -> Mccfr<G>,
) -> Vec<f64> {
    let tree = ExtensiveTree::build(game).unwrap();
    let mut v: Vec<f64> = seeds
        .map(|seed| {
            let mut m = make(Mccfr::new(game.clone()).seed(seed));
            m.run(iterations);
            assert_eq!(m.iterations(), iterations);
            nash_conv(&tree, &m.average_strategy_for(&tree))
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

#[test]
fn kuhn_nash_conv_at_most_0_05_after_1000_iterations() {
    // A sampled algorithm meets a bound with some probability, so it is checked over 100
    // seeds: with the defaults the mean is 0.028 and 97 of them are at most 0.05 (seeds
    // 0..400: mean 0.028, 97%, worst 0.068); the textbook sampling has 0.058 and 39%.
    let v = nash_convs(&Kuhn, 0..100, 1000, |m| m);
    let met = v.iter().filter(|&&x| x <= 0.05).count();
    eprintln!(
        "kuhn, 100 seeds: mean {:.4}, {met} at most 0.05, worst {:.4}",
        mean(&v),
        v[99]
    );
    assert!(mean(&v) <= 0.035, "{v:?}");
    assert!(met >= 95, "{met}: {v:?}");
    assert!(v[99] <= 0.08, "{v:?}");
}

#[test]
fn leduc_nash_conv_at_most_2_5_after_1000_iterations() {
    // Every one of 40 seeds (mean 1.98, worst 2.22).
    let v = nash_convs(&Leduc, 0..40, 1000, |m| m);
    eprintln!("leduc, 40 seeds: mean {:.4}, worst {:.4}", mean(&v), v[39]);
    assert!(v[39] <= 2.5, "{v:?}");
}

#[test]
fn each_variance_reduction_lowers_the_noise() {
    // Over the same 100 seeds at 1,000 iterations on Kuhn: neither 0.058, stratified deals
    // 0.040, baselines 0.054, both 0.028 (seeds 0..400).
    let with = |stratify: bool, baseline: bool| {
        mean(&nash_convs(&Kuhn, 0..100, 1000, |m| {
            m.stratified(stratify).baseline(baseline.then_some(0.5))
        }))
    };
    let (neither, stratified, baselines, both) = (
        with(false, false),
        with(true, false),
        with(false, true),
        with(true, true),
    );
    eprintln!("neither {neither:.4}, stratified {stratified:.4}, baselines {baselines:.4}, both {both:.4}");
    assert!(stratified < 0.8 * neither, "{stratified} {neither}");
    assert!(baselines < neither, "{baselines} {neither}");
    assert!(
        both < 0.6 * neither && both < stratified,
        "{both} {stratified} {neither}"
    );
}

#[test]
fn every_variance_reduction_converges() {
    // A biased estimate would stall short of equilibrium; each setting goes on converging.
    let tree = ExtensiveTree::build(&Kuhn).unwrap();
    for (stratify, baseline) in [
        (false, None),
        (true, None),
        (false, Some(0.5)),
        (true, Some(1.0)),
    ] {
        let mut m = Mccfr::new(Kuhn)
            .seed(3)
            .stratified(stratify)
            .baseline(baseline);
        m.run(25_000);
        let early = nash_conv(&tree, &m.average_strategy_for(&tree));
        m.run(375_000);
        let nc = nash_conv(&tree, &m.average_strategy_for(&tree));
        // All four reach about 0.002 at 500,000 iterations over seeds.
        assert!(
            nc < 0.008 && nc < early,
            "stratify {stratify}, baseline {baseline:?}: {early} then {nc}"
        );
    }
}

#[test]
fn the_textbook_algorithm_comes_close() {
    // Uniform weighting, batch 1, no variance reduction: OpenSpiel's algorithm.
    let v = nash_convs(&Kuhn, 0..20, 1000, |m| {
        m.batch(1)
            .weighting(Weighting::Uniform)
            .stratified(false)
            .baseline(None)
    });
    eprintln!("kuhn textbook, 20 seeds: mean {:.4}", mean(&v));
    assert!(mean(&v) <= 0.1, "{v:?}");
    let v = nash_convs(&Leduc, 0..5, 1000, |m| {
        m.batch(1)
            .weighting(Weighting::Uniform)
            .stratified(false)
            .baseline(None)
    });
    eprintln!("leduc textbook, 5 seeds: mean {:.4}", mean(&v));
    assert!(mean(&v) <= 3.0, "{v:?}");
}

#[test]
fn more_iterations_do_better() {
    let tree = ExtensiveTree::build(&Kuhn).unwrap();
    let mut m = Mccfr::new(Kuhn).seed(9);
    m.run(100);
    let early = nash_conv(&tree, &m.average_strategy_for(&tree));
    m.run(9900);
    let late = nash_conv(&tree, &m.average_strategy_for(&tree));
    assert!(late < early && late < 0.02, "{early} then {late}");
}

fn leduc_run(seed: u64, threads: usize, iterations: u64) -> Mccfr<Leduc> {
    let mut m = Mccfr::new(Leduc).seed(seed).threads(threads);
    m.run(iterations);
    m
}

#[test]
fn the_same_seed_gives_the_same_strategy() {
    let tree = ExtensiveTree::build(&Leduc).unwrap();
    let a = leduc_run(11, 1, 200);
    let b = leduc_run(11, 1, 200);
    assert_eq!(a.average_strategy_for(&tree), b.average_strategy_for(&tree));
    assert_eq!(a.state(), b.state());
    let c = leduc_run(12, 1, 200);
    assert_ne!(a.state().regrets, c.state().regrets);
}

#[test]
fn one_and_two_threads_give_bit_identical_regrets() {
    let tree = ExtensiveTree::build(&Leduc).unwrap();
    let one = leduc_run(21, 1, 300);
    let two = leduc_run(21, 2, 300);
    let three = leduc_run(21, 3, 300);
    let s1 = one.state();
    // `assert_eq!` on `f64` vectors is exact: bit-identical up to the sign of zero.
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for other in [&two, &three] {
        let s = other.state();
        assert_eq!(s1.infosets, s.infosets);
        assert_eq!(bits(&s1.regrets), bits(&s.regrets));
        assert_eq!(bits(&s1.averages), bits(&s.averages));
        assert_eq!(
            one.average_strategy_for(&tree),
            other.average_strategy_for(&tree)
        );
    }
}

#[test]
fn a_saved_state_resumes_exactly() {
    for threads in [1, 2] {
        let mut whole = Mccfr::new(Leduc).seed(41).threads(threads);
        whole.run(320);
        let mut first = Mccfr::new(Leduc).seed(41).threads(threads);
        first.run(160);
        let saved: MccfrState = first.state();
        let mut resumed = Mccfr::from_state(Leduc, saved.clone())
            .unwrap()
            .threads(3 - threads);
        assert_eq!(resumed.state(), saved);
        assert_eq!(resumed.iterations(), 160);
        resumed.run(160);
        assert_eq!(resumed.state(), whole.state());
        let tree = ExtensiveTree::build(&Leduc).unwrap();
        assert_eq!(
            resumed.average_strategy_for(&tree),
            whole.average_strategy_for(&tree)
        );
    }
}

#[test]
fn a_state_of_another_game_or_malformed_is_refused() {
    let mut m = Mccfr::new(Kuhn).seed(1);
    m.run(10);
    let s = m.state();
    assert!(matches!(
        Mccfr::from_state(Leduc, s.clone()),
        Err(MccfrStateError::Game(_))
    ));
    let mut bad = s.clone();
    bad.regrets.pop();
    assert_eq!(
        Mccfr::from_state(Kuhn, bad).err(),
        Some(MccfrStateError::Slots)
    );
    let mut bad = s.clone();
    bad.baselines.push((u32::MAX, 1.0));
    assert_eq!(
        Mccfr::from_state(Kuhn, bad).err(),
        Some(MccfrStateError::Baseline)
    );
    let mut bad = s.clone();
    bad.batch = cutoff::cfr::mccfr::MAX_BATCH + 1;
    assert_eq!(
        Mccfr::from_state(Kuhn, bad).err(),
        Some(MccfrStateError::Batch)
    );
    for (regret, average) in [(f64::NAN, 0.0), (f64::INFINITY, 0.0), (0.0, -1.0)] {
        let mut bad = s.clone();
        bad.regrets[0] = regret;
        bad.averages[1] = average;
        assert_eq!(
            Mccfr::from_state(Kuhn, bad).err(),
            Some(MccfrStateError::Values)
        );
    }
    // The action counts are checked against the game's tree.
    let tree = ExtensiveTree::build(&Kuhn).unwrap();
    assert_eq!(s.matches(&tree), Ok(()));
    let mut bad = s.clone();
    bad.infosets[0].actions = 3;
    assert!(matches!(
        bad.matches(&tree),
        Err(MccfrStateError::Actions(_))
    ));
    let mut bad = s.clone();
    bad.infosets[0].key = "no such set".into();
    assert!(matches!(
        bad.matches(&tree),
        Err(MccfrStateError::Actions(_))
    ));
    let mut bad = s.clone();
    bad.baseline = Some(2.0);
    assert_eq!(
        Mccfr::from_state(Kuhn, bad).err(),
        Some(MccfrStateError::Baseline)
    );
    let mut bad = s;
    let dup = bad.infosets[0].clone();
    bad.infosets.push(dup);
    assert_eq!(
        Mccfr::from_state(Kuhn, bad).err(),
        Some(MccfrStateError::Infosets)
    );
}

#[test]
fn unseen_information_sets_are_uniform() {
    let tree = ExtensiveTree::build(&Leduc).unwrap();
    let m = Mccfr::new(Leduc).seed(1);
    assert_eq!(m.average_strategy_for(&tree), tree.uniform_strategy());
    assert_eq!(m.average_of("K1:"), None);
}
