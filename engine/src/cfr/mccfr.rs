//! External-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling, 2009), in
//! parallel and reproducible.
//!
//! # The algorithm
//!
//! An iteration is one traversal per player, in turn (alternating updates). The traversal for
//! player `p` walks the game's own states ([`Extensive`]), not a flat [`Tree`], so it works on
//! games too large to enumerate: at `p`'s decisions it tries every action and adds `value(a) -
//! value` to the regret of each; at another player's decision it samples one action from that
//! player's current strategy (regret matching) and adds the strategy to that player's average
//! ("simple" averaging, unbiased because the other players' reach is what is sampled); at a
//! chance node it samples one outcome.
//!
//! By default iteration `t` weighs `t` in both the regrets and the average ([`Weighting`]):
//! over 20 seeds at 1,000 iterations this takes Kuhn's NashConv from a mean of 0.060 to 0.054
//! and Leduc's from 2.56 to 2.24. [`Weighting::Uniform`] with a batch of 1 is the textbook
//! algorithm (OpenSpiel's).
//!
//! # The information-set index
//!
//! The information sets are found as the traversals meet them: an index maps each key to a run
//! of consecutive *slots* (one per action), allocated the first time the key is seen, and the
//! regrets and average-strategy sums are dense `f64` arrays indexed by slot. The index is
//! filled from several threads at once, so it is one of four concurrent maps ([`IndexKind`]),
//! measured against each other by `examples/mccfr_index.rs`; the fastest is the default.
//!
//! # Reproducible in parallel
//!
//! Iterations run in batches of [`Mccfr::batch`]. Within a batch, for each player in turn,
//! every traversal reads the regrets frozen at the start of that player's phase and writes its
//! regret and average changes to a list of its own; the traversals are split into contiguous
//! runs, one per thread, and the lists are added in traversal order afterwards. Each traversal
//! draws from its own splitmix64 generator seeded from (seed, iteration, player). So the
//! numbers do not depend on the number of threads or on their timing, only on the seed and
//! the batch size. A batch of 1 is the textbook sequential algorithm. The slot *numbers* do
//! depend on which thread meets a key first; [`Mccfr::state`] renumbers them in key order, so
//! its output is identical too.
//!
//! ```
//! use cutoff::cfr::mccfr::Mccfr;
//! use cutoff::cfr::{nash_conv, Tree};
//! use cutoff::games::kuhn::Kuhn;
//!
//! let mut m = Mccfr::new(Kuhn, 10, 1);
//! m.run(1000);
//! let tree = Tree::build(&Kuhn).unwrap();
//! assert!(nash_conv(&tree, &m.average_strategy_for(&tree)) < 0.05);
//! ```

use super::tree::{Extensive, Tree};
use crate::multi::Turn;
use crate::rng::{mix, SplitMix64, GOLDEN};
use dashmap::DashMap;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// The default number of iterations per batch: small enough that the frozen strategy is
/// barely stale (after 1,000 iterations the NashConv over seeds is about that of batch 1),
/// large enough to give two threads some work between merges.
pub const DEFAULT_BATCH: usize = 16;

/// The default weighting.
pub const DEFAULT_WEIGHTING: Weighting = Weighting::Linear;

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

/// Shards of [`IndexKind::Sharded`].
const SHARDS: usize = 16;

/// Which concurrent map holds the information-set index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IndexKind {
    /// One `std` `HashMap` (SipHash) behind one `Mutex`: the baseline.
    Mutex,
    /// 16 `Mutex<HashMap>` shards with ahash, the shard picked by the key's ahash.
    Sharded,
    /// `DashMap` with `std`'s SipHash.
    DashMap,
    /// `DashMap` with ahash.
    DashMapAhash,
}

impl IndexKind {
    /// All four, for measurements and tests.
    pub const ALL: [IndexKind; 4] = [
        IndexKind::Mutex,
        IndexKind::Sharded,
        IndexKind::DashMap,
        IndexKind::DashMapAhash,
    ];

    /// The default, the fastest in `examples/mccfr_index.rs` on Leduc.
    pub const DEFAULT: IndexKind = IndexKind::DashMapAhash;
}

/// An information set's run of slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    first: u32,
    actions: u32,
}

/// The four maps (see [`IndexKind`]). Full keys are kept, so hash collisions are the maps'
/// business and cannot merge two information sets.
enum Map {
    Mutex(Mutex<HashMap<String, Entry>>),
    Sharded(Box<[Mutex<HashMap<String, Entry, ahash::RandomState>>]>),
    DashMap(DashMap<String, Entry>),
    DashMapAhash(DashMap<String, Entry, ahash::RandomState>),
}

