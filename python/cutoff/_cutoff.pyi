"""Type stubs of the extension module cutoff._cutoff (python/src/). The package cutoff
re-exports every name here; use it from there. Defaults written `...` are Rust values the
runtime signature cannot show: the docstrings give them (tt_mb=64, seed=1, ...)."""

import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from typing_extensions import final

__all__ = [
    "solve",
    "analyse",
    "cfr",
    "search",
    "Solver",
    "SolveResult",
    "TableFileReport",
    "Profile",
    "ProfileRow",
    "ChanceResult",
    "AnalyseResult",
    "MoveScore",
    "CfrResult",
    "InfosetStrategy",
    "SearchResult",
    "distribute",
    "DistributeResult",
    "Error",
    "__version__",
]

__version__: str

#: A position of a built-in game: its text (str or ASCII bytes), or for connect4 the columns
#: played (1-based).
_Position = Union[str, bytes, Sequence[int], None]
#: A progress callback: called with a dict of the search's figures.
_Progress = Callable[[Dict[str, Any]], Any]

class Error(ValueError):
    """What the engine or the command refused, with its one-line message."""

@final
class SolveResult:
    """The report of solve on a two-player game: the command's --json fields."""

    @property
    def game(self) -> str: ...
    @property
    def board(self) -> Optional[str]: ...
    @property
    def algo(self) -> str: ...
    @property
    def value(self) -> Optional[int]: ...
    @property
    def exact(self) -> bool: ...
    @property
    def explained(self) -> Optional[str]: ...
    @property
    def bounds(self) -> Optional[Tuple[int, int]]: ...
    @property
    def best_move(self) -> Optional[str]: ...
    @property
    def pv(self) -> List[str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def forced(self) -> int: ...
    @property
    def searched(self) -> Optional[int]: ...
    @property
    def leaves(self) -> int: ...
    @property
    def cutoffs(self) -> int: ...
    @property
    def first_move_cutoff_rate(self) -> float: ...
    @property
    def max_ply(self) -> int: ...
    @property
    def depth(self) -> Optional[int]: ...
    @property
    def depth_reached(self) -> Optional[int]: ...
    @property
    def time_ms(self) -> float: ...
    @property
    def threads(self) -> int: ...
    @property
    def parallel(self) -> Optional[str]: ...
    @property
    def nodes_per_thread(self) -> Optional[List[int]]: ...
    @property
    def weak(self) -> bool: ...
    @property
    def stopped(self) -> Optional[str]: ...
    @property
    def table_file(self) -> Optional[TableFileReport]: ...
    @property
    def profile(self) -> Optional[Profile]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The report as the command's --json prints it."""

@final
class TableFileReport:
    """What table_file did in one solve."""

    @property
    def loaded(self) -> int: ...
    @property
    def torn(self) -> bool: ...
    @property
    def written(self) -> int: ...
    @property
    def dropped(self) -> int: ...
    def to_dict(self) -> Dict[str, Any]:
        """The figures as the command's --json writes them."""

@final
class ProfileRow:
    """One ply's row of a profile, or the total's (ply None): how its nodes ended."""

    @property
    def ply(self) -> Optional[int]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def analysis(self) -> int: ...
    @property
    def bounds(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def enhanced_cutoffs(self) -> int: ...
    @property
    def searched(self) -> int: ...
    @property
    def cut_nodes(self) -> int: ...
    @property
    def first_move_cut_rate(self) -> float: ...
    @property
    def moves_per_cut(self) -> float: ...
    @property
    def moves_per_other(self) -> float: ...
    @property
    def forced(self) -> int: ...
    @property
    def settled_by_parent(self) -> int: ...
    def to_dict(self) -> Dict[str, Any]:
        """The row as the command's --json writes it."""

@final
class Profile:
    """How the nodes of a search ended, ply by ply (plies) and in total (total)."""

    @property
    def plies(self) -> List[ProfileRow]: ...
    @property
    def total(self) -> ProfileRow: ...
    def to_dict(self) -> Dict[str, Any]:
        """The profile as the command's --json writes it."""

@final
class ChanceResult:
    """The report of solve on pig or chance trees: the command's --json fields."""

    @property
    def game(self) -> str: ...
    @property
    def position(self) -> str: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def value(self) -> Optional[float]: ...
    @property
    def values(self) -> Optional[List[float]]: ...
    @property
    def exact(self) -> bool: ...
    @property
    def depth_reached(self) -> int: ...
    @property
    def stopped(self) -> Optional[str]: ...
    @property
    def best_move(self) -> Optional[str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def inner_nodes(self) -> int: ...
    @property
    def table_mib(self) -> Optional[int]: ...
    @property
    def time_ms(self) -> float: ...
    @property
    def stats(self) -> Dict[str, int]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The report as the command's --json prints it."""

@final
class MoveScore:
    """One move of analyse's report: its value (exact, or with a budget where exact is False
    the best guess), the bounds proved for it (lo <= value <= hi) and the plies the guess
    looked ahead (depth: None where exact or where no depth finished)."""

    @property
    def move(self) -> str: ...
    @property
    def value(self) -> int: ...
    @property
    def explain(self) -> str: ...
    @property
    def exact(self) -> bool: ...
    @property
    def lo(self) -> int: ...
    @property
    def hi(self) -> int: ...
    @property
    def depth(self) -> Optional[int]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The entry as the command's --json writes it."""

@final
class AnalyseResult:
    """The report of analyse: every legal move with its value, exact unless a budget was
    given (budget, in words); the position's value, whether it is proved (exact) and its
    proven bounds (lo, hi)."""

    @property
    def game(self) -> str: ...
    @property
    def board(self) -> Optional[str]: ...
    @property
    def position(self) -> Optional[str]: ...
    @property
    def to_move(self) -> str: ...
    @property
    def terminal(self) -> bool: ...
    @property
    def value(self) -> int: ...
    @property
    def explain(self) -> str: ...
    @property
    def exact(self) -> bool: ...
    @property
    def lo(self) -> int: ...
    @property
    def hi(self) -> int: ...
    @property
    def best_move(self) -> Optional[str]: ...
    @property
    def moves(self) -> List[MoveScore]: ...
    @property
    def budget(self) -> Optional[str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def time_ms(self) -> float: ...
    def to_dict(self) -> Dict[str, Any]:
        """The report as the command's --json prints it."""

@final
class InfosetStrategy:
    """One information set's average strategy."""

    @property
    def infoset(self) -> str: ...
    @property
    def player(self) -> int: ...
    @property
    def actions(self) -> List[str]: ...
    @property
    def probabilities(self) -> List[float]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The entry as the command's --json writes it."""

@final
class CfrResult:
    """The report of one CFR run: the command's --json fields."""

    @property
    def game(self) -> str: ...
    @property
    def algo(self) -> str: ...
    @property
    def iterations(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def iterations_per_second(self) -> float: ...
    @property
    def value(self) -> float: ...
    @property
    def nash_conv(self) -> float: ...
    @property
    def exploitability(self) -> float: ...
    @property
    def curve(self) -> List[Tuple[int, float]]: ...
    @property
    def curve_seconds(self) -> List[float]: ...
    @property
    def strategy(self) -> List[InfosetStrategy]: ...
    @property
    def average_strategy(self) -> Dict[str, Dict[str, float]]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The report as the command's --json prints it."""

@final
class SearchResult:
    """The result of search on a game written in Python (moves are the game's objects)."""

    @property
    def value(self) -> Optional[int]: ...
    @property
    def exact(self) -> bool: ...
    @property
    def bounds(self) -> Tuple[int, int]: ...
    @property
    def best_move(self) -> Any: ...
    @property
    def pv(self) -> List[Any]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def leaves(self) -> int: ...
    @property
    def cutoffs(self) -> int: ...
    @property
    def forced(self) -> int: ...
    @property
    def searched(self) -> Optional[int]: ...
    @property
    def first_move_cutoff_rate(self) -> float: ...
    @property
    def max_ply(self) -> int: ...
    @property
    def time_ms(self) -> float: ...
    @property
    def stopped(self) -> Optional[str]: ...
    @property
    def trace(self) -> Optional[List[Tuple[str, int, Any, Any]]]: ...
    @property
    def trace_cut(self) -> bool: ...
    @property
    def algo(self) -> str: ...
    @property
    def positions(self) -> int: ...
    def to_dict(self) -> Dict[str, Any]:
        """The fields as a dict."""

@final
class DistributeResult:
    """The report of distribute: the command's --json fields."""

    @property
    def game(self) -> str: ...
    @property
    def value(self) -> int: ...
    @property
    def explained(self) -> str: ...
    @property
    def best_move(self) -> Optional[str]: ...
    @property
    def pv(self) -> List[str]: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def guess_nodes(self) -> int: ...
    @property
    def cancelled_nodes(self) -> int: ...
    @property
    def jobs(self) -> int: ...
    @property
    def cancelled(self) -> int: ...
    @property
    def splits(self) -> int: ...
    @property
    def resent(self) -> int: ...
    @property
    def moved(self) -> int: ...
    @property
    def speculative(self) -> int: ...
    @property
    def lost(self) -> int: ...
    @property
    def resumed(self) -> int: ...
    @property
    def shared_entries(self) -> int: ...
    @property
    def tests(self) -> int: ...
    @property
    def frontier(self) -> int: ...
    @property
    def tested(self) -> int: ...
    @property
    def solved(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def wall_seconds(self) -> float: ...
    @property
    def driver_seconds(self) -> float: ...
    @property
    def longest_job_seconds(self) -> float: ...
    @property
    def time_ms(self) -> float: ...
    @property
    def simulated_seconds(self) -> Optional[float]: ...
    @property
    def workers(self) -> int: ...
    @property
    def backend(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]:
        """The report as the command's --json prints it."""

def solve(
    game: Any,
    position: Any = None,
    *,
    algo: Optional[str] = None,
    depth: Optional[int] = None,
    weak: bool = False,
    tt_mb: int = ...,
    time_ms: Optional[int] = None,
    nodes: Optional[int] = None,
    threads: Optional[int] = None,
    parallel: str = "ybwc",
    board: Optional[str] = None,
    connect: Optional[int] = None,
    branching: Optional[int] = None,
    seed: int = ...,
    order: str = "random",
    root: str = "max",
    players: Optional[int] = None,
    win_score: Optional[int] = None,
    faces: Optional[int] = None,
    horizon: Optional[int] = None,
    piglet: bool = False,
    outcomes: Optional[int] = None,
    probs: Optional[str] = None,
    split_depth: Optional[int] = None,
    split_ply: Optional[int] = None,
    split_nodes: Optional[int] = None,
    split_after: Optional[int] = None,
    table_file: Union[str, os.PathLike[str], None] = None,
    table_file_nodes: int = ...,
    profile: bool = False,
    progress: Optional[_Progress] = None,
    progress_every: float = 1.0,
) -> Union[SolveResult, ChanceResult, SearchResult]:
    """Solves a position, as `cutoff solve GAME [POSITION] --json`: a SolveResult (pig and
    chance: a ChanceResult; a game written in Python: a SearchResult)."""

def analyse(
    game: str,
    position: _Position = None,
    *,
    tt_mb: int = ...,
    threads: Optional[int] = None,
    book: Optional[str] = None,
    time_ms: Optional[int] = None,
    nodes: Optional[int] = None,
    board: Optional[str] = None,
    connect: Optional[int] = None,
    branching: Optional[int] = None,
    depth: Optional[int] = None,
    seed: int = ...,
    order: str = "random",
    root: str = "max",
) -> AnalyseResult:
    """The value of every legal move, as `cutoff analyse GAME [POSITION] --json`: exact, or
    with a budget (time_ms, nodes: each at least 1) returned within it, each move with its
    proven bounds (lo, hi) and a best guess."""

def cfr(
    game: str,
    algo: Union[str, Sequence[str]] = ...,
    *,
    iterations: Optional[int] = None,
    seconds: Optional[float] = None,
    threads: Optional[int] = None,
    seed: Optional[int] = None,
    batch: Optional[int] = None,
    variance: Optional[str] = None,
    every: Optional[int] = None,
    save: Optional[str] = None,
    resume: Optional[str] = None,
    svg: Optional[str] = None,
    progress: Optional[_Progress] = None,
) -> Union[CfrResult, List[CfrResult]]:
    """Solves kuhn or leduc with CFR: a CfrResult, or a list of them for a list of algos."""

def search(
    game: Any,
    position: Any = None,
    *,
    algo: str = "solve",
    depth: Optional[int] = None,
    tt_mb: int = ...,
    nodes: Optional[int] = None,
    time_ms: Optional[int] = None,
    trace: bool = False,
    progress: Optional[_Progress] = None,
    progress_every: float = 1.0,
) -> SearchResult:
    """Searches a game written in Python with the engine."""

def distribute(
    game: str,
    position: _Position = None,
    *,
    dir: Union[str, os.PathLike[str]],
    workers: Optional[int] = None,
    depth: Optional[int] = None,
    backend: str = "local",
    guess_nodes: int = ...,
    tt_mb: int = ...,
    hard_nodes: int = ...,
    split_percent: int = ...,
    book: Optional[str] = None,
    job_nodes: Optional[int] = None,
    speculate: bool = True,
    latency_ms: float = 1.0,
    board: Optional[str] = None,
    connect: Optional[int] = None,
    root: str = "max",
) -> DistributeResult:
    """Proves a position on many workers, as `cutoff distribute GAME [POSITION] --dir DIR
    --json` (depth=2 on up to 8 workers, 3 on up to 32, else 4; guess_nodes=4096, tt_mb=16, hard_nodes=100000, split_percent=0)."""

def _distribute_worker() -> None:
    """Serves one driver of distribute's local backend over stdin and stdout."""

@final
class Solver:
    """A solver of one two-player game that keeps its transposition table across calls."""

    def __new__(
        cls,
        game: str,
        *,
        board: Optional[str] = None,
        connect: Optional[int] = None,
        tt_mb: int = ...,
        threads: Optional[int] = None,
        algo: Optional[str] = None,
        weak: bool = False,
        depth: Optional[int] = None,
        parallel: str = "ybwc",
        branching: Optional[int] = None,
        seed: int = ...,
        order: str = "random",
        root: str = "max",
    ) -> Solver: ...
    @property
    def game(self) -> str: ...
    @property
    def tt_mb(self) -> int: ...
    def solve(
        self,
        position: _Position = None,
        *,
        time_ms: Optional[int] = None,
        nodes: Optional[int] = None,
        progress: Optional[_Progress] = None,
        progress_every: float = 1.0,
    ) -> SolveResult:
        """Solves position on the kept table."""
    def analyse(
        self,
        position: _Position = None,
        *,
        book: Optional[str] = None,
        time_ms: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> AnalyseResult:
        """Every legal move's value at position, on the kept table: exact, or with a budget
        (time_ms, nodes) returned within it, each move with its proven bounds and a best
        guess."""
    def clear(self) -> None:
        """Empties the table."""
