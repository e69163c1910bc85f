//! Every file the command writes goes through one path (`cutoff::files`): a symbolic link is
//! followed and its target replaced, and a FIFO, a device node, a socket or a folder at the
//! name is refused in one line, before the run, and left where it was. Every file it reads is
//! a regular file: a FIFO is refused at once, an endless stream is not read, and a table file
//! may start with a byte-order mark (issue 41). Device nodes are made with `mknod` in a
//! temporary folder, where the test runs as root; elsewhere those cases are skipped, saying so.

#![cfg(unix)]

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Every run here takes well under a second; a run that waits on a FIFO would take for ever.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// A late Connect Four position: a book or a solve of it takes milliseconds.
const LATE: &str = "2252576253462244111563365343671351441";

/// A Connect Four position whose solve keeps table entries over 1,000 nodes, in a fraction
/// of a second.
const MIDDLE: &str = "5455174361263362";

/// A folder for one test, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("cutoff-file-targets-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn run(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cutoff"));
    cmd.args(args).stdin(Stdio::null());
    support::run_limited(cmd, None, 4 << 30, TIME_LIMIT)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(args: &[&str]) -> Output {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

/// Checks a refusal: exit status 1 and one line on standard error holding `mentions`.
fn refused(args: &[&str], mentions: &str) {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(err.contains(mentions), "{args:?}: {err}");
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(s(path)).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// A character device like `/dev/null` (1, 3) at `path`, in the test's own folder; false
/// where this process may not make one (not root).
fn mknod_null(path: &Path) -> bool {
    let c = std::ffi::CString::new(s(path)).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call; mknod reads
    // nothing else of ours.
    unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o600, libc::makedev(1, 3)) == 0 }
}

/// What to put at a name a command writes.
#[derive(Clone, Copy, Debug)]
enum Special {
    Fifo,
    Device,
    Folder,
}

impl Special {
    const ALL: [Special; 3] = [Special::Fifo, Special::Device, Special::Folder];

    /// Makes it at `path`; false if this process cannot (a device, not root).
    fn make(self, path: &Path) -> bool {
        match self {
            Special::Fifo => {
                mkfifo(path);
                true
            }
            Special::Device => mknod_null(path),
            Special::Folder => {
                std::fs::create_dir(path).unwrap();
                true
            }
        }
    }

    /// What the refusal says.
    fn said(self) -> &'static str {
        match self {
            Special::Fifo => "it is a FIFO, not a regular file",
            Special::Device => "it is a character device, not a regular file",
            Special::Folder => "it is a folder",
        }
    }

    /// Whether `path` still holds it.
    fn still_there(self, path: &Path) -> bool {
        use std::os::unix::fs::FileTypeExt;
        let Ok(t) = std::fs::symlink_metadata(path).map(|m| m.file_type()) else {
            return false;
        };
        match self {
            Special::Fifo => t.is_fifo(),
            Special::Device => t.is_char_device(),
            Special::Folder => t.is_dir(),
        }
    }
}

/// One command that writes a file, by its arguments with `{}` for the file's name; `setup`
/// makes in the scratch folder what the command reads first.
struct Writer {
    name: &'static str,
    /// Whether the command reads the file before it writes it (a table file): then what
    /// stands at the name is refused as a file to read.
    reads: bool,
    args: &'static [&'static str],
    setup: fn(&Scratch),
}

impl Writer {
    fn args(&self, dir: &Scratch, target: &Path) -> Vec<String> {
        self.args
            .iter()
            .map(|a| match *a {
                "{}" => s(target).to_string(),
                a if a.starts_with('@') => s(&dir.join(&a[1..])).to_string(),
                a => a.to_string(),
            })
            .collect()
    }
}

fn nothing(_: &Scratch) {}

/// A tic-tac-toe split whose first pass leaves work for `plan`.
fn split_ttt(dir: &Scratch) {
    let split = dir.join("p1.jsonl");
    let results = dir.join("r1");
    ok(&[
        "split",
        "tictactoe",
        "--depth",
        "2",
        "--shards",
        "1",
        "--window=0,1",
        "--out",
        s(&split),
    ]);
    ok(&[
        "solve-shard",
        s(&split),
        "--index",
        "0",
        "--out",
        s(&results),
        "-q",
    ]);
}

/// Every command that writes a file the user names.
const WRITERS: &[Writer] = &[
    Writer {
        name: "cfr --save",
        args: &[
            "cfr",
            "kuhn",
            "--iterations",
            "10",
            "--quiet",
            "--save",
            "{}",
        ],
        setup: nothing,
        reads: false,
    },
    Writer {
        name: "cfr --svg",
        args: &[
            "cfr",
            "kuhn",
            "--iterations",
            "10",
            "--quiet",
            "--svg",
            "{}",
        ],
        setup: nothing,
        reads: false,
    },
    Writer {
        name: "book --out",
        args: &["book", "connect4", LATE, "--plies", "1", "--out", "{}"],
        setup: nothing,
        reads: false,
    },
    Writer {
        name: "split --out",
        args: &["split", "tictactoe", "--depth", "2", "--out", "{}"],
        setup: nothing,
        reads: false,
    },
    Writer {
        name: "plan --out",
        args: &["plan", "@p1.jsonl", "@r1", "--out", "{}"],
        setup: split_ttt,
        reads: false,
    },
    Writer {
        name: "solve --table-file",
        args: &[
            "solve",
            "connect4",
            LATE,
            "--table-file",
            "{}",
            "--table-file-nodes",
            "1",
        ],
        setup: nothing,
        reads: true,
    },
];

