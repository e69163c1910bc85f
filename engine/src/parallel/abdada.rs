//! ABDADA (Weill 1996), in Kerrigan's simplified form: every thread searches the whole root in
//! the same order, sharing the table, and a thread puts off a younger brother that another
//! thread is searching at that moment, coming back to it once the node's other moves are
//! done, by when its value is usually in the table. Nobody waits and no work is handed over:
//! the threads spread over a node's brothers by themselves. The first thread to finish gives
//! the result (each thread's search is complete, so any finisher's value is the value).
//!
//! "Being searched" lives in a small table of its own ([`Busy`]), not in the transposition
//! table's entries: a claim is made and given up around each child's search, far more often
//! than entries are stored. Claims are only a hint: a lost one costs duplicated work, never
//! a wrong value. The driver is Lazy SMP's race (`lazysmp::race`), given a busy table.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Buckets of the busy table: far more than the few dozen claims each thread holds at once.
const BUCKETS: usize = 1 << 12;
/// Claims a bucket holds.
const WAYS: usize = 4;

/// The moves being searched right now, by key (see `Searcher::move_key`); 0 is an empty
/// slot.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    pub(crate) fn new() -> Self {
        Busy {
            slots: (0..BUCKETS * WAYS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let b = (key as usize & (BUCKETS - 1)) * WAYS;
        &self.slots[b..b + WAYS]
    }

    /// Claims `key`: false if another thread holds it. A full bucket claims nothing and
    /// answers true (the move is searched, unmarked).
    #[inline]
    pub(crate) fn enter(&self, key: u64) -> bool {
        let key = key | 1;
        let bucket = self.bucket(key);
        if bucket.iter().any(|s| s.load(Relaxed) == key) {
            return false;
        }
        for s in bucket {
            if s.compare_exchange(0, key, Relaxed, Relaxed).is_ok() {
                break;
            }
        }
        true
    }

    /// Gives up a claim on `key` (nothing if it was never recorded).
    #[inline]
    pub(crate) fn leave(&self, key: u64) {
        let key = key | 1;
        for s in self.bucket(key) {
            if s.compare_exchange(key, 0, Relaxed, Relaxed).is_ok() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Busy;

    #[test]
    fn a_claimed_key_is_busy_until_left() {
        let b = Busy::new();
        assert!(b.enter(42));
        assert!(!b.enter(42), "a second claim on a held key must be refused");
        assert!(b.enter(44), "another key is free");
        b.leave(42);
        assert!(b.enter(42), "a key given up can be claimed again");
    }

    #[test]
    fn a_full_bucket_searches_unmarked() {
        let b = Busy::new();
        // Keys in one bucket: the same low bits.
        let keys: Vec<u64> = (1..=super::WAYS as u64 + 1).map(|k| k << 20 | 5).collect();
        for &k in &keys {
            assert!(b.enter(k));
        }
        // The last key found no slot: it is not held, so it is never refused.
        let last = *keys.last().unwrap();
        assert!(b.enter(last));
        b.leave(last);
        assert!(!b.enter(keys[0]), "the first keys stay held");
    }
}
