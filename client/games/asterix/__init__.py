"""Asterix's own client pieces: board.py (the full-screen look), knowledge.py (what the
search players know of it), view.py (named JSON fields for program bots)."""
