//! A lock-free transposition table shared by every search thread.
//!
//! The table is a power-of-two number of 64-byte clusters (one cache line each) of four
//! entries. An entry is two `AtomicU64` words, the full key and a packed data word, read and
//! written with relaxed atomics: no locks, and no racy non-atomic access anywhere. Two threads
//! storing into the same entry at once can leave the key of one beside the data of the other
//! (a torn entry); the data word carries a 16-bit checksum of key and payload, so a probe
//! rejects such an entry instead of trusting it (and counts it).
//!
//! Data word layout, low bits first: value (16, two's complement), best move (8, 0xFF none),
//! depth (8), age (8), bound (2), work (6, log2 of the subtree's node count), checksum (16).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What an entry's value means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// A lower bound: the true value is at least this (the search failed high).
    Lower,
    /// An upper bound: the true value is at most this (the search failed low).
    Upper,
}

pub use crate::game::NO_CODE as NO_MOVE;

/// One table entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stored value, from the side to move.
    pub value: i16,
    /// How `value` bounds the true value.
    pub bound: Bound,
    /// Best or refuting move as the game's move code, [`NO_MOVE`] if none.
    pub mv: u8,
    /// Remaining depth the value was searched to.
    pub depth: u8,
    /// log2 of the nodes the search under this entry took (replacement priority).
    pub work: u8,
}

/// Table counters, kept by each searcher (shared atomic counters would make every probe
/// contend for one cache line) and summed by the caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TtStats {
    /// Probes made.
    pub probes: u64,
    /// Probes that found their key.
    pub hits: u64,
    /// Entries written.
    pub stores: u64,
    /// Stores that evicted another position's entry.
    pub replacements: u64,
    /// Entries whose key matched but whose checksum did not: torn by concurrent writers.
    pub torn: u64,
}

impl TtStats {
    /// Adds another searcher's counters.
    pub fn add(&mut self, o: &TtStats) {
        self.probes += o.probes;
        self.hits += o.hits;
        self.stores += o.stores;
        self.replacements += o.replacements;
        self.torn += o.torn;
    }
}

const WAYS: usize = 4;

#[repr(align(64))]
struct Cluster {
    // Pairs (key, data) for `WAYS` entries.
    words: [AtomicU64; 2 * WAYS],
}

/// The shared, fixed-size, lock-free transposition table.
pub struct TranspositionTable {
    clusters: Clusters,
    mask: u64,
    age: AtomicU8,
}

const PAYLOAD_BITS: u32 = 48;
const PAYLOAD_MASK: u64 = (1 << PAYLOAD_BITS) - 1;

