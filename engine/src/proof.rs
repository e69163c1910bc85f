//! Solving by hypothesis over a frontier: the work plan of a distributed solve
//! (docs/design/distributed.md). [`Prover`] holds the plan and says, step by step, which
//! searches it needs, for any caller to run anywhere (the command's `distribute` runs them on
//! worker processes); [`prove`] runs them all in this process.
//!
//! The positions a few plies below the root (the frontier) are the units of work. A cheap
//! first round gives each a proven interval and a guessed value ([`Config::guess_nodes`]
//! nodes of the solver each). The root's value is then found by tests "is the value at least
//! w?", as the serial solver finds it by null-window probes, starting at the guessed value
//! and stepping one value at a time. Each test builds the smallest proof the guesses allow:
//! to show that a node reaches w, one child (the one guessed best) must be shown to stay
//! below -w + 1; to show that it does not, every child must be shown to reach -w + 1. Only the
//! frontier positions that proof needs are tested, each by a null-window job ([`Job`]), and a
//! job whose answer refutes the guesses changes the proof: the next child at that node, or
//! every child where one was enough. Jobs the answers have made useless are skipped
//! (cancelled) before they start.
//!
//! Every job and guess is an ordinary serial [`Solver`] run on the table of the worker it is
//! given to ([`Config::workers`]: no table is shared between workers, as between machines), so
//! the node counts are those a distributed solve on that many workers pays; the intervals
//! every answer proves are kept and reused by the later tests.

use crate::game::{Game, MoveBuffer, Value};
use crate::knowledge::Knowledge;
use crate::solver::{SolveError, Solver, Verdict};
use crate::tt::TranspositionTable;
use std::collections::HashMap;

/// The most frontier nodes (inner nodes and leaves) a plan may have.
pub const MAX_NODES: usize = 1 << 20;

/// Settings of a [`prove`] run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Plies from the root to the frontier (at least 1).
    pub depth: usize,
    /// Node budget of each frontier position's guessing search.
    pub guess_nodes: u64,
    /// Size of each worker's table, in MiB.
    pub table_mib: usize,
    /// Workers: each keeps its table across the jobs it runs, as a worker process on a
    /// machine of its own would, and a frontier position's jobs all go to one worker (the
    /// position's index modulo this count), so that its later tests find what its earlier
    /// ones stored.
    pub workers: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: 3,
            guess_nodes: 4096,
            table_mib: 16,
            workers: 1,
        }
    }
}

/// One null-window test of a frontier position: is its value at least `at`?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    /// The frontier position, an index into the plan's leaves.
    pub leaf: usize,
    /// The threshold tested.
    pub at: Value,
}

/// What a [`prove`] run found and what it cost.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    /// The root's exact value.
    pub value: Value,
    /// A root move that achieves it (`None` at a terminal root).
    pub best_move: Option<M>,
    /// Distinct frontier positions (transpositions counted once).
    pub frontier: usize,
    /// Nodes of the guessing round.
    pub guess_nodes: u64,
    /// Nodes of the jobs.
    pub job_nodes: u64,
    /// Rounds of jobs: each is the proof's open leaves at one time.
    pub rounds: usize,
    /// Jobs run.
    pub jobs: usize,
    /// Jobs planned in a round and skipped because earlier answers made them useless.
    pub cancelled: usize,
    /// Jobs planned in the largest round.
    pub largest_round: usize,
    /// Tests "at least w?" at the root.
    pub tests: usize,
    /// Frontier positions that some job tested.
    pub leaves_tested: usize,
}

impl<M> Outcome<M> {
    /// Every node searched: the guesses' and the jobs'.
    pub fn nodes(&self) -> u64 {
        self.guess_nodes + self.job_nodes
    }
}

