//! Serial game-tree searches, one file per algorithm, all running in a [`Searcher`]: the game,
//! a preallocated arena (one stack frame per ply), the statistics and an [`Observer`] that can record a trace.

mod ab;
mod alphabeta;
pub(crate) mod iterative;
mod minimax;
mod mtdf;
mod negamax;
mod nullwindow;
mod observer;
pub(crate) mod policy;
mod progress;
pub(crate) mod pvs;
mod searcher;
mod stats;
pub mod theory;
mod veb;

pub use iterative::{iterative_deepening, Deepening, Iteration};
pub use observer::{Ending, NoObserver, Observer};
pub use progress::{MoveProgress, Progress, Snapshot};
pub use searcher::{Limits, Searcher};
pub use stats::Stats;

use crate::arena::Arena;
use crate::clock::Instant;
use crate::game::{Game, MoveBuffer, Value};
use crate::knowledge::Knowledge;
use crate::ordering::{MoveOrdering, OrderingConfig};
use crate::tt::{TranspositionTable, TtStats};
use std::sync::atomic::Ordering::Relaxed;

/// The serial search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Minimax with explicit MAX and MIN levels, no pruning.
    Minimax,
    /// Negamax, `V(X) = max(-V(child))`, no pruning.
    Negamax,
    /// Alpha-beta with an (alpha, beta) window, fail-soft.
    AlphaBeta,
    /// Alpha-beta with an (alpha, beta) window, fail-hard.
    AlphaBetaHard,
    /// The course's single-bound alpha-beta `VEB(X, h, D)`: shallow cutoffs only.
    Veb,
    /// The course's two-bound alpha-beta `AB(X, h, LB, D)`: deep cutoffs too.
    Ab,
    /// Principal variation search (NegaScout) with the table and move ordering.
    Pvs,
    /// MTD(f): a sequence of null-window searches converging on the value, with the table.
    Mtdf,
    /// Exact solving by bisecting the value range with null-window searches, with the table.
    Solve,
    /// The game's own exact theory, no tree search (Sprague-Grundy for the control game, a
    /// memoised heap for the take-away games): see [`theory::theory`]. A game without one is
    /// searched by PVS instead (with the table only if the searcher was given one).
    Theory,
}

crate::names::named_choices!(Algorithm, "algorithm", String, |m| m, {
    Minimax => "minimax",
    Negamax => "negamax",
    AlphaBeta => "alphabeta",
    AlphaBetaHard => "alphabeta-hard",
    Veb => "veb",
    Ab => "ab",
    Pvs => "pvs",
    Mtdf => "mtdf",
    Solve => "solve",
    Theory => "theory",
});

impl Algorithm {
    /// True for the searches that use the table, move ordering and game knowledge hooks.
    pub fn uses_table(self) -> bool {
        matches!(self, Algorithm::Pvs | Algorithm::Mtdf | Algorithm::Solve)
    }
}

/// The outcome of a search in the caller's hands.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The root's value from the side to move at the root.
    pub value: Value,
    /// The best root move (`None` at a terminal root).
    pub best_move: Option<M>,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// What the search counted.
    pub stats: Stats,
    /// The algorithm that produced it.
    pub algo: Algorithm,
}

/// How many nodes pass between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 4096;

impl<'g, G: Game> Searcher<'g, G, NoObserver> {
    /// A searcher for `root`, searching at most `depth` plies (`None`: to the end of the game).
    pub fn new(game: &'g G, root: G::Pos, depth: Option<usize>) -> Self {
        Searcher::with_observer(game, root, depth, NoObserver)
    }
}

