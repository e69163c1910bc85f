//! External-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling, 2009), in
//! parallel and reproducible, with two variance reductions.
//!
//! # The algorithm
//!
//! An iteration is one traversal per player, in turn (alternating updates). The traversal for
//! player `p` walks the game's own states ([`Extensive`]), not a flat [`ExtensiveTree`], so it works on
//! games too large to enumerate: at `p`'s decisions it tries every action and adds `value(a) -
//! value` to the regret of each; at another player's decision it samples one action from that
//! player's current strategy (regret matching) and adds the strategy to that player's average
//! ("simple" averaging, unbiased because the other players' reach is what is sampled); at a
//! chance node it samples one outcome.
//!
//! By default iteration `t` weighs `t` in both the regrets and the average ([`Weighting`]).
//!
//! # Less variance, no bias
//!
//! At 1,000 iterations the sampling noise is as large as the exploitability itself (on Kuhn,
//! a NashConv of 0.058 on average, one seed in ten above 0.08), so two standard variance
//! reductions are on by default; each keeps every iteration's estimate unbiased:
//!
//! - **Stratified deals** ([`Mccfr::stratified`]): the chance draws before the first
//!   decision take successive points of a randomly shifted low-discrepancy sequence, so the
//!   deals come in nearly their true proportions over any run of iterations.
//! - **Learned baselines** ([`Mccfr::baseline`]): a sampled node returns
//!   `sum_a p(a) b(a) + v(a*) - b(a*)` rather than `v(a*)`, with `b` a running average of what
//!   each child returned (Schmid et al., 2019).
//!
//! Over seeds 0..400 at 1,000 iterations on Kuhn (`bench/examples/mccfr_seeds.rs`), the NashConv's
//! mean goes from 0.058 (neither) to 0.040 (stratified deals), 0.054 (baselines) and 0.028
//! (both), and the seeds at most 0.05 from 39% to 77%, 47% and 97%. The baselines cost one
//! more table read per sampled action (Kuhn 2.3 to 1.7 million iterations a second, Leduc
//! 500,000 to 470,000). [`Weighting::Uniform`] with a batch of 1 and both off is the
//! textbook algorithm (OpenSpiel's).
//!
//! # The information-set index
//!
//! The information sets are found as the traversals meet them: an index maps each key to a run
//! of consecutive *slots* (one per action), allocated the first time the key is seen, and the
//! regrets and average-strategy sums are dense `f64` arrays indexed by slot. The index is
//! filled from several threads at once, so it is a concurrent map: an ahash `DashMap`, the
//! fastest of four maps measured against each other on Leduc (one `Mutex<HashMap>`, 16 sharded
//! ones, `DashMap` with SipHash and with ahash; the measuring program, settled and removed, is
//! `git show 41c0953:engine/examples/mccfr_index.rs`).
//! Each thread keeps its own copy of the entries it has used in front of the shared map, so
//! once the keys are known the threads share no cache line (see `Scratch::cache`), and the
//! four maps come out within 3% of one another (the shared map is read only for a key the
//! thread has not met); without that copy, with batches of 256 on two threads, the ahash
//! `DashMap` led by 7% over the sharded `Mutex` and by 80% over the single one.
//!
//! # Reproducible in parallel
//!
//! Iterations run in batches of [`Mccfr::batch`]. Within a batch, for each player in turn,
//! every traversal reads the regrets frozen at the start of that player's phase and writes its
//! regret and average changes to a list of its own; the traversals are split into contiguous
//! runs, one per thread, and the lists are added in traversal order afterwards. Each traversal
//! draws from its own splitmix64 generator seeded from (seed, iteration, player). So the
//! numbers do not depend on the number of threads or on their timing, only on the seed and
//! the batch size. A batch of 1 is the textbook sequential algorithm. The baselines are
//! frozen and updated the same way, and the stratified sequence is indexed by iteration. The slot *numbers* do
//! depend on which thread meets a key first; [`Mccfr::state`] renumbers them in key order, so
//! its output is identical too.
//!
//! ```
//! use cutoff::cfr::mccfr::Mccfr;
//! use cutoff::cfr::{nash_conv, ExtensiveTree};
//! use cutoff::games::imperfect::kuhn::Kuhn;
//!
//! let mut m = Mccfr::new(Kuhn).seed(10);
//! m.run(10_000);
//! let tree = ExtensiveTree::build(&Kuhn).unwrap();
//! assert!(nash_conv(&tree, &m.average_strategy_for(&tree)) < 0.05);
//! ```

use super::tree::{Extensive, ExtensiveTree};
use crate::players::Turn;
use crate::rng::{mix, SplitMix64, GOLDEN};
use crossbeam::utils::CachePadded;
use dashmap::DashMap;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

/// The default number of iterations per batch: small enough that the frozen strategy is
/// barely stale (after 1,000 iterations the NashConv over seeds is about that of batch 1),
/// large enough to give two threads some work between merges.
pub const DEFAULT_BATCH: usize = 16;

/// The largest batch: a batch's changes are held in memory until it ends.
pub const MAX_BATCH: usize = 1 << 16;

/// The default weighting.
pub const DEFAULT_WEIGHTING: Weighting = Weighting::Linear;

/// Whether the opening chance draws are stratified by default (see [`Mccfr::stratified`]).
pub const DEFAULT_STRATIFIED: bool = true;

/// The default decay of the learned baselines (see [`Mccfr::baseline`]).
pub const DEFAULT_BASELINE: Option<f64> = Some(0.5);

/// Baseline slots per player: 2^16, 512 KiB each, so memory stays bounded on any game; two
/// histories that share a slot share a baseline, which costs variance, never bias.
const BASELINE_BITS: u32 = 16;

