"""Saved Athos games: the engine's version names what a log needs.

Engine version 2 changed the actions (a monk goes to a node in one `go`, the Athos piece is
lifted and dropped, a turn's tiles go down in board order), so a version-1 log means other
things: it is refused in one line that names the version it needs. spec/vectors keeps the
last version-1 log the repository made (athos-engine-1.pblog) for exactly this check.
"""
import os
import subprocess
import sys

import pytest

from peerboard.engines.athos import GAME

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECTORS = os.path.join(ROOT, "spec", "vectors")


def verify(path):
    env = dict(os.environ)
    return subprocess.run(
        [sys.executable, "-m", "peerboard.client.cli", "replay", path, "--verify"],
        capture_output=True, text=True, env=env, timeout=120,
    )


def test_the_engine_version_is_2():
    assert GAME.version == "2"


@pytest.mark.processes
def test_a_version_1_log_is_refused_in_one_line_naming_the_version_it_needs():
    out = verify(os.path.join(VECTORS, "athos-engine-1.pblog"))
    assert out.returncode == 1
    assert out.stdout == "invalid at seq 0 [genesis]: the log needs athos engine version 1; this peerboard has 2\n"


@pytest.mark.processes
def test_the_version_2_vector_verifies():
    out = verify(os.path.join(VECTORS, "athos.pblog"))
    assert out.returncode == 0 and out.stdout.startswith("valid: athos, seats 0:seat-0, 1:seat-1,")
