"""A one-line progress bar on a terminal; silent when the output is not a terminal."""
from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO = sys.stderr, width: int = 30):
        self.total, self.label, self.stream, self.width = total, label, stream, width
        self.shown = -1
        self.enabled = total > 1 and stream.isatty()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        filled = self.width * done // self.total
        if filled == self.shown and done != self.total:
            return
        self.shown = filled
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total}")
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()
