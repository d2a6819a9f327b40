"""Each game's look on the terminal: `board_for(name)` gives the game's Board
(canvas.Board: draw, spots, describe, situation, seat_detail)."""
from __future__ import annotations

from peerboard.client.tui.boards.canvas import Board, BoardContext, Canvas, Drawing


def board_for(game_name: str) -> Board:
    """The board of a game by its registry name; a game without a look of its own is
    drawn by its engine's plain text (PlainBoard)."""
    if game_name == "aton":
        from peerboard.client.tui.boards.aton import BOARD
    elif game_name == "asterix":
        from peerboard.client.tui.boards.asterix import BOARD
    elif game_name == "athos":
        from peerboard.client.tui.boards.athos import BOARD
    else:
        from peerboard.client.tui.boards.plain import PlainBoard

        return PlainBoard(game_name)
    return BOARD


__all__ = ["Board", "BoardContext", "Canvas", "Drawing", "board_for"]