impl<'g, G: Game, O: Observer<G>> Searcher<'g, G, O> {
    /// A searcher that reports its events to `obs`.
    pub fn with_observer(game: &'g G, root: G::Pos, depth: Option<usize>, obs: O) -> Self {
        let full = game.max_plies(&root);
        let horizon = depth.map_or(full, |d| d.min(full));
        Searcher {
            game,
            arena: Arena::new(root, horizon),
            horizon,
            end: full,
            unfinished: None,
            stats: Stats::default(),
            obs,
            tt: None,
            tt_stats: TtStats::default(),
            ordering: MoveOrdering::new(horizon, G::Knowledge::default_ordering(game)),
            limits: Limits::default(),
            stopped: false,
            next_check: CHECK_EVERY,
            weak: false,
            window: None,
            want_move: true,
            track_pv: true,
            published: 0,
            helped: vec![0; horizon + 1],
        }
    }

    /// Lets the table-driven searches use `tt` (shared with other threads, if any).
    pub fn table(mut self, tt: &'g TranspositionTable) -> Self {
        self.tt = Some(tt);
        self
    }

    /// Forgets the killers and history learnt so far, so that the next search orders moves
    /// as a fresh searcher would.
    pub fn clear_ordering(&mut self) {
        self.ordering.clear();
    }

    /// Chooses the move-ordering heuristics of the table-driven searches.
    pub fn ordering(mut self, config: OrderingConfig) -> Self {
        self.ordering.config = config;
        self
    }

    /// Replaces the limits of the next runs.
    pub fn set_limits(&mut self, limits: Limits<'g>) {
        self.limits = limits;
    }

    /// Sets the node, time and stop-flag limits.
    pub fn limits(mut self, limits: Limits<'g>) -> Self {
        self.limits = limits;
        self
    }

    /// Makes [`Algorithm::Solve`] bisect only `lo..=hi` (clipped to the game's range), as
    /// fail-hard alpha-beta with the window `(lo, hi)` would: a result strictly between `lo`
    /// and `hi` is the value; `lo` says the value is at most `lo`, `hi` that it is at least
    /// `hi`. Cheaper than an exact solve when only a bound is needed (a split's second pass).
    pub fn window(mut self, window: Option<(Value, Value)>) -> Self {
        self.window = window;
        self
    }

    /// Makes [`Algorithm::Solve`] settle for win, draw or loss.
    pub fn weak(mut self, weak: bool) -> Self {
        self.weak = weak;
        self
    }

    /// Whether [`Algorithm::Solve`] also finds a best move and its line (default yes); test
    /// suites that only check values skip that extra pass.
    pub fn want_move(mut self, want: bool) -> Self {
        self.want_move = want;
        self
    }

    /// Moves the searcher to a new root (searched to `depth` plies, `None`: to the end), keeping
    /// its table, ordering settings and limits. Reallocates only if the arena is too small.
    pub fn set_root(&mut self, root: G::Pos, depth: Option<usize>) {
        let full = self.game.max_plies(&root);
        let horizon = depth.map_or(full, |d| d.min(full));
        if horizon > self.arena.max_ply() {
            self.arena = Arena::new(root, horizon);
            self.helped = vec![0; horizon + 1];
            let config = self.ordering.config;
            self.ordering = MoveOrdering::new(horizon, config);
        } else {
            self.arena.ply_mut(0).pos = root;
        }
        self.horizon = horizon;
        self.end = full;
    }

    /// Sets the depth limit for the next run (at most the size of the arena).
    pub fn set_horizon(&mut self, depth: usize) {
        self.horizon = depth.min(self.arena.max_ply());
    }

    /// True if the last run hit a limit, or met a game that broke its `max_plies` promise
    /// ([`Searcher::unfinished`]): its result is not to be trusted.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The moves from the root to the first position the last run met at the game's own
    /// cap, `max_plies` of the root, without an outcome: the game does not end within
    /// `max_plies` as [`Game::max_plies`] promises (a cycle of moves, or too small a bound).
    /// `None` if the run met none, which is always so for a search to a depth below the cap:
    /// its horizon values are depth-limited evaluations. Where it is `Some`, the run stopped
    /// at once ([`Searcher::stopped`]; the textbook searches too) and its value is not the
    /// game's.
    pub fn unfinished(&self) -> Option<&[G::Move]> {
        self.unfinished.as_deref()
    }