/// A frontier position: what has been proved about its value, and the guess.
#[derive(Clone, Debug)]
struct Leaf<P, M> {
    pos: P,
    /// The moves from the root.
    path: Vec<M>,
    lo: Value,
    hi: Value,
    guess: Value,
    /// The guessing search has run (or the value is known).
    guessed: bool,
    tested: bool,
    /// The node this position was opened into by [`Prover::split`], if it was.
    opened: Option<usize>,
}

/// A node of the tree above the frontier: a leaf, or the range of its children in `kids`.
#[derive(Clone, Copy, Debug)]
enum Node {
    Leaf(usize),
    Inner { first: usize, len: usize },
}

/// The tree from the root to the frontier and the leaves' knowledge.
struct Plan<G: Game> {
    nodes: Vec<Node>,
    /// Children of inner nodes, as node indices, with the move that leads there.
    kids: Vec<(usize, G::Move)>,
    leaves: Vec<Leaf<G::Pos, G::Move>>,
    /// The leaf of each position key: transposed positions share one leaf.
    seen: HashMap<u64, usize>,
    /// [`Plan::back_up`]'s last result, until a leaf or the shape changes: a driver asks
    /// for it several times an event, and a frontier of thousands of nodes makes it the
    /// driver's main cost.
    backed: std::cell::RefCell<Option<Vec<(Value, Value, Value)>>>,
}

impl<G: Game> Plan<G> {
    /// Expands `root` to `depth` plies; transposed frontier positions share one leaf.
    fn build(game: &G, root: G::Pos, depth: usize) -> Result<Plan<G>, SolveError> {
        let mut plan = Plan {
            nodes: vec![Node::Leaf(usize::MAX)],
            kids: Vec::new(),
            leaves: Vec::new(),
            seen: HashMap::new(),
            backed: std::cell::RefCell::new(None),
        };
        // Breadth first, so that every inner node's children are contiguous in `kids`.
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((0usize, root, Vec::new()));
        while let Some((n, pos, path)) = queue.pop_front() {
            if game.outcome(&pos).is_some() || path.len() == depth {
                plan.nodes[n] = Node::Leaf(plan.leaf(game, pos, path));
                continue;
            }
            for (child, mv) in plan.open(game, n, &pos)? {
                let mut p = path.clone();
                p.push(mv);
                queue.push_back((child, game.play(&pos, mv), p));
            }
        }
        Ok(plan)
    }

    /// The leaf of `pos`, made if it is new.
    fn leaf(&mut self, game: &G, pos: G::Pos, path: Vec<G::Move>) -> usize {
        let key = game.key(&pos);
        if let Some(&l) = self.seen.get(&key) {
            return l;
        }
        let (lo, hi) = game.outcome(&pos).map_or(game.value_range(), |v| (v, v));
        self.leaves.push(Leaf {
            pos,
            path,
            lo,
            hi,
            guess: 0.clamp(lo, hi),
            guessed: lo == hi,
            tested: false,
            opened: None,
        });
        self.seen.insert(key, self.leaves.len() - 1);
        self.leaves.len() - 1
    }

    /// Makes node `n` (at `pos`) inner, with a new node for each move; returns them.
    fn open(
        &mut self,
        game: &G,
        n: usize,
        pos: &G::Pos,
    ) -> Result<Vec<(usize, G::Move)>, SolveError> {
        let mut moves = G::Moves::default();
        game.moves(pos, &mut moves);
        // The game's static ordering breaks ties between equal guesses: the proof tries
        // first the move the search would try first.
        let mut order: Vec<G::Move> = moves.as_slice().to_vec();
        order.sort_by_key(|&mv| std::cmp::Reverse(G::Knowledge::move_hint(game, pos, mv)));
        if self.nodes.len() + order.len() > MAX_NODES {
            return Err(SolveError::Settings(format!(
                "the frontier would have more than {MAX_NODES} nodes: split less deep"
            )));
        }
        let first = self.kids.len();
        let mut out = Vec::with_capacity(order.len());
        for &mv in &order {
            let child = self.nodes.len();
            self.nodes.push(Node::Leaf(usize::MAX));
            self.kids.push((child, mv));
            out.push((child, mv));
        }
        self.nodes[n] = Node::Inner {
            first,
            len: order.len(),
        };
        Ok(out)
    }

