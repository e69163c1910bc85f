//! Cutting the work: which shard solves each line ([`balance`]), which lines a next pass
//! solves and in which windows ([`PathTree::plan`]), and which shard a job runs
//! ([`shard_index`]).

use super::paths::PathTree;
use super::ShardError;
use cutoff::Value;

/// Groups `costs` into `shards` shards of balanced total cost: the largest first, each to
/// the shard with the least so far (the LPT rule, within 4/3 of the best balance). Returns
/// each item's shard.
pub fn balance(costs: &[u64], shards: usize) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (Reverse(costs[i]), i));
    let mut load: BinaryHeap<Reverse<(u64, usize)>> =
        (0..shards.max(1)).map(|s| Reverse((0, s))).collect();
    let mut out = vec![0; costs.len()];
    for i in order {
        // The heap holds every shard at all times.
        if let Some(Reverse((l, s))) = load.pop() {
            out[i] = s;
            // Saturating: the costs come from a file.
            load.push(Reverse((l.saturating_add(costs[i].max(1)), s)));
        }
    }
    out
}

/// The shard index a job runs: `--index`, else `SLURM_ARRAY_TASK_ID` (Slurm job arrays), else
/// `JOB_COMPLETION_INDEX` (Kubernetes indexed Jobs).
pub fn shard_index(arg: Option<usize>) -> Result<usize, ShardError> {
    if let Some(i) = arg {
        return Ok(i);
    }
    for var in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        if let Ok(v) = std::env::var(var) {
            return v
                .trim()
                .parse()
                .map_err(|_| ShardError::BadIndexVar { var, value: v });
        }
    }
    Err(ShardError::NoIndex)
}

// The passes planned over the tree of paths; the tree itself is in paths.rs.
impl PathTree {
    /// Every node's interval, from the lines' (negamax: a node's value is the most of its
    /// children's negated values, so its bounds are the most of their negated bounds).
    pub fn back_up(&self, lines: &[[Value; 2]]) -> Vec<[Value; 2]> {
        let mut iv = vec![[0, 0]; self.len()];
        // Children come after their parents: backwards, every child is done first.
        for n in (0..self.len()).rev() {
            iv[n] = match self.line(n) {
                Some(id) => lines[id],
                None => self
                    .children(n)
                    .map(|c| [-iv[c][1], -iv[c][0]])
                    .reduce(|b, x| [b[0].max(x[0]), b[1].max(x[1])])
                    .unwrap_or([0, 0]),
            };
        }
        iv
    }

    /// The windows in which lines must be solved so that the split position's value comes
    /// out exact, given every node's interval `iv` so far: alpha-beta over intervals. A node
    /// needs nothing if its interval already settles it within its window; a child that
    /// cannot rise above both the window and its brothers' proven lower bounds needs nothing
    /// either; every other child gets the window between those and the node's beta. Solved
    /// fail-hard in these windows, the lines settle the root in one more pass. `lines` is the
    /// number of lines; the recursion is as deep as the tree.
    pub fn plan(&self, iv: &[[Value; 2]], lines: usize) -> Vec<Option<[Value; 2]>> {
        let mut need: Vec<Option<[Value; 2]>> = vec![None; lines];
        if let Some(&[lo, hi]) = iv.first() {
            if lo < hi {
                self.select(0, lo - 1, hi + 1, iv, &mut need);
            }
        }
        need
    }

