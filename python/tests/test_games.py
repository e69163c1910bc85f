"""Games written in Python, searched by the engine: values against a brute-force oracle,
node counts against the same game in Rust, the trace, and what a faulty game gets."""

import random

import pytest

import cutoff
from games import (
    CountedCycle,
    Cycle,
    Nim,
    RepetitionCycle,
    SameKeys,
    SameKeysNim,
    ShortCycle,
    TicTacToe,
)

TWO_PLAYER = ["minimax", "negamax", "alphabeta", "alphabeta-hard", "veb", "ab", "pvs", "mtdf", "solve"]


def negamax(game, s):
    """The oracle: plain negamax in Python."""
    v = game.outcome(s)
    if v is not None:
        return v
    return max(-negamax(game, game.play(s, m)) for m in game.moves(s))


@pytest.mark.parametrize("algo", TWO_PLAYER)
def test_tictactoe_is_a_draw_with_the_rust_game_s_node_counts(algo):
    py = cutoff.search(TicTacToe(), algo=algo)
    rust = cutoff.solve("tictactoe", algo=algo, threads=1)
    assert py.value == 0 == rust.value
    assert py.exact
    assert py.nodes == rust.nodes, (algo, py.nodes, rust.nodes)
    assert py.searched == rust.searched, (algo, py.searched, rust.searched)
    assert py.leaves == rust.leaves and py.cutoffs == rust.cutoffs
    # The best move is a cell, as the Rust game writes it.
    assert str(py.best_move) == rust.best_move


def test_positions_from_python_states_match_the_rust_game():
    game = TicTacToe()
    s = game.play(game.play(game.initial(), 5), 1)
    py = cutoff.search(game, s, algo="pvs")
    rust = cutoff.solve("tictactoe", "O...X....", algo="pvs", threads=1)
    assert py.value == rust.value == negamax(game, s)
    assert py.nodes == rust.nodes


class RandomTree:
    """A random game tree: a state is a node's path; leaves carry values in [-9, 9]."""

    def __init__(self, seed, depth, branching):
        self.rng = random.Random(seed)
        self.depth = depth
        self.branching = branching
        self.values = {}

    def initial(self):
        return ()

    def to_move(self, s):
        return len(s) % 2

    def moves(self, s):
        # Between 1 and `branching` children, fixed by the path.
        return list(range(1 + hash(s) % self.branching))

    def play(self, s, m):
        return s + (m,)

    def outcome(self, s):
        if len(s) < self.depth:
            return None
        if s not in self.values:
            self.values[s] = self.rng.randint(-9, 9)
        return self.values[s]

    def key(self, s):
        return s

    def value_range(self):
        return (-9, 9)

    def max_plies(self, s):
        return self.depth - len(s)


@pytest.mark.parametrize("seed", range(40))
def test_every_search_gives_the_oracle_s_value_on_random_trees(seed):
    game = RandomTree(seed, depth=2 + seed % 4, branching=2 + seed % 3)
    # Fix every leaf's value first, so that the oracle and the searches see one tree.
    want = negamax(game, game.initial())
    for algo in TWO_PLAYER:
        r = cutoff.search(game, algo=algo)
        assert r.value == want, (seed, algo)
        assert r.exact


def test_nim_values_follow_the_theory():
    for heap in range(0, 30):
        r = cutoff.search(Nim(heap))
        # Lost for the side to move exactly at multiples of 4.
        assert r.value == (-1 if heap % 4 == 0 else 1), heap
        if heap % 4:
            assert r.best_move == heap % 4


def test_a_depth_limit_uses_evaluate_and_is_not_exact():
    class Evaluated(Nim):
        def evaluate(self, s):
            return 0

        def value_range(self):
            return (-1, 1)

        def max_plies(self, s):
            return s[0]

    r = cutoff.search(Evaluated(40), algo="alphabeta", depth=3)
    assert r.value == 0 and not r.exact
    deep = cutoff.search(Evaluated(41), algo="iterative", depth=60)
    assert deep.value == 1 and deep.exact


def test_the_trace_records_entries_settlements_and_prunings():
    game = TicTacToe()
    r = cutoff.search(game, algo="alphabeta", trace=True)
    kinds = {e[0] for e in r.trace}
    assert kinds == {"entered", "settled", "pruned"}
    entered = [e for e in r.trace if e[0] == "entered"]
    assert len(entered) == r.nodes
    assert entered[0][2] == game.initial() and entered[0][3] == (None, None)
    # The root settles last, on the value.
    last = r.trace[-1]
    assert last[0] == "settled" and last[1] == 0 and last[3] == r.value
    pruned = [e for e in r.trace if e[0] == "pruned"]
    for _, ply, parent, (move, bound) in pruned:
        assert move in game.moves(parent)
    untraced = cutoff.search(game, algo="alphabeta")
    assert untraced.nodes == r.nodes and untraced.value == r.value


def test_the_null_window_solver_uses_the_table_and_ordering():
    plain = cutoff.search(TicTacToe(), algo="alphabeta")
    solved = cutoff.search(TicTacToe(), algo="solve")
    assert solved.nodes < plain.nodes
    assert solved.positions <= 5478


def test_an_exception_in_the_game_is_raised_as_it_was():
    class Broken(TicTacToe):
        def play(self, s, m):
            if m == 9:
                raise RuntimeError("no cell nine")
            return super().play(s, m)

    with pytest.raises(RuntimeError, match="no cell nine"):
        cutoff.search(Broken(), algo="minimax")


