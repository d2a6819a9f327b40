"""aton: the fitted evaluation's weights (client/bots/knowledge/fitted.py), written by
bench/fit_evaluation.py; do not edit by hand: fit again.

Fitted to 23554 cut-off positions of the searches at 4209
decisions (budget 100, every 3th judged decision) of 120 self-play
games (aton-2p-mcts100-seed77); log loss 0.6248,
Brier per seat 0.2159 on them.
Then tempered by 1.594 (the factor that fits the decisions' mean estimates best).
"""

FEATURES = ('progress', 'progress_squared', 'board_later', 'owed', 'occupation', 'cards_ahead', 'supply')
WEIGHTS = (
    1.0845956342258358,  # progress
    1.805119670198392,  # progress_squared
    -0.08326111251812013,  # board_later
    2.603660073773723,  # owed
    1.7508743289265774,  # occupation
    3.3255168557807417,  # cards_ahead
    -3.804612948572875,  # supply
)
