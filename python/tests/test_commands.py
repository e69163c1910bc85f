"""The built-in games from Python: the command's reports, field for field; errors as
exceptions with the command's messages; Ctrl-C, progress callbacks and the GIL."""

import json
import os
import pathlib
import re
import signal
import subprocess
import threading
import time

import pytest

import cutoff

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("CUTOFF", str(ROOT / "target" / "release" / "cutoff"))
needs_binary = pytest.mark.skipif(
    not os.access(BINARY, os.X_OK),
    reason=f"the cutoff command is not built at {BINARY} (cargo build --release, or set CUTOFF)",
)

# Fields that measure time, which no two runs share.
TIMED = {"time_ms", "seconds", "iterations_per_second", "curve_seconds"}


def command(*args):
    out = subprocess.run([BINARY, *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def plain(x):
    """A typed result's value as JSON reads it: tuples as lists, result objects as dicts."""
    if hasattr(x, "to_dict"):
        return x.to_dict()
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def same_report(py, cmd):
    """The result's to_dict() is the command's JSON, field for field, and so is each typed
    attribute of that name."""
    d = py.to_dict()
    assert set(d.keys()) == set(cmd.keys())
    for k in cmd:
        if k not in TIMED:
            assert d[k] == cmd[k], k
            assert plain(getattr(py, k)) == cmd[k], k


@needs_binary
@pytest.mark.parametrize(
    "args, options",
    [
        (["connect4", "4453", "--threads", "1"], {"threads": 1}),
        (["tictactoe", "--algo", "alphabeta"], {"algo": "alphabeta"}),
        (["connect4", "--board", "5x4"], {"board": "5x4"}),
        # A node budget: iterative deepening, stopped at the same node on one thread.
        (["connect4", "444", "--nodes", "300000", "--threads", "1"], {"nodes": 300000, "threads": 1}),
        (["pig", "--win-score", "8", "--horizon", "10"], {"win_score": 8, "horizon": 10}),
        (["connect4", "4453", "--weak", "--threads", "1"], {"weak": True, "threads": 1}),
    ],
)
def test_solve_gives_the_command_s_report(args, options):
    game, *rest = args
    position = rest[0] if rest and not rest[0].startswith("-") else None
    py = cutoff.solve(game, position, **options)
    same_report(py, command("solve", *args))
    assert str(py).startswith("game")


@needs_binary
def test_analyse_gives_the_command_s_report():
    py = cutoff.analyse("connect4", book="builtin", threads=1)
    cmd = command("analyse", "connect4", "--book", "builtin", "--threads", "1")
    same_report(py, cmd)
    assert isinstance(py, cutoff.AnalyseResult)
    assert all(isinstance(m, cutoff.MoveScore) for m in py.moves)
    assert [(m.move, m.value) for m in py.moves] == [(m["move"], m["value"]) for m in cmd["moves"]]
    assert str(py).startswith("game:")


@needs_binary
def test_a_budgeted_analyse_gives_the_command_s_report():
    # A node budget on one thread: every move's search stops at the same node.
    py = cutoff.analyse("connect4", "44", nodes=5000, threads=1)
    cmd = command("analyse", "connect4", "44", "--nodes", "5000", "--threads", "1")
    same_report(py, cmd)
    assert py.budget == "5000 nodes" and py.exact is False


def test_a_budgeted_analyse_gives_each_move_its_bounds_and_a_guess():
    a = cutoff.analyse("connect4", "44", nodes=5000, threads=1)
    assert isinstance(a, cutoff.AnalyseResult) and len(a.moves) == 7
    assert a.budget == "5000 nodes"
    for m in a.moves:
        assert isinstance(m, cutoff.MoveScore)
        assert m.lo <= m.value <= m.hi, m
        if m.exact:
            assert m.lo == m.value == m.hi and m.depth is None, m
        else:
            assert m.lo < m.hi, m
            assert m.depth is None or m.depth >= 1, m
    assert not all(m.exact for m in a.moves)
    # The position's proven range is its best move's: the best lower and upper bounds.
    assert a.lo == max(m.lo for m in a.moves) and a.hi == max(m.hi for m in a.moves)
    assert a.lo <= a.value <= a.hi and not a.exact
    assert a.best_move in [m.move for m in a.moves]
    d = a.to_dict()
    assert (d["exact"], d["lo"], d["hi"], d["budget"]) == (a.exact, a.lo, a.hi, a.budget)
    assert d["moves"] == [m.to_dict() for m in a.moves]
    assert "exact=False" in repr(a) and "lo=" in repr(a.moves[0])


def end_positions(count):
    """The first `count` positions of the Connect Four test set End-Easy (moves, score)."""
    lines = (ROOT / "positions" / "connect4" / "end-easy.txt").read_text().splitlines()
    return [line.split()[0] for line in lines[:count]]


@pytest.mark.parametrize("position", end_positions(3))
@pytest.mark.parametrize("budget", [{"nodes": 10**9}, {"time_ms": 10**7}], ids=repr)
def test_a_large_budget_near_the_end_gives_the_exact_analysis(position, budget):
    exact = cutoff.analyse("connect4", position, threads=1)
    budgeted = cutoff.analyse("connect4", position, threads=1, **budget)
    assert exact.exact and exact.budget is None
    assert all(m.exact and m.lo == m.value == m.hi and m.depth is None for m in exact.moves)
    assert budgeted.budget is not None
    assert all(m.exact for m in budgeted.moves)
    assert [(m.move, m.value, m.lo, m.hi) for m in budgeted.moves] == [
        (m.move, m.value, m.lo, m.hi) for m in exact.moves
    ]
    assert (budgeted.exact, budgeted.value, budgeted.lo, budgeted.hi) == (
        True,
        exact.value,
        exact.value,
        exact.value,
    )


@needs_binary
@pytest.mark.parametrize("game, algo", [("kuhn", "cfr"), ("kuhn", "dcfr"), ("leduc", "cfr+")])
def test_cfr_gives_the_command_s_strategy_and_curve(game, algo):
    py = cutoff.cfr(game, algo=algo, iterations=50)
    cmd = command("cfr", game, "--algo", algo, "--iterations", "50")
    assert isinstance(py, cutoff.CfrResult)
    same_report(py, cmd)
    table = py.average_strategy
    assert len(table) == len(cmd["strategy"])
    for s in cmd["strategy"]:
        assert sum(table[s["infoset"]].values()) == pytest.approx(1.0)


def test_cfr_compares_several_algorithms():
    runs = cutoff.cfr("kuhn", algo=["cfr", "dcfr"], iterations=100)
    assert [r.algo for r in runs] == ["cfr", "dcfr"]
    assert all(r.exploitability < 0.05 for r in runs)
    assert all(str(r).startswith("game") and r.algo in str(r) for r in runs)
    # A list asks for a list, even of one.
    one = cutoff.cfr("kuhn", algo=["cfr"], iterations=10)
    assert isinstance(one, list) and one[0].algo == "cfr"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cutoff.solve("connect4", "4459"), "bad move '9'"),
        (lambda: cutoff.solve("chess"), "unknown game 'chess'"),
        (lambda: cutoff.solve("connect4", tt_mb=0), "^tt_mb must be between"),
        (lambda: cutoff.solve("connect4", threads=0), "^threads must be at least 1"),
        (lambda: cutoff.solve("tictactoe", weak=True, algo="pvs"), "^weak needs algo solve"),
        (lambda: cutoff.analyse("tictactoe", book="builtin"), "book"),
        (lambda: cutoff.analyse("connect4", time_ms=0), "^time_ms must be at least 1"),
        (lambda: cutoff.analyse("connect4", nodes=0), "^nodes must be at least 1"),
        (lambda: cutoff.cfr("chess"), "unknown game 'chess'"),
        (lambda: cutoff.cfr("kuhn", iterations=0), "^iterations must be at least 1"),
    ],
)
def test_errors_are_exceptions_with_the_command_s_one_line_message(call, message):
    with pytest.raises(cutoff.Error) as e:
        call()
    assert re.search(message, str(e.value)), str(e.value)
    assert "\n" not in str(e.value)
    assert "--" not in str(e.value), "keywords, not flags"
    assert isinstance(e.value, ValueError)


