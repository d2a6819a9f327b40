"""Another code's `peerboard`, for a bench that measures this tree and that code side by side
in one run (the machine's pace changes from minute to minute, so two runs cannot be
compared): `--against REV` takes a commit out of git (`git archive`) into a temporary
folder, `--against DIR` uses a checkout's top level as it is; either way the folder put
first on a child process's PYTHONPATH makes `import peerboard` that code.

    with against.code("main") as path:      # None: this tree
        run([sys.executable, script, ...], env=against.env(path))
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def code(where: str | None) -> Iterator[Path | None]:
    """A folder whose `peerboard` is the code at `where` (a directory holding a checkout's
    top level, or a git revision of this repository); None for None."""
    if not where:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="peerboard-against-") as tmp:
        holder = Path(tmp)
        if Path(where).is_dir():
            (holder / "peerboard").symlink_to(Path(where).resolve())
        else:
            package = holder / "peerboard"
            package.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", where], capture_output=True)
            if archive.returncode != 0:
                raise SystemExit(f"--against {where}: not a directory, and git cannot archive it: "
                                 f"{archive.stderr.decode(errors='replace').strip()}")
            subprocess.run(["tar", "-x", "-C", str(package)], input=archive.stdout, check=True)
        if not (holder / "peerboard" / "engines" / "__init__.py").is_file():
            raise SystemExit(f"--against {where}: no peerboard code there (no engines/__init__.py)")
        yield holder


def env(path: Path | None) -> dict[str, str]:
    """The environment of a child that imports the code at `path` (this tree's for None)."""
    out = dict(os.environ)
    if path is not None:
        out["PYTHONPATH"] = os.pathsep.join([str(path), *filter(None, [os.environ.get("PYTHONPATH")])])
    return out


def describe(where: str | None) -> str:
    """The revision or folder, with its commit when git knows it."""
    if not where:
        return "this tree"
    if Path(where).is_dir():
        return where
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", where], capture_output=True, text=True)
    return f"{where} ({found.stdout.strip()})" if found.returncode == 0 else where
