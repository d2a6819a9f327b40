"""Aton drawn as SVG: the scoring track, the four temples with their coloured squares
(yellow, black, blue, green and the golden bonus squares) and the counters on them, the
Kingdom of the Dead, and each seat's cartouches, hand (card backs where this view may not
see it), deck, discards and white exchange counter; the squares the last turn touched
ringed.

Red is seat 0 and blue seat 1, as in the game and on the terminal.
"""
from __future__ import annotations

from peerboard.client.picture import frame
from peerboard.client.picture.drawing import Drawing, el, text
from peerboard.client.picture.frame import FAINT, HIGHLIGHT, INK, PAPER, seat_colour
from peerboard.client.picture.scene import Scene
from peerboard.engines.aton import cards
from peerboard.engines.aton.state import ASSIGN, DRAW, EXCHANGE, PLACE, REMOVE, RETRIEVE, TURN_UP
from peerboard.engines.aton.temples import BLACK, BLUE, BONUS, BONUS_VALUE, COLOUR, GREEN, TEMPLES, YELLOW, temple_squares

WIDTH = 780.0
SQUARE = 40.0
GAP = 3.0
TEMPLE_W = 4 * SQUARE + 3 * GAP
TEMPLE_GAP = (WIDTH - 24 - 4 * TEMPLE_W) / 3
TRACK_TOP = frame.HEIGHT + 10
TEMPLES_TOP = TRACK_TOP + 92
KINGDOM_TOP = TEMPLES_TOP + 3 * SQUARE + 2 * GAP + 52
SEATS_TOP = KINGDOM_TOP + 62
HEIGHT = SEATS_TOP + 150
FILL = {YELLOW: "#f2cd3a", BLACK: "#3b3b3b", BLUE: "#3d7fd6", GREEN: "#4f9d46", BONUS: "#d7a425"}
SEAT_WORDS = ("red", "blue")
#: what each temple scores for the seat holding more counters in it
TEMPLE_WORDS = {1: "the difference", 2: "5 points", 3: "1 per own counter", 4: "3 per blue square"}
CARTOUCHES = ("points", "order", "temples", "counters")
_SQUARE_KINDS = ("remove", "place", "retrieve")


