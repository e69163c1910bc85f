//! Where a search's work goes, ply by ply: [`Profile`] is an [`Observer`] that counts how
//! each node of a table-driven search ended (settled by the game's analysis, its bounds, the
//! table, an enhanced cutoff, or its moves searched) and how soon the searched ones cut off.
//! It answers the questions of a pruning study: at which depths the nodes are, how often each
//! kind of knowledge settles a node, how good the move order is where it matters.
//!
//! ```
//! use cutoff::advanced::Searcher;
//! use cutoff::games::perfect::connect4::Connect4;
//! use cutoff::profile::Profile;
//! use cutoff::tt::TranspositionTable;
//! use cutoff::Algorithm;
//!
//! let game = Connect4::from_moves("4453").unwrap();
//! let tt = TranspositionTable::try_new(16).unwrap();
//! let root = cutoff::Game::initial(&game);
//! let mut s = Searcher::with_observer(&game, root, None, Profile::default()).table(&tt);
//! s.run(Algorithm::Solve);
//! let nodes = s.stats().nodes;
//! let profile = s.into_observer();
//! assert_eq!(profile.total().nodes(), nodes);
//! ```
//!
//! A profiled search searches the same tree as the plain one, a little slower: the plain
//! search's observer does nothing and is compiled away, this one counts.

use crate::game::Game;
use crate::search::{Ending, Observer};
use serde::Serialize;

/// How the nodes of one ply ended (see [`Ending`]). The counts add up: every node counted by
/// the search's [`Stats::nodes`](crate::Stats::nodes) ended one of the ways counted here
/// (see [`PlyProfile::nodes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlyProfile {
    /// Leaves: the end of the game or the horizon, or a win or a loss the game's analysis
    /// saw at once.
    pub analysis: u64,
    /// Settled by the game's bounds on their value.
    pub bounds: u64,
    /// Settled by their own table entry.
    pub table: u64,
    /// Cut off by a child's table entry (enhanced transposition cutoffs).
    pub enhanced_cutoffs: u64,
    /// Nodes whose moves were searched (the cut nodes and the others together).
    pub searched: u64,
    /// Searched nodes that a move cut off.
    pub cut_nodes: u64,
    /// Cut nodes cut off by the first move searched.
    pub first_move_cuts: u64,
    /// Moves searched at the cut nodes, all together.
    pub moves_at_cuts: u64,
    /// Moves searched at the nodes no move cut off, all together.
    pub moves_at_others: u64,
    /// Single-move positions passed through, not counted as nodes.
    pub forced: u64,
    /// Children their parent settled from the table without entering them, not counted as
    /// nodes.
    pub settled_by_parent: u64,
}

impl PlyProfile {
    /// Nodes counted: every way a node ends but the two that are not nodes (forced moves
    /// and children settled by their parent).
    pub fn nodes(&self) -> u64 {
        self.analysis + self.bounds + self.table + self.enhanced_cutoffs + self.searched
    }

    /// Share of the cut nodes cut off by their first move, in 0..=1 (0 without cut nodes).
    pub fn first_move_cut_rate(&self) -> f64 {
        ratio(self.first_move_cuts, self.cut_nodes)
    }

    /// Mean moves searched at a cut node (0 without cut nodes): 1 is a perfect order.
    pub fn moves_per_cut(&self) -> f64 {
        ratio(self.moves_at_cuts, self.cut_nodes)
    }

    /// Adds another profile's counts.
    pub fn add(&mut self, o: &PlyProfile) {
        self.analysis += o.analysis;
        self.bounds += o.bounds;
        self.table += o.table;
        self.enhanced_cutoffs += o.enhanced_cutoffs;
        self.searched += o.searched;
        self.cut_nodes += o.cut_nodes;
        self.first_move_cuts += o.first_move_cuts;
        self.moves_at_cuts += o.moves_at_cuts;
        self.moves_at_others += o.moves_at_others;
        self.forced += o.forced;
        self.settled_by_parent += o.settled_by_parent;
    }

    fn record(&mut self, how: Ending) {
        match how {
            Ending::Analysis => self.analysis += 1,
            Ending::Bounds => self.bounds += 1,
            Ending::Table => self.table += 1,
            Ending::EnhancedCutoff => self.enhanced_cutoffs += 1,
            Ending::Searched { tried, cutoff } => {
                self.searched += 1;
                if cutoff {
                    self.cut_nodes += 1;
                    self.first_move_cuts += u64::from(tried == 1);
                    self.moves_at_cuts += tried as u64;
                } else {
                    self.moves_at_others += tried as u64;
                }
            }
            Ending::Forced => self.forced += 1,
            Ending::SettledByParent => self.settled_by_parent += 1,
        }
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// A search's [`PlyProfile`]s, one per ply from the root (ply 0), for any game: the observer
/// counts the [`Observer::ended`] events of the table-driven searches (PVS, MTD(f) and the
/// null-window solver). The other searches report no endings and leave it empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// Ply `i`'s counts at index `i`, up to the deepest ply that ended a node.
    pub plies: Vec<PlyProfile>,
}

impl Profile {
    /// Every ply's counts added up.
    pub fn total(&self) -> PlyProfile {
        let mut t = PlyProfile::default();
        for p in &self.plies {
            t.add(p);
        }
        t
    }

