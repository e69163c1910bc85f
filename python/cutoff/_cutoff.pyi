"""Type stubs of the extension module cutoff._cutoff (python/src/lib.rs). Use the package's
functions (cutoff.solve, cutoff.analyse, cutoff.cfr, cutoff.search) rather than these."""

from typing import Any, Callable, Dict, List, Optional, Tuple

__version__: str

class Error(ValueError):
    """What the engine or the command refused, with its one-line message."""

def run(
    command: str,
    argv: List[str],
    progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
    every: float = 1.0,
) -> Tuple[str, Optional[str], Optional[str], Optional[str]]:
    """Runs the command's solve, analyse or cfr: (status, json, text, message)."""

def search(
    game: Any,
    position: Any = None,
    algo: str = "solve",
    depth: Optional[int] = None,
    tt_mb: int = 16,
    nodes: Optional[int] = None,
    time_ms: Optional[int] = None,
    trace: bool = False,
    progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
    every: float = 1.0,
) -> Dict[str, Any]:
    """Searches a game written in Python; the fields of cutoff.search's result."""
