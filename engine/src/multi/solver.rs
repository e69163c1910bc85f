//! [`MultiSolver`]: the way into the chance and n-player searches, in the builder style of the
//! two-player [`Solver`](crate::solver::Solver).

use super::{
    search_observed, BoundsTable, MultiAlgorithm, MultiError, MultiGame, MultiLimits,
    MultiObserver, MultiResult, NoMultiObserver,
};
use crate::search::Progress;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A search of a [`MultiGame`], set up step by step and run once: the position (the game's
/// start by default), the algorithm (Star2 for two players, max^n with shallow pruning for
/// more, by default), budgets, a stop flag, leaf bounds, progress counters and a table.
///
/// ```
/// use cutoff::games::chance::pig::Pig;
/// use cutoff::multi::{MultiAlgorithm, MultiSolver};
///
/// // Two players, to 6 points, a six-sided die, at most 10 moves.
/// let pig = Pig::new(2, 6, 6, 10, false).expect("valid rules");
/// let r = MultiSolver::new(&pig).algorithm(MultiAlgorithm::Star1).run().expect("fits the game");
/// assert!(r.exact && (-1.0..=1.0).contains(&r.value));
/// ```
pub struct MultiSolver<'a, G: MultiGame> {
    game: &'a G,
    root: G::Pos,
    algo: MultiAlgorithm,
    limits: MultiLimits<'a>,
    table: Option<&'a BoundsTable>,
}

impl<'a, G: MultiGame> MultiSolver<'a, G> {
    /// A search of `game` from its start, with the default algorithm and no limits.
    pub fn new(game: &'a G) -> Self {
        let algo = if game.players() == 2 {
            MultiAlgorithm::Star2
        } else {
            MultiAlgorithm::Maxn
        };
        MultiSolver {
            game,
            root: game.initial(),
            algo,
            limits: MultiLimits::default(),
            table: None,
        }
    }

    /// Searches from `root` instead of the game's start.
    pub fn position(mut self, root: G::Pos) -> Self {
        self.root = root;
        self
    }

    /// The algorithm (see [`MultiAlgorithm`]).
    pub fn algorithm(mut self, algo: MultiAlgorithm) -> Self {
        self.algo = algo;
        self
    }

    /// The deepest iteration, in plies (moves and outcomes both count); `None`: to the end.
    pub fn depth(mut self, depth: Option<usize>) -> Self {
        self.limits.depth = depth;
        self
    }

    /// A node budget; the search then deepens one ply at a time.
    pub fn nodes(mut self, budget: Option<u64>) -> Self {
        self.limits.nodes = budget;
        self
    }

    /// A wall-clock budget; the search then deepens one ply at a time.
    pub fn time(mut self, budget: Option<Duration>) -> Self {
        self.limits.time = budget;
        self
    }

    /// A flag another thread may raise to stop the search.
    pub fn stop_flag(mut self, flag: &'a AtomicBool) -> Self {
        self.limits.stop = Some(flag);
        self
    }

    /// Bounds on every leaf value in place of [`MultiGame::payoff_bounds`] (Star1 and Star2).
    pub fn bounds(mut self, bounds: Option<(f64, f64)>) -> Self {
        self.limits.bounds = bounds;
        self
    }

    /// Counters a front end reads while the search runs.
    pub fn progress(mut self, progress: &'a Progress) -> Self {
        self.limits.progress = Some(progress);
        self
    }

    /// The table the algorithms that use one share (see [`MultiAlgorithm::uses_table`]).
    pub fn table(mut self, table: Option<&'a BoundsTable>) -> Self {
        self.table = table;
        self
    }

    /// Runs the search: the last finished iteration's values, or an error when the algorithm
    /// does not fit the game.
    pub fn run(self) -> Result<MultiResult<G::Move>, MultiError> {
        self.run_observed(NoMultiObserver).map(|(r, _)| r)
    }

    /// [`MultiSolver::run`] with an observer that sees every node, handed back after.
    pub fn run_observed<O: MultiObserver<G>>(
        self,
        obs: O,
    ) -> Result<(MultiResult<G::Move>, O), MultiError> {
        search_observed(
            self.game,
            &self.root,
            self.algo,
            &self.limits,
            self.table,
            obs,
        )
    }
}
