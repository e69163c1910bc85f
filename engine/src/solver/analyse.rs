//! Scoring every move of a position ([`Solver::analyse`]): each move's child solved exactly,
//! or, within a time or node budget, what was proved of each move and a best guess for it.

use super::{SolveError, Solver, Threads, Verdict};
use crate::clock::Instant;
use crate::game::{Game, MoveBuffer, Notation, Value};
use crate::search::Algorithm;
use crate::tt::TranspositionTable;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// The first share of nodes each unsettled move gets in a budgeted analysis: enough to settle
/// a position a few stones from the end, small beside any budget a person waits for.
const FIRST_SHARE: u64 = 1 << 12;

/// How each round's share grows on the last: four times, so that the rounds before the last
/// cost a third of it, and a move's table entries from one round seed the next.
const SHARE_GROWTH: u64 = 4;

/// One move of an [`Analysis`]: its proven bounds and best guess, from the side to move at
/// the analysed position. A move the search settled has `lo == hi == guess`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore<M> {
    /// The move.
    pub mv: M,
    /// Proven: the move's value is at least this.
    pub lo: Value,
    /// Proven: the move's value is at most this.
    pub hi: Value,
    /// The value believed most likely: the exact value where proved, else the deepest
    /// finished depth-limited search's value (the game's static evaluation if none
    /// finished), moved inside `lo..=hi`.
    pub guess: Value,
    /// The plies the guess looked ahead from the analysed position, `None` where the value
    /// is exact or no depth-limited search finished.
    pub depth: Option<usize>,
}

impl<M> MoveScore<M> {
    /// The move's exact value, if proved.
    pub fn exact(&self) -> Option<Value> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

/// Every legal move of a position with its value: what [`Solver::analyse`] returns.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// Each legal move in the game's order, except that moves written as plain numbers
    /// (columns, cells, amounts) are sorted by that number. Without a budget every value is
    /// exact and a stopped search lists only the moves scored before; with one, every move
    /// is listed, settled or with what was proved of it.
    pub moves: Vec<MoveScore<M>>,
    /// Nodes searched, over all the moves.
    pub nodes: u64,
    /// True if the stop flag was raised before every move was scored.
    pub stopped: bool,
    /// Each listed move's place in the game's own move order (centre first in Connect
    /// Four), which breaks ties in [`Analysis::best`].
    rank: Vec<usize>,
    /// Each listed move's lower bound as proved by a test of its value (a search, a known
    /// value), not by a depth's horizon, which breaks ties in [`Analysis::best`].
    tested: Vec<Value>,
}

impl<M: Copy> Analysis<M> {
    /// The move to play and its value (its guess where unsettled): the highest guess, then
    /// the highest lower bound proved by a test of the move's value, then the first in the
    /// game's own move order (where a game lists its likeliest moves first, as Connect Four
    /// does the centre). Bounds a depth proves
    /// ([`Report::horizon_bounds`](super::Report::horizon_bounds)) do not break ties: they
    /// differ with the depth each move's search reached, not with the moves' merit. A move
    /// proved at least as good as every other's upper bound is always among the highest
    /// guesses. `None` without moves.
    pub fn best(&self) -> Option<(M, Value)> {
        let key = |i: usize| {
            let m = &self.moves[i];
            (m.guess, self.tested[i], std::cmp::Reverse(self.rank[i]))
        };
        (0..self.moves.len())
            .max_by_key(|&i| key(i))
            .map(|i| (self.moves[i].mv, self.moves[i].guess))
    }

    /// The bounds proved for the position's value: the best lower and the best upper bound
    /// of its moves (`None` without moves). Equal where the value is proved.
    pub fn bounds(&self) -> Option<(Value, Value)> {
        self.moves
            .iter()
            .map(|m| (m.lo, m.hi))
            .reduce(|(a, b), (c, d)| (a.max(c), b.max(d)))
    }

    /// True if every move listed has its exact value.
    pub fn settled(&self) -> bool {
        self.moves.iter().all(|m| m.exact().is_some())
    }
}

/// A move being analysed: its position and what is known of it so far.
struct Row<P, M> {
    child: P,
    score: MoveScore<M>,
    /// The move's lower bound from tests of its value alone (see `Analysis::tested`).
    tested: Value,
}

impl<P, M> Row<P, M> {
    /// Narrows the move's bounds to the child's `lo..=hi` proved by a test of its value
    /// (from the child's side), keeping the guess inside them.
    fn narrow(&mut self, lo: Value, hi: Value) {
        self.narrow_by_depth(lo, hi);
        self.tested = self.tested.max(-hi).min(self.score.hi);
    }

