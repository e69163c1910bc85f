#!/usr/bin/env python3
"""How long `cutoff analyse` takes along games, as `cutoff serve` runs it (64 MiB table,
the built-in opening book): six random games from the empty board (seed SEED), each analysed
after 5, 6, ..., 14 stones or until it ends, on THREADS threads.

    python3 scripts/analyse-times.py [CUTOFF] [SEED] [THREADS]

Prints one line per position (stones, moves, seconds, whether the game is over) and the
slowest time at each number of stones.
"""

import json
import random
import subprocess
import sys
import time


def main():
    cutoff = sys.argv[1] if len(sys.argv) > 1 else "target/release/cutoff"
    random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    threads = sys.argv[3] if len(sys.argv) > 3 else "1"
    slowest = {}
    for _ in range(6):
        moves = ""
        for ply in range(5, 15):
            while len(moves) < ply:
                moves += random.choice([c for c in "1234567" if moves.count(c) < 6])
            args = [cutoff, "analyse", "connect4", moves, "--json", "--threads", threads]
            start = time.time()
            out = subprocess.run(
                args + ["--tt-mb", "64", "--book", "builtin"], capture_output=True, text=True
            )
            seconds = time.time() - start
            if out.returncode != 0:
                sys.exit(f"cutoff analyse {moves} failed: {out.stderr.strip()}")
            over = json.loads(out.stdout)["terminal"]
            print(f"{ply:2d} {moves:<16} {seconds:6.2f} s{'  game over' if over else ''}")
            slowest[ply] = max(slowest.get(ply, 0.0), seconds)
            if over:
                break
    print("slowest by stones:", {p: round(s, 1) for p, s in sorted(slowest.items())})


if __name__ == "__main__":
    main()
