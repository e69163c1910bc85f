//! `cutoff solve-shard FILE [--index I] [--out DIR]`: solves one shard of a split file and
//! writes its result file atomically; a shard whose result is already there is skipped, so
//! reruns and resumed batches are safe.

use crate::position::{Describe, GameVisitor};
use crate::shard::{self, Moves, ShardResult, Solved, Split, RESULT_VERSION};
use crate::{AppError, AppResult, Control};
use cutoff::solver::{Solver, Verdict};
use cutoff::tt::TranspositionTable;
use std::time::Instant;

/// Arguments of `cutoff solve-shard`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The split file (from `cutoff split`).
    pub file: String,
    /// The shard to solve, from 0 (default: $SLURM_ARRAY_TASK_ID, else
    /// $JOB_COMPLETION_INDEX).
    pub index: Option<usize>,
    /// The results folder (default: FILE.results), created if missing.
    pub out: Option<String>,
    /// Threads for each line's search (default: one first, every core once a search proves
    /// large).
    pub threads: Option<usize>,
    /// Transposition table size in MiB, one table kept warm across the shard's lines.
    pub tt_mb: usize,
    /// Solve every line only within this window, `A,B`, instead of the split file's
    /// windows: a line then gets its value if it lies strictly between A and B, else the
    /// bound proved.
    pub window: Option<[cutoff::Value; 2]>,
    /// No line per solved position on standard error.
    pub quiet: bool,
}

/// Runs `cutoff solve-shard`.
pub fn run(args: &Options, control: Control<'_>) -> AppResult {
    let split = Split::read(&args.file)?;
    let index = shard::shard_index(args.index)?;
    let n = split.header.shards;
    if index >= n {
        return Err(AppError::invalid(format!(
            "shard index {index} is out of range: the split has {n} shards (0 to {})",
            n - 1
        )));
    }
    let dir = shard::results_dir(&args.file, args.out.as_ref());
    crate::files::create_folder(&dir)?;
    if shard::read_result(&split, &dir, index)?.is_some() {
        control.note(&format!("shard {index} of {n}: already solved, skipped"));
        return Ok(());
    }
    // The result is written at the end: what stands at its name is checked before the solve.
    crate::files::check_writable(&shard::result_path(&dir, index))?;
    let result = split.game.visit(SolveShard {
        split: &split,
        index,
        args,
        control,
    })?;
    let bytes = serde_json::to_vec(&result).map_err(AppError::Json)?;
    let path = shard::result_path(&dir, index);
    crate::files::write_atomic(&path, &bytes)?;
    control.note(&format!(
        "shard {index} of {n}: {} positions, {} nodes, {:.3} s -> {}",
        result.lines.len(),
        result.nodes,
        result.seconds,
        crate::message::shown_path(&path.to_string_lossy())
    ));
    Ok(())
}

struct SolveShard<'a> {
    split: &'a Split,
    index: usize,
    args: &'a Options,
    control: Control<'a>,
}

impl GameVisitor for SolveShard<'_> {
    type Output = Result<ShardResult, AppError>;
    fn visit<G: Describe>(self, game: &G) -> Result<ShardResult, AppError> {
        solve(game, self.split, self.index, self.args, self.control)
    }
}

fn solve<G: Describe>(
    game: &G,
    split: &Split,
    index: usize,
    args: &Options,
    control: Control<'_>,
) -> Result<ShardResult, AppError> {
    let stop = control.stop;
    let threads = crate::options::thread_policy(args.threads)?;
    let tt = TranspositionTable::try_new(crate::options::table_mib(args.tt_mb)?)?;
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut nodes = 0;
    for line in split.lines.iter().filter(|l| l.shard == Some(index)) {
        let window = args.window.or(line.window);
        let pos = shard::play_path(game, line.paths.first())
            .map_err(|e| AppError::invalid(format!("line {}: {e}", line.id)))?;
        let out = Solver::new(game)
            .position(pos)
            .thread_policy(threads)
            .table(&tt)
            .stop_flag(stop)
            .window(window.map(|[a, b]| (a, b)))
            .run()?;
        let (value, bound) = match (out.stopped, out.verdict) {
            (None, Verdict::Exact(v)) => (v, "exact"),
            // A window's edge: the bound it proved.
            (None, Verdict::Bounds { lo, hi }) if window.is_some() => {
                if hi <= window.map_or(hi, |w| w[0]) {
                    (hi, "upper")
                } else {
                    (lo, "lower")
                }
            }
            _ => {
                return Err(AppError::invalid(format!(
                    "interrupted while solving line {} of shard {index}; nothing written",
                    line.id
                )))
            }
        };
        let mut p = pos;
        // A bound has no line of its own.
        let line_moves = if bound == "exact" { &out.pv[..] } else { &[] };
        let mut pv = Moves::default();
        for &mv in line_moves {
            pv.push(&game.format_move(&p, mv))?;
            p = game.play(&p, mv);
        }
        let s = out.stats;
        nodes += s.nodes;
        if !args.quiet {
            control.note(&format!(
                "shard {index}: line {} value {value} ({bound}), {} nodes, {:.1} ms",
                line.id,
                s.nodes,
                out.elapsed.as_secs_f64() * 1e3
            ));
        }
        lines.push(Solved {
            id: line.id,
            value,
            bound: bound.into(),
            pv,
            nodes: s.nodes,
            forced: s.forced,
            // Always written: a line settled without a search counts 0, not unknown.
            searched: Some(s.searched),
            leaves: s.leaves,
            cutoffs: s.cutoffs,
            first_move_cutoffs: s.first_move_cutoffs,
            max_ply: s.max_ply,
            ms: out.elapsed.as_secs_f64() * 1e3,
        });
    }
    Ok(ShardResult {
        cutoff_shard: RESULT_VERSION,
        digest: split.digest.clone(),
        shard: index,
        shards: split.header.shards,
        window: args.window,
        lines,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}
