//! The one write path (`cutoff::files`) against whatever stands at a file's name. The bytes
//! build a small folder: what stands at the name (nothing, a regular file, a link to a
//! regular file, to nothing, to a link, to itself, to a FIFO or to a folder, a FIFO, a folder,
//! a socket, a device node where mknod is allowed), the write (`check_writable`,
//! `write_atomic`, a failing `write_atomic_with`, `open_append`, `create_truncated`) and the
//! bytes written. Whatever happens: nothing panics or hangs; what is not a regular file (once
//! links are followed) is never replaced nor written into, and a link stays a link; a write
//! that succeeds leaves exactly its bytes (or the old ones and its bytes, appended) at the
//! link's target; one that fails leaves the old file as it was; no temporary file is left;
//! every error is one short printable line.
#![no_main]

use cutoff::files::{
    check_writable, create_truncated, open_append, write_atomic, write_atomic_with,
};
use cutoff_fuzz::{check_message, mkfifo, STRICT};
use libfuzzer_sys::fuzz_target;
use std::fs::FileType;
use std::io::Write;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::{Path, PathBuf};

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-fuzz-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cstr(path: &Path) -> std::ffi::CString {
    std::ffi::CString::new(path.to_str().unwrap()).unwrap()
}

/// A device node like /dev/null's in the scratch folder; false where mknod is not allowed.
fn mknod(path: &Path) -> bool {
    // SAFETY: the path is a valid NUL-terminated string for the duration of the call.
    unsafe {
        libc::mknod(
            cstr(path).as_ptr(),
            libc::S_IFCHR | 0o600,
            libc::makedev(1, 3),
        ) == 0
    }
}

/// What a name's type is, to compare before and after.
fn kind(t: FileType) -> &'static str {
    if t.is_symlink() {
        "link"
    } else if t.is_file() {
        "file"
    } else if t.is_dir() {
        "folder"
    } else if t.is_fifo() {
        "fifo"
    } else if t.is_socket() {
        "socket"
    } else {
        "device"
    }
}

fuzz_target!(|data: &[u8]| {
    let [layout, op, old_len, body @ ..] = data else {
        return;
    };
    let dir = scratch();
    let name = dir.join("out");
    let real = dir.join("real");
    let old: Vec<u8> = body
        .iter()
        .take(usize::from(*old_len) % 64)
        .copied()
        .collect();
    let new = &body[old.len()..];
    let _listener;
    // Where the bytes land if the write goes through: the name, or a link's target.
    let landing: Option<PathBuf> = match layout % 12 {
        0 => Some(name.clone()),
        1 => {
            std::fs::write(&name, &old).unwrap();
            Some(name.clone())
        }
        2 => {
            std::fs::write(&real, &old).unwrap();
            symlink(&real, &name).unwrap();
            Some(real.clone())
        }
        3 => {
            symlink("real", &name).unwrap();
            Some(real.clone())
        }
        4 => {
            std::fs::write(&real, &old).unwrap();
            symlink("real", dir.join("mid")).unwrap();
            symlink("mid", &name).unwrap();
            Some(real.clone())
        }
        5 => {
            symlink("out", &name).unwrap();
            None
        }
        6 => {
            mkfifo(&real);
            symlink(&real, &name).unwrap();
            None
        }
        7 => {
            std::fs::create_dir(&real).unwrap();
            symlink(&real, &name).unwrap();
            None
        }
        8 => {
            mkfifo(&name);
            None
        }
        9 => {
            std::fs::create_dir(&name).unwrap();
            None
        }
        10 => {
            _listener = std::os::unix::net::UnixListener::bind(&name).unwrap();
            None
        }
        _ => {
            if !mknod(&name) {
                mkfifo(&name);
            }
            None
        }
    };
    let before: Vec<(String, &str)> = listing(&dir);
    let result = match op % 5 {
        0 => check_writable(&name),
        1 => write_atomic(&name, new),
        2 => write_atomic_with(&name, |w| {
            w.write_all(new)?;
            Err(std::io::Error::other("the disk is full"))
        }),
        3 => open_append(&name).and_then(|mut f| {
            f.write_all(new).unwrap();
            Ok(())
        }),
        _ => create_truncated(&name).and_then(|mut f| {
            f.write_all(new).unwrap();
            Ok(())
        }),
    };
    let after = listing(&dir);
    // No temporary file is left; a link is still a link; what was not a regular file still
    // stands as it stood.
    for (n, k) in &after {
        assert!(!n.contains(".tmp."), "a temporary file was left: {n}");
        if let Some((_, was)) = before.iter().find(|(m, _)| m == n) {
            if *was != "file" {
                assert_eq!(k, was, "{n} was a {was}, now a {k}");
            }
        }
    }
    match (&result, &landing) {
        (Ok(()), Some(at)) => {
            let got = std::fs::read(at).unwrap_or_default();
            let had_old = layout % 12 == 1 || layout % 12 == 2 || layout % 12 == 4;
            let want: Vec<u8> = match op % 5 {
                0 => {
                    if had_old {
                        old.clone()
                    } else {
                        Vec::new()
                    }
                }
                1 | 4 => new.to_vec(),
                3 => {
                    let mut v = if had_old { old.clone() } else { Vec::new() };
                    v.extend_from_slice(new);
                    v
                }
                _ => unreachable!("a failing write succeeded"),
            };
            if op % 5 != 0 || at.exists() {
                assert_eq!(got, want, "layout {layout}, op {op}");
            }
        }
        (Ok(()), None) => panic!("layout {layout}: wrote where nothing may be written"),
        (Err(e), _) => {
            check_message("files", &e.to_string(), STRICT);
            if let Some(at) = &landing {
                if layout % 12 == 1 || layout % 12 == 2 || layout % 12 == 4 {
                    assert_eq!(
                        std::fs::read(at).unwrap(),
                        old,
                        "a failed write changed the file"
                    );
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
});

/// The names in `dir` with their types, links not followed.
fn listing(dir: &Path) -> Vec<(String, &'static str)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                kind(e.file_type().unwrap()),
            )
        })
        .collect();
    v.sort();
    v
}
