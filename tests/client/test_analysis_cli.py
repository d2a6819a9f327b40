"""`peerboard analyse` and `peerboard ratings` as a user meets them: real subprocesses,
exit statuses, one-line errors."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]


def peerboard(*args, home):
    env = dict(os.environ, PEERBOARD_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "peerboard.client.cli", *args], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.mark.parametrize("args, says", [
    (["analyse", "no-such.pblog"], "no such file: no-such.pblog"),
    (["analyse", "spec/vectors/aton.pblog", "--budget", "0"], "a budget in playouts is a whole number of at least 1"),
    (["analyse", "spec/vectors/aton.pblog", "--jobs", "0"], "--jobs must be at least 1"),
    (["ratings", "no-such-dir"], "not a directory: no-such-dir"),
])
def test_mistakes_are_one_line_and_exit_2(args, says, tmp_path):
    args = [str(ROOT / a) if a.startswith("spec/") else a for a in args]
    out = peerboard(*args, home=tmp_path)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and says in out.stderr, out.stderr


def test_analyse_writes_the_file_beside_the_log_and_reports_per_seat(tmp_path):
    log = tmp_path / "aton.pblog"
    shutil.copy(ROOT / "spec" / "vectors" / "aton.pblog", log)
    out = peerboard("analyse", str(log), "--budget", "10", "--jobs", "2", home=tmp_path)
    assert out.returncode == 0, out.stderr
    doc = json.loads((tmp_path / "aton.analysis.json").read_text())
    assert doc["format"] == "peerboard-analysis" and doc["moves"]
    lines = out.stdout.splitlines()
    assert lines[0].startswith("aton.pblog: aton, ") and "budget 10 playouts, seed 0" in lines[0]
    assert sum(line.startswith("seat ") for line in lines) == 2
    assert f"analysis: {tmp_path / 'aton.analysis.json'}" in out.stdout
    # no progress bar when the output is not a terminal: stderr stays empty
    assert out.stderr == ""


def test_ratings_of_the_vectors_count_each_game_and_leave_out_an_invalid_one(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    for name in ("aton", "athos", "asterix"):
        shutil.copy(ROOT / "spec" / "vectors" / f"{name}.pblog", logs / f"{name}.pblog")
    shutil.copy(ROOT / "spec" / "vectors" / "invalid" / "aton-prev-zero.pblog", logs)
    out = peerboard("ratings", str(logs), home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "4 log file(s): 3 game(s) counted once each (3 rated, 0 not), 0 unfinished, 1 invalid" in out.stdout
    assert "left out: " in out.stdout and "aton-prev-zero.pblog: invalid at seq" in out.stdout
    for name in ("aton", "athos", "asterix"):
        assert f"\n{name}\n" in out.stdout


def test_the_analysis_is_the_same_under_any_hash_seed(tmp_path):
    files = []
    for hashseed in ("1", "2"):
        folder = tmp_path / hashseed
        folder.mkdir()
        log = folder / "aton.pblog"
        shutil.copy(ROOT / "spec" / "vectors" / "aton.pblog", log)
        env = dict(os.environ, PEERBOARD_HOME=str(tmp_path), PYTHONHASHSEED=hashseed)
        out = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "analyse", str(log), "--budget", "8"],
                             capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0, out.stderr
        files.append((folder / "aton.analysis.json").read_text())
    assert files[0] == files[1]
