"""Athos's own client pieces: board.py (the full-screen look), knowledge.py (what the
search players know of it). Its JSON view is the generic one (its public record)."""
