"""cutoff.distribute: the command's proof on many workers, from Python. Its value against
solve's, on worker processes (python -m cutoff.worker) and on the simulator; resuming from the
run folder, across Python and the command; its report against the command's JSON; the
keywords' errors; Ctrl-C; the worker alone; the guide's example."""

import ast
import functools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import pytest

import cutoff
from test_commands import BINARY, ROOT, interrupt_after, needs_binary

# Fields that measure time, which no two runs share.
TIMED = {
    "time_ms",
    "seconds",
    "wall_seconds",
    "driver_seconds",
    "longest_job_seconds",
    "simulated_seconds",
}
# Fields that depend on the order the workers answer in, which no two runs share either.
ORDERED = {
    "best_move",
    "pv",
    "nodes",
    "guess_nodes",
    "cancelled_nodes",
    "jobs",
    "cancelled",
    "splits",
    "resent",
    "moved",
    "speculative",
    "shared_entries",
    "frontier",
    "tested",
    "solved",
}

# Two Connect Four positions: a win for the side to move, a loss.
POSITIONS = ["44444432", "4453"]
BACKENDS = [{"workers": 2}, {"backend": "simulate", "workers": 8}]


@functools.lru_cache(maxsize=None)
def solved(position):
    return cutoff.solve("connect4", position, threads=1).value


def same_fields(r):
    """Each typed attribute is the report's field of that name."""
    d = r.to_dict()
    for k, v in d.items():
        got = getattr(r, k)
        assert (list(got) if isinstance(got, tuple) else got) == v, k
    return d


