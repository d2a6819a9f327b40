"""A plain-text picture of an Aton position, 80 columns wide."""
from __future__ import annotations

from engines.aton import cards
from engines.aton.state import ASSIGN, DRAW, EXCHANGE, OVER, PLACE, REMOVE, RETRIEVE, TURN_UP, State
from engines.aton.temples import BONUS, BONUS_VALUE, COLOUR, TEMPLES, temple_squares

SEAT_NAMES = ("red", "blue")
MARKS = ("R", "U")  # U for blUe: B is the blue square


def _cell(board: tuple[int, ...], sq: int) -> str:
    if board[sq] != -1:
        return f"[{MARKS[board[sq]]}]"
    colour = COLOUR[sq]
    return f"+{BONUS_VALUE[sq]} " if colour == BONUS else f" {colour.lower()} "


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
        return f"{who} removes {state.owed} more counter(s) from temples 1-{opened[2]}."
    if state.phase == PLACE:
        return f"{who} places {state.owed} more counter(s) in temples 1-{opened[2]}."
    if state.phase == RETRIEVE:
        return f"{who} takes {state.owed} more own counter(s) back after the scoring."
    return ""


def render_text(state: State, seat: int | None = None) -> str:
    lines = [f"Aton, round {state.round} (first to {state.win_points} points)", _status(state), ""]
    lines.append(f"{'':12}{'red (R)':>14}{'blue (U)':>14}")

    def row(label: str, values) -> None:
        lines.append(f"{label:12}" + "".join(f"{v:>14}" for v in values))

    ss = state.seats
    row("score", [s.score for s in ss])
    row("supply", [s.supply for s in ss])
    row("kingdom", [s.dead for s in ss])
    row("white", ["yes" if s.exchange else "used" for s in ss])
    hands = []
    for i, s in enumerate(ss):
        visible = s.hand is not None and (seat is None or seat == i)
        hands.append(" ".join(map(str, cards.listed(s.hand))) if visible and s.hand_size else
                     f"{s.hand_size} hidden" if s.hand_size else "-")
    row("hand", hands)
    row("deck", [s.deck_size for s in ss])
    row("discards 1-4", ["/".join(map(str, s.discards)) for s in ss])
    row("cartouches", [" ".join(map(str, s.cartouches)) if s.cartouches else "-" for s in ss])
    lines.append(f"Kingdom of the Dead: {ss[0].dead + ss[1].dead} counter(s); a scoring follows the round it reaches 8.")
    lines.append("")
    lines.append("   ".join(f"Temple {t:<9}" for t in TEMPLES))
    for r in range(3):
        parts = []
        for t in TEMPLES:
            squares = temple_squares(t)[4 * r : 4 * r + 4]
            parts.append("".join(_cell(state.board, sq) for sq in squares))
        lines.append("   ".join(parts))
    lines.append("")
    lines.append("Squares t.n: temple t, n = 1..12 row by row.  y k b g = yellow black blue green, +n bonus.")
    return "\n".join(lines)
