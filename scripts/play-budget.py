#!/usr/bin/env python3
"""Times every engine move of one Connect Four game of `cutoff play`, engine first, with
its default per-move budget (or --time-ms MS), the human's moves chosen by `cutoff analyse
--nodes 30000`. A move's time runs from the human's move written to the next prompt read
back, so it includes the board's printing and the pipe.

    python3 scripts/play-budget.py [CUTOFF] [BOARD] [MS]

BOARD defaults to 16x7 and MS to the command's own default. Prints each engine move's time,
then the count, the slowest and the mean; exits 1 if a move took more than the budget plus
100 ms (the budget being 3000 ms where MS is not given).
"""

import json
import os
import subprocess
import sys
import time


def main():
    cutoff = sys.argv[1] if len(sys.argv) > 1 else "target/release/cutoff"
    board = sys.argv[2] if len(sys.argv) > 2 else "16x7"
    budget = sys.argv[3] if len(sys.argv) > 3 else None
    args = [cutoff, "play", "connect4", "--board", board, "--first", "engine"]
    if budget:
        args += ["--time-ms", budget]
    game = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        bufsize=0,
    )
    fd = game.stdout.fileno()

    def until_prompt():
        # The prompt ends without a newline, so read raw bytes, not lines.
        out = b""
        while not out.endswith(b"O> "):
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out += chunk
        return out.decode()

    moves, times = [], []
    start = time.time()
    text = until_prompt()
    times.append(time.time() - start)
    while True:
        moves += [l.split()[2] for l in text.splitlines() if l.startswith("engine plays")]
        if "game is over" in text or not text.endswith("O> "):
            break
        pick = subprocess.run(
            [cutoff, "analyse", "connect4", "--board", board, ",".join(moves)]
            + ["--nodes", "30000", "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
        move = json.loads(pick.stdout)["best_move"]
        moves.append(move)
        game.stdin.write(f"{move}\n".encode())
        start = time.time()
        text = until_prompt()
        if "engine plays" in text:
            times.append(time.time() - start)
    game.stdin.write(b"quit\n")
    game.wait()
    for i, t in enumerate(times):
        print(f"engine move {i + 1}: {t:.3f} s")
    limit = (int(budget) if budget else 3000) / 1000 + 0.1
    print(
        f"{len(times)} engine moves over {len(moves)} plies: slowest {max(times):.3f} s, "
        f"mean {sum(times) / len(times):.3f} s (limit {limit:.1f} s)"
    )
    sys.exit(0 if max(times) <= limit else 1)


if __name__ == "__main__":
    main()
