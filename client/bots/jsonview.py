"""A seat's view as JSON for bots in other languages (spec/bot-protocol.md, "Views").

Built from the view only (`game.view(state, seat)`), so it never holds what the seat may
not see. A game with a `view.py` of its own (client/games/NAME/view.py: Aton, Asterix)
gives named fields; any other game gets its documented `public_record`
(spec/games/NAME.md) as nested arrays: a perfect-information game's record is the whole
position. Every view also carries `text`, the plain-text board
`game.render_text(view, seat)`."""
from __future__ import annotations

from typing import Any

from peerboard.client.games import piece
from peerboard.engines import Game


def view_json(game: Game, view: Any, seat: int, text: bool = True) -> dict:
    """The view's fields, and with `text` the board as text (drawing it costs more than
    the rest: a program that does not read it says so in its hello)."""
    own = piece(game.name, "view")
    out = own.view_json(game, view, seat) if own is not None else record_json(game, view, seat)
    if text:
        out["text"] = game.render_text(view, seat)
    return out


def plain(value: Any) -> Any:
    """Tuples as lists, bytes as hex: the record's values as JSON has them."""
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def record_json(game: Game, view: Any, seat: int) -> dict:
    """The fallback: the game's public record, as JSON has it."""
    return {"record": plain(game.public_record(view))}
