"""A saved game as one HTML page: `peerboard replay FILE --html OUT.html`.

The page holds everything it shows: the picture of every position (each distinct part of
the pictures once, client/page/pool.py), in every seat's view where the game hides things
from the seats, the move list, the players and the result, and, when the log's analysis
file sits beside it, the win-probability graph and each marked move with the better one.
Its script and style are inline and allowed by hash; its Content-Security-Policy allows
nothing else, so opening it from disk makes no request of any kind.

The game is read as the replay viewer reads it (client/tui/replay.py `ReplaySource`).
"""
from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from html import escape
from typing import Any

from peerboard.client.page import graph as graphs
from peerboard.client.page.pool import KEYFRAME, Pool, code
from peerboard.client.page.script import SCRIPT, STYLE
from peerboard.client.picture import draw
from peerboard.client.picture.frame import SEAT_COLOURS, seat_colour
from peerboard.client.tui.replay import ReplaySource


@dataclass(frozen=True)
class Page:
    html: str
    positions: int
    views: int
    parts: int


def _hides(source: ReplaySource) -> bool:
    """Whether some seat's view of some position differs from the whole position."""
    game = source.game
    return any(game.view(state, seat) != state for state in source.states for seat in range(len(source.seats)))


def last_actions(source: ReplaySource, k: int) -> tuple[list[tuple], Any]:
    """The actions of the entry that led to position k, and the state they were taken in."""
    entries = source.contents.entries
    if k == 0 or k > len(entries) or entries[k - 1].kind != "move":
        return [], None
    return [tuple(a) for a in entries[k - 1].body["actions"]], source.states[k - 1]


def _result(source: ReplaySource, names: list[str]) -> str:
    """How the game ended: by its rules (who won), otherwise (a resignation, a claim ...),
    or not yet, where the log stops."""
    game, state = source.game, source.states[-1]
    who = lambda seats: " and ".join(f"{names[s]} (seat {s})" for s in seats)  # noqa: E731
    if game.is_terminal(state):
        won = game.winners(state)
        scores = ", ".join(f"{names[s]} {v}" for s, v in enumerate(game.scores(state)))
        if not won:
            return f"Game over: a draw; scores: {scores}."
        return f"Game over: {who(won)} {'share the win' if len(won) > 1 else 'won'}; scores: {scores}."
    if source.endings[-1]:
        return f"Game over: {source.endings[-1]}."
    return f"Not finished: the log ends after entry {source.last}."


def build(source: ReplaySource, view_as: int | None = None) -> Page:
    game = source.game
    names = [name for name, _ in source.seats]
    seats = [None] + (list(range(len(names))) if _hides(source) else [])
    pool = Pool()
    positions = []
    track = source.analysis
    previous: list[list[int] | None] = [None] * len(seats)
    for k, state in enumerate(source.states):
        last, before = last_actions(source, k)
        pictures = []
        for v, seat in enumerate(seats):
            numbers = pool.numbers(draw(game, state, seat, last=last, names=names, before=before))
            pictures.append(code(numbers, previous[v], k % KEYFRAME == 0))
            previous[v] = numbers
        source.index = k
        status = source.snapshot().status
        note = track.line(k, names) if track is not None and k in track.steps else None
        positions.append({"pictures": pictures, "status": status, "note": note})
    source.index = 0
    moves = []
    for k, line in enumerate(source.lines, 1):
        step = track.steps.get(line.seq) if track is not None else None
        mark = step.mark if step is not None and step.mark in graphs.MARKS else ""
        text = line.text
        sign = track.sign(line.seq) if track is not None else ""
        if sign and text.endswith(" " + sign):  # the viewer's move list carries the sign; the page styles it
            text = text[: -len(sign) - 1]
        who = names[line.seat] if 0 <= line.seat < len(names) else "-"
        moves.append({"at": k, "seat": line.seat, "who": who, "text": text, "mark": mark, "sign": sign})
    start = seats.index(view_as) if view_as in seats else 0
    data = {"parts": pool.parts, "positions": positions, "moves": moves, "view": start, "start": 0,
            "graph": {"width": graphs.WIDTH, "left": graphs.LEFT, "right": graphs.WIDTH - graphs.RIGHT}}
    html = _html(source, data, seats, names, _result(source, names))
    return Page(html, len(positions), len(seats), len(pool.parts))


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _json(data: dict) -> str:
    # inside <script>: no "<" at all, so nothing in a name can close the element
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _html(source: ReplaySource, data: dict, seats: list, names: list[str], result: str) -> str:
    game = source.game
    style = STYLE + "".join(f".s{i} {{ color: {c}; }}\n" for i, c in enumerate(SEAT_COLOURS))
    policy = (f"default-src 'none'; script-src {_sha256(SCRIPT)}; style-src {_sha256(style)}; img-src data:; "
              "base-uri 'none'; form-action 'none'")
    players = " · ".join(
        f'<span class="seat s{i % len(SEAT_COLOURS)}">{escape(name)}</span> (seat {i}, {escape(fp)})'
        for i, (name, fp) in enumerate(source.seats))
    views = ""
    if len(seats) > 1:
        on = ' class="on"'
        buttons = "".join(
            f'<button data-view="{v}"{on if v == data["view"] else ""}>'
            f'{"everything" if seat is None else "as " + escape(names[seat])}</button>'
            for v, seat in enumerate(seats))
        views = f'<span class="views">views: {buttons}</span>'
    analysis = ""
    if source.analysis is not None:
        drawn = graphs.graph(source.analysis, names).replace("<svg ", '<svg id="graph" ', 1)
        analysis = f'<section id="analysis"><h2>Analysis</h2>{drawn}</section>'
    elif source.analysis_note and "no analysis beside" not in source.analysis_note:
        analysis = f'<section id="analysis"><p>{escape(source.analysis_note)}</p></section>'
    title = f"{game.title}: {source.name}"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{style}</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p class="players">{players}</p>
<p class="result">{escape(result)}</p>
</header>
<main>
<section id="left">
<div id="board" role="img" aria-label="the board"></div>
<nav><button data-go="first" title="the first position (Home)">|◀</button><button data-go="back" title="back (←)">◀</button><span id="where"></span><button data-go="next" title="on (→)">▶</button><button data-go="last" title="the last position (End)">▶|</button>{views}</nav>
<p id="status"></p>
<p id="note"></p>
</section>
<aside><h2>Moves</h2><ol id="moves"></ol></aside>
</main>
{analysis}
<footer>Keys: ← → step, Home End the first and last position; click a move{" or the graph" if analysis else ""} to go there. Written by <code>peerboard replay --html</code>; it needs no network.</footer>
<script type="application/json" id="game">{_json(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
