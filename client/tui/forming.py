"""The forming screen: a live table before its game starts, drawn where the board will be.

It shows the table (its game, id, seats, whether it is private), each seat as it is taken
or freed (name escaped, fingerprint, the address its node listens on when known), and
what the command said about joining it. Every taken seat but the host's own is a spot:
the host points at one (arrow keys, a click) and F5 (or `remove N`) takes it back.
"""
from __future__ import annotations

from peerboard.client.tui.boards.canvas import BoardContext, Canvas, Drawing
from peerboard.client.tui.source import Snapshot

SEAT = "seat:"  # a seat's spot: "seat:2"


def seat_of(spot: str | None) -> int | None:
    """The seat index a forming-screen spot points at, else None."""
    if spot is None or not spot.startswith(SEAT) or not spot[len(SEAT):].isdigit():
        return None
    return int(spot[len(SEAT):])


def draw_forming(snapshot: Snapshot, cursor: str | None, width: int) -> Drawing:
    """The table as it forms, its lines at most `width` columns (the notes wrap)."""
    forming = snapshot.forming
    canvas = Canvas(BoardContext(None, snapshot.local_seat, tuple(s.name for s in snapshot.seats), cursor))
    canvas.line(_cut(snapshot.status, width))
    canvas.newline()
    taken = {s.index: s for s in snapshot.seats}
    for index in range(max(forming.players, len(snapshot.seats))):
        seat = taken.get(index)
        if seat is None:
            canvas.line(f" seat {index}  (free)", "class:dim")
            continue
        who = "you" + (" (host)" if forming.hosting else "") if seat.connection == "you" else (
            "host" if index == 0 else "")
        text = f" seat {index}  {seat.name[:16]:<16} {seat.fingerprint}  {who}"
        spot = None if seat.connection == "you" or not forming.can_remove else f"{SEAT}{index}"
        canvas.put(_cut(text, width), f"class:seat{index}", spot)
        canvas.newline()
        if seat.address:
            canvas.line(_cut(f"         {seat.address}", width), "class:dim")
    if forming.notes:
        canvas.newline()
        for note in forming.notes:
            for line in wrap(note, width):
                canvas.line(line, "class:dim")
    if forming.can_remove and len(snapshot.seats) > 1:
        canvas.newline()
        for line in wrap("To take a seat back: F4, arrows to the seat, F5 (or type: remove N).", width):
            canvas.line(line)
    return canvas.drawing()


def heading(snapshot: Snapshot) -> str:
    """The forming screen's top line: the game, the table, its seats, open or private."""
    forming = snapshot.forming
    kind = "private table (joiners give its code)" if forming.private else "open table"
    players = f"{forming.players} seats" if forming.players else "seats not known yet"
    return f"{snapshot.game.title} · table {forming.table_id[:8]} · {players} · {kind}"


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns, broken at spaces (a longer word, such as
    a key in hex, is cut into pieces)."""
    width = max(width, 8)
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines or [""]


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"
