"""Where this user's peerboard files live, worked out in one place.

`$PEERBOARD_HOME`, when set, holds everything: the identity (config) and the games (data).
Otherwise each is the platform's own place for the user's files (platformdirs): on Linux
`$XDG_CONFIG_HOME/peerboard` (`~/.config/peerboard`) for the identity and
`$XDG_DATA_HOME/peerboard` (`~/.local/share/peerboard`) for the games; on macOS both are
`~/Library/Application Support/peerboard`; on Windows `%LOCALAPPDATA%\\peerboard`.
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "peerboard"
HOME = "PEERBOARD_HOME"  # the one variable that moves every file (the tests and bot homes use it)


def _home() -> Path | None:
    given = os.environ.get(HOME)
    return Path(given) if given else None


def config_dir() -> Path:
    """Where the user's identity lives."""
    return _home() or Path(platformdirs.user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    """Where the user's games (and a `play` game's bot homes) live."""
    return _home() or Path(platformdirs.user_data_dir(APP, appauthor=False))
