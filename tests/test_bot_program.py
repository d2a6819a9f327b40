"""Bots in any language (spec/bot-protocol.md): the example bots end to end, what an Aton
bot's program receives, and every kind of misbehaviour."""
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable


def peerboard(*args, timeout=240):
    env = dict(os.environ)
    return subprocess.run([PY, "-m", "peerboard.client.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)


def standing(stdout, label):
    """(games, wins, draws, losses) of the player row starting with `label`."""
    for line in stdout.splitlines():
        if line.startswith(label + " ") or line.startswith(label):
            parts = line[len(label):].split()
            return tuple(int(p) for p in parts[:4])
    raise AssertionError(f"no row for {label} in:\n{stdout}")


def test_the_python_example_plays_whole_games_and_its_logs_verify(tmp_path):
    out = peerboard("selfplay", "aton", "--players", "exec,greedy", "--exec", f"{PY} examples/random_bot.py 5",
                    "--games", "2", "--seed", "1", "--save", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert standing(out.stdout, "exec:python random_bot.py 5")[0] == 2
    assert "faults" in out.stdout and out.stderr == ""
    logs = sorted(tmp_path.glob("*.pblog"))
    assert len(logs) == 2
    for log in logs:
        check = peerboard("replay", str(log), "--verify")
        assert check.returncode == 0 and check.stdout.startswith("valid: aton"), check.stdout


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (the JavaScript example needs it)")
def test_the_node_example_plays_whole_games():
    out = peerboard("selfplay", "asterix", "--players", "exec,random", "--exec", "node examples/random_bot.js",
                    "--games", "2", "--seed", "2", "--option", "max_rounds=5")
    assert out.returncode == 0, out.stderr
    games, wins, draws, losses = standing(out.stdout, "exec:node random_bot.js")
    assert games == 2 and wins + draws + losses == 2 and out.stderr == ""


RECORDER = textwrap.dedent('''
    import json, sys
    record = open(sys.argv[1], "ab")
    for raw in sys.stdin.buffer:
        record.write(raw); record.flush()
        m = json.loads(raw)
        t = m.get("type")
        if t == "hello":
            r = {"protocol": 1, "games": ["aton"], "name": "recorder"}
        elif t == "decide":
            r = {"action": m["legal"][-1]}
        elif t == "error":
            continue
        else:
            r = {"ok": True}
        print(json.dumps(r), flush=True)
''')


def test_an_aton_programs_input_never_holds_the_opponents_hand(tmp_path):
    bot = tmp_path / "recorder.py"
    bot.write_text(RECORDER)
    record = tmp_path / "input.jsonl"
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", f"{PY} {bot} {record}",
                    "--games", "2", "--seed", "3")
    assert out.returncode == 0, out.stderr
    lines = record.read_bytes().splitlines()
    decides = [json.loads(line) for line in lines if b'"type":"decide"' in line]
    assert len(decides) > 50
    for m in decides:
        me, opp = m["seat"], 1 - m["seat"]
        seats = m["view"]["seats"]
        assert seats[opp]["hand"] is None and isinstance(seats[me]["hand"], list)
        # the only hand in the bytes is the program's own: one "hand":[...] per message
        raw = json.dumps(m, separators=(",", ":"))
        assert raw.count('"hand":[') == 1
        assert "hidden" in m["view"]["text"] or seats[opp]["hand_size"] == 0
    # the program heard of no card drawn, by anyone
    actions = [json.loads(line) for line in lines if b'"type":"action"' in line]
    assert actions and not any(t.startswith("draw") for a in actions for t in a["actions"])


BAD = textwrap.dedent('''
    import json, sys, time
    mode = sys.argv[1]
    for raw in sys.stdin:
        m = json.loads(raw)
        t = m.get("type")
        if t == "hello":
            r = {"protocol": 1, "games": ["aton"]}
        elif t == "decide":
            if mode == "garbage":
                print("I think, therefore I am", flush=True); continue
            if mode == "illegal":
                r = {"action": "place 9.9"}
            if mode == "hang":
                time.sleep(60)
            if mode == "crash":
                sys.exit(3)
        elif t == "error":
            continue
        else:
            r = {"ok": True}
        print(json.dumps(r), flush=True)
''')


@pytest.mark.parametrize("mode, says", [
    ("garbage", "answered a decision with 'I think, therefore I am', which is not JSON"),
    ("illegal", "answered 'place 9.9', which is not one of the"),
    ("hang", "did not answer a decision within 0.5 s"),
    ("crash", "exited (status 3) instead of answering a decision"),
])
def test_a_misbehaving_program_gets_one_line_and_its_seat_plays_random(tmp_path, mode, says):
    bot = tmp_path / "bad.py"
    bot.write_text(BAD)
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", f"{PY} {bot} {mode}",
                    "--games", "2", "--seed", "4", "--time", "0.5", "--save", str(tmp_path / "logs"))
    assert out.returncode == 0, out.stderr
    faults = [line for line in out.stderr.splitlines() if line.startswith("game ")]
    assert len(faults) == 2  # one line per game, and nothing else
    for line in faults:
        assert re.match(r"game [12]: seat [01] \(exec:python bad\.py " + mode + r"\) ", line), line
        assert says in line and line.endswith("the seat is played by the random player from here")
    journal = (tmp_path / "logs" / "selfplay.log").read_text()
    assert all(line in journal for line in faults)
    label = f"exec:python bad.py {mode}"
    games, wins, draws, losses = standing(out.stdout, label)
    assert games == 2 and wins + draws + losses == 2  # the games went on to their end
    for log in (tmp_path / "logs").glob("*.pblog"):
        assert peerboard("replay", str(log), "--verify").returncode == 0


def test_a_forfeiting_program_loses_every_game_it_failed_in(tmp_path):
    bot = tmp_path / "bad.py"
    bot.write_text(BAD)
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", f"{PY} {bot} illegal",
                    "--games", "4", "--seed", "5", "--on-error", "forfeit")
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("forfeits the game (it plays random moves to the end)") == 4
    assert standing(out.stdout, "exec:python bad.py illegal") == (4, 0, 0, 4)
    assert standing(out.stdout, "random") == (4, 4, 0, 0)
    assert "4 (4 forfeit)" in out.stdout


def test_a_program_that_does_not_play_the_game_is_told_and_replaced(tmp_path):
    bot = tmp_path / "chess.py"
    bot.write_text(BAD.replace('"games": ["aton"]', '"games": ["chess"]'))
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", f"{PY} {bot} illegal", "--seed", "6")
    assert out.returncode == 0
    assert "does not play aton (it plays chess)" in out.stderr


def test_the_example_bot_answers_a_message_it_does_not_know_with_an_error():
    proc = subprocess.run([PY, "examples/random_bot.py"], input='{"type":"hello","protocol":1}\n{"type":"ponder"}\n',
                          capture_output=True, text=True, cwd=ROOT, timeout=30)
    hello, error = (json.loads(line) for line in proc.stdout.splitlines())
    assert hello["protocol"] == 1 and hello["games"] == "*"  # any game it is offered
    assert error == {"error": "unknown message type 'ponder'"}
