#!/usr/bin/env python3
"""What the Python binding costs: the same searches from Python and from the command (or the
Rust game), alternated in one run, medians of REPEATS.

    python scripts/python_overhead.py [--repeats 5] [--cutoff target/release/cutoff]

Needs the package installed (pip install ./python). Prints a Markdown table; the figures in
docs/measurements/python.md come from it.
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time

import cutoff

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))
from games import TicTacToe  # noqa: E402


def command(binary, args):
    start = time.perf_counter()
    out = subprocess.run([binary, *args, "--json"], capture_output=True, text=True, check=True)
    wall = (time.perf_counter() - start) * 1e3
    return json.loads(out.stdout), wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cutoff", default=str(ROOT / "target" / "release" / "cutoff"))
    a = ap.parse_args()

    rows = []
    # 1. A built-in game: cutoff.solve against `cutoff solve`, the same search.
    for pos, opts in [("4453", {"threads": 1}), ("4453", {})]:
        args = ["solve", "connect4", pos] + [x for k, v in opts.items() for x in (f"--{k}", str(v))]
        py_wall, py_search, cmd_wall, cmd_search, nodes = [], [], [], [], set()
        for _ in range(a.repeats):
            rep, wall = command(a.cutoff, args)
            cmd_wall.append(wall)
            cmd_search.append(rep["time_ms"])
            start = time.perf_counter()
            r = cutoff.solve("connect4", pos, **opts)
            py_wall.append((time.perf_counter() - start) * 1e3)
            py_search.append(r.time_ms)
            nodes.add((rep["nodes"], r.nodes) if opts else "parallel")
        m = statistics.median
        rows.append(
            (
                f"`solve connect4 {pos}`" + (" `--threads 1`" if opts else " (all cores)"),
                f"{m(cmd_search):.1f} ms search, {m(cmd_wall):.1f} ms process",
                f"{m(py_search):.1f} ms search, {m(py_wall):.1f} ms call",
                f"{m(py_wall) / m(cmd_wall):.3f} (call / process), {m(py_search) / m(cmd_search):.3f} (search)",
                ", ".join(str(n) for n in sorted(nodes, key=str)),
            )
        )
    # 2. A game written in Python against the same game in Rust, same algorithm and order.
    for algo in ["minimax", "alphabeta", "pvs", "solve"]:
        py_t, rust_t = [], []
        for _ in range(a.repeats):
            start = time.perf_counter()
            p = cutoff.search(TicTacToe(), algo=algo)
            py_t.append((time.perf_counter() - start) * 1e3)
            rr = cutoff.solve("tictactoe", algo=algo, threads=1, tt_mb=16)
            rust_t.append(rr.time_ms)
        m = statistics.median
        rows.append(
            (
                f"tic-tac-toe `{algo}`",
                f"{m(rust_t):.2f} ms ({m(rust_t) * 1e3 / rr.nodes:.3f} µs a node)",
                f"{m(py_t):.2f} ms ({m(py_t) * 1e3 / p.nodes:.3f} µs a node; {p.positions} positions asked of Python)",
                f"{m(py_t) / m(rust_t):.1f}",
                f"{p.nodes} / {rr.nodes}",
            )
        )
    print("| search | Rust (command or game) | Python | ratio | nodes (Rust / Python where both) |")
    print("|---|---|---|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