    fn children(&self, first: usize, len: usize) -> &[(usize, G::Move)] {
        &self.kids[first..first + len]
    }

    /// The proven interval and the guess of every node, backed up by negamax from the
    /// leaves; an opened leaf's is its node's, within what was proved of the leaf itself.
    fn back_up(&self) -> Vec<(Value, Value, Value)> {
        if let Some(iv) = &*self.backed.borrow() {
            return iv.clone();
        }
        let iv = self.back_up_now();
        *self.backed.borrow_mut() = Some(iv.clone());
        iv
    }

    /// [`Plan::back_up`], computed.
    fn back_up_now(&self) -> Vec<(Value, Value, Value)> {
        const NONE: (Value, Value, Value) = (Value::MAX, Value::MIN, 0);
        let mut out = vec![NONE; self.nodes.len()];
        // Children come after their parents in `nodes`, except the node an opened leaf
        // points to, which may come after a later parent of that leaf: a depth-first walk
        // with memory settles every order.
        let mut stack = vec![(0usize, false)];
        while let Some((n, ready)) = stack.pop() {
            if out[n] != NONE {
                continue;
            }
            let deps: Vec<usize> = match self.nodes[n] {
                Node::Leaf(l) => self.leaves[l].opened.into_iter().collect(),
                Node::Inner { first, len } => {
                    self.children(first, len).iter().map(|&(c, _)| c).collect()
                }
            };
            if !ready {
                stack.push((n, true));
                stack.extend(
                    deps.iter()
                        .filter(|&&c| out[c] == NONE)
                        .map(|&c| (c, false)),
                );
                continue;
            }
            out[n] = match self.nodes[n] {
                Node::Leaf(l) => {
                    let leaf = &self.leaves[l];
                    match leaf.opened {
                        None => (leaf.lo, leaf.hi, leaf.guess),
                        Some(o) => {
                            let (lo, hi, g) = out[o];
                            let (lo, hi) = (lo.max(leaf.lo), hi.min(leaf.hi).max(lo.max(leaf.lo)));
                            (lo, hi, g.clamp(lo, hi))
                        }
                    }
                }
                Node::Inner { first, len } => {
                    let (mut lo, mut hi, mut g) = (Value::MIN, Value::MIN, Value::MIN);
                    for &(c, _) in self.children(first, len) {
                        let (cl, ch, cg) = out[c];
                        lo = lo.max(-ch);
                        hi = hi.max(-cl);
                        g = g.max(-cg);
                    }
                    (lo, hi, g)
                }
            };
        }
        out
    }

    /// The jobs of the smallest proof the guesses allow that node `n`'s value is at least
    /// `w` (`want`) or below it, given the intervals `iv` (see the module comment).
    fn needed(
        &self,
        iv: &[(Value, Value, Value)],
        n: usize,
        w: Value,
        want: bool,
        out: &mut Vec<Job>,
    ) {
        let (lo, hi, _) = iv[n];
        if lo >= w || hi < w {
            return;
        }
        match self.nodes[n] {
            Node::Leaf(leaf) => match self.leaves[leaf].opened {
                None => out.push(Job { leaf, at: w }),
                Some(o) => self.needed(iv, o, w, want, out),
            },
            Node::Inner { first, len } => {
                let kids = self.children(first, len);
                if want {
                    // One child that stays below -w + 1: the one guessed lowest among those
                    // not yet shown to reach it.
                    let pick = kids
                        .iter()
                        .filter(|&&(c, _)| iv[c].0 < -w + 1)
                        .min_by_key(|&&(c, _)| (iv[c].2, iv[c].1));
                    if let Some(&(c, _)) = pick {
                        self.needed(iv, c, -w + 1, false, out);
                    }
                } else {
                    for &(c, _) in kids {
                        self.needed(iv, c, -w + 1, true, out);
                    }
                }
            }
        }
    }

