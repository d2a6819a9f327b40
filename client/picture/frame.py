"""What every picture has above its board: the game, whose turn it is (or who won), each
seat's colour, name and score, and the last move in the notation.

The seat colours are the terminal palette's (client/palette.py SEATS: red, blue, magenta,
cyan, ...) as colours for paper, so a seat looks alike on the screen and in a picture.
"""
from __future__ import annotations

from peerboard.client.picture.drawing import el, text
from peerboard.client.picture.scene import Scene

SEAT_COLOURS = ("#d0312d", "#1f5fbf", "#9b3fb5", "#11869a", "#c99a06", "#2e8b3a", "#e8622c", "#5b6bd6")
INK = "#222"
FAINT = "#666"
PAPER = "#fbf8f1"
HIGHLIGHT = "#ffb000"
#: the height of the header
HEIGHT = 78


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def turn_words(scene: Scene, doing: str = "") -> str:
    """'Ann (seat 1) moves, 4 points left' (`doing` says what the seat does, else "to act"),
    'Game over: Ann (seat 1) won', or what chance does."""
    game, state = scene.game, scene.state
    if scene.over:
        won = game.winners(state)
        if not won:
            return "Game over: a draw (nobody won)"
        who = " and ".join(f"{scene.name(s)} (seat {s})" for s in won)
        return f"Game over: {who} {'share the win' if len(won) > 1 else 'won'}"
    if scene.chance:
        return f"Chance: {doing}" if doing else "Chance acts next"
    actor = scene.current
    return f"{scene.name(actor)} (seat {actor}) {doing or 'to act'}"


def header(scene: Scene, width: float, title: str, doing: str = "") -> list[str]:
    """The header's parts: the title and turn on the first line, a chip per seat (its
    colour, name, score; a ring round the seat to act; "you" under the viewer's) on the
    second, the last move on the third."""
    game, state = scene.game, scene.state
    parts = [el("rect", x=0, y=0, width=width, height=HEIGHT, fill=PAPER)]
    parts.append(text(title, 12, 22, 16, font_weight="bold", fill=INK)
                 + text(turn_words(scene, doing), width - 12, 22, 14, 90, fill=INK, text_anchor="end"))
    scores = game.scores(state)
    won = set(game.winners(state)) if scene.over else set()
    actor = scene.current
    chip = min(190.0, (width - 24) / max(1, len(scores)))
    for s, score in enumerate(scores):
        chips = []
        x = 12 + s * chip
        colour = seat_colour(s)
        if s == actor:
            chips.append(el("circle", cx=x + 9, cy=42, r=10, fill="none", stroke=HIGHLIGHT, stroke_width=3))
        chips.append(el("circle", cx=x + 9, cy=42, r=7, fill=colour, stroke="#fff", stroke_width=1.5))
        mark = " ★" if s in won else ""
        you = " (you)" if s == scene.seat else ""
        limit = max(6, int(chip / 8) - 6)
        chips.append(text(f"{scene.name(s)}{you}", x + 22, 47, 13, limit, fill=colour, font_weight="bold"))
        chips.append(text(f"{score}{mark}", x + chip - 10, 47, 13, fill=INK, text_anchor="end", font_weight="bold"))
        parts.append(el("g", "".join(chips)))  # a part per seat: one seat's score changes alone
    words = scene.last_words()
    if words:
        parts.append(text(f"last: {words}", 12, 68, 12, 110, fill=FAINT))
    return parts
