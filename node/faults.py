"""Our own faults, reported one way: the traceback goes to an errors file, the screen gets
one line saying what failed and where its details are.

Three places catch a fault of ours — the node's loop (node/loop.py), the command line
(client/cli.py) and the terminal client's loop (client/tui/app.py) — and each reports it
through `keep`, so the files look alike and every line names its file the same way.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from peerboard.node.gamefiles import errors_path
from peerboard.protocol.session import InternalFault



@dataclass(frozen=True)
class Kept:
    """Where a fault's details went, or why they could not go there."""

    path: Path
    problem: str | None = None  # the system's reason the file could not be written

    @property
    def where(self) -> str:
        """The end of the one line on the screen."""
        if self.problem is None:
            return f"details in {self.path}"
        return f"the details could not be written to {self.path} ({self.problem})"


def details_of(exc: BaseException) -> str:
    """What the errors file keeps of an exception: its whole traceback."""
    return "".join(traceback.format_exception(exc))


#: the event for a fault of ours while doing something (the session's own are made the same way)
fault_of = InternalFault.of


def keep(heading: str, details: str, log_path: Path | None = None, directory: Path | None = None) -> Kept:
    """Append `heading` and `details` (a traceback) to the errors file: beside the game's log
    when there is one, else in `directory` (the games directory by default)."""
    path = errors_path(log_path, directory)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {heading}\n{details.rstrip()}\n\n")
    except OSError as exc:
        try:
            if path.stat().st_size == 0:
                path.unlink()  # (no empty file that promises details: a full disk leaves one)
        except OSError:
            pass
        return Kept(path, exc.strerror or str(exc))
    return Kept(path)