/// How much each iteration's regrets and strategy weigh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Weighting {
    /// Every iteration weighs 1: the textbook algorithm.
    Uniform,
    /// Iteration `t` (from 1) weighs `t` in both the regrets and the average strategy: linear
    /// CFR (Brown and Sandholm, 2019), which they show works with sampling too. The early
    /// iterations, played against nearly uniform strategies, fade out of the average faster.
    Linear,
}

/// An information set's run of slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    first: u32,
    actions: u32,
}

/// The tables' hasher: ahash with fixed keys. The keys are information sets of the engine's
/// own games, not input an attacker picks, so random keys buy nothing; fixed ones need no
/// source of randomness, which WebAssembly in a browser does not have without help, and make
/// runs repeat exactly.
#[derive(Clone, Copy, Debug, Default)]
struct Seeded;

impl std::hash::BuildHasher for Seeded {
    type Hasher = ahash::AHasher;
    fn build_hasher(&self) -> ahash::AHasher {
        ahash::RandomState::with_seeds(
            0x243f_6a88_85a3_08d3,
            0x1319_8a2e_0370_7344,
            0xa409_3822_299f_31d0,
            0x082e_fa98_ec4e_6c89,
        )
        .build_hasher()
    }
}

/// The concurrent information-set index: key to slots, slots allocated on first sight (the
/// map's choice: the module's doc). Full keys are kept, so hash collisions are the map's
/// business and cannot merge two information sets.
struct Index {
    map: DashMap<String, Entry, Seeded>,
    /// Slots allocated so far.
    next: AtomicU32,
}

impl Index {
    fn new() -> Index {
        Index {
            map: DashMap::with_hasher(Seeded),
            next: AtomicU32::new(0),
        }
    }

    /// Slots allocated so far.
    fn slots(&self) -> usize {
        self.next.load(Ordering::Relaxed) as usize
    }

    fn alloc(&self, actions: u32) -> Entry {
        let first = self.next.fetch_add(actions, Ordering::Relaxed);
        assert!(first.checked_add(actions).is_some(), "too many slots");
        Entry { first, actions }
    }

    /// The entry of `key`, if seen.
    fn get(&self, key: &str) -> Option<Entry> {
        self.map.get(key).map(|e| *e)
    }

    /// The first slot of `key`, allocating `actions` slots if it is new. Only a new key is
    /// copied into the map: a known one, nearly every key after the first iterations, costs
    /// a lookup and no allocation. A read lock first, because after the first iterations
    /// nearly every key is known, and `entry` takes the shard's write lock.
    fn slot(&self, key: &str, actions: u32) -> u32 {
        let e = match self.map.get(key) {
            Some(e) => *e,
            None => *self
                .map
                .entry(key.to_owned())
                .or_insert_with(|| self.alloc(actions)),
        };
        assert_eq!(
            e.actions, actions,
            "histories of one information set disagree on the number of actions"
        );
        e.first
    }

    /// Information sets seen.
    fn len(&self) -> usize {
        self.map.len()
    }

    /// Every (key, entry), in no particular order.
    fn entries(&self) -> Vec<(String, Entry)> {
        self.map
            .iter()
            .map(|r| (r.key().clone(), *r.value()))
            .collect()
    }

    /// Inserts a known entry (when restoring a state).
    fn insert(&self, key: String, e: Entry) {
        self.map.insert(key, e);
        self.next.fetch_max(e.first + e.actions, Ordering::Relaxed);
    }
}

/// One information set of an [`MccfrState`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MccfrInfoset {
    /// The key the game gave it.
    pub key: String,
    /// Its number of actions; its slots follow those of the sets before it.
    pub actions: u32,
}

/// Everything an [`Mccfr`] has learnt, for saving and resuming: information sets in key
/// order, their slots consecutive in that order. The same for any number of threads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MccfrState {
    /// The game's name ([`Extensive::name`]).
    pub game: String,
    /// The seed.
    pub seed: u64,
    /// Iterations per batch.
    pub batch: usize,
    /// The weighting of the iterations.
    pub weighting: Weighting,
    /// Whether the opening chance draws are stratified.
    pub stratified: bool,
    /// The decay of the learned baselines, `None` without baselines.
    pub baseline: Option<f64>,
    /// Iterations done.
    pub iterations: u64,
    /// The information sets seen, sorted by key.
    pub infosets: Vec<MccfrInfoset>,
    /// Cumulative regrets, one per slot.
    pub regrets: Vec<f64>,
    /// Average-strategy sums, one per slot.
    pub averages: Vec<f64>,
    /// The baselines that are not zero, as (slot, value), by slot.
    pub baselines: Vec<(u32, f64)>,
}

/// Why [`Mccfr::from_state`] refused a state.
#[derive(Clone, Debug, PartialEq)]
pub enum MccfrStateError {
    /// The state is of another game.
    Game(String),
    /// The arrays' lengths do not match the information sets' slots.
    Slots,
    /// A key appears twice, or a set has no actions.
    Infosets,
    /// A batch size of 0 or above [`MAX_BATCH`].
    Batch,
    /// A baseline decay outside (0, 1], or a baseline that is out of range or not finite.
    Baseline,
    /// A regret or average-strategy sum that is not finite, or a negative average sum.
    Values,
    /// An information set that the game does not have, or with another number of actions
    /// (see [`MccfrState::matches`]).
    Actions(String),
    /// More iterations than a solver runs
    /// ([`MAX_ITERATIONS`](super::state::MAX_ITERATIONS)).
    Iterations(u64),
    /// Regrets, average-strategy sums or baselines (named) beyond what the state's iterations
    /// can make (see [`MccfrState::check`]), at an information set (named) or a baseline slot.
    Beyond(String),
}

