"""aton: the fitted evaluation's weights (client/bots/knowledge/fitted.py), written by
bench/fit_evaluation.py; do not edit by hand: fit again.

Fitted to 8652 cut-off positions of the searches at 1565
decisions (budget 100, every 6th judged decision) of 80 self-play
games (aton-2p); log loss 0.6405,
Brier per seat 0.2254 on them.
Then tempered by 1.373 (the factor that fits the decisions' mean estimates best).
"""

FEATURES = ('progress', 'progress_squared', 'board_later', 'owed', 'occupation')
WEIGHTS = (
    -0.252359848352291,  # progress
    2.269098029291775,  # progress_squared
    0.6154808794907078,  # board_later
    0.8399295627633978,  # owed
    3.0528233155129603,  # occupation
)
