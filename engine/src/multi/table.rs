//! The lock-free transposition table of the chance searches: `f64` bounds.
//!
//! The two-player table ([`crate::tt`]) packs a 16-bit integer value into one word, which is
//! what makes it fast; a chance node's value is an expectation, and the tests hold Star1 and
//! Star2 to expectiminimax within 1e-12, so this table keeps both bounds as full `f64`s. An
//! entry is four atomic words: the key folded with the three data words, the lower bound, the
//! upper bound, and the depth with the best move. A reader recomputes the fold and takes the
//! entry only if it matches, so an entry torn by two writers racing is read as a miss, never as
//! a wrong bound (the XOR scheme of Hyatt and Mann). No locks: every word is an atomic, read
//! and written `Relaxed`.
//!
//! Its memory is the two-player table's: one 32-byte cluster of [`crate::tt`] per entry, sized
//! and checked the same way (refused beyond the address space or the memory available, with a
//! [`TableError`]) and committed page by page as the search first touches it, not up front.

use crate::tt::{Cluster, Clusters, TableError};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// A lower bound on the value (from the player the search scores the position for).
    pub lo: f64,
    /// An upper bound on the value.
    pub hi: f64,
    /// The plies searched below the position (at most `u16::MAX - 1`).
    pub depth: u16,
    /// The index of the best move in the generated list, if any.
    pub best: Option<u8>,
    /// True when the bounds depend on the depth limit (some position below was evaluated at
    /// the horizon); false when they hold for the whole game, at any depth.
    pub cut: bool,
}

/// The table: a power of two of four-word entries, one way per index, replaced by depth.
pub struct BoundsTable {
    entries: Clusters,
    mask: usize,
}

const NO_MOVE: u64 = 0xFF;

impl BoundsTable {
    /// A table of about `mib` MiB (at least one entry). Panics where the memory cannot be had;
    /// [`BoundsTable::try_new`] says so instead.
    pub fn new(mib: usize) -> BoundsTable {
        match BoundsTable::try_new(mib) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of at most `mib` MiB (at least one entry), rounded down to a power of two, or an
    /// error naming the size, and the memory available where the system says, when it cannot
    /// be had (see [`crate::tt::TranspositionTable::try_new`], which sizes its table the
    /// same way).
    pub fn try_new(mib: usize) -> Result<BoundsTable, TableError> {
        let entries = Clusters::sized(mib)?;
        Ok(BoundsTable {
            mask: entries.len - 1,
            entries,
        })
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.mask + 1
    }

    /// Empties the table.
    pub fn clear(&self) {
        for i in 0..=self.mask {
            for w in &self.entries.get(i).words {
                w.store(0, Relaxed);
            }
        }
    }

    /// The four words of `key`'s entry.
    #[inline]
    fn slot(&self, key: u64) -> &[AtomicU64; 4] {
        let e: &Cluster = self.entries.get(key as usize & self.mask);
        &e.words
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let w = self.slot(key);
        let check = w[0].load(Relaxed);
        let lo = w[1].load(Relaxed);
        let hi = w[2].load(Relaxed);
        let meta = w[3].load(Relaxed);
        // An empty entry has meta 0, which no store writes (its depth field is depth + 1).
        if meta == 0 || check ^ lo ^ hi ^ meta != key {
            return None;
        }
        let best = (meta >> 16) & 0xFF;
        Some(Bounds {
            lo: f64::from_bits(lo),
            hi: f64::from_bits(hi),
            depth: ((meta & 0xFFFF) as u16).wrapping_sub(1),
            best: (best != NO_MOVE).then_some(best as u8),
            cut: meta >> 24 & 1 == 1,
        })
    }

    /// Stores `b` for `key`, unless the entry there holds the same key searched deeper.
    #[inline]
    pub fn store(&self, key: u64, b: Bounds) {
        let w = self.slot(key);
        if let Some(old) = self.probe(key) {
            // A deeper result, or one that holds for the whole game, is worth more.
            if b.cut && (old.depth > b.depth || !old.cut) {
                return;
            }
        }
        let lo = b.lo.to_bits();
        let hi = b.hi.to_bits();
        let meta = (b.depth.saturating_add(1).max(1) as u64)
            | (b.best.map_or(NO_MOVE, |m| m as u64) << 16)
            | (b.cut as u64) << 24;
        w[0].store(key ^ lo ^ hi ^ meta, Relaxed);
        w[1].store(lo, Relaxed);
        w[2].store(hi, Relaxed);
        w[3].store(meta, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let t = BoundsTable::new(1);
        assert!(t.probe(42).is_none());
        let b = Bounds {
            lo: -0.25,
            hi: 0.5,
            depth: 7,
            best: Some(1),
            cut: true,
        };
        t.store(42, b);
        assert_eq!(t.probe(42), Some(b));
        // Another key in the same slot is a miss.
        assert!(t.probe(42 + t.capacity() as u64).is_none());
        // A shallower result does not replace a deeper one.
        t.store(42, Bounds { depth: 3, ..b });
        assert_eq!(t.probe(42).unwrap().depth, 7);
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn sizes_beyond_the_address_space_or_the_memory_are_refused() {
        // Sized like the two-player table: a power of two of 32-byte entries.
        assert_eq!(BoundsTable::new(1).capacity(), (1 << 20) / 32);
        assert_eq!(BoundsTable::new(3).capacity(), (2 << 20) / 32);
        assert!(matches!(
            BoundsTable::try_new(usize::MAX),
            Err(TableError::TooLarge { .. })
        ));
        // Twice the machine's memory (where the system says how much there is).
        if let Ok(text) = std::fs::read_to_string("/proc/meminfo") {
            let kib: usize = text
                .lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().strip_suffix("kB"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap();
            let e = BoundsTable::try_new(kib / 512).err().unwrap();
            assert!(matches!(e, TableError::Unavailable { .. }), "{e}");
            assert!(e.to_string().contains("MiB of memory"), "{e}");
        }
    }
}
