"""The help screen: the keys of the screen in front, and each game's rules on one screen
(summarised from spec/games/*.md, which say everything the engines do)."""
from __future__ import annotations

RULES = {
    "aton": """\
Aton, 2 players: red (seat 0) and blue (seat 1). Each round:
 1 Draw up to 4 cards from your own deck (36 cards: nine each of 1-4).
 2 Once a game you may hand in the white counter: discard your 4 cards, draw 4 (exchange).
 3 In secret, put one card on each of your 4 cartouches (assign c1 c2 c3 c4), then reveal.
 4 Cartouche 1: the higher card scores 2 x the difference.
 5 Cartouche 2: the lower card acts first (tie: lower cartouche 1; then turned-up cards).
   It removes counters: 4 two of the opponent's, 3 one, 2 none, 1 one of your own
   (never in round 1), from temples 1..cartouche 3, to the Kingdom of the Dead.
 6 Cartouche 4: place that many counters on empty squares of temples 1..cartouche 3.
 Win at once: reach the points goal (40), or hold all 12 squares of a temple, all 14
 yellow or all 14 green squares. When the Kingdom holds 8, a scoring ends the round:
 temple 1 the difference, temple 2 five, temple 3 your counters there, temple 4 three
 per blue square you hold, black squares 8 to the majority, bonus squares their value.
 Then each takes 4 own counters back (retrieve). Squares are t.n: temple t, square n.""",
    "asterix": """\
Asterix: The Hunt, 2 to 8 players, on a chess board; the village is d4 e4 d5 e5.
 Tiles: boar 10, cohort 10, menhir 8, mistletoe 12, lake 8, clearing 12.
 Your pawn starts in the village with 3 potions; a turn in the village refills them.
 Roll 2 dice; choose which die moves first, then move exactly that many king steps
 (turning and revisiting allowed), then the other die. Never into a lake; into a cohort
 only holding a potion. Entering the village ends the movement and banks all you carry.
 Landing: a cohort goes to your victory pile; boar, menhir, mistletoe may be picked up
 (load: any mistletoe, and one menhir or up to two boars); you may steal one thing from
 another pawn on your square. Each turn ends by discarding one potion.
 The game ends when every scoring tile is banked, when nothing can change any more, or
 after the round limit. Each category (boar, cohort, menhir, mistletoe) goes to the one
 seat with the most of it; most categories wins (ties: menhirs, boars, tiles).""",
    "athos": """\
Athos, 2 to 4 players: bring your 3 monks from your start area to the summit.
 A turn: 1 Move with 6 points: a monk one step for 1 point (through other monks and
 start areas, never onto a blocking tile), or turn a tile over for 4 points. No two monks
 may share a hex when the move ends. The 1st-5th monk to arrive on the summit gives its
 owner 3, 3, 2, 2, 1 more points this turn.
 2 Athos piece (twice a game, optional): move one tile to any free hex, same side up,
 then fix a piece on a tile: it can never be turned or moved again.
 3 Place tiles blocking side up on free hexes of their colour (2 players: up to 8, two
 a colour; 3: 5 and 2; 4: 4 and 1).
 The path rule: every monk must always keep a way to the summit over hexes without a
 blocking tile. When a player has all 3 monks up the round is finished; of those with
 3 up, the fewest points used in the last turn wins.""",
}

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
the speed. F6 shows the game as the next seat saw it (or the public view)."""


def help_text(game_name: str, keys: str, bar: list[tuple[str, str]]) -> str:
    """The whole help screen: the key bar spelled out, how to play here, the rules."""
    keys_line = "   ".join(f"{key} {label}" for key, label in bar)
    rules = RULES.get(game_name, "")
    return f"{keys_line}\n\n{keys}\n\n{rules}\n\nEsc, F1 or ? closes this help."
