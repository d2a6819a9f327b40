"""Aton's view as named JSON fields for program bots (spec/bot-protocol.md, "Views")."""
from __future__ import annotations

from typing import Any

from peerboard.engines import Game
from peerboard.engines.aton.cards import listed


def view_json(game: Game, view: Any, seat: int) -> dict:
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
