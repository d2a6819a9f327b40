"""Asterix: The Hunt's rules in brief, for the help screen (F1): the same words as "The
rules in brief" in spec/games/asterix.md, which a test compares."""

RULES_IN_BRIEF = """\
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
 seat with the most of it; most categories wins (ties: menhirs, boars, tiles)."""
