"""The help screen: the keys of the screen in front, and the game's rules in brief as its
engine gives them (`Game.rules_text()`, the same words as spec/games/NAME.md)."""
from __future__ import annotations

from peerboard import engines

PLAYING_KEYS = """\
Type a move in the game's notation; Tab lists the legal moves that fit what you typed.
Or point: F4 (or Esc) moves to the board; arrows move the cursor, Enter picks a piece
or card and then its target; a mouse click does the same. Buttons take the rest.
Each action goes into a plan you can take back (F2, `undo`); Enter on an empty line
(F3, `send`) sends the planned turn as one move. A choice with only one option is taken
at once. `quit` or Ctrl-C leaves; the game waits (peerboard resume brings you back)."""

REPLAY_KEYS = """\
Left/Right step one entry, PgUp/PgDn ten, Home/End the start and the end.
Type a number and Enter to jump to that entry. Space plays and pauses; + and - change
the speed. F6 shows the game as the next seat saw it (or the public view). F7 analyses
the log (every move judged, as `peerboard analyse` does) when no analysis is beside it."""


def rules_of(game_name: str) -> str:
    """The game's rules in brief, or a sentence naming where its rules are written ("" for
    no game: the lobby)."""
    if not game_name:
        return ""
    game = engines.get(game_name)
    text = game.rules_text()
    if text:
        return text
    return f"{game.title or game_name} has no rules summary here; its rules are in spec/games/{game_name}.md."


def help_text(game_name: str, keys: str, bar: list[tuple[str, str]]) -> str:
    """The whole help screen: the key bar spelled out, how to play here, the rules."""
    keys_line = "   ".join(f"{key} {label}" for key, label in bar)
    return f"{keys_line}\n\n{keys}\n\n{rules_of(game_name)}\n\nEsc, F1 or ? closes this help."
