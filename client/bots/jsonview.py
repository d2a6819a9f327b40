"""A seat's view as JSON for bots in other languages (spec/bot-protocol.md, "Views").

Built from the view only (`game.view(state, seat)`), so it never holds what the seat may
not see. Aton and Asterix have named fields; any other game (Athos) gets its documented
`public_record` (spec/games/NAME.md) as nested arrays: a perfect-information game's
record is the whole position. Every view also carries `text`, the plain-text board
`game.render_text(view, seat)`."""
from __future__ import annotations

from typing import Any

from peerboard.engines import Game


def view_json(game: Game, view: Any, seat: int) -> dict:
    render = _RENDERERS.get(game.name, _record)
    out = render(game, view, seat)
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


def _record(game: Game, view: Any, seat: int) -> dict:
    return {"record": plain(game.public_record(view))}


def _aton(game: Game, view: Any, seat: int) -> dict:
    from peerboard.engines.aton.cards import listed

    seats = []
    for s in view.seats:
        seats.append({
            "score": s.score, "supply": s.supply, "dead": s.dead, "exchange": s.exchange,
            # the cards in hand, ascending; null where this seat cannot see them
            "hand": None if s.hand is None else list(listed(s.hand)),
            "hand_size": s.hand_size, "deck_size": s.deck_size,
            "unseen": list(s.unseen), "discards": list(s.discards),
            "cartouches": None if s.cartouches is None else list(s.cartouches),
        })
    return {
        "win_points": view.win_points, "first_round_removal": view.first_round_removal,
        "round": view.round, "phase": view.phase, "actor": view.actor, "order": list(view.order),
        "owed": view.owed, "board": list(view.board), "seats": seats,
        "winners": list(view.winners),
    }


def _asterix(game: Game, view: Any, seat: int) -> dict:
    from peerboard.engines.asterix.board import BIT, KIND_LETTERS, SQUARE_NAMES, VILLAGE

    def letter(i: int) -> str:
        if BIT[i] & VILLAGE:
            return "#"
        for kind, mask in enumerate(view.tiles):
            if mask & BIT[i]:
                return KIND_LETTERS[kind]
        return "."

    def pile(p: tuple) -> dict:
        return {"boar": p[0], "cohort": p[1], "menhir": p[2], "mistletoe": p[3]}

    return {
        "players": view.players, "carry_rule": view.carry_rule, "max_rounds": view.max_rounds,
        "phase": view.phase, "turn": view.actor, "first": view.first, "round": view.round,
        # 64 letters, a1 b1 ... h1 a2 ... h8: B boar, C cohort, M menhir, G mistletoe, L lake,
        # . empty, # village (squares not laid yet are "." too)
        "board": "".join(letter(i) for i in range(64)),
        "pawns": [SQUARE_NAMES[p] if p >= 0 else None for p in view.pawns],
        "potions": list(view.potions),
        "carried": [pile(p) for p in view.carried],
        "piles": [pile(p) for p in view.piles],
        "dice": list(view.dice),
    }


_RENDERERS = {"aton": _aton, "asterix": _asterix}
