//! splitmix64: the one 64-bit mixer and small generator of the crate, shared by the games'
//! position keys, the random trees, the parallel searches' ordering jitter, the tests and the
//! benchmarks, so that every one of them hashes and draws the same way on every machine.
//!
//! Nothing here is cryptographic: splitmix64 (Steele, Lea and Flood, 2014) is a fast
//! generator with good statistical quality, and its finaliser [`mix`] a bijection of `u64`
//! whose output bits each depend on every input bit.
//!
//! ```
//! use cutoff::rng::{mix, splitmix64, SplitMix64, GOLDEN};
//!
//! let mut g = SplitMix64::new(7);
//! assert_eq!(g.next_u64(), splitmix64(7));
//! assert_eq!(g.next_u64(), mix(7u64.wrapping_add(GOLDEN.wrapping_mul(2))));
//! assert!(g.below(6) < 6);
//! ```

/// 2^64 divided by the golden ratio, odd: splitmix64's increment, and a multiplier for
/// Fibonacci hashing.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's finaliser (the variant 13 mixer of Stafford): a bijection of `u64` that
/// spreads every input bit over the whole output. `mix(0) == 0`.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The splitmix64 hash of `x`: [`mix`] of `x + GOLDEN`, the output of a [`SplitMix64`]
/// generator whose state is `x`.
#[inline]
pub const fn splitmix64(x: u64) -> u64 {
    mix(x.wrapping_add(GOLDEN))
}

/// The splitmix64 generator: 64 bits of state, advanced by [`GOLDEN`] and mixed on each draw.
/// The same seed gives the same sequence on every machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    /// The state: the seed, plus [`GOLDEN`] for each number drawn.
    pub state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let out = splitmix64(self.state);
        self.state = self.state.wrapping_add(GOLDEN);
        out
    }

    /// A number in `0..n` (`n > 0`), by reduction modulo `n`: very slightly biased towards
    /// small numbers when `n` is not a power of two, which tests and workloads do not mind.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "SplitMix64::below(0)");
        self.next_u64() % n
    }

    /// A number in `[0, 1]`: the next 64 bits over `u64::MAX`.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        self.next_u64() as f64 / u64::MAX as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // The first outputs of the reference splitmix64 from seed 1234567.
        let mut g = SplitMix64::new(1234567);
        let expect = [
            6457827717110365317u64,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ];
        for e in expect {
            assert_eq!(g.next_u64(), e);
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut g = SplitMix64::new(0);
        for n in 1..100 {
            assert!(g.below(n) < n);
        }
    }
}