    /// Every job of every proof at node `n` of "at least `w`" (`want`) or below it, each
    /// ranked by `rank` plus the choices it departs from: at a node where one child is to
    /// be shown below the negated threshold, the k-th child by guess adds k.
    fn wide(
        &self,
        iv: &[(Value, Value, Value)],
        n: usize,
        w: Value,
        want: bool,
        rank: usize,
        out: &mut Vec<(usize, Job)>,
    ) {
        let (lo, hi, _) = iv[n];
        if lo >= w || hi < w || out.len() >= MAX_NODES {
            return;
        }
        match self.nodes[n] {
            Node::Leaf(leaf) => match self.leaves[leaf].opened {
                None => out.push((rank, Job { leaf, at: w })),
                Some(o) => self.wide(iv, o, w, want, rank, out),
            },
            Node::Inner { first, len } => {
                let mut kids: Vec<usize> = self
                    .children(first, len)
                    .iter()
                    .map(|&(c, _)| c)
                    .filter(|&c| !want || iv[c].0 < -w + 1)
                    .collect();
                if want {
                    kids.sort_by_key(|&c| (iv[c].2, iv[c].1));
                }
                for (k, c) in kids.into_iter().enumerate() {
                    let extra = if want { k } else { 0 };
                    self.wide(iv, c, -w + 1, !want, rank + extra, out);
                }
            }
        }
    }

    /// The jobs that would settle "the root reaches `w`" next, under the current guesses,
    /// with the hypothesis `hope` at the root (the root's guess where `None`).
    fn proof(&self, w: Value, hope: Option<bool>) -> Vec<Job> {
        let iv = self.back_up();
        let mut jobs = Vec::new();
        let want = hope.unwrap_or(iv[0].2 >= w);
        self.needed(&iv, 0, w, want, &mut jobs);
        jobs.sort_unstable_by_key(|j| (j.leaf, j.at));
        jobs.dedup();
        jobs
    }
}

/// What a [`Prover`] needs next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<M> {
    /// A guess of each of these frontier positions ([`Prover::learn`] with a guess).
    Guess(Vec<usize>),
    /// A round: these null-window tests, all part of the proof that settles whether the
    /// root's value is at least `at`. Answer them with [`Prover::learn`]; one whose
    /// [`Prover::needed`] turns false on the way need not run.
    Test {
        /// The root's threshold being tested.
        at: Value,
        /// The jobs.
        jobs: Vec<Job>,
    },
    /// The root's value is settled.
    Done {
        /// The root's exact value.
        value: Value,
        /// A root move that achieves it (`None` at a terminal root).
        best_move: Option<M>,
    },
}

/// What a guessing search or a null-window test proved about a frontier position, and the
/// guess it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Proven lower bound.
    pub lo: Value,
    /// Proven upper bound.
    pub hi: Value,
    /// The guessed value, from a guessing search (`None` from a test).
    pub guess: Option<Value>,
}

impl Found {
    /// What a budgeted guessing search's verdict says: a proven interval, or (where it
    /// deepened iteratively) no bound but the depth-limited value as the guess.
    pub fn of_guess(game_range: (Value, Value), verdict: Verdict) -> Found {
        let (lo, hi) = game_range;
        match verdict {
            Verdict::Exact(v) => Found {
                lo: v,
                hi: v,
                guess: Some(v),
            },
            Verdict::Bounds { lo, hi } => Found {
                lo,
                hi,
                guess: Some(0),
            },
            Verdict::DepthLimited { value, .. } => Found {
                lo,
                hi,
                guess: Some(value),
            },
        }
    }

