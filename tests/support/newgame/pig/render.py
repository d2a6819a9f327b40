"""The board: each seat's bank, the turn's total, whose turn. Common style names only."""
from __future__ import annotations

from peerboard.engines.pig.state import CHOOSE, OVER, State
from peerboard.engines.styled import Fragment, Styled


def render_styled(state: State, seat: int | None) -> list[Fragment]:
    out = Styled()
    out.line(f"Pig, first to {state.goal}", "title")
    out.add("seat  banked", "label").line()
    for i, banked in enumerate(state.banked):
        mark = ">" if state.turn == i and state.phase != OVER else " "
        out.add(f"{mark} ").add(f"{i}", f"seat.{i}").add(f"     {banked:>3}")
        if i == seat:
            out.add("  (you)", "you")
        out.line()
    if state.phase == OVER:
        out.line(f"seat {state.turn} won", "title")
    else:
        doing = "rolls again or holds" if state.phase == CHOOSE else "rolls the die"
        out.line(f"turn total {state.total}; seat {state.turn} {doing}")
    out.line("roll: roll the die again  hold: bank the turn total  a 1 loses it", "legend")
    return out.fragments()
