//! Files the commands read and write, treated as untrusted: reads bounded in size and, where
//! a file is named by a folder's layout rather than by the user, only of regular files (a
//! FIFO would block forever); writes atomic (a temporary file beside the target, flushed,
//! renamed over it), so that a crash or a full disk never leaves half a file or destroys the
//! previous one; names written into a file kept to one printable line.

use std::path::{Path, PathBuf};

/// The most bytes an input file (a tree, a test set, a control-game matrix, a judge input)
/// or standard input may hold: 16 MiB, far above any real input (the largest test set is
/// under 40 KiB), so that `cutoff tree /dev/zero` is an error, not a process that grows
/// until the machine runs out of memory.
pub const INPUT_LIMIT: u64 = 16 << 20;

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

/// `path` fit to quote in a message (see [`crate::message::shown_path`]).
fn shown(path: &Path) -> String {
    crate::message::shown_path(&path.to_string_lossy())
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

/// Reads a whole file of at most [`INPUT_LIMIT`] bytes of UTF-8 text, with an error naming
/// it.
pub fn read_file(path: &str) -> Result<String, FileError> {
    let input = Input::file(path);
    match std::fs::File::open(path) {
        Ok(file) => read_limited(file, input),
        Err(source) => Err(FileError::Read { input, source }),
    }
}

/// Reads the whole standard input, at most [`INPUT_LIMIT`] bytes of UTF-8 text.
pub fn read_stdin() -> Result<String, FileError> {
    read_limited(std::io::stdin().lock(), Input::Stdin)
}

/// The control game's position argument as matrix text: the argument itself if it is not
/// the name of an existing file and holds only `0`, `1`, whitespace and `/` (rows joined by
/// '/'), otherwise the contents of the file it names. So `nosuchfile.txt` is reported as a
/// file that cannot be read, not as a matrix with a bad entry, and a file named `0110` is
/// still read as a file.
pub fn control_text(spec: &str) -> Result<String, FileError> {
    let matrix = spec
        .chars()
        .all(|c| matches!(c, '0' | '1' | '/') || c.is_whitespace());
    if matrix && !std::path::Path::new(spec).exists() {
        Ok(spec.to_string())
    } else {
        read_file(spec)
    }
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

/// Writes `bytes` to `path` atomically: into a temporary file beside it, flushed to disk,
/// then renamed over it, so that a reader (or a rerun after a crash) sees the whole old file
/// or the whole new one, never a part. A failed write removes the temporary file and leaves
/// the old file as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    use std::io::Write;
    let tmp = temp_beside(path);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    };
    write().map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        FileError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// Checks, before any work, that `path` can be written atomically: that a temporary file can
/// be created beside it (the folder exists and is writable) and that `path` is not a folder.
/// Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    if path.as_os_str().is_empty() {
        return Err(FileError::EmptyName);
    }
    if path.is_dir() {
        return Err(FileError::IsFolder {
            path: path.to_path_buf(),
        });
    }
    let tmp = temp_beside(path);
    std::fs::File::create(&tmp).map_err(|source| FileError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// Creates the folder `path` and those above it, as `std::fs::create_dir_all`.
pub fn create_folder(path: &Path) -> Result<(), FileError> {
    std::fs::create_dir_all(path).map_err(|source| FileError::CreateFolder {
        path: path.to_path_buf(),
        source,
    })
}

/// The temporary file [`write_atomic`] writes before renaming: hidden, beside `path`, named
/// by the process so that two writers never share one.
fn temp_beside(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp.{}", std::process::id()))
}

/// `name` fit to write into a file's one-line comment or field: control and invisible
/// characters (a newline above all, which would end the line and let the rest of the name be
/// read as data) escaped as [`cutoff::game::quote`] does, and cut to 200 bytes.
pub fn one_line(name: &str) -> String {
    cutoff::game::quote_max(name, 200)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn control_text_tells_matrices_from_file_names() {
        assert_eq!(control_text("01/10").unwrap(), "01/10");
        assert_eq!(control_text(" 0 1 / 1 0 ").unwrap(), " 0 1 / 1 0 ");
        let e = control_text("nosuchfile.txt").unwrap_err().to_string();
        assert!(e.starts_with("cannot read 'nosuchfile.txt': "), "{e}");
        assert!(control_text("012/101/210").is_err());
        // An existing file is read even if its name looks like a matrix.
        let dir = std::env::temp_dir().join(format!("cutoff-control-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("0110");
        std::fs::write(&file, "2\n01\n10\n").unwrap();
        let text = control_text(file.to_str().unwrap());
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(text.unwrap(), "2\n01\n10\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = std::env::temp_dir().join(format!("cutoff-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_regular(&fifo, 100).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { .. }), "{e:?}");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_regular(&dir, 100).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { .. }), "{e:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_atomic_write_keeps_the_old_file() {
        let dir = std::env::temp_dir().join(format!("cutoff-files-w-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("state");
        write_atomic(&f, b"old").unwrap();
        // A rename onto a non-empty folder fails after the temporary file is written.
        let d = dir.join("sub");
        std::fs::create_dir_all(d.join("x")).unwrap();
        assert!(write_atomic(&d, b"new").is_err());
        assert_eq!(std::fs::read(&f).unwrap(), b"old");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 2, "a temporary file was left: {left:?}");
        assert_eq!(read_regular(&f, 3).unwrap(), b"old");
        let e = read_regular(&f, 2).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { limit: 2, .. }), "{e:?}");
        assert!(e.to_string().contains("2-byte"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_stay_on_one_line() {
        let s = one_line("a\nb\rc");
        assert!(!s.contains('\n') && !s.contains('\r'), "{s}");
        assert_eq!(strip_bom("\u{feff}x"), "x");
        assert!(check_writable(Path::new("/nonexistent-dir/x")).is_err());
        let e = check_writable(Path::new("")).unwrap_err();
        assert_eq!(e.to_string(), "cannot write '': an empty file name");
    }
}
