//! Tables commit their memory as the search touches it, not when they are made: a 1 GiB
//! table that a short search barely uses must not cost 1 GiB of resident memory (issue 27,
//! finding 6: the chance and n-player table wrote every word up front). One test in its own
//! process, so that no other test's allocations move the resident-set figures it reads.

#![cfg(target_os = "linux")]

use cutoff::multi::table::{Bounds, BoundsTable};
use cutoff::tt::TranspositionTable;

/// This process's resident memory in MiB (`VmRSS` of `/proc/self/status`).
fn resident_mib() -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    kib / 1024
}

/// The memory available (`MemAvailable`), in MiB.
fn available_mib() -> u64 {
    let text = std::fs::read_to_string("/proc/meminfo").unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap()
        / 1024
}

#[test]
fn large_tables_are_committed_only_where_touched() {
    const MIB: usize = 1024;
    if available_mib() < 2 * MIB as u64 {
        eprintln!("skipped: less than 2 GiB of memory available");
        return;
    }
    let before = resident_mib();
    let chance = BoundsTable::try_new(MIB).unwrap();
    let b = Bounds {
        lo: 0.0,
        hi: 1.0,
        depth: 1,
        best: None,
        cut: false,
    };
    // Neighbouring keys share one page: the stores touch one page of the gigabyte.
    for k in 0..16u64 {
        chance.store(k, b);
        assert_eq!(chance.probe(k), Some(b));
    }
    let two = TranspositionTable::try_new(MIB).unwrap();
    let after = resident_mib();
    assert!(
        after - before < 256,
        "two {MIB} MiB tables, barely used, made {} MiB resident",
        after - before
    );
    drop((chance, two));
}