    /// What a search stopped before its end (at its node budget, [`Solver::exact_nodes`])
    /// proved: the bounds of its verdict, nothing where it has none.
    pub fn of_stopped(game_range: (Value, Value), verdict: Verdict) -> Found {
        let (lo, hi) = match verdict {
            Verdict::Bounds { lo, hi } => (lo, hi),
            Verdict::Exact(v) => (v, v),
            Verdict::DepthLimited { .. } => game_range,
        };
        Found {
            lo: lo.max(game_range.0),
            hi: hi.min(game_range.1),
            guess: None,
        }
    }

    /// What a finished null-window test of `job` proved: the value is at least `job.at`, or
    /// below it (or exactly what it found).
    pub fn of_test(game_range: (Value, Value), job: Job, verdict: Verdict) -> Found {
        let (lo, hi) = game_range;
        let (lo, hi) = match verdict {
            Verdict::Bounds { lo: l, .. } if l >= job.at => (job.at, hi),
            Verdict::Exact(v) => (v, v),
            _ => (lo, job.at - 1),
        };
        Found {
            lo,
            hi,
            guess: None,
        }
    }
}

/// The stepping state after a root test's answer: see [`Prover::following`].
struct Following {
    lo: Value,
    hi: Value,
    next: Value,
    run: Option<(bool, u32)>,
    heading: Option<bool>,
}

/// A solve by hypothesis over a frontier, one step at a time: [`Prover::step`] says what
/// it needs (guesses, or a round of tests), the caller runs those searches wherever it
/// likes (in this process, as [`prove`] does, or on other machines) and hands back what
/// each proved with [`Prover::learn`]. Every answer is a proven fact, so answers may come
/// in any order, twice, or from an earlier run: none can make the value wrong.
pub struct Prover<G: Game> {
    plan: Plan<G>,
    range: (Value, Value),
    started: bool,
    lo: Value,
    hi: Value,
    /// The next threshold to test.
    next: Value,
    /// The threshold under test.
    current: Option<Value>,
    /// Same-direction answers so far, and their direction (true: upwards).
    run: Option<(bool, u32)>,
    /// The direction of the last steps, kept through the bisection.
    heading: Option<bool>,
    tests: usize,
    /// The guesses are taken to be right (a book's values): the root's hypothesis is its
    /// guess, never the stepping direction.
    trusted: bool,
}

impl<G: Game> Prover<G> {
    /// The frontier `depth` plies below `root` (transposed positions share one leaf).
    pub fn new(game: &G, root: G::Pos, depth: usize) -> Result<Prover<G>, SolveError> {
        if depth == 0 {
            return Err(SolveError::Settings(
                "a frontier needs at least one ply".into(),
            ));
        }
        Ok(Prover {
            plan: Plan::build(game, root, depth)?,
            range: game.value_range(),
            started: false,
            lo: 0,
            hi: 0,
            next: 0,
            current: None,
            run: None,
            heading: None,
            tests: 0,
            trusted: false,
        })
    }

    /// Takes the guesses to be right, as an opening book's are: each test's proof follows
    /// the root's guess rather than the direction the tests have been stepping (which is
    /// right for poor guesses, which only the answers move). Only the work changes, never
    /// the value.
    pub fn trust_guesses(&mut self, trusted: bool) {
        self.trusted = trusted;
    }

    /// Frontier positions so far (transpositions counted once; [`Prover::split`] adds).
    pub fn frontier(&self) -> usize {
        self.plan.leaves.len()
    }

    /// Frontier position `leaf`.
    pub fn position(&self, leaf: usize) -> G::Pos {
        self.plan.leaves[leaf].pos
    }

    /// The moves from the root to frontier position `leaf`.
    pub fn path(&self, leaf: usize) -> &[G::Move] {
        &self.plan.leaves[leaf].path
    }

    /// The frontier position whose key is `key`, if there is one.
    pub fn leaf_of(&self, key: u64) -> Option<usize> {
        self.plan.seen.get(&key).copied()
    }

    /// What is proved of frontier position `leaf`'s value, and its guess.
    pub fn known(&self, leaf: usize) -> (Value, Value, Value) {
        let l = &self.plan.leaves[leaf];
        (l.lo, l.hi, l.guess)
    }

