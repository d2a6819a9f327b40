"""Athos notation: each action's one text form, and reading it back.

    a2-b2          ("step", "a2", "b2")       also  B-a5, k3-summit
    turn e5        ("turn", "e5")
    end move       ("end_move",)
    tile e5-g7     ("move_tile", "e5", "g7")
    fix g7         ("fix", "g7")
    skip athos     ("skip_athos",)
    place e5       ("place", "e5")
    place e5 open  ("place_open", "e5")          (handicap only)
    end turn       ("end_turn",)

Reading is forgiving about case, spaces, `-`/`_` and an optional leading "step" or
"move"; writing gives exactly the forms above. Hexes are lower case (`e5`), start areas
upper case (`B`), the summit is `summit`.
"""
from __future__ import annotations

from typing import Any

from engines.athos.board import HEX_COUNT, NEIGHBOURS, NODE_NAMES, START_NAMES, SUMMIT_NAME
from engines.contract import Action, IllegalAction

NODE_INDEX = {name: i for i, name in enumerate(NODE_NAMES)}
_BARE = {("end_move",): "end move", ("skip_athos",): "skip athos", ("end_turn",): "end turn"}
#: kind -> (number of node arguments, must they be hexes)
KINDS = {
    "step": (2, False),
    "turn": (1, True),
    "end_move": (0, False),
    "move_tile": (2, True),
    "fix": (1, True),
    "skip_athos": (0, False),
    "place": (1, True),
    "place_open": (1, True),
    "end_turn": (0, False),
}
EXAMPLES = "a2-b2, turn e5, end move, tile e5-g7, fix g7, skip athos, place e5, end turn"


def decode(action: Any) -> tuple[str, tuple[int, ...]]:
    """(kind, node numbers) of a well-formed action; IllegalAction saying what is malformed."""
    try:
        return _DECODED[action]
    except (KeyError, TypeError):  # a tile move, or something malformed (maybe unhashable)
        return _decode(action)


def _decode(action: Any) -> tuple[str, tuple[int, ...]]:
    if not isinstance(action, tuple) or not action or action[0] not in KINDS:
        raise IllegalAction(
            f"{action!r} is no Athos action; an action is a tuple such as ('step', 'a2', 'b2') "
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
    if kind == "step":
        return f"{action[1]}-{action[2]}"
    if kind == "move_tile":
        return f"tile {action[1]}-{action[2]}"
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
    if words[:1] in (["step"], ["move"]) and words[1:2] != ["tile"]:
        words = words[1:]
    if words[:2] == ["move", "tile"]:
        words = words[1:]
    action: Action | None = None
    if words in (["end", "move"], ["endmove"]):
        action = ("end_move",)
    elif words in (["end", "turn"], ["endturn"]):
        action = ("end_turn",)
    elif words in (["skip", "athos"], ["skip"]):
        action = ("skip_athos",)
    elif len(words) == 2 and words[0] in ("turn", "fix", "place"):
        action = (words[0], _node(words[1], text))
    elif len(words) == 3 and words[0] == "place" and words[2] in ("open", "blocking"):
        action = ("place_open" if words[2] == "open" else "place", _node(words[1], text))
    elif len(words) == 3 and words[0] == "tile":
        action = ("move_tile", _node(words[1], text), _node(words[2], text))
    elif len(words) == 2:
        action = ("step", _node(words[0], text), _node(words[1], text))
    if action is None:
        raise IllegalAction(f"{text.strip()!r} is no Athos action; write e.g. {EXAMPLES}.")
    decode(action)  # a hex where one is needed
    return action


def _small_actions() -> list[Action]:
    """Every action but the tile moves: few enough to look up instead of working out."""
    actions: list[Action] = [(kind,) for kind, (count, _) in KINDS.items() if count == 0]
    for u, around in enumerate(NEIGHBOURS):
        actions += [("step", NODE_NAMES[u], NODE_NAMES[v]) for v in around]
    for h in range(HEX_COUNT):
        actions += [(kind, NODE_NAMES[h]) for kind in ("turn", "fix", "place", "place_open")]
    return actions


# Tables built once at import by the general code above, so a lookup gives exactly what
# working it out would (speed: random playouts decode and format millions of actions).
_DECODED = {a: _decode(a) for a in _small_actions()}
_TEXT = {a: _format(a) for a in _small_actions()}
_ACTION = {text: a for a, text in _TEXT.items()}
