"""The worker of :func:`cutoff.distribute`'s local backend, as the command's
``cutoff distribute-worker``: ``python -m cutoff.worker`` serves one driver over its standard
input and output, a message a line, keeping its table across the jobs it is given, until the
driver says stop or closes the pipe. The driver starts it with its own interpreter
(``sys.executable``), so it imports the package the driver imported; its standard error goes
to the run folder's ``logs/``.

Ctrl-C (a terminal sends it to the driver and its workers alike) and SIGTERM stop the running
search at once; the worker then exits, with the status 130 or 143 and without a traceback.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import Optional

from . import _cutoff


def _terminate(signum: int, frame: Optional[FrameType]) -> None:
    """SIGTERM: raised in the waiting thread, it stops the search as Ctrl-C does."""
    raise SystemExit(128 + signum)


def main() -> int:
    """Serves one driver; returns the exit status."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        _cutoff._distribute_worker()
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    return 0


if __name__ == "__main__":
    sys.exit(main())
