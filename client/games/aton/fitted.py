"""aton: the fitted evaluation's weights (client/bots/knowledge/fitted.py), written by
bench/fit_evaluation.py; do not edit by hand: fit again.

Fitted to 17049 cut-off positions of the searches at 3085
decisions (budget 100, every 3th judged decision) of 80 self-play
games (aton-2p); log loss 0.6495,
Brier per seat 0.2294 on them.
Then tempered by 1.203 (the factor that fits the decisions' mean estimates best).
"""

FEATURES = ('progress', 'progress_squared', 'board_later', 'owed')
WEIGHTS = (
    -0.1016458522661321,  # progress
    2.013960960489705,  # progress_squared
    0.5374202764811296,  # board_later
    0.8546916457621073,  # owed
)