def command(*args):
    out = subprocess.run(
        [BINARY, "distribute", *args, "--json", "--quiet"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("options", BACKENDS, ids=["local", "simulate"])
@pytest.mark.parametrize("position", POSITIONS)
def test_the_value_is_solve_s(tmp_path, position, options):
    r = cutoff.distribute("connect4", position, dir=tmp_path / "run", depth=2, **options)
    assert isinstance(r, cutoff.DistributeResult)
    assert r.value == solved(position)
    assert r.pv == [r.best_move] and r.best_move is not None
    assert r.depth == 2 and r.workers == options["workers"]
    assert r.backend == options.get("backend", "local")
    assert r.resumed == 0 and r.lost == 0
    assert r.nodes >= r.guess_nodes + r.cancelled_nodes
    same_fields(r)
    if r.backend == "simulate":
        assert r.simulated_seconds == r.seconds
    else:
        assert r.simulated_seconds is None
        # The workers started cleanly: nothing on their standard error.
        logs = sorted((tmp_path / "run" / "logs").iterdir())
        assert len(logs) == 2
        assert all(log.read_text() == "" for log in logs), [log.read_text() for log in logs]
    assert str(r).startswith("game") and "exact" in str(r)
    assert repr(r).startswith("cutoff.DistributeResult(game='connect4', value=")


@pytest.mark.parametrize("options", BACKENDS, ids=["local", "simulate"])
def test_a_second_call_on_the_same_folder_resumes(tmp_path, options):
    first = cutoff.distribute("connect4", "44444432", dir=str(tmp_path), depth=2, **options)
    again = cutoff.distribute("connect4", "44444432", dir=tmp_path, depth=2, **options)
    assert first.resumed == 0
    assert again.resumed > 0
    assert again.value == first.value == solved("44444432")


def test_a_folder_of_another_run_is_refused(tmp_path):
    cutoff.distribute("connect4", "44444432", dir=tmp_path, depth=2, backend="simulate", workers=2)
    with pytest.raises(cutoff.Error, match="depth"):
        cutoff.distribute(
            "connect4", "44444432", dir=tmp_path, depth=1, backend="simulate", workers=2
        )


@needs_binary
@pytest.mark.parametrize("backend", ["local", "simulate"])
def test_the_report_is_the_command_s(tmp_path, backend):
    args = ["connect4", "44444432", "--depth", "2", "--workers", "2", "--backend", backend]
    cmd = command(*args, "--dir", str(tmp_path / "command"))
    py = cutoff.distribute(
        "connect4", "44444432", dir=tmp_path / "python", depth=2, workers=2, backend=backend
    )
    d = same_fields(py)
    assert set(d) == set(cmd)
    for k in cmd:
        if k not in TIMED | ORDERED:
            assert d[k] == cmd[k], k
        assert type(d[k]) is type(cmd[k]) or {type(d[k]), type(cmd[k])} == {int, float}, k


@needs_binary
def test_a_run_started_from_python_resumes_from_the_command_and_back(tmp_path):
    options = {"depth": 2, "workers": 2, "guess_nodes": 2048, "book": "builtin"}
    py = cutoff.distribute("connect4", [4, 4, 4, 4, 4, 4, 3, 2], dir=tmp_path / "a", **options)
    cmd = command(
        "connect4", "44444432", "--depth", "2", "--workers", "2", "--guess-nodes", "2048",
        "--book", "builtin", "--dir", str(tmp_path / "a"),
    )
    assert cmd["resumed"] > 0 and cmd["value"] == py.value
    cmd = command(
        "connect4", "44444432", "--depth", "1", "--backend", "simulate", "--workers", "3",
        "--dir", str(tmp_path / "b"),
    )
    py = cutoff.distribute(
        "connect4", b"44444432", dir=tmp_path / "b", depth=1, backend="simulate", workers=3
    )
    assert py.resumed > 0 and py.value == cmd["value"] == solved("44444432")


def test_other_boards_and_games(tmp_path):
    r = cutoff.distribute("connect4", dir=tmp_path / "c4", board="5x4", depth=2, workers=2)
    assert r.value == cutoff.solve("connect4", board="5x4").value
    r = cutoff.distribute("tictactoe", dir=tmp_path / "ttt", depth=2, backend="simulate", workers=3)
    assert r.value == 0 and r.game == "tictactoe"


@pytest.mark.parametrize(
    "keywords",
    [
        {"wokers": 2},  # not a keyword
        {"workers": "two"},
        {"workers": True},  # a bool is not a count
        {"depth": 2.0},
        {"speculate": "yes"},
        {"latency_ms": "1"},
        {"board": 7},
    ],
)
def test_bad_keywords_are_type_errors(tmp_path, keywords):
    with pytest.raises(TypeError):
        cutoff.distribute("connect4", "4453", dir=tmp_path, **keywords)
    assert not any(tmp_path.iterdir())


def test_dir_is_required_and_keyword_only(tmp_path):
    with pytest.raises(TypeError, match="dir"):
        cutoff.distribute("connect4", "4453")
    with pytest.raises(TypeError):
        cutoff.distribute("connect4", "4453", str(tmp_path))


@pytest.mark.parametrize(
    "keywords, message",
    [
        ({"workers": 0}, "^workers must be between 1 and 4096, got 0"),
        ({"workers": -1}, "^workers must not be negative"),
        ({"workers": 5000}, "^workers must be between 1 and 4096"),
        ({"depth": 0}, "^depth must be between 1 and 8"),
        ({"depth": 9}, "^depth must be between 1 and 8"),
        ({"tt_mb": 0}, "^tt_mb must be between"),
        ({"guess_nodes": 0}, "^guess_nodes must be at least 1"),
        ({"hard_nodes": 0}, "^hard_nodes must be at least 1"),
        ({"job_nodes": 0}, "^job_nodes must be at least 1"),
        ({"split_percent": 101}, "^split_percent must be between 0 and 100"),
        ({"latency_ms": -1.0}, "^latency_ms must be"),
        ({"latency_ms": float("nan")}, "^latency_ms must be"),
        ({"backend": "slurm"}, "^backend slurm runs from the command"),
        ({"backend": "mpi"}, "^backend mpi runs from the command"),
        ({"backend": "local-rounds"}, "^backend local-rounds runs from the command"),
        ({"backend": "cloud"}, "^backend must be local or simulate, not 'cloud'"),
        ({"board": "3x3"}, "board"),
    ],
)
def test_bad_values_are_errors_naming_the_keyword(tmp_path, keywords, message):
    with pytest.raises(cutoff.Error) as e:
        cutoff.distribute("connect4", "4453", dir=tmp_path / "run", **keywords)
    assert re.search(message, str(e.value)), str(e.value)
    assert "\n" not in str(e.value)
    assert not (tmp_path / "run").exists(), "refused before the run folder is made"


def test_games_that_cannot_be_distributed_are_refused(tmp_path):
    with pytest.raises(cutoff.Error, match="pig cannot be distributed"):
        cutoff.distribute("pig", dir=tmp_path)
    with pytest.raises(cutoff.Error, match="unknown game 'chess'"):
        cutoff.distribute("chess", dir=tmp_path)
    with pytest.raises(cutoff.Error, match="bad move '9'"):
        cutoff.distribute("connect4", "4459", dir=tmp_path)


def test_workers_would_import_the_same_package(tmp_path, monkeypatch):
    # `python -m` puts the working directory first on the worker's path: another package
    # cutoff there would be the workers', so it is refused before any worker starts.
    (tmp_path / "cutoff").mkdir()
    (tmp_path / "cutoff" / "__init__.py").write_text("raise ImportError('another cutoff')\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(cutoff.Error, match="^backend local starts each worker as .* working directory"):
        cutoff.distribute("connect4", "44444432", dir="run", depth=2, workers=2)
    assert not (tmp_path / "run").exists()
    # The simulator starts no process.
    r = cutoff.distribute("connect4", "44444432", dir="run", depth=2, backend="simulate", workers=2)
    assert r.value == solved("44444432")


def children():
    """This process's child processes (Linux)."""
    pids = set()
    for task in os.listdir("/proc/self/task"):
        # A thread (a worker pool's) may end between the listing and the read.
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                pids |= set(f.read().split())
        except FileNotFoundError:
            pass
    return pids


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc")
def test_ctrl_c_stops_the_workers_and_the_folder_resumes(tmp_path):
    # The empty board at depth 3 takes minutes on two workers.
    before = children()
    interrupt_after(1.0)
    start = time.monotonic()
    with pytest.raises(cutoff.Interrupted) as e:
        cutoff.distribute("connect4", dir=tmp_path, depth=3, workers=2)
    assert time.monotonic() - start < 6
    assert e.value.result is None
    assert "interrupted" in str(e.value)
    assert children() == before, "the workers are gone"
    assert (tmp_path / "run.json").exists()


def worker():
    return subprocess.Popen(
        [sys.executable, "-m", "cutoff.worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tempfile.gettempdir(),
    )


def test_the_worker_stops_when_the_driver_closes_its_pipe():
    w = worker()
    out, err = w.communicate(timeout=20)
    assert w.returncode == 0 and out == b"" and err == b""


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_the_worker_stops_on_a_signal_without_a_traceback(sig, status):
    w = worker()
    time.sleep(1.0)  # the interpreter up, the worker waiting for its driver
    w.send_signal(sig)
    out, err = w.communicate(timeout=20)
    assert w.returncode == status, err
    assert out == b"" and b"Traceback" not in err


def guide_example():
    text = (ROOT / "docs" / "guide" / "python.md").read_text()
    section = text.split("## Proofs on many workers", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_guide_s_example_runs_and_shows_what_it_says(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    block = guide_example()
    names = {}
    exec(compile(block, "docs/guide/python.md", "exec"), names)
    # Each line `expression  # literal` shows the expression's value.
    shown = 0
    for line in block.splitlines():
        if "  # (" not in line:
            continue
        expression, said = line.split("  # ", 1)
        said = re.match(r"\(.*?\)(?=:|$)", said.strip()).group(0)
        assert eval(expression, names) == ast.literal_eval(said), line
        shown += 1
    assert shown == 3
