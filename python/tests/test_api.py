"""The package as a Python user expects it: explicit keywords (TypeError for an unknown one
or one of the wrong type, bool included), cutoff.Error naming the keyword for a value out of
range, positions as str, bytes or a list of columns, typed results, and a Solver that keeps
its table."""

import threading

import pytest

import cutoff

CALLS = {
    "solve": lambda **kw: cutoff.solve("connect4", "4453", **kw),
    "analyse": lambda **kw: cutoff.analyse("connect4", "4453", **kw),
    "cfr": lambda **kw: cutoff.cfr("kuhn", iterations=10, **kw),
    "Solver": lambda **kw: cutoff.Solver("connect4", tt_mb=1, **kw),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_unknown_keyword_is_a_type_error(name):
    with pytest.raises(TypeError, match="thread"):
        CALLS[name](thread=1)


def test_search_refuses_an_unknown_keyword():
    from test_games import TicTacToe

    with pytest.raises(TypeError, match="tt_mib"):
        cutoff.search(TicTacToe(), tt_mib=4)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("value", ["two", 1.5, True, False, [1]], ids=repr)
def test_a_value_of_the_wrong_type_is_a_type_error(name, value):
    with pytest.raises(TypeError, match="threads"):
        CALLS[name](threads=value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: cutoff.solve("connect4", tt_mb=True),
        lambda: cutoff.solve("connect4", weak=1),
        lambda: cutoff.solve("connect4", algo=3),
        lambda: cutoff.cfr("kuhn", iterations=True),
        lambda: cutoff.cfr("kuhn", algo=7),
        lambda: cutoff.analyse("connect4", book=1),
        lambda: cutoff.analyse("connect4", nodes=True),
        lambda: cutoff.analyse("connect4", time_ms=1.5),
        lambda: cutoff.Solver("connect4", tt_mb=1).analyse("44", nodes="many"),
        lambda: cutoff.Solver("connect4", tt_mb=1).solve("44", nodes=True),
    ],
)
def test_bools_and_other_types_are_refused_where_they_do_not_belong(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cutoff.solve("connect4", tt_mb=10**12), "tt_mb must be between 1 and 1048576"),
        (lambda: cutoff.solve("connect4", tt_mb=10**40), "tt_mb .* is out of range"),
        (lambda: cutoff.solve("connect4", tt_mb=-1), "tt_mb must not be negative, got -1"),
        (lambda: cutoff.solve("connect4", threads=0), "threads must be at least 1"),
        (lambda: cutoff.solve("connect4", threads=-2), "threads must not be negative"),
        (lambda: cutoff.solve("connect4", threads=10**6), "threads 1000000 is too many"),
        (lambda: cutoff.solve("connect4", board="big"), "board: invalid board 'big'"),
        (lambda: cutoff.solve("connect4", parallel="all"), "parallel: "),
        (lambda: cutoff.solve("random", branching=2, depth=4, order="sideways"), "order"),
        (lambda: cutoff.solve("connect4", table_file_nodes=0), "table_file_nodes must be at least 1"),
        (lambda: cutoff.analyse("connect4", tt_mb=0), "tt_mb must be between"),
        (lambda: cutoff.analyse("connect4", time_ms=0), "time_ms must be at least 1"),
        (lambda: cutoff.analyse("connect4", nodes=0), "nodes must be at least 1"),
        (lambda: cutoff.analyse("connect4", time_ms=-5), "time_ms must not be negative, got -5"),
        (lambda: cutoff.analyse("connect4", nodes=-1), "nodes must not be negative, got -1"),
        (lambda: cutoff.analyse("connect4", nodes=10**40), "nodes .* is out of range"),
        (lambda: cutoff.Solver("connect4", tt_mb=1).analyse("44", time_ms=0), "time_ms must be at least 1"),
        (lambda: cutoff.Solver("connect4", tt_mb=1).analyse("44", nodes=-3), "nodes must not be negative"),
        (lambda: cutoff.cfr("kuhn", iterations=-1), "iterations must not be negative, got -1"),
        (lambda: cutoff.cfr("kuhn", iterations=10**30), "iterations .* is out of range"),
        (lambda: cutoff.cfr("kuhn", every=0), "every must be at least 1"),
        (lambda: cutoff.Solver("connect4", tt_mb=0), "tt_mb must be between"),
        (lambda: cutoff.Solver("connect4", threads=0), "threads must be at least 1"),
        (lambda: cutoff.Solver("pig"), "two-player games"),
        (lambda: cutoff.solve("connect4", progress=print, progress_every=0), "progress_every"),
    ],
)
def test_a_value_out_of_range_is_an_error_naming_the_keyword(call, message):
    with pytest.raises(cutoff.Error, match=message) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert "--" not in str(e.value) and "\n" not in str(e.value)


