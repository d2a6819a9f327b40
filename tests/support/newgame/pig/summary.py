"""Pig's rules in brief, for the help screen (F1)."""

RULES_IN_BRIEF = """\
Pig, 2 to 4 players, one die. On your turn roll the die (roll) as often as you like:
 each roll adds its number to your turn total, but a 1 loses the turn total and ends
 your turn. Hold (hold) to bank the turn total and pass the die on.
 The first to bank the goal (30 points unless the table sets another) wins."""
