//! The one path by which cutoff reads and writes files: every file is untrusted, and so is
//! whatever stands at a name the user gives for a file to write (design:
//! docs/design/robustness.md, "Files").
//!
//! Reading ([`open_regular`], [`read_file`], [`read_regular`], [`Lines`]): only regular
//! files, opened without blocking, so that a FIFO is refused at once rather than waited on
//! and `/dev/zero` is refused rather than read until memory runs out; whole reads are bounded
//! in size ([`INPUT_LIMIT`] or the reader's own limit), line reads in line length; a leading
//! byte-order mark is accepted.
//!
//! Writing ([`write_atomic`], [`open_append`], [`create_truncated`]): a symbolic link is
//! followed and its target written (unless it is a link another user planted in a shared
//! sticky folder such as `/tmp`, the kernel's `protected_symlinks` rule, which is refused);
//! what stands at the target must be absent or a regular file: a FIFO, a device, a socket or
//! a folder is refused with one line, and never replaced. A whole file is written into a new
//! temporary file beside its target (created exclusively, so no planted name is followed),
//! flushed, given the old file's permissions and renamed over it: a reader, or a rerun after
//! a crash, sees the whole old file or the whole new one. [`check_writable`] makes the same
//! checks before a long run, so that a bad name fails at once rather than after it.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The most bytes an input file (a tree, a test set, a control-game matrix, a judge input)
/// or standard input may hold: 16 MiB, far above any real input (the largest test set is
/// under 40 KiB), so that an endless input is an error, not a process that grows until the
/// machine runs out of memory.
pub const INPUT_LIMIT: u64 = 16 << 20;

/// At most this many bytes of a file name appear in a message.
const PATH_BYTES: usize = 80;

/// The most symbolic links followed from one name, as the system's own limit (`ELOOP`).
const MAX_LINKS: usize = 40;

/// `path` fit to quote in a message: control characters escaped and at most 80 bytes (see
/// [`crate::game::quote_max`]).
pub fn shown_path(path: &str) -> String {
    crate::game::quote_max(path, PATH_BYTES)
}

/// [`shown_path`] of a path.
pub(crate) fn shown(path: &Path) -> String {
    shown_path(&path.to_string_lossy())
}

/// What was read, as an error message names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file, by the name it was given (quoted and shortened when shown).
    File(PathBuf),
    /// Standard input.
    Stdin,
}

impl Input {
    /// The file `path`.
    pub fn file(path: impl AsRef<Path>) -> Self {
        Input::File(path.as_ref().to_path_buf())
    }
}

impl std::fmt::Display for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::File(path) => write!(f, "'{}'", shown(path)),
            Input::Stdin => f.write_str("standard input"),
        }
    }
}

