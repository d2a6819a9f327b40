"""Studying a finished game: every move judged by search from what its seat could know.

    from peerboard.client.analysis import analyse_contents

    doc = analyse_contents(contents, budget=Budget(playouts=300), seed=0)

`positions.py` walks a verified log into the decisions its seats took (each seat's view,
the legal actions, the one it played); `judge.py` searches one of them (MCTS from the
seat's view, the played action always among those searched) for each seat's chance before
and after, the preferred action and the mark; `document.py` is the analysis file
(spec/analysis.md) and the text report; `command.py` is `peerboard analyse`.
"""
