//! A lock-free transposition table shared by every search thread.
//!
//! The table is a power-of-two number of 32-byte clusters of two entries, aligned so that a
//! cluster never straddles a cache line: a probe or a store reads one line. (Four ways in
//! 64-byte clusters found the same positions, within 0.3% of the nodes, for 3.6% more
//! instructions in the ways' scans; see docs/measurements/connect4-knowledge.md.) An entry is two `AtomicU64` words read
//! and written with relaxed atomics: no locks, and no racy non-atomic access anywhere.
//!
//! Entries are kept the lockless-hashing way (Hyatt and Mann): word 0 holds `key ^ data`,
//! word 1 holds `data`, and a probe for `key` accepts a way only if `word0 ^ word1 == key`.
//! Two threads storing into the same way at once can leave word 0 of one entry beside word 1
//! of the other (a torn entry); its words XOR to neither key but to a scrambled value, so a
//! torn entry is accepted for a key only if it collides with that key as a whole 64-bit key
//! would. A probe never returns data that was not written for the key it asked about (up to
//! full-key collisions, which every 64-bit-keyed table has).
//!
//! Data word layout, low bits first: value (16, two's complement), best move (8, 0xFF
//! none), depth (8), age (8, the search that wrote it), bound (2), work (6, log2 of the
//! subtree's node count), epoch (16, see [`TranspositionTable::reset`]). The `*_SHIFT` and
//! `*_BITS` constants below define it; compile-time asserts check that the fields are
//! disjoint and fit in the word.

use std::sync::atomic::{
    AtomicU16, AtomicU64, AtomicU8,
    Ordering::{Acquire, Relaxed, Release},
};

pub mod file;

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
    /// Stores that evicted another position's live entry.
    pub replacements: u64,
}

impl TtStats {
    /// Adds another searcher's counters.
    pub fn add(&mut self, o: &TtStats) {
        self.probes += o.probes;
        self.hits += o.hits;
        self.stores += o.stores;
        self.replacements += o.replacements;
    }
}

/// Entries per cluster.
const WAYS: usize = 2;

#[repr(align(32))]
pub(crate) struct Cluster {
    // Pairs (key ^ data, data) for `WAYS` entries; the chance table's four words of one entry.
    pub(crate) words: [AtomicU64; 2 * WAYS],
}

/// The shared, lock-free transposition table. Its memory is reserved at its full size up
/// front, but a table over 64 MiB searches only its first 64 MiB at first and doubles the
/// part in use each time stores have evicted four times that part's entries (see
/// docs/design/transposition-table.md, "Growing into its memory"): a small solve given a
/// large table touches, and so zeroes and faults in, only the memory it needs.
pub struct TranspositionTable {
    clusters: Clusters,
    /// The part in use: its cluster count minus one, a power of two minus one, at most
    /// `clusters.len - 1`; it never shrinks (the pages it has touched are paid for).
    mask: AtomicU64,
    /// Live entries evicted since the part in use last grew, counted by each searcher in
    /// batches of [`PRESSURE_BATCH`].
    pressure: AtomicU64,
    /// Set while one thread moves entries into the half the part in use grows into.
    growing: std::sync::atomic::AtomicBool,
    /// The current search's age: entries of older searches are cheaper to replace.
    age: AtomicU8,
    /// The current epoch: entries written in another one read as empty.
    epoch: AtomicU16,
}

// The data word, field by field: each starts where the previous one ends.
const VALUE_SHIFT: u32 = 0;
const VALUE_BITS: u32 = 16;
const MOVE_SHIFT: u32 = VALUE_SHIFT + VALUE_BITS;
const MOVE_BITS: u32 = 8;
const DEPTH_SHIFT: u32 = MOVE_SHIFT + MOVE_BITS;
const DEPTH_BITS: u32 = 8;
const AGE_SHIFT: u32 = DEPTH_SHIFT + DEPTH_BITS;
const AGE_BITS: u32 = 8;
const BOUND_SHIFT: u32 = AGE_SHIFT + AGE_BITS;
const BOUND_BITS: u32 = 2;
const WORK_SHIFT: u32 = BOUND_SHIFT + BOUND_BITS;
const WORK_BITS: u32 = 6;
const EPOCH_SHIFT: u32 = WORK_SHIFT + WORK_BITS;
const EPOCH_BITS: u32 = 16;

/// Every field as (shift, width).
const FIELDS: [(u32, u32); 7] = [
    (VALUE_SHIFT, VALUE_BITS),
    (MOVE_SHIFT, MOVE_BITS),
    (DEPTH_SHIFT, DEPTH_BITS),
    (AGE_SHIFT, AGE_BITS),
    (BOUND_SHIFT, BOUND_BITS),
    (WORK_SHIFT, WORK_BITS),
    (EPOCH_SHIFT, EPOCH_BITS),
];

/// The mask of a field of `bits` bits (1 to 64) starting at bit 0.
const fn low_mask(bits: u32) -> u64 {
    u64::MAX >> (64 - bits)
}

/// True if every field is 1 to 64 bits wide, lies inside 64 bits and overlaps no other.
const fn layout_is_sound(fields: &[(u32, u32)]) -> bool {
    let mut used = 0u64;
    let mut i = 0;
    while i < fields.len() {
        let (shift, bits) = fields[i];
        if bits == 0 || bits > 64 || shift + bits > 64 {
            return false;
        }
        let m = low_mask(bits) << shift;
        if used & m != 0 {
            return false;
        }
        used |= m;
        i += 1;
    }
    true
}

const _: () = assert!(
    layout_is_sound(&FIELDS),
    "data word fields overlap or exceed 64 bits"
);
// Each field is wide enough for what goes into it.
const _: () = assert!(VALUE_BITS == i16::BITS && MOVE_BITS == u8::BITS);
const _: () = assert!(DEPTH_BITS == u8::BITS && AGE_BITS == u8::BITS);
const _: () = assert!(EPOCH_BITS == u16::BITS && BOUND_BITS >= 2);

