"""The replay viewer's win-probability graph: one seat's chance of winning across the
whole game (from the analysis file beside the log: the search's chance before each move,
spec/analysis.md), drawn with block characters one column per stretch of entries, the
current entry's column marked, the columns of that seat's mistakes and blunders (moves the
search is sure lost 10 or 25 points of its chance) in the alert colours.

`Track` is the data (per entry: each seat's chance, the mark and the preferred move);
`fragments` draws it for prompt-toolkit. It never decides anything about the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from peerboard.client.text import printable

BLOCKS = " ▁▂▃▄▅▆▇█"
#: a move-list mark per kind of error, in the chess way (a close call: "dubious")
SIGNS = {"mistake": "?", "blunder": "??", "close": "?!"}
#: how the line over the graph says each mark
WORDS = {"mistake": " mistake", "blunder": " blunder", "close": " (close: maybe a mistake, not sure)"}


@dataclass(frozen=True)
class Step:
    """The judgement of the entry that led to one position."""

    seat: int
    played: str
    preferred: str
    before: float
    after: float
    mark: str


class Track:
    def __init__(self, doc: dict[str, Any], entries: int):
        """`entries`: the positions the viewer steps through (entry 0, the genesis, to the last)."""
        seats = len(doc["seats"])
        self.seats = seats
        self.chances: list[list[float]] = []
        self.steps: dict[int, Step] = {}
        known = {}
        for m in doc["moves"]:
            # an entry of several actions: its first action's before, its last one's after
            seq = m["seq"]
            if seq not in known:
                known[seq] = [m, m]
            else:
                known[seq][1] = m
                if m["drop"] > known[seq][0]["drop"]:
                    known[seq][0] = dict(known[seq][0], mark=m["mark"], played=m["played"],
                                         preferred=m["preferred"], drop=m["drop"])
        now = [1.0 / seats] * seats
        for k in range(entries):
            # position k: after entry k as its judgement says, else before entry k + 1
            if k in known:
                first, last = known[k]
                now = [float(v) for v in last["after"]]
                self.steps[k] = Step(first["seat"], first["played"], first["preferred"],
                                     float(first["before"][first["seat"]]), now[first["seat"]], first["mark"])
            elif k + 1 in known:
                now = [float(v) for v in known[k + 1][0]["before"]]
            self.chances.append(now)

    def sign(self, seq: int) -> str:
        step = self.steps.get(seq)
        return "" if step is None else SIGNS.get(step.mark, "")

    def line(self, seq: int, names: list[str]) -> str:
        """What the analysis says of the entry that led to position `seq`."""
        step = self.steps.get(seq)
        if step is None:
            return "not judged (a forced or a non-move entry)"
        mark = WORDS.get(step.mark, "")
        # (the file is nobody's signed word: its text is escaped like a name)
        played, preferred = printable(step.played, 60), printable(step.preferred, 60)
        better = "; the preferred move" if step.preferred == step.played else f"; better {preferred}"
        return (f"seq {seq} seat {step.seat} {names[step.seat]}: {played}{mark}, "
                f"{100 * step.before:.0f}% -> {100 * step.after:.0f}%{better}")


def fragments(track: Track, seat: int, current: int, width: int, rows: int) -> list[tuple[str, str]]:
    """`seat`'s chance, entries 0..last across `width` columns and `rows` rows."""
    n = len(track.chances)
    width = max(1, width)
    columns = []
    for x in range(width):
        lo = x * n // width
        hi = max(lo + 1, (x + 1) * n // width)
        span = range(lo, min(hi, n))
        value = sum(track.chances[k][seat] for k in span) / max(1, len(span))
        marks = {track.steps[k].mark for k in span if k in track.steps and track.steps[k].seat == seat}
        style = "class:status.error" if "blunder" in marks else "class:status.warn" if "mistake" in marks else ""
        if current in span:
            style = "class:cursor"
        columns.append((value, style))
    out: list[tuple[str, str]] = []
    for r in range(rows):
        floor = (rows - 1 - r) * 8
        for value, style in columns:
            fill = max(0, min(8, round(value * rows * 8) - floor))
            out.append((style, BLOCKS[fill] if fill or style != "class:cursor" else "│"))
        if r < rows - 1:
            out.append(("", "\n"))
    return out
