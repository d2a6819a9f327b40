"""Where a user's files live is worked out once (node/dirs.py): $PEERBOARD_HOME holds
everything; without it, Linux keeps the identity under $XDG_CONFIG_HOME and the games
under $XDG_DATA_HOME, as it always has; and a fault of ours goes to one errors file."""
from __future__ import annotations

import sys

import pytest

from peerboard.node import dirs, faults
from peerboard.node.gamefiles import games_dir
from peerboard.node.keys import load_identity


def test_peerboard_home_holds_the_identity_and_the_games(tmp_path, monkeypatch):
    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path))
    assert dirs.config_dir() == dirs.data_dir() == tmp_path
    assert games_dir() == tmp_path / "games"
    load_identity()
    assert (tmp_path / "identity.key").stat().st_size == 32


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG directories are Linux's")
def test_on_linux_the_identity_and_the_games_are_where_xdg_says(tmp_path, monkeypatch):
    monkeypatch.delenv("PEERBOARD_HOME", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert dirs.config_dir() == tmp_path / "config" / "peerboard"
    assert dirs.data_dir() == tmp_path / "data" / "peerboard"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert dirs.config_dir() == tmp_path / ".config" / "peerboard"
    assert dirs.data_dir() == tmp_path / ".local" / "share" / "peerboard"


def test_a_fault_of_ours_is_kept_in_a_file_and_said_in_one_line(tmp_path):
    try:
        {}["missing"]
    except KeyError as exc:
        fault = faults.fault_of("reading the table", exc)
    assert fault.text == "internal error while reading the table (KeyError: 'missing')"
    kept = faults.keep(fault.text, fault.details, directory=tmp_path)
    assert kept.where == f"details in {kept.path}" and kept.path.parent == tmp_path
    text = kept.path.read_text()
    assert fault.text in text and "Traceback (most recent call last)" in text and "KeyError" in text
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    nowhere = faults.keep("x", "y", directory=blocked)
    assert nowhere.where.startswith(f"the details could not be written to {nowhere.path} (")