    /// The root's proven interval.
    pub fn bounds(&self) -> (Value, Value) {
        let (lo, hi, _) = self.plan.back_up()[0];
        (lo, hi)
    }

    /// Tests "at least w?" settled at the root so far.
    pub fn tests(&self) -> usize {
        self.tests
    }

    /// Frontier positions some test has answered for.
    pub fn leaves_tested(&self) -> usize {
        self.plan.leaves.iter().filter(|l| l.tested).count()
    }

    /// Takes in what a search proved about frontier position `leaf` (a guess where `found`
    /// has one; a test otherwise). Bounds that contradict earlier ones (another game's
    /// answer) are ignored rather than trusted.
    pub fn learn(&mut self, leaf: usize, found: Found) {
        *self.plan.backed.get_mut() = None;
        let l = &mut self.plan.leaves[leaf];
        let (lo, hi) = (l.lo.max(found.lo), l.hi.min(found.hi));
        if lo <= hi {
            l.lo = lo;
            l.hi = hi;
        }
        match found.guess {
            Some(g) => {
                l.guess = g;
                l.guessed = true;
            }
            None => l.tested = true,
        }
        l.guessed |= l.lo == l.hi;
        l.guess = l.guess.clamp(l.lo, l.hi);
    }

    /// Opens frontier position `leaf` one ply deeper: its children become frontier
    /// positions (each to be guessed), and the proof asks for them instead of it, so that
    /// one expensive position becomes several jobs. False (and nothing done) where it is
    /// settled or over.
    pub fn split(&mut self, game: &G, leaf: usize) -> Result<bool, SolveError> {
        let l = &self.plan.leaves[leaf];
        if l.opened.is_some() || l.lo == l.hi || game.outcome(&l.pos).is_some() {
            return Ok(false);
        }
        let (pos, path) = (l.pos, l.path.clone());
        *self.plan.backed.get_mut() = None;
        let n = self.plan.nodes.len();
        self.plan.nodes.push(Node::Leaf(usize::MAX));
        self.plan.leaves[leaf].opened = Some(n);
        for (child, mv) in self.plan.open(game, n, &pos)? {
            let mut p = path.clone();
            p.push(mv);
            let c = self.plan.leaf(game, game.play(&pos, mv), p);
            self.plan.nodes[child] = Node::Leaf(c);
        }
        Ok(true)
    }

    /// The hypothesis at the root while stepping: see [`Prover::step`].
    fn hope(&self) -> Option<bool> {
        if self.trusted {
            return None;
        }
        self.run.map(|(dir, _)| dir).or(self.heading)
    }

    /// Whether `job` is still part of the proof of the test under way: false once answers
    /// have made it useless (it may be cancelled).
    pub fn needed(&self, job: &Job) -> bool {
        self.current
            .is_some_and(|w| self.plan.proof(w, self.hope()).contains(job))
    }

    /// Jobs the test under way may need next, best first: those of the proofs that would
    /// follow if a guess were refuted, the other hypothesis at the root and every brother
    /// at a node where one child is to be shown below the threshold, ranked by how many
    /// such choices they depart from (then by the guesses' order); beside them, ranked as
    /// one departure where `next_test`, the proof of the root's next test should this one
    /// end as expected (the tests step one value at a time, so the next is usually needed,
    /// and its jobs are where many idle workers shorten the chain of tests most). Worth
    /// running where workers would otherwise sit idle. At most `max`; empty when no test
    /// is under way.
    pub fn speculative(&self, max: usize, next_test: bool) -> Vec<Job> {
        let Some(w) = self.current else {
            return Vec::new();
        };
        let iv = self.plan.back_up();
        let want = self.hope().unwrap_or(iv[0].2 >= w);
        let mut ranked = Vec::new();
        self.plan.wide(&iv, 0, w, want, 0, &mut ranked);
        self.plan.wide(&iv, 0, w, !want, 1, &mut ranked);
        // The next test, if this one answers `want`.
        let f = self.following(w, want, iv[0]);
        if next_test && f.lo < f.hi {
            let w2 = f.next.clamp(f.lo + 1, f.hi);
            let hope2 = if self.trusted {
                None
            } else {
                f.run.map(|(dir, _)| dir).or(f.heading)
            };
            let want2 = hope2.unwrap_or(iv[0].2 >= w2);
            self.plan.wide(&iv, 0, w2, want2, 1, &mut ranked);
        }
        // Two departures or more are rarely needed before the answers change the proof.
        ranked.retain(|&(rank, _)| rank <= 1);
        ranked.sort_by_key(|&(rank, _)| rank);
        let mut seen = std::collections::HashSet::new();
        ranked
            .into_iter()
            .map(|(_, j)| j)
            .filter(|j| seen.insert(*j))
            .take(max)
            .collect()
    }