def _square_xy(sq: int) -> tuple[float, float]:
    t, n = sq // 12, sq % 12
    x = 12 + t * (TEMPLE_W + TEMPLE_GAP) + (n % 4) * (SQUARE + GAP)
    return x, TEMPLES_TOP + (n // 4) * (SQUARE + GAP)


def _counter(x: float, y: float, seat: int, r: float = 13) -> str:
    return el("circle", cx=x, cy=y, r=r, fill=seat_colour(seat), stroke="#fff", stroke_width=2.5)


def _square(board: tuple[int, ...], sq: int) -> str:
    x, y = _square_xy(sq)
    colour = COLOUR[sq]
    dark = colour in (BLACK, BLUE, GREEN)
    out = [el("rect", x=x, y=y, width=SQUARE, height=SQUARE, rx=4, fill=FILL[colour], stroke="#00000033")]
    if colour == BONUS:
        out.append(text(f"+{BONUS_VALUE[sq]}", x + SQUARE / 2, y + SQUARE / 2 + 6, 15, fill="#5a3d00",
                        font_weight="bold", text_anchor="middle"))
    out.append(text(f"{sq // 12 + 1}.{sq % 12 + 1}", x + 3, y + 10, 8, fill="#ffffffcc" if dark else "#00000099"))
    if board[sq] != -1:
        out.append(_counter(x + SQUARE / 2, y + SQUARE / 2 + 2, board[sq]))
    return el("g", "".join(out))


def _temples() -> str:
    out = []
    for t in TEMPLES:
        x = 12 + (t - 1) * (TEMPLE_W + TEMPLE_GAP)
        out.append(el("rect", x=x - 6, y=TEMPLES_TOP - 26, width=TEMPLE_W + 12, height=3 * SQUARE + 2 * GAP + 50,
                      rx=8, fill="#efe6cf", stroke="#b8a77a"))
        out.append(text(f"Temple {t}", x, TEMPLES_TOP - 9, 13, fill=INK, font_weight="bold"))
        out.append(text(TEMPLE_WORDS[t], x, TEMPLES_TOP + 3 * SQUARE + 2 * GAP + 16, 10, fill=FAINT))
    return el("g", "".join(out))


def _track(state) -> str:
    goal = state.win_points
    left, right = 28.0, WIDTH - 28
    step = (right - left) / goal
    out = [text(f"score track (first to {goal})", left, TRACK_TOP + 10, 10, fill=FAINT),
           el("rect", x=left, y=TRACK_TOP + 22, width=right - left, height=12, rx=6, fill="#e4dcc7")]
    for k in range(0, goal + 1, 5 if goal >= 20 else 1):
        out.append(text(k, left + k * step, TRACK_TOP + 50, 9, fill=FAINT, text_anchor="middle"))
    for s, seat in enumerate(state.seats):
        x = left + min(seat.score, goal) * step
        out.append(_counter(x, TRACK_TOP + 28 + (s * 2 - 1) * 3, s, 8))
    return el("g", "".join(out))


def _kingdom(state) -> str:
    dead = [0] * state.seats[0].dead + [1] * state.seats[1].dead
    out = [text("Kingdom of the Dead", 12, KINGDOM_TOP - 6, 13, fill=INK, font_weight="bold"),
           text("a scoring follows the round it reaches 8", 190, KINGDOM_TOP - 6, 10, fill=FAINT)]
    for k in range(8):
        x = 12 + k * 36
        out.append(el("rect", x=x, y=KINGDOM_TOP, width=32, height=32, rx=4, fill="#d9d2c3", stroke="#8d826a"))
        if k < len(dead):
            out.append(_counter(x + 16, KINGDOM_TOP + 16, dead[k], 11))
    if len(dead) > 8:
        out.append(text(f"+{len(dead) - 8}", 12 + 8 * 36 + 4, KINGDOM_TOP + 21, 13, fill=INK, font_weight="bold"))
    return el("g", "".join(out))


def _card(x: float, y: float, value: int | None, w: float = 24, h: float = 34) -> str:
    if value is None:  # a card this view may not see: its back
        return el("rect", x=x, y=y, width=w, height=h, rx=3, fill="#6b4f2a", stroke="#3d2b13")
    return (el("rect", x=x, y=y, width=w, height=h, rx=3, fill="#fffdf6", stroke="#6b4f2a", stroke_width=1.2)
            + text(value, x + w / 2, y + h / 2 + 6, 16, fill=INK, font_weight="bold", text_anchor="middle"))


def _seat(scene: Scene, s: int) -> list[str]:
    """A seat's panel, in parts that change apart (its box, its numbers, cartouches, hand)."""
    state, seat = scene.state, scene.state.seats[s]
    x0 = 12 + s * (WIDTH / 2)
    y = SEATS_TOP
    colour = seat_colour(s)
    box = [el("rect", x=x0 - 4, y=y - 4, width=WIDTH / 2 - 20, height=140, rx=8, fill="#fff", stroke=colour,
              stroke_width=2),
           _counter(x0 + 12, y + 14, s, 9),
           text(f"{scene.name(s)} ({SEAT_WORDS[s]})", x0 + 28, y + 19, 14, 30, fill=colour, font_weight="bold"),
           text("cartouches", x0 + 4, y + 60, 10, fill=FAINT), text("hand", x0 + 180, y + 60, 10, fill=FAINT)]
    box += [text(CARTOUCHES[k], x0 + 21 + k * 40, y + 112, 8, fill=FAINT, text_anchor="middle") for k in range(4)]
    white = "white counter: kept" if seat.exchange else "white counter: used"
    numbers = (text(f"{seat.score} points", x0 + WIDTH / 2 - 30, y + 19, 14, fill=INK, font_weight="bold",
                    text_anchor="end")
               + text(f"supply {seat.supply} · in the Kingdom {seat.dead} · deck {seat.deck_size} · {white}",
                      x0 + 4, y + 40, 10, fill=FAINT))
    out = []
    for k in range(4):
        value = seat.cartouches[k] if seat.cartouches else None
        cx = x0 + 4 + k * 40
        if value is None:
            out.append(el("rect", x=cx, y=y + 66, width=34, height=34, rx=4, fill="none", stroke="#b8a77a",
                          stroke_dasharray="3 2"))
        else:
            out.append(_card(cx + 5, y + 66, value))
    cartouches, out = "".join(out), []
    visible = seat.hand is not None and (scene.seat is None or scene.seat == s)
    hand = list(cards.listed(seat.hand)) if visible else [None] * seat.hand_size
    for k, value in enumerate(hand[:8]):
        out.append(_card(x0 + 180 + k * 27, y + 66, value))
    if not hand:
        out.append(text("-", x0 + 184, y + 88, 12, fill=FAINT))
    discards = " ".join(f"{n}×{v}" for v, n in zip((1, 2, 3, 4), seat.discards) if n) or "none"
    out.append(text(f"discards: {discards}", x0 + 180, y + 124, 10, fill=FAINT))
    return [el("g", "".join(box)), numbers, cartouches, "".join(out)]


def _last(scene: Scene) -> str:
    rings = []
    for action in scene.last:
        if action and action[0] in _SQUARE_KINDS and isinstance(action[1], int) and 0 <= action[1] < len(COLOUR):
            x, y = _square_xy(action[1])
            rings.append(el("rect", x=x - 2, y=y - 2, width=SQUARE + 4, height=SQUARE + 4, rx=6, fill="none",
                            stroke=HIGHLIGHT, stroke_width=3.5))
    return el("g", "".join(rings)) if rings else ""


def _doing(state) -> str:
    opened = state.seats[state.actor].cartouches
    if state.phase == DRAW:
        return "draws a card"
    if state.phase == EXCHANGE:
        return "keeps the hand or exchanges it"
    if state.phase == ASSIGN:
        return "puts four cards on the cartouches (secret)"
    if state.phase == TURN_UP:
        return "turns up a card to break the tie"
    if state.phase == REMOVE and opened:
        return f"removes {state.owed} more counter{'s' if state.owed != 1 else ''} (temples 1-{opened[2]})"
    if state.phase == PLACE and opened:
        return f"places {state.owed} more counter{'s' if state.owed != 1 else ''} (temples 1-{opened[2]})"
    if state.phase == RETRIEVE:
        return f"takes {state.owed} more own counter{'s' if state.owed != 1 else ''} back"
    return ""


def draw(scene: Scene) -> Drawing:
    state = scene.state
    doing = _doing(state)
    if scene.chance:  # a draw or a tie-break card: whose deck it comes from
        doing = f"{scene.name(state.actor)} (seat {state.actor}) {doing}"
    d = Drawing(WIDTH, HEIGHT, title=f"Aton: {frame.turn_words(scene, doing)}")
    d.add(el("rect", x=0, y=frame.HEIGHT, width=WIDTH, height=HEIGHT - frame.HEIGHT, fill=PAPER))
    d.add(*frame.header(scene, WIDTH, f"Aton · round {state.round}", doing))
    d.add(_track(state), _temples())
    for t in TEMPLES:
        for sq in temple_squares(t):
            d.add(_square(state.board, sq))
    d.add(_kingdom(state), *_seat(scene, 0), *_seat(scene, 1), _last(scene))
    return d
