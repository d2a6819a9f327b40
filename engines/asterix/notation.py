"""The text form of every action (spec/games/asterix.md, "Notation").

    tile boar        layout: the tile laid on the next square (chance)
    d6 4             first-player roll (chance)
    village d4       put one's pawn on a village square
    roll 2 5         the 2d6 of a turn, low die first (chance)
    die 5            move the 5 first
    move c3          land on c3 with the die being moved
    skip             no die can be used / the second die has no landing
    pick / leave     pick up the tile landed on, or leave it
    steal menhir from seat 2   take one menhir from seat 2's pawn (or "leave" them be)
                     (the earlier `steal 2 menhir`, which read as "two menhirs", is still read)

Parsing is case-insensitive and ignores extra whitespace; it checks the form only.
Whether the action is legal here is the rules' business (game.parse_action asks them).
`decode` checks the shape of an action as the wire delivers it (engines/rulebook.py, step
1); in every engine it lives in notation.py.
"""
from __future__ import annotations

from peerboard.engines.contract import Action, IllegalAction
from peerboard.engines.rulebook import Decoded
from peerboard.engines.asterix.board import KIND_INDEX, KIND_NAMES, SQUARE_NAMES, square_index

_SQUARES = frozenset(SQUARE_NAMES)
_KINDS = frozenset(KIND_NAMES)
#: verb -> the kinds of its arguments: "n" a number, "sq" a square, "kind" a tile kind
FORMS: dict[str, tuple[str, ...]] = {
    "tile": ("kind",),
    "d6": ("n",),
    "village": ("sq",),
    "roll": ("n", "n"),
    "die": ("n",),
    "move": ("sq",),
    "skip": (),
    "pick": (),
    "leave": (),
    "steal": ("n", "kind"),
}
#: verb -> how its text is written, for the errors
USAGE = {
    "tile": "tile KIND (boar, cohort, menhir, mistletoe, lake or clearing)",
    "d6": "d6 N",
    "village": "village SQUARE (d4, e4, d5 or e5)",
    "roll": "roll N N",
    "die": "die N",
    "move": "move SQUARE (a1 to h8)",
    "skip": "skip",
    "pick": "pick",
    "leave": "leave",
    "steal": "steal KIND from seat SEAT",
}


#: the argument types of FORMS, checked on an action as the wire delivers it
_CHECKS = {
    # exact types: True == 1 and 1.0 == 1 would otherwise pass for a legal number
    "n": lambda x: type(x) is int,
    "sq": lambda x: type(x) is str and square_index(x) is not None,
    "kind": lambda x: type(x) is str and x in KIND_INDEX,
}


def decode(action: Action) -> Decoded:
    """(kind, arguments) of a well-formed action; IllegalAction saying what is wrong."""
    if type(action) is not tuple or not action or type(action[0]) is not str or action[0] not in FORMS:
        raise IllegalAction(
            f"{action!r} is not an Asterix action (a tuple of words and numbers such as "
            f"('move', 'c3')); the kinds are: {', '.join(FORMS)}."
        )
    shape = FORMS[action[0]]
    args = action[1:]
    if len(args) != len(shape) or not all(_CHECKS[t](x) for t, x in zip(shape, args)):
        raise IllegalAction(f"{action!r} is not an Asterix action: the form is '{USAGE[action[0]]}'.")
    return action[0], args


def format_action(action: Action) -> str:
    """The one text form of an action."""
    if not isinstance(action, tuple) or not action or action[0] not in FORMS:
        raise IllegalAction(f"{action!r} is not an Asterix action.")
    if len(action) != len(FORMS[action[0]]) + 1:
        raise IllegalAction(f"{action!r} is not an Asterix action: the form is '{USAGE[action[0]]}'.")
    if action[0] == "steal":  # (the thing first: "steal 2 menhir" read as two menhirs)
        return f"steal {action[2]} from seat {action[1]}"
    return " ".join(str(part) for part in action)


def parse_text(text: str) -> Action:
    """The action a text names, by form alone; IllegalAction saying what is wrong."""
    words = text.lower().split() if isinstance(text, str) else []
    if not words:
        raise IllegalAction("An empty text names no action; type one such as 'move c3' or 'pick'.")
    verb, args = words[0], words[1:]
    if verb == "steal" and len(args) == 4 and args[1:3] == ["from", "seat"]:
        args = [args[3], args[0]]  # (the seat, then the kind: the action's own order)
    form = FORMS.get(verb)
    if form is None:
        known = ", ".join(FORMS)
        raise IllegalAction(f"'{words[0]}' is not an Asterix action; the actions are: {known}.")
    if len(args) != len(form):
        raise IllegalAction(f"'{' '.join(words)}' has the wrong form; write '{USAGE[verb]}'.")
    values: list[str | int] = [verb]
    for arg, kind in zip(args, form):
        if kind == "n":
            if not (arg.isascii() and arg.isdigit()) or len(arg) > 3:
                raise IllegalAction(f"'{arg}' is not a number; write '{USAGE[verb]}'.")
            values.append(int(arg))
        elif kind == "sq":
            if arg not in _SQUARES:
                raise IllegalAction(f"'{arg}' is not a square; squares are a1 to h8, a1 bottom left.")
            values.append(arg)
        else:
            if arg not in _KINDS:
                raise IllegalAction(f"'{arg}' is not a tile kind; the kinds are: {', '.join(KIND_NAMES)}.")
            values.append(arg)
    if verb == "roll":
        # The two dice are one unordered roll: its form lists the low die first.
        values[1:] = sorted(values[1:])
    return tuple(values)
