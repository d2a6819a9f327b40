"""Athos notation: each action's one text form, and reading it back.

    a5-c6          ("go", "a5", "c6")         also  B-e7, k3-summit (a monk to a node)
    turn e5        ("turn", "e5")
    end move       ("end_move",)
    lift e5        ("lift", "e5")             the Athos piece: lift a tile ...
    drop g7        ("drop", "g7")             ... put it down on another hex ...
    fix g7         ("fix", "g7")              ... and fix a tile with the piece
    skip athos     ("skip_athos",)
    place e5       ("place", "e5")
    place e5 open  ("place_open", "e5")          (handicap only)
    end turn       ("end_turn",)

Reading is forgiving about case, spaces, `-`/`_` and an optional leading "go", "step" or
"move"; writing gives exactly the forms above. Hexes are lower case (`e5`), start areas
upper case (`B`), the summit is `summit`.
`decode` checks the shape of an action as the wire delivers it (engines/rulebook.py, step
1); in every engine it lives in notation.py.
"""
from __future__ import annotations

from typing import Any

from peerboard.engines.athos.board import HEX_COUNT, NODE_COUNT, NODE_NAMES, START_NAMES, SUMMIT_NAME
from peerboard.engines.contract import Action, IllegalAction
from peerboard.engines.decoding import by_lookup

NODE_INDEX = {name: i for i, name in enumerate(NODE_NAMES)}
_BARE: dict[Action, str] = {("end_move",): "end move", ("skip_athos",): "skip athos", ("end_turn",): "end turn"}
#: kind -> (number of node arguments, must they be hexes)
KINDS = {
    "go": (2, False),
    "turn": (1, True),
    "end_move": (0, False),
    "lift": (1, True),
    "drop": (1, True),
    "fix": (1, True),
    "skip_athos": (0, False),
    "place": (1, True),
    "place_open": (1, True),
    "end_turn": (0, False),
}
#: the kinds written as a word and one hex: "turn e5", "lift e5", ...
_HEX_WORDS = ("turn", "lift", "drop", "fix", "place")
EXAMPLES = "B-e7, a5-c6, turn e5, end move, lift e5, drop g7, fix g7, skip athos, place e5, end turn"


def _decode(action: Any) -> tuple[str, tuple[int, ...]]:
    """(kind, node numbers) of a well-formed action; IllegalAction saying what is malformed."""
    if not isinstance(action, tuple) or not action or action[0] not in KINDS:
        raise IllegalAction(
            f"{action!r} is no Athos action; an action is a tuple such as ('go', 'a5', 'c6') "
            f"whose first item is one of: {', '.join(KINDS)}."
        )
    kind = action[0]
    count, hexes_only = KINDS[kind]
    if len(action) != count + 1:
        raise IllegalAction(
            f"{action!r}: a {kind} action takes {count} node name{'s' if count != 1 else ''}."
        )
    nodes = []
    for name in action[1:]:
        node = NODE_INDEX.get(name) if isinstance(name, str) else None
        if node is None:
            raise IllegalAction(f"{action!r}: {name!r} is no node of the board.")
        if hexes_only and node >= HEX_COUNT:
            raise IllegalAction(f"{action!r}: {kind} needs a hex such as e5, not {name}.")
        nodes.append(node)
    return kind, tuple(nodes)


def format_action(action: Action) -> str:
    """The canonical text of a well-formed action."""
    try:
        return _TEXT[action]
    except (KeyError, TypeError):
        return _format(action)


def _format(action: Action) -> str:
    kind, _ = _decode(action)
    if kind == "go":
        return f"{action[1]}-{action[2]}"
    if kind == "place_open":
        return f"place {action[1]} open"
    if len(action) == 1:
        return _BARE[action]
    return f"{kind} {action[1]}"


def _node(token: str, text: str) -> str:
    if token == SUMMIT_NAME:
        return token
    if token.upper() in START_NAMES:
        return token.upper()
    if token in NODE_INDEX:
        return token
    raise IllegalAction(
        f"{text.strip()!r}: {token!r} is no node; hexes are a1 … k7, start areas A … E, "
        f"and the summit is 'summit'."
    )


def parse_action(text: str) -> Action:
    """The action a text names (not yet checked against the position)."""
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} is not text.")
    known = _ACTION.get(text)
    if known is not None:
        return known
    words = text.lower().replace("-", " ").replace("_", " ").split()
    if words[:1] in (["go"], ["step"], ["move"]) and len(words) == 3:
        words = words[1:]
    action: Action | None = None
    if words in (["end", "move"], ["endmove"]):
        action = ("end_move",)
    elif words in (["end", "turn"], ["endturn"]):
        action = ("end_turn",)
    elif words in (["skip", "athos"], ["skip"]):
        action = ("skip_athos",)
    elif len(words) == 2 and words[0] in _HEX_WORDS:
        action = (words[0], _node(words[1], text))
    elif len(words) == 3 and words[0] == "place" and words[2] in ("open", "blocking"):
        action = ("place_open" if words[2] == "open" else "place", _node(words[1], text))
    elif len(words) == 2:
        action = ("go", _node(words[0], text), _node(words[1], text))
    if action is None and words[:1] == ["tile"]:
        raise IllegalAction(
            f"{text.strip()!r}: a tile moves in two actions, 'lift' and 'drop', "
            f"e.g. lift e5, then drop g7."
        )
    if action is None:
        raise IllegalAction(f"{text.strip()!r} is no Athos action; write e.g. {EXAMPLES}.")
    decode(action)  # a hex where one is needed
    return action


def in_board_order(actions: list[Action]) -> list[Action]:
    """`actions` with the placements among them sorted by hex (a1, a2, …, k7), each in a
    slot a placement had; the other actions keep their places. A malformed placement
    stays where it is, for the rules to refuse with its reason."""
    def hex_of(action: Action) -> int | None:
        if isinstance(action, tuple) and action[:1] in (("place",), ("place_open",)):
            try:
                return decode(action)[1][0]
            except IllegalAction:
                return None
        return None

    slots = [i for i, a in enumerate(actions) if hex_of(a) is not None]
    ordered = sorted((actions[i] for i in slots), key=hex_of)  # type: ignore[arg-type]
    result = list(actions)
    for i, action in zip(slots, ordered):
        result[i] = action
    return result


def _every_action() -> list[Action]:
    """Every well-formed action (a go between any two nodes included): few enough to look
    up instead of working out."""
    actions: list[Action] = [(kind,) for kind, (count, _) in KINDS.items() if count == 0]
    for u in range(NODE_COUNT):
        actions += [("go", NODE_NAMES[u], NODE_NAMES[v]) for v in range(NODE_COUNT)]
    for h in range(HEX_COUNT):
        actions += [(kind, NODE_NAMES[h]) for kind in KINDS if KINDS[kind] == (1, True)]
    return actions


# Tables built once at import by the general code above, so a lookup gives exactly what
# working it out would (speed: random playouts decode and format many actions).
_EVERY = _every_action()
#: (kind, node numbers) of a well-formed action; IllegalAction saying what is malformed
decode = by_lookup(_decode, _EVERY)
_TEXT = {a: _format(a) for a in _EVERY}
_ACTION = {text: a for a, text in _TEXT.items()}