/// Field `(shift, bits)` of `data`.
#[inline]
const fn field(data: u64, shift: u32, bits: u32) -> u64 {
    (data >> shift) & low_mask(bits)
}

/// The epoch a fresh or cleared table starts in; a zeroed entry carries it too (and reads
/// as empty through its zero key).
const FIRST_EPOCH: u16 = 0;

#[inline]
fn pack(e: &Entry, age: u8, epoch: u16) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    (e.value as u16 as u64) << VALUE_SHIFT
        | (e.mv as u64) << MOVE_SHIFT
        | (e.depth as u64) << DEPTH_SHIFT
        | (age as u64) << AGE_SHIFT
        | bound << BOUND_SHIFT
        | (e.work.min(low_mask(WORK_BITS) as u8) as u64) << WORK_SHIFT
        | (epoch as u64) << EPOCH_SHIFT
}

/// The entry in `data`, with its age and epoch.
#[inline]
fn unpack(data: u64) -> (Entry, u8, u16) {
    let bound = match field(data, BOUND_SHIFT, BOUND_BITS) {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    (
        Entry {
            value: field(data, VALUE_SHIFT, VALUE_BITS) as u16 as i16,
            bound,
            mv: field(data, MOVE_SHIFT, MOVE_BITS) as u8,
            depth: field(data, DEPTH_SHIFT, DEPTH_BITS) as u8,
            work: field(data, WORK_SHIFT, WORK_BITS) as u8,
        },
        field(data, AGE_SHIFT, AGE_BITS) as u8,
        epoch_of(data),
    )
}

#[inline]
fn epoch_of(data: u64) -> u16 {
    field(data, EPOCH_SHIFT, EPOCH_BITS) as u16
}

/// The entry to store when `new` arrives for a key whose live entry is `old`: a lower and an
/// upper bound with the same value pin the true value, so the pair becomes exact, valid to
/// the shallower of the two depths, with the lower bound's move (it reaches the value) when
/// it has one. Anything else simply replaces the old entry.
#[inline]
fn merge(old: &Entry, new: &Entry) -> Entry {
    let (lower, upper) = match (old.bound, new.bound) {
        (Bound::Lower, Bound::Upper) => (old, new),
        (Bound::Upper, Bound::Lower) => (new, old),
        _ => return keep_move(old, new),
    };
    if lower.value != upper.value {
        return keep_move(old, new);
    }
    Entry {
        value: new.value,
        bound: Bound::Exact,
        mv: if lower.mv != NO_MOVE {
            lower.mv
        } else {
            upper.mv
        },
        depth: old.depth.min(new.depth),
        work: old.work.max(new.work),
    }
}

/// `new`, with `old`'s move if `new` brings none.
#[inline]
fn keep_move(old: &Entry, new: &Entry) -> Entry {
    Entry {
        mv: if new.mv == NO_MOVE { old.mv } else { new.mv },
        ..*new
    }
}

/// Spreads a key over the table index: game keys (Connect Four's, say) are far from uniform.
#[inline]
fn index_hash(key: u64) -> u64 {
    let x = key.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^ (x >> 32)
}

/// The part of a large table in use when it is made: 64 MiB, which the searches
/// measured on 64 MiB tables never outgrow faster than they would fill it.
const GROWS_FROM: usize = 64 << 20;

/// Evictions a searcher counts before it adds them to the table's shared `pressure`: one
/// shared write per this many, so the counter costs the hot path nothing measurable. (Under
/// Miri, which runs the tests a thousand times slower, the batches are smaller so that the
/// tests can grow a table with few stores.)
const PRESSURE_BATCH: u64 = if cfg!(miri) { 64 } else { 1024 };

/// Huge pages hold 2 MiB on x86-64 Linux: tables at least that big are aligned to them.
const HUGE_PAGE: usize = 2 << 20;

/// The table's memory: `len` clusters in one block. On Linux tables of 2 MiB and more are
/// mapped straight from the kernel (`mapped`), whose fresh pages read as zeros: nothing is
/// written up front, each page is zeroed by the kernel when the search first touches it
/// (spread over the searching threads, and never for pages a short solve does not reach). A
/// 1 GiB table cost 1.1 s of zeroing on one thread before the empty board's search began.
/// Other blocks (and all under Miri, which cannot unmap part of a mapping) come from the
/// global allocator with `layout`, zeroed.
pub(crate) struct Clusters {
    ptr: std::ptr::NonNull<Cluster>,
    pub(crate) len: usize,
    layout: std::alloc::Layout,
    mapped: bool,
}

// SAFETY: `Clusters` owns its block like a `Box<[Cluster]>` does, and `Cluster` is made of
// atomics only, so it is `Send` and `Sync`: sharing or moving the block between threads is
// as sound as sharing or moving `[Cluster]`.
unsafe impl Send for Clusters {}
// SAFETY: see `Send` above.
unsafe impl Sync for Clusters {}

impl Clusters {
    /// At most `mib` MiB of empty clusters (at least one), a power of two of them: the sizing
    /// every table shares ([`TranspositionTable::try_new`],
    /// [`crate::multi::table::BoundsTable::try_new`]). Refused before anything is allocated
    /// where the size exceeds the address space or the memory available; nothing is
    /// committed up front (see [`Clusters`]).
    pub(crate) fn sized(mib: usize) -> Result<Clusters, TableError> {
        let mib = mib.max(1);
        let bytes = mib
            .checked_mul(1 << 20)
            .filter(|&b| b <= isize::MAX as usize / 2)
            .ok_or(TableError::TooLarge { mib })?;
        let memory = memory_mib();
        if let Some((available_mib, total_mib)) = memory {
            if mib as u64 > available_mib {
                return Err(TableError::Unavailable {
                    mib,
                    available_mib,
                    total_mib,
                });
            }
        }
        let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Clusters::zeroed(n).ok_or(TableError::AllocationFailed {
            mib,
            available_mib: memory.map(|(a, _)| a),
        })
    }

    /// `n` empty clusters. Tables of 2 MiB and more are aligned to 2 MiB and, on Linux, asked
    /// to live in transparent huge pages before any page is touched: every probe lands on a
    /// random cluster, and with 4 KiB pages nearly every probe also misses the TLB (see the
    /// docs/measurements/connect4-test-sets.md for the measured gain). `None` when the memory cannot be had: the caller
    /// reports it, nothing aborts.
    fn zeroed(n: usize) -> Option<Clusters> {
        let size = n.checked_mul(std::mem::size_of::<Cluster>())?;
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Cluster>()
        };
        let layout = std::alloc::Layout::from_size_align(size, align).ok()?;
        #[cfg(all(target_os = "linux", not(miri)))]
        if align == HUGE_PAGE {
            if let Some(ptr) = map_huge(size) {
                return Some(Clusters {
                    ptr,
                    len: n,
                    layout,
                    mapped: true,
                });
            }
        }
        // SAFETY: `layout` has non-zero size (n >= 1, clusters are 32 bytes) and at least
        // `Cluster`'s alignment. `alloc_zeroed` hands back the block already zeroed (fresh
        // pages from the system are not touched to do so), and all-zero bytes are a valid
        // `Cluster` (four `AtomicU64`s holding 0, the empty entry).
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout);
            if ptr.is_null() {
                return None;
            }
            Some(Clusters {
                ptr: std::ptr::NonNull::new_unchecked(ptr as *mut Cluster),
                len: n,
                layout,
                mapped: false,
            })
        }
    }
}