/// Why a file (or standard input) could not be read or written. Each message is one line
/// naming the file.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Opening, reading or checking it failed.
    #[error("cannot read {input}: {source}")]
    Read {
        /// What was read.
        input: Input,
        /// The system's error.
        source: std::io::Error,
    },
    /// It holds more than [`INPUT_LIMIT`] bytes.
    #[error("cannot read {input}: larger than the {} MiB input limit", INPUT_LIMIT >> 20)]
    OverInputLimit {
        /// What was read.
        input: Input,
    },
    /// It holds more than the reader's `limit` bytes.
    #[error("cannot read {input}: larger than the {} limit", size_text(*.limit))]
    TooLarge {
        /// What was read.
        input: Input,
        /// The most bytes the reader takes.
        limit: u64,
    },
    /// One of its lines is longer than the reader takes.
    #[error("cannot read {input}: line {line} is longer than {limit} bytes")]
    LineTooLong {
        /// What was read.
        input: Input,
        /// The line, from 1.
        line: usize,
        /// The most bytes a line may hold.
        limit: usize,
    },
    /// It is not UTF-8 text.
    #[error("cannot read {input}: not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 {
        /// What was read.
        input: Input,
        /// The offset of the first byte that is not UTF-8.
        offset: usize,
    },
    /// It is a FIFO, a device or a folder, where only a regular file is read.
    #[error("cannot read {input}: not a regular file")]
    NotRegular {
        /// What was read.
        input: Input,
    },
    /// Writing it (or the temporary file beside it) failed.
    #[error("cannot write '{}': {source}", shown(.path))]
    Write {
        /// The file written.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A file to write was given an empty name.
    #[error("cannot write '': an empty file name")]
    EmptyName,
    /// A file to write names a folder.
    #[error("cannot write '{}': it is a folder", shown(.path))]
    IsFolder {
        /// The name given.
        path: PathBuf,
    },
    /// What stands at the name of a file to write is not a regular file: it is never
    /// replaced, nor written into.
    #[error("cannot write '{}': it is {kind}, not a regular file (only a regular file is replaced)", shown(.path))]
    NotRegularTarget {
        /// The name given.
        path: PathBuf,
        /// What it is: `a FIFO`, `a character device`, ...
        kind: &'static str,
    },
    /// The name is a symbolic link that another user owns, in a folder anyone may write to
    /// and only owners may delete from (`/tmp`): the kernel's `protected_symlinks` rule.
    #[error("cannot write '{}': a symbolic link owned by another user in a shared folder (name its target instead)", shown(.path))]
    ForeignLink {
        /// The name given.
        path: PathBuf,
    },
    /// A folder could not be created.
    #[error("cannot create '{}': {source}", shown(.path))]
    CreateFolder {
        /// The folder.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

/// Reads at most [`INPUT_LIMIT`] bytes of UTF-8 text from `reader`; errors name `input`.
pub fn read_limited(reader: impl std::io::Read, input: Input) -> Result<String, FileError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    if let Err(source) = reader.take(INPUT_LIMIT + 1).read_to_end(&mut bytes) {
        return Err(FileError::Read { input, source });
    }
    if bytes.len() as u64 > INPUT_LIMIT {
        return Err(FileError::OverInputLimit { input });
    }
    String::from_utf8(bytes).map_err(|e| FileError::NotUtf8 {
        input,
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Reads the whole regular file `path`, at most [`INPUT_LIMIT`] bytes of UTF-8 text (see
/// [`open_regular`]), with an error naming it.
pub fn read_file(path: &str) -> Result<String, FileError> {
    let file = open_regular(Path::new(path))?;
    read_limited(file, Input::file(path))
}

/// Reads the whole standard input, at most [`INPUT_LIMIT`] bytes of UTF-8 text.
pub fn read_stdin() -> Result<String, FileError> {
    read_limited(std::io::stdin().lock(), Input::Stdin)
}

/// Opens `path` for reading, refusing anything but a regular file (a FIFO, a device, a
/// folder) without blocking on it: the file is opened non-blocking, then checked.
pub fn open_regular(path: &Path) -> Result<std::fs::File, FileError> {
    let read = |source| FileError::Read {
        input: Input::file(path),
        source,
    };
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading waits for a writer unless O_NONBLOCK is given; on a
        // regular file the flag changes nothing.
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(path).map_err(read)?;
    let meta = file.metadata().map_err(read)?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            input: Input::file(path),
        });
    }
    Ok(file)
}

/// Reads at most `limit` bytes of the regular file `path` (see [`open_regular`]); a larger
/// file is an error naming the limit.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    if let Err(source) = file.take(limit + 1).read_to_end(&mut bytes) {
        return Err(FileError::Read {
            input: Input::file(path),
            source,
        });
    }
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            input: Input::file(path),
            limit,
        });
    }
    Ok(bytes)
}

/// The lines of a text file, each at most a bound in bytes, read one at a time (a table file
/// may be far larger than memory should hold at once): without their `\n` or `\r\n`, the
/// first without a byte-order mark. A longer line, bytes that are not UTF-8 or a failed
/// read end the lines with an error naming the file and the line.
pub struct Lines<R> {
    reader: R,
    input: Input,
    max: usize,
    number: usize,
    offset: usize,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, named `input` in errors, each at most `max` bytes.
    pub fn new(reader: R, input: Input, max: usize) -> Self {
        Lines {
            reader,
            input,
            max,
            number: 0,
            offset: 0,
            buf: Vec::new(),
            done: false,
        }
    }

    /// The number of the line last returned, from 1.
    pub fn number(&self) -> usize {
        self.number
    }

    fn fail(&mut self, e: FileError) -> Option<Result<String, FileError>> {
        self.done = true;
        Some(Err(e))
    }
}

