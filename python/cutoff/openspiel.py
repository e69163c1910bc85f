"""OpenSpiel's games in cutoff, and cutoff's CFR strategies in OpenSpiel.

- :func:`solve` searches any two-player, zero-sum, perfect-information, deterministic,
  turn-based OpenSpiel state through its public state API (``current_player``,
  ``legal_actions``, ``child``, ``returns``), with cutoff's transposition table and move
  ordering.
- :func:`policy` turns a cutoff CFR strategy (``cutoff.cfr(...)``, or the JSON of
  ``cutoff cfr GAME --json``) for Kuhn poker or Leduc hold'em into an OpenSpiel
  ``TabularPolicy`` of ``kuhn_poker`` or ``leduc_poker``.

OpenSpiel (``pip install open_spiel``) is optional: importing this module needs nothing, and
the first call that needs ``pyspiel`` raises :class:`ImportError` saying so.

The table key
-------------
cutoff's table needs a hashable key that is *exact*: two states with the same key must have
the same value and the same legal actions from there on. OpenSpiel gives three candidates:

- ``history()`` (the actions from the initial state) is exact for every deterministic game,
  but two move orders reaching one board get two keys, so it merges no transpositions;
- ``information_state_string`` is that history too for the board games (``"0, 1"``);
- ``str(state)`` (``ToString``) draws the board. With the side to move added it is exact for
  games whose future depends on the board alone: tic-tac-toe, Connect Four, m,n,k-games,
  Hex without the swap rule, Nim (its string holds the player and the heaps), Clobber,
  Breakthrough. It is *not* exact in general: Dots and Boxes draws the lines but not who
  owns the boxes (the score), and chess-like games need the repetition history.

``key="auto"`` (the default) uses ``(player, str(state))`` for the games listed in
:data:`BOARD_KEY_GAMES` and the history for any other; ``key="board"``, ``key="history"``
or a function ``f(state) -> hashable`` (combined with the player to move) choose.
"""

from __future__ import annotations

import math
import time as _time

__all__ = [
    "BOARD_KEY_GAMES",
    "PASS",
    "SpielGame",
    "SpielResult",
    "alpha_beta",
    "check_game",
    "policy",
    "solve",
]

#: Games whose ``str(state)`` plus the player to move is an exact table key (see above).
BOARD_KEY_GAMES = frozenset(
    {
        "tic_tac_toe",
        "connect_four",
        "mnk",
        "hex",
        "nim",
        "clobber",
        "breakthrough",
    }
)

_INSTALL = (
    "cutoff.openspiel needs OpenSpiel, which is not installed: pip install open_spiel"
)


def _pyspiel():
    """The ``pyspiel`` module, imported on first use."""
    try:
        import pyspiel
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(_INSTALL) from e
    return pyspiel


def _policy_lib():
    _pyspiel()
    from open_spiel.python import policy as policy_lib

    return policy_lib


def check_game(game) -> None:
    """Raises :class:`ValueError` unless ``game`` (a ``pyspiel.Game``) is two-player,
    zero-sum, perfect-information, deterministic and turn-based: the games :func:`solve`
    searches."""
    ps = _pyspiel()
    t = game.get_type()
    name = t.short_name
    if game.num_players() != 2:
        raise ValueError(f"{name}: {game.num_players()} players, cutoff.openspiel.solve needs 2")
    if t.utility != ps.GameType.Utility.ZERO_SUM:
        raise ValueError(f"{name}: utility {t.utility.name}, cutoff.openspiel.solve needs ZERO_SUM")
    if t.information != ps.GameType.Information.PERFECT_INFORMATION:
        raise ValueError(
            f"{name}: {t.information.name} information, cutoff.openspiel.solve needs "
            "PERFECT_INFORMATION"
        )
    if t.chance_mode != ps.GameType.ChanceMode.DETERMINISTIC:
        raise ValueError(
            f"{name}: chance mode {t.chance_mode.name}, cutoff.openspiel.solve needs "
            "DETERMINISTIC"
        )
    if t.dynamics != ps.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(
            f"{name}: {t.dynamics.name} dynamics, cutoff.openspiel.solve needs SEQUENTIAL"
        )