/// `size` bytes (a multiple of [`HUGE_PAGE`]) of fresh anonymous memory aligned to
/// [`HUGE_PAGE`] and advised into transparent huge pages, or `None` if the kernel refuses.
#[cfg(all(target_os = "linux", not(miri)))]
fn map_huge(size: usize) -> Option<std::ptr::NonNull<Cluster>> {
    debug_assert!(size.is_multiple_of(HUGE_PAGE));
    let len = size.checked_add(HUGE_PAGE)?;
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches no
    // existing memory. The unmaps and the advice cover only parts of that fresh mapping:
    // `head` bytes before the aligned start (less than `len - size`) and the rest after its
    // end; what stays is exactly `size` bytes from the aligned `start`, which the kernel
    // fills with zeros on first touch, a valid `Cluster` bit pattern (see `zeroed`).
    unsafe {
        let base = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if base == libc::MAP_FAILED {
            return None;
        }
        let base = base as *mut u8;
        let head = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
        let start = base.add(head);
        if head > 0 {
            libc::munmap(base as *mut libc::c_void, head);
        }
        let tail = len - head - size;
        if tail > 0 {
            libc::munmap(start.add(size) as *mut libc::c_void, tail);
        }
        // A hint: where huge pages are off it fails and 4 KiB pages serve.
        libc::madvise(start as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
        std::ptr::NonNull::new(start as *mut Cluster)
    }
}

impl Clusters {
    /// The whole block as a slice, for the walks over every cluster (`clear`, tests). Not for
    /// the hot path: index one cluster with [`Clusters::get`] or [`Clusters::get_unchecked`].
    /// (Under Miri a reference to the slice is checked over the whole block each time one is
    /// made, so a probe that went through it cost time proportional to the table.)
    fn as_slice(&self) -> &[Cluster] {
        // SAFETY: `ptr` points to `len` initialised clusters (see `zeroed`) that live until
        // `drop`, and only shared references are ever handed out.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// Cluster `i`; panics unless `i < len`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &Cluster {
        assert!(i < self.len, "cluster {i} out of {}", self.len);
        // SAFETY: `i < len`, checked just above.
        unsafe { self.get_unchecked(i) }
    }

    /// Cluster `i`, a reference to that one cluster only, with no bounds check.
    ///
    /// # Safety
    ///
    /// `i` must be below `len`.
    #[inline(always)]
    pub(crate) unsafe fn get_unchecked(&self, i: usize) -> &Cluster {
        debug_assert!(i < self.len);
        // SAFETY: the caller guarantees `i < len`, so `ptr.add(i)` stays inside the block of
        // `len` initialised clusters (see `zeroed`), which lives as long as `self`; only
        // shared references into it are ever made.
        unsafe { &*self.ptr.as_ptr().add(i) }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        if self.mapped {
            // SAFETY: the block is exactly the mapping `map_huge` left, `layout.size()`
            // bytes, and no reference into it outlives `self`.
            #[cfg(all(target_os = "linux", not(miri)))]
            unsafe {
                libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, self.layout.size());
            }
            return;
        }
        // SAFETY: the block was allocated in `zeroed` with exactly `self.layout`, and no
        // reference into it outlives `self`.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

/// Why [`TranspositionTable::try_new`] made no table. Its message is one line naming the
/// size asked for and, where the system says, the memory available.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// More MiB than the address space holds.
    TooLarge {
        /// The size asked for, in MiB.
        mib: usize,
    },
    /// More than the machine's available memory (Linux: `MemAvailable` in `/proc/meminfo`):
    /// refused before allocating anything, since a table that big would swap or be killed
    /// once the search touches it.
    Unavailable {
        /// The size asked for, in MiB.
        mib: usize,
        /// The memory available, in MiB.
        available_mib: u64,
        /// The machine's memory, in MiB.
        total_mib: u64,
    },
    /// The system refused the memory (an address-space limit such as `ulimit -v`, or no
    /// memory left).
    AllocationFailed {
        /// The size asked for, in MiB.
        mib: usize,
        /// The memory available in MiB, where the system says.
        available_mib: Option<u64>,
    },
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TableError::TooLarge { mib } => write!(
                f,
                "cannot make a {mib} MiB transposition table: larger than the address space"
            ),
            TableError::Unavailable {
                mib,
                available_mib,
                total_mib,
            } => write!(
                f,
                "cannot make a {mib} MiB transposition table: only {available_mib} MiB of memory \
                 available ({total_mib} MiB in all)"
            ),
            TableError::AllocationFailed { mib, available_mib } => {
                write!(f, "cannot allocate a {mib} MiB transposition table")?;
                match available_mib {
                    Some(a) => write!(f, " ({a} MiB of memory available)"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for TableError {}

/// The machine's memory, `(available, total)` in MiB, from `/proc/meminfo` (Linux only;
/// `None` elsewhere, under Miri, or if the file says nothing usable).
fn memory_mib() -> Option<(u64, u64)> {
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let field = |name: &str| -> Option<u64> {
            let line = text.lines().find(|l| l.starts_with(name))?;
            let kib: u64 = line[name.len()..]
                .trim()
                .strip_suffix("kB")?
                .trim()
                .parse()
                .ok()?;
            Some(kib / 1024)
        };
        let total = field("MemTotal:")?;
        // Kernels before 3.14 have no MemAvailable: the free memory is the nearest.
        let available = field("MemAvailable:").or_else(|| field("MemFree:"))?;
        Some((available, total))
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    {
        None
    }
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one cluster), rounded down to a power of two.
    /// Panics where [`TranspositionTable::try_new`] returns an error.
    pub fn new(mib: usize) -> Self {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `mib` MiB (at least one cluster), rounded down to a power of two,
    /// or an error, never an abort: a size beyond the address space, or (on Linux) beyond the
    /// memory available, is refused before allocating, and a refused allocation (`ulimit -v`)
    /// is an error too.
    pub fn try_new(mib: usize) -> Result<Self, TableError> {
        Ok(TranspositionTable::from_clusters(
            Clusters::sized(mib)?,
            GROWS_FROM / std::mem::size_of::<Cluster>(),
        ))
    }

    /// A table over `clusters` (a power of two of them, which `cluster` relies on) that
    /// starts with `start` of them in use (a power of two; at most all).
    fn from_clusters(clusters: Clusters, start: usize) -> Self {
        debug_assert!(clusters.len.is_power_of_two() && start.is_power_of_two());
        let start = start.min(clusters.len);
        TranspositionTable {
            clusters,
            mask: AtomicU64::new(start as u64 - 1),
            pressure: AtomicU64::new(0),
            growing: std::sync::atomic::AtomicBool::new(false),
            age: AtomicU8::new(0),
            epoch: AtomicU16::new(FIRST_EPOCH),
        }
    }

    /// A table of `n` clusters, a power of two, all in use from the start.
    #[cfg(test)]
    fn with_clusters(n: usize) -> Self {
        TranspositionTable::growing_table(n, n)
    }

    /// A table of `n` clusters, a power of two, that starts with `start` in use.
    #[cfg(test)]
    fn growing_table(n: usize, start: usize) -> Self {
        assert!(n.is_power_of_two(), "{n} clusters: not a power of two");
        let clusters = Clusters::zeroed(n)
            .unwrap_or_else(|| panic!("cannot allocate a table of {n} clusters"));
        TranspositionTable::from_clusters(clusters, start)
    }

    /// Number of entries the table holds once it has grown to its full size.
    pub fn capacity(&self) -> usize {
        self.clusters.len * WAYS
    }

    /// Number of entries in the part in use now (see [`TranspositionTable`]).
    pub fn capacity_in_use(&self) -> usize {
        (self.mask.load(Relaxed) as usize + 1) * WAYS
    }

    /// Size in bytes, at the full size.
    pub fn bytes(&self) -> usize {
        self.clusters.len * std::mem::size_of::<Cluster>()
    }

    /// Doubles the part in use, unless it is all in use already or another thread is
    /// growing it. Each entry whose key the new mask's bit sends to the new half
    /// (`index_hash(key) & mask`) moves there, into the same way of cluster `i + old`, which
    /// is still empty (the part in use never shrinks, so nothing beyond it was ever
    /// written): every entry stays where probes with the new mask look, and no way is left
    /// holding a copy. Searchers go on with the old mask meanwhile; an entry they store or
    /// look for while it moves may be missed, which costs a table miss, never a wrong
    /// answer (a way matches only its own full key, and a way torn by a racing store reads
    /// as another key, as in any store race).
    #[cold]
    fn grow(&self) {
        if self.growing.swap(true, Acquire) {
            return;
        }
        let old = self.mask.load(Relaxed) as usize + 1;
        if old < self.clusters.len {
            for i in 0..old {
                // SAFETY: `i < old` and `old + i < 2 * old <= clusters.len` (both powers of
                // two, `old` below `len`).
                let (from, to) = unsafe {
                    (
                        self.clusters.get_unchecked(i),
                        self.clusters.get_unchecked(old + i),
                    )
                };
                for way in 0..WAYS {
                    let check = from.words[2 * way].load(Relaxed);
                    let data = from.words[2 * way + 1].load(Relaxed);
                    let key = check ^ data;
                    if key != 0 && index_hash(key) & old as u64 != 0 {
                        to.words[2 * way].store(check, Relaxed);
                        to.words[2 * way + 1].store(data, Relaxed);
                        from.words[2 * way].store(0, Relaxed);
                        from.words[2 * way + 1].store(0, Relaxed);
                    }
                }
            }
            self.pressure.store(0, Relaxed);
            // Release: a searcher that sees the new mask also sees the moved words.
            self.mask.store(2 * old as u64 - 1, Release);
        }
        self.growing.store(false, Release);
    }

    /// Adds a searcher's batch of evictions to the table's pressure, and grows the part in
    /// use once they reach four times its entries: it has turned over four times. (Growing
    /// at a quarter cost the empty 7x6 board 3 s of page faults on one thread for 3% fewer
    /// nodes; see docs/measurements/connect4-sizes.md, "A table that grows into its memory".)
    #[cold]
    fn add_pressure(&self) {
        let pressure = self.pressure.fetch_add(PRESSURE_BATCH, Relaxed) + PRESSURE_BATCH;
        let in_use = self.mask.load(Relaxed) as usize + 1;
        if in_use < self.clusters.len && pressure >= (in_use * WAYS * 4) as u64 {
            self.grow();
        }
    }

    /// Starts a new search: entries from earlier searches become cheaper to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// The current search's age (it wraps after 256 searches): an entry of this age was
    /// written since the last [`TranspositionTable::new_search`].
    #[inline]
    pub(crate) fn age(&self) -> u8 {
        self.age.load(Relaxed)
    }

    /// Empties the table for real: writes zeros over every entry (time proportional to the
    /// table's size) and starts the epoch over. Only meaningful while no search is running.
    /// [`TranspositionTable::reset`] does the same job in constant time.
    pub fn clear(&self) {
        for c in self.clusters.as_slice() {
            for w in &c.words {
                w.store(0, Relaxed);
            }
        }
        self.epoch.store(FIRST_EPOCH, Relaxed);
    }

    /// Empties the table logically, in constant time: moves to the next of 65,536 epochs.
    /// Every entry records the epoch it was written in, and one from another epoch reads as
    /// a miss and counts as an empty slot when storing. Once every 65,536 resets, when the
    /// epoch would come back to the one a cleared table starts in (whose old entries would
    /// then reappear), it does a real [`TranspositionTable::clear`] instead. Only meaningful
    /// while no search is running (like `clear`, it never makes a probe return wrong data,
    /// but entries stored meanwhile may be lost or kept).
    pub fn reset(&self) {
        let next = self.epoch.load(Relaxed).wrapping_add(1);
        if next == FIRST_EPOCH {
            self.clear();
        } else {
            self.epoch.store(next, Relaxed);
        }
    }

    /// Sets the epoch, so tests can get near its wrap without 65,535 resets.
    #[cfg(test)]
    fn set_epoch(&self, epoch: u16) {
        self.epoch.store(epoch, Relaxed);
    }

    /// The index of `key`'s cluster (two entries): keys with the same index compete for
    /// the same slots. Public for tests that want contention.
    #[doc(hidden)]
    // Every probe, store and prefetch computes it: left to LLVM it became a call from the
    // node routine's codegen unit (docs/measurements/connect4-sizes.md, "The table's index
    // inlined again").
    #[inline(always)]
    pub fn cluster_index(&self, key: u64) -> usize {
        // The mask keeps the index inside the part in use, a power of two of clusters.
        (index_hash(key) & self.mask.load(Acquire)) as usize
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = self.cluster_index(key);
        // SAFETY: `i` is `index_hash(key) & mask`, so `i <= mask`; `mask` is always a
        // power of two minus one no greater than the cluster count minus one
        // (`from_clusters` starts it there and `grow` only doubles it while the doubled part
        // fits), and `clusters.len` never changes, so `i < clusters.len`.
        unsafe { self.clusters.get_unchecked(i) }
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

    /// Looks `key` up: the entry stored for it in the current epoch, if one is still there.
    /// Key 0 is never stored (an empty slot reads as key 0), so callers with a zero key
    /// always miss.
    #[inline(always)]
    pub fn probe(&self, key: u64, stats: &mut TtStats) -> Option<Entry> {
        self.probe_aged(key, stats).map(|(e, _)| e)
    }

    /// [`TranspositionTable::probe`], with the age of the search that wrote the entry (see
    /// [`TranspositionTable::age`]).
    #[inline(always)]
    pub(crate) fn probe_aged(&self, key: u64, stats: &mut TtStats) -> Option<(Entry, u8)> {
        stats.probes += 1;
        if key == 0 {
            return None;
        }
        let epoch = self.epoch.load(Relaxed);
        let c = self.cluster(key);
        for way in 0..WAYS {
            // Each word is read once: the check and the entry both come from these two
            // reads, so a store landing between them cannot slip in unchecked data.
            let check = c.words[2 * way].load(Relaxed);
            let data = c.words[2 * way + 1].load(Relaxed);
            if check ^ data == key && epoch_of(data) == epoch {
                stats.hits += 1;
                let (e, age, _) = unpack(data);
                return Some((e, age));
            }
        }
        None
    }

    /// Stores `entry` for `key`, in the way that holds `key` already, else an empty one
    /// (never used, or from an earlier epoch), else the one of an older search, else the one
    /// with the least depth plus work. A lower and an upper bound with the same value stored
    /// for the same key become an exact entry (see `merge`).
    #[inline]
    pub fn store(&self, key: u64, entry: Entry, stats: &mut TtStats) {
        self.store_with(key, entry, stats, || ());
    }

    /// [`TranspositionTable::store`], calling `between` after writing the entry's first word
    /// and before its second: a test that yields there makes concurrent writers tear
    /// entries far more often than they do by chance.
    #[doc(hidden)]
    #[inline(always)]
    pub fn store_with(&self, key: u64, entry: Entry, stats: &mut TtStats, between: impl FnOnce()) {
        if key == 0 {
            return;
        }
        stats.stores += 1;
        let age = self.age.load(Relaxed);
        let epoch = self.epoch.load(Relaxed);
        let c = self.cluster(key);
        // Replacement worth: the victim is the way with the least. Empty ways come first,
        // then older searches' entries, then the shallowest and cheapest.
        const EMPTY: i32 = i32::MIN;
        const OLDER: i32 = -(1 << 16);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        // Whether storing into `victim` evicts another position's live entry.
        let mut evicts = false;
        let mut entry = entry;
        for way in 0..WAYS {
            let data = c.words[2 * way + 1].load(Relaxed);
            let k = c.words[2 * way].load(Relaxed) ^ data;
            let (old, old_age, old_epoch) = unpack(data);
            let live = k != 0 && old_epoch == epoch;
            if k == key {
                victim = way;
                evicts = false;
                if live {
                    entry = merge(&old, &entry);
                }
                break;
            }
            let worth = if !live {
                EMPTY
            } else if old_age != age {
                OLDER + old.depth as i32 + old.work as i32
            } else {
                old.depth as i32 + old.work as i32
            };
            if worth < victim_worth {
                victim = way;
                victim_worth = worth;
                evicts = live;
            }
        }
        if evicts {
            stats.replacements += 1;
            if stats.replacements.is_multiple_of(PRESSURE_BATCH) {
                self.add_pressure();
            }
        }
        let data = pack(&entry, age, epoch);
        // Two relaxed stores: a reader may see them torn, and then its XOR check fails.
        c.words[2 * victim].store(key ^ data, Relaxed);
        between();
        c.words[2 * victim + 1].store(data, Relaxed);
    }

    /// The key each way of cluster `index` holds as a probe decodes it (`word0 ^ word1`; 0
    /// for an empty way, whatever its epoch). A torn way decodes to no key ever stored. For
    /// tests.
    #[doc(hidden)]
    pub fn decoded_keys(&self, index: usize) -> [u64; WAYS] {
        let c = self.clusters.get(index);
        std::array::from_fn(|w| c.words[2 * w].load(Relaxed) ^ c.words[2 * w + 1].load(Relaxed))
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

    /// The way of `key`'s cluster that holds it, read directly.
    fn way_of(tt: &TranspositionTable, key: u64) -> usize {
        let c = tt.cluster(key);
        (0..WAYS)
            .find(|&w| c.words[2 * w].load(Relaxed) ^ c.words[2 * w + 1].load(Relaxed) == key)
            .expect("the key is stored")
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
        assert_eq!(s.replacements, 0);
        assert!(tt.probe(12345, &mut s).is_none());
        assert!(tt.probe(0, &mut s).is_none());
    }

    /// A key whose cluster is `i`: `index_hash` maps `x * C` to `x ^ (x >> 32)`, so
    /// `x = 1 << 32 | (i ^ 1)` times the inverse of the odd constant `C` (mod 2^64) lands on
    /// `i` for any `i < 2^32`, and is never 0.
    fn key_for_cluster(i: usize) -> u64 {
        const C: u64 = 0xD6E8_FEB8_6659_FD93;
        // Newton's iteration for the inverse of an odd number mod 2^64: each step doubles
        // the number of correct low bits, from 3 (C * C = 1 mod 8).
        let mut inv = C;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(C.wrapping_mul(inv)));
        }
        debug_assert_eq!(C.wrapping_mul(inv), 1);
        (1u64 << 32 | (i as u64 ^ 1)).wrapping_mul(inv)
    }

    #[test]
    fn large_tables_start_empty_aligned_and_hold_entries_everywhere() {
        // 4 MiB: on Linux the block is mapped from the kernel, not zeroed by us (under Miri
        // it comes from the allocator).
        let tt = TranspositionTable::new(4);
        assert_eq!(tt.bytes(), 4 << 20);
        let len = tt.clusters.len;
        assert_eq!(tt.clusters.ptr.as_ptr() as usize % HUGE_PAGE, 0);
        // Every cluster; under Miri, which interprets each step, every 1021st one and the last.
        let stride = if cfg!(miri) { 1021 } else { 1 };
        let mut sample: Vec<usize> = (0..len).step_by(stride).chain([len - 1]).collect();
        sample.dedup();
        let all = tt.clusters.as_slice();
        assert!(sample
            .iter()
            .all(|&i| all[i].words.iter().all(|w| w.load(Relaxed) == 0)));
        let mut s = TtStats::default();
        // One key for each sampled cluster, the first and the last included.
        let keys: Vec<u64> = sample.iter().map(|&i| key_for_cluster(i)).collect();
        for (&i, &k) in sample.iter().zip(&keys) {
            assert_eq!(tt.cluster_index(k), i);
        }
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, entry((i % 1000) as i16, Bound::Exact, 2, 9), &mut s);
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(
                tt.probe(k, &mut s),
                Some(entry((i % 1000) as i16, Bound::Exact, 2, 9))
            );
        }
    }

    #[test]
    fn the_layout_check_catches_overlaps_and_overflows() {
        assert!(layout_is_sound(&FIELDS));
        assert!(!layout_is_sound(&[(0, 16), (15, 8)]), "overlap");
        assert!(!layout_is_sound(&[(0, 16), (60, 8)]), "past bit 63");
        assert!(!layout_is_sound(&[(0, 0)]), "empty field");
        assert_eq!(EPOCH_SHIFT + EPOCH_BITS, 64, "the fields fill the word");
    }

    #[test]
    fn every_field_round_trips() {
        let bounds = [Bound::Exact, Bound::Lower, Bound::Upper];
        let values = [i16::MIN, -18, -1, 0, 1, 21, i16::MAX];
        let mut i = 0usize;
        for &value in &values {
            for bound in bounds {
                for (mv, depth, work, age, epoch) in [
                    (NO_MOVE, u8::MAX, 63, u8::MAX, u16::MAX),
                    (0, 0, 0, 0, 0),
                    (6, 17, 31, 128, 0x8001),
                ] {
                    let e = Entry {
                        value,
                        bound,
                        mv,
                        depth,
                        work,
                    };
                    assert_eq!(unpack(pack(&e, age, epoch)), (e, age, epoch));
                    i += 1;
                }
            }
        }
        assert_eq!(i, values.len() * 9);
        // Work saturates at its 6 bits instead of spilling into the epoch.
        let big = Entry {
            work: 200,
            ..entry(-5, Bound::Upper, 2, 9)
        };
        assert_eq!(unpack(pack(&big, 1, 2)), (Entry { work: 63, ..big }, 1, 2));
        // And through the table, negative values included.
        let tt = TranspositionTable::new(1);
        let mut s = TtStats::default();
        for (k, &value) in values.iter().enumerate() {
            let e = Entry {
                value,
                bound: bounds[k % 3],
                mv: k as u8,
                depth: 40 - k as u8,
                work: 60 + (k % 4) as u8,
            };
            let key = 0xDEAD_BEEF_0000 + k as u64;
            tt.store(key, e, &mut s);
            assert_eq!(tt.probe(key, &mut s), Some(e));
        }
    }

    #[test]
    fn growing_keeps_every_entry_where_probes_look() {
        let tt = TranspositionTable::growing_table(64, 4);
        assert_eq!((tt.capacity_in_use(), tt.capacity()), (4 * WAYS, 64 * WAYS));
        let mut s = TtStats::default();
        // Clusters 0 to 7 fold onto the 4 in use two by two: both ways of each are filled.
        let keys: Vec<u64> = (0..8).map(key_for_cluster).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, entry(i as i16, Bound::Exact, 0, 1), &mut s);
        }
        assert_eq!(s.replacements, 0);
        for in_use in [8, 16, 32, 64, 64] {
            tt.grow();
            assert_eq!(tt.capacity_in_use(), in_use * WAYS);
            for (i, &k) in keys.iter().enumerate() {
                assert_eq!(tt.cluster_index(k), i % in_use.min(8));
                assert_eq!(
                    tt.probe(k, &mut s),
                    Some(entry(i as i16, Bound::Exact, 0, 1)),
                    "key of cluster {i} after growing to {in_use} clusters"
                );
            }
            let held = (0..64).flat_map(|c| tt.decoded_keys(c)).filter(|&k| k != 0);
            assert_eq!(held.count(), 8, "a moved entry left a copy behind");
        }
    }

    /// Stores `n` keys of its own from each of `threads` threads into a table of 64 clusters
    /// that starts with one in use, and checks what probes find: nothing but the value
    /// stored for the key, and the table grown to its full size by the evictions alone.
    fn grow_under_stores(threads: u64, n: u64) {
        let tt = TranspositionTable::growing_table(64, 1);
        let value = |k: u64| (k % 1000) as i16;
        std::thread::scope(|scope| {
            for t in 0..threads {
                let tt = &tt;
                scope.spawn(move || {
                    let mut s = TtStats::default();
                    for i in 1..=n {
                        let k = (i * threads + t).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        tt.store(k, entry(value(k), Bound::Lower, 1, 2), &mut s);
                    }
                });
            }
        });
        assert_eq!(tt.capacity_in_use(), tt.capacity());
        let mut s = TtStats::default();
        let mut found = 0;
        for i in 1..=n * threads {
            let k = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            if let Some(e) = tt.probe(k, &mut s) {
                assert_eq!(e, entry(value(k), Bound::Lower, 1, 2), "key {k:#x}");
                found += 1;
            }
        }
        assert!(found > 64, "only {found} entries found in 128 ways");
    }

    #[test]
    fn evictions_grow_the_part_in_use_to_the_full_table() {
        // Six doublings need six batches of evictions.
        grow_under_stores(1, if cfg!(miri) { 1_500 } else { 50_000 });
    }

    #[test]
    fn threads_storing_while_the_table_grows_find_only_their_values() {
        grow_under_stores(2, if cfg!(miri) { 1_000 } else { 50_000 });
    }

    #[test]
    fn torn_entries_are_rejected() {
        let tt = TranspositionTable::new(1);
        let mut s = TtStats::default();
        tt.store(42, entry(7, Bound::Exact, 1, 9), &mut s);
        tt.store(43, entry(-7, Bound::Upper, 2, 9), &mut s);
        let (c42, w42) = (tt.cluster(42), way_of(&tt, 42));
        let (c43, w43) = (tt.cluster(43), way_of(&tt, 43));
        let check42 = c42.words[2 * w42].load(Relaxed);
        let data42 = c42.words[2 * w42 + 1].load(Relaxed);
        let data43 = c43.words[2 * w43 + 1].load(Relaxed);
        // Forge a torn entry: word 0 written for key 42 beside the data written for key 43,
        // as two writers racing on one way would leave it.
        c42.words[2 * w42 + 1].store(data43, Relaxed);
        assert!(tt.probe(42, &mut s).is_none(), "key 42 with 43's data");
        // The other tear: 42's data beside 43's word 0.
        c42.words[2 * w42].store(c43.words[2 * w43].load(Relaxed), Relaxed);
        c42.words[2 * w42 + 1].store(data42, Relaxed);
        assert!(
            tt.probe(42, &mut s).is_none(),
            "key 42's data under 43's check"
        );
        assert_eq!(s.hits, 0);
        // Put back whole, the entry is found again.
        c42.words[2 * w42].store(check42, Relaxed);
        assert_eq!(tt.probe(42, &mut s), Some(entry(7, Bound::Exact, 1, 9)));
    }

    #[test]
    fn reset_hides_old_entries_and_frees_their_slots() {
        let tt = TranspositionTable::new(1);
        let mut s = TtStats::default();
        // One key more than a cluster holds: the last evicts one of the others.
        let keys: Vec<u64> = (1..)
            .filter(|&k| tt.cluster_index(k) == tt.cluster_index(1))
            .take(WAYS + 1)
            .collect();
        for &k in &keys[..WAYS] {
            tt.store(k, entry(k as i16, Bound::Exact, 1, 10), &mut s);
        }
        for &k in &keys[..WAYS] {
            assert!(tt.probe(k, &mut s).is_some());
        }
        tt.reset();
        for &k in &keys {
            assert!(tt.probe(k, &mut s).is_none(), "{k} survived the reset");
        }
        // Old entries count as empty: a cluster's worth of new keys fit without evicting.
        let before = s.replacements;
        for &k in &keys[1..] {
            tt.store(k, entry(-(k as i16), Bound::Lower, 2, 3), &mut s);
        }
        assert_eq!(s.replacements, before);
        for &k in &keys[1..] {
            assert_eq!(
                tt.probe(k, &mut s),
                Some(entry(-(k as i16), Bound::Lower, 2, 3))
            );
        }
        assert!(tt.probe(keys[0], &mut s).is_none());
        // One more now evicts a live entry, counted as such.
        tt.store(keys[0], entry(0, Bound::Exact, 0, 0), &mut s);
        assert_eq!(s.replacements, before + 1);
    }

    #[test]
    fn opposite_bounds_with_one_value_become_exact() {
        let tt = TranspositionTable::new(1);
        let mut s = TtStats::default();
        // Lower then Upper: exact, the shallower depth, the lower bound's move.
        tt.store(7, entry(5, Bound::Lower, 3, 12), &mut s);
        tt.store(7, entry(5, Bound::Upper, NO_MOVE, 8), &mut s);
        let e = tt.probe(7, &mut s).unwrap();
        assert_eq!((e.value, e.bound, e.mv, e.depth), (5, Bound::Exact, 3, 8));
        // Upper then Lower, negative value.
        tt.store(8, entry(-4, Bound::Upper, NO_MOVE, 6), &mut s);
        tt.store(8, entry(-4, Bound::Lower, 2, 9), &mut s);
        let e = tt.probe(8, &mut s).unwrap();
        assert_eq!((e.value, e.bound, e.mv, e.depth), (-4, Bound::Exact, 2, 6));
        // Different values: the new bound replaces the old one, keeping the old move when
        // it brings none (a Lazy SMP helper's stores).
        tt.store(9, entry(5, Bound::Lower, 3, 12), &mut s);
        tt.store(9, entry(4, Bound::Upper, NO_MOVE, 8), &mut s);
        assert_eq!(tt.probe(9, &mut s), Some(entry(4, Bound::Upper, 3, 8)));
        tt.store(9, entry(4, Bound::Upper, 5, 8), &mut s);
        assert_eq!(tt.probe(9, &mut s), Some(entry(4, Bound::Upper, 5, 8)));
        // The same bound twice: replaced, not merged.
        tt.store(10, entry(5, Bound::Lower, 3, 12), &mut s);
        tt.store(10, entry(5, Bound::Lower, 1, 8), &mut s);
        assert_eq!(tt.probe(10, &mut s), Some(entry(5, Bound::Lower, 1, 8)));
        // A bound from before a reset is gone: nothing to merge with.
        tt.store(11, entry(5, Bound::Lower, 3, 12), &mut s);
        tt.reset();
        tt.store(11, entry(5, Bound::Upper, NO_MOVE, 8), &mut s);
        assert_eq!(
            tt.probe(11, &mut s),
            Some(entry(5, Bound::Upper, NO_MOVE, 8))
        );
    }

    #[test]
    fn the_epoch_wrap_clears_for_real() {
        // Clearing walks the whole table: under Miri, which interprets each step, a small one.
        let tt = if cfg!(miri) {
            TranspositionTable::with_clusters(512)
        } else {
            TranspositionTable::new(1)
        };
        let mut s = TtStats::default();
        // Written in the first epoch: it would reappear when the epoch comes back to it.
        tt.store(5, entry(1, Bound::Exact, 1, 1), &mut s);
        tt.set_epoch(u16::MAX - 1);
        assert!(tt.probe(5, &mut s).is_none());
        tt.store(6, entry(2, Bound::Exact, 2, 2), &mut s);
        tt.reset();
        assert_eq!(tt.epoch.load(Relaxed), u16::MAX);
        assert!(tt.probe(6, &mut s).is_none());
        // The reset that wraps clears the table and starts the first epoch again.
        tt.reset();
        assert_eq!(tt.epoch.load(Relaxed), FIRST_EPOCH);
        assert!(
            tt.probe(5, &mut s).is_none(),
            "an entry of the first epoch came back"
        );
        assert!(tt.probe(6, &mut s).is_none());
        assert!(tt
            .clusters
            .as_slice()
            .iter()
            .all(|c| c.words.iter().all(|w| w.load(Relaxed) == 0)));
        tt.store(5, entry(3, Bound::Lower, 3, 3), &mut s);
        assert_eq!(tt.probe(5, &mut s), Some(entry(3, Bound::Lower, 3, 3)));
        // `clear` starts the first epoch again too.
        tt.reset();
        tt.clear();
        assert_eq!(tt.epoch.load(Relaxed), FIRST_EPOCH);
        assert!(tt.probe(5, &mut s).is_none());
    }
}

/// The fallible constructor: sizes no machine can give are errors, not aborts.
#[cfg(test)]
mod try_new_tests {
    use super::*;

    #[test]
    fn a_size_beyond_the_address_space_is_an_error() {
        let e = TranspositionTable::try_new(usize::MAX)
            .err()
            .expect("refused");
        assert_eq!(e, TableError::TooLarge { mib: usize::MAX });
        let msg = e.to_string();
        assert!(msg.contains(&usize::MAX.to_string()), "{msg}");
        assert!(!msg.contains('\n'), "{msg}");
    }

    #[test]
    #[cfg_attr(miri, ignore = "Miri cannot be asked for a petabyte")]
    fn a_size_beyond_the_machine_is_an_error_not_an_abort() {
        // 1 PiB (2^30 MiB): more than any machine this runs on has.
        let mib = 1 << 30;
        let e = TranspositionTable::try_new(mib).err().expect("refused");
        let msg = e.to_string();
        assert!(msg.contains("1073741824 MiB"), "{msg}");
        #[cfg(target_os = "linux")]
        {
            assert!(matches!(e, TableError::Unavailable { .. }), "{e:?}");
            assert!(msg.contains("MiB of memory available"), "{msg}");
        }
    }

    #[test]
    fn a_small_table_is_made() {
        let tt = TranspositionTable::try_new(1).expect("1 MiB");
        assert_eq!(tt.bytes(), 1 << 20);
        // 0 MiB means the smallest table, as `new` has always read it.
        assert!(TranspositionTable::try_new(0).is_ok());
    }
}