    /// The root's threshold under test: `Some(w)` while "at least `w`?" is being settled.
    pub fn testing(&self) -> Option<Value> {
        self.current
    }

    /// Whether frontier position `leaf` has been opened by [`Prover::split`].
    pub fn is_split(&self, leaf: usize) -> bool {
        self.plan.leaves[leaf].opened.is_some()
    }

    /// What is needed next: guesses for frontier positions without one, then rounds of
    /// tests "is the root's value at least w?", the first at the guess, then one value at
    /// a time away from it (as the serial solver steps from its first probe), in steps that
    /// double after the first three, so that a guess far off costs a logarithm of the
    /// distance; bisection once the answers change direction.
    pub fn step(&mut self) -> Step<G::Move> {
        let unguessed: Vec<usize> = (0..self.plan.leaves.len())
            .filter(|&l| {
                let leaf = &self.plan.leaves[l];
                !leaf.guessed && leaf.lo < leaf.hi && leaf.opened.is_none()
            })
            .collect();
        if !unguessed.is_empty() {
            return Step::Guess(unguessed);
        }
        if !self.started {
            (self.lo, self.hi, self.next) = self.plan.back_up()[0];
            self.started = true;
        }
        loop {
            let w = match self.current {
                Some(w) => w,
                None => {
                    if self.lo >= self.hi {
                        return Step::Done {
                            value: self.lo,
                            best_move: self.best_move(),
                        };
                    }
                    let w = self.next.clamp(self.lo + 1, self.hi);
                    self.current = Some(w);
                    w
                }
            };
            let root = self.plan.back_up()[0];
            if root.0 >= w || root.1 < w {
                self.finish(w, root.0 >= w, root);
                continue;
            }
            // Stepping in one direction, the hypothesis is that the value lies further that
            // way: the guesses, which only the answers so far have moved, would say it stops
            // at the bound just proved, and every step would begin with the wrong proof.
            // Once a step overshoots, the value most likely lies next to where it did: the
            // bisection keeps the steps' direction.
            return Step::Test {
                at: w,
                jobs: self.plan.proof(w, self.hope()),
            };
        }
    }

    /// Ends the test at `w` with its answer `up`, and chooses the next threshold.
    fn finish(&mut self, w: Value, up: bool, root: (Value, Value, Value)) {
        let f = self.following(w, up, root);
        self.tests += 1;
        (self.lo, self.hi, self.next) = (f.lo, f.hi, f.next);
        (self.run, self.heading) = (f.run, f.heading);
        self.current = None;
    }