#: The move of a pass position (see :class:`SpielGame`): not an OpenSpiel action.
PASS = -1


class _Node:
    """A state handed to cutoff: the OpenSpiel state and the player whose view its value is
    taken from (the player to move; at a terminal state, the opponent of the player who
    made the last move). With ``passing``, the position inserted before a player's second
    move in a row: ``player`` (the other one) has the one move :data:`PASS`."""

    __slots__ = ("state", "player", "passing")

    def __init__(self, state, player: int, passing: bool = False):
        self.state = state
        self.player = player
        self.passing = passing

    def __repr__(self) -> str:
        tag = ", passing" if self.passing else ""
        return f"_Node(player={self.player}{tag}, history={self.state.history()})"


class SpielGame:
    """A pyspiel state presented as a cutoff Python game (the object ``cutoff.solve`` takes):
    the game starts at ``state`` (which is copied, never changed).

    - ``to_move``: ``current_player()`` (at a terminal state, the opponent of the last mover);
    - ``moves``: ``legal_actions()``, in OpenSpiel's order (or ``order(state, actions)``);
    - ``play``: ``child(action)`` (a new state);
    - cutoff's searches need sides that alternate. Where OpenSpiel gives a player two moves
      in a row (Dots and Boxes: closing a box), the adapter puts a *pass position* between
      them, where the other player has the one move :data:`PASS`; it counts as a node, and
      :func:`solve` leaves the passes out of ``pv``;
    - ``outcome``: ``None`` before the end, then ``player_return`` of the player to move
      times ``scale``, which must be an integer;
    - ``key``: see the module comment (``key=``);
    - ``value_range``: the game's least and greatest return, times ``scale``;
    - ``max_plies``: twice ``max_game_length()`` (room for pass positions);
    - ``evaluate`` (only with ``value_function``): ``value_function(state)``, player 0's
      view (as OpenSpiel's ``alpha_beta_search`` reads it with ``maximizing_player_id=0``),
      in returns' units, times ``scale``, rounded, from the player to move's view, and kept
      within ``value_range`` (so give a heuristic room with ``scale``: 100 for hundredths).
      Without it, a depth-limited search scores an unfinished state 0.
    """

    def __init__(self, state, *, key="auto", scale=1, value_function=None, order=None):
        _pyspiel()
        game = state.get_game()
        check_game(game)
        self.game = game
        self.name = game.get_type().short_name
        if state.is_terminal():
            player = 0
        else:
            player = state.current_player()
            if player not in (0, 1):
                raise ValueError(f"{self.name}: the state's player is {player}, not 0 or 1")
        self.root = _Node(state.clone(), player)
        #: The calls of ``play``: the states cutoff had OpenSpiel make (``child``), pass
        #: positions left out.
        self.plays = 0
        if not (isinstance(scale, int) and scale >= 1):
            raise ValueError(f"scale must be a positive integer, not {scale!r}")
        self.scale = scale
        if key == "auto":
            key = "board" if self.name in BOARD_KEY_GAMES else "history"
        if key == "board":
            self.key = self._board_key
        elif key == "history":
            self.key = self._history_key
        elif callable(key):
            f = key
            self.key = lambda n: (n.player, f(n.state), n.passing)
        else:
            raise ValueError(f"key must be 'auto', 'board', 'history' or a function, not {key!r}")
        self.key_kind = key if isinstance(key, str) else "custom"
        self._order = order
        lo = math.floor(game.min_utility() * scale)
        hi = math.ceil(game.max_utility() * scale)
        self._range = (lo, hi if hi > lo else lo + 1)
        if value_function is not None:
            vf = value_function

            def evaluate(n):
                v = vf(n.state) * self.scale
                v = int(round(v if n.player == 0 else -v))
                return min(max(v, self._range[0]), self._range[1])

            self.evaluate = evaluate

    # The cutoff game protocol.

    def initial(self):
        return self.root

    def value_range(self):
        # Every value lies between the game's least and greatest return (times scale): the
        # bounds of cutoff's null-window bisection.
        return self._range

    def max_plies(self, n: _Node) -> int:
        # Twice the game's length: room for a pass before every move.
        return 2 * self.game.max_game_length()

    def to_move(self, n: _Node) -> int:
        return n.player

    def moves(self, n: _Node):
        if n.passing:
            return [PASS]
        actions = n.state.legal_actions()
        if self._order is not None:
            actions = list(self._order(n.state, actions))
        return actions

    def play(self, n: _Node, action):
        if n.passing:
            return _Node(n.state, 1 - n.player)
        self.plays += 1
        child = n.state.child(action)
        p = child.current_player()
        if p < 0:  # terminal (OpenSpiel's PlayerId.TERMINAL)
            return _Node(child, 1 - n.player)
        if p == n.player:
            # The same player moves again: the other passes first, so that sides alternate.
            return _Node(child, 1 - p, passing=True)
        return _Node(child, p)

    def outcome(self, n: _Node):
        s = n.state
        if n.passing or not s.is_terminal():
            return None
        r = s.player_return(n.player) * self.scale
        v = int(round(r))
        if abs(r - v) > 1e-9:
            raise ValueError(
                f"{self.name}: return {r / self.scale} is not an integer; pass scale= so "
                "that every return times scale is one"
            )
        return v

    @staticmethod
    def _board_key(n: _Node):
        return (n.player, str(n.state), n.passing)

    @staticmethod
    def _history_key(n: _Node):
        return (tuple(n.state.history()), n.passing)