@pytest.mark.parametrize(
    "patch, message",
    [
        ({"to_move": lambda self, s: 2}, "to_move"),
        ({"outcome": lambda self, s: "won"}, "outcome"),
        ({"outcome": lambda self, s: 5 if s == (0, 0) else None}, "value range"),
        ({"moves": lambda self, s: [] if s != (0, 0) else [1]}, "no moves"),
    ],
)
def test_a_faulty_game_gets_a_clear_error(patch, message):
    Faulty = type("Faulty", (TicTacToe,), patch)
    with pytest.raises(cutoff.Error, match=message):
        cutoff.search(Faulty())


def test_a_game_without_a_required_method_is_refused():
    class NoKey:
        def initial(self):
            return 0

    with pytest.raises(cutoff.Error, match="no method to_move"):
        cutoff.solve(NoKey())


def test_bad_settings_are_refused_with_one_line():
    for kwargs, message in [
        ({"algo": "bogus"}, "bogus"),
        ({"algo": "minimax", "nodes": 10}, "budget"),
        ({"algo": "iterative"}, "needs a depth"),
        ({"tt_mb": 0}, "tt_mb"),
        ({"algo": "iterative", "depth": 3, "trace": True}, "trace"),
    ]:
        with pytest.raises(cutoff.Error, match=message) as e:
            cutoff.search(TicTacToe(), **kwargs)
        assert "\n" not in str(e.value)


def test_a_node_budget_keeps_the_last_finished_depth():
    r = cutoff.search(Nim(200), algo="iterative", nodes=2000)
    assert r.stopped == "budget"
    assert r.nodes <= 2000
    assert r.value is not None


def test_a_game_whose_side_moves_twice_is_refused():
    class Twice(Nim):
        def play(self, s, m):
            return (s[0] - m, s[1])

    with pytest.raises(cutoff.Error, match="alternate"):
        cutoff.search(Twice(5))


def test_progress_is_called_during_a_long_python_game_search():
    class Full(RandomTree):
        def moves(self, s):
            return [0, 1, 2]

    seen = []
    r = cutoff.search(Full(3, depth=9, branching=3), progress=seen.append, progress_every=0.005)
    assert seen and r.exact
    assert all(p["nodes"] <= r.nodes for p in seen)
    lo, hi = seen[-1]["bounds"]
    assert lo <= r.value <= hi


# A game that never ends, searched to the end: an error naming the line and max_plies, never
# an exact value (every algorithm, the trace, iterative deepening, cutoff.solve).
NEVER_ENDS = [{"algo": a} for a in TWO_PLAYER] + [
    {"algo": "iterative", "nodes": 10**7},
    {"algo": "pvs", "time_ms": 600_000},
    {"algo": "minimax", "trace": True},
    {"algo": "solve", "trace": True},
    {"algo": "solve", "depth": 5000},
]


@pytest.mark.parametrize("options", NEVER_ENDS, ids=str)
def test_a_game_that_never_ends_is_an_error_not_a_draw(options):
    with pytest.raises(cutoff.Error) as e:
        cutoff.search(Cycle(), **options)
    message = str(e.value)
    assert "\n" not in message
    assert "max_plies = 1000" in message and "default" in message, message
    # The line, shortened: its length, its first and last moves, the state it ends in.
    assert "after 1000 moves" in message and "..." in message, message
    assert "'left'" in message or "'right'" in message, message
    assert "the state 'A' has no outcome" in message, message
    assert "move counter" in message and "repetition" in message, message


def test_solve_on_a_game_object_reports_the_game_that_never_ends():
    with pytest.raises(cutoff.Error, match="max_plies = 1000"):
        cutoff.solve(Cycle())


@pytest.mark.parametrize("algo", ["minimax", "alphabeta", "solve"])
def test_a_max_plies_too_small_is_named_as_the_game_s(algo):
    with pytest.raises(cutoff.Error) as e:
        cutoff.search(ShortCycle(), algo=algo)
    message = str(e.value)
    assert "max_plies = 10 plies (max_plies(s) of the starting state)" in message, message
    assert "after 10 moves [" in message, message


def test_a_depth_below_the_cap_is_depth_limited_as_before():
    for algo in ["minimax", "pvs", "solve"]:
        r = cutoff.search(Cycle(), algo=algo, depth=12)
        assert r.value == 0 and not r.exact
    r = cutoff.search(Cycle(), algo="iterative", depth=12)
    assert r.value == 0 and not r.exact


@pytest.mark.parametrize("algo", TWO_PLAYER)
def test_the_cycle_written_properly_is_solved_exactly(algo):
    r = cutoff.search(CountedCycle(), algo=algo)
    assert r.exact and r.value == 0
    r = cutoff.search(RepetitionCycle(), algo=algo)
    assert r.exact and r.value == 1
    assert cutoff.search(RepetitionCycle(), algo=algo, trace=True).exact


def test_two_states_with_one_key_are_named_as_such():
    for game in [SameKeys(), SameKeysNim(5)]:
        with pytest.raises(cutoff.Error) as e:
            cutoff.search(game, algo="solve")
        message = str(e.value)
        assert "two different states have the same key(s)" in message, message
        assert "alternate" not in message and "\n" not in message
    # Both states and the key, and the cause: the sides to move differ.
    with pytest.raises(
        cutoff.Error, match=r"key\(s\) (\d): Heap\(\1, .\) and Heap\(\1, .\) \(and different"
    ):
        cutoff.search(SameKeysNim(5), algo="minimax")
    # Tuples: the same side to move, unequal states.
    with pytest.raises(cutoff.Error, match=r"key\(s\) \(\d+, [01]\): \(\d+, \d+\) and \(\d+, \d+\);"):
        cutoff.search(SameKeys(), algo="minimax")