    fn select(
        &self,
        n: usize,
        alpha: Value,
        beta: Value,
        iv: &[[Value; 2]],
        need: &mut [Option<[Value; 2]>],
    ) {
        let [lo, hi] = iv[n];
        if lo >= beta || hi <= alpha || lo == hi {
            return;
        }
        if let Some(id) = self.line(n) {
            let w = [alpha.max(lo - 1), beta.min(hi + 1)];
            need[id] = Some(match need[id] {
                Some([a, b]) => [a.min(w[0]), b.max(w[1])],
                None => w,
            });
            return;
        }
        // The two best proven lower bounds among the children, as the parent sees them.
        let (mut first, mut second) = (Value::MIN, Value::MIN);
        let mut arg = usize::MAX;
        for c in self.children(n) {
            let l = -iv[c][1];
            if l > first {
                (second, first, arg) = (first, l, c);
            } else if l > second {
                second = l;
            }
        }
        for c in self.children(n) {
            let others = if c == arg { second } else { first };
            let t = alpha.max(others);
            if -iv[c][0] <= t {
                continue;
            }
            self.select(c, -beta, -t, iv, need);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_spreads_cost_evenly() {
        let costs = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
        let s = balance(&costs, 3);
        let mut load = [0u64; 3];
        for (i, &sh) in s.iter().enumerate() {
            load[sh] += costs[i];
        }
        // 55 over 3 shards: LPT gives 19/18/18.
        assert!(
            load.iter().max().unwrap() - load.iter().min().unwrap() <= 1,
            "{load:?}"
        );
    }

    #[test]
    fn balance_leaves_extra_shards_empty() {
        let s = balance(&[5, 3], 4);
        assert_ne!(s[0], s[1]);
        assert!(s.iter().all(|&x| x < 4));
    }

    #[test]
    fn balance_survives_costs_at_the_top_of_u64() {
        let s = balance(&[u64::MAX, u64::MAX, u64::MAX], 2);
        assert!(s.iter().all(|&x| x < 2));
    }

    /// A random tree of paths (depth up to 4, 1 to 4 children) with random leaf values,
    /// built in preorder as `check_paths` (check.rs) builds it.
    fn random_tree(seed: u64) -> (PathTree, Vec<Value>) {
        fn grow(
            t: &mut PathTree,
            rng: &mut cutoff::rng::SplitMix64,
            values: &mut Vec<Value>,
            d: usize,
            depth: usize,
            mv: u16,
        ) {
            let n = t.push(mv) as usize;
            if d == depth || (d > 0 && rng.next_u64().is_multiple_of(5)) {
                t.set_line(n, values.len());
                values.push((rng.next_u64() % 11) as Value - 5);
            } else {
                for k in 0..1 + rng.next_u64() % 4 {
                    grow(t, rng, values, d + 1, depth, k as u16);
                }
            }
            t.close(n);
        }
        let mut rng = cutoff::rng::SplitMix64::new(seed);
        let mut t = PathTree::default();
        let mut values = Vec::new();
        let depth = 1 + rng.next_u64() as usize % 4;
        grow(&mut t, &mut rng, &mut values, 0, depth, 0);
        (t, values)
    }

    fn negamax(t: &PathTree, n: usize, values: &[Value]) -> Value {
        match t.line(n) {
            Some(id) => values[id],
            None => t.children(n).map(|c| -negamax(t, c, values)).max().unwrap(),
        }
    }

    /// What a fail-hard solve of a line of value `v` in `(a, b)` proves.
    fn solve_in(v: Value, [a, b]: [Value; 2], range: [Value; 2]) -> [Value; 2] {
        if v <= a {
            [range[0], a]
        } else if v >= b {
            [b, range[1]]
        } else {
            [v, v]
        }
    }

    #[test]
    fn one_planned_pass_settles_the_root_whatever_the_first_pass_proved() {
        let range = [-5, 5];
        for seed in 0..3000 {
            let (t, values) = random_tree(seed);
            let truth = negamax(&t, 0, &values);
            // First pass: every line in one window of the root's, seen from its own side
            // (here: the window of the line's parity, as split writes it).
            let mut rng = cutoff::rng::SplitMix64::new(seed ^ 0xabc);
            let a = (rng.next_u64() % 11) as Value - 6;
            let b = a + 1 + (rng.next_u64() % 4) as Value;
            let mut known: Vec<[Value; 2]> = values
                .iter()
                .map(|&v| solve_in(v, [a.min(4), b.min(5)], range))
                .collect();
            let iv = t.back_up(&known);
            assert!(iv[0][0] <= truth && truth <= iv[0][1], "seed {seed}");
            let need = t.plan(&iv, values.len());
            for (id, w) in need.iter().enumerate() {
                if let Some(w) = w {
                    assert!(w[0] < w[1], "seed {seed}: empty window");
                    let r = solve_in(values[id], *w, range);
                    known[id] = [known[id][0].max(r[0]), known[id][1].min(r[1])];
                }
            }
            let iv = t.back_up(&known);
            assert_eq!(iv[0], [truth, truth], "seed {seed}: {need:?}");
        }
    }
}
