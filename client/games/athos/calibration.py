"""athos: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: athos at 2 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:athos:2:0-47), 2026 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1559, 36% better than the share, the farthest bin 0.01.
3 seats: athos at 3 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:athos:3:0-95), 5005 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.0601, 73% better than the share, the farthest bin 0.08.
"""

FITS = {
    2: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress'),
        "weights": (0.2952, 0.4583, -0.2892, -0.4253, -0.1577),
        "length": 135.5,
        "scale": 2.71,
        "source": 'athos at 2 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:athos:2:0-47), 2026 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.1559, 36% better than the share, the farthest bin 0.01',
    },
    3: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'seat:1', 'seat_logit:1', 'seat_progress:1'),
        "weights": (0.034, 0.2385, -0.1123, -2.0146, 1.8692, 0.5653, -0.5731),
        "length": 161.5,
        "scale": 2.92,
        "source": 'athos at 3 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:athos:3:0-95), 5005 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.0601, 73% better than the share, the farthest bin 0.08',
    },
}
