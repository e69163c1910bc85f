//! The options several commands share (the search's settings, YBWC's split thresholds, the
//! table file) and the checks of their values, one place for every front end.

use crate::analysis::{cores, Budget};
use crate::error::{opt, AppError};
use crate::position::AnyAlgo;

/// The transposition table of `mib` MiB, or a one-line error naming the size and the memory
/// available (see [`cutoff::tt::TranspositionTable::try_new`]): never an abort.
pub fn table(mib: usize) -> Result<cutoff::tt::TranspositionTable, AppError> {
    Ok(cutoff::tt::TranspositionTable::try_new(mib)?)
}

/// The most threads `threads` accepts: 4 per core, and at least 16 on any machine (for
/// experiments with more threads than cores). More only slow every search down, the threads
/// taking turns on the cores, and a slip like 1024 threads would start a thousand.
pub fn max_threads() -> usize {
    (4 * cores()).max(16)
}

/// The thread count asked for, or every core; an error below 1 or above [`max_threads`].
pub fn threads(asked: Option<usize>) -> Result<usize, AppError> {
    let n = asked.unwrap_or_else(cores);
    let max = max_threads();
    if n == 0 {
        return Err(AppError::NoThreads);
    }
    if n > max {
        return Err(AppError::TooManyThreads {
            asked: n,
            max,
            cores: cores(),
        });
    }
    Ok(n)
}

/// An integer option from a front end whose integers have any sign and size (Python's
/// `int`; beyond 128 bits it comes saturated), as the type `T` the options struct holds: an
/// error naming `field` if it is negative where `T` is unsigned, or beyond `T`. The command's
/// parser refuses such values itself; the range each option accepts is checked after this,
/// where the command's own values are.
pub fn integer<T: TryFrom<i128>>(field: &str, v: i128) -> Result<T, AppError> {
    T::try_from(v).map_err(|_| {
        AppError::invalid(if v < 0 && T::try_from(-1i128).is_err() {
            format!("{} must not be negative, got {v}", opt(field))
        } else {
            format!("{} {v} is out of range", opt(field))
        })
    })
}

/// YBWC's split thresholds, shared by `solve` and `suite` (tuning knobs; the defaults are
/// [`cutoff::solver::ParallelConfig`]'s).
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// YBWC splits only with at least this many plies left (tuning).
    pub depth: usize,
    /// YBWC splits only at most this many plies below the root (tuning).
    pub ply: usize,
    /// YBWC splits only after an eldest brother of at least this many nodes (tuning).
    pub nodes: u64,
    /// YBWC searches this many brothers serially before splitting the rest (tuning).
    pub after: usize,
}

impl Default for SplitOptions {
    fn default() -> Self {
        let d = cutoff::solver::ParallelConfig::default();
        SplitOptions {
            depth: d.min_split_depth,
            ply: d.max_split_ply,
            nodes: d.min_split_nodes,
            after: d.eldest,
        }
    }
}

impl SplitOptions {
    /// The parallel settings for `mode` and `weak` with these thresholds.
    pub fn config(&self, mode: cutoff::solver::Mode, weak: bool) -> cutoff::solver::ParallelConfig {
        cutoff::solver::ParallelConfig {
            mode,
            weak,
            min_split_depth: self.depth,
            max_split_ply: self.ply,
            min_split_nodes: self.nodes,
            eldest: self.after,
            ..Default::default()
        }
    }
}

/// The search settings of `solve`, which both of its models take (the two-player engine's
/// searches and those of [`cutoff::multi`]; see `solve_multi`).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Search algorithm (default: the game's fastest exact one; see docs/guide/solve.md). Two-player
    /// games: minimax, negamax, alphabeta, alphabeta-hard, veb, ab, pvs, mtdf, solve, theory.
    /// Pig and chance trees: expectiminimax, expectinegamax, star1, star2 (the default for two
    /// players), maxn (the default for more), maxn-plain, paranoid, brs.
    pub algo: Option<AnyAlgo>,
    /// Weak solving (win, draw or loss only) with the null-window solver.
    pub weak: bool,
    /// Transposition table size in MiB (pvs, mtdf, solve and budgeted searches).
    pub tt_mb: usize,
    /// Time budget in milliseconds: iterative deepening with PVS, keeping the last finished depth.
    pub time_ms: Option<u64>,
    /// Node budget: iterative deepening with PVS, keeping the last finished depth (hard on
    /// one thread; a few percent over at most on several).
    pub nodes: Option<u64>,
    /// Threads for pvs, solve and budgets (default: one thread first, every core once the
    /// search proves large); 1 runs the serial search.
    pub threads: Option<usize>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            algo: None,
            weak: false,
            tt_mb: 64,
            time_ms: None,
            nodes: None,
            threads: None,
        }
    }
}

/// Refuses a profile (`solve --profile`, `suite --profile`) asked of more than one thread:
/// a profile is taken on one.
pub fn profile_threads(profile: bool, threads: Option<usize>) -> Result<(), AppError> {
    if profile && threads.is_some_and(|n| n > 1) {
        return Err(AppError::invalid(
            "\u{1}profile\u{2} is taken on one thread: give \u{1}threads\u{2} 1 or leave it out",
        ));
    }
    Ok(())
}

