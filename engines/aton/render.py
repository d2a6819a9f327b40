"""A picture of an Aton position, 80 columns wide, as styled fragments.

Styles (spec/engine-contract.md, "Styled boards"): `seat.0` (red: its counters and name),
`seat.1` (blue), `square.yellow`, `square.black`, `square.blue`, `square.green`,
`square.bonus` (an empty temple square), `title`, `label`, `legend`, `you`.
"""
from __future__ import annotations

from typing import Iterable

from peerboard.engines.aton import cards
from peerboard.engines.aton.state import ASSIGN, DRAW, EXCHANGE, OVER, PLACE, REMOVE, RETRIEVE, TURN_UP, State
from peerboard.engines.aton.temples import BLACK, BLUE, BONUS, BONUS_VALUE, COLOUR, GREEN, TEMPLES, YELLOW, temple_squares
from peerboard.engines.styled import Fragment, Styled

SEAT_NAMES = ("red", "blue")
MARKS = ("R", "U")  # U for blUe: B is the blue square


_SQUARE_STYLES = {YELLOW: "square.yellow", BLACK: "square.black", BLUE: "square.blue", GREEN: "square.green", BONUS: "square.bonus"}


def _cell(board: tuple[int, ...], sq: int) -> Fragment:
    if board[sq] != -1:
        return f"seat.{board[sq]}", f"[{MARKS[board[sq]]}]"
    colour = COLOUR[sq]
    text = f"+{BONUS_VALUE[sq]} " if colour == BONUS else f" {colour.lower()} "
    return _SQUARE_STYLES[colour], text


def _status(state: State) -> str:
    who = f"{SEAT_NAMES[state.actor]} (seat {state.actor})"
    if state.phase == OVER:
        won = " and ".join(SEAT_NAMES[w] for w in state.winners) or "nobody (a draw)"
        return f"Game over: {won} wins. {state.ending[0].upper()}{state.ending[1:]}."
    if state.phase == DRAW:
        return f"{who} draws a card."
    if state.phase == EXCHANGE:
        return f"{who} keeps the hand or exchanges it (white counter)."
    if state.phase == ASSIGN:
        return f"{who} puts four cards on the cartouches (secret)."
    if state.phase == TURN_UP:
        return f"Tie on cartouches 1 and 2: {who} turns up a card."
    opened = state.seats[state.actor].cartouches
    if state.phase == REMOVE:
        assert opened is not None  # (REMOVE and PLACE come after the cartouches are shown)
        return f"{who} removes {state.owed} more counter(s) from temples 1-{opened[2]}."
    if state.phase == PLACE:
        assert opened is not None
        return f"{who} places {state.owed} more counter(s) in temples 1-{opened[2]}."
    if state.phase == RETRIEVE:
        return f"{who} takes {state.owed} more own counter(s) back after the scoring."
    return ""


def render_styled(state: State, seat: int | None = None) -> list[Fragment]:
    out = Styled()
    out.line(f"Aton, round {state.round} (first to {state.win_points} points)", "title")
    out.line(_status(state)).line()
    out.pad_to(12)
    for i, name in enumerate(("red (R)", "blue (U)")):
        out.pad_to(12 + 14 * (i + 1) - len(name)).add(name, f"seat.{i}")
    out.line()

    def row(label: str, values: Iterable[object]) -> None:
        out.add(f"{label:12}", "label").line("".join(f"{v:>14}" for v in values))

    ss = state.seats
    row("score", [s.score for s in ss])
    row("supply", [s.supply for s in ss])
    row("kingdom", [s.dead for s in ss])
    row("white", ["yes" if s.exchange else "used" for s in ss])
    hands = []
    for i, s in enumerate(ss):
        visible = s.hand is not None and (seat is None or seat == i)
        hands.append(" ".join(map(str, cards.listed(s.hand))) if s.hand is not None and visible and s.hand_size else
                     f"{s.hand_size} hidden" if s.hand_size else "-")
    row("hand", hands)
    row("deck", [s.deck_size for s in ss])
    row("discards 1-4", ["/".join(map(str, s.discards)) for s in ss])
    row("cartouches", [" ".join(map(str, s.cartouches)) if s.cartouches else "-" for s in ss])
    if seat is not None:
        out.add("You play ").add(SEAT_NAMES[seat], f"seat.{seat}").line(".", "")
    out.line(f"Kingdom of the Dead: {ss[0].dead + ss[1].dead} counter(s); a scoring follows the round it reaches 8.")
    out.line()
    out.line("   ".join(f"Temple {t:<9}" for t in TEMPLES), "label")
    for r in range(3):
        for t in TEMPLES:
            if t > 1:
                out.add("   ")
            for sq in temple_squares(t)[4 * r : 4 * r + 4]:
                style, text = _cell(state.board, sq)
                out.add(text, style)
        out.line()
    out.line()
    out.line("Squares t.n: temple t, square n = 1..12 row by row.", "legend")
    out.line("y k b g: a yellow, black, blue, green square; +n: a bonus square.", "legend")
    return out.fragments()