impl fmt::Display for MccfrStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MccfrStateError::Game(g) => write!(f, "the state is of game {g}"),
            MccfrStateError::Slots => write!(f, "the state's arrays do not match its slots"),
            MccfrStateError::Infosets => write!(f, "the state's information sets are malformed"),
            MccfrStateError::Batch => write!(f, "the state's batch is not in 1..={MAX_BATCH}"),
            MccfrStateError::Baseline => write!(f, "the state's baselines are malformed"),
            MccfrStateError::Values => write!(f, "the state's regrets or averages are malformed"),
            MccfrStateError::Actions(k) => write!(
                f,
                "the state's information set {} is not this game's",
                crate::game::quote(k)
            ),
            MccfrStateError::Iterations(n) => write!(
                f,
                "the state's {n} iterations are more than the {} a solver runs",
                super::state::MAX_ITERATIONS
            ),
            MccfrStateError::Beyond(why) => write!(f, "the state's {why}"),
        }
    }
}

impl std::error::Error for MccfrStateError {}

/// One thread's buffers, reused from batch to batch so the traversals allocate nothing but
/// the keys the game makes.
#[derive(Default)]
struct Scratch {
    /// (slot, regret change), in traversal order.
    regrets: Vec<(u32, f64)>,
    /// (slot, average-strategy change), in traversal order.
    averages: Vec<(u32, f64)>,
    /// Strategies and action values of the nodes on the current path, as a stack.
    stack: Vec<f64>,
    /// A chance node's probabilities (used before recursing, so one buffer serves all).
    probs: Vec<f64>,
    /// A terminal's payoffs.
    payoffs: Vec<f64>,
    /// (baseline slot, sampled value), in traversal order.
    baselines: Vec<(u32, f64)>,
    /// The information-set key of the node being walked (used before recursing, so one
    /// buffer serves all, and the walk allocates no key).
    key: String,
    /// This thread's copy of the index entries it has used. Reading a shared map writes its
    /// lock word (a `DashMap` shard's read count, a `Mutex`), and that cache line then
    /// bounces between the cores on every lookup; entries never change once made, so each
    /// thread keeps its own, and goes to the shared index only for a key it has not met.
    cache: HashMap<String, Entry, Seeded>,
}

/// The settings of an [`Mccfr`] run, as [`Mccfr::settings`] reports them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MccfrSettings {
    /// The seed the draws come from.
    pub seed: u64,
    /// Threads running the traversals.
    pub threads: usize,
    /// Iterations per batch.
    pub batch: usize,
    /// The weighting of the iterations.
    pub weighting: Weighting,
    /// Whether the opening chance draws are stratified.
    pub stratified: bool,
    /// The learned baselines' decay, `None` without them.
    pub baseline: Option<f64>,
}

/// External-sampling MCCFR on an [`Extensive`] game (see the module comment).
pub struct Mccfr<G: Extensive> {
    game: G,
    seed: u64,
    threads: usize,
    batch: usize,
    weighting: Weighting,
    stratified: bool,
    /// The baselines' decay, if any.
    baseline: Option<f64>,
    /// Learned baselines: one table of 2^[`BASELINE_BITS`] per player, empty without
    /// baselines; frozen during a phase like the regrets.
    baselines: Vec<f64>,
    /// `None` with one thread: no pool to hop through.
    pool: Option<rayon::ThreadPool>,
    index: Index,
    regrets: Vec<f64>,
    averages: Vec<f64>,
    iterations: u64,
    /// One per thread, each on its own cache lines: the threads push to their lists all
    /// the time, and two vectors' lengths on one line would bounce it between the cores.
    scratch: Vec<CachePadded<Scratch>>,
}

impl<G: Extensive + Sync + Send> Mccfr<G> {
    /// A solver for `game` with the default settings: seed 1, one thread, [`DEFAULT_BATCH`],
    /// [`DEFAULT_WEIGHTING`], [`DEFAULT_STRATIFIED`] and [`DEFAULT_BASELINE`]. The setters
    /// below change them, in the builder style of [`Solver`](crate::Solver); set them before
    /// the first [`run`](Self::run).
    pub fn new(game: G) -> Self {
        Mccfr {
            game,
            seed: 1,
            threads: 1,
            batch: DEFAULT_BATCH,
            weighting: DEFAULT_WEIGHTING,
            stratified: DEFAULT_STRATIFIED,
            baseline: None,
            baselines: Vec::new(),
            pool: None,
            index: Index::new(),
            regrets: Vec::new(),
            averages: Vec::new(),
            iterations: 0,
            scratch: vec![CachePadded::default()],
        }
        .baseline(DEFAULT_BASELINE)
    }