    /// [`Row::narrow`] with bounds a depth's horizon proved, which break no ties.
    fn narrow_by_depth(&mut self, lo: Value, hi: Value) {
        let s = &mut self.score;
        s.lo = s.lo.max(-hi);
        s.hi = s.hi.min(-lo);
        if s.lo > s.hi {
            // Both were proved: they cannot cross. Should a game's knowledge disagree with
            // itself, the latest proof wins rather than an empty range.
            (s.lo, s.hi) = (-hi, -lo);
        }
        s.guess = s.guess.clamp(s.lo, s.hi);
        if s.lo == s.hi {
            s.depth = None;
        }
    }
}

impl<'a, G: Game> Solver<'a, G> {
    /// Scores every legal move of the position: plays it and solves the child with the
    /// null-window solver, each with this solver's table, threads and stop flag, the value
    /// negated to be the mover's. A finished position has no moves. Takes no depth, weak
    /// solving, window or algorithm other than the solver; a raised stop flag ends it early,
    /// with [`Analysis::stopped`] set.
    ///
    /// With a time or node budget ([`Solver::time`], [`Solver::nodes`]) it returns within
    /// it, every move with the bounds proved for it and a best guess: in rounds, each
    /// unsettled move gets an exact solve capped at a share of nodes (its proven bounds
    /// kept) and then iterative deepening capped at the same share (its deepest finished
    /// value the guess, and the bounds that value proves where the game can tell,
    /// [`Report::horizon_bounds`](super::Report::horizon_bounds)), the share growing
    /// fourfold a round, until every move is settled or the budget is spent.
    pub fn analyse(self) -> Result<Analysis<G::Move>, SolveError>
    where
        G: Notation,
    {
        if self.depth.is_some()
            || self.weak
            || self.window.is_some()
            || self.algo.is_some_and(|a| a != Algorithm::Solve)
        {
            return Err(SolveError::Settings(
                "analyse solves every move: no depth, weak solving, window or algorithm other than solve".into(),
            ));
        }
        if self.threads == Threads::Exactly(0) {
            return Err(SolveError::Settings("0 threads asked for".into()));
        }
        let budget = self.time.is_some() || self.nodes.is_some();
        let start = Instant::now();
        let game = self.game;
        let pos = &self.root;
        let mut list = G::Moves::default();
        if game.outcome(pos).is_none() {
            game.moves(pos, &mut list);
        }
        // Each move with its place in the game's order.
        let mut moves: Vec<(usize, G::Move)> =
            list.as_slice().iter().copied().enumerate().collect();
        let numbers: Option<Vec<u64>> = moves
            .iter()
            .map(|&(_, m)| game.format_move(pos, m).parse().ok())
            .collect();
        if let Some(numbers) = numbers {
            let mut keyed: Vec<(u64, (usize, G::Move))> = numbers.into_iter().zip(moves).collect();
            keyed.sort_by_key(|&(n, _)| n);
            moves = keyed.into_iter().map(|(_, m)| m).collect();
        }
        // One table and one pool for every move's search.
        let mut owned = None;
        let tt = self.table.open(&mut owned)?;
        let owned_pool;
        let pool = match (self.pool, self.threads) {
            (Some(p), _) => Some(p),
            (None, Threads::Exactly(1)) => None,
            (None, t) => {
                let want = match t {
                    Threads::Exactly(n) => n,
                    Threads::Auto => std::thread::available_parallelism()
                        .map(|n| n.get())
                        .unwrap_or(1),
                };
                if want > 1 {
                    owned_pool = super::make_pool(want)?;
                    Some(&owned_pool)
                } else {
                    None
                }
            }
        };
        let (lo, hi) = game.value_range();
        let rank: Vec<usize> = moves.iter().map(|&(r, _)| r).collect();
        let mut rows: Vec<Row<G::Pos, G::Move>> = moves
            .into_iter()
            .map(|(_, mv)| {
                let child = game.play(pos, mv);
                let score = MoveScore {
                    mv,
                    lo,
                    hi,
                    guess: (-game.evaluate(&child)).clamp(lo, hi),
                    depth: None,
                };
                Row {
                    child,
                    score,
                    tested: lo,
                }
            })
            .collect();
        for row in &mut rows {
            if let Some(v) = self.known.and_then(|known| known(&row.child)) {
                row.narrow(v, v);
            }
        }
        if let Some(p) = self.move_progress {
            p.total.store(rows.len(), Relaxed);
        }
        let mut out = Analysis {
            moves: Vec::with_capacity(rows.len()),
            nodes: 0,
            stopped: false,
            rank,
            tested: Vec::new(),
        };
        if budget {
            self.within_budget(&mut rows, tt, pool, start, &mut out)?;
        } else {
            for (i, row) in rows.iter_mut().enumerate() {
                if row.score.exact().is_some() {
                    continue;
                }
                let r = self
                    .child_solver(row.child, tt, pool, Some(i))
                    .algorithm(Algorithm::Solve)
                    .run()?;
                out.nodes += r.stats.nodes;
                match r.verdict {
                    Verdict::Exact(v) => row.narrow(v, v),
                    _ => {
                        out.stopped = true;
                        rows.truncate(i);
                        break;
                    }
                }
            }
        }
        out.tested = rows.iter().map(|r| r.tested).collect();
        out.moves = rows.into_iter().map(|r| r.score).collect();
        out.rank.truncate(out.moves.len());
        if let Some(p) = self.move_progress {
            p.current.store(out.moves.len(), Relaxed);
        }
        Ok(out)
    }

