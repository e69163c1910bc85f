//! Games that break their `max_plies` promise: a search to the end that meets a position at
//! the game's cap without an outcome has proved nothing, and every way of running it says so
//! (`SolveError::Unfinished` with the line, never `Verdict::Exact`); a search to a depth below
//! the cap gives its depth-limited value as before; honest versions of the same games are
//! solved exactly.

use cutoff::advanced::{parallel_search, Searcher};
use cutoff::knowledge::NoKnowledge;
use cutoff::solver::{Mode, ParallelConfig, SolveError, Threads, Verdict};
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game, MoveBuffer, MoveList, Notation, Player, Solver, Value};
use std::time::Duration;

/// Every algorithm a [`Solver`] runs.
const ALGOS: [Algorithm; 10] = [
    Algorithm::Minimax,
    Algorithm::Negamax,
    Algorithm::AlphaBeta,
    Algorithm::AlphaBetaHard,
    Algorithm::Veb,
    Algorithm::Ab,
    Algorithm::Pvs,
    Algorithm::Mtdf,
    Algorithm::Solve,
    Algorithm::Theory,
];

const MODES: [Mode; 4] = [Mode::Ybwc, Mode::Abdada, Mode::LazySmp, Mode::Root];

/// A position of the test games: a state, the plies played, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    state: u16,
    plies: u8,
    player: Player,
}

/// The test games, two moves everywhere until the game ends.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Four states in a ring, moves one or three steps round: never ends. It claims `cap`
    /// plies at every position (as a Python game without `max_plies(s)` gets 1000); the
    /// key ignores the plies played (a repeated position is the same position).
    Cycle { cap: usize },
    /// The ring with a move counter: a draw once `cap` plies are played, and `max_plies`
    /// says so. Honest.
    CountedCycle { cap: usize },
    /// A binary tree ending after `depth` plies (the value depends on the path) that claims
    /// to end after `claims` plies.
    Tree { depth: u8, claims: u8 },
}

struct Test(Kind);

impl Game for Test {
    type Pos = Pos;
    type Move = u8;
    type Moves = MoveList<u8, 2>;
    type Knowledge = NoKnowledge;

    fn initial(&self) -> Pos {
        Pos {
            state: 0,
            plies: 0,
            player: Player::First,
        }
    }

    fn to_move(&self, pos: &Pos) -> Player {
        pos.player
    }

    fn outcome(&self, pos: &Pos) -> Option<Value> {
        match self.0 {
            Kind::Cycle { .. } => None,
            Kind::CountedCycle { cap } => (usize::from(pos.plies) >= cap).then_some(0),
            Kind::Tree { depth, .. } => {
                (pos.plies >= depth).then(|| (pos.state.count_ones() % 3) as Value - 1)
            }
        }
    }

    fn moves(&self, _pos: &Pos, out: &mut Self::Moves) {
        out.clear();
        out.push(0);
        out.push(1);
    }

    fn play(&self, pos: &Pos, mv: u8) -> Pos {
        let state = match self.0 {
            Kind::Cycle { .. } | Kind::CountedCycle { .. } => (pos.state + 1 + 2 * mv as u16) % 4,
            Kind::Tree { .. } => pos.state << 1 | u16::from(mv),
        };
        Pos {
            state,
            plies: pos.plies + 1,
            player: pos.player.other(),
        }
    }

    fn key(&self, pos: &Pos) -> u64 {
        let player = u64::from(pos.player == Player::Second);
        let plies = match self.0 {
            Kind::Cycle { .. } => 0,
            _ => u64::from(pos.plies),
        };
        (u64::from(pos.state) << 9 | plies << 1 | player) + 1
    }

    fn max_plies(&self, pos: &Pos) -> usize {
        match self.0 {
            Kind::Cycle { cap } => cap,
            Kind::CountedCycle { cap } => cap.saturating_sub(usize::from(pos.plies)),
            Kind::Tree { claims, .. } => usize::from(claims.saturating_sub(pos.plies)),
        }
    }

    fn move_code(&self, mv: u8) -> u8 {
        mv
    }

    fn value_range(&self) -> (Value, Value) {
        (-1, 1)
    }
}

impl Notation for Test {
    fn name(&self) -> &'static str {
        "test"
    }

    fn format_move(&self, _pos: &Pos, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, _pos: &Pos, text: &str) -> Result<u8, cutoff::GameError> {
        text.parse()
            .map_err(|_| cutoff::GameError::new("not a move"))
    }
}

/// The liars: a cycle claiming 9 plies, a tree 10 plies deep claiming 8.
fn liars() -> [Test; 2] {
    [
        Test(Kind::Cycle { cap: 9 }),
        Test(Kind::Tree {
            depth: 10,
            claims: 8,
        }),
    ]
}