class SpielResult:
    """What :func:`solve` returns: cutoff's result read in OpenSpiel's terms.

    - ``value``: the value for the state's player to move (OpenSpiel's units: a return
      divided by ``scale``);
    - ``player``: that player (0 at a terminal state);
    - ``value_player0`` and ``returns``: player 0's value, and both players' (OpenSpiel's
      convention, as ``alpha_beta_search(..., maximizing_player_id=0)`` gives it);
    - ``best_action``: an OpenSpiel action (``None`` at a terminal state), ``pv`` the line
      of actions;
    - ``nodes``, ``time_ms``: cutoff's node count (states entered) and time; ``plays``:
      the states it had OpenSpiel make (``child`` calls: the children it looked at, entered
      or not, a state met again by transposition counted again); ``result``: cutoff's own
      result.

    Any other attribute is read from cutoff's result.
    """

    def __init__(self, result, game: SpielGame, value, best_action, pv, nodes, time_ms):
        self.result = result
        self.game = game
        self.player = game.root.player
        self.value = value
        if value is None:
            self.value_player0 = None
            self.returns = None
        else:
            v0 = value if self.player == 0 else -value
            self.value_player0 = v0
            self.returns = (v0, -v0)
        self.best_action = best_action
        self.pv = pv
        self.nodes = nodes
        self.time_ms = time_ms
        self.plays = game.plays

    def __getattr__(self, name):
        # Only called for attributes not set above.
        result = self.__dict__.get("result")
        if result is None:
            raise AttributeError(name)
        return getattr(result, name)

    def to_dict(self) -> dict:
        return {
            "game": self.game.name,
            "history": list(self.game.root.state.history()),
            "player": self.player,
            "value": self.value,
            "value_player0": self.value_player0,
            "returns": list(self.returns) if self.returns is not None else None,
            "best_action": self.best_action,
            "pv": list(self.pv),
            "nodes": self.nodes,
            "plays": self.plays,
            "time_ms": self.time_ms,
            "exact": getattr(self.result, "exact", True) if self.result is not None else True,
            "key": self.game.key_kind,
        }

    def __repr__(self) -> str:
        return (
            f"SpielResult(game={self.game.name!r}, player={self.player}, value={self.value}, "
            f"value_player0={self.value_player0}, best_action={self.best_action}, "
            f"nodes={self.nodes})"
        )


def _unscale(v, scale):
    if v is None or scale == 1:
        return v
    return v / scale


