//! The subcommands of the `cutoff` binary, one file each, and their shared output.

pub mod analyse;
pub mod book;
pub mod cfr;
pub mod judge;
pub mod merge;
pub mod plan;
pub mod play;

pub mod solve;
pub mod solve_multi;
pub mod solve_shard;
pub mod split;
pub mod suite;
pub mod tree;

/// A subcommand's outcome: `Err` carries a one-line message naming what is wrong.
pub type CliResult = Result<(), String>;

/// The most bytes an input file (a tree, a test set, a control-game matrix, a judge input)
/// or standard input may hold: 16 MiB, far above any real input (the largest test set is
/// under 40 KiB), so that `cutoff tree /dev/zero` is an error, not a process that grows
/// until the machine runs out of memory.
pub const INPUT_LIMIT: u64 = 16 << 20;

/// At most this many bytes of a file name appear in an error message.
const PATH_BYTES: usize = 80;

/// `path` fit to quote in an error message (see [`cutoff::game::quote`]).
pub fn shown_path(path: &str) -> String {
    cutoff::game::quote_max(path, PATH_BYTES)
}

/// Reads at most [`INPUT_LIMIT`] bytes of UTF-8 text from `input`; errors name `what`.
pub fn read_limited(input: impl std::io::Read, what: &str) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    input
        .take(INPUT_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what}: {e}"))?;
    if bytes.len() as u64 > INPUT_LIMIT {
        return Err(format!(
            "cannot read {what}: larger than the {} MiB input limit",
            INPUT_LIMIT >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read {what}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads a whole file of at most [`INPUT_LIMIT`] bytes of UTF-8 text, with an error naming
/// it.
pub fn read_file(path: &str) -> Result<String, String> {
    let what = format!("'{}'", shown_path(path));
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {what}: {e}"))?;
    read_limited(file, &what)
}

/// Reads the whole standard input, at most [`INPUT_LIMIT`] bytes of UTF-8 text.
pub fn read_stdin() -> Result<String, String> {
    read_limited(std::io::stdin().lock(), "standard input")
}

/// The control game's position argument as matrix text: the argument itself if it is not
/// the name of an existing file and holds only `0`, `1`, whitespace and `/` (rows joined by
/// '/'), otherwise the contents of the file it names. So `nosuchfile.txt` is reported as a
/// file that cannot be read, not as a matrix with a bad entry, and a file named `0110` is
/// still read as a file.
pub fn control_text(spec: &str) -> Result<String, String> {
    let matrix = spec
        .chars()
        .all(|c| matches!(c, '0' | '1' | '/') || c.is_whitespace());
    if matrix && !std::path::Path::new(spec).exists() {
        Ok(spec.to_string())
    } else {
        read_file(spec)
    }
}

/// The transposition table of `mib` MiB, or a one-line error naming the size and the memory
/// available (see [`cutoff::tt::TranspositionTable::try_new`]): never an abort.
pub fn table(mib: usize) -> Result<cutoff::tt::TranspositionTable, String> {
    cutoff::tt::TranspositionTable::try_new(mib).map_err(|e| e.to_string())
}

/// The most threads `--threads` accepts: 4 per core, and at least 16 on any machine (for
/// experiments with more threads than cores). More only slow every search down, the threads
/// taking turns on the cores, and a slip like `--threads 1024` would start a thousand.
pub fn max_threads() -> usize {
    (4 * cores()).max(16)
}

/// The cores this process may use (1 if the system does not say).
fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The thread count asked for, or every core; an error below 1 or above [`max_threads`].
pub fn threads(asked: Option<usize>) -> Result<usize, String> {
    let n = asked.unwrap_or_else(cores);
    let max = max_threads();
    if n == 0 {
        return Err("--threads must be at least 1".into());
    }
    if n > max {
        return Err(format!(
            "--threads {n} is too many: at most {max} on this machine ({} cores; 4 threads per core, at least 16)",
            cores()
        ));
    }
    Ok(n)
}

/// The last-resort guard on every error line the program prints: control characters
/// escaped (so no message can move the cursor or recolour a terminal), and a line over
/// [`MAX_ERROR_BYTES`] bytes shortened, first by cutting its words of more than 60 bytes
/// (one long token, such as a value clap quotes whole, then leaves room for the rest of the
/// message), then by cutting the line itself, `...` included. The messages quote their
/// tokens with [`cutoff::game::quote`] already; this catches whatever one forgot.
pub fn error_line(msg: &str) -> String {
    use cutoff::game::{quote_max, QUOTE_BYTES};
    let escaped = quote_max(msg, usize::MAX);
    if escaped.len() <= MAX_ERROR_BYTES {
        return escaped;
    }
    let shortened = escaped
        .split(' ')
        .map(|word| {
            if word.len() > 60 {
                quote_max(word, QUOTE_BYTES)
            } else {
                word.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if shortened.len() <= MAX_ERROR_BYTES {
        return shortened;
    }
    let mut cut = MAX_ERROR_BYTES - 3;
    while !shortened.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &shortened[..cut])
}

/// The longest error line [`error_line`] lets through, in bytes.
pub const MAX_ERROR_BYTES: usize = 200;

/// clap's rendering of a usage error, each line passed through [`error_line`]: unchanged
/// unless a line quotes input with control characters or runs over [`MAX_ERROR_BYTES`].
pub fn usage_text(rendered: &str) -> String {
    let mut out: String = rendered
        .lines()
        .map(error_line)
        .collect::<Vec<_>>()
        .join("\n");
    if rendered.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// YBWC's split thresholds, shared by `solve` and `suite` (tuning knobs; the defaults are
/// [`cutoff::parallel::ParallelConfig`]'s).
#[derive(clap::Args)]
pub struct SplitArgs {
    /// YBWC splits only with at least this many plies left (tuning).
    #[arg(id = "split_depth", long = "split-depth", value_name = "N", default_value_t = cutoff::parallel::ParallelConfig::default().min_split_depth)]
    pub depth: usize,
    /// YBWC splits only after an eldest brother of at least this many nodes (tuning).
    #[arg(id = "split_nodes", long = "split-nodes", value_name = "N", default_value_t = cutoff::parallel::ParallelConfig::default().min_split_nodes)]
    pub nodes: u64,
    /// YBWC searches this many brothers serially before splitting the rest (tuning).
    #[arg(id = "split_after", long = "split-after", value_name = "N", default_value_t = cutoff::parallel::ParallelConfig::default().eldest)]
    pub after: usize,
}

impl SplitArgs {
    /// The parallel settings for `mode` and `weak` with these thresholds.
    pub fn config(
        &self,
        mode: cutoff::parallel::Mode,
        weak: bool,
    ) -> cutoff::parallel::ParallelConfig {
        cutoff::parallel::ParallelConfig {
            mode,
            weak,
            min_split_depth: self.depth,
            min_split_nodes: self.nodes,
            eldest: self.after,
            ..Default::default()
        }
    }
}

/// The thread setting of `solve`: the count asked for, checked, or automatic (one thread
/// first, every core once the search proves large; see [`cutoff::solver::Threads::Auto`]).
pub fn thread_policy(asked: Option<usize>) -> Result<cutoff::solver::Threads, String> {
    match asked {
        None => Ok(cutoff::solver::Threads::Auto),
        Some(n) => threads(Some(n)).map(cutoff::solver::Threads::Exactly),
    }
}

/// The table size asked for with `--tt-mb`, checked against the accepted range (the memory
/// the machine has is checked when the table is made).
pub fn table_mib(mib: usize) -> Result<usize, String> {
    if mib == 0 || mib > 1 << 20 {
        return Err(format!("--tt-mb must be between 1 and 1048576, got {mib}"));
    }
    Ok(mib)
}

/// Reads a positive number of seconds, at most a day (`--progress-every`).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most 86400, got '{}'",
            cutoff::game::quote(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_read_up_to_the_limit() {
        use std::io::Read;
        let limit = INPUT_LIMIT as usize;
        let text = read_limited(std::io::repeat(b'1').take(INPUT_LIMIT), "x").unwrap();
        assert_eq!(text.len(), limit);
        let e = read_limited(std::io::repeat(b'1'), "'big'").unwrap_err();
        assert_eq!(e, "cannot read 'big': larger than the 16 MiB input limit");
        let e = read_limited(&b"ab\xffc"[..], "standard input").unwrap_err();
        assert_eq!(
            e,
            "cannot read standard input: not UTF-8 text (invalid byte at offset 2)"
        );
    }

    #[test]
    fn control_text_tells_matrices_from_file_names() {
        assert_eq!(control_text("01/10").unwrap(), "01/10");
        assert_eq!(control_text(" 0 1 / 1 0 ").unwrap(), " 0 1 / 1 0 ");
        let e = control_text("nosuchfile.txt").unwrap_err();
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

    #[test]
    fn threads_are_capped_at_a_multiple_of_the_cores() {
        let max = max_threads();
        assert!(max >= 16 && max >= 4 * cores());
        assert_eq!(threads(Some(max)), Ok(max));
        assert!(threads(Some(max + 1)).unwrap_err().contains("too many"));
        assert!(threads(Some(0)).is_err());
        assert_eq!(threads(None), Ok(cores()));
    }

    #[test]
    fn error_lines_are_short_and_printable() {
        assert_eq!(error_line("error: plain"), "error: plain");
        assert_eq!(error_line("a\u{1b}[2Jb\nc"), r"a\x1b[2Jb\nc");
        let long = format!("error: unknown game '{}' (expected x)", "g".repeat(100_000));
        let line = error_line(&long);
        assert!(line.len() <= MAX_ERROR_BYTES, "{line}");
        assert!(line.ends_with("(expected x)"), "{line}");
        let spaced = "word ".repeat(100);
        let line = error_line(&spaced);
        assert_eq!(line.len(), MAX_ERROR_BYTES);
        assert!(line.ends_with("..."));
        let wide = "é".repeat(300);
        assert!(error_line(&wide).len() <= MAX_ERROR_BYTES);
    }

    #[test]
    fn usage_text_keeps_clap_s_lines_and_makes_them_safe() {
        let clap = "error: invalid value 'x' for '--algo'\n\nUsage: cutoff\n";
        assert_eq!(usage_text(clap), clap);
        let bad = "error: invalid value '\u{1b}[31m' for '--root'\n\nUsage: cutoff\n";
        assert_eq!(
            usage_text(bad),
            "error: invalid value '\\x1b[31m' for '--root'\n\nUsage: cutoff\n"
        );
    }
}
