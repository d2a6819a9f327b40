"""aton: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: aton at 2 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:aton:2:0-95), 3392 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1930, 21% better than the share, the farthest bin 0.00.
"""

FITS = {
    2: {
        "features": ('logit', 'logit_progress', 'mover'),
        "weights": (0.5503, -0.1344, -0.1681),
        "length": 147.5,
        "scale": 31.34,
        "source": 'aton at 2 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:aton:2:0-95), 3392 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.1930, 21% better than the share, the farthest bin 0.00',
    },
}