/// The concurrent information-set index: key to slots, slots allocated on first sight.
struct Index {
    map: Map,
    /// Slots allocated so far.
    next: AtomicU32,
    /// Picks the shard of [`Map::Sharded`]; fixed seeds, so the split is the same every run.
    shard_hash: ahash::RandomState,
}

impl Index {
    fn new(kind: IndexKind) -> Index {
        let map = match kind {
            IndexKind::Mutex => Map::Mutex(Mutex::new(HashMap::new())),
            IndexKind::Sharded => Map::Sharded(
                (0..SHARDS)
                    .map(|_| Mutex::new(HashMap::with_hasher(ahash::RandomState::new())))
                    .collect(),
            ),
            IndexKind::DashMap => Map::DashMap(DashMap::new()),
            IndexKind::DashMapAhash => {
                Map::DashMapAhash(DashMap::with_hasher(ahash::RandomState::new()))
            }
        };
        Index {
            map,
            next: AtomicU32::new(0),
            shard_hash: ahash::RandomState::with_seeds(1, 2, 3, 4),
        }
    }

    fn kind(&self) -> IndexKind {
        match self.map {
            Map::Mutex(_) => IndexKind::Mutex,
            Map::Sharded(_) => IndexKind::Sharded,
            Map::DashMap(_) => IndexKind::DashMap,
            Map::DashMapAhash(_) => IndexKind::DashMapAhash,
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

    fn shard(&self, key: &str) -> usize {
        self.shard_hash.hash_one(key) as usize % SHARDS
    }

    /// The entry of `key`, if seen.
    fn get(&self, key: &str) -> Option<Entry> {
        match &self.map {
            Map::Mutex(m) => m.lock().expect("index lock").get(key).copied(),
            Map::Sharded(s) => s[self.shard(key)]
                .lock()
                .expect("index lock")
                .get(key)
                .copied(),
            Map::DashMap(m) => m.get(key).map(|e| *e),
            Map::DashMapAhash(m) => m.get(key).map(|e| *e),
        }
    }

    /// The first slot of `key`, allocating `actions` slots if it is new. Only a new key is
    /// copied into the map: a known one, nearly every key after the first iterations, costs
    /// a lookup and no allocation.
    fn slot(&self, key: &str, actions: u32) -> u32 {
        let e = match &self.map {
            Map::Mutex(m) => {
                let mut m = m.lock().expect("index lock");
                match m.get(key) {
                    Some(e) => *e,
                    None => *m
                        .entry(key.to_owned())
                        .or_insert_with(|| self.alloc(actions)),
                }
            }
            Map::Sharded(s) => {
                let mut m = s[self.shard(key)].lock().expect("index lock");
                match m.get(key) {
                    Some(e) => *e,
                    None => *m
                        .entry(key.to_owned())
                        .or_insert_with(|| self.alloc(actions)),
                }
            }
            // A read lock first: after the first iterations nearly every key is known, and
            // `entry` takes the shard's write lock.
            Map::DashMap(m) => match m.get(key) {
                Some(e) => *e,
                None => *m
                    .entry(key.to_owned())
                    .or_insert_with(|| self.alloc(actions)),
            },
            Map::DashMapAhash(m) => match m.get(key) {
                Some(e) => *e,
                None => *m
                    .entry(key.to_owned())
                    .or_insert_with(|| self.alloc(actions)),
            },
        };
        assert_eq!(
            e.actions, actions,
            "histories of one information set disagree on the number of actions"
        );
        e.first
    }

    /// Information sets seen.
    fn len(&self) -> usize {
        match &self.map {
            Map::Mutex(m) => m.lock().expect("index lock").len(),
            Map::Sharded(s) => s.iter().map(|m| m.lock().expect("index lock").len()).sum(),
            Map::DashMap(m) => m.len(),
            Map::DashMapAhash(m) => m.len(),
        }
    }

    /// Every (key, entry), in no particular order.
    fn entries(&self) -> Vec<(String, Entry)> {
        match &self.map {
            Map::Mutex(m) => m
                .lock()
                .expect("index lock")
                .iter()
                .map(|(k, e)| (k.clone(), *e))
                .collect(),
            Map::Sharded(s) => s
                .iter()
                .flat_map(|m| {
                    m.lock()
                        .expect("index lock")
                        .iter()
                        .map(|(k, e)| (k.clone(), *e))
                        .collect::<Vec<_>>()
                })
                .collect(),
            Map::DashMap(m) => m.iter().map(|r| (r.key().clone(), *r.value())).collect(),
            Map::DashMapAhash(m) => m.iter().map(|r| (r.key().clone(), *r.value())).collect(),
        }
    }

    /// Inserts a known entry (when restoring a state).
    fn insert(&self, key: String, e: Entry) {
        match &self.map {
            Map::Mutex(m) => {
                m.lock().expect("index lock").insert(key, e);
            }
            Map::Sharded(s) => {
                s[self.shard(&key)]
                    .lock()
                    .expect("index lock")
                    .insert(key, e);
            }
            Map::DashMap(m) => {
                m.insert(key, e);
            }
            Map::DashMapAhash(m) => {
                m.insert(key, e);
            }
        }
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
    /// Iterations done.
    pub iterations: u64,
    /// The information sets seen, sorted by key.
    pub infosets: Vec<MccfrInfoset>,
    /// Cumulative regrets, one per slot.
    pub regrets: Vec<f64>,
    /// Average-strategy sums, one per slot.
    pub averages: Vec<f64>,
}

/// Why [`Mccfr::from_state`] refused a state.
#[derive(Clone, Debug, PartialEq)]
pub enum StateError {
    /// The state is of another game.
    Game(String),
    /// The arrays' lengths do not match the information sets' slots.
    Slots,
    /// A key appears twice, or a set has no actions.
    Infosets,
    /// A batch size of 0.
    Batch,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Game(g) => write!(f, "the state is of game {g}"),
            StateError::Slots => write!(f, "the state's arrays do not match its slots"),
            StateError::Infosets => write!(f, "the state's information sets are malformed"),
            StateError::Batch => write!(f, "batch size 0"),
        }
    }
}

impl std::error::Error for StateError {}

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
    /// The information-set key of the node being walked (used before recursing, so one
    /// buffer serves all, and the walk allocates no key).
    key: String,
}