    /// What [`Prover::finish`] would make of the answer `up` to the test at `w`: the new
    /// bounds, stepping state and next threshold.
    fn following(&self, w: Value, up: bool, root: (Value, Value, Value)) -> Following {
        let (lo, hi) = if up {
            (self.lo.max(w).max(root.0), self.hi)
        } else {
            (self.lo, self.hi.min(w - 1).min(root.1))
        };
        let heading = self
            .run
            .map_or(self.heading, |(dir, _)| Some(dir))
            .or(Some(up));
        let run = match self.run {
            None if self.tests == 0 => Some((up, 1)),
            Some((dir, n)) if dir == up => Some((up, n + 1)),
            _ => None,
        };
        let next = match run {
            Some((dir, n)) => {
                let step = if n < 3 { 1 } else { 1 << (n - 2).min(30) };
                if dir {
                    lo.saturating_add(step)
                } else {
                    hi.saturating_sub(step - 1)
                }
            }
            None => lo + (hi - lo + 1) / 2,
        };
        Following {
            lo,
            hi,
            next,
            run,
            heading,
        }
    }

    /// A root move whose child is proved to keep the root's value.
    fn best_move(&self) -> Option<G::Move> {
        let iv = self.plan.back_up();
        match self.plan.nodes[0] {
            Node::Inner { first, len } => self
                .plan
                .children(first, len)
                .iter()
                .find(|&&(c, _)| -iv[c].1 >= self.lo)
                .map(|&(_, mv)| mv),
            Node::Leaf(_) => None,
        }
    }

    /// The game's value range, which [`Found`] needs.
    pub fn range(&self) -> (Value, Value) {
        self.range
    }
}

/// Solves `root` exactly by tests over a frontier `config.depth` plies down (see the module
/// comment), every search a serial [`Solver`] run with its own table.
pub fn prove<G: Game>(
    game: &G,
    root: G::Pos,
    config: Config,
) -> Result<Outcome<G::Move>, SolveError> {
    if config.workers == 0 {
        return Err(SolveError::Settings(
            "a proof needs at least one worker".into(),
        ));
    }
    let mut prover = Prover::new(game, root, config.depth)?;
    let tables = (0..config.workers)
        .map(|_| TranspositionTable::try_new(config.table_mib))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Outcome {
        value: 0,
        best_move: None,
        frontier: prover.frontier(),
        guess_nodes: 0,
        job_nodes: 0,
        rounds: 0,
        jobs: 0,
        cancelled: 0,
        largest_round: 0,
        tests: 0,
        leaves_tested: 0,
    };
    loop {
        match prover.step() {
            Step::Guess(leaves) => {
                for leaf in leaves {
                    let r = Solver::new(game)
                        .position(prover.position(leaf))
                        .threads(1)
                        .want_move(false)
                        .table(&tables[leaf % tables.len()])
                        .nodes(Some(config.guess_nodes))
                        .run()?;
                    out.guess_nodes += r.stats.nodes;
                    prover.learn(leaf, Found::of_guess(prover.range(), r.verdict));
                }
            }
            Step::Test { jobs, .. } => {
                out.rounds += 1;
                out.largest_round = out.largest_round.max(jobs.len());
                for (i, job) in jobs.iter().enumerate() {
                    if i > 0 && !prover.needed(job) {
                        out.cancelled += 1;
                        continue;
                    }
                    let r = test_solver(game, prover.position(job.leaf), job.at)
                        .table(&tables[job.leaf % tables.len()])
                        .run()?;
                    out.job_nodes += r.stats.nodes;
                    out.jobs += 1;
                    prover.learn(job.leaf, Found::of_test(prover.range(), *job, r.verdict));
                }
            }
            Step::Done { value, best_move } => {
                out.value = value;
                out.best_move = best_move;
                out.tests = prover.tests();
                out.leaves_tested = prover.leaves_tested();
                out.frontier = prover.frontier();
                return Ok(out);
            }
        }
    }
}

/// The serial solver set up for the test "is `pos`'s value at least `at`?": one thread, no
/// best move, the null window `(at - 1, at)`. Give it a table and run it.
pub fn test_solver<G: Game>(game: &G, pos: G::Pos, at: Value) -> Solver<'_, G> {
    Solver::new(game)
        .position(pos)
        .threads(1)
        .want_move(false)
        .window(Some((at - 1, at)))
}