def test_a_python_game_refuses_the_built_in_games_keywords():
    from test_games import TicTacToe

    with pytest.raises(cutoff.Error, match="board applies to the built-in games"):
        cutoff.solve(TicTacToe(), board="8x6")
    assert cutoff.solve(TicTacToe(), algo="alphabeta").value == 0


@pytest.mark.parametrize("position", ["4453", b"4453", [4, 4, 5, 3], (4, 4, 5, 3)], ids=repr)
def test_positions_as_text_bytes_or_columns(position):
    r = cutoff.solve("connect4", position, threads=1)
    assert (r.value, r.best_move) == (-2, "6")
    a = cutoff.analyse("connect4", position, threads=1)
    assert a.position == "4453"


def test_columns_past_nine_are_written_with_commas():
    # A node budget: the 10x4 board takes long to solve exactly.
    as_list = cutoff.solve("connect4", [10, 1, 10], board="10x4", nodes=20000, threads=1)
    as_text = cutoff.solve("connect4", "10,1,10", board="10x4", nodes=20000, threads=1)
    assert as_list.board == "10x4"
    assert as_list.to_dict().keys() == as_text.to_dict().keys()
    assert (as_list.value, as_list.pv, as_list.nodes) == (as_text.value, as_text.pv, as_text.nodes)
    with pytest.raises(cutoff.Error, match="bad move '11'"):
        cutoff.solve("connect4", [10, 11], board="10x4")


@pytest.mark.parametrize("position", [4453, 4.5, {"4": 1}, [4, "4"], [True]], ids=repr)
def test_other_positions_are_type_errors(position):
    with pytest.raises(TypeError, match="position"):
        cutoff.solve("connect4", position)


def test_columns_are_for_connect_four_only():
    with pytest.raises(TypeError, match="connect4"):
        cutoff.solve("tictactoe", [1, 2])


def test_results_are_typed_with_the_command_s_fields():
    r = cutoff.solve("connect4", "4453", threads=1)
    assert isinstance(r, cutoff.SolveResult)
    assert isinstance(r.nodes, int) and isinstance(r.time_ms, float) and r.exact is True
    assert r.pv[0] == r.best_move and r.bounds is None and r.stopped is None
    assert r.to_dict()["nodes"] == r.nodes
    assert repr(r).startswith("cutoff.SolveResult(game='connect4', value=-2, best_move='6'")
    assert str(r).startswith("game")
    with pytest.raises(AttributeError):
        r.value = 3

    p = cutoff.solve("pig", win_score=8, horizon=10)
    assert isinstance(p, cutoff.ChanceResult)
    assert p.players == 2 and 0 < p.value < 1 and p.stats["leaves"] > 0

    a = cutoff.analyse("tictactoe", threads=1)
    assert isinstance(a, cutoff.AnalyseResult) and a.value == 0 and len(a.moves) == 9
    # Without a budget everything is exact: the bounds meet at the value.
    assert (a.exact, a.lo, a.hi, a.budget) == (True, 0, 0, None)
    assert repr(a).startswith("cutoff.AnalyseResult(game='tictactoe', value=0, exact=True")
    m = a.moves[0]
    assert isinstance(m, cutoff.MoveScore) and m.to_dict() == {
        "move": m.move,
        "value": m.value,
        "explain": m.explain,
        "exact": True,
        "lo": m.value,
        "hi": m.value,
        "depth": None,
    }
    assert repr(m).startswith(f"cutoff.MoveScore(move={m.move!r}, value={m.value}, exact=True")

    c = cutoff.cfr("kuhn", iterations=20)
    assert isinstance(c, cutoff.CfrResult) and c.iterations == 20
    assert isinstance(c.strategy[0], cutoff.InfosetStrategy)
    assert c.curve[-1][0] == 20 and c.to_dict()["curve"][-1][0] == 20


