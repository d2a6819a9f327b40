"""Any game without a look of its own: its engine's `render_styled`, each fragment in the
palette's colour for its style name (client/palette.py, the classes `board.NAME`), no
spots (moves are typed)."""
from __future__ import annotations

from typing import Any

from peerboard import engines
from peerboard.client.tui.boards.canvas import BoardContext, Canvas, Drawing


def board_class(style: str) -> str:
    """The screen's class for an engine's style name ("" stays plain)."""
    return f"class:board.{style}" if style else ""


class PlainBoard:
    def __init__(self, game_name: str):
        self.game = engines.get(game_name)

    def draw(self, ctx: BoardContext) -> Drawing:
        c = Canvas(ctx)
        for style, text in self.game.render_styled(ctx.state, ctx.seat):
            lines = text.split("\n")
            for i, line in enumerate(lines):
                if i:
                    c.newline()
                if line:
                    c.put(line, board_class(style))
        return c.drawing()

    def spots(self, state: Any, action: tuple) -> tuple[str, ...] | None:
        return None

    def describe(self, state: Any, spot: str, names: tuple[str, ...]) -> str:
        return ""

    def situation(self, state: Any, names: tuple[str, ...]) -> str:
        return ""

    def seat_detail(self, state: Any, seat: int) -> str:
        return ""
