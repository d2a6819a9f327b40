"""The command line as a user meets it: real subprocesses, exit statuses, one-line errors."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from peerboard import engines
from peerboard.client.exitcode import ExitCode

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def peerboard(*args, cwd=None):
    env = dict(os.environ)
    return subprocess.run(
        [sys.executable, "-m", "peerboard.client.cli", *args], capture_output=True, text=True,
        cwd=cwd, env=env, timeout=120,
    )


@pytest.mark.processes
@pytest.mark.parametrize("args, says", [
    (["selfplay", "chess"], f"There is no game 'chess'; the games are: {', '.join(engines.names())}."),
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


@pytest.mark.processes
def test_selfplay_saves_a_log_that_replay_verifies(tmp_path):
    out = peerboard("selfplay", "aton", "--seed", "4", "--save", str(tmp_path))
    assert out.returncode == 0, out.stderr
    logs = list(tmp_path.glob("*.pblog"))
    assert len(logs) == 1 and f"log: {logs[0]}" in out.stdout
    check = peerboard("replay", str(logs[0]), "--verify")
    assert check.returncode == 0 and check.stdout.startswith("valid: aton")
    assert check.stdout.count("\n") == 1


@pytest.mark.processes
def test_selfplay_prints_a_results_table_for_many_games():
    out = peerboard("selfplay", "aton", "--games", "30", "--seed", "2")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0] == "Aton: 30 game(s), 2 players, seed 2"
    wins = [int(line.split()[1]) for line in lines if line.split()[0] in ("0", "1", "draws")]
    assert sum(wins) == 30 and "average length" in lines[-1]


@pytest.mark.processes
def test_the_same_seed_plays_the_same_games():
    a = peerboard("selfplay", "aton", "--games", "5", "--seed", "11").stdout
    b = peerboard("selfplay", "aton", "--games", "5", "--seed", "11").stdout
    assert a == b


@pytest.mark.processes
def test_a_tampered_log_fails_verify_with_exit_1_naming_the_seq(tmp_path):
    peerboard("selfplay", "aton", "--seed", "4", "--save", str(tmp_path))
    log = next(tmp_path.glob("*.pblog"))
    data = bytearray(log.read_bytes())
    data[-3] ^= 0xFF  # inside the last entry's signature
    log.write_bytes(bytes(data))
    out = peerboard("replay", str(log), "--verify")
    assert out.returncode == 1 and out.stdout.startswith("invalid at seq ")
    assert "bad signature" in out.stdout


@pytest.mark.processes
def test_verify_compares_the_copies_of_one_game_and_names_the_forger(tmp_path):
    """spec/log-format.md, "Copies of a game": each file valid alone; together they prove
    that the seat whose copy says it won by claim signed two histories."""
    from support.forged import forgery

    f = forgery(1)
    (tmp_path / "honest.pblog").write_bytes(f.honest)
    (tmp_path / "forged.pblog").write_bytes(f.forged)
    out = peerboard("replay", "--verify", str(tmp_path / "honest.pblog"), str(tmp_path / "forged.pblog"),
                    os.path.join(ROOT, "spec", "vectors", "aton.pblog"))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "3 of 3 valid"
    assert lines[3].startswith("copies of one aton game (genesis ") and lines[3].endswith(
        f"{tmp_path / 'forged.pblog'}, {tmp_path / 'honest.pblog'}")
    assert lines[4].startswith(f"  seat {f.loser} (p{f.loser}) equivocated: it signed two histories of entry {f.cut}")
    assert lines[5].startswith(f"  the claim of seat {f.winner} (p{f.winner}) at entry {f.cut}, signed by seat {f.loser}")
    assert len(lines) == 7  # (the vector, a copy of no other game here, adds nothing)


@pytest.mark.processes
def test_a_file_that_is_no_log_is_invalid_not_a_crash(tmp_path):
    junk = tmp_path / "junk.pblog"
    junk.write_bytes(b"this is not a log at all")
    out = peerboard("replay", str(junk), "--verify")
    assert out.returncode == 1 and out.stdout.startswith("invalid at header")


@pytest.mark.processes
def test_export_json_and_text(tmp_path):
    peerboard("selfplay", "aton", "--seed", "4", "--save", str(tmp_path))
    log = str(next(tmp_path.glob("*.pblog")))
    doc = json.loads(peerboard("replay", log, "--export", "json").stdout)
    assert doc["game"] == "aton" and len(doc["seats"]) == 2
    assert doc["entries"][0]["kind"] == "reveals"  # (the round that dealt the hands: one entry)
    # after the audit the export shows the hidden draws each reveal round brought about
    first_draws = next(e["chance"] for e in doc["entries"] if e["chance"])
    assert len(first_draws) == 8 and all(d.startswith("draw ") and d != "draw ?" for d in first_draws)
    # (the end as a table of this version writes it: the audits, then the results)
    assert doc["entries"][-2]["kind"] == "audits" and doc["entries"][-2]["chance"] == []
    assert doc["entries"][-1]["kind"] == "results" and doc["entries"][-1]["cheats"] == []
    assert doc["entries"][-1]["winners"] in ([0], [1], [0, 1], [])
    text = peerboard("replay", log, "--export", "text").stdout.splitlines()
    assert text[0].startswith("# peerboard log: aton")
    assert any(" move " in line and "assign" in line for line in text)


@pytest.mark.processes
@pytest.mark.parametrize("args, says", [
    (["selfplay", "aton", "--save", "/proc/nope"], "--save /proc/nope: cannot write there"),
    (["host", "aton", "--bind", "tcp://127.0.0.1:99999"], "--bind takes tcp://IP:PORT with a port from 0 to 65535"),
    (["host", "aton", "--advertise", "notanip"], "--advertise takes the IPv4 address"),
    (["join", "--advertise", "notanip"], "--advertise takes the IPv4 address"),
    (["tables", "--wait", "-1"], "--wait takes a number of seconds, 0 or more, not -1"),
    (["resume", "no-such.pblog", "--bind", "tcp://127.0.0.1:0"], "no such file: no-such.pblog"),
    (["host", "aton", "--option", "win_points=forty"], "win_points='forty' must be a whole number"),
    (["replay", os.path.join(ROOT, "spec", "vectors", "aton.pblog"), "--as", "5"],
     "--as 5: this game has 2 seats, numbered 0 to 1"),
    (["replay", os.path.join(ROOT, "spec", "vectors", "aton.pblog"), "--as", "-1", "--plain"], "--as -1: this game has 2 seats"),
])
def test_the_rough_edges_are_one_line_and_exit_2(args, says, tmp_path):
    out = peerboard(*args, cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.count("\n") == 1 and says in out.stderr and "Traceback" not in out.stderr


@pytest.mark.processes
def test_the_help_says_which_player_a_bot_is():
    top = peerboard("--help").stdout
    assert "random moves unless --strategy or --exec" in " ".join(top.split())
    host = " ".join(peerboard("host", "--help").stdout.split())
    assert "a number (greedy bots)" in host


@pytest.mark.processes
def test_version_says_which_peerboard_and_which_protocol_and_log_format():
    out = peerboard("--version")
    assert out.returncode == 0 and out.stdout.startswith("peerboard 0.")
    assert "protocol version 1" in out.stdout and "log format version 1" in out.stdout


def test_games_shows_each_option_as_the_command_line_takes_it(capsys):
    """What `peerboard games` shows is accepted by `--option` as it is (and Python's True
    and False, which it once showed, are taken too)."""
    from peerboard.client.cli import cmd_games
    from peerboard.client.usage import options_from

    cmd_games(None)
    shown = [line.split("--option ", 1)[1].split(":", 1)[0] for line in capsys.readouterr().out.splitlines()
             if "--option " in line]
    assert "teams=false" in shown and "three_player_areas=ACE" in shown and "handicap={}" in shown
    games = {name: engines.get(name) for name in engines.names()}
    for pair in shown:
        name, _, text = pair.partition("=")
        game = next(g for g in games.values() if name in g.options_schema)
        assert options_from([pair], game) == {name: game.options_schema[name].default}, pair
    athos = games["athos"]
    assert options_from(["teams=False"], athos) == {"teams": False}
    assert options_from(["teams=True"], athos) == {"teams": True}


def test_the_license_is_the_spdx_string_a_current_setuptools_takes_without_warnings():
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert project["project"]["license"] == "MIT"  # (the old `{text = ...}` table warned ~50 lines per build)
    assert project["build-system"]["requires"] == ["setuptools>=77"]  # the first to take the string form


def test_a_fault_of_ours_is_one_line_naming_the_file_that_keeps_its_traceback(tmp_path, monkeypatch, capsys):
    from peerboard.client import cli

    def broken(args):
        raise RuntimeError("a planted fault")

    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "cmd_games", broken)
    assert cli.main(["games"]) == ExitCode.INTERNAL
    err = capsys.readouterr().err
    said = re.fullmatch(r"peerboard: internal error \(RuntimeError\); details in (\S+)\n", err)
    assert said is not None, err
    details = Path(said.group(1)).read_text()
    assert Path(said.group(1)).parent == tmp_path and "RuntimeError: a planted fault" in details
    assert "Traceback (most recent call last)" in details
