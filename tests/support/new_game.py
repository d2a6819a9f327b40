"""Pig, the fourth game of tests/support/newgame/, registered for one test as a newcomer's
one line in `engines/registry.py` would register it (spec/engine-contract.md, "How an
engine is written"): its folder on `peerboard.engines.__path__`, its line in `_MODULES`,
both taken back after the test (pytest's `monkeypatch`).

`python tests/support/new_game.py` writes Pig's board snapshots (tests/support/snapshots/
pig-*) and its perft counts (tests/engines/perft/pig.json), as a newcomer writes a new
game's after registering it.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NEWGAME = HERE / "newgame"
#: Pig's spec, written as `spec/games/pig.md` would be
SPEC = NEWGAME


def register(monkeypatch: Any) -> Any:
    """Register Pig for the test `monkeypatch` belongs to; its engine."""
    import peerboard.engines as package
    from peerboard import engines
    from peerboard.engines import registry

    monkeypatch.setattr(package, "__path__", [*package.__path__, str(NEWGAME)])
    monkeypatch.setitem(registry._MODULES, "pig", "peerboard.engines.pig")  # the registration line
    monkeypatch.setattr(registry, "_loaded", {})
    return engines.get("pig")


def forget() -> None:
    """Drop Pig's modules once the test is over: no later test meets a game the registry no
    longer names."""
    for name in [m for m in sys.modules if m == "peerboard.engines.pig" or m.startswith("peerboard.engines.pig.")]:
        del sys.modules[name]


def main() -> None:
    import pytest

    sys.path.insert(0, str(HERE.parent))  # run as a script: `support` is found from tests/
    from support import perft, snapshots

    with pytest.MonkeyPatch.context() as monkeypatch:
        register(monkeypatch)
        snapshots.write([name for name, (game, _, _) in snapshots.cases().items() if game == "pig"])
        perft.write("pig")
    forget()


if __name__ == "__main__":
    main()
