"""The help screen: the keys of the screen in front, and the game's rules in brief as its
engine gives them (`Game.rules_text()`, the same words as spec/games/NAME.md)."""
from __future__ import annotations

from peerboard import engines

PLAYING_KEYS = """\
Type a move in the game's notation; Tab lists the legal moves that fit what you typed.
Or point: F4 (or Esc) moves to the board; arrows move the cursor, Enter picks a piece
or card and then its target; a mouse click does the same. Buttons take the rest.
Each action goes into a plan you can take back (F2, `undo`); Enter on an empty line
(F3, `send`) sends what is planned as one move and ends the turn there when the rules
let it (else it says what is missing). A choice with only one option is taken at once.
The terminal bell rings when your turn comes (PEERBOARD_BELL=off: no bell).
F6 (or `resign`) resigns the game at any time, after asking once; F8 (or `claim N`)
claims a seat once it has been away longer than the table's patience (the seats panel
counts it down): at two seats the game ends with you the winner; at more, once every
other seat has claimed it, a bot takes it over (or the game ends, as the host chose). `offer draw` or `offer
abort` asks the others; `accept` or `decline` answers an offer. `say TEXT` says TEXT to
the table (every seat and spectator); what is said shows above the input line. At the
end, F7 (or `again`) offers the same table again, the first seat moved on. `quit` or
Ctrl-C leaves; the game waits (peerboard resume brings you back)."""

REPLAY_KEYS = """\
Left/Right step one entry, PgUp/PgDn ten, Home/End the start and the end.
Type a number and Enter to jump to that entry. Space plays and pauses; + and - change
the speed. F6 shows the game as the next seat saw it (or the public view). F7 analyses
the log (every move judged, as `peerboard analyse` does) when no analysis is beside it.
The graph at the foot (once analysed) is one seat's chance of winning across the game,
as the analysis puts it before each move (calibrated to who won games between strong
players, where the game has a calibration): the seat whose view F6 shows, else
seat 0; the line over it names that seat. A column in the alert colours holds one of
its mistakes (?) or blunders (??): moves the search is at least 97.5% sure lost 10 (25)
points of its chance; ?! is a close call, a move that looked like a mistake without the
search being sure. `peerboard analyse` prints the budget and how sure each mark is.
What was said at the table (the chat file beside the log) shows above the input line from
the entry it was said after."""


def rules_of(game_name: str) -> str:
    """The game's rules in brief, or a sentence naming where its rules are written ("" for
    no game: the lobby)."""
    if not game_name:
        return ""
    game = engines.get(game_name)
    text = game.rules_text().rstrip("\n")  # (a summary written with a last newline: the same words)
    if text:
        return text
    return f"{game.title or game_name} has no rules summary here; its rules are in spec/games/{game_name}.md."


def reading_of(game_name: str) -> str:
    """How to read the game's board on this screen (its marks, how squares are named,
    what scores): the board's own words (client/games/NAME/board.py), "" without them."""
    if not game_name:
        return ""
    from peerboard.client.tui.boards import board_for

    return getattr(board_for(game_name), "reading", "")


def help_text(game_name: str, keys: str, bar: list[tuple[str, str]], near: str = "") -> str:
    """The whole help screen: the key bar spelled out, what touches the spot under the
    board cursor (`near`, where the board says), how to play here, how to read the board,
    the rules."""
    keys_line = "   ".join(f"{key} {label}" for key, label in bar)
    here = f"Under the board cursor: {near}" if near else ""
    parts = [keys_line, here, keys, reading_of(game_name), rules_of(game_name), "Esc, F1 or ? closes this help."]
    return "\n\n".join(p for p in parts if p)
