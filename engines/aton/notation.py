"""Aton's notation: one text form per action (spec/games/aton.md, "Notation").

    draw 3 | draw ?            keep | exchange 1 2 2 4      assign 4 1 3 2
    turn 2                     remove 2.7 | place 3.12 | retrieve 1.5

A temple square is "t.n": temple t (1..4), square n (1..12) counted row by row.
`decode` checks the shape of an action as the wire delivers it (engines/rulebook.py, step
1); in every engine it lives in notation.py.
"""
from __future__ import annotations

from itertools import product

from peerboard.engines.aton import cards
from peerboard.engines.aton.temples import NUM_SQUARES, SQUARES_PER_TEMPLE, square_name
from peerboard.engines.contract import Action, IllegalAction
from peerboard.engines.decoding import by_lookup
from peerboard.engines.rulebook import Decoded

_SQUARE_KINDS = ("remove", "place", "retrieve")


def format_action(action: Action) -> str:
    if not action:
        raise IllegalAction("An empty action is no Aton action.")
    kind = action[0]
    if kind in _SQUARE_KINDS:
        return f"{kind} {square_name(action[1])}"  # type: ignore[arg-type]  # (an engine's own action: an int)
    if kind == "draw" and action[1] is None:
        return "draw ?"
    return " ".join(str(x) for x in action)


def parse_square(word: str) -> int:
    temple, dot, n = word.partition(".")
    if not dot or not temple.isdigit() or not n.isdigit():
        raise IllegalAction(f"{word!r} is not a temple square; write temple.square, e.g. 2.7.")
    t, k = int(temple), int(n)
    if not (1 <= t <= 4 and 1 <= k <= SQUARES_PER_TEMPLE):
        raise IllegalAction(f"{word!r} is not a temple square: temples are 1-4, squares 1-12.")
    square = SQUARES_PER_TEMPLE * (t - 1) + k - 1
    assert 0 <= square < NUM_SQUARES
    return square


def _card(word: str) -> int:
    if word not in ("1", "2", "3", "4"):
        raise IllegalAction(f"{word!r} is not a card: cards are 1, 2, 3 and 4.")
    return int(word)


def parse_action(text: str) -> Action:
    """The action this text names (its shape only; legality is the rules' business)."""
    words = text.lower().split()
    if not words:
        raise IllegalAction("Empty move: type an action such as 'assign 4 1 3 2' or 'place 2.7'.")
    kind, args = words[0], words[1:]
    if kind in _SQUARE_KINDS:
        if len(args) != 1:
            raise IllegalAction(f"'{kind}' takes one temple square, e.g. '{kind} 2.7'.")
        return (kind, parse_square(args[0]))
    if kind == "keep":
        if args:
            raise IllegalAction("'keep' takes nothing after it.")
        return ("keep",)
    if kind in ("exchange", "assign"):
        if len(args) != 4:
            raise IllegalAction(f"'{kind}' takes four cards, e.g. '{kind} 4 1 3 2'.")
        return (kind, *(_card(w) for w in args))
    if kind == "draw" and args == ["?"]:
        return ("draw", None)
    if kind in ("draw", "turn"):
        if len(args) != 1:
            raise IllegalAction(f"'{kind}' takes one card.")
        return (kind, _card(args[0]))
    raise IllegalAction(
        f"Unknown action {kind!r}: Aton's actions are draw, keep, exchange, assign, turn, "
        "remove, place and retrieve."
    )


# -- the shape of an action -----------------------------------------------------------------

#: kind -> what its values are: "card" (1-4), "card?" (a card or None: a hidden draw),
#: "square" (0..47)
_SHAPES: dict[str, tuple[str, ...]] = {
    "draw": ("card?",),
    "keep": (),
    "exchange": ("card",) * 4,
    "assign": ("card",) * 4,
    "turn": ("card",),
    "remove": ("square",),
    "place": ("square",),
    "retrieve": ("square",),
}


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _decode(action: Action) -> Decoded:
    """(kind, values) of a well-formed action; IllegalAction saying what is malformed."""
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"{action!r} is not an Aton action.")
    kind = action[0]
    shape = _SHAPES.get(kind)
    if shape is None:
        raise IllegalAction(
            f"{kind!r} is not an Aton action; the actions are {', '.join(_SHAPES)}."
        )
    values = action[1:]
    if len(values) != len(shape):
        if shape and shape[0] == "square":
            raise IllegalAction(f"'{kind}' needs one temple square.")
        raise IllegalAction(f"'{kind}' takes exactly {len(shape)} value(s).")
    for v, what in zip(values, shape):
        if what == "square":
            if not _is_int(v) or not 0 <= v < NUM_SQUARES:  # type: ignore[operator]
                raise IllegalAction(f"'{kind}' needs one temple square.")
        elif not (v is None and what == "card?") and not (_is_int(v) and v in cards.VALUES):
            raise IllegalAction(f"{v!r} is not a card: cards are 1, 2, 3 and 4.")
    return kind, values


def _every_action() -> list[Action]:
    """Every well-formed action: few enough (under 700) to look up instead of checking."""
    actions: list[Action] = [("keep",), ("draw", None)]
    actions += [(kind, v) for kind in ("draw", "turn") for v in cards.VALUES]
    actions += [(kind, *four) for kind in ("exchange", "assign") for four in product(cards.VALUES, repeat=4)]
    actions += [(kind, sq) for kind in ("remove", "place", "retrieve") for sq in range(NUM_SQUARES)]
    return actions


#: (kind, values) of a well-formed action; IllegalAction saying what is malformed
decode = by_lookup(_decode, _every_action())
