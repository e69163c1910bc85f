#!/usr/bin/env python3
"""Exploitability against wall time for every CFR algorithm on Kuhn and Leduc.

Runs `cutoff cfr GAME --algo cfr,cfr+,lcfr,dcfr,mccfr-es --seconds S` (one thread), then
mccfr-es on 1 and 2 threads at batches 16 and 64, each `--repeats` times; prints, per game, a
Markdown table of iterations a second (the median run) and the seconds each algorithm took to
reach each exploitability; writes the JSON and the SVG of each game into OUT.

    cargo build --release -p cutoff-cli
    python3 scripts/cfr_wall_time.py [--cutoff target/release/cutoff] [--out DIR]
        [--leduc-seconds 10] [--kuhn-seconds 2] [--repeats 3] [--tables-only]

`--tables-only` prints the tables again from the JSON files already in OUT.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

THRESHOLDS = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5]


def run(cutoff, args):
    out = subprocess.run([cutoff, "cfr", *args, "--json", "--quiet"],
                         check=True, capture_output=True, text=True).stdout
    v = json.loads(out)
    return v if isinstance(v, list) else [v]


def first_time(r, threshold):
    for (_, e), s in zip(r["curve"], r["curve_seconds"]):
        if e <= threshold:
            return s
    return None


def shown(seconds):
    if seconds is None:
        return "-"
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cutoff", default="target/release/cutoff")
    p.add_argument("--out", default="cfr-wall-time")
    p.add_argument("--leduc-seconds", type=float, default=10)
    p.add_argument("--kuhn-seconds", type=float, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--tables-only", action="store_true")
    a = p.parse_args()
    if not a.tables_only and not os.access(a.cutoff, os.X_OK):
        sys.exit(f"error: no cutoff binary at {a.cutoff} (cargo build --release -p cutoff-cli)")
    os.makedirs(a.out, exist_ok=True)
    for game, secs in [("kuhn", a.kuhn_seconds), ("leduc", a.leduc_seconds)]:
        rows = []
        svg = os.path.join(a.out, f"cfr-{game}-time.svg")
        path = os.path.join(a.out, f"{game}.json")
        if not a.tables_only:
            runs = run(a.cutoff, [game, "--algo", "cfr,cfr+,lcfr,dcfr,mccfr-es", "--seconds",
                                  str(secs), "--threads", "1", "--svg", svg])
            json.dump(runs, open(path, "w"))
        runs = json.load(open(path))
        rows += [(r["algo"], [r]) for r in runs]
        for threads in [1, 2]:
            for batch in [16, 64]:
                path = os.path.join(a.out, f"{game}-mccfr-t{threads}-b{batch}.json")
                if not a.tables_only:
                    reps = [run(a.cutoff, [game, "--algo", "mccfr-es", "--seconds", str(secs),
                                           "--threads", str(threads), "--batch", str(batch)])[0]
                            for _ in range(a.repeats)]
                    json.dump(reps, open(path, "w"))
                reps = json.load(open(path))
                rows.append((f"mccfr-es, {threads} thread{'s' if threads > 1 else ''}, batch {batch}",
                             reps))
        print(f"\n{game}, {secs:g} s a run (mccfr-es rows: median of {a.repeats} runs)\n")
        print("| algorithm | iterations/s | iterations | exploitability at the end | "
              + " | ".join(f"time to {t:g}" for t in THRESHOLDS) + " |")
        print("|---" * (4 + len(THRESHOLDS)) + "|")
        for name, reps in rows:
            r = sorted(reps, key=lambda r: r["iterations_per_second"])[len(reps) // 2]
            cells = [shown(first_time(r, t)) for t in THRESHOLDS]
            print(f"| {name} | {r['iterations_per_second']:,.0f} | {r['iterations']:,} | "
                  f"{r['exploitability']:.3e} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
