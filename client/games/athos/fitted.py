"""athos: the fitted evaluation's weights (client/bots/knowledge/fitted.py), written by
bench/fit_evaluation.py; do not edit by hand: fit again.

Fitted to 11316 cut-off positions of the searches at 2009
decisions (budget 100, every 3th judged decision) of 60 self-play
games (athos-2p); log loss 0.5606,
Brier per seat 0.1899 on them.
Then tempered by 1.040 (the factor that fits the decisions' mean estimates best).
"""

FEATURES = ('need', 'turn', 'last_monk', 'monks_up')
WEIGHTS = (
    -0.9253394267516022,  # need
    -0.7119662933910335,  # turn
    -0.8470958045225188,  # last_monk
    -0.14922501379417072,  # monks_up
)
