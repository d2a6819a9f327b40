"""The command that runs peerboard again from where the person stands, for the lines that
tell them how to come back ("resume it with: ...").

After `make play` the command is `.venv/bin/peerboard`, and `peerboard` alone is not on the
shell's PATH: a line saying `peerboard resume FILE` would not work. The words printed are
`peerboard` when that is what the shell finds, else the path this process was started by
(relative to the working directory when it lies below it), else `python -m`.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path


def command(argv0: str | None = None, cwd: str | None = None, found: str | None | bool = False) -> str:
    """How to run peerboard from this working directory (the arguments are for tests:
    the program's path, the working directory, what `shutil.which("peerboard")` finds)."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    cwd = os.getcwd() if cwd is None else cwd
    on_path = shutil.which("peerboard") if found is False else found
    started = Path(cwd, argv0).resolve() if argv0 and Path(argv0).name == "peerboard" else None
    if on_path and (started is None or Path(on_path).resolve() == started):
        return "peerboard"
    if started is not None and started.exists():
        try:
            shown = str(started.relative_to(Path(cwd).resolve()))
        except ValueError:
            shown = str(started)
        return shlex.quote(shown if "/" in shown else f"./{shown}")
    return f"{shlex.quote(sys.executable)} -m peerboard.client.cli"