impl Lines<std::io::BufReader<std::fs::File>> {
    /// The lines of the regular file `path` (see [`open_regular`]), each at most `max` bytes.
    pub fn open(path: &Path, max: usize) -> Result<Self, FileError> {
        let file = open_regular(path)?;
        Ok(Lines::new(
            std::io::BufReader::new(file),
            Input::file(path),
            max,
        ))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<String, FileError>;

    fn next(&mut self) -> Option<Self::Item> {
        use std::io::Read;
        if self.done {
            return None;
        }
        self.buf.clear();
        // A few bytes over the bound (a byte-order mark, `\r\n`) tell a line that is too
        // long from one that fits.
        let read = (&mut self.reader)
            .take(self.max as u64 + 5)
            .read_until(b'\n', &mut self.buf);
        let n = match read {
            Ok(0) => {
                self.done = true;
                return None;
            }
            Ok(n) => n,
            Err(source) => {
                let input = self.input.clone();
                return self.fail(FileError::Read { input, source });
            }
        };
        self.number += 1;
        let start = self.offset;
        self.offset += n;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        let mut skip = 0;
        if self.number == 1 && self.buf.starts_with("\u{feff}".as_bytes()) {
            skip = 3;
        }
        if self.buf.len() - skip > self.max {
            let (input, line, limit) = (self.input.clone(), self.number, self.max);
            return self.fail(FileError::LineTooLong { input, line, limit });
        }
        match std::str::from_utf8(&self.buf[skip..]) {
            Ok(s) => Some(Ok(s.to_string())),
            Err(e) => {
                let input = self.input.clone();
                let offset = start + skip + e.valid_up_to();
                self.fail(FileError::NotUtf8 { input, offset })
            }
        }
    }
}

/// `bytes` as a size for messages: whole MiB where it is one, else bytes.
fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes}-byte")
    }
}

/// `text` without a leading byte-order mark: every text input accepts one.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// What stands at a file's name, once its links are followed.
enum Target {
    /// Nothing: the file is new.
    Absent,
    /// A regular file, with its permissions, which its replacement keeps.
    Regular(std::fs::Permissions),
}

/// Where a write to `path` lands, checked: `path` with its symbolic links followed (see
/// [`FileError::ForeignLink`]), and what stands there, which must be absent or a regular
/// file.
fn target(path: &Path) -> Result<(PathBuf, Target), FileError> {
    if path.as_os_str().is_empty() {
        return Err(FileError::EmptyName);
    }
    let write = |source| FileError::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((at, Target::Absent)),
            Err(e) => return Err(write(e)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            if foreign_link(&at, &meta) {
                return Err(FileError::ForeignLink {
                    path: path.to_path_buf(),
                });
            }
            let to = std::fs::read_link(&at).map_err(write)?;
            // A relative link is read from the folder it stands in; an absolute one replaces
            // the whole path.
            at = match at.parent() {
                Some(folder) => folder.join(to),
                None => to,
            };
            continue;
        }
        refuse_unless_regular(path, &kind)?;
        return Ok((at, Target::Regular(meta.permissions())));
    }
    Err(write(std::io::Error::other(
        "too many levels of symbolic links",
    )))
}

/// `Ok` if `kind`, what stands at `path`, is a regular file; else the refusal that names it.
fn refuse_unless_regular(path: &Path, kind: &std::fs::FileType) -> Result<(), FileError> {
    if kind.is_file() {
        return Ok(());
    }
    let path = path.to_path_buf();
    Err(if kind.is_dir() {
        FileError::IsFolder { path }
    } else {
        FileError::NotRegularTarget {
            path,
            kind: kind_name(kind),
        }
    })
}

/// A file that is not regular nor a folder, as a message names it.
fn kind_name(kind: &std::fs::FileType) -> &'static str {
    if kind.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = kind;
    "a special file"
}

/// Whether the link `link` (whose metadata is `meta`) is one the kernel would not follow
/// under `fs.protected_symlinks`: in a sticky folder anyone may write to, owned by neither
/// this process's user nor the folder's owner. Such a link in `/tmp` is how another user
/// makes a program that runs as root write over a file of its choosing.
fn foreign_link(link: &Path, meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let folder = match link.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        let Ok(fm) = std::fs::metadata(folder) else {
            return false;
        };
        let shared = fm.mode() & 0o1002 == 0o1002;
        // SAFETY: geteuid takes no arguments, touches no memory and cannot fail.
        let me = unsafe { libc::geteuid() };
        shared && meta.uid() != me && meta.uid() != fm.uid()
    }
    #[cfg(not(unix))]
    {
        let _ = (link, meta);
        false
    }
}