    /// Adds another search's profile, ply by ply (a test set's positions, each from its own
    /// root).
    pub fn add(&mut self, o: &Profile) {
        if self.plies.len() < o.plies.len() {
            self.plies.resize(o.plies.len(), PlyProfile::default());
        }
        for (a, b) in self.plies.iter_mut().zip(&o.plies) {
            a.add(b);
        }
    }

    /// The row of `ply`, grown to it first if need be (a few times a search: once per new
    /// deepest ply).
    #[inline]
    fn row(&mut self, ply: usize) -> &mut PlyProfile {
        if ply >= self.plies.len() {
            self.grow(ply);
        }
        &mut self.plies[ply]
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, ply: usize) {
        self.plies.resize(ply + 1, PlyProfile::default());
    }
}

impl<G: Game> Observer<G> for Profile {
    const ENDINGS: bool = true;

    #[inline]
    fn ended(&mut self, ply: usize, how: Ending) {
        self.row(ply).record(how);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advanced::Searcher;
    use crate::games::perfect::connect4::Connect4;
    use crate::games::perfect::random_tree::{Order, RandomTree};
    use crate::search::Algorithm;
    use crate::tt::TranspositionTable;

    fn profiled<G: Game>(game: &G, algo: Algorithm) -> (crate::Stats, Profile, crate::Stats) {
        let tt = TranspositionTable::try_new(4).unwrap();
        let root = game.initial();
        let mut s = Searcher::with_observer(game, root, None, Profile::default()).table(&tt);
        s.run(algo);
        let stats = s.stats();
        let profile = s.into_observer();
        // The same search without the observer, on a fresh table.
        let tt2 = TranspositionTable::try_new(4).unwrap();
        let mut plain = Searcher::new(game, root, None).table(&tt2);
        plain.run(algo);
        (stats, profile, plain.stats())
    }

    #[test]
    fn counts_add_up_to_the_search_stats_on_connect4() {
        for moves in [
            "2416615552",
            "44444432",
            "37313333717124171162542",
            "4455661",
        ] {
            let game = Connect4::from_moves(moves).unwrap();
            for algo in [Algorithm::Solve, Algorithm::Pvs, Algorithm::Mtdf] {
                let (stats, profile, plain) = profiled(&game, algo);
                // Observing changes nothing in the search.
                assert_eq!(stats, plain, "{moves} {algo}");
                let t = profile.total();
                assert_eq!(t.nodes(), stats.nodes, "{moves} {algo}");
                assert_eq!(t.forced, stats.forced, "{moves} {algo}");
                assert_eq!(t.searched, stats.searched, "{moves} {algo}");
                assert_eq!(t.enhanced_cutoffs, stats.etc_cutoffs, "{moves} {algo}");
                assert_eq!(t.cut_nodes, stats.cutoffs, "{moves} {algo}");
                assert_eq!(
                    t.first_move_cuts, stats.first_move_cutoffs,
                    "{moves} {algo}"
                );
                assert!(t.moves_at_cuts >= t.cut_nodes);
                // Only the root is at ply 0, entered once per probe or iteration.
                assert!(profile.plies[0].nodes() >= 1);
            }
        }
    }

    #[test]
    fn counts_add_up_on_random_trees() {
        for seed in 0..20 {
            let game = RandomTree::new(4, 6, seed, Order::Random).unwrap();
            for algo in [Algorithm::Solve, Algorithm::Pvs] {
                let (stats, profile, plain) = profiled(&game, algo);
                assert_eq!(stats, plain, "seed {seed} {algo}");
                let t = profile.total();
                assert_eq!(t.nodes(), stats.nodes, "seed {seed} {algo}");
                assert_eq!(t.cut_nodes, stats.cutoffs, "seed {seed} {algo}");
                // A tree without knowledge: its leaves end at the horizon, no node is
                // forced and no bound fires.
                assert_eq!(t.forced, 0);
                assert_eq!(t.bounds, 0);
                assert!(t.analysis > 0);
                assert_eq!(profile.plies.len(), 7, "seed {seed}: plies 0 to 6");
            }
        }
    }

    #[test]
    fn profiles_add_ply_by_ply() {
        let mut a = Profile {
            plies: vec![PlyProfile {
                searched: 1,
                cut_nodes: 1,
                first_move_cuts: 1,
                moves_at_cuts: 1,
                ..PlyProfile::default()
            }],
        };
        let b = Profile {
            plies: vec![
                PlyProfile {
                    searched: 2,
                    cut_nodes: 2,
                    moves_at_cuts: 5,
                    ..PlyProfile::default()
                },
                PlyProfile {
                    table: 3,
                    ..PlyProfile::default()
                },
            ],
        };
        a.add(&b);
        assert_eq!(a.plies.len(), 2);
        assert_eq!(a.plies[0].searched, 3);
        assert_eq!(a.plies[0].moves_at_cuts, 6);
        assert_eq!(a.plies[1].table, 3);
        let t = a.total();
        assert_eq!(t.nodes(), 6);
        assert!((t.first_move_cut_rate() - 1.0 / 3.0).abs() < 1e-12);
        assert!((t.moves_per_cut() - 2.0).abs() < 1e-12);
    }
}
