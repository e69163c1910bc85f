//! The fixed positions the reports, workloads and benches search: the Connect Four test sets
//! (compiled in, so a workload is the same wherever the binary runs), a mid-game Connect Four
//! position and a few control-game graphs.

use cutoff::games::perfect::connect4::Connect4;
use cutoff::games::perfect::connect4::{parse_suite, SuiteLine};
use cutoff::games::perfect::control::Control;
use cutoff::rng::SplitMix64;

/// The six Connect Four test sets, by name, as `<moves> <score>` lines.
pub const CONNECT4_SETS: [(&str, &str); 6] = [
    (
        "end-easy",
        include_str!("../../positions/connect4/end-easy.txt"),
    ),
    (
        "middle-easy",
        include_str!("../../positions/connect4/middle-easy.txt"),
    ),
    (
        "middle-medium",
        include_str!("../../positions/connect4/middle-medium.txt"),
    ),
    (
        "begin-easy",
        include_str!("../../positions/connect4/begin-easy.txt"),
    ),
    (
        "begin-medium",
        include_str!("../../positions/connect4/begin-medium.txt"),
    ),
    (
        "begin-hard",
        include_str!("../../positions/connect4/begin-hard.txt"),
    ),
];

/// The first `limit` positions of the test set `name` (all of them with `None`).
pub fn connect4_set(name: &str, limit: Option<usize>) -> Result<Vec<SuiteLine>, String> {
    let (_, text) = CONNECT4_SETS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| format!("unknown Connect Four test set '{name}'"))?;
    let mut lines = parse_suite(text).map_err(|e| format!("test set {name}: {e}"))?;
    lines.truncate(limit.unwrap_or(usize::MAX));
    Ok(lines)
}

/// A mid-game Connect Four position (the first of Middle-Medium, 15 stones, a draw), for the
/// depth-limited comparisons.
pub const CONNECT4_MIDGAME: &str = "274552224131661";

/// The mid-game position as a game.
pub fn connect4_midgame() -> Connect4 {
    Connect4::from_moves(CONNECT4_MIDGAME).expect("the built-in position is legal")
}

/// A pseudo-random graph on `n` vertices, each edge present with probability `p`, from `seed`
/// (splitmix64, so the graph is the same on every machine).
pub fn random_graph(n: usize, p: f64, seed: u64) -> Control {
    let mut rng = SplitMix64::new(seed);
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if rng.next_f64() < p {
                edges.push((a, b));
            }
        }
    }
    Control::from_edges(n, &edges).expect("vertices are in range")
}

/// The path on `n` vertices.
pub fn path_graph(n: usize) -> Control {
    let edges: Vec<_> = (1..n).map(|v| (v - 1, v)).collect();
    Control::from_edges(n, &edges).expect("vertices are in range")
}

/// The cycle on `n` vertices.
pub fn cycle_graph(n: usize) -> Control {
    let edges: Vec<_> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    Control::from_edges(n, &edges).expect("vertices are in range")
}

/// The control-game graphs of the comparisons, by name: small enough for minimax.
pub fn control_graphs(quick: bool) -> Vec<(String, Control)> {
    if quick {
        vec![("path-8".into(), path_graph(8))]
    } else {
        vec![
            ("path-18".into(), path_graph(18)),
            ("cycle-18".into(), cycle_graph(18)),
            ("random-18-0.2".into(), random_graph(18, 0.2, 7)),
        ]
    }
}
