"""Any game without a look of its own: its engine's `render_text`, no spots (type moves)."""
from __future__ import annotations

from typing import Any

from peerboard import engines
from peerboard.client.tui.boards.canvas import BoardContext, Canvas, Drawing


class PlainBoard:
    def __init__(self, game_name: str):
        self.game = engines.get(game_name)

    def draw(self, ctx: BoardContext) -> Drawing:
        c = Canvas(ctx)
        for line in self.game.render_text(ctx.state, ctx.seat).splitlines():
            c.line(line)
        return c.drawing()

    def spots(self, state: Any, action: tuple) -> tuple[str, ...] | None:
        return None

    def describe(self, state: Any, spot: str, names: tuple[str, ...]) -> str:
        return ""

    def situation(self, state: Any, names: tuple[str, ...]) -> str:
        return ""

    def seat_detail(self, state: Any, seat: int) -> str:
        return ""