/// The thread setting of `solve`: the count asked for, checked, or automatic (one thread
/// first, every core once the search proves large; see [`cutoff::solver::Threads::Auto`]).
pub fn thread_policy(asked: Option<usize>) -> Result<cutoff::solver::Threads, AppError> {
    match asked {
        None => Ok(cutoff::solver::Threads::Auto),
        Some(n) => threads(Some(n)).map(cutoff::solver::Threads::Exactly),
    }
}

/// The table size asked for (`tt_mb`), checked against the accepted range (the memory
/// the machine has is checked when the table is made).
pub fn table_mib(mib: usize) -> Result<usize, AppError> {
    if mib == 0 || mib > 1 << 20 {
        return Err(AppError::TableSize(mib));
    }
    Ok(mib)
}

/// A table file (`table_file`, `table_file_nodes`): keep the expensive table entries across
/// runs ([`cutoff::tt::file`]).
#[derive(Clone, Debug, Default)]
pub struct TableFileOptions {
    /// Load the table entries kept in FILE before searching, and append to it every entry
    /// whose subtree takes at least `table_file_nodes` nodes, as the search finds it: a
    /// solve stopped and started again does not redo its hardest subtrees. The file names
    /// its board and rules; one for another is refused (Connect Four).
    pub table_file: Option<std::path::PathBuf>,
    /// The nodes a subtree must take for its entry to go into the table file.
    pub table_file_nodes: u64,
}

/// A table file in use: what was loaded from it, and the recorder appending to it.
pub struct TableFile {
    /// What the load found.
    pub loaded: cutoff::tt::file::Loaded,
    /// Appends the entries the search keeps.
    pub recorder: cutoff::tt::file::Recorder,
}

impl TableFileOptions {
    /// Loads the file into `tt` and starts recording, if a file was given: for a game with
    /// a table identity (`identity`, else an error naming `game`).
    pub fn open(
        &self,
        game: &str,
        identity: Option<String>,
        tt: &cutoff::tt::TranspositionTable,
    ) -> Result<Option<TableFile>, AppError> {
        let Some(path) = &self.table_file else {
            return Ok(None);
        };
        let Some(id) = identity else {
            return Err(AppError::invalid(format!(
                "{} keeps Connect Four tables; {game} keeps none",
                opt("table_file")
            )));
        };
        let loaded = cutoff::tt::file::load(path, &id, tt)?;
        let recorder = cutoff::tt::file::Recorder::start(path, &id, self.table_file_nodes)?;
        Ok(Some(TableFile { loaded, recorder }))
    }
}

/// Reads a positive number of seconds, at most a day (`progress_every`).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most 86400, got '{}'",
            cutoff::game::quote(s)
        )),
    }
}

/// Reads a window `A,B` with A < B (`window` of `split` and `solve-shard`).
pub fn parse_window(s: &str) -> Result<[cutoff::Value; 2], String> {
    let bad = || {
        format!(
            "expected a window A,B of two integers with A < B, got '{}'",
            cutoff::game::quote(s)
        )
    };
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let a: cutoff::Value = a.trim().parse().map_err(|_| bad())?;
    let b: cutoff::Value = b.trim().parse().map_err(|_| bad())?;
    if a >= b || a.abs() > crate::shard::MAX_WINDOW || b.abs() > crate::shard::MAX_WINDOW {
        return Err(bad());
    }
    Ok([a, b])
}

/// The budget of `time_ms` milliseconds and `nodes` nodes (`analyse`, `play`), each at least 1.
pub fn budget(time_ms: Option<u64>, nodes: Option<u64>) -> Result<Budget, AppError> {
    if time_ms == Some(0) {
        return Err(AppError::invalid("\u{1}time_ms\u{2} must be at least 1"));
    }
    if nodes == Some(0) {
        return Err(AppError::invalid("\u{1}nodes\u{2} must be at least 1"));
    }
    Ok(Budget {
        time: time_ms.map(std::time::Duration::from_millis),
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_capped_at_a_multiple_of_the_cores() {
        let max = max_threads();
        assert!(max >= 16 && max >= 4 * cores());
        assert_eq!(threads(Some(max)).unwrap(), max);
        let e = threads(Some(max + 1)).unwrap_err();
        assert!(matches!(e, AppError::TooManyThreads { .. }), "{e:?}");
        assert!(e.to_string().contains("too many"), "{e}");
        assert!(matches!(threads(Some(0)), Err(AppError::NoThreads)));
        assert_eq!(threads(None).unwrap(), cores());
    }

    #[test]
    fn integers_out_of_their_type_name_the_field() {
        assert_eq!(integer::<u64>("seed", 7).unwrap(), 7);
        assert_eq!(integer::<i64>("horizon", -3).unwrap(), -3);
        let e = integer::<usize>("tt_mb", -1).unwrap_err();
        assert_eq!(
            e.message(crate::Spelling::Field),
            "tt_mb must not be negative, got -1"
        );
        let e = integer::<u32>("connect", 1 << 40).unwrap_err();
        assert_eq!(
            e.message(crate::Spelling::Flag),
            "--connect 1099511627776 is out of range"
        );
    }
}