/// Creates a new temporary file beside `target` (hidden, named by the process and a counter,
/// created exclusively so that a name planted there, a link above all, is never followed).
fn create_temp(target: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut last = None;
    for n in 0..64 {
        let tmp = target.with_file_name(format!(".{name}.tmp.{}.{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Checks, before any work, that `path` can be written: that what stands there is absent
/// or a regular file (links followed, see [`write_atomic`]) and that a temporary file can be
/// created beside it (the folder exists and is writable). Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    let (at, _) = target(path)?;
    let (tmp, file) = create_temp(&at).map_err(|source| FileError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    drop(file);
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// Writes `bytes` to `path` atomically (see [`write_atomic_with`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes what `fill` writes to `path` atomically: into a new temporary file beside the
/// target, flushed to disk, given the old file's permissions, then renamed over it, so that
/// a reader (or a rerun after a crash) sees the whole old file or the whole new one, never
/// a part. A symbolic link is followed and its target replaced, in the target's own folder;
/// a target that is not a regular file is refused (see [`check_writable`]), checked again
/// just before the rename. A failed write removes the temporary file and leaves the old
/// file as it was.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let (at, old) = target(path)?;
    let failed = |source| FileError::Write {
        path: path.to_path_buf(),
        source,
    };
    let (tmp, file) = create_temp(&at).map_err(failed)?;
    let write = || -> std::io::Result<()> {
        let mut w = std::io::BufWriter::new(file);
        fill(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        if let Target::Regular(perms) = &old {
            file.set_permissions(perms.clone())?;
        }
        file.sync_all()
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(failed(e));
    }
    // Whatever was put at the name while we wrote is checked again: a FIFO or a folder
    // that appeared meanwhile is not replaced.
    let renamed = match target(&at) {
        Ok(_) => std::fs::rename(&tmp, &at).map_err(failed),
        Err(e) => Err(e),
    };
    if let Err(e) = renamed {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    sync_folder(&at);
    Ok(())
}

/// Flushes the folder holding `file`, so that a rename into it survives a power cut; where
/// the system cannot, the file is still whole, only perhaps under its old name.
fn sync_folder(file: &Path) {
    #[cfg(unix)]
    if let Some(folder) = file.parent() {
        let folder = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        if let Ok(f) = std::fs::File::open(folder) {
            let _ = f.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = file;
}

/// Opens `path` for appending, creating it if it is absent: links followed and targets
/// refused as [`write_atomic`] does, opened without blocking and checked again once open.
/// For files that grow as a run goes (a table file, a lock).
pub fn open_append(path: &Path) -> Result<std::fs::File, FileError> {
    open_for_writing(path, false)
}

/// Opens `path` for writing from its start, created or emptied, with the checks of
/// [`open_append`]: for files that are written as a run goes and mean nothing after it (a
/// worker's log).
pub fn create_truncated(path: &Path) -> Result<std::fs::File, FileError> {
    open_for_writing(path, true)
}

fn open_for_writing(path: &Path, truncate: bool) -> Result<std::fs::File, FileError> {
    let (at, _) = target(path)?;
    let failed = |source| FileError::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true);
    if truncate {
        opts.write(true);
    } else {
        opts.append(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Links were followed above: one that appears at the name now is not. A FIFO that
        // appears is opened without waiting for a reader (or refused), then refused below.
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = opts.open(&at).map_err(failed)?;
    refuse_unless_regular(path, &file.metadata().map_err(failed)?.file_type())?;
    if truncate {
        // Emptied only once it is known to be a regular file.
        file.set_len(0).map_err(failed)?;
    }
    Ok(file)
}

/// Moves the file `from` to the name `to` in the same folder (a run folder's refused
/// result, set aside), replacing only a regular file or nothing there.
pub fn rename_aside(from: &Path, to: &Path) -> Result<(), FileError> {
    let failed = |source| FileError::Write {
        path: to.to_path_buf(),
        source,
    };
    match std::fs::symlink_metadata(to) {
        Ok(m) => refuse_unless_regular(to, &m.file_type())?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(failed(e)),
    }
    std::fs::rename(from, to).map_err(failed)
}

/// Creates the folder `path` and those above it, as `std::fs::create_dir_all`.
pub fn create_folder(path: &Path) -> Result<(), FileError> {
    std::fs::create_dir_all(path).map_err(|source| FileError::CreateFolder {
        path: path.to_path_buf(),
        source,
    })
}

/// `name` fit to write into a file's one-line comment or field: control and invisible
/// characters (a newline above all, which would end the line and let the rest of the name be
/// read as data) escaped as [`crate::game::quote`] does, and cut to 200 bytes.
pub fn one_line(name: &str) -> String {
    crate::game::quote_max(name, 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test, removed by the caller.
    fn folder(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cutoff-files-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }

    /// A character device node like /dev/null's (1, 3) at `path`, where the process may make
    /// one (root, or CAP_MKNOD); false where it may not.
    #[cfg(unix)]
    fn mknod_null(path: &Path) -> bool {
        let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call; mknod
        // reads nothing else of ours.
        unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o600, libc::makedev(1, 3)) == 0 }
    }

    #[test]
    fn input_is_read_up_to_the_limit() {
        use std::io::Read;
        let limit = INPUT_LIMIT as usize;
        let text = read_limited(std::io::repeat(b'1').take(INPUT_LIMIT), Input::Stdin).unwrap();
        assert_eq!(text.len(), limit);
        let e = read_limited(std::io::repeat(b'1'), Input::file("big")).unwrap_err();
        assert!(matches!(e, FileError::OverInputLimit { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "cannot read 'big': larger than the 16 MiB input limit"
        );
        let e = read_limited(&b"ab\xffc"[..], Input::Stdin).unwrap_err();
        assert!(matches!(e, FileError::NotUtf8 { offset: 2, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "cannot read standard input: not UTF-8 text (invalid byte at offset 2)"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = folder("fifo");
        let fifo = dir.join("fifo");
        mkfifo(&fifo);
        let e = read_regular(&fifo, 100).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { .. }), "{e:?}");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_file(fifo.to_str().unwrap()).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { .. }), "{e:?}");
        assert!(Lines::open(&fifo, 10).is_err());
        let e = read_regular(&dir, 100).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { .. }), "{e:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn endless_devices_are_not_read() {
        for dev in ["/dev/zero", "/dev/urandom"] {
            let e = read_file(dev).unwrap_err();
            assert!(matches!(e, FileError::NotRegular { .. }), "{dev}: {e:?}");
            assert!(Lines::open(Path::new(dev), 100).is_err(), "{dev}");
        }
    }

    #[test]
    fn lines_are_bounded_and_accept_a_byte_order_mark() {
        let text = "\u{feff}first\r\nsecond\n\nlast";
        let lines: Vec<String> = Lines::new(text.as_bytes(), Input::Stdin, 6)
            .map(Result::unwrap)
            .collect();
        assert_eq!(lines, ["first", "second", "", "last"]);
        // Exactly the bound fits, with or without its line end; one byte more does not.
        let ok: Vec<_> = Lines::new(&b"abcdef\r\nabcdef"[..], Input::Stdin, 6).collect();
        assert!(ok.iter().all(Result::is_ok) && ok.len() == 2, "{ok:?}");
        let mut it = Lines::new(&b"ok\nabcdefg\nafter\n"[..], Input::file("t"), 6);
        assert_eq!(it.next().unwrap().unwrap(), "ok");
        let e = it.next().unwrap().unwrap_err();
        assert!(matches!(e, FileError::LineTooLong { line: 2, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "cannot read 't': line 2 is longer than 6 bytes"
        );
        assert!(it.next().is_none(), "the lines end at an error");
        // An endless line is refused after the bound, not read until memory runs out.
        use std::io::Read;
        let endless = std::io::BufReader::new(std::io::repeat(0).take(1 << 40));
        let mut it = Lines::new(endless, Input::Stdin, 1024);
        assert!(matches!(
            it.next(),
            Some(Err(FileError::LineTooLong { line: 1, .. }))
        ));
        let e = Lines::new(&b"a\nb\xffc\n"[..], Input::Stdin, 10)
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert!(matches!(e, FileError::NotUtf8 { offset: 3, .. }), "{e:?}");
    }

    #[test]
    fn a_failed_atomic_write_keeps_the_old_file() {
        let dir = folder("w");
        let f = dir.join("state");
        write_atomic(&f, b"old").unwrap();
        let failing = write_atomic_with(&f, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failing.is_err());
        assert_eq!(std::fs::read(&f).unwrap(), b"old");
        assert_eq!(names(&dir), ["state"], "a temporary file was left");
        assert_eq!(read_regular(&f, 3).unwrap(), b"old");
        let e = read_regular(&f, 2).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { limit: 2, .. }), "{e:?}");
        assert!(e.to_string().contains("2-byte"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = folder("perm");
        let f = dir.join("state");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&f, b"new").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
        let mode = std::fs::metadata(&f).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_its_target_replaced() {
        let dir = folder("link");
        std::fs::create_dir_all(dir.join("real")).unwrap();
        let target = dir.join("real/state");
        std::fs::write(&target, "old").unwrap();
        let link = dir.join("state");
        std::os::unix::fs::symlink("real/state", &link).unwrap();
        check_writable(&link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A link to a name not there yet: the file is made at the link's target.
        let dangling = dir.join("fresh");
        std::os::unix::fs::symlink(dir.join("real/fresh"), &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert_eq!(std::fs::read(dir.join("real/fresh")).unwrap(), b"made");
        assert_eq!(names(&dir.join("real")), ["fresh", "state"]);
        // A loop of links is an error, not a hang.
        std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
        let e = write_atomic(&dir.join("loop-a"), b"x").unwrap_err();
        assert!(e.to_string().contains("symbolic links"), "{e}");
        // Appending follows links too.
        let mut f = open_append(&link).unwrap();
        f.write_all(b"+").unwrap();
        drop(f);
        assert_eq!(std::fs::read(&target).unwrap(), b"new+");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_replaced() {
        let dir = folder("special");
        let fifo = dir.join("fifo");
        mkfifo(&fifo);
        let mut cases = vec![(fifo.clone(), "a FIFO")];
        let dev = dir.join("null");
        if mknod_null(&dev) {
            cases.push((dev.clone(), "a character device"));
        }
        let sock = dir.join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        cases.push((sock, "a socket"));
        let to_fifo = dir.join("to-fifo");
        std::os::unix::fs::symlink(&fifo, &to_fifo).unwrap();
        cases.push((to_fifo, "a FIFO"));
        for (path, kind) in &cases {
            for e in [
                check_writable(path).unwrap_err(),
                write_atomic(path, b"x").unwrap_err(),
                open_append(path).unwrap_err(),
                create_truncated(path).unwrap_err(),
            ] {
                assert!(
                    matches!(e, FileError::NotRegularTarget { kind: k, .. } if k == *kind),
                    "{path:?}: {e:?}"
                );
                let msg = e.to_string();
                assert!(msg.contains(kind) && !msg.contains('\n'), "{msg}");
            }
            let meta = std::fs::symlink_metadata(path).unwrap();
            assert!(!meta.is_file(), "{path:?} was replaced by a regular file");
        }
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        for e in [
            check_writable(&sub).unwrap_err(),
            write_atomic(&sub, b"x").unwrap_err(),
            open_append(&sub).unwrap_err(),
        ] {
            assert!(matches!(e, FileError::IsFolder { .. }), "{e:?}");
        }
        let e = rename_aside(&dir.join("nothing"), &fifo).unwrap_err();
        assert!(matches!(e, FileError::NotRegularTarget { .. }), "{e:?}");
        assert!(!std::fs::symlink_metadata(&fifo).unwrap().is_file());
        let e = check_writable(Path::new("")).unwrap_err();
        assert_eq!(e.to_string(), "cannot write '': an empty file name");
        assert!(check_writable(Path::new("/nonexistent-dir/x")).is_err());
        // Nothing left beside them.
        let left: Vec<String> = names(&dir)
            .into_iter()
            .filter(|n| n.contains(".tmp."))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A link another user planted in a shared sticky folder (`/tmp`) is refused, as the
    /// kernel's `protected_symlinks` refuses it; the check needs root to make such a link.
    #[cfg(unix)]
    #[test]
    fn a_foreign_link_in_a_shared_folder_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        // SAFETY: geteuid takes no arguments, touches no memory and cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: only root can make a link owned by another user");
            return;
        }
        let dir = folder("shared");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let link = dir.join("save");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).unwrap();
        for e in [
            check_writable(&link).unwrap_err(),
            write_atomic(&link, b"x").unwrap_err(),
            open_append(&link).unwrap_err(),
        ] {
            assert!(matches!(e, FileError::ForeignLink { .. }), "{e:?}");
        }
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        // The same link in a folder that is not shared is followed.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        write_atomic(&link, b"mine").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"mine");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_stay_on_one_line() {
        let s = one_line("a\nb\rc");
        assert!(!s.contains('\n') && !s.contains('\r'), "{s}");
        assert_eq!(strip_bom("\u{feff}x"), "x");
    }
}
