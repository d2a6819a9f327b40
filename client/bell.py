"""The terminal bell when it becomes your turn after the game waited on others: tmux and
most terminals flag the window, so a person doing something else comes back. Both clients
ring it (the full-screen one and the line prompt); `PEERBOARD_BELL=off` (or 0, no, false)
turns it off."""
from __future__ import annotations

import os
from typing import Mapping, Protocol, Sequence

SETTING = "PEERBOARD_BELL"
OFF = frozenset({"off", "0", "no", "false"})


class _Played(Protocol):
    seat: int


def bell_wanted(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(SETTING, "").strip().lower() not in OFF


def waited_on_others(moves: Sequence[_Played], seat: int) -> bool:
    """A decision of `seat` after these moves came after waiting on others: the last move a
    seat made (chance outcomes aside) is another seat's, or nobody has moved yet (the table
    waited for its seats). A decision right after the seat's own move (the next part of
    its turn, Aton's cartouches after its own exchange) rings nothing."""
    for move in reversed(moves):
        if move.seat >= 0:
            return move.seat != seat
    return True
