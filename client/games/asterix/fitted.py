"""asterix: the fitted evaluation's weights (client/bots/knowledge/fitted.py), written by
bench/fit_evaluation.py; do not edit by hand: fit again.

Fitted to 24783 cut-off positions of the searches at 4198
decisions (budget 100, every 6th judged decision) of 90 self-play
games (asterix-2p: 60, asterix-4p: 30), then tempered by 0.90 (the factor that fits
the decisions' mean estimates best); the weights as that run printed them, to four places.
Out of fold (three folds by game), the mover's mean estimate: Brier 0.1460 against the
share's 0.2137 (32% better; the knowledge's own contest before: 24%), the farthest bin 0.10
(before: 0.09).
"""

FEATURES = ('value', 'led', 'banked', 'value_late', 'carried')
WEIGHTS = (
    -0.4239,  # value
    0.8638,  # led
    -0.3119,  # banked
    1.7025,  # value_late
    -1.8875,  # carried
)
