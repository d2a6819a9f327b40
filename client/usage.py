"""What the command line says when a user asks for something wrong: one sentence, exit 2
(ExitCode.USAGE).
Shared by every command module, so each raises the one UsageError the CLI catches."""
from __future__ import annotations

import argparse
from typing import Any, Sequence

from peerboard import engines
from peerboard.engines import OptionError


class UsageError(Exception):
    """A mistake in what the user asked for; the message is the whole explanation."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(message)


def game_named(name: str) -> engines.Game:
    try:
        return engines.get(name)
    except OptionError as exc:
        raise UsageError(str(exc)) from None


def options_from(pairs: Sequence[str] | None, game: engines.Game) -> dict[str, Any]:
    """`--option name=value` pairs as the game's options (values parsed by their Option)."""
    options: dict[str, Any] = {}
    for pair in pairs or ():
        name, eq, text = pair.partition("=")
        if not eq or not name:
            raise UsageError(f"--option takes name=value, not {pair!r}")
        spec = game.options_schema.get(name)
        if spec is None:
            known = ", ".join(sorted(game.options_schema)) or "none"
            raise UsageError(f"{game.title} has no option {name!r} (its options: {known})")
        options[name] = spec.parse_text(text)
    return options
