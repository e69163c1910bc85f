#!/usr/bin/env python3
"""Test sets of Connect Four positions a few stones deep on any board, scored by a reference
solver, for side-by-side measurements on boards the public sets do not cover.

    scripts/few-stones.py WxH STONES HARNESS [--count 10] [--seed 11] > positions/connect4/boards/WxH.txt

Random legal games of STONES stones in which no stone wins (the mover never plays its own
winning cell), each scored by HARNESS (a program reading one move string a line and printing
`moves score nodes microseconds`, such as ../shared/anchors/c4-steininger-1t-WxH), kept
where it takes 20 ms to 4 s (`--min-s`, `--max-s`), until COUNT are kept; `--distinct` keeps
each position once. Prints a `# board WxH` header, then `moves score` lines; columns are written from 1, with commas on boards wider than 9. Feed the
lines without the header to the reference programs (`grep -v '^#'`).
"""

import argparse
import random
import subprocess


def wins(b, w, h, c, r, p):
    """Whether a stone of `p` at column c, row r makes four."""
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            x, y = c + dc * s, r + dr * s
            while 0 <= x < w and 0 <= y < h and b.get((x, y)) == p:
                n += 1
                x, y = x + dc * s, y + dr * s
        if n >= 4:
            return True
    return False


def game(w, h, stones, rng):
    """A random game of `stones` stones where nobody has won, or None if one ran out."""
    b, height, moves, p = {}, [0] * w, [], 0
    while len(moves) < stones:
        cols = [c for c in range(w) if height[c] < h and not wins(b, w, h, c, height[c], p)]
        if not cols:
            return None
        c = rng.choice(cols)
        b[(c, height[c])] = p
        height[c] += 1
        moves.append(c + 1)
        p ^= 1
    return ",".join(map(str, moves)) if w > 9 else "".join(map(str, moves))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("board")
    ap.add_argument("stones", type=int)
    ap.add_argument("harness")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--min-s", type=float, default=0.02, help="keep positions taking at least this")
    ap.add_argument("--max-s", type=float, default=4.0, help="and at most this (seconds)")
    ap.add_argument("--distinct", action="store_true", help="keep each position once")
    a = ap.parse_args()
    extra = ""
    if (a.min_s, a.max_s) != (0.02, 4.0):
        extra += f" --min-s {a.min_s:g} --max-s {a.max_s:g}"
    if a.distinct:
        extra += " --distinct"
    w, h = map(int, a.board.lower().split("x"))
    rng = random.Random(a.seed)
    print(f"# board {w}x{h}")
    print(f"# {a.count} positions of {a.stones} stones, scored by {a.harness.split('/')[-1]}: "
          f"scripts/few-stones.py {a.board} {a.stones} HARNESS --count {a.count} --seed {a.seed}{extra}")
    kept, seen = 0, set()
    for _ in range(40 * a.count):
        moves = game(w, h, a.stones, rng)
        if moves is None or moves in seen:
            continue
        if a.distinct:
            seen.add(moves)
        try:
            out = subprocess.run([a.harness], input=moves + "\n", capture_output=True,
                                 text=True, timeout=a.max_s + 2).stdout.split()
        except subprocess.TimeoutExpired:
            continue
        if len(out) == 4 and a.min_s * 1e6 <= int(out[3]) <= a.max_s * 1e6:
            print(f"{moves} {out[1]}", flush=True)
            kept += 1
            if kept == a.count:
                break


if __name__ == "__main__":
    main()
