//! `cutoff split GAME [POSITION] --depth K --out FILE [--shards N]`: the frontier K plies
//! below a position, as a split file of independent jobs (see `crate::shard`). `--depth` is
//! the split's depth here, so random trees, whose own depth it gives, cannot be split.

use crate::position::{Describe, GameOptions, GameVisitor};
use crate::shard::{self, GameSpec, Header, Line, Paths, MAX_DEPTH, MAX_PATHS, SPLIT_VERSION};
use crate::{AppError, AppResult};
use cutoff::advanced::Searcher;
use cutoff::knowledge::Knowledge;
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, MoveBuffer};
use rayon::prelude::*;
use std::collections::HashMap;

/// Arguments of `cutoff split`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game, the position to split (its `--depth K`: plies from the position to the
    /// frontier) and the tree games' options.
    pub game: GameOptions,
    /// The split file to write (JSON lines).
    pub out: String,
    /// Shards to group the frontier into, of balanced estimated cost.
    pub shards: usize,
    /// Depth of the shallow search that estimates each frontier position's cost (0: count
    /// positions only).
    pub estimate_depth: usize,
    /// Solve the split position only within this window, `A,B`: each line gets it from its
    /// own side. The first pass of a two-pass solve (`-1,1` says win, draw or loss; a null
    /// window around a guess tests it); `cutoff plan` then picks what the next pass must
    /// solve.
    pub window: Option<[cutoff::Value; 2]>,
}

/// Runs `cutoff split`.
pub fn run(args: &Options) -> Result<String, AppError> {
    if args.shards == 0 || args.shards > shard::MAX_SHARDS {
        return Err(AppError::invalid(format!(
            "\u{1}shards\u{2} must be between 1 and {}, got {}",
            shard::MAX_SHARDS,
            args.shards
        )));
    }
    if args.estimate_depth > shard::MAX_ESTIMATE_DEPTH {
        return Err(AppError::invalid(format!(
            "\u{1}estimate_depth\u{2} must be at most {}, got {}",
            shard::MAX_ESTIMATE_DEPTH,
            args.estimate_depth
        )));
    }
    if args.game.game.is_multi() {
        return Err(AppError::invalid(format!(
            "{} has chance nodes or more than two players: split works on two-player games",
            args.game.game
        )));
    }
    if args.game.game == crate::position::GameKind::Random {
        return Err(AppError::invalid(
            "random trees cannot be split: \u{1}depth\u{2} gives the tree's depth for them and the split's here",
        ));
    }
    // The split file is written at the end: its name is checked before the estimates run.
    crate::files::check_writable(std::path::Path::new(&args.out))?;
    let depth = args.game.depth.ok_or_else(|| {
        AppError::invalid(
            "split needs \u{1}depth\u{2} K, the plies from the position to the frontier",
        )
    })?;
    if depth > MAX_DEPTH {
        return Err(AppError::invalid(format!(
            "\u{1}depth\u{2} must be at most {MAX_DEPTH}, got {depth}"
        )));
    }
    // A position file (a tree, a control matrix) is read once, and its digest recorded so
    // that no later pass runs on another file of that name.
    let (game, sha) = shard::open_game(&args.game)?;
    game.visit(SplitGame { args, depth, sha })
}

struct SplitGame<'a> {
    args: &'a Options,
    depth: usize,
    sha: Option<String>,
}

impl GameVisitor for SplitGame<'_> {
    type Output = Result<String, AppError>;
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        split(game, self.args, self.depth, self.sha)
    }
}

/// The frontier found by the walk: its lines (position, key, paths) in the order met.
struct Frontier<P> {
    lines: Vec<(P, Vec<Vec<String>>)>,
    index: HashMap<u64, usize>,
    paths: usize,
}

