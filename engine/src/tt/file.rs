//! A table file: the expensive table entries of a search, kept across runs.
//!
//! A long solve that is stopped and started again, or a book built in several runs, would
//! otherwise search its hardest subtrees again: the table dies with the process. A
//! [`Recorder`] appends to a file every entry whose subtree took at least a threshold of
//! nodes, as the search stores it; [`load`] reads them back into a fresh table at the next
//! start, where their large work keeps them from being replaced.
//!
//! The file is text, one entry a line, so that it survives being cut anywhere: a process
//! killed mid-write leaves at most one torn last line, which [`load`] skips (and counts).
//! Every line carries a check of its fields, so damage elsewhere is refused, not trusted.
//! The first line names the format and the game (its board and rules): a file written for
//! another game is refused in one line, since its keys would mean other positions.
//!
//! ```text
//! cutoff table file 1<TAB>connect4 8x6/4
//! 0000a3f0c81b2e41 2 L 3 37 21 5c1e09aa
//! ```
//!
//! Fields: key (hex), value, bound (`E` exact, `L` lower, `U` upper), move code, depth, work
//! (log2 of the subtree's nodes), check (hex). The search hands entries over through a
//! bounded channel to a writer thread and never waits: if the writer falls behind, entries
//! are dropped and counted ([`Recorder::finish`]), which costs only a later re-search.

use super::{Bound, Entry, TranspositionTable, TtStats};
use crate::files::{shown, FileError, Lines};
use crossbeam::channel::{bounded, Receiver, Sender, TrySendError};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::thread::JoinHandle;

/// The first line's fixed part; the game's identity follows a tab.
const MAGIC: &str = "cutoff table file 1";

/// Entries waiting for the writer at most: a few MiB, far more than a search finds between
/// two of the writer's wake-ups.
const QUEUE: usize = 1 << 16;

/// The longest line a table file holds: an entry takes under 60 bytes, the first line the
/// format and the game's name; a longer line is damage (or not a table file at all), refused
/// before it is read whole.
const MAX_LINE: usize = 1024;

/// The default threshold: entries whose subtree took at least this many nodes are kept.
pub const DEFAULT_MIN_NODES: u64 = 1_000_000;

/// Why a table file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file is not one that can be read or written: not a regular file, a line too
    /// long, not UTF-8 (see [`crate::files`]).
    #[error("table file: {0}")]
    File(#[from] FileError),
    /// The file could not be read, created or written.
    #[error("table file '{}': {source}", shown(.path))]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file was written for another game, board or rule set.
    #[error("table file '{}' holds entries for {}, not for {wanted}", shown(.path), crate::game::quote(.found))]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game it names.
        found: String,
        /// The game searched now.
        wanted: String,
    },
    /// The file is not a table file, or a line other than the last is damaged.
    #[error("table file '{}', line {line}: {what}", shown(.path))]
    Damaged {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        what: String,
    },
}

/// What [`load`] read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Entries stored into the table (a key met again replaces its earlier entry).
    pub entries: u64,
    /// A torn last line skipped (a run killed while writing it).
    pub torn: bool,
}

/// The check of one line's fields: 32 bits of a hash of all of them.
fn check(key: u64, e: &Entry) -> u32 {
    let data = (e.value as u16 as u64)
        | (u64::from(e.mv) << 16)
        | (u64::from(e.depth) << 24)
        | (u64::from(e.work) << 32)
        | ((bound_code(e.bound) as u64) << 40);
    (crate::rng::splitmix64(key ^ crate::rng::splitmix64(data)) >> 32) as u32
}

fn bound_code(b: Bound) -> u8 {
    match b {
        Bound::Exact => b'E',
        Bound::Lower => b'L',
        Bound::Upper => b'U',
    }
}

/// One entry as a line (without its newline).
fn format_line(key: u64, e: &Entry) -> String {
    format!(
        "{key:016x} {} {} {} {} {} {:08x}",
        e.value,
        bound_code(e.bound) as char,
        e.mv,
        e.depth,
        e.work,
        check(key, e)
    )
}

