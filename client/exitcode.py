"""How a `peerboard` command ends: one exit status per outcome, for the whole command line
(README.md, "Exit status")."""
from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    DONE = 0  # the game is over, or you left it; any other command did what was asked
    HALTED = 1  # the game halted: a desync, an equivocation, or an internal error here
    INVALID = 1  # `replay`: the log is invalid
    USAGE = 2  # a mistake in what was asked (a bad flag, a missing file ...)
    REFUSED = 2  # the table refused this node, or never answered
    GAVE_UP = 3  # --max-seconds passed before the game was over
    INTERNAL = 4  # our own bug outside a game (the message names the file with the details)
    PLAYER_FAILED = 5  # `selfplay`: a player's bot never chose a move (a program that could not start)
    INTERRUPTED = 130  # Ctrl-C (the shell's 128 + SIGINT)
