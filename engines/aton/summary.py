"""Aton's rules in brief, for the help screen (F1): the same words as "The
rules in brief" in spec/games/aton.md, which a test compares."""

RULES_IN_BRIEF = """\
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
 Then each takes 4 own counters back (retrieve). Squares are t.n: temple t, square n."""
