"""cutoff from Python: solve and analyse game positions, search games written in Python, CFR,
prove a position on many workers.

The engine runs in Rust, without the GIL; Ctrl-C stops a running search and raises
:class:`Interrupted`, which carries what the search had proved. The guide is
docs/guide/python.md in the repository.

>>> import cutoff
>>> r = cutoff.solve("connect4", "4453", threads=1)
>>> r.value, r.best_move
(-2, '6')

Every function takes explicit keywords (the command's options, ``tt_mb`` for ``--tt-mb``):
an unknown one or one of the wrong type is a ``TypeError``; a value out of range is
:class:`Error` naming the keyword. Results are typed (:class:`SolveResult`,
:class:`AnalyseResult`, :class:`CfrResult`, ...): attributes, ``to_dict()`` (the command's
``--json``) and ``str()`` (its text report). :class:`Solver` keeps its table across calls.
:func:`distribute` proves a position on worker processes (``python -m cutoff.worker``) or on
a simulated cluster, resumably from a folder.
"""

from __future__ import annotations

from typing import List, Optional, Union

from . import _cutoff
from ._cutoff import (
    AnalyseResult,
    CfrResult,
    ChanceResult,
    DistributeResult,
    Error,
    InfosetStrategy,
    MoveScore,
    Profile,
    ProfileRow,
    SearchResult,
    SolveResult,
    Solver,
    TableFileReport,
    analyse,
    cfr,
    distribute,
    search,
    solve,
)

__all__ = [
    "Error",
    "Interrupted",
    "solve",
    "analyse",
    "cfr",
    "search",
    "distribute",
    "Solver",
    "SolveResult",
    "ChanceResult",
    "TableFileReport",
    "Profile",
    "ProfileRow",
    "AnalyseResult",
    "MoveScore",
    "CfrResult",
    "InfosetStrategy",
    "SearchResult",
    "DistributeResult",
    "__version__",
]

__version__: str = _cutoff.__version__

#: What a search stopped by Ctrl-C had done, when there is a report of it.
Report = Union[SolveResult, ChanceResult, AnalyseResult, CfrResult, List[CfrResult], SearchResult]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search: ``result`` is the report of what it did (for an exact solve,
    ``result.bounds`` the bounds it proved), or None where there is none. A KeyboardInterrupt,
    so code that does not look for it stops as it would on Ctrl-C."""

    result: Optional[Report]

    def __init__(self, message: str, result: Optional[Report] = None) -> None:
        super().__init__(message)
        self.result = result