/// External-sampling MCCFR on an [`Extensive`] game (see the module comment).
pub struct Mccfr<G: Extensive> {
    game: G,
    seed: u64,
    threads: usize,
    batch: usize,
    weighting: Weighting,
    /// `None` with one thread: no pool to hop through.
    pool: Option<rayon::ThreadPool>,
    index: Index,
    regrets: Vec<f64>,
    averages: Vec<f64>,
    iterations: u64,
    scratch: Vec<Scratch>,
}

impl<G: Extensive + Sync> Mccfr<G> {
    /// A solver for `game` drawing from `seed`, running traversals on `threads` threads (at
    /// least 1), with [`DEFAULT_BATCH`] and [`IndexKind::DEFAULT`].
    pub fn new(game: G, seed: u64, threads: usize) -> Self {
        let threads = threads.max(1);
        let pool = (threads > 1).then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("rayon thread pool")
        });
        Mccfr {
            game,
            seed,
            threads,
            batch: DEFAULT_BATCH,
            weighting: DEFAULT_WEIGHTING,
            pool,
            index: Index::new(IndexKind::DEFAULT),
            regrets: Vec::new(),
            averages: Vec::new(),
            iterations: 0,
            scratch: (0..threads).map(|_| Scratch::default()).collect(),
        }
    }

    /// Sets the iterations per batch (at least 1; 1 is the sequential algorithm). The results
    /// depend on it; runs resumed on a multiple of it continue exactly.
    pub fn with_batch(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// Sets the weighting of the iterations (the default is [`DEFAULT_WEIGHTING`]).
    pub fn with_weighting(mut self, weighting: Weighting) -> Self {
        self.weighting = weighting;
        self
    }

    /// The weighting of the iterations.
    pub fn weighting(&self) -> Weighting {
        self.weighting
    }

    /// Moves the information-set index into a map of `kind` (the results do not change).
    pub fn with_index(mut self, kind: IndexKind) -> Self {
        let index = Index::new(kind);
        for (k, e) in self.index.entries() {
            index.insert(k, e);
        }
        self.index = index;
        self
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Iterations per batch.
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// The map behind the information-set index.
    pub fn index_kind(&self) -> IndexKind {
        self.index.kind()
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
    /// (so `run(a); run(b)` equals `run(a + b)` when `a` is a multiple of it).
    pub fn run(&mut self, iterations: u64) {
        let end = self.iterations + iterations;
        while self.iterations < end {
            let next = ((self.iterations / self.batch as u64) + 1) * self.batch as u64;
            let stop = next.min(end);
            for p in 0..self.game.players() {
                self.phase(self.iterations, stop, p);
            }
            self.iterations = stop;
        }
    }

    /// The traversals of iterations `from..to` for player `p`, against the regrets as they
    /// are now, then their changes added in traversal order.
    fn phase(&mut self, from: u64, to: u64, p: usize) {
        let n = (to - from) as usize;
        let workers = self.threads.min(n);
        let game = &self.game;
        let index = &self.index;
        let regrets = &self.regrets[..];
        let seed = self.seed;
        let players = game.players();
        let weighting = self.weighting;
        let work = |w: usize, sc: &mut Scratch| {
            sc.regrets.clear();
            sc.averages.clear();
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
                };
                walk.walk(&game.root(), sc);
            }
        };
        let scratch = &mut self.scratch[..workers];
        match &self.pool {
            Some(pool) if workers > 1 => pool.install(|| {
                use rayon::prelude::*;
                scratch
                    .par_iter_mut()
                    .enumerate()
                    .for_each(|(w, sc)| work(w, sc));
            }),
            _ => {
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
        let a = self.averages.get(f..f + e.actions as usize);
        let sum: f64 = a.map_or(0.0, |a| a.iter().sum());
        match a {
            Some(a) if sum > 0.0 => {
                for (o, &x) in out.iter_mut().zip(a) {
                    *o = x / sum;
                }
            }
            _ => out.fill(1.0 / e.actions as f64),
        }
    }

    /// The average strategy in the slot layout of `tree`, a [`Tree`] built from the same
    /// game, for [`nash_conv`](super::nash_conv) and the like: information sets never met
    /// are uniform.
    ///
    /// # Panics
    ///
    /// If an information set of `tree` has another number of actions here.
    pub fn average_strategy_for(&self, tree: &Tree) -> Vec<f64> {
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
            iterations: self.iterations,
            infosets,
            regrets,
            averages,
        }
    }

    /// A solver that goes on from `state` exactly as the one that saved it would have, on
    /// `threads` threads with [`IndexKind::DEFAULT`].
    pub fn from_state(game: G, state: MccfrState, threads: usize) -> Result<Self, StateError> {
        if state.game != game.name() {
            return Err(StateError::Game(state.game));
        }
        if state.batch == 0 {
            return Err(StateError::Batch);
        }
        let mut m = Mccfr::new(game, state.seed, threads)
            .with_batch(state.batch)
            .with_weighting(state.weighting);
        let mut first: u32 = 0;
        for set in state.infosets {
            if set.actions == 0 || m.index.get(&set.key).is_some() {
                return Err(StateError::Infosets);
            }
            let e = Entry {
                first,
                actions: set.actions,
            };
            first = first.checked_add(set.actions).ok_or(StateError::Slots)?;
            m.index.insert(set.key, e);
        }
        if state.regrets.len() != first as usize || state.averages.len() != first as usize {
            return Err(StateError::Slots);
        }
        m.regrets = state.regrets;
        m.averages = state.averages;
        m.iterations = state.iterations;
        Ok(m)
    }
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

/// One traversal: the game, the frozen regrets, the traverser and its generator.
struct Walk<'a, G: Extensive> {
    game: &'a G,
    index: &'a Index,
    regrets: &'a [f64],
    /// The weight of this traversal's iteration in the regrets and the average.
    weight: f64,
    player: usize,
    rng: SplitMix64,
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

    /// The sampled value of `s` for the traverser, recording regret and average changes.
    fn walk(&mut self, s: &G::State, sc: &mut Scratch) -> f64 {
        match self.game.turn(s) {
            Turn::Terminal => {
                self.game.payoffs(s, &mut sc.payoffs);
                sc.payoffs[self.player]
            }
            Turn::Chance => {
                self.game.chance(s, &mut sc.probs);
                let a = sample(&sc.probs, self.rng.next_f64());
                self.walk(&self.game.play(s, a), sc)
            }
            Turn::Player(q) => {
                let n = self.game.actions(s);
                self.game.infoset_key(s, &mut sc.key);
                let first = self.index.slot(&sc.key, n as u32) as usize;
                let base = sc.stack.len();
                self.push_strategy(first, n, &mut sc.stack);
                if q == self.player {
                    // Strategy at base.., action values at base + n...
                    sc.stack.resize(base + 2 * n, 0.0);
                    let mut v = 0.0;
                    for a in 0..n {
                        let va = self.walk(&self.game.play(s, a), sc);
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
                    sc.stack.truncate(base);
                    self.walk(&self.game.play(s, a), sc)
                }
            }
        }
    }
}
