"""Athos's rules in brief, for the help screen (F1): the same words as "The
rules in brief" in spec/games/athos.md, which a test compares."""

RULES_IN_BRIEF = """\
Athos, 2 to 4 players: bring your 3 monks from your start area to the summit.
 A step goes to a hex that touches: two beside it in its row, two in the row above and
 two below (e5 touches e4 e6, f4 f5, d5 d6); row a touches the start areas, row k the summit.
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
 3 up, the fewest points used in the last turn wins."""
