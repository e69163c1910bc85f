//! Solving by hypothesis over a frontier: the work plan of a distributed solve, run in one
//! process (docs/design/distributed.md).
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
#[derive(Clone, Copy, Debug)]
struct Leaf<P> {
    pos: P,
    lo: Value,
    hi: Value,
    guess: Value,
    tested: bool,
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
    leaves: Vec<Leaf<G::Pos>>,
}

impl<G: Game> Plan<G> {
    /// Expands `root` to `depth` plies; transposed frontier positions share one leaf.
    fn build(game: &G, root: G::Pos, depth: usize) -> Result<Plan<G>, SolveError> {
        let (lo, hi) = game.value_range();
        let mut plan = Plan {
            nodes: Vec::new(),
            kids: Vec::new(),
            leaves: Vec::new(),
        };
        let mut seen: HashMap<u64, usize> = HashMap::new();
        // Breadth first, so that every inner node's children are contiguous in `kids`.
        let mut queue = std::collections::VecDeque::new();
        plan.nodes.push(Node::Leaf(usize::MAX));
        queue.push_back((0usize, root, 0usize));
        while let Some((n, pos, d)) = queue.pop_front() {
            let outcome = game.outcome(&pos);
            if outcome.is_some() || d == depth {
                let key = game.key(&pos);
                let leaf = *seen.entry(key).or_insert_with(|| {
                    let (l, h) = outcome.map_or((lo, hi), |v| (v, v));
                    plan.leaves.push(Leaf {
                        pos,
                        lo: l,
                        hi: h,
                        guess: 0.clamp(l, h),
                        tested: false,
                    });
                    plan.leaves.len() - 1
                });
                plan.nodes[n] = Node::Leaf(leaf);
                continue;
            }
            let mut moves = G::Moves::default();
            game.moves(&pos, &mut moves);
            // The game's static ordering breaks ties between equal guesses: the proof tries
            // first the move the search would try first.
            let mut order: Vec<G::Move> = moves.as_slice().to_vec();
            order.sort_by_key(|&mv| std::cmp::Reverse(G::Knowledge::move_hint(game, &pos, mv)));
            let first = plan.kids.len();
            for &mv in &order {
                let child = plan.nodes.len();
                if child >= MAX_NODES {
                    return Err(SolveError::Settings(format!(
                        "a frontier {depth} plies deep has more than {MAX_NODES} nodes: split less deep"
                    )));
                }
                plan.nodes.push(Node::Leaf(usize::MAX));
                plan.kids.push((child, mv));
                queue.push_back((child, game.play(&pos, mv), d + 1));
            }
            plan.nodes[n] = Node::Inner {
                first,
                len: moves.len(),
            };
        }
        Ok(plan)
    }

    fn children(&self, first: usize, len: usize) -> &[(usize, G::Move)] {
        &self.kids[first..first + len]
    }

