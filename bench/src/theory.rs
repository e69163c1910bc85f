//! The figures a measured count is compared with: the full tree `b^d`, the Knuth-Moore minimal
//! tree, Pearl's asymptotic branching factor of alpha-beta on random trees, and the effective
//! branching factor of a count.

/// Leaves of the uniform tree of branching `b` and depth `d`: `b^d`, as a float so that huge
/// trees still compare.
pub fn full_tree(b: usize, d: usize) -> f64 {
    (b as f64).powi(d as i32)
}

/// Leaves alpha-beta evaluates on a perfectly ordered uniform tree (Knuth and Moore, 1975):
/// `b^ceil(d/2) + b^floor(d/2) - 1`.
pub fn minimal_tree(b: usize, d: usize) -> f64 {
    let b = b as f64;
    b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0
}

/// The positive root `xi` of `x^b + x - 1 = 0` (in `(0, 1)` for `b >= 1`), by bisection: the
/// left side is increasing on `[0, 1]`, negative at 0 and positive at 1.
pub fn pearl_xi(b: usize) -> f64 {
    let f = |x: f64| x.powi(b as i32) + x - 1.0;
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    // 60 halvings take the interval below f64 resolution on [0, 1].
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Pearl's asymptotic branching factor of alpha-beta on uniform trees with independent random
/// leaf values: `xi / (1 - xi)`, so that its leaf count grows like this to the power `d`.
pub fn pearl_branching(b: usize) -> f64 {
    let xi = pearl_xi(b);
    xi / (1.0 - xi)
}

/// The effective branching factor of `count` leaves at depth `d`: `count^(1/d)` (the branching
/// of the uniform tree with that many leaves); `None` at depth 0.
pub fn effective_branching(count: u64, d: usize) -> Option<f64> {
    (d > 0).then(|| (count as f64).powf(1.0 / d as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xi_solves_its_equation() {
        for b in 1..=64 {
            let x = pearl_xi(b);
            assert!((x.powi(b as i32) + x - 1.0).abs() < 1e-12, "b = {b}");
        }
        // b = 2: the golden ratio conjugate, so the branching factor is the golden ratio.
        assert!((pearl_xi(2) - (5f64.sqrt() - 1.0) / 2.0).abs() < 1e-12);
        assert!((pearl_branching(2) - (1.0 + 5f64.sqrt()) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn minimal_tree_matches_the_engine() {
        use cutoff::games::perfect::random_tree::{Order, RandomTree};
        for b in 1..=8 {
            for d in 0..=9 {
                let t = RandomTree::new(b, d, 1, Order::BestFirst).unwrap();
                assert_eq!(minimal_tree(b, d), t.minimal_leaves() as f64);
                assert_eq!(full_tree(b, d), t.leaves() as f64);
            }
        }
    }
}
