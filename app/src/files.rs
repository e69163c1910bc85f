//! The files the command reads and writes: the engine's one path for them,
//! [`cutoff::files`] (only regular files read, bounded; writes atomic, never over a FIFO, a
//! device or a folder), and the control game's argument, a matrix or a file's name.

pub use cutoff::files::*;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
