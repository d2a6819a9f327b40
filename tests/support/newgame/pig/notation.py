"""Each action's one text form: `die N` (a roll's outcome), `roll`, `hold`."""
from __future__ import annotations

from peerboard.engines.contract import Action, IllegalAction

WORDS = ("roll", "hold")


def format_action(action: Action) -> str:
    if action[0] == "die":
        return f"die {action[1]}"
    return action[0]


def parse_action(text: str) -> Action:
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in WORDS:
        return (words[0],)
    if len(words) == 2 and words[0] == "die" and words[1] in ("1", "2", "3", "4", "5", "6"):
        return ("die", int(words[1]))
    raise IllegalAction(f"{text.strip()!r} is not a Pig action; they are roll, hold and die 1 to die 6.")


def decode(action: Action) -> tuple[str, tuple]:
    """(kind, arguments), or IllegalAction for a malformed action."""
    if action in (("roll",), ("hold",)):
        return action[0], ()
    if (len(action) == 2 and action[0] == "die" and type(action[1]) is int and 1 <= action[1] <= 6):
        return "die", (action[1],)
    raise IllegalAction(f"{action!r} is not a Pig action: ('roll',), ('hold',) or ('die', 1..6).")
