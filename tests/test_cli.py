"""The command line as a user meets it: real subprocesses, exit statuses, one-line errors."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peerboard(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run(
        [sys.executable, "-m", "client.cli", *args], capture_output=True, text=True,
        cwd=cwd, env=env, timeout=120,
    )


@pytest.mark.parametrize("args, says", [
    (["selfplay", "chess"], "There is no game 'chess'; the games are: asterix, athos, aton."),
    (["selfplay", "aton", "--option", "win_points=0"], "win_points=0 must be a whole number from 1 to 200"),
    (["selfplay", "aton", "--option", "colour=red"], "Aton has no option 'colour'"),
    (["selfplay", "aton", "--players", "3"], "Aton is played by exactly 2 players, not 3."),
    (["selfplay", "aton", "--games", "zero"], "invalid int value"),
    (["replay", "no-such-file.pblog", "--verify"], "no such file: no-such-file.pblog"),
    (["fly"], "invalid choice"),
])
def test_user_errors_are_one_line_and_exit_2(args, says):
    out = peerboard(*args)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and says in out.stderr and "Traceback" not in out.stderr


def test_selfplay_saves_a_log_that_replay_verifies(tmp_path):
    out = peerboard("selfplay", "aton", "--seed", "4", "--save", str(tmp_path))
    assert out.returncode == 0, out.stderr
    logs = list(tmp_path.glob("*.pblog"))
    assert len(logs) == 1 and f"log: {logs[0]}" in out.stdout
    check = peerboard("replay", str(logs[0]), "--verify")
    assert check.returncode == 0 and check.stdout.startswith("valid: aton")
    assert check.stdout.count("\n") == 1


def test_selfplay_prints_a_results_table_for_many_games():
    out = peerboard("selfplay", "aton", "--games", "30", "--seed", "2")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0] == "Aton: 30 game(s), 2 players, seed 2"
    wins = [int(line.split()[1]) for line in lines if line.split()[0] in ("0", "1", "draws")]
    assert sum(wins) == 30 and "average length" in lines[-1]


def test_the_same_seed_plays_the_same_games():
    a = peerboard("selfplay", "aton", "--games", "5", "--seed", "11").stdout
    b = peerboard("selfplay", "aton", "--games", "5", "--seed", "11").stdout
    assert a == b


def test_a_tampered_log_fails_verify_with_exit_1_naming_the_seq(tmp_path):
    peerboard("selfplay", "aton", "--seed", "4", "--save", str(tmp_path))
    log = next(tmp_path.glob("*.pblog"))
    data = bytearray(log.read_bytes())
    data[-3] ^= 0xFF  # inside the last entry's signature
    log.write_bytes(bytes(data))
    out = peerboard("replay", str(log), "--verify")
    assert out.returncode == 1 and out.stdout.startswith("invalid at seq ")
    assert "bad signature" in out.stdout


def test_a_file_that_is_no_log_is_invalid_not_a_crash(tmp_path):
    junk = tmp_path / "junk.pblog"
    junk.write_bytes(b"this is not a log at all")
    out = peerboard("replay", str(junk), "--verify")
    assert out.returncode == 1 and out.stdout.startswith("invalid at header")


def test_export_json_and_text(tmp_path):
    peerboard("selfplay", "aton", "--seed", "4", "--save", str(tmp_path))
    log = str(next(tmp_path.glob("*.pblog")))
    doc = json.loads(peerboard("replay", log, "--export", "json").stdout)
    assert doc["game"] == "aton" and len(doc["seats"]) == 2
    assert doc["entries"][0]["kind"] == "reveal"
    # after the audit the export shows the hidden draws each reveal round brought about
    first_draws = next(e["chance"] for e in doc["entries"] if e["chance"])
    assert len(first_draws) == 8 and all(d.startswith("draw ") and d != "draw ?" for d in first_draws)
    assert doc["entries"][-1]["kind"] == "result" and doc["entries"][-1]["cheats"] == []
    text = peerboard("replay", log, "--export", "text").stdout.splitlines()
    assert text[0].startswith("# peerboard log: aton")
    assert any(" move " in line and "assign" in line for line in text)