    /// The proven interval and the guess of every node, backed up by negamax from the
    /// leaves (children come after their parents, so one backward pass does it).
    fn back_up(&self) -> Vec<(Value, Value, Value)> {
        let mut out = vec![(0, 0, 0); self.nodes.len()];
        for n in (0..self.nodes.len()).rev() {
            out[n] = match self.nodes[n] {
                Node::Leaf(l) => {
                    let leaf = &self.leaves[l];
                    (leaf.lo, leaf.hi, leaf.guess)
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
            Node::Leaf(leaf) => out.push(Job { leaf, at: w }),
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

/// Solves `root` exactly by tests over a frontier `config.depth` plies down (see the module
/// comment), every search a serial [`Solver`] run with its own table.
pub fn prove<G: Game>(
    game: &G,
    root: G::Pos,
    config: Config,
) -> Result<Outcome<G::Move>, SolveError> {
    if config.depth == 0 {
        return Err(SolveError::Settings(
            "a frontier needs at least one ply".into(),
        ));
    }
    if config.workers == 0 {
        return Err(SolveError::Settings(
            "a proof needs at least one worker".into(),
        ));
    }
    let tables = (0..config.workers)
        .map(|_| TranspositionTable::try_new(config.table_mib))
        .collect::<Result<Vec<_>, _>>()?;
    let mut plan = Plan::build(game, root, config.depth)?;
    let mut out = Outcome {
        value: 0,
        best_move: None,
        frontier: plan.leaves.len(),
        guess_nodes: 0,
        job_nodes: 0,
        rounds: 0,
        jobs: 0,
        cancelled: 0,
        largest_round: 0,
        tests: 0,
        leaves_tested: 0,
    };
    // The guessing round: a budgeted solve of every open frontier position.
    for (i, leaf) in plan.leaves.iter_mut().enumerate() {
        if leaf.lo == leaf.hi {
            continue;
        }
        let r = Solver::new(game)
            .position(leaf.pos)
            .threads(1)
            .want_move(false)
            .table(&tables[i % tables.len()])
            .nodes(Some(config.guess_nodes))
            .run()?;
        out.guess_nodes += r.stats.nodes;
        // A budgeted run either proves an interval or, where it deepened iteratively, ends
        // with a depth-limited value: no bound, but the better guess.
        let (lo, hi, guess) = match r.verdict {
            Verdict::Exact(v) => (v, v, v),
            Verdict::Bounds { lo, hi } => (lo, hi, 0),
            Verdict::DepthLimited { value, .. } => (leaf.lo, leaf.hi, value),
        };
        leaf.lo = leaf.lo.max(lo);
        leaf.hi = leaf.hi.min(hi);
        leaf.guess = guess.clamp(leaf.lo, leaf.hi);
    }
    // The root's value by tests: the first at the guess, then one value at a time away from
    // it (as the serial solver steps from its first probe), in steps that double after the
    // first three, so that a guess far off costs a logarithm of the distance; bisection once
    // the answers change direction.
    let iv = plan.back_up();
    let (mut lo, mut hi, mut w) = iv[0];
    // Same-direction answers so far, and their direction (true: upwards).
    let mut run: Option<(bool, u32)> = None;
    // The direction of the last steps, kept through the bisection.
    let mut heading: Option<bool> = None;
    while lo < hi {
        // "At least w?" with lo < w <= hi.
        w = w.clamp(lo + 1, hi);
        // Stepping in one direction, the hypothesis is that the value lies further that way:
        // the guesses, which only the answers so far have moved, would say it stops at the
        // bound just proved, and every step would begin with the wrong proof. Once a step
        // overshoots, the value most likely lies next to where it did: the bisection keeps
        // the steps' direction.
        let hope = run.map(|(dir, _)| dir).or(heading);
        let up = test(game, &mut plan, &tables, w, hope, &mut out)?;
        out.tests += 1;
        let iv = plan.back_up();
        if up {
            lo = lo.max(w).max(iv[0].0);
        } else {
            hi = hi.min(w - 1).min(iv[0].1);
        }
        heading = run.map_or(heading, |(dir, _)| Some(dir)).or(Some(up));
        run = match run {
            None if out.tests == 1 => Some((up, 1)),
            Some((dir, n)) if dir == up => Some((up, n + 1)),
            _ => None,
        };
        w = match run {
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
    }
    out.value = lo;
    out.leaves_tested = plan.leaves.iter().filter(|l| l.tested).count();
    let iv = plan.back_up();
    if let Node::Inner { first, len } = plan.nodes[0] {
        out.best_move = plan
            .children(first, len)
            .iter()
            .find(|&&(c, _)| -iv[c].1 >= lo)
            .map(|&(_, mv)| mv);
    }
    Ok(out)
}

/// Settles "the root reaches `w`" by rounds of jobs; true if it does.
fn test<G: Game>(
    game: &G,
    plan: &mut Plan<G>,
    tables: &[TranspositionTable],
    w: Value,
    hope: Option<bool>,
    out: &mut Outcome<G::Move>,
) -> Result<bool, SolveError> {
    loop {
        let iv = plan.back_up();
        if iv[0].0 >= w {
            return Ok(true);
        }
        if iv[0].1 < w {
            return Ok(false);
        }
        let round = plan.proof(w, hope);
        out.rounds += 1;
        out.largest_round = out.largest_round.max(round.len());
        for (i, job) in round.iter().enumerate() {
            if i > 0 && !plan.proof(w, hope).contains(job) {
                out.cancelled += 1;
                continue;
            }
            let leaf = &mut plan.leaves[job.leaf];
            let r = Solver::new(game)
                .position(leaf.pos)
                .threads(1)
                .want_move(false)
                .table(&tables[job.leaf % tables.len()])
                .window(Some((job.at - 1, job.at)))
                .run()?;
            out.job_nodes += r.stats.nodes;
            out.jobs += 1;
            leaf.tested = true;
            match r.verdict {
                Verdict::Bounds { lo, .. } if lo >= job.at => leaf.lo = leaf.lo.max(job.at),
                Verdict::Exact(v) => {
                    leaf.lo = v;
                    leaf.hi = v;
                }
                _ => leaf.hi = leaf.hi.min(job.at - 1),
            }
            leaf.guess = leaf.guess.clamp(leaf.lo, leaf.hi);
        }
    }
}
