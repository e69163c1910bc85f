"""Games written in Python for the tests: the course's tic-tac-toe, move for move the Rust
game's (engine/src/games/perfect/tictactoe.rs), so that the engine's node counts must match."""

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
FULL = (1 << 9) - 1


def has_line(bits):
    return any(all(bits >> c & 1 for c in line) for line in LINES)


class TicTacToe:
    """A state is (x, o): the cells (bits 0..8) of each side; X moves first."""

    def initial(self):
        return (0, 0)

    def to_move(self, s):
        x, o = s
        return 0 if bin(x).count("1") == bin(o).count("1") else 1

    def moves(self, s):
        x, o = s
        return [c + 1 for c in range(9) if not (x | o) >> c & 1]

    def play(self, s, m):
        x, o = s
        bit = 1 << (m - 1)
        return (x | bit, o) if self.to_move(s) == 0 else (x, o | bit)

    def outcome(self, s):
        x, o = s
        last = o if self.to_move(s) == 0 else x
        if has_line(last):
            return -1
        if x | o == FULL:
            return 0
        return None

    def key(self, s):
        return s

    def max_plies(self, s):
        x, o = s
        return 9 - bin(x | o).count("1")

    def value_range(self):
        return (-1, 1)


class Nim:
    """Take 1 to 3 from a heap; who takes the last one wins. Minimal: the six required
    methods only."""

    def __init__(self, heap):
        self.heap = heap

    def initial(self):
        return (self.heap, 0)

    def to_move(self, s):
        return s[1]

    def moves(self, s):
        return [k for k in (1, 2, 3) if k <= s[0]]

    def play(self, s, m):
        return (s[0] - m, 1 - s[1])

    def outcome(self, s):
        return -1 if s[0] == 0 else None

    def key(self, s):
        return s