def interrupt_after(seconds):
    """Ctrl-C for this process after `seconds`, as a terminal would send it."""
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_ctrl_c_stops_an_exact_solve_with_its_proven_bounds():
    # The empty 7x6 board takes minutes on one thread.
    interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(cutoff.Interrupted) as e:
        cutoff.solve("connect4", threads=1)
    assert time.monotonic() - start < 5
    assert isinstance(e.value, KeyboardInterrupt)
    r = e.value.result
    assert isinstance(r, cutoff.SolveResult)
    assert r.value is None and r.stopped == "interrupted"
    lo, hi = r.bounds
    assert -18 <= lo <= 1 <= hi <= 18
    assert "interrupted after" in str(e.value)


def test_ctrl_c_stops_a_python_game_search():
    from test_games import RandomTree

    for algo in ["minimax", "solve"]:
        interrupt_after(0.3)
        with pytest.raises(cutoff.Interrupted) as e:
            cutoff.search(RandomTree(1, depth=40, branching=2), algo=algo)
        r = e.value.result
        assert r.stopped == "interrupted"
        if algo == "minimax":
            # A search that does not poll the flag is cut short and proves nothing.
            assert r.value is None and r.bounds == (-9, 9)


def test_ctrl_c_stops_cfr_with_the_iterations_done():
    interrupt_after(0.5)
    with pytest.raises(cutoff.Interrupted) as e:
        cutoff.cfr("leduc", algo="cfr", iterations=10**7)
    r = e.value.result
    assert 0 < r.iterations < 10**7
    assert r.curve[-1][0] == r.iterations


def test_progress_is_called_during_a_long_search():
    seen = []
    r = cutoff.solve("connect4", "4453", threads=1, progress=seen.append, progress_every=0.05)
    assert len(seen) >= 2
    assert [p["nodes"] for p in seen] == sorted(p["nodes"] for p in seen)
    assert seen[-1]["nodes"] <= r.nodes
    lo, hi = seen[-1]["bounds"]
    assert lo <= r.value <= hi


def test_an_exception_in_the_progress_callback_stops_the_search_and_is_raised():
    def fail(_):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        cutoff.solve("connect4", threads=1, progress=fail, progress_every=0.05)


def test_cfr_progress_sees_each_checkpoint():
    seen = []
    r = cutoff.cfr("kuhn", algo="cfr", iterations=1000, progress=seen.append)
    assert [p["iterations"] for p in seen] == [c[0] for c in r.curve]


def test_searches_release_the_gil():
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    start = time.monotonic()
    cutoff.solve("connect4", "4453", threads=1)
    elapsed = time.monotonic() - start
    done.set()
    t.join()
    # The other thread ran throughout: at least a tick every 10 ms on average.
    assert ticks >= elapsed * 100 * 0.5, (ticks, elapsed)


def test_the_readme_example_runs():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block, "the README has a Python example"
    lines = [l for l in block.group(1).splitlines() if l.strip()]
    assert len(lines) <= 5
    exec(compile(block.group(1), "README.md", "exec"), {})


def test_the_readme_example_prints_what_it_says(capsys):
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    exec(compile(block, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    said = [l.split("# ", 1)[1] for l in block.splitlines() if l.startswith("print(")]
    assert printed == said
