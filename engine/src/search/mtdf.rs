//! MTD(f) (Plaat et al.): converge on the value with null-window searches only, starting from
//! a guess. Each probe `pvs(beta - 1, beta)` tells whether the value is below `beta`; the
//! table carries what earlier probes learnt, so each probe is cheap.

use super::{Observer, Searcher};
use crate::game::{Game, Value};

impl<G: Game, O: Observer<G>> Searcher<'_, G, O> {
    /// MTD(f) from the first guess `guess`; returns the root value (0 if stopped).
    pub(crate) fn mtdf(&mut self, guess: Value) -> Value {
        let (mut lo, mut hi) = self.game.value_range();
        let mut g = guess.clamp(lo, hi);
        let mut high = false;
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            g = self.pvs(0, beta - 1, beta);
            if self.stopped {
                return 0;
            }
            high = g >= beta;
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        // Only a probe that failed high leaves a root move that reaches the value (after a
        // failed-low probe the line names the move with the best upper bound): otherwise one
        // more search with a window around the value finds it.
        if !high {
            self.pvs(0, g - 1, g + 1);
        }
        g
    }
}
