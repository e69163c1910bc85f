#!/usr/bin/env python3
"""OpenSpiel's alpha-beta and cutoff side by side, on OpenSpiel's own states, in one run.

Both engines see the same game through the same public state API of OpenSpiel (pyspiel):
OpenSpiel's `open_spiel.python.algorithms.minimax.alpha_beta_search` (no table, actions in
`legal_actions()` order) and `cutoff.openspiel.solve` (cutoff's exact solver, with its
transposition table keyed by the board and its move ordering, calling the same pyspiel
methods from Rust). For each position it prints the two values (the player to move's view),
the nodes (states entered, the root and terminal states included; OpenSpiel's counted by
wrapping its node routine), how many states cutoff had OpenSpiel make (`child()` calls:
children looked at but not entered, and states met again, count too; OpenSpiel makes one
state per node but the root), the seconds (wall clock around each call; OpenSpiel timed in a
run of its own without the counting wrapper) and the ratios.

Positions: tic-tac-toe's empty board, and Connect Four positions from
positions/connect4/end-easy.txt (cutoff's 1-based column digits; OpenSpiel's actions are the
0-based columns), by line number.

Needs `pip install open_spiel` and the cutoff package (`pip install ./python`):

    python3 scripts/openspiel_side_by_side.py                   # the default positions
    python3 scripts/openspiel_side_by_side.py --lines 6,13 --json
"""

import argparse
import json
import pathlib
import platform
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_LINES = "6,13,144,270,286,366"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--positions",
        default=str(ROOT / "positions/connect4/end-easy.txt"),
        help="a Connect Four test set (lines: moves score)",
    )
    ap.add_argument(
        "--lines",
        default=DEFAULT_LINES,
        help=f"1-based line numbers of --positions, comma-separated (default {DEFAULT_LINES})",
    )
    ap.add_argument("--algo", default=None, help="cutoff's algorithm (default: its own default)")
    ap.add_argument("--no-tic-tac-toe", action="store_true", help="leave out tic-tac-toe")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = ap.parse_args()

    try:
        import pyspiel
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install open_spiel")
    try:
        import cutoff.openspiel as co
    except ImportError as e:
        sys.exit(f"the cutoff package is not importable ({e}): pip install ./python")

    cases = []
    if not args.no_tic_tac_toe:
        cases.append(("tic-tac-toe, empty board", pyspiel.load_game("tic_tac_toe").new_initial_state(), None))
    lines = pathlib.Path(args.positions).read_text().split("\n")
    c4 = pyspiel.load_game("connect_four")
    for n in [int(x) for x in args.lines.split(",") if x.strip()]:
        moves, score = lines[n - 1].split()
        s = c4.new_initial_state()
        for c in moves:
            s.apply_action(int(c) - 1)
        cases.append((f"connect four, end-easy line {n} ({len(moves)} stones)", s, int(score)))

    options = {} if args.algo is None else {"algo": args.algo}
    rows = []
    for label, state, score in cases:
        t = time.perf_counter()
        os_value, _, _ = co.alpha_beta(state, count=False)
        os_s = time.perf_counter() - t
        _, _, os_nodes = co.alpha_beta(state)
        t = time.perf_counter()
        r = co.solve(state, **options)
        cu_s = time.perf_counter() - t
        if r.value != os_value:
            sys.exit(f"{label}: cutoff's value {r.value} is not OpenSpiel's {os_value}")
        if score is not None and r.value != (score > 0) - (score < 0):
            sys.exit(f"{label}: value {r.value} disagrees with the test set's score {score}")
        rows.append(
            {
                "position": label,
                "history": list(state.history()),
                "value": r.value,
                "openspiel_nodes": os_nodes,
                "cutoff_nodes": r.nodes,
                "cutoff_child_calls": r.plays,
                "node_ratio": os_nodes / r.nodes if r.nodes else None,
                "openspiel_seconds": os_s,
                "cutoff_seconds": cu_s,
                "time_ratio": os_s / cu_s if cu_s else None,
            }
        )
        if not args.json:
            print(f"... {label}: done", file=sys.stderr, flush=True)

    total = {
        "openspiel_nodes": sum(r["openspiel_nodes"] for r in rows),
        "cutoff_nodes": sum(r["cutoff_nodes"] for r in rows),
        "cutoff_child_calls": sum(r["cutoff_child_calls"] for r in rows),
        "openspiel_seconds": sum(r["openspiel_seconds"] for r in rows),
        "cutoff_seconds": sum(r["cutoff_seconds"] for r in rows),
    }
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    try:
        from importlib.metadata import version

        os_version = version("open_spiel")
    except Exception:
        os_version = None
    meta = {
        "date": time.strftime("%Y-%m-%d"),
        "commit": commit,
        "python": platform.python_version(),
        "open_spiel": os_version,
        "cutoff_algo": args.algo or "default",
    }
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows, "total": total}, indent=2))
        return
    print(
        f"{meta['date']}, commit {commit}, Python {meta['python']}, open_spiel {os_version}, "
        f"cutoff algo {meta['cutoff_algo']}\n"
    )
    print(
        "| position | value | OpenSpiel nodes | cutoff nodes | ratio | cutoff child() calls "
        "| OpenSpiel s | cutoff s | ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['position']} | {r['value']:+d} | {r['openspiel_nodes']:,} | "
            f"{r['cutoff_nodes']:,} | {_ratio(r['node_ratio'])} | {r['cutoff_child_calls']:,} | "
            f"{r['openspiel_seconds']:.3f} | "
            f"{r['cutoff_seconds']:.3f} | {_ratio(r['time_ratio'])} |"
        )
    print(
        f"| all | | {total['openspiel_nodes']:,} | {total['cutoff_nodes']:,} | "
        f"{_ratio(total['openspiel_nodes'] / max(total['cutoff_nodes'], 1))} | "
        f"{total['cutoff_child_calls']:,} | {total['openspiel_seconds']:.3f} | {total['cutoff_seconds']:.3f} | "
        f"{_ratio(total['openspiel_seconds'] / max(total['cutoff_seconds'], 1e-9))} |"
    )


def _ratio(x):
    return "-" if x is None else f"{x:.1f}x"


if __name__ == "__main__":
    main()