def solve(state, *, key="auto", scale=1, value_function=None, order=None, **options) -> SpielResult:
    """Solves the OpenSpiel ``state`` with cutoff (``cutoff.solve`` on a :class:`SpielGame`).

    ``options`` go to ``cutoff.search`` (``algo``, ``depth``, ``tt_mb``, ...; the default
    is cutoff's exact solver with its table and ordering). ``key``, ``scale``,
    ``value_function`` and ``order``: see :class:`SpielGame`. A terminal state is answered
    without a search (its returns, 0 nodes).

    Raises :class:`ValueError` for a game that is not two-player, zero-sum,
    perfect-information, deterministic and turn-based.
    """
    game = SpielGame(state, key=key, scale=scale, value_function=value_function, order=order)
    if state.is_terminal():
        r = state.returns()[0]
        return SpielResult(None, game, int(r) if float(r).is_integer() else r, None, [], 0, 0.0)
    import cutoff

    start = _time.perf_counter()
    res = cutoff.search(game, **options)
    elapsed = (_time.perf_counter() - start) * 1000.0
    time_ms = getattr(res, "time_ms", None)
    return SpielResult(
        res,
        game,
        _unscale(res.value, scale),
        res.best_move,
        [m for m in (res.pv or []) if m != PASS],
        res.nodes,
        time_ms if time_ms is not None else elapsed,
    )


# ---------------------------------------------------------------------------------------
# CFR strategies as OpenSpiel policies.

# cutoff's action names (engine/src/games/imperfect/{kuhn,leduc}.rs, `action_name`) and the
# OpenSpiel action ids they are.
_KUHN_ACTIONS = {"check": 0, "fold": 0, "bet": 1, "call": 1}  # OpenSpiel: 0 Pass, 1 Bet
_LEDUC_ACTIONS = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}  # Fold, Call, Raise
_RANKS = "JQK"


def _strategy(result):
    """The strategy list of a cutoff CFR result: an object with ``strategy``, a dict with
    ``"strategy"``, or the list itself; entries are objects or dicts with ``infoset``,
    ``player``, ``actions`` and ``probabilities``."""
    if isinstance(result, dict):
        entries = result["strategy"]
    elif isinstance(result, (list, tuple)):
        entries = result
    else:
        entries = result.strategy
    out = {}
    for e in entries:
        get = e.get if isinstance(e, dict) else (lambda k, e=e: getattr(e, k))
        out[get("infoset")] = (int(get("player")), list(get("actions")), list(get("probabilities")))
    return out


def _result_game(result):
    if isinstance(result, dict):
        return result.get("game")
    if isinstance(result, (list, tuple)):
        return None
    return getattr(result, "game", None)


