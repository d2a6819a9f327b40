"""Each game's look on the terminal: `board_for(name)` gives the game's Board
(canvas.Board: draw, spots, describe, situation, seat_detail): its own from
client/games/NAME/board.py (`BOARD`) when it has one, else the plain board (plain.py),
its engine's styled picture in colour."""
from __future__ import annotations

from peerboard.client.games import piece
from peerboard.client.tui.boards.canvas import Board, BoardContext, Canvas, Drawing


def board_for(game_name: str) -> Board:
    """The board of a game by its registry name."""
    own = piece(game_name, "board")
    if own is not None:
        return own.BOARD
    from peerboard.client.tui.boards.plain import PlainBoard

    return PlainBoard(game_name)


__all__ = ["Board", "BoardContext", "Canvas", "Drawing", "board_for"]