/// Reads one entry line; `None` if it is malformed or its check fails.
fn parse_line(line: &str) -> Option<(u64, Entry)> {
    let mut f = line.split(' ');
    let key = u64::from_str_radix(f.next()?, 16).ok()?;
    let value = f.next()?.parse().ok()?;
    let bound = match f.next()? {
        "E" => Bound::Exact,
        "L" => Bound::Lower,
        "U" => Bound::Upper,
        _ => return None,
    };
    let mv = f.next()?.parse().ok()?;
    let depth = f.next()?.parse().ok()?;
    let work = f.next()?.parse().ok()?;
    let sum = u32::from_str_radix(f.next()?, 16).ok()?;
    let e = Entry {
        value,
        bound,
        mv,
        depth,
        work,
    };
    (f.next().is_none() && check(key, &e) == sum).then_some((key, e))
}

/// The first line of a table file for a game whose identity is `game`.
pub fn header(game: &str) -> String {
    format!("{MAGIC}\t{game}")
}

/// Stores the entries of the table file at `path` into `tt`, after checking that the file
/// was written for `game` (an identity such as `connect4 8x6/4`, which names the rules the
/// keys depend on). A missing or empty file loads nothing: the first run of a series.
pub fn load(path: &Path, game: &str, tt: &TranspositionTable) -> Result<Loaded, TableFileError> {
    let Some(lines) = open_lines(path)? else {
        return Ok(Loaded::default());
    };
    let damaged = |line: usize, what: String| TableFileError::Damaged {
        path: path.to_path_buf(),
        line,
        what,
    };
    let mut lines = lines.enumerate().peekable();
    let Some((_, first)) = lines.next() else {
        return Ok(Loaded::default());
    };
    check_header(path, &first?, game)?;
    let mut out = Loaded::default();
    let mut stats = TtStats::default();
    while let Some((i, line)) = lines.next() {
        let line = line?;
        match parse_line(&line) {
            Some((key, entry)) => {
                tt.store(key, entry, &mut stats);
                out.entries += 1;
            }
            // A run killed mid-write leaves its last line cut short.
            None if lines.peek().is_none() => out.torn = true,
            None => return Err(damaged(i + 1, "damaged entry".to_string())),
        }
    }
    Ok(out)
}