def test_search_results_are_typed():
    from test_games import TicTacToe

    r = cutoff.search(TicTacToe(), algo="alphabeta")
    assert isinstance(r, cutoff.SearchResult)
    assert r.value == 0 and r.exact and r.trace is None and r.trace_cut is False
    assert r.to_dict()["nodes"] == r.nodes
    assert repr(r).startswith("cutoff.SearchResult(value=0")


def test_a_solver_keeps_its_table_between_calls():
    s = cutoff.Solver("connect4", tt_mb=64, threads=1)
    assert (s.game, s.tt_mb) == ("connect4", 64)
    first = s.solve("4453")
    again = s.solve("4453")
    assert (again.value, again.best_move) == (first.value, first.best_move) == (-2, "6")
    assert again.nodes < first.nodes
    # The same position by another order of the same moves: a transposition.
    transposed = s.solve([4, 3, 5, 4])
    assert transposed.value == -2 and transposed.nodes < first.nodes
    # analyse on the same table: the position's children are stored already.
    fresh = cutoff.analyse("connect4", "4453", threads=1)
    warm = s.analyse("4453")
    assert [m.value for m in warm.moves] == [m.value for m in fresh.moves]
    assert warm.nodes < fresh.nodes
    s.clear()
    assert s.solve("4453").nodes == first.nodes


def test_a_solver_analyses_within_a_budget():
    s = cutoff.Solver("connect4", tt_mb=16, threads=1)
    a = s.analyse("44", nodes=5000)
    assert a.budget == "5000 nodes" and not a.exact
    assert all(m.lo <= m.value <= m.hi for m in a.moves)
    assert not all(m.exact for m in a.moves)
    # Near the end a large budget settles every move, as the exact analysis does.
    end = "7422341735647741166133573473242566"
    exact = cutoff.analyse("connect4", end, threads=1)
    budgeted = s.analyse(end, nodes=10**9)
    assert budgeted.exact and all(m.exact for m in budgeted.moves)
    assert [(m.move, m.value) for m in budgeted.moves] == [(m.move, m.value) for m in exact.moves]
    # The budget is the call's: the next call without one is exact.
    assert s.analyse(end).budget is None


def test_a_solver_on_another_board():
    s = cutoff.Solver("connect4", board="5x4", tt_mb=16, threads=None)
    r = s.solve()
    assert r.board == "5x4" and r.exact
    assert s.solve([int(r.best_move)]).value == -r.value


def test_a_solver_takes_turns_across_threads():
    s = cutoff.Solver("connect4", tt_mb=16, threads=1)
    found = {}

    def work(i):
        found[i] = s.solve("4453").value

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == {i: -2 for i in range(4)}


def test_interrupted_is_a_keyboard_interrupt_with_a_result():
    e = cutoff.Interrupted("interrupted", None)
    assert isinstance(e, KeyboardInterrupt) and e.result is None


def test_solve_profile_is_typed_and_adds_up():
    plain = cutoff.solve("connect4", "1233", board="6x5", threads=1, tt_mb=8)
    r = cutoff.solve("connect4", "1233", board="6x5", threads=1, tt_mb=8, profile=True)
    assert plain.profile is None
    assert (r.value, r.nodes, r.cutoffs) == (plain.value, plain.nodes, plain.cutoffs)
    p = r.profile
    assert isinstance(p, cutoff.Profile) and isinstance(p.total, cutoff.ProfileRow)
    assert p.total.ply is None and p.total.nodes == r.nodes
    assert p.total.cut_nodes == r.cutoffs and p.total.searched == r.searched
    assert sum(row.nodes for row in p.plies) == r.nodes
    assert [row.ply for row in p.plies][0] == 0
    for row in p.plies:
        ended = row.analysis + row.bounds + row.table + row.enhanced_cutoffs + row.searched
        assert ended == row.nodes
        assert 0.0 <= row.first_move_cut_rate <= 1.0
    assert p.to_dict() == r.to_dict()["profile"]
    assert "profile: how the nodes of each ply ended" in str(r)


def test_solve_profile_refusals_name_the_keyword():
    with pytest.raises(cutoff.Error, match="profile"):
        cutoff.solve("connect4", "4453", threads=2, profile=True)
    with pytest.raises(cutoff.Error, match="time_ms"):
        cutoff.solve("connect4", "4453", time_ms=50, profile=True)