    /// Sets the seed the draws come from.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Runs the traversals on `threads` threads (at least 1). The results do not depend on
    /// it: a batch's traversals are drawn from the seed and the batch position alone.
    pub fn threads(mut self, threads: usize) -> Self {
        let threads = threads.max(1);
        self.threads = threads;
        self.pool = (threads > 1).then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("rayon thread pool")
        });
        self.scratch = (0..threads).map(|_| CachePadded::default()).collect();
        self
    }

    /// Sets the iterations per batch (clamped into 1..=[`MAX_BATCH`]; 1 is the sequential
    /// algorithm). The results depend on it; runs resumed on a multiple of it continue
    /// exactly.
    pub fn batch(mut self, batch: usize) -> Self {
        self.batch = batch.clamp(1, MAX_BATCH);
        self
    }

    /// Sets the weighting of the iterations (the default is [`DEFAULT_WEIGHTING`]).
    pub fn weighting(mut self, weighting: Weighting) -> Self {
        self.weighting = weighting;
        self
    }

    /// Stratifies the opening chance draws (the deal, in card games) or draws them
    /// independently. Stratified, traversal `t` of player `p` takes the number
    /// `u = frac(r + t / phi)`, with `r` random per seed and player, and draws the whole
    /// opening from it: the first outcome from `u`, the next from where `u` fell inside the
    /// first outcome's interval, and so on. Each deal is an interval of `[0, 1)` as long as
    /// its probability, and the golden-ratio sequence fills `[0, 1)` about as evenly as any
    /// sequence can, so over any run of traversals every deal comes in nearly its true
    /// proportion; and since `r` is uniform, each traversal's deal is still drawn with its
    /// true probability, so each estimate stays unbiased.
    pub fn stratified(mut self, on: bool) -> Self {
        self.stratified = on;
        self
    }

    /// Sets the learned baselines' decay, or turns them off with `None`.
    ///
    /// With baselines (Schmid et al., "Variance reduction in Monte Carlo counterfactual
    /// regret minimization", 2019), a sampled node's value is not the sampled child's value
    /// alone but `sum_a p(a) b(a) + v(a*) - b(a*)`, where `b(a)` is a running average of the
    /// values that child has returned to this player. Its expectation is the same, so the
    /// estimate stays unbiased, and the better `b` predicts `v`, the smaller its variance.
    ///
    /// # Panics
    ///
    /// If the decay is not in (0, 1]: a baseline that never moves, or overshoots, helps no one.
    pub fn baseline(mut self, decay: Option<f64>) -> Self {
        if let Some(d) = decay {
            assert!(d > 0.0 && d <= 1.0, "baseline decay {d} is not in (0, 1]");
        }
        self.baseline = decay;
        self.baselines = match self.baseline {
            Some(_) => vec![0.0; self.game.players() << BASELINE_BITS],
            None => Vec::new(),
        };
        self
    }

    /// The settings in force.
    pub fn settings(&self) -> MccfrSettings {
        MccfrSettings {
            seed: self.seed,
            threads: self.threads,
            batch: self.batch,
            weighting: self.weighting,
            stratified: self.stratified,
            baseline: self.baseline,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Iterations done (one traversal per player each).
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Information sets seen so far.
    pub fn infosets(&self) -> usize {
        self.index.len()
    }

    /// Slots allocated so far.
    pub fn slots(&self) -> usize {
        self.index.slots()
    }

    /// Runs `iterations` more iterations, in batches aligned on multiples of the batch size
    /// (so `run(a); run(b)` equals `run(a + b)` when `a` is a multiple of it), stopping at
    /// [`MAX_ITERATIONS`](super::state::MAX_ITERATIONS).
    pub fn run(&mut self, iterations: u64) {
        // The whole run inside the pool: each phase's fork then starts from a worker, whose
        // siblings are still awake from the last phase, not from outside through the pool's
        // queue (measured with the settled `git show 41c0953:engine/examples/mccfr_index.rs`).
        match self.pool.take() {
            Some(pool) => {
                pool.install(|| self.run_batches(iterations, true));
                self.pool = Some(pool);
            }
            None => self.run_batches(iterations, false),
        }
    }

    fn run_batches(&mut self, iterations: u64, parallel: bool) {
        // Saturating: a count near `u64::MAX` ends there rather than wrapping round.
        // And never past the cap that the bounds on a saved state assume (see
        // [`MccfrState::check`]).
        let end = self
            .iterations
            .saturating_add(iterations)
            .min(super::state::MAX_ITERATIONS);
        let batch = self.batch as u64;
        while self.iterations < end {
            let next = (self.iterations / batch + 1).saturating_mul(batch);
            let stop = next.min(end);
            for p in 0..self.game.players() {
                self.phase(self.iterations, stop, p, parallel);
            }
            self.iterations = stop;
        }
    }

    /// The traversals of iterations `from..to` for player `p`, against the regrets as they
    /// are now, then their changes added in traversal order.
    fn phase(&mut self, from: u64, to: u64, p: usize, parallel: bool) {
        let n = (to - from) as usize;
        let workers = self.threads.min(n);
        let game = &self.game;
        let index = &self.index;
        let regrets = &self.regrets[..];
        let seed = self.seed;
        let players = game.players();
        let weighting = self.weighting;
        let stratified = self.stratified;
        let shift = shift(seed, p);
        let baselines = &self.baselines[..];
        let with_baselines = self.baseline.is_some();
        let work = |w: usize, sc: &mut Scratch| {
            sc.regrets.clear();
            sc.averages.clear();
            sc.baselines.clear();
            sc.payoffs.resize(players, 0.0);
            // Contiguous runs, so concatenating the workers' lists is traversal order.
            let lo = from + (n * w / workers) as u64;
            let hi = from + (n * (w + 1) / workers) as u64;
            for t in lo..hi {
                let mut walk = Walk {
                    game,
                    index,
                    regrets,
                    weight: match weighting {
                        Weighting::Uniform => 1.0,
                        Weighting::Linear => (t + 1) as f64,
                    },
                    player: p,
                    rng: SplitMix64::new(traversal_seed(seed, t, p)),
                    opening: stratified.then(|| golden_point(shift, t)),
                    baselines: with_baselines.then_some(baselines),
                };
                walk.walk(&game.root(), ROOT_PATH, sc);
            }
        };
        let scratch = &mut self.scratch[..workers];
        match parallel && workers > 1 {
            true => {
                use rayon::prelude::*;
                scratch
                    .par_iter_mut()
                    .enumerate()
                    .for_each(|(w, sc)| work(w, sc));
            }
            false => {
                for (w, sc) in scratch.iter_mut().enumerate() {
                    work(w, sc);
                }
            }
        }
        let slots = self.index.slots();
        self.regrets.resize(slots, 0.0);
        self.averages.resize(slots, 0.0);
        for sc in &self.scratch[..workers] {
            for &(s, d) in &sc.regrets {
                self.regrets[s as usize] += d;
            }
            for &(s, d) in &sc.averages {
                self.averages[s as usize] += d;
            }
            if let Some(decay) = self.baseline {
                for &(s, v) in &sc.baselines {
                    let b = &mut self.baselines[s as usize];
                    *b += decay * (v - *b);
                }
            }
        }
    }

    /// The average strategy of the information set `key`, normalised (uniform where nothing
    /// was added), or `None` if it was never seen.
    pub fn average_of(&self, key: &str) -> Option<Vec<f64>> {
        let e = self.index.get(key)?;
        let mut out = vec![0.0; e.actions as usize];
        self.write_average(e, &mut out);
        Some(out)
    }

    fn write_average(&self, e: Entry, out: &mut [f64]) {
        let f = e.first as usize;
        match self.averages.get(f..f + e.actions as usize) {
            Some(a) => super::normalise(a, out),
            // Slots allocated after the last update: nothing added yet.
            None => out.fill(1.0 / e.actions as f64),
        }
    }

    /// The average strategy in the slot layout of `tree`, a [`ExtensiveTree`] built from the same
    /// game, for [`nash_conv`](super::nash_conv) and the like: information sets never met
    /// are uniform.
    ///
    /// # Panics
    ///
    /// If an information set of `tree` has another number of actions here.
    pub fn average_strategy_for(&self, tree: &ExtensiveTree) -> Vec<f64> {
        let mut s = tree.uniform_strategy();
        for set in tree.infosets() {
            if let Some(e) = self.index.get(&set.key) {
                assert_eq!(e.actions, set.actions, "information set {}", set.key);
                let f = set.first_slot as usize;
                self.write_average(e, &mut s[f..f + set.actions as usize]);
            }
        }
        s
    }

    /// Everything learnt so far, with the slots renumbered in key order (see [`MccfrState`]).
    pub fn state(&self) -> MccfrState {
        let mut entries = self.index.entries();
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let slots = self.index.slots();
        let mut regrets = Vec::with_capacity(slots);
        let mut averages = Vec::with_capacity(slots);
        let mut infosets = Vec::with_capacity(entries.len());
        for (key, e) in entries {
            let r = e.first as usize..(e.first + e.actions) as usize;
            // Slots allocated in a phase but never updated may lie past the arrays' end.
            for s in r {
                regrets.push(self.regrets.get(s).copied().unwrap_or(0.0));
                averages.push(self.averages.get(s).copied().unwrap_or(0.0));
            }
            infosets.push(MccfrInfoset {
                key,
                actions: e.actions,
            });
        }
        MccfrState {
            game: self.game.name().to_string(),
            seed: self.seed,
            batch: self.batch,
            weighting: self.weighting,
            stratified: self.stratified,
            baseline: self.baseline,
            iterations: self.iterations,
            infosets,
            regrets,
            averages,
            baselines: self
                .baselines
                .iter()
                .enumerate()
                .filter(|(_, &b)| b != 0.0)
                .map(|(s, &b)| (s as u32, b))
                .collect(),
        }
    }

    /// A solver that goes on from `state` exactly as the one that saved it would have (on
    /// one thread; [`threads`](Self::threads) sets more, which changes no result).
    pub fn from_state(game: G, state: MccfrState) -> Result<Self, MccfrStateError> {
        if state.game != game.name() {
            return Err(MccfrStateError::Game(state.game));
        }
        if !(1..=MAX_BATCH).contains(&state.batch) {
            return Err(MccfrStateError::Batch);
        }
        if state.regrets.iter().any(|x| !x.is_finite())
            || state.averages.iter().any(|&x| !(x.is_finite() && x >= 0.0))
        {
            return Err(MccfrStateError::Values);
        }
        if state.baseline.is_some_and(|d| !(d > 0.0 && d <= 1.0)) {
            return Err(MccfrStateError::Baseline);
        }
        if state.iterations > super::state::MAX_ITERATIONS {
            return Err(MccfrStateError::Iterations(state.iterations));
        }
        let mut m = Mccfr::new(game)
            .seed(state.seed)
            .batch(state.batch)
            .weighting(state.weighting)
            .stratified(state.stratified)
            .baseline(state.baseline);
        for &(s, b) in &state.baselines {
            match m.baselines.get_mut(s as usize) {
                Some(slot) if b.is_finite() => *slot = b,
                _ => return Err(MccfrStateError::Baseline),
            }
        }
        let mut first: u32 = 0;
        for set in state.infosets {
            if set.actions == 0 || m.index.get(&set.key).is_some() {
                return Err(MccfrStateError::Infosets);
            }
            let e = Entry {
                first,
                actions: set.actions,
            };
            first = first
                .checked_add(set.actions)
                .ok_or(MccfrStateError::Slots)?;
            m.index.insert(set.key, e);
        }
        if state.regrets.len() != first as usize || state.averages.len() != first as usize {
            return Err(MccfrStateError::Slots);
        }
        m.regrets = state.regrets;
        m.averages = state.averages;
        m.iterations = state.iterations;
        Ok(m)
    }
}

/// How much larger than the payoffs a saved baseline may be (see [`MccfrState::check`]).
pub const BASELINE_FACTOR: f64 = (1u64 << 32) as f64;

impl MccfrState {
    /// Checks the state against `tree`, the game's whole tree, before
    /// [`Mccfr::from_state`]: its information sets ([`MccfrState::matches`]), its arrays'
    /// lengths, and its numbers within what its iterations can make, as
    /// [`CfrState::check`](super::state::CfrState::check) does for the full-width
    /// solvers (see [`super::state`] for why). With `T` iterations, `W` the sum of their
    /// weights (`T`, or `T (T + 1) / 2` when linear), `M` the largest absolute payoff and `H`
    /// the histories of an information set in the tree (a traversal visits each at most once):
    ///
    /// - a set's average sums grow by at most the iteration's weight at each visit, so they
    ///   total at most `H W`;
    /// - the values a traversal returns are payoffs or averages of them, within `M`, except
    ///   that a sampled node corrected by baselines of at most `B` returns within `2B` more,
    ///   so within `V = M + 2 D B` on a path with `D` nodes; a regret grows by at most the
    ///   weight times `2V` at each visit, so it stays within `2 V H W`;
    /// - the baselines, running averages of such values, are proved no bound; they stay near
    ///   the payoffs (at most 1.06 `M` measured on Kuhn and Leduc, up to 131,072 iterations),
    ///   and `B` is [`BASELINE_FACTOR`] (2^32) times `M`, far beyond any run.
    ///
    /// Each with the factor [`SLACK`](super::state::SLACK) for rounding. At the cap the
    /// bounds stay below 2^310 for any game of fewer than 2^32 nodes and payoffs below
    /// 2^100, so a state within them runs on without overflow.
    pub fn check(&self, tree: &ExtensiveTree) -> Result<(), MccfrStateError> {
        use super::state::SLACK;
        self.matches(tree)?;
        if self.iterations > super::state::MAX_ITERATIONS {
            return Err(MccfrStateError::Iterations(self.iterations));
        }
        let slots = self
            .infosets
            .iter()
            .try_fold(0usize, |n, s| n.checked_add(s.actions as usize));
        if slots != Some(self.regrets.len()) || slots != Some(self.averages.len()) {
            return Err(MccfrStateError::Slots);
        }
        let t = self.iterations as f64;
        let weights = match self.weighting {
            Weighting::Uniform => t,
            Weighting::Linear => t * (t + 1.0) / 2.0,
        };
        let m = tree.max_abs_payoff();
        let b = BASELINE_FACTOR * m;
        let depth = tree.levels().count() as f64;
        let value = if self.baseline.is_some() {
            m + 2.0 * depth * b
        } else {
            m
        };
        let baseline = |&(_, x): &(u32, f64)| !x.is_finite() || x.abs() > b;
        if let Some(&(slot, _)) = self.baselines.iter().find(|x| baseline(x)) {
            return Err(MccfrStateError::Beyond(format!(
                "baseline in slot {slot} is more than {} times the largest payoff",
                BASELINE_FACTOR
            )));
        }
        let beyond = |what: &str, key: &str| {
            MccfrStateError::Beyond(format!(
                "{what} at {} are more than {} iterations can make",
                crate::game::quote(key),
                self.iterations
            ))
        };
        let mut first = 0;
        for set in &self.infosets {
            let i = tree
                .find_infoset(&set.key)
                .ok_or_else(|| MccfrStateError::Actions(set.key.clone()))?;
            let h = tree.infoset_nodes(i).len() as f64;
            let r = first..first + set.actions as usize;
            first = r.end;
            if self.regrets[r.clone()]
                .iter()
                .any(|x| !x.is_finite() || x.abs() > SLACK * 2.0 * value * h * weights)
            {
                return Err(beyond("regrets", &set.key));
            }
            let avg = &self.averages[r];
            if avg.iter().any(|&x| !(x.is_finite() && x >= 0.0)) {
                return Err(MccfrStateError::Values);
            }
            if avg.iter().sum::<f64>() > SLACK * h * weights {
                return Err(beyond("average-strategy sums", &set.key));
            }
        }
        Ok(())
    }

    /// Checks the state's information sets against `tree`, the game's whole tree: every key
    /// must be one of the tree's, with the same number of actions. [`Mccfr::from_state`]
    /// cannot check that without the tree; a state that fails it would stop the walk at the
    /// first history of a mismatched set (the index's check of the action count panics).
    pub fn matches(&self, tree: &ExtensiveTree) -> Result<(), MccfrStateError> {
        let sets: HashMap<&str, u32> = tree
            .infosets()
            .iter()
            .map(|s| (s.key.as_str(), s.actions))
            .collect();
        match self
            .infosets
            .iter()
            .find(|s| sets.get(s.key.as_str()) != Some(&s.actions))
        {
            Some(s) => Err(MccfrStateError::Actions(s.key.clone())),
            None => Ok(()),
        }
    }
}

/// The random shift of player `p`'s stratified sequence.
fn shift(seed: u64, p: usize) -> u64 {
    mix(mix(seed ^ 0x005E_ED0F_0BE4).wrapping_add((p as u64).wrapping_mul(GOLDEN)))
}

/// Point `t` of the golden-ratio sequence shifted by `shift`, in [0, 1): exact integer
/// arithmetic modulo 2^64 (`GOLDEN` is 2^64 / phi), so no precision is lost however many
/// iterations run.
#[inline]
fn golden_point(shift: u64, t: u64) -> f64 {
    let x = shift.wrapping_add(t.wrapping_mul(GOLDEN));
    // The top 53 bits, as a double.
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Like [`sample`], and also where `u` fell inside the drawn outcome's interval, rescaled
/// to [0, 1): a uniform number again, independent of the outcome, for the next draw.
#[inline]
fn sample_nested(p: &[f64], u: f64) -> (usize, f64) {
    let mut acc = 0.0;
    let mut last = (0, 0.0);
    for (i, &x) in p.iter().enumerate() {
        if x > 0.0 {
            if u < acc + x {
                return (i, ((u - acc) / x).clamp(0.0, 1.0 - f64::EPSILON));
            }
            last = (i, acc);
            acc += x;
        }
    }
    // Rounding left `u` past the sum: the last possible outcome, at its top.
    (last.0, 1.0 - f64::EPSILON)
}

/// The path hash of the root history.
const ROOT_PATH: u64 = GOLDEN;

/// The path hash of the history reached by action `a` from the history hashed `path`.
#[inline]
fn child_path(path: u64, a: usize) -> u64 {
    mix(path ^ (a as u64 + 1).wrapping_mul(GOLDEN))
}

/// The seed of the traversal of iteration `t` for player `p`: every (seed, t, p) its own
/// stream, whichever thread runs it.
fn traversal_seed(seed: u64, t: u64, p: usize) -> u64 {
    mix(mix(seed ^ GOLDEN).wrapping_add(t.wrapping_mul(8).wrapping_add(p as u64)))
}

/// Index `i` drawn with probability `p[i]` by the uniform number `u`; never an index of
/// probability 0, even when rounding leaves `u` above the running sum.
#[inline]
fn sample(p: &[f64], u: f64) -> usize {
    let mut acc = 0.0;
    let mut last = 0;
    for (i, &x) in p.iter().enumerate() {
        if x > 0.0 {
            acc += x;
            last = i;
            if u < acc {
                return i;
            }
        }
    }
    last
}

/// Where [`Walk::sampled`] finds the probabilities of the node's actions.
#[derive(Clone, Copy)]
enum Probs {
    /// In the scratch's chance buffer.
    Chance,
    /// On the scratch's stack, from this index, this many; the stack is cut back to the
    /// index before the walk goes on.
    Stack(usize, usize),
}

/// One traversal: the game, the frozen regrets, the traverser and its generator.
struct Walk<'a, G: Extensive> {
    game: &'a G,
    index: &'a Index,
    regrets: &'a [f64],
    /// The weight of this traversal's iteration in the regrets and the average.
    weight: f64,
    player: usize,
    rng: SplitMix64,
    /// While no decision has been met and the opening is stratified, the uniform number
    /// the next chance draw takes (see [`Mccfr::stratified`]).
    opening: Option<f64>,
    /// The frozen baselines, if used.
    baselines: Option<&'a [f64]>,
}

impl<G: Extensive> Walk<'_, G> {
    /// Pushes regret matching's strategy for the `n` slots from `first` onto the stack
    /// (uniform for slots allocated after the regrets were frozen, whose regrets are 0).
    fn push_strategy(&self, first: usize, n: usize, stack: &mut Vec<f64>) {
        let base = stack.len();
        match self.regrets.get(first..first + n) {
            Some(r) => {
                let sum: f64 = r.iter().map(|&x| x.max(0.0)).sum();
                if sum > 0.0 {
                    stack.extend(r.iter().map(|&x| x.max(0.0) / sum));
                } else {
                    stack.resize(base + n, 1.0 / n as f64);
                }
            }
            None => stack.resize(base + n, 1.0 / n as f64),
        }
    }

    /// The baseline slot of the traverser's value at the history hashed `path`.
    #[inline]
    fn baseline_slot(&self, path: u64) -> usize {
        (path >> (64 - BASELINE_BITS)) as usize | (self.player << BASELINE_BITS)
    }

    /// Walks action `a`, drawn from `probs`, of the node hashed `path`. Returns its value,
    /// corrected by the baselines if there are any, whose update it records.
    fn sampled(
        &mut self,
        s: &G::State,
        path: u64,
        probs: Probs,
        a: usize,
        sc: &mut Scratch,
    ) -> f64 {
        let p = match probs {
            Probs::Chance => &sc.probs[..],
            Probs::Stack(base, n) => &sc.stack[base..base + n],
        };
        let child = child_path(path, a);
        let Some(b) = self.baselines else {
            if let Probs::Stack(base, _) = probs {
                sc.stack.truncate(base);
            }
            return self.walk(&self.game.play(s, a), child, sc);
        };
        // Read before the walk below overwrites the probabilities.
        let expected: f64 = p
            .iter()
            .enumerate()
            .map(|(x, &px)| px * b[self.baseline_slot(child_path(path, x))])
            .sum();
        let slot = self.baseline_slot(child);
        if let Probs::Stack(base, _) = probs {
            sc.stack.truncate(base);
        }
        let v = self.walk(&self.game.play(s, a), child, sc);
        sc.baselines.push((slot as u32, v));
        expected + v - b[slot]
    }

    /// The sampled value of `s`, whose history hashes to `path`, for the traverser,
    /// recording regret, average and baseline changes.
    fn walk(&mut self, s: &G::State, path: u64, sc: &mut Scratch) -> f64 {
        match self.game.turn(s) {
            Turn::Terminal => {
                self.game.payoffs(s, &mut sc.payoffs);
                sc.payoffs[self.player]
            }
            Turn::Chance => {
                self.game.chance(s, &mut sc.probs);
                let a = match self.opening {
                    Some(u) => {
                        let (a, rest) = sample_nested(&sc.probs, u);
                        self.opening = Some(rest);
                        a
                    }
                    None => sample(&sc.probs, self.rng.next_f64()),
                };
                self.sampled(s, path, Probs::Chance, a, sc)
            }
            Turn::Player(q) => {
                self.opening = None;
                let n = self.game.actions(s);
                self.game.infoset_key(s, &mut sc.key);
                let first = match sc.cache.get(sc.key.as_str()) {
                    Some(e) => {
                        assert_eq!(
                            e.actions, n as u32,
                            "histories of one information set disagree on the number of actions"
                        );
                        e.first as usize
                    }
                    None => {
                        let first = self.index.slot(&sc.key, n as u32);
                        sc.cache.insert(
                            sc.key.clone(),
                            Entry {
                                first,
                                actions: n as u32,
                            },
                        );
                        first as usize
                    }
                };
                let base = sc.stack.len();
                self.push_strategy(first, n, &mut sc.stack);
                if q == self.player {
                    // Strategy at base.., action values at base + n...
                    sc.stack.resize(base + 2 * n, 0.0);
                    let mut v = 0.0;
                    for a in 0..n {
                        let va = self.walk(&self.game.play(s, a), child_path(path, a), sc);
                        sc.stack[base + n + a] = va;
                        v += sc.stack[base + a] * va;
                    }
                    for a in 0..n {
                        sc.regrets.push((
                            (first + a) as u32,
                            self.weight * (sc.stack[base + n + a] - v),
                        ));
                    }
                    sc.stack.truncate(base);
                    v
                } else {
                    for a in 0..n {
                        sc.averages
                            .push(((first + a) as u32, self.weight * sc.stack[base + a]));
                    }
                    let a = sample(&sc.stack[base..base + n], self.rng.next_f64());
                    self.sampled(s, path, Probs::Stack(base, n), a, sc)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The six Kuhn deals (3 cards, then 2) drawn by traversals `0..n` of player `p`:
    /// stratified, or by the traversals' own generators.
    fn deals(seed: u64, p: usize, n: u64, strat: bool) -> [u32; 6] {
        let mut count = [0; 6];
        for t in 0..n {
            let (first, second) = if strat {
                let (a, rest) = sample_nested(&[1.0 / 3.0; 3], golden_point(shift(seed, p), t));
                (a, sample_nested(&[0.5; 2], rest).0)
            } else {
                let mut g = SplitMix64::new(traversal_seed(seed, t, p));
                let a = sample(&[1.0 / 3.0; 3], g.next_f64());
                (a, sample(&[0.5; 2], g.next_f64()))
            };
            count[first * 2 + second] += 1;
        }
        count
    }

    #[test]
    fn stratified_deals_come_in_their_proportions() {
        // 600 traversals: 100 of each deal expected. Independent draws stray by about 9 (one
        // standard deviation); the stratified ones by at most 2.
        let mut worst_random = 0;
        for seed in 0..20 {
            for p in 0..2 {
                for n in [6, 60, 600, 6000] {
                    let c = deals(seed, p, n, true);
                    let spread = c.iter().map(|&x| x.abs_diff(n as u32 / 6)).max().unwrap();
                    assert!(spread <= 2, "seed {seed}, player {p}, {n}: {c:?}");
                }
                let r = deals(seed, p, 600, false);
                worst_random = worst_random.max(r.iter().map(|&x| x.abs_diff(100)).max().unwrap());
            }
        }
        assert!(worst_random > 10, "{worst_random}");
    }

    #[test]
    fn each_stratified_deal_is_uniform_over_seeds() {
        // Unbiased: for a fixed traversal, the shift makes the deal uniform over seeds.
        for t in [0, 1, 7, 1000] {
            let mut count = [0u32; 6];
            for seed in 0..6000 {
                let (a, rest) = sample_nested(&[1.0 / 3.0; 3], golden_point(shift(seed, 0), t));
                let b = sample_nested(&[0.5; 2], rest).0;
                count[a * 2 + b] += 1;
            }
            for c in count {
                assert!(c.abs_diff(1000) < 120, "t {t}: {count:?}");
            }
        }
    }

    #[test]
    fn nested_sampling_rescales_into_the_outcome() {
        let p = [0.25, 0.0, 0.75];
        assert_eq!(sample_nested(&p, 0.0), (0, 0.0));
        assert_eq!(sample_nested(&p, 0.125), (0, 0.5));
        assert_eq!(sample_nested(&p, 0.25), (2, 0.0));
        assert_eq!(sample_nested(&p, 0.625), (2, 0.5));
        // Rounding past the sum: the last possible outcome, and a number below 1.
        let (a, rest) = sample_nested(&[0.5, 0.5 - 1e-17], 1.0 - 1e-18);
        assert_eq!(a, 1);
        assert!(rest < 1.0);
        assert_eq!(sample_nested(&[0.0, 1.0, 0.0], 0.999).0, 1);
    }

    #[test]
    fn every_saved_state_passes_its_check() {
        use crate::games::imperfect::{kuhn::Kuhn, leduc::Leduc};
        let trees = [
            ExtensiveTree::build(&Kuhn).unwrap(),
            ExtensiveTree::build(&Leduc).unwrap(),
        ];
        for (weighting, baseline) in [
            (Weighting::Linear, DEFAULT_BASELINE),
            (Weighting::Uniform, None),
        ] {
            let mut kuhn = Mccfr::new(Kuhn)
                .seed(3)
                .weighting(weighting)
                .baseline(baseline);
            let mut leduc = Mccfr::new(Leduc)
                .seed(3)
                .weighting(weighting)
                .baseline(baseline);
            assert_eq!(kuhn.state().check(&trees[0]), Ok(()));
            for n in [1, 15, 300] {
                kuhn.run(n);
                leduc.run(n);
                assert_eq!(kuhn.state().check(&trees[0]), Ok(()), "{weighting:?} {n}");
                assert_eq!(leduc.state().check(&trees[1]), Ok(()), "{weighting:?} {n}");
            }
        }
    }

    #[test]
    fn numbers_beyond_a_run_are_refused_and_a_run_stops_at_the_cap() {
        use crate::games::imperfect::kuhn::Kuhn;
        let tree = ExtensiveTree::build(&Kuhn).unwrap();
        let mut m = Mccfr::new(Kuhn).seed(1);
        m.run(32);
        let good = m.state();
        let refused = |edit: &dyn Fn(&mut MccfrState), what: &str| {
            let mut bad = good.clone();
            edit(&mut bad);
            let e = bad.check(&tree).unwrap_err().to_string();
            assert!(e.contains(what), "{what}: {e}");
        };
        refused(&|s| s.averages.fill(f64::MAX), "sums at J are more than 32");
        refused(&|s| s.regrets[0] = 1e308, "regrets at J are more than 32");
        refused(&|s| s.baselines[0].1 = -1e300, "baseline in slot");
        refused(&|s| s.iterations = u64::MAX, "a solver runs");
        refused(&|s| s.averages.push(1.0), "arrays do not match");
        let mut far = good.clone();
        far.iterations = crate::cfr::state::MAX_ITERATIONS - 20;
        assert_eq!(far.check(&tree), Ok(()));
        let mut m = Mccfr::from_state(Kuhn, far).unwrap();
        m.run(100);
        assert_eq!(m.iterations(), crate::cfr::state::MAX_ITERATIONS);
        assert_eq!(m.state().check(&tree), Ok(()));
        let mut past = good;
        past.iterations = crate::cfr::state::MAX_ITERATIONS + 1;
        assert!(matches!(
            Mccfr::from_state(Kuhn, past),
            Err(MccfrStateError::Iterations(_))
        ));
    }
}