    /// The table counters of the runs so far.
    pub fn tt_stats(&self) -> TtStats {
        self.tt_stats
    }

    /// True once a node, time or stop-flag limit is reached.
    fn over_budget(&mut self) -> bool {
        if let Some(n) = self.limits.nodes {
            if self.stats.nodes >= n {
                return true;
            }
        }
        if let Some(flag) = self.limits.stop {
            if flag.load(Relaxed) {
                return true;
            }
        }
        if let Some(d) = self.limits.deadline {
            if Instant::now() >= d {
                return true;
            }
        }
        false
    }

    /// Checks the policy's stop condition (every node for a parallel task) and the limits
    /// (every few thousand nodes); true once the search must unwind.
    #[inline(always)]
    pub(crate) fn poll_stop<P: policy::Policy<'g, G, O>>(&mut self, policy: &P) -> bool {
        if self.stats.nodes < self.next_check {
            // Between two checks of the budgets: one comparison for the serial search, and a
            // parallel task's look at the split points above it.
            if P::EVERY_NODE && !self.stopped && policy.aborted(self.stats.nodes) {
                self.stopped = true;
            }
            return self.stopped;
        }
        self.poll_stop_slow(policy)
    }

    /// [`Searcher::poll_stop`] beyond its fast path.
    #[inline(never)]
    fn poll_stop_slow<P: policy::Policy<'g, G, O>>(&mut self, policy: &P) -> bool {
        if self.stopped {
            return true;
        }
        if policy.aborted(self.stats.nodes) {
            self.stopped = true;
            return true;
        }
        if self.stats.nodes >= self.next_check {
            self.next_check = self.stats.nodes + policy.check_every(CHECK_EVERY);
            if let Some(limit) = self.limits.nodes {
                // The node budget is hard: the next check falls on it exactly.
                self.next_check = self.next_check.min(limit.max(self.stats.nodes + 1));
            }
            self.publish();
            self.stopped = self.over_budget();
            // A limit hit by one worker stops them all.
            self.stopped = policy.report(self.stats.nodes, self.stopped);
        }
        self.stopped
    }

    /// Nodes counted since the last [`Searcher::take_counts`] (or the last run).
    pub(crate) fn nodes(&self) -> u64 {
        self.stats.nodes
    }

    /// The depth limit, in plies from the root.
    pub(crate) fn horizon(&self) -> usize {
        self.horizon
    }

    /// The game.
    pub(crate) fn game(&self) -> &'g G {
        self.game
    }

    /// The position at `ply` of the current line.
    pub(crate) fn position(&self, ply: usize) -> G::Pos {
        self.arena.ply(ply).pos
    }

    /// The moves generated (and ordered) at `ply`.
    pub(crate) fn moves(&self, ply: usize) -> &G::Moves {
        &self.arena.ply(ply).moves
    }

    /// Makes the search unwind: its result is not to be used.
    pub(crate) fn stop(&mut self) {
        self.stopped = true;
    }

    /// Prepares this searcher for a parallel task: the subtree of `pos`, placed at `ply` of
    /// a search whose horizon is `horizon`, below the line `above` (the splitting searcher's
    /// positions from the root); no stop left over from an earlier task.
    pub(crate) fn start_task(&mut self, above: &Arena<G>, ply: usize, pos: G::Pos, horizon: usize) {
        self.horizon = horizon;
        // What an abandoned task left behind is not this one's.
        self.helped.fill(0);
        self.stopped = false;
        self.unfinished = None;
        // The line from the root, so that a task can name it (`promise_broken`).
        for p in 0..ply {
            self.arena.ply_mut(p).pos = above.ply(p).pos;
        }
        self.arena.ply_mut(ply).pos = pos;
    }

    /// The splitting searcher's positions, for its tasks' [`Searcher::start_task`].
    pub(crate) fn arena(&self) -> &Arena<G> {
        &self.arena
    }

    /// Records that other searchers took `nodes` for the subtrees split off at `ply`.
    pub(crate) fn add_helped(&mut self, ply: usize, nodes: u64) {
        if let Some(h) = self.helped.get_mut(ply) {
            *h += nodes;
        }
    }

    /// The nodes other searchers took below the node ending at `ply`, passed on to its
    /// parent's (the parent's subtree holds them too) and cleared for the next node there.
    pub(crate) fn take_helped(&mut self, ply: usize) -> u64 {
        let h = self.helped.get_mut(ply).map_or(0, std::mem::take);
        if h > 0 && ply > 0 {
            self.helped[ply - 1] += h;
        }
        h
    }

    /// The nodes other searchers took below `ply` and above, not yet passed up: what a
    /// task's subtree owes its splitter.
    pub(crate) fn helped_total(&self) -> u64 {
        self.helped.iter().sum()
    }

    /// Makes the next node look at the budgets (a parallel worker's first node looks at the
    /// shared node count at once).
    pub(crate) fn check_now(&mut self) {
        self.next_check = 0;
    }

    /// Jitters the move order below the root by `seed` (Lazy SMP's helpers).
    pub(crate) fn jitter(&mut self, seed: u64) {
        self.ordering.config.jitter = seed;
    }

    /// Hands over the counters (published to `limits.progress` first) and resets them.
    pub(crate) fn take_counts(&mut self) -> (Stats, TtStats) {
        self.publish();
        self.published = 0;
        self.next_check = 0;
        (
            std::mem::take(&mut self.stats),
            std::mem::take(&mut self.tt_stats),
        )
    }

    /// Adds the nodes counted since the last call to `limits.progress`, if any.
    pub(crate) fn publish(&mut self) {
        if let Some(p) = self.limits.progress {
            p.add_nodes(self.stats.nodes - self.published);
            self.published = self.stats.nodes;
        }
    }

    /// Runs `algo` from the root; returns the root value (side to move) and the best move.
    /// The PV is left in [`Searcher::pv`]. Allocates nothing.
    pub fn run(&mut self, algo: Algorithm) -> (Value, Option<G::Move>) {
        self.run_with(algo, &policy::Serial)
    }

    /// [`Searcher::run`] with `Pvs` and `Solve` sharing their work as `policy` says (the
    /// other algorithms are serial only, and ignore it).
    pub(crate) fn run_with<P: policy::Policy<'g, G, O>>(
        &mut self,
        algo: Algorithm,
        policy: &P,
    ) -> (Value, Option<G::Move>) {
        let root = self.arena.ply(0).pos;
        self.arena.reset(root);
        self.stats = Stats::default();
        self.published = 0;
        self.stopped = false;
        self.unfinished = None;
        self.next_check = policy
            .check_every(CHECK_EVERY)
            .min(self.limits.nodes.unwrap_or(u64::MAX));
        if let Some(tt) = self.tt {
            tt.new_search();
        }
        let value = match algo {
            Algorithm::Minimax => {
                let side = self.game.to_move(&root);
                side.sign() * self.minimax(0)
            }
            Algorithm::Negamax => self.negamax(0),
            Algorithm::AlphaBeta => self.alphabeta(0, -crate::INF, crate::INF, false),
            Algorithm::AlphaBetaHard => self.alphabeta(0, -crate::INF, crate::INF, true),
            Algorithm::Veb => self.veb(0, crate::INF),
            Algorithm::Ab => self.ab(0, -crate::INF, crate::INF),
            Algorithm::Pvs => self.node(0, -crate::INF, crate::INF, policy),
            Algorithm::Mtdf => self.mtdf(0),
            Algorithm::Solve => {
                let r = self.solve(policy);
                self.publish();
                return r;
            }
            Algorithm::Theory => return self.run_theory(root),
        };
        self.publish();
        let mut best = self.arena.pv().first().copied();
        if best.is_none() && algo.uses_table() && !self.stopped {
            // The game's knowledge can settle the root without a move (an immediate win):
            // find the move that achieves the value.
            best = self.root_move(value);
        }
        (value, best)
    }

    /// [`Algorithm::Theory`]: the game's theory, one node; PVS if the game has none.
    fn run_theory(&mut self, root: G::Pos) -> (Value, Option<G::Move>) {
        // The theory gives game values: a depth-limited search is left to PVS, whose value
        // at the horizon is the evaluation's.
        let to_the_end = self.horizon >= self.game.max_plies(&root);
        if let Some((value, best, line)) = to_the_end
            .then(|| theory::theory(self.game, root))
            .flatten()
        {
            self.stats.nodes = 1;
            self.stats.leaves = u64::from(self.game.outcome(&root).is_some());
            let row = &mut self.arena.ply_mut(0).pv;
            row.clear();
            row.extend_from_slice(&line);
            self.publish();
            return (value, best);
        }
        let value = self.pvs(0, -crate::INF, crate::INF);
        self.publish();
        let mut best = self.arena.pv().first().copied();
        if best.is_none() && !self.stopped {
            best = self.root_move(value);
        }
        (value, best)
    }

    /// The principal variation of the last run.
    pub fn pv(&self) -> &[G::Move] {
        self.arena.pv()
    }

    /// The statistics of the last run.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The observer, to read what it recorded.
    pub fn observer(&self) -> &O {
        &self.obs
    }

    /// Hands the observer back.
    pub fn into_observer(self) -> O {
        self.obs
    }

    /// Counts a node at `ply` and returns its value if it is a leaf (terminal or at the
    /// horizon); the leaf is counted and settled.
    #[inline]
    pub(crate) fn enter(&mut self, ply: usize) -> Option<Value> {
        self.enter_with(ply, true)
    }

    /// [`Searcher::enter`], testing for the end of the game only if `terminal_test` or at the
    /// horizon (the table-driven searches leave the test to [`Knowledge::analyse`](crate::knowledge::Knowledge::analyse) below the root).
    #[inline(always)]
    pub(crate) fn enter_with(&mut self, ply: usize, terminal_test: bool) -> Option<Value> {
        self.stats.nodes += 1;
        self.stats.max_ply = self.stats.max_ply.max(ply as u32);
        let pos = self.arena.ply(ply).pos;
        if self.track_pv {
            self.arena.ply_mut(ply).pv.clear();
        }
        let at_horizon = ply >= self.horizon;
        if !(terminal_test || at_horizon) {
            return None;
        }
        let leaf = match self.game.outcome(&pos) {
            Some(v) => Some(v),
            None if at_horizon && self.horizon >= self.end => Some(self.promise_broken(ply)),
            None if at_horizon => Some(self.game.evaluate(&pos)),
            None => None,
        };
        if let Some(v) = leaf {
            self.stats.leaves += 1;
            self.obs.settled(ply, &pos, v);
        }
        leaf
    }

    /// A position at `ply`, the game's own cap, without an outcome: the game broke its
    /// `max_plies` promise. Records the line to it (the first one met), publishes it to
    /// `limits.progress` for the solver and stops the run; the value returned stands in for
    /// the leaf's and is thrown away. Out of line and allocating only here: honest games
    /// never come this way.
    #[cold]
    #[inline(never)]
    fn promise_broken(&mut self, ply: usize) -> Value {
        self.stopped = true;
        if self.unfinished.is_none() {
            let line = self.line_to(ply);
            if let Some(p) = self.limits.progress {
                p.unfinished(self.end, || line.iter().map(|m| format!("{m:?}")).collect());
            }
            self.unfinished = Some(line);
        }
        0
    }

    /// The moves from the root to the position at `ply`, worked out from the positions in the
    /// arena (the search keeps positions, not moves): at each ply the legal move whose
    /// position has the next ply's key. The legal moves are generated afresh, as a parallel
    /// task's arena holds its line's positions but not their move lists. Stops early if no
    /// move fits, which a game whose `play` and `key` agree never makes happen.
    fn line_to(&self, ply: usize) -> Vec<G::Move> {
        let mut line = Vec::with_capacity(ply);
        let mut moves = G::Moves::default();
        for p in 0..ply {
            let (here, next) = (self.arena.ply(p).pos, self.arena.ply(p + 1).pos);
            let key = self.game.key(&next);
            self.game.moves(&here, &mut moves);
            let leads = |m: &&G::Move| self.game.key(&self.game.play(&here, **m)) == key;
            match moves.as_slice().iter().find(leads) {
                Some(&m) => line.push(m),
                None => break,
            }
        }
        line
    }

    /// Fills ply `ply`'s move list and returns how many moves there are.
    #[inline]
    pub(crate) fn expand(&mut self, ply: usize) -> usize {
        let p = self.arena.ply_mut(ply);
        self.game.moves(&p.pos, &mut p.moves);
        p.moves.len()
    }

    /// The `i`-th move at `ply`; writes the resulting position into ply `ply + 1`.
    #[inline(always)]
    pub(crate) fn descend(&mut self, ply: usize, i: usize) -> G::Move {
        let mv = self.arena.ply(ply).moves.as_slice()[i];
        let child = self.game.play(&self.arena.ply(ply).pos, mv);
        self.arena.ply_mut(ply + 1).pos = child;
        mv
    }

    /// [`Searcher::descend`] at a node whose moves and hints [`Knowledge::analyse`](crate::knowledge::Knowledge::analyse) wrote (the
    /// table-driven searches' move loops): the game may reuse its analysis of the move.
    #[inline(always)]
    pub(crate) fn descend_analysed(&mut self, ply: usize, i: usize) -> G::Move {
        let p = self.arena.ply(ply);
        let mv = p.moves.as_slice()[i];
        let child = G::Knowledge::play_analysed(self.game, &p.pos, mv, &p.scratch);
        self.arena.ply_mut(ply + 1).pos = child;
        mv
    }

    /// Records a fail-high at `ply` by move number `i` and reports the moves it pruned.
    #[inline(always)]
    pub(crate) fn cutoff(&mut self, ply: usize, i: usize, bound: Value) {
        self.stats.cutoffs += 1;
        if i == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        let n = self.arena.ply(ply).moves.len();
        for j in i + 1..n {
            let p = self.arena.ply(ply);
            let (pos, mv) = (p.pos, p.moves.as_slice()[j]);
            self.obs.pruned(ply, &pos, mv, bound);
        }
    }

    /// Tells the observer that the node at `ply` is entered with the window `(alpha, beta)`.
    #[inline(always)]
    pub(crate) fn opened(&mut self, ply: usize, alpha: Value, beta: Value) {
        let pos = self.arena.ply(ply).pos;
        self.obs.entered(ply, &pos, alpha, beta);
    }

    /// Reports that the node at `ply` settled on `value`.
    #[inline(always)]
    pub(crate) fn settle(&mut self, ply: usize, value: Value) {
        let pos = self.arena.ply(ply).pos;
        self.obs.settled(ply, &pos, value);
    }
}

/// Searches `root` with `algo` to `depth` plies (`None`: to the end) and returns the result.
pub fn search<G: Game>(
    game: &G,
    root: G::Pos,
    algo: Algorithm,
    depth: Option<usize>,
) -> SearchResult<G::Move> {
    let mut s = Searcher::new(game, root, depth);
    let (value, best_move) = s.run(algo);
    SearchResult {
        value,
        best_move,
        pv: s.pv().to_vec(),
        stats: s.stats(),
        algo,
    }
}
