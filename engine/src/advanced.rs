//! The lower-level entry points, for what [`Solver`](crate::solver::Solver) does not offer: a
//! [`Searcher`] to drive by hand (one search with its own table, limits and an
//! [`Observer`] that sees every node, as the trace and the course's exercises need), the
//! one-shot [`search()`], iterative deepening serial and parallel, and the parallel driver
//! itself. Everything here is what `Solver` is built on; it picks among them, so most users
//! never need this module.

pub use crate::parallel::{parallel_iterative_deepening, parallel_search, ParallelResult};
pub use crate::search::theory::theory;
pub use crate::search::{
    iterative_deepening, search, Deepening, Ending, Iteration, Limits, NoObserver, Observer,
    SearchResult, Searcher,
};