def _leduc_card(c: int) -> str:
    # OpenSpiel's Leduc card c has rank c // 2 (checked against its showdowns); cutoff names
    # card c by rank c / 2 and suit 1 + c % 2 (engine/src/games/imperfect/leduc.rs).
    return _RANKS[c // 2] + str(1 + c % 2)


def _walk(game, kind):
    """Every decision state of kuhn_poker or leduc_poker, each with cutoff's key of its
    information set. The key is built from the state's history, not from OpenSpiel's
    strings: the dealt cards are the chance actions, and the betting is the player actions."""
    out = []

    def rec(state, cards, rounds):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                rec(state.child(a), cards + [a], rounds)
            return
        p = state.current_player()
        if kind == "kuhn":
            key = _RANKS[cards[p]] + "".join(rounds[0])
        else:
            key = _leduc_card(cards[p])
            if len(cards) > 2:
                key += _leduc_card(cards[2])
            key += ":" + "".join(rounds[0])
            if len(cards) > 2:
                key += "/" + "".join(rounds[1])
        out.append((state, key))
        r = 0 if kind == "kuhn" or len(cards) == 2 else 1
        for a in state.legal_actions():
            if kind == "kuhn":
                ch = "pb"[a]
            else:
                if a == 0:  # fold ends the game
                    continue
                ch = "cr"[a - 1]
            nr = [list(x) for x in rounds]
            nr[r].append(ch)
            rec(state.child(a), cards, nr)

    rec(game.new_initial_state(), [], [[], []])
    return out


def policy(game, cfr_result):
    """An OpenSpiel ``TabularPolicy`` of ``game`` holding the average strategy of a cutoff
    CFR run.

    ``game`` is ``"kuhn_poker"``, ``"leduc_poker"`` or the loaded ``pyspiel.Game`` (Leduc
    with its default parameters: cutoff's Leduc is OpenSpiel's default ``leduc_poker``);
    ``cfr_result`` is what ``cutoff.cfr("kuhn" or "leduc", ...)`` returns, the parsed JSON
    of ``cutoff cfr GAME --json``, or its ``strategy`` list.

    Every information set of the OpenSpiel game gets cutoff's probabilities; a set cutoff
    does not have, an action name or an action set that does not match, or a cutoff set
    that OpenSpiel does not have, raises :class:`ValueError`.
    """
    ps = _pyspiel()
    policy_lib = _policy_lib()
    if isinstance(game, str):
        game = ps.load_game(game)
    name = game.get_type().short_name
    params = game.get_parameters()
    if name == "kuhn_poker" and params.get("players", 2) == 2:
        kind, names = "kuhn", _KUHN_ACTIONS
    elif name == "leduc_poker" and params.get("players", 2) == 2 and not params.get(
        "suit_isomorphism", False
    ) and not params.get("action_mapping", False):
        kind, names = "leduc", _LEDUC_ACTIONS
    else:
        raise ValueError(
            f"{name} {params}: cutoff.openspiel.policy knows kuhn_poker and leduc_poker "
            "(two players, default parameters)"
        )
    rgame = _result_game(cfr_result)
    if rgame is not None and rgame != kind:
        raise ValueError(f"the CFR result is for {rgame!r}, the OpenSpiel game is {name}")
    strategy = _strategy(cfr_result)
    tp = policy_lib.TabularPolicy(game)
    seen = set()
    for state, key in _walk(game, kind):
        if key not in strategy:
            raise ValueError(f"{name}: cutoff's strategy has no information set {key!r}")
        player, actions, probs = strategy[key]
        if player != state.current_player():
            raise ValueError(f"{name}: {key!r} is player {player}'s in cutoff, "
                             f"{state.current_player()}'s in OpenSpiel")
        try:
            ids = [names[a] for a in actions]
        except KeyError as e:
            raise ValueError(f"{name}: unknown action name {e.args[0]!r} at {key!r}") from None
        if sorted(ids) != sorted(state.legal_actions()):
            raise ValueError(
                f"{name}: at {key!r} cutoff's actions {actions} are not OpenSpiel's "
                f"{[state.action_to_string(a) for a in state.legal_actions()]}"
            )
        row = tp.action_probability_array[tp.state_index(state)]
        row[:] = 0.0
        for i, p in zip(ids, probs):
            row[i] = p
        seen.add(key)
    missing = set(strategy) - seen
    if missing:
        raise ValueError(
            f"{name}: {len(missing)} of cutoff's information sets are not OpenSpiel's, "
            f"such as {sorted(missing)[0]!r}"
        )
    return tp


# ---------------------------------------------------------------------------------------
# OpenSpiel's own search, with its nodes counted: the reference the tests and
# scripts/openspiel_side_by_side.py compare with.


def alpha_beta(state, *, maximizing_player_id=None, count=True):
    """OpenSpiel's alpha-beta (``open_spiel.python.algorithms.minimax.alpha_beta_search``)
    on ``state``, to the end of the game: ``(value, action, nodes)``, the value for
    ``maximizing_player_id`` (default: the player to move).

    ``nodes`` counts the calls of the module's node routine ``_alpha_beta``, each entering
    one state (the root, inner states and terminal states alike), by wrapping the routine
    for the duration of the call (``None`` with ``count=False``, which times OpenSpiel
    without the wrapper's call per node). OpenSpiel's search has no table and no move
    ordering: it tries ``legal_actions()`` in order."""
    _pyspiel()
    from open_spiel.python.algorithms import minimax

    game = state.get_game()
    depth = game.max_game_length() + 1
    if not count:
        v, a = minimax.alpha_beta_search(
            game, state=state, maximum_depth=depth, maximizing_player_id=maximizing_player_id
        )
        return v, a, None
    inner = minimax._alpha_beta
    nodes = 0

    def counted(*args, **kwargs):
        nonlocal nodes
        nodes += 1
        return inner(*args, **kwargs)

    minimax._alpha_beta = counted
    try:
        v, a = minimax.alpha_beta_search(
            game, state=state, maximum_depth=depth, maximizing_player_id=maximizing_player_id
        )
    finally:
        minimax._alpha_beta = inner
    return v, a, nodes
