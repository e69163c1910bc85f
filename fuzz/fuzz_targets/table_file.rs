//! Table files (`--table-file`, `cutoff::tt::file`) as hostile input: whatever stands at the
//! file's name and whatever it holds. The first byte picks what stands there: a regular file
//! holding the other bytes (with a valid first line put in front or not, a byte-order mark or
//! not), a FIFO, a folder, a link to `/dev/zero` or `/dev/urandom` (endless streams), a link
//! to a FIFO, or a link to the regular file. Loading and merging must never panic or hang (a
//! FIFO used to block for ever, an endless stream to be read as one line until memory ran
//! out); what is not a regular file is refused; a regular file loads at most one entry a
//! line; every error is one short printable line.
#![no_main]

use cutoff::tt::file::{load, merge};
use cutoff::tt::TranspositionTable;
use cutoff_fuzz::{check_message, mkfifo, STRICT};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

/// A fresh folder for one input.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-fuzz-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let dir = scratch();
    let file = dir.join("t.tab");
    let mut bytes = Vec::new();
    if pick & 0x10 != 0 {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    if pick & 0x20 != 0 {
        bytes.extend_from_slice(b"cutoff table file 1\tg 1\n");
    }
    bytes.extend_from_slice(rest);
    let regular = match pick % 8 {
        0 | 1 | 2 => {
            std::fs::write(&file, &bytes).unwrap();
            true
        }
        3 => {
            mkfifo(&file);
            false
        }
        4 => {
            std::fs::create_dir(&file).unwrap();
            false
        }
        5 => {
            std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
            false
        }
        6 => {
            std::os::unix::fs::symlink("/dev/urandom", &file).unwrap();
            false
        }
        _ => {
            let fifo = dir.join("fifo");
            mkfifo(&fifo);
            std::os::unix::fs::symlink(&fifo, &file).unwrap();
            false
        }
    };
    let tt = TranspositionTable::new(1);
    match load(&file, "g 1", &tt) {
        Ok(loaded) => {
            assert!(regular, "a file that is not regular was read");
            let lines = bytes.split(|&b| b == b'\n').count() as u64;
            assert!(loaded.entries < lines.max(1), "{} entries", loaded.entries);
        }
        Err(e) => {
            if !regular {
                assert!(e.to_string().contains("not a regular file"), "{e}");
            }
            check_message("tt::file::load", &e.to_string(), STRICT);
        }
    }
    let out = dir.join("merged.tab");
    match merge(std::slice::from_ref(&file), "g 1", &out) {
        Ok(_) => assert!(regular && out.is_file()),
        Err(e) => check_message("tt::file::merge", &e.to_string(), STRICT),
    }
    // Merging into the name: only a regular file (or nothing) is replaced. Not through the
    // links to the machine's own devices: a fault there would replace /dev/zero.
    if !matches!(pick % 8, 5 | 6) {
        let before = std::fs::symlink_metadata(&file).unwrap().file_type();
        if merge(&[], "g 1", &file).is_ok() {
            assert!(regular && std::fs::metadata(&file).unwrap().is_file());
        } else {
            let after = std::fs::symlink_metadata(&file).unwrap().file_type();
            assert_eq!(after, before);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
});
