//! General tree files: `MultiTree::parse` (chance nodes, vector and decimal leaves). Bad input
//! is a short printable one-line error, never a panic or a hang. A small parsed tree is
//! searched by every algorithm that fits it, and they agree: Star1 and Star2 with
//! expectiminimax on two-player zero-sum trees, shallow max^n with plain max^n.
#![no_main]

use cutoff::games::chance::tree_multi::MultiTree;
use cutoff::multi::{search, MultiAlgorithm, MultiGame, MultiLimits};
use cutoff_fuzz::{check_message, text, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else {
        return;
    };
    let text = text(rest);
    let tree = match MultiTree::parse(&text, (flag & 1) as usize) {
        Ok(t) => t,
        Err(e) => return check_message("MultiTree::parse", &e.0, STRICT),
    };
    assert!(!tree.is_empty());
    if tree.len() > 300 || tree.height() > 24 {
        return;
    }
    let lim = MultiLimits::default();
    let root = tree.initial();
    let run = |algo| search(&tree, &root, algo, &lim, None);
    if tree.player_count() == 2 && tree.payoff_sum() == Some(0.0) {
        let want = run(MultiAlgorithm::Expectiminimax).expect("two players").value;
        for algo in [
            MultiAlgorithm::Expectinegamax,
            MultiAlgorithm::Star1,
            MultiAlgorithm::Star2,
        ] {
            let got = run(algo).expect("two players").value;
            let tol = 1e-9 * (1.0 + want.abs());
            assert!((got - want).abs() <= tol, "{algo}: {got} against {want}");
        }
    }
    if tree.payoff_sum().is_some() {
        let plain = run(MultiAlgorithm::MaxnPlain).expect("any tree");
        let shallow = run(MultiAlgorithm::Maxn).expect("a constant sum");
        assert!(shallow.stats.nodes() <= plain.stats.nodes());
        for (a, b) in plain.values.as_slice().iter().zip(shallow.values.as_slice()) {
            assert!((a - b).abs() <= 1e-9 * (1.0 + a.abs()), "maxn: {a} against {b}");
        }
    }
});
