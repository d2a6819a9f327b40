"""Asterix's view as named JSON fields for program bots (spec/bot-protocol.md, "Views")."""
from __future__ import annotations

from typing import Any

from peerboard.engines import Game
from peerboard.engines.asterix.board import BIT, KIND_LETTERS, SQUARE_NAMES, VILLAGE


def view_json(game: Game, view: Any, seat: int) -> dict:
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
