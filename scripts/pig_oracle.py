#!/usr/bin/env python3
"""An independent check of cutoff's Pig values: the rules of issue 10 written out again in
Python, with exact fractions, searched by plain expectimax / max^n over the whole tree.

    python3 scripts/pig_oracle.py

prints, for every row of the Pig table in docs/measurements/chance.md, the value (two players: the first player's;
three players: every player's), and the decision and chance nodes of the full tree. It shares
no code with the engine, so agreement is evidence that both read the rules alike. The three-
player rows are searched in floating point (exact fractions there grow large and slow).
"""
from fractions import Fraction
import sys

sys.setrecursionlimit(100000)


def solve(players, win, faces, horizon, piglet=False, exact=True):
    count = {"decision": 0, "chance": 0}
    one = Fraction(1) if exact else 1.0

    def result(winner):
        if winner is None:
            return tuple([0 * one] * players)
        return tuple(one if i == winner else -one / (players - 1) for i in range(players))

    def decide(scores, total, p, moves):
        if moves >= horizon:
            return result(None)
        count["decision"] += 1
        options = []
        # Roll first: under max^n's tie rule the first child stays unless a later one is
        # strictly better.
        if scores[p] + total < win:
            options.append(roll(scores, total, p, moves + 1))
        banked = list(scores)
        banked[p] += total
        if banked[p] >= win:
            options.append(result(p))
        else:
            options.append(decide(tuple(banked), 0, (p + 1) % players, moves + 1))
        best = options[0]
        for v in options[1:]:
            if v[p] > best[p]:
                best = v
        return best

    def roll(scores, total, p, moves):
        # A roll that is the horizon's last move ends the game before the die lands.
        if moves >= horizon:
            return result(None)
        count["chance"] += 1
        if piglet:
            outcomes = [(one / faces, None), (one - one / faces, 1)]
        else:
            outcomes = [(one / faces, None)] + [(one / faces, f) for f in range(2, faces + 1)]
        mean = [0 * one] * players
        for prob, face in outcomes:
            if face is None:
                v = decide(scores, 0, (p + 1) % players, moves)
            else:
                v = decide(scores, total + face, p, moves)
            mean = [m + prob * x for m, x in zip(mean, v)]
        return tuple(mean)

    value = decide(tuple([0] * players), 0, 0, 0)
    return value, count


ROWS = [
    ("pig, 2 players, to 4, 3 faces, horizon 6", (2, 4, 3, 6, False, True)),
    ("pig, 2 players, to 5, 3 faces, horizon 8", (2, 5, 3, 8, False, True)),
    ("pig, 2 players, to 6, 6 faces, horizon 6", (2, 6, 6, 6, False, True)),
    ("piglet, 2 players, fair coin, to 3, horizon 8", (2, 3, 2, 8, True, True)),
    ("pig, 3 players, to 3, 3 faces, horizon 9", (3, 3, 3, 9, False, False)),
    ("pig, 3 players, to 4, 3 faces, horizon 10", (3, 4, 3, 10, False, False)),
]

if __name__ == "__main__":
    for name, (n, w, d, h, piglet, exact) in ROWS:
        value, count = solve(n, w, d, h, piglet, exact)
        shown = float(value[0]) if n == 2 else tuple(round(float(x), 10) for x in value)
        print(f"{name}: {shown}  decision {count['decision']}  chance {count['chance']}"
              f"  nodes {count['decision'] + count['chance']}")