/// A FIFO, a device node or a folder at the name a command writes is refused in one line, and
/// left where it was (a save used to rename a regular file over it and exit 0).
#[test]
fn no_command_writes_over_a_fifo_a_device_or_a_folder() {
    let mut skipped = false;
    for w in WRITERS {
        for special in Special::ALL {
            let dir = Scratch::new("special");
            (w.setup)(&dir);
            let target = dir.join("target");
            if !special.make(&target) {
                skipped = true;
                continue;
            }
            let args = w.args(&dir, &target);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let said = if w.reads {
                "not a regular file"
            } else {
                special.said()
            };
            refused(&args, said);
            assert!(
                special.still_there(&target),
                "{}: the {special:?} was replaced",
                w.name
            );
        }
    }
    if skipped {
        eprintln!("device nodes skipped: mknod needs root");
    }
}

/// A symbolic link at the name a command writes is followed: its target gets the new file
/// and the link stays (a save used to replace the link with a regular file, leaving its
/// target stale).
#[test]
fn every_command_writes_through_a_symbolic_link() {
    for w in WRITERS {
        let dir = Scratch::new("link");
        (w.setup)(&dir);
        std::fs::create_dir(dir.join("real")).unwrap();
        let real = dir.join("real/file");
        let link = dir.join("link");
        std::os::unix::fs::symlink("real/file", &link).unwrap();
        let args = w.args(&dir, &link);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&args);
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(
            meta.file_type().is_symlink(),
            "{}: the link was replaced",
            w.name
        );
        let written = std::fs::metadata(&real).map(|m| m.len()).unwrap_or(0);
        assert!(
            written > 0,
            "{}: nothing written to the link's target",
            w.name
        );
        // A second run replaces (or appends to) the target again, still through the link.
        ok(&args);
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
}

/// The checks come before the run: a save at a FIFO is refused before a long CFR run, not
/// after it.
#[test]
fn a_bad_save_is_refused_before_the_run() {
    let dir = Scratch::new("before");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let start = std::time::Instant::now();
    refused(
        &[
            "cfr",
            "leduc",
            "--iterations",
            "1000000",
            "--save",
            s(&fifo),
        ],
        "it is a FIFO",
    );
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "refused only after the run"
    );
}

/// A shard's result file and the distributed run folder's files: the same path.
#[test]
fn run_folders_refuse_what_is_not_a_regular_file() {
    let dir = Scratch::new("folders");
    let split = dir.join("s.jsonl");
    ok(&["split", "tictactoe", "--depth", "2", "--out", s(&split)]);
    let results = dir.join("r");
    std::fs::create_dir(&results).unwrap();
    mkfifo(&results.join("shard-00000.json"));
    let o = run(&[
        "solve-shard",
        s(&split),
        "--index",
        "0",
        "--out",
        s(&results),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let run_dir = dir.join("run");
    std::fs::create_dir(&run_dir).unwrap();
    mkfifo(&run_dir.join("driver.lock"));
    refused(
        &["distribute", "tictactoe", "--dir", s(&run_dir), "-q"],
        "it is a FIFO",
    );
}

/// Table files and the other inputs: a FIFO is refused at once (a table file on a FIFO used
/// to block for ever), `/dev/zero` is not read (a table file on it used to be read as one
/// endless line until the allocator aborted), and a table file that starts with a
/// byte-order mark is read (it used to be refused).
#[test]
fn inputs_are_regular_files_read_with_bounds() {
    let dir = Scratch::new("inputs");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let table = ["solve", "connect4", LATE, "--table-file"];
    for bad in [s(&fifo), "/dev/zero"] {
        let mut args = table.to_vec();
        args.push(bad);
        refused(&args, "not a regular file");
    }
    for args in [
        vec!["tree", s(&fifo)],
        vec!["solve", "tree", s(&fifo)],
        vec!["suite", s(&fifo)],
        vec!["judge", "ural1195", s(&fifo)],
        vec!["cfr", "kuhn", "--iterations", "10", "--resume", s(&fifo)],
    ] {
        refused(&args, "not a regular file");
    }
    // A line without end is refused at the bound, not read whole.
    let long = dir.join("long.tab");
    std::fs::write(&long, vec![b'x'; 8 << 20]).unwrap();
    let mut args = table.to_vec();
    args.push(s(&long));
    refused(&args, "longer than");
    // A table file written by a run, then given a byte-order mark, loads as it did.
    let kept = dir.join("kept.tab");
    let mut args = vec!["solve", "connect4", MIDDLE, "--table-file", s(&kept)];
    args.extend(["--table-file-nodes", "1000", "--json", "-q"]);
    ok(&args);
    let text = std::fs::read(&kept).unwrap();
    let entries = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count()
        - 1;
    assert!(entries > 0, "the run kept no entry");
    let mut bom = "\u{feff}".as_bytes().to_vec();
    bom.extend_from_slice(&text);
    std::fs::write(&kept, bom).unwrap();
    let o = ok(&args);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["table_file"]["loaded"].as_u64(),
        Some(entries as u64),
        "{v}"
    );
}
