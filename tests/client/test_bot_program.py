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

pytestmark = pytest.mark.processes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


# A version-1 program that plays its first decision and misbehaves at its second.
BAD = textwrap.dedent('''
    import json, sys, time
    mode = sys.argv[1]
    decisions = 0
    for raw in sys.stdin:
        m = json.loads(raw)
        t = m.get("type")
        if t == "hello":
            r = {"protocol": 1, "games": ["aton"]}
        elif t == "decide":
            decisions += 1
            r = {"action": m["legal"][0]}
            if decisions == 1:
                pass
            elif mode == "garbage":
                print("I think, therefore I am", flush=True); continue
            elif mode == "illegal":
                r = {"action": "place 9.9"}
            elif mode == "hang":
                time.sleep(60)
            elif mode == "crash":
                sys.exit(3)
        elif t == "error":
            continue
        else:
            r = {"ok": True}
        print(json.dumps(r), flush=True)
''')


@pytest.mark.parametrize("mode, says", [
    ("garbage", "answered a decision with 'I think, therefore I am', which is not JSON at its decision 2"),
    ("illegal", "answered 'place 9.9', which is not one of the"),
    ("hang", "did not answer a decision within 0.5 s at its decision 2"),
    ("crash", "exited (status 3) instead of answering a decision at its decision 2"),
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
    assert all(" in on_" not in line for line in faults)  # no hook names of the SDK
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
                    "--games", "4", "--seed", "5", "--on-error", "forfeit", "--save", str(tmp_path / "logs"))
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("forfeits the game (it plays random moves to the end)") == 4
    assert standing(out.stdout, "exec:python bad.py illegal") == (4, 0, 0, 4)
    assert standing(out.stdout, "random") == (4, 4, 0, 0)
    assert "  4 (4 forfeit)" in out.stdout  # the faults column apart from the interval
    journal = (tmp_path / "logs" / "selfplay.log").read_text().splitlines()
    results = [line for line in journal if " won by " in line]
    assert len(results) == 4
    for line in results:  # the table's result, and the board's: the word forfeit in between
        assert re.search(r"won by \d \(seat \d forfeited; on the board: won by (\d|nobody)\)", line), line


def test_a_program_that_does_not_play_the_game_is_told_and_replaced(tmp_path):
    bot = tmp_path / "chess.py"
    bot.write_text(BAD.replace('"games": ["aton"]', '"games": ["chess"]'))
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", f"{PY} {bot} illegal", "--seed", "6")
    assert out.returncode == 5  # it never chose a move
    assert "does not play aton (it plays chess) at the start of the game" in out.stderr


def test_a_program_that_cannot_be_started_has_no_results_and_selfplay_exits_5():
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", "nod bot.js", "--games", "2",
                    "--seed", "1")
    assert out.returncode == 5, out.stderr
    assert out.stderr.count("could not be started ('nod bot.js': No such file or directory) at the start of "
                            "the game") == 2
    row = next(line for line in out.stdout.splitlines() if line.startswith("exec:nod bot.js "))
    assert row.split()[2:8] == ["0", "0", "0", "0", "-", "-"] and row.endswith("2 (2 never played)")
    assert "exec:nod bot.js never chose a move" in out.stdout
    assert "exec:nod bot.js: never chose a move in any game" in out.stderr


# A version-2 program (spec/bot-protocol.md): it records what it hears and answers only decisions.
RECORDER_2 = textwrap.dedent('''
    import json, sys
    record = open(sys.argv[1], "ab")
    for raw in sys.stdin.buffer:
        record.write(raw); record.flush()
        m = json.loads(raw)
        t = m.get("type")
        if t == "hello":
            assert 2 in m["protocols"]
            print(json.dumps({"protocol": 2, "games": "*", "name": "second edition"}), flush=True)
        elif t == "decide":
            print(json.dumps({"action": m["legal"][0]}), flush=True)
        elif len(sys.argv) > 2 and t == "action":  # a stray reply: version 2 answers no notification
            print(json.dumps({"ok": True}), flush=True)
''')


def test_a_version_2_program_answers_only_its_decisions_and_gets_a_seed_per_game(tmp_path):
    bot = tmp_path / "second.py"
    bot.write_text(RECORDER_2)
    record = tmp_path / "input.jsonl"
    out = peerboard("selfplay", "asterix", "--players", "exec,random", "--exec", f"{PY} {bot} {record}",
                    "--games", "2", "--seed", "3", "--option", "max_rounds=2")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert "exec:python second.py" in out.stdout and "calls itself 'second edition'" in out.stdout
    heard = [json.loads(line) for line in record.read_bytes().splitlines()]
    kinds = [m["type"] for m in heard]
    assert kinds.count("hello") == 2 and kinds.count("start") == 2 and kinds.count("end") == 2
    assert kinds.count("decide") > 4 and kinds.count("action") > kinds.count("decide")
    assert all("text" in m["view"] for m in heard if m["type"] == "decide")  # it did not say "text": false
    seeds = [m["seed"] for m in heard if m["type"] == "start"]
    assert seeds[0] != seeds[1] and all(isinstance(s, int) and 0 <= s < 2 ** 32 for s in seeds)
    again = tmp_path / "again.jsonl"
    peerboard("selfplay", "asterix", "--players", "exec,random", "--exec", f"{PY} {bot} {again}",
              "--games", "2", "--seed", "3", "--option", "max_rounds=2")
    assert [m["seed"] for m in map(json.loads, again.read_bytes().splitlines()) if m["type"] == "start"] == seeds