/// The lines of the table file at `path` (a regular file, each line at most [`MAX_LINE`]
/// bytes, a byte-order mark accepted; see [`crate::files::Lines`]); `None` if there is no
/// file yet.
fn open_lines(path: &Path) -> Result<Option<Lines<BufReader<File>>>, TableFileError> {
    match Lines::open(path, MAX_LINE) {
        Ok(lines) => Ok(Some(lines)),
        Err(FileError::Read { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Merges the table files `inputs`, all for `game`, into one file at `out`, written whole
/// beside it and renamed into place, so that a reader never sees half of it: one entry per
/// key, the one with the most work behind it (an exact one among equals). A missing input
/// is skipped and a torn last line dropped, as [`load`] does; a file for another game or a
/// damaged one is refused. Returns the entries written.
pub fn merge(inputs: &[PathBuf], game: &str, out: &Path) -> Result<u64, TableFileError> {
    let mut best: std::collections::HashMap<u64, Entry> = std::collections::HashMap::new();
    for path in inputs {
        let Some(lines) = open_lines(path)? else {
            continue;
        };
        let mut lines = lines.enumerate().peekable();
        let Some((_, first)) = lines.next() else {
            continue;
        };
        check_header(path, &first?, game)?;
        while let Some((i, line)) = lines.next() {
            let line = line?;
            match parse_line(&line) {
                Some((key, e)) => {
                    let rank = |e: &Entry| (e.work, e.depth, e.bound == Bound::Exact);
                    let keep = best.get(&key).is_none_or(|old| rank(&e) > rank(old));
                    if keep {
                        best.insert(key, e);
                    }
                }
                None if lines.peek().is_none() => {}
                None => {
                    return Err(TableFileError::Damaged {
                        path: path.to_path_buf(),
                        line: i + 1,
                        what: "damaged entry".to_string(),
                    })
                }
            }
        }
    }
    crate::files::write_atomic_with(out, |w| {
        writeln!(w, "{}", header(game))?;
        let mut keys: Vec<&u64> = best.keys().collect();
        keys.sort_unstable();
        for key in keys {
            writeln!(w, "{}", format_line(*key, &best[key]))?;
        }
        Ok(())
    })?;
    Ok(best.len() as u64)
}

/// Checks a table file's first line: the format, and that it was written for `game`.
fn check_header(path: &Path, first: &str, game: &str) -> Result<(), TableFileError> {
    let Some((_, found)) = first.split_once('\t').filter(|(m, _)| *m == MAGIC) else {
        return Err(TableFileError::Damaged {
            path: path.to_path_buf(),
            line: 1,
            what: format!("not a table file (expected '{MAGIC}' first)"),
        });
    };
    if found != game {
        return Err(TableFileError::OtherGame {
            path: path.to_path_buf(),
            found: found.to_string(),
            wanted: game.to_string(),
        });
    }
    Ok(())
}

/// Where a search hands the entries worth keeping (see [`Recorder::keep`]).
#[derive(Debug)]
pub struct Keep {
    min_nodes: u64,
    tx: Sender<(u64, Entry)>,
    dropped: AtomicU64,
}

impl Keep {
    /// The least number of nodes a subtree must take for its entry to be kept.
    #[inline(always)]
    pub fn min_nodes(&self) -> u64 {
        self.min_nodes
    }

    /// Hands over the entry stored for `key`, never waiting: a full queue drops it.
    #[cold]
    #[inline(never)]
    pub(crate) fn offer(&self, key: u64, entry: Entry) {
        if let Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) =
            self.tx.try_send((key, entry))
        {
            self.dropped.fetch_add(1, Relaxed);
        }
    }
}

impl Keep {
    /// A keep whose entries (of subtrees of at least `min_nodes` nodes) wait, up to
    /// `capacity` of them, for [`Collected::take`]: entries streamed from one search to
    /// another table (a distributed run's workers) rather than to a file.
    pub fn collecting(min_nodes: u64, capacity: usize) -> (Keep, Collected) {
        let (tx, rx) = bounded(capacity.max(1));
        (
            Keep {
                min_nodes: min_nodes.max(1),
                tx,
                dropped: AtomicU64::new(0),
            },
            Collected { rx },
        )
    }
}

/// The entries a [`Keep::collecting`] keep gathered.
#[derive(Debug)]
pub struct Collected {
    rx: Receiver<(u64, Entry)>,
}

impl Collected {
    /// Up to `max` of the waiting entries, each as a table file's line (a check included).
    pub fn take(&self, max: usize) -> Vec<String> {
        self.rx
            .try_iter()
            .take(max)
            .map(|(key, e)| format_line(key, &e))
            .collect()
    }
}

/// Stores into `tt` the entries given as table file lines ([`Collected::take`]); a line that
/// is malformed or fails its check is skipped. Returns the entries stored.
pub fn store_lines<S: AsRef<str>>(lines: &[S], tt: &TranspositionTable) -> u64 {
    let mut stats = TtStats::default();
    let mut n = 0;
    for line in lines {
        if let Some((key, entry)) = parse_line(line.as_ref()) {
            tt.store(key, entry, &mut stats);
            n += 1;
        }
    }
    n
}

/// What a [`Recorder`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// Entries written.
    pub written: u64,
    /// Entries dropped because the writer fell behind.
    pub dropped: u64,
}

/// Appends the entries a search keeps to a table file, from a thread of its own.
#[derive(Debug)]
pub struct Recorder {
    keep: Keep,
    writer: JoinHandle<Result<u64, std::io::Error>>,
    path: PathBuf,
}

impl Recorder {
    /// Opens `path` for appending (creating it with its first line for `game` if it is new or
    /// empty; a link followed, anything but a regular file refused, see
    /// [`crate::files::open_append`]) and starts the writer. Entries of subtrees of at least `min_nodes` nodes are
    /// kept. Call [`load`] first: a file for another game is refused there.
    pub fn start(path: &Path, game: &str, min_nodes: u64) -> Result<Recorder, TableFileError> {
        let io = |source| TableFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = crate::files::open_append(path)?;
        let mut out = BufWriter::new(file);
        if out.get_ref().metadata().map_err(io)?.len() == 0 {
            writeln!(out, "{}", header(game)).map_err(io)?;
            out.flush().map_err(io)?;
        }
        let (tx, rx) = bounded(QUEUE);
        let writer = std::thread::Builder::new()
            .name("table-file".into())
            .spawn(move || write_all(rx, out))
            .map_err(io)?;
        Ok(Recorder {
            keep: Keep {
                min_nodes: min_nodes.max(1),
                tx,
                dropped: AtomicU64::new(0),
            },
            writer,
            path: path.to_path_buf(),
        })
    }

    /// What to give the search (`Solver::keep`, or `Limits::keep`).
    pub fn keep(&self) -> &Keep {
        &self.keep
    }

    /// Stops the writer once it has written every entry handed over, and syncs the file.
    /// (A recorder dropped without this still closes its queue, and the writer ends on its
    /// own, but nobody waits for it or hears of a failed write.)
    pub fn finish(self) -> Result<Recorded, TableFileError> {
        let Recorder { keep, writer, path } = self;
        let dropped = keep.dropped.load(Relaxed);
        // Closing the channel ends the writer's loop after the last entry.
        drop(keep);
        let source = match writer.join() {
            Ok(Ok(written)) => return Ok(Recorded { written, dropped }),
            Ok(Err(e)) => e,
            Err(_) => std::io::Error::other("the writer thread failed"),
        };
        Err(TableFileError::Io { path, source })
    }
}

/// The writer thread: each entry a line, flushed whenever the queue runs dry, so that what
/// the search found is on disk within moments of its finding it.
fn write_all(rx: Receiver<(u64, Entry)>, mut out: BufWriter<File>) -> Result<u64, std::io::Error> {
    let mut n = 0u64;
    while let Ok((key, entry)) = rx.recv() {
        writeln!(out, "{}", format_line(key, &entry))?;
        n += 1;
        while let Ok((key, entry)) = rx.try_recv() {
            writeln!(out, "{}", format_line(key, &entry))?;
            n += 1;
        }
        out.flush()?;
    }
    out.flush()?;
    out.get_ref().sync_data()?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("cutoff-ttfile-{name}-{}", std::process::id()))
    }

    fn entry(value: i16, bound: Bound) -> Entry {
        Entry {
            value,
            bound,
            mv: 3,
            depth: 30,
            work: 21,
        }
    }

    #[test]
    fn lines_round_trip_and_damage_is_seen() {
        for (key, e) in [
            (0u64, entry(0, Bound::Exact)),
            (u64::MAX, entry(-21, Bound::Upper)),
            (0x1234_5678_9abc_def0, entry(i16::MIN, Bound::Lower)),
        ] {
            let line = format_line(key, &e);
            assert_eq!(parse_line(&line), Some((key, e)), "{line}");
            // Any one character changed is caught by the check or the syntax.
            for i in 0..line.len() {
                let mut bad = line.clone().into_bytes();
                bad[i] = if bad[i] == b'1' { b'2' } else { b'1' };
                let bad = String::from_utf8(bad).unwrap();
                if bad != line {
                    assert_eq!(parse_line(&bad), None, "{bad}");
                }
            }
            assert_eq!(parse_line(&line[..line.len() - 1]), None);
        }
    }

    #[test]
    // Files are outside Miri's isolation; what Miri checks here is the table's atomics.
    #[cfg_attr(miri, ignore)]
    fn recorded_entries_load_into_a_fresh_table() {
        let path = temp("round");
        std::fs::remove_file(&path).ok();
        let tt = TranspositionTable::new(1);
        assert_eq!(
            load(&path, "g 1", &tt).unwrap(),
            Loaded::default(),
            "no file yet"
        );
        let rec = Recorder::start(&path, "g 1", 10).unwrap();
        assert_eq!(rec.keep().min_nodes(), 10);
        rec.keep().offer(42, entry(5, Bound::Lower));
        rec.keep().offer(43, entry(-2, Bound::Exact));
        let done = rec.finish().unwrap();
        assert_eq!(
            done,
            Recorded {
                written: 2,
                dropped: 0
            }
        );
        // A second run appends below the same header.
        let rec = Recorder::start(&path, "g 1", 10).unwrap();
        rec.keep().offer(42, entry(7, Bound::Exact));
        rec.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().filter(|l| l.starts_with("cutoff")).count(), 1);
        let tt = TranspositionTable::new(1);
        let got = load(&path, "g 1", &tt).unwrap();
        assert_eq!(
            got,
            Loaded {
                entries: 3,
                torn: false
            }
        );
        let mut s = TtStats::default();
        assert_eq!(
            tt.probe(42, &mut s).map(|e| (e.value, e.bound)),
            Some((7, Bound::Exact))
        );
        assert_eq!(tt.probe(43, &mut s).map(|e| e.value), Some(-2));
        // Another game's file is refused.
        let e = load(&path, "g 2", &tt).unwrap_err().to_string();
        assert!(e.contains("holds entries for g 1, not for g 2"), "{e}");
        // A torn last line is skipped; a damaged line before it is an error.
        std::fs::write(&path, format!("{text}00ab 3 E")).unwrap();
        let got = load(&path, "g 1", &TranspositionTable::new(1)).unwrap();
        assert_eq!(
            got,
            Loaded {
                entries: 3,
                torn: true
            }
        );
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(1, "00ab 3 E 1 2 3 00000000");
        std::fs::write(&path, lines.join("\n")).unwrap();
        let e = load(&path, "g 1", &tt).unwrap_err().to_string();
        assert!(e.ends_with("line 2: damaged entry"), "{e}");
        std::fs::write(&path, "hello\n").unwrap();
        let e = load(&path, "g 1", &tt).unwrap_err().to_string();
        assert!(e.contains("line 1: not a table file"), "{e}");
        std::fs::remove_file(&path).ok();
    }
    /// A table file is read only if it is a regular file, a line at a time with a bound on
    /// its length: a FIFO is refused at once (it used to block for ever), an endless stream
    /// is refused (it used to be read as one line until memory ran out), and a file that
    /// starts with a byte-order mark is read (it used to be refused).
    #[cfg(unix)]
    #[test]
    #[cfg_attr(miri, ignore)]
    fn table_files_never_hang_and_accept_a_byte_order_mark() {
        let tt = TranspositionTable::new(1);
        let fifo = temp("fifo");
        std::fs::remove_file(&fifo).ok();
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = load(&fifo, "g 1", &tt).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let e = Recorder::start(&fifo, "g 1", 1).unwrap_err().to_string();
        assert!(e.contains("it is a FIFO"), "{e}");
        let e = merge(std::slice::from_ref(&fifo), "g 1", &temp("fifo-out"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let e = merge(&[], "g 1", &fifo).unwrap_err().to_string();
        assert!(e.contains("it is a FIFO"), "{e}");
        std::fs::remove_file(&fifo).unwrap();
        for dev in ["/dev/zero", "/dev/urandom"] {
            let e = load(Path::new(dev), "g 1", &tt).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{dev}: {e}");
        }
        // A header line without end: refused after MAX_LINE bytes.
        let long = temp("long");
        std::fs::write(&long, vec![b'x'; 10 << 20]).unwrap();
        let e = load(&long, "g 1", &tt).unwrap_err().to_string();
        assert!(e.contains("line 1 is longer than 1024 bytes"), "{e}");
        let bom = temp("bom");
        let line = format_line(42, &entry(5, Bound::Exact));
        std::fs::write(&bom, format!("\u{feff}{}\r\n{line}\r\n", header("g 1"))).unwrap();
        let got = load(&bom, "g 1", &tt).unwrap();
        assert_eq!(got.entries, 1);
        for p in [long, bom] {
            std::fs::remove_file(p).ok();
        }
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn merged_files_keep_the_most_worked_entry_of_each_key() {
        let (a, b, out) = (temp("merge-a"), temp("merge-b"), temp("merge-out"));
        let write = |path: &PathBuf, entries: &[(u64, Entry)]| {
            std::fs::remove_file(path).ok();
            let rec = Recorder::start(path, "g 1", 1).unwrap();
            for &(k, e) in entries {
                rec.keep().offer(k, e);
            }
            rec.finish().unwrap();
        };
        let light = Entry {
            work: 5,
            ..entry(1, Bound::Lower)
        };
        write(&a, &[(1, light), (2, entry(4, Bound::Upper))]);
        write(
            &b,
            &[(1, entry(3, Bound::Exact)), (3, entry(-1, Bound::Lower))],
        );
        let missing = temp("merge-missing");
        let n = merge(&[a.clone(), b.clone(), missing], "g 1", &out).unwrap();
        assert_eq!(n, 3);
        let tt = TranspositionTable::new(1);
        assert_eq!(load(&out, "g 1", &tt).unwrap().entries, 3);
        let mut s = TtStats::default();
        assert_eq!(
            tt.probe(1, &mut s).map(|e| (e.value, e.bound)),
            Some((3, Bound::Exact)),
            "the entry with more work wins"
        );
        // A torn last line is dropped; another game's file is refused.
        let text = std::fs::read_to_string(&a).unwrap();
        std::fs::write(&a, format!("{text}00ab 3 E")).unwrap();
        assert_eq!(merge(std::slice::from_ref(&a), "g 1", &out).unwrap(), 2);
        let e = merge(std::slice::from_ref(&a), "g 2", &out)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not for g 2"), "{e}");
        for p in [a, b, out] {
            std::fs::remove_file(p).ok();
        }
    }
}