    /// A search of `child` with this solver's table, pool, threads, stop flag and table-file
    /// keeper, publishing into the `index`th move's progress if watched.
    fn child_solver<'s>(
        &'s self,
        child: G::Pos,
        tt: &'s TranspositionTable,
        pool: Option<&'s rayon::ThreadPool>,
        index: Option<usize>,
    ) -> Solver<'s, G> {
        let mut solver = Solver::new(self.game)
            .position(child)
            .table(tt)
            .parallel(self.parallel)
            .thread_policy(self.threads);
        if let Some(pool) = pool {
            solver = solver.pool(pool);
        }
        if let Some(stop) = self.stop {
            solver = solver.stop_flag(stop);
        }
        if let Some(k) = self.keep {
            solver = solver.keep(k);
        }
        let watch = self.move_progress.zip(index).and_then(|(p, i)| {
            p.current.store(i, Relaxed);
            p.moves.get(i)
        });
        if let Some(p) = watch {
            solver = solver.progress(p);
        }
        solver
    }

    /// The rounds of a budgeted [`Solver::analyse`] (see there), from `start`.
    fn within_budget(
        &self,
        rows: &mut [Row<G::Pos, G::Move>],
        tt: &TranspositionTable,
        pool: Option<&rayon::ThreadPool>,
        start: Instant,
        out: &mut Analysis<G::Move>,
    ) -> Result<(), SolveError> {
        let deadline = self.time.map(|t| start + t);
        // What is left of the budget after `spent` nodes: `None` once it is gone.
        let left = |spent: u64| -> Option<(Option<Duration>, Option<u64>)> {
            let time = match deadline {
                Some(d) => Some(
                    d.checked_duration_since(Instant::now())
                        .filter(|t| !t.is_zero())?,
                ),
                None => None,
            };
            let nodes = match self.nodes {
                Some(n) => Some(n.checked_sub(spent).filter(|&n| n > 0)?),
                None => None,
            };
            Some((time, nodes))
        };
        let interrupted = || self.stop.is_some_and(|f| f.load(Relaxed));
        let mut share = FIRST_SHARE;
        loop {
            for exact in [true, false] {
                for (i, row) in rows.iter_mut().enumerate() {
                    if row.score.exact().is_some() {
                        continue;
                    }
                    let Some((time, nodes)) = left(out.nodes) else {
                        return Ok(());
                    };
                    let cap = nodes.map_or(share, |n| n.min(share));
                    let r = if exact {
                        self.child_solver(row.child, tt, pool, Some(i))
                            .algorithm(Algorithm::Solve)
                            .exact_nodes(Some(cap))
                            .exact_time(time)
                            .run()?
                    } else {
                        self.child_solver(row.child, tt, pool, None)
                            .nodes(Some(cap))
                            .time(time)
                            .run()?
                    };
                    out.nodes += r.stats.nodes;
                    if interrupted() {
                        out.stopped = true;
                        return Ok(());
                    }
                    match r.verdict {
                        Verdict::Exact(v) => row.narrow(v, v),
                        Verdict::Bounds { lo, hi } => row.narrow(lo, hi),
                        Verdict::DepthLimited { value, depth } => {
                            if let Some((lo, hi)) = r.horizon_bounds {
                                row.narrow_by_depth(lo, hi);
                            }
                            let s = &mut row.score;
                            if s.exact().is_none() {
                                s.guess = (-value).clamp(s.lo, s.hi);
                                s.depth = Some(depth + 1);
                            }
                        }
                    }
                }
            }
            if rows.iter().all(|r| r.score.exact().is_some()) {
                return Ok(());
            }
            share = share.saturating_mul(SHARE_GROWTH);
        }
    }
}