def test_a_stray_reply_is_blamed_on_what_the_program_last_answered_and_it_is_told(tmp_path):
    bot = tmp_path / "second.py"
    bot.write_text(RECORDER_2)
    record = tmp_path / "input.jsonl"
    out = peerboard("selfplay", "asterix", "--players", "exec,random", "--exec", f"{PY} {bot} {record} stray",
                    "--games", "1", "--seed", "3", "--option", "max_rounds=2")
    faults = [line for line in out.stderr.splitlines() if line.startswith("game 1: seat")]
    assert len(faults) == 1, out.stderr
    assert "answers nothing" in faults[0] and " in on_" not in faults[0], faults[0]
    told = [json.loads(line) for line in record.read_bytes().splitlines() if b'"type":"error"' in line]
    assert len(told) == 1 and "answers nothing" in told[0]["error"]


def test_a_version_1_program_that_answers_a_decision_twice_is_blamed_for_that_decision(tmp_path):
    bot = tmp_path / "twice.py"
    bot.write_text(textwrap.dedent('''
        import json, sys
        for raw in sys.stdin:
            m = json.loads(raw)
            if m["type"] == "hello":
                print(json.dumps({"protocol": 1}), flush=True)
            elif m["type"] == "decide":
                print(json.dumps({"action": m["legal"][0]}), flush=True)
                print(json.dumps({"action": m["legal"][0]}), flush=True)  # once too often
            elif m["type"] != "error":
                print(json.dumps({"ok": True}), flush=True)
    '''))
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", f"{PY} {bot}", "--seed", "2")
    (line,) = [line for line in out.stderr.splitlines() if line.startswith("game 1: seat 0")]
    assert "its decision 1" in line and ("answers nothing" in line or "a second answer" in line), line
    assert " in on_" not in line and "the start" not in line


def test_a_program_that_takes_too_long_is_sent_the_promised_error(tmp_path):
    bot = tmp_path / "slow.py"
    bot.write_text(textwrap.dedent('''
        import json, sys, time
        record = open(sys.argv[1], "ab")
        for raw in sys.stdin.buffer:
            record.write(raw); record.flush()
            m = json.loads(raw)
            if m["type"] == "hello":
                print(json.dumps({"protocol": 2}), flush=True)
            elif m["type"] == "decide":
                time.sleep(0.6)  # past its time: peerboard says so, then closes its input
    '''))
    record = tmp_path / "input.jsonl"
    out = peerboard("selfplay", "aton", "--players", "exec,random", "--exec", f"{PY} {bot} {record}",
                    "--games", "1", "--seed", "3", "--time", "0.3")
    assert "did not answer a decision within 0.3 s at its decision 1" in out.stderr
    told = [json.loads(line) for line in record.read_bytes().splitlines() if b'"type":"error"' in line]
    assert told == [{"type": "error", "error": "no answer to a decision within 0.3 s"}]


def test_the_example_bot_answers_a_message_it_does_not_know_with_an_error():
    proc = subprocess.run([PY, "examples/random_bot.py"], input='{"type":"hello","protocol":1}\n{"type":"ponder"}\n',
                          capture_output=True, text=True, cwd=ROOT, timeout=30)
    hello, error = (json.loads(line) for line in proc.stdout.splitlines())
    assert hello["protocol"] == 1 and hello["games"] == "*"  # any game it is offered
    assert error == {"error": "unknown message type 'ponder'"}


def test_the_examples_speak_version_2_and_ask_for_no_drawn_board():
    from peerboard.client.bots.program import ProgramBot

    commands = [f"{PY} examples/random_bot.py"] + (["node examples/random_bot.js"] if shutil.which("node") else [])
    for command in commands:
        bot = ProgramBot(command)
        try:
            assert bot.introduce() in ("example-python", "example-node")
            assert bot.protocol == 2 and bot.text is False
        finally:
            bot.close()
    old = ProgramBot(f"{PY} examples/random_bot.py")
    old.protocols = (1,)  # a peerboard that offers version 1 alone
    try:
        old.introduce()
        assert old.protocol == 1
    finally:
        old.close()
