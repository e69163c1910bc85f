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


class Cycle:
    """Two states that lead to each other for ever: "A" (the first player to move) and "B"
    (the second), two moves each. The game never ends, and it has no max_plies(s): the
    search takes its default of 1000 plies, which the game breaks."""

    def initial(self):
        return "A"

    def to_move(self, s):
        return 0 if s == "A" else 1

    def moves(self, s):
        return ["left", "right"]

    def play(self, s, m):
        return "B" if s == "A" else "A"

    def outcome(self, s):
        return None

    def key(self, s):
        return s


class ShortCycle(Cycle):
    """The cycle, claiming with its own max_plies(s) to end within 10 plies."""

    def max_plies(self, s):
        return 10


class CountedCycle(Cycle):
    """The cycle written properly with a move counter: a state is (name, plies played), and
    the game is drawn after LIMIT plies, which max_plies(s) counts down to."""

    LIMIT = 20

    def initial(self):
        return ("A", 0)

    def to_move(self, s):
        return 0 if s[0] == "A" else 1

    def play(self, s, m):
        return ("B" if s[0] == "A" else "A", s[1] + 1)

    def outcome(self, s):
        return 0 if s[1] >= self.LIMIT else None

    def key(self, s):
        return s

    def max_plies(self, s):
        return self.LIMIT - s[1]


class RepetitionCycle(Cycle):
    """The cycle written properly with an outcome on repetition: a state is (name, the names
    met before), and the side that repeats a state loses (a rule whose value is not 0). The
    game ends within three plies, well within the default max_plies."""

    def initial(self):
        return ("A", frozenset())

    def to_move(self, s):
        return 0 if s[0] == "A" else 1

    def play(self, s, m):
        return ("B" if s[0] == "A" else "A", s[1] | {s[0]})

    def outcome(self, s):
        # The opponent made the repetition: the side to move wins.
        return 1 if s[0] in s[1] else None

    def key(self, s):
        return s


class SameKeys(TicTacToe):
    """Tic-tac-toe whose key(s) is the cells taken and the side to move, not whose they are:
    different states with the same side to move share a key."""

    def key(self, s):
        return (s[0] | s[1], self.to_move(s))


class Heap:
    """A state object without its own __eq__."""

    def __init__(self, items, player):
        self.items = items
        self.player = player

    def __repr__(self):
        return f"Heap({self.items}, {self.player})"


class SameKeysNim(Nim):
    """Nim on Heap objects whose key(s) forgets the side to move."""

    def initial(self):
        return Heap(self.heap, 0)

    def to_move(self, s):
        return s.player

    def moves(self, s):
        return [k for k in (1, 2, 3) if k <= s.items]

    def play(self, s, m):
        return Heap(s.items - m, 1 - s.player)

    def outcome(self, s):
        return -1 if s.items == 0 else None

    def key(self, s):
        return s.items