fn split<G: Describe>(
    game: &G,
    args: &Options,
    depth: usize,
    sha: Option<String>,
) -> Result<String, AppError> {
    let root = game.initial();
    let mut f = Frontier {
        lines: Vec::new(),
        index: HashMap::new(),
        paths: 0,
    };
    let mut path = Vec::with_capacity(depth);
    walk(game, root, depth, &mut path, &mut f)?;
    let costs = estimate(game, &f, args.estimate_depth);
    let shards = shard::balance(&costs, args.shards);
    let header = Header {
        cutoff_split: SPLIT_VERSION,
        game: GameSpec {
            depth: None,
            position_sha256: sha,
            ..GameSpec::of(&args.game)
        },
        depth,
        shards: args.shards,
        frontier: f.lines.len(),
        paths: f.paths,
        estimate_depth: args.estimate_depth,
        range: {
            let (lo, hi) = game.value_range();
            [lo, hi]
        },
        pass: 1,
        prior_nodes: 0,
        prior_seconds: 0.0,
    };
    let mut lines = Vec::with_capacity(f.lines.len());
    for (id, (pos, paths)) in f.lines.iter().enumerate() {
        let position = game
            .position_arg(args.game.position.as_deref(), &paths[0], pos)
            .unwrap_or_else(|| game.describe(pos));
        let line = Line {
            id,
            shard: Some(shards[id]),
            cost: costs[id],
            position,
            paths: {
                let mut p = Paths::default();
                for path in paths {
                    p.push(path)?;
                }
                p
            },
            // The window is the split position's: a line an odd number of plies below it
            // sees it from the other side.
            window: args.window.map(|[a, b]| {
                if paths[0].len() % 2 == 1 {
                    [-b, -a]
                } else {
                    [a, b]
                }
            }),
            known: None,
        };
        lines.push(line);
    }
    shard::write_split(&args.out, &header, &lines)?;
    let mut load = vec![0u64; args.shards];
    let mut count = vec![0usize; args.shards];
    for (i, &s) in shards.iter().enumerate() {
        load[s] = load[s].saturating_add(costs[i]);
        count[s] += 1;
    }
    let (lo, hi) = (
        load.iter().min().copied().unwrap_or(0),
        load.iter().max().copied().unwrap_or(0),
    );
    Ok(format!(
        "{}: {} frontier positions ({} paths) {} plies below the position, {} shards of {}-{} \
         positions, estimated cost {lo}-{hi} nodes a shard\n",
        crate::message::shown_path(&args.out),
        f.lines.len(),
        f.paths,
        depth,
        args.shards,
        count.iter().min().copied().unwrap_or(0),
        count.iter().max().copied().unwrap_or(0),
    ))
}

/// Walks every path of `left` more plies from `pos` (`path`: the moves so far), recording the
/// positions where they end, or where the game ends first, in `f`; transpositions and mirror
/// images (the game's table key) go to one line with all their paths.
fn walk<G: Describe>(
    game: &G,
    pos: G::Pos,
    left: usize,
    path: &mut Vec<String>,
    f: &mut Frontier<G::Pos>,
) -> AppResult {
    let (key, _) = G::Knowledge::table_key(game, &pos);
    let mut moves = G::Moves::default();
    if left > 0 && game.outcome(&pos).is_none() && !f.index.contains_key(&key) {
        game.moves(&pos, &mut moves);
    }
    if moves.len() == 0 {
        f.paths += 1;
        if f.paths > MAX_PATHS {
            return Err(AppError::invalid(format!(
                "the frontier has more than {MAX_PATHS} paths: split at a smaller \u{1}depth\u{2}"
            )));
        }
        match f.index.get(&key) {
            Some(&i) => f.lines[i].1.push(path.clone()),
            None => {
                f.index.insert(key, f.lines.len());
                f.lines.push((pos, vec![path.clone()]));
            }
        }
        return Ok(());
    }
    for &mv in moves.as_slice() {
        path.push(game.format_move(&pos, mv));
        walk(game, game.play(&pos, mv), left - 1, path, f)?;
        path.pop();
    }
    Ok(())
}

/// Each line's estimated cost: the nodes of a PVS search `depth` plies deep from it, with a
/// small table of its own (so that the order of the lines does not matter), on every core.
fn estimate<G: Describe>(game: &G, f: &Frontier<G::Pos>, depth: usize) -> Vec<u64> {
    if depth == 0 {
        return vec![1; f.lines.len()];
    }
    f.lines
        .par_iter()
        .map_init(
            || TranspositionTable::new(1),
            |tt, (pos, _)| {
                tt.clear();
                let mut s = Searcher::new(game, *pos, Some(depth)).table(tt);
                s.run(Algorithm::Pvs);
                s.stats().nodes.max(1)
            },
        )
        .collect()
}
