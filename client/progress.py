"""Long work on the command line (selfplay of many games, verifying many logs) shows
prompt-toolkit's progress bar on a terminal; nothing at all when the output is not a
terminal (a pipe, a file, a test), so what a script reads stays clean.

    with Progress(total, "verify") as progress:
        for n, item in enumerate(items, 1):
            ...
            progress.update(n)

`update(total)` closes the bar by itself, so a caller that only counts needs no `with`.
"""
from __future__ import annotations

import sys
import threading
from typing import TextIO

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import create_output
from prompt_toolkit.shortcuts import ProgressBar


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO = sys.stderr):
        self.total, self.label = total, label
        self.enabled = total > 1 and stream.isatty()
        self._bar: ProgressBar | None = None
        self._counter = None
        self._quiet_input = None
        if self.enabled:
            # The bar draws on `stream` (stderr), never on the results. It reads the keyboard
            # when stdin is a terminal (Ctrl-C there interrupts the work); otherwise it gets
            # an input of its own that never speaks.
            if not sys.stdin.isatty():
                self._quiet_input = create_pipe_input()
            self._bar = ProgressBar(output=create_output(stdout=stream), input=self._quiet_input)
            self._enter_as_daemon(self._bar)
            self._counter = self._bar(label=label, total=total)

    @staticmethod
    def _enter_as_daemon(bar: ProgressBar) -> None:
        """Start the bar from a daemon thread: its drawing thread inherits the flag, so an
        exception that skips `close` can never keep the process alive."""
        starter = threading.Thread(target=bar.__enter__, daemon=True)
        starter.start()
        starter.join()

    def update(self, done: int) -> None:
        if self._counter is None:
            return
        self._counter.items_completed = done
        self._bar.invalidate()
        if done >= self.total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            bar, self._bar = self._bar, None
            self._counter.done = True
            bar.__exit__(None, None, None)
            self._counter = None
            if self._quiet_input is not None:
                self._quiet_input.close()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