/// Checks that `r` is the unfinished error of `game`: its cap, and a line that reaches the
/// cap without an outcome.
fn assert_unfinished<R: std::fmt::Debug>(game: &Test, r: Result<R, SolveError>, what: &str) {
    let cap = game.max_plies(&game.initial());
    match r {
        Err(SolveError::Unfinished {
            max_plies,
            ref line,
        }) => {
            assert_eq!(max_plies, cap, "{what}");
            assert_eq!(line.len(), cap, "{what}: {line:?}");
            let mut pos = game.initial();
            for m in line {
                let mv: u8 = m.parse().expect("a move's Debug text");
                assert!(mv < 2, "{what}: {line:?}");
                assert_eq!(game.outcome(&pos), None, "{what}: {line:?}");
                pos = game.play(&pos, mv);
            }
            assert_eq!(game.outcome(&pos), None, "{what}: {line:?}");
            let msg = r.unwrap_err().to_string();
            assert!(msg.contains(&format!("max_plies = {cap}")), "{msg}");
            assert!(!msg.contains('\n'), "{msg}");
        }
        other => panic!("{what}: expected the unfinished error, got {other:?}"),
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("threads start")
}

/// Splits at the smallest sizes, so that the parallel searches split on these small trees.
fn eager(mode: Mode) -> ParallelConfig {
    ParallelConfig {
        mode,
        min_split_depth: 2,
        min_split_nodes: 0,
        oversubscribe: true,
        ..ParallelConfig::default()
    }
}

#[test]
fn every_algorithm_on_one_thread_reports_the_broken_promise() {
    for game in liars() {
        for algo in ALGOS {
            let what = format!("{:?} {algo:?}", game.0);
            let r = Solver::new(&game).algorithm(algo).threads(1).run();
            assert_unfinished(&game, r, &what);
            // A depth at or beyond the cap is the cap.
            let cap = game.max_plies(&game.initial());
            for depth in [cap, cap + 3] {
                let r = Solver::new(&game)
                    .algorithm(algo)
                    .depth(Some(depth))
                    .threads(1)
                    .run();
                assert_unfinished(&game, r, &format!("{what} depth {depth}"));
            }
        }
        let r = Solver::new(&game).weak(true).threads(1).run();
        assert_unfinished(&game, r, "weak");
        let r = Solver::new(&game).want_move(false).threads(1).run();
        assert_unfinished(&game, r, "without the move");
        // Each move's search (its child's cap) ends so.
        let r = Solver::new(&game).threads(1).analyse();
        assert!(matches!(r, Err(SolveError::Unfinished { .. })), "{r:?}");
    }
}

#[test]
fn every_parallel_mode_and_thread_count_reports_the_broken_promise() {
    for game in liars() {
        for threads in [2, 3] {
            let p = pool(threads);
            for mode in MODES {
                for algo in [Algorithm::Pvs, Algorithm::Solve, Algorithm::Mtdf] {
                    let what = format!("{:?} {algo:?} {mode:?} {threads}", game.0);
                    let r = Solver::new(&game)
                        .algorithm(algo)
                        .threads(threads)
                        .pool(&p)
                        .parallel(eager(mode))
                        .run();
                    assert_unfinished(&game, r, &what);
                }
                // Iterative deepening on many threads, with a node and a time budget.
                let r = Solver::new(&game)
                    .threads(threads)
                    .pool(&p)
                    .parallel(eager(mode))
                    .nodes(Some(1 << 40))
                    .run();
                assert_unfinished(&game, r, &format!("{mode:?} {threads} nodes"));
                let r = Solver::new(&game)
                    .threads(threads)
                    .pool(&p)
                    .parallel(eager(mode))
                    .time(Some(Duration::from_secs(600)))
                    .run();
                assert_unfinished(&game, r, &format!("{mode:?} {threads} time"));
                // The driver itself: stopped, whoever finished first.
                let tt = TranspositionTable::new(1);
                let r = parallel_search(
                    &game,
                    game.initial(),
                    Algorithm::Solve,
                    &tt,
                    &p,
                    eager(mode),
                    Default::default(),
                );
                assert!(r.stopped, "{mode:?} {threads}: {r:?}");
            }
        }
        // The default: one thread first, then every core.
        let r = Solver::new(&game)
            .thread_policy(Threads::Auto)
            .parallel(eager(Mode::Ybwc))
            .run();
        assert_unfinished(&game, r, "auto");
        // Serial iterative deepening with a node and a time budget.
        let r = Solver::new(&game).threads(1).nodes(Some(1 << 40)).run();
        assert_unfinished(&game, r, "serial nodes");
        let r = Solver::new(&game)
            .threads(1)
            .time(Some(Duration::from_secs(600)))
            .run();
        assert_unfinished(&game, r, "serial time");
    }
}

#[test]
fn a_search_below_the_cap_is_depth_limited_as_before() {
    for game in liars() {
        let cap = game.max_plies(&game.initial());
        for depth in [1, cap - 1] {
            for algo in ALGOS {
                let r = Solver::new(&game)
                    .algorithm(algo)
                    .depth(Some(depth))
                    .threads(1)
                    .run()
                    .expect("a depth-limited search");
                assert!(
                    matches!(r.verdict, Verdict::DepthLimited { depth: d, .. } if d == depth),
                    "{:?} {algo:?} {depth}: {:?}",
                    game.0,
                    r.verdict
                );
            }
            for mode in MODES {
                let r = Solver::new(&game)
                    .depth(Some(depth))
                    .threads(2)
                    .pool(&pool(2))
                    .parallel(eager(mode))
                    .run()
                    .expect("a depth-limited search");
                assert!(
                    matches!(r.verdict, Verdict::DepthLimited { depth: d, .. } if d == depth),
                    "{mode:?}: {:?}",
                    r.verdict
                );
            }
            // Iterative deepening to that depth.
            let r = Solver::new(&game)
                .depth(Some(depth))
                .nodes(Some(1 << 40))
                .threads(1)
                .run()
                .expect("a depth-limited search");
            assert!(matches!(r.verdict, Verdict::DepthLimited { depth: d, .. } if d == depth));
        }
        // A table filled by searches short of the cap hides nothing from one to the cap.
        let tt = TranspositionTable::new(1);
        for depth in 1..cap {
            Solver::new(&game)
                .algorithm(Algorithm::Pvs)
                .depth(Some(depth))
                .threads(1)
                .table(&tt)
                .run()
                .expect("a depth-limited search");
        }
        for algo in [Algorithm::Pvs, Algorithm::Mtdf, Algorithm::Solve] {
            let r = Solver::new(&game)
                .algorithm(algo)
                .threads(1)
                .table(&tt)
                .run();
            assert_unfinished(&game, r, &format!("{algo:?} after the shallow searches"));
        }
    }
}

#[test]
fn the_searcher_names_the_line_and_says_it_stopped() {
    for game in liars() {
        let cap = game.max_plies(&game.initial());
        for algo in ALGOS {
            let tt = TranspositionTable::new(1);
            let mut s = Searcher::new(&game, game.initial(), None);
            if algo.uses_table() {
                s = s.table(&tt);
            }
            s.run(algo);
            assert!(s.stopped(), "{algo:?}");
            let line = s.unfinished().expect("the line").to_vec();
            assert_eq!(line.len(), cap, "{algo:?}");
            // Stopped at once: the first line down the tree (the textbook searches try the
            // moves in the game's order).
            if !algo.uses_table() && algo != Algorithm::Theory {
                assert_eq!(line, vec![0; cap], "{algo:?}");
                assert_eq!(s.stats().nodes, cap as u64 + 1, "{algo:?}");
            }
            // The same searcher, below the cap: nothing unfinished, not stopped.
            s.set_root(game.initial(), Some(cap - 1));
            s.run(algo);
            assert!(!s.stopped() && s.unfinished().is_none(), "{algo:?}");
        }
    }
}

/// Brute-force negamax of the test games.
fn brute(game: &Test, pos: &Pos) -> Value {
    if let Some(v) = game.outcome(pos) {
        return v;
    }
    let mut moves = MoveList::<u8, 2>::default();
    game.moves(pos, &mut moves);
    moves
        .as_slice()
        .iter()
        .map(|&m| -brute(game, &game.play(pos, m)))
        .max()
        .expect("moves")
}

#[test]
fn honest_versions_are_solved_exactly() {
    let honest = [
        Test(Kind::CountedCycle { cap: 9 }),
        Test(Kind::Tree {
            depth: 10,
            claims: 10,
        }),
        // A bound larger than needed is a true bound.
        Test(Kind::Tree {
            depth: 8,
            claims: 12,
        }),
    ];
    for game in honest {
        let want = brute(&game, &game.initial());
        for algo in ALGOS {
            let r = Solver::new(&game)
                .algorithm(algo)
                .threads(1)
                .run()
                .expect("solved");
            assert_eq!(r.verdict, Verdict::Exact(want), "{:?} {algo:?}", game.0);
        }
        for mode in MODES {
            let r = Solver::new(&game)
                .threads(2)
                .pool(&pool(2))
                .parallel(eager(mode))
                .run()
                .expect("solved");
            assert_eq!(r.verdict, Verdict::Exact(want), "{:?} {mode:?}", game.0);
        }
        let r = Solver::new(&game)
            .threads(1)
            .nodes(Some(1 << 40))
            .run()
            .expect("solved");
        assert_eq!(r.verdict, Verdict::Exact(want), "{:?} nodes", game.0);
        let a = Solver::new(&game).threads(1).analyse().expect("analysed");
        assert_eq!(a.best().map(|(_, v)| v), Some(want));
    }
}
