//! Files the commands read and write, treated as untrusted: reads bounded in size and, where
//! a file is named by a folder's layout rather than by the user, only of regular files (a
//! FIFO would block forever); writes atomic (a temporary file beside the target, flushed,
//! renamed over it), so that a crash or a full disk never leaves half a file or destroys the
//! previous one; names written into a file kept to one printable line.

use std::path::Path;

/// Opens `path` for reading, refusing anything but a regular file (a FIFO, a device, a
/// folder) without blocking on it: the file is opened non-blocking, then checked.
pub fn open_regular(path: &Path) -> Result<std::fs::File, String> {
    let shown = crate::cmd::shown_path(&path.to_string_lossy());
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading waits for a writer unless O_NONBLOCK is given; on a
        // regular file the flag changes nothing.
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts
        .open(path)
        .map_err(|e| format!("cannot read '{shown}': {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read '{shown}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read '{shown}': not a regular file"));
    }
    Ok(file)
}

/// Reads at most `limit` bytes of the regular file `path` (see [`open_regular`]); a larger
/// file is an error naming the limit.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let shown = crate::cmd::shown_path(&path.to_string_lossy());
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read '{shown}': {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "cannot read '{shown}': larger than the {} limit",
            size_text(limit)
        ));
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
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let shown = crate::cmd::shown_path(&path.to_string_lossy());
    let tmp = temp_beside(path);
    let fail = |e: std::io::Error| format!("cannot write '{shown}': {e}");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// Checks, before any work, that `path` can be written atomically: that a temporary file can
/// be created beside it (the folder exists and is writable) and that `path` is not a folder.
/// Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), String> {
    let shown = crate::cmd::shown_path(&path.to_string_lossy());
    if path.as_os_str().is_empty() {
        return Err("cannot write '': an empty file name".into());
    }
    if path.is_dir() {
        return Err(format!("cannot write '{shown}': it is a folder"));
    }
    let tmp = temp_beside(path);
    std::fs::File::create(&tmp).map_err(|e| format!("cannot write '{shown}': {e}"))?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
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
    fn a_fifo_is_refused_at_once() {
        let dir = std::env::temp_dir().join(format!("cutoff-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_regular(&fifo, 100).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_regular(&dir, 100).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
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
        assert!(read_regular(&f, 2).unwrap_err().contains("2-byte"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_stay_on_one_line() {
        let s = one_line("a\nb\rc");
        assert!(!s.contains('\n') && !s.contains('\r'), "{s}");
        assert_eq!(strip_bom("\u{feff}x"), "x");
        assert!(check_writable(Path::new("/nonexistent-dir/x")).is_err());
        assert!(check_writable(Path::new("")).is_err());
    }
}