#[inline]
fn checksum(key: u64, payload: u64) -> u64 {
    // A multiply-xorshift mix: any change of key or payload changes the top bits.
    let x = (key ^ payload.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 48
}

#[inline]
fn pack(key: u64, e: &Entry, age: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let payload = (e.value as u16 as u64)
        | (e.mv as u64) << 16
        | (e.depth as u64) << 24
        | (age as u64) << 32
        | bound << 40
        | ((e.work.min(63)) as u64) << 42;
    payload | checksum(key, payload) << PAYLOAD_BITS
}

#[inline]
fn unpack(data: u64) -> (Entry, u8) {
    let bound = match (data >> 40) & 3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    (
        Entry {
            value: data as u16 as i16,
            bound,
            mv: (data >> 16) as u8,
            depth: (data >> 24) as u8,
            work: ((data >> 42) & 63) as u8,
        },
        (data >> 32) as u8,
    )
}

#[inline]
fn valid(key: u64, data: u64) -> bool {
    checksum(key, data & PAYLOAD_MASK) == data >> PAYLOAD_BITS
}

/// Spreads a key over the table index: game keys (Connect Four's, say) are far from uniform.
#[inline]
fn index_hash(key: u64) -> u64 {
    let x = key.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^ (x >> 32)
}

/// Huge pages hold 2 MiB on x86-64 Linux: tables at least that big are aligned to them.
const HUGE_PAGE: usize = 2 << 20;

/// The table's memory: `len` clusters in one block allocated with `layout`, freed with the
/// same layout (a `Box<[Cluster]>` would free it with `Cluster`'s alignment, not ours).
struct Clusters {
    ptr: std::ptr::NonNull<Cluster>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: `Clusters` owns its block like a `Box<[Cluster]>` does, and `Cluster` is made of
// atomics only, so it is `Send` and `Sync`: sharing or moving the block between threads is
// as sound as sharing or moving `[Cluster]`.
unsafe impl Send for Clusters {}
// SAFETY: see `Send` above.
unsafe impl Sync for Clusters {}

impl Clusters {
    /// `n` empty clusters. Tables of 2 MiB and more are aligned to 2 MiB and, on Linux, asked
    /// to live in transparent huge pages before any page is touched: every probe lands on a
    /// random cluster, and with 4 KiB pages nearly every probe also misses the TLB (see the
    /// README for the measured gain).
    fn zeroed(n: usize) -> Clusters {
        let size = n * std::mem::size_of::<Cluster>();
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Cluster>()
        };
        let layout = std::alloc::Layout::from_size_align(size, align).expect("table size fits");
        // SAFETY: `layout` has non-zero size (n >= 1, clusters are 64 bytes) and at least
        // `Cluster`'s alignment. `madvise` only advises on pages of our own fresh block. The
        // whole block is written with zeros before anything reads it, and all-zero bytes are
        // a valid `Cluster` (eight `AtomicU64`s holding 0, the empty entry).
        unsafe {
            let ptr = std::alloc::alloc(layout);
            if ptr.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            #[cfg(target_os = "linux")]
            if align == HUGE_PAGE {
                // A hint: where huge pages are off it fails and 4 KiB pages serve.
                libc::madvise(ptr as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
            }
            std::ptr::write_bytes(ptr, 0, size);
            Clusters {
                ptr: std::ptr::NonNull::new_unchecked(ptr as *mut Cluster),
                len: n,
                layout,
            }
        }
    }
}

impl std::ops::Deref for Clusters {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `ptr` points to `len` initialised clusters (see `zeroed`) that live until
        // `drop`, and only shared references are ever handed out.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        // SAFETY: the block was allocated in `zeroed` with exactly `self.layout`, and no
        // reference into it outlives `self`.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one cluster), rounded down to a power of two.
    pub fn new(mib: usize) -> Self {
        let bytes = mib.max(1) << 20;
        let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        TranspositionTable {
            clusters: Clusters::zeroed(n),
            mask: n as u64 - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.clusters.len() * WAYS
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Starts a new search: entries from earlier searches become cheaper to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// Empties the table. Only meaningful while no search is running.
    pub fn clear(&self) {
        for c in self.clusters.iter() {
            for w in &c.words {
                w.store(0, Relaxed);
            }
        }
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        // The mask keeps the index below the cluster count, a power of two.
        &self.clusters[(index_hash(key) & self.mask) as usize]
    }

    /// Asks the processor to start loading `key`'s cluster, so that a probe made a little
    /// later does not wait for memory. A hint only: it never changes what a probe returns.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: prefetching is a hint that never faults and reads nothing into the
            // program; `p` points into our own live allocation anyway, and SSE is part of the
            // x86_64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up. Key 0 is never stored (an empty slot reads as key 0), so callers
    /// with a zero key always miss.
    #[inline]
    pub fn probe(&self, key: u64, stats: &mut TtStats) -> Option<Entry> {
        stats.probes += 1;
        if key == 0 {
            return None;
        }
        let c = self.cluster(key);
        for way in 0..WAYS {
            if c.words[2 * way].load(Relaxed) != key {
                continue;
            }
            let data = c.words[2 * way + 1].load(Relaxed);
            // The key may have been overwritten between the two loads: re-check it so a
            // torn read is caught by either the key or the checksum.
            if valid(key, data) && c.words[2 * way].load(Relaxed) == key {
                stats.hits += 1;
                return Some(unpack(data).0);
            }
            stats.torn += 1;
            return None;
        }
        None
    }

    /// Stores `entry` for `key`, replacing the same key's entry or the least valuable one of
    /// the cluster (an older search's, else the shallowest and cheapest).
    #[inline]
    pub fn store(&self, key: u64, entry: Entry, stats: &mut TtStats) {
        if key == 0 {
            return;
        }
        stats.stores += 1;
        let age = self.age.load(Relaxed);
        let c = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for way in 0..WAYS {
            let k = c.words[2 * way].load(Relaxed);
            if k == key {
                victim = way;
                break;
            }
            if k == 0 {
                if victim_worth > -1 {
                    victim = way;
                    victim_worth = -1;
                }
                continue;
            }
            let (old, old_age) = unpack(c.words[2 * way + 1].load(Relaxed));
            let stale = if old_age == age { 0 } else { 1 << 16 };
            let worth = (old.depth as i32 + old.work as i32) - stale;
            if worth < victim_worth {
                victim = way;
                victim_worth = worth;
            }
        }
        let old_key = c.words[2 * victim].load(Relaxed);
        if old_key != 0 && old_key != key {
            stats.replacements += 1;
        }
        // Two relaxed stores: a reader may see them torn, which its checksum test rejects.
        c.words[2 * victim].store(key, Relaxed);
        c.words[2 * victim + 1].store(pack(key, &entry, age), Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(v: i16, b: Bound, mv: u8, d: u8) -> Entry {
        Entry {
            value: v,
            bound: b,
            mv,
            depth: d,
            work: 3,
        }
    }

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let mut s = TtStats::default();
        for k in 1..1000u64 {
            tt.store(
                k * 7919,
                entry(k as i16 - 500, Bound::Lower, (k % 7) as u8, 5),
                &mut s,
            );
        }
        let mut found = 0;
        for k in 1..1000u64 {
            if let Some(e) = tt.probe(k * 7919, &mut s) {
                assert_eq!(e, entry(k as i16 - 500, Bound::Lower, (k % 7) as u8, 5));
                found += 1;
            }
        }
        assert_eq!(
            found, 999,
            "1 MiB holds 16k entries: nothing should be lost"
        );
        assert_eq!(s.hits, 999);
        assert!(tt.probe(12345, &mut s).is_none());
    }

    #[test]
    fn torn_entries_are_rejected() {
        let tt = TranspositionTable::new(1);
        let mut s = TtStats::default();
        tt.store(42, entry(7, Bound::Exact, 1, 9), &mut s);
        tt.store(43, entry(-7, Bound::Upper, 2, 9), &mut s);
        // Forge a torn entry: key 42 beside the data written for key 43.
        let c42 = tt.cluster(42);
        let c43 = tt.cluster(43);
        let way42 = (0..WAYS)
            .find(|&w| c42.words[2 * w].load(Relaxed) == 42)
            .unwrap();
        let way43 = (0..WAYS)
            .find(|&w| c43.words[2 * w].load(Relaxed) == 43)
            .unwrap();
        let data43 = c43.words[2 * way43 + 1].load(Relaxed);
        c42.words[2 * way42 + 1].store(data43, Relaxed);
        assert!(tt.probe(42, &mut s).is_none());
        assert_eq!(s.torn, 1);
    }

    #[test]
    fn negative_values_and_all_bounds_round_trip() {
        for (v, b) in [
            (-18, Bound::Upper),
            (0, Bound::Exact),
            (i16::MIN, Bound::Lower),
        ] {
            let e = entry(v, b, NO_MOVE, 255);
            let (u, age) = unpack(pack(99, &e, 7));
            assert_eq!(u, e);
            assert_eq!(age, 7);
        }
    }
}
