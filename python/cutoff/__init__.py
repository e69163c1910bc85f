"""cutoff from Python: solve and analyse game positions, search games written in Python, CFR.

The engine runs in Rust, without the GIL; Ctrl-C stops a running search and raises
:class:`Interrupted`, which carries what the search had proved. The guide is
docs/guide/python.md in the repository.

>>> import cutoff
>>> r = cutoff.solve("connect4", "4453", threads=1)
>>> r.value, r.best_move
(-2, '6')
"""

from __future__ import annotations

import json as _json
from typing import Any, Callable, Dict, Iterator, List, Optional

from . import _cutoff

__all__ = [
    "Error",
    "Interrupted",
    "Result",
    "solve",
    "analyse",
    "cfr",
    "search",
    "CfrResult",
    "__version__",
]

__version__: str = _cutoff.__version__

#: What the engine or the command refused (bad game, position or option), with the
#: command's one-line message. A subclass of ValueError.
Error = _cutoff.Error


class Result:
    """A report: the fields of the command's ``--json`` object, as attributes and as a dict.

    ``r.value``, ``r["value"]`` and ``r.to_dict()["value"]`` are the same; ``str(r)`` is
    the command's text report where there is one.
    """

    __slots__ = ("_fields", "_text")

    def __init__(self, fields: Dict[str, Any], text: Optional[str] = None) -> None:
        self._fields = fields
        self._text = text

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(
                f"the report has no field {name!r}; its fields: {', '.join(self._fields)}"
            ) from None

    def __getitem__(self, name: str) -> Any:
        return self._fields[name]

    def __contains__(self, name: object) -> bool:
        return name in self._fields

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __dir__(self) -> List[str]:
        return sorted(set(self._fields) | set(object.__dir__(self)))

    def keys(self):
        """The report's field names."""
        return self._fields.keys()

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict (a copy)."""
        return dict(self._fields)

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{k}={self._fields[k]!r}"
            for k in ("game", "value", "best_move", "nodes", "exploitability")
            if k in self._fields
        )
        return f"cutoff.Result({shown})"

    def __str__(self) -> str:
        return self._text if self._text is not None else repr(self)


class CfrResult(Result):
    """A CFR run's report (:func:`cfr`): the command's fields, and the average strategy as a
    dict keyed by information set."""

    __slots__ = ()

    @property
    def average_strategy(self) -> Dict[str, Dict[str, float]]:
        """Information set → {action: probability}, from the report's ``strategy`` list."""
        return {
            s["infoset"]: dict(zip(s["actions"], s["probabilities"]))
            for s in self._fields["strategy"]
        }


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search: ``result`` is the report of what it did (for an exact solve,
    ``result.bounds`` the bounds it proved), or None where there is none. A KeyboardInterrupt,
    so code that does not look for it stops as it would on Ctrl-C."""

    def __init__(self, message: str, result: Optional[Result]) -> None:
        super().__init__(message)
        self.result = result


Progress = Callable[[Dict[str, Any]], Any]


def _argv(positional: List[str], options: Dict[str, Any]) -> List[str]:
    """The command line for ``options``: ``tt_mb=16`` is ``--tt-mb 16``, ``weak=True``
    is ``--weak``, False and None leave an option out, a list repeats it."""
    argv: List[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            argv.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                argv += [flag, str(v)]
        else:
            argv += [flag, str(value)]
    # Positionals after `--`, so that a position like "-" is not read as an option.
    return argv + ["--"] + positional


def _run(
    command: str,
    positional: List[str],
    options: Dict[str, Any],
    progress: Optional[Progress],
    progress_every: float,
) -> Result:
    status, report, text, message = _cutoff.run(
        command, _argv(positional, options), progress, progress_every
    )
    data = None if report is None else _json.loads(report)
    kind = CfrResult if command == "cfr" else Result
    # `cfr` with several algorithms reports a list, one report each.
    result: Any = (
        [kind(d) for d in data] if isinstance(data, list)
        else None if data is None else kind(data, text)
    )
    if status == "interrupted":
        raise Interrupted(message or "interrupted", result)
    assert result is not None
    return result


def solve(
    game: Any,
    position: Optional[str] = None,
    *,
    progress: Optional[Progress] = None,
    progress_every: float = 1.0,
    **options: Any,
) -> Result:
    """Solves a position, as ``cutoff solve GAME [POSITION] --json`` does.

    ``game`` is a built-in game's name (``"connect4"``, ``"tictactoe"``, ``"pig"``, ...: see
    ``cutoff solve --help``) or a game written in Python (see :func:`search`, which takes the
    same object). The options are the command's, with ``_`` for ``-``: ``algo``, ``depth``,
    ``threads``, ``tt_mb``, ``time_ms``, ``nodes``, ``weak``, ``board``, ``parallel``, ...

    ``progress``, if given, is called every ``progress_every`` seconds with a dict:
    ``seconds``, ``nodes``, ``bounds`` (the proven window), ``depth``, ``testing``.
    """
    if not isinstance(game, str):
        return search(
            game, position, progress=progress, progress_every=progress_every, **options
        )
    return _run(
        "solve",
        [game] + ([] if position is None else [str(position)]),
        options,
        progress,
        progress_every,
    )


def analyse(game: str, position: Optional[str] = None, **options: Any) -> Result:
    """The exact value of every legal move, as ``cutoff analyse GAME [POSITION] --json``:
    ``moves`` lists each move with its value. Options: ``tt_mb``, ``threads``, ``book``
    (``"builtin"`` for the Connect Four book), ``board``, ..."""
    return _run(
        "analyse",
        [game] + ([] if position is None else [str(position)]),
        options,
        None,
        1.0,
    )


def cfr(
    game: str,
    algo: Any = "cfr+",
    *,
    iterations: Optional[int] = None,
    progress: Optional[Progress] = None,
    **options: Any,
) -> Any:
    """Solves ``"kuhn"`` or ``"leduc"`` with CFR, as ``cutoff cfr GAME --json``.

    ``algo``: ``"cfr"``, ``"cfr+"`` (the default, as the command's), ``"lcfr"``, ``"dcfr"``
    or ``"mccfr-es"``, or a list of them to compare (then the result is a list). Give
    ``iterations`` (default 1000) or ``seconds``. The result, a :class:`CfrResult`, has
    ``strategy`` (the average strategy: one entry per information set, with its actions and
    probabilities; ``average_strategy`` is the same as a dict keyed by information set),
    ``exploitability``, ``nash_conv``, ``value`` and
    ``curve`` (the exploitability at each checkpoint, as ``[iterations, exploitability]``).
    ``progress``, if given, is called at each checkpoint with ``iterations`` and
    ``exploitability``.
    """
    if iterations is None and options.get("seconds") is None:
        iterations = 1000
    return _run(
        "cfr",
        [game],
        # --json: the checkpoints' lines are the command's to print, not the package's.
        dict(options, algo=algo, iterations=iterations, json=True),
        progress,
        1.0,
    )




def search(
    game: Any,
    position: Any = None,
    *,
    algo: str = "solve",
    depth: Optional[int] = None,
    tt_mb: int = 16,
    nodes: Optional[int] = None,
    time_ms: Optional[int] = None,
    trace: bool = False,
    progress: Optional[Progress] = None,
    progress_every: float = 1.0,
) -> Result:
    """Searches a game written in Python with the engine.

    ``game`` is any object with the course's formulation:

    - ``initial()``: the starting state;
    - ``to_move(s)``: 0 for the first player, 1 for the second;
    - ``moves(s)``: the legal moves (hashable), in the order to try them;
    - ``play(s, m)``: the state after ``m`` (a new object; ``s`` is kept as it is);
    - ``outcome(s)``: None while the game goes on, else its integer value from the side to
      move's view (negamax convention: -1 for the player to move having lost);
    - ``key(s)``: a hashable that identifies the state with its side to move (transpositions
      share it);

    and optionally ``evaluate(s)`` (an integer from the side to move, for depth limits),
    ``value_range()`` (``(lo, hi)``: the null-window solver bisects it; default the engine's
    whole range) and ``max_plies(s)`` (plies left at most; default 1000). ``max_plies`` is a
    promise: a search to the end (no ``depth``, or one of at least ``max_plies``) that meets a
    state at that cap without an outcome raises :class:`Error` naming the line (a game whose
    moves can cycle needs a move counter in the state, or an outcome on repetition).

    ``algo``: ``minimax``, ``negamax``, ``alphabeta``, ``alphabeta-hard``, ``veb``, ``ab``,
    ``pvs``, ``mtdf``, ``solve`` (the null-window solver: the default), or ``iterative``
    (iterative deepening with PVS, to ``depth`` or within ``nodes``/``time_ms``). ``pvs``,
    ``mtdf``, ``solve`` and ``iterative`` use a table of ``tt_mb`` MiB and move ordering (the
    table's move, killers, history). With ``trace=True`` the result's ``trace`` lists the
    search's events: ``("entered", ply, state, (alpha, beta))``, ``("settled", ply, state,
    value)`` and ``("pruned", ply, parent, (move, bound))``, windows from the side to move,
    None for an infinite bound.

    The result has ``value`` (from the root's side to move), ``exact``, ``bounds``,
    ``best_move``, ``pv``, ``nodes``, ``leaves``, ``cutoffs``, ``time_ms``, ``positions``
    (distinct states met) and ``stopped``. An exception raised by a method of the game stops
    the search and is raised again as it was; two different states with the same ``key(s)``
    raise :class:`Error`. ``progress`` is called as :func:`solve`'s.
    """
    fields = _cutoff.search(
        game,
        position,
        algo=algo,
        depth=depth,
        tt_mb=tt_mb,
        nodes=nodes,
        time_ms=time_ms,
        trace=trace,
        progress=progress,
        every=progress_every,
    )
    result = Result(fields)
    if fields.pop("interrupted"):
        raise Interrupted("interrupted", result)
    return result
