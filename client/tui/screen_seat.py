"""`ScreenSeat`: what the LAN commands (client/lan) put at a node when a person plays on a
terminal. It takes the node's events from the moment the node is made, keeps what the
command says before the game (how to join this table) for the forming screen, and `run`
shows the game full screen until the person leaves, then prints how it ended and where its
log is. Every exit status is one of client/exitcode.py's."""
from __future__ import annotations

import sys
from typing import Any, TextIO

from peerboard.client.exitcode import ExitCode
from peerboard.client.tui.live_run import run_game
from peerboard.client.tui.live_source import LiveSource


class ScreenSeat:
    """The full-screen client at a node, for the LAN commands (client/lan): make it right
    after the node (before it hosts, joins or resumes), then `run` it."""

    def __init__(self, node: Any, title: str = "", out: TextIO | None = None):
        self.node = node
        self.out = out or sys.stdout
        self.source = LiveSource(node, title)
        self.interrupted = False
        self.ended = False  # the screen has closed

    @property
    def log_path(self):
        return self.node.log_path

    @property
    def exit_status(self) -> ExitCode | None:
        return self.source.exit_status

    def say(self, text: str) -> None:
        """Before and during the screen: the forming screen and the status line show it;
        once the screen is gone: a line on the terminal."""
        if self.ended:
            print(text, file=self.out, flush=True)
        else:
            self.source.say(text)

    def finish(self, status: ExitCode) -> None:
        self.source.finish(status)

    def run(self, max_seconds: float | None = None, input=None, output=None) -> ExitCode:
        """The game full screen until the person leaves; then how it ended, on the terminal."""
        status = run_game(self.node, source=self.source, input=input, output=output, max_seconds=max_seconds)
        self.ended = True
        for line in self.ending_lines(status):
            print(line, file=self.out, flush=True)
        return status

    def ending_lines(self, status: ExitCode) -> list[str]:
        """What stays on the terminal when the screen is gone: how the game ended and its log
        (the commands in the words that work where the person stands: client/invocation.py)."""
        from peerboard.client.invocation import command

        source, path = self.source, self.node.log_path
        lines = list(source.ending)
        if status in (ExitCode.DONE, ExitCode.INTERRUPTED) and not source.finished and not lines:
            if path is None:
                lines.append("You left the table before the game started.")
            else:
                lines.append(f"You left the game; it waits for you. Come back to it with: {command()} resume {path}")
        elif status is ExitCode.GAVE_UP:
            lines.append("Gave up (--max-seconds); the game is not over."
                         + (f" Come back to it with: {command()} resume {path}" if path is not None else ""))
        elif status is ExitCode.HALTED and path is not None:
            lines.append(f"Everything stored is kept; resume it with: {command()} resume {path}")
        if path is not None and (source.finished or status is ExitCode.HALTED):
            lines.append(f"The game's log: {path} (check it with: {command()} replay {path} --verify)")
        return lines
