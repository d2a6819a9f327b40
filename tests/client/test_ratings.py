"""`peerboard ratings`: every copy verified, a tampered one listed and left out, each game
counted once by its genesis, a ladder with W/D/L and a rating per key."""
import argparse
import io
import json
import random

from peerboard import engines
from peerboard.client import ratings
from peerboard.client.bots.players import GreedyBot, RandomBot
from peerboard.client.bots.table import play_game
from peerboard.client.selfplay import write_log


def aton_game(path, seed, names):
    played = play_game(engines.get("aton"), {}, [GreedyBot(seed=seed), RandomBot(seed=seed)], names,
                       random.Random(seed))
    write_log(path, played.genesis, played.entries)
    return played


def run(dirs, as_json=False):
    out = io.StringIO()
    code = ratings.command(argparse.Namespace(dirs=[str(d) for d in dirs], json=as_json), out)
    return code, out.getvalue()


def test_a_tampered_copy_is_left_out_and_its_game_still_counted_once(tmp_path, monkeypatch):
    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path / "home"))
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    ann.mkdir()
    bob.mkdir()
    first = aton_game(ann / "one.pblog", 1, ["ann", "mcts"])
    # bob's copy of the same game, and a copy someone edited: one byte of a signature
    (bob / "one.pblog").write_bytes((ann / "one.pblog").read_bytes())
    data = bytearray((ann / "one.pblog").read_bytes())
    data[-20] ^= 0x01
    (bob / "one-edited.pblog").write_bytes(bytes(data))
    second = aton_game(ann / "two.pblog", 2, ["ann", "mcts"])
    code, out = run([ann, bob])
    assert code == 0
    assert "4 log file(s): 2 finished game(s) counted once each, 0 unfinished, 1 invalid" in out
    assert f"left out: {bob / 'one-edited.pblog'}: invalid at seq" in out
    code, text = run([ann, bob], as_json=True)
    doc = json.loads(text)
    assert doc["games"] == 2 and [i["file"] for i in doc["invalid"]] == [str(bob / "one-edited.pblog")]
    rows = doc["ladders"]["aton"]
    # each game has fresh keys (a bot table's): four players of one game each
    assert sorted(r["games"] for r in rows) == [1, 1, 1, 1]
    wins = {r["fingerprint"]: (r["wins"], r["draws"], r["losses"]) for r in rows}
    from peerboard.protocol.log.identity import fingerprint
    for played in (first, second):
        for seat, s in enumerate(played.genesis.terms.seats):
            won = seat in played.winners
            draw = not played.winners
            assert wins[fingerprint(s.key)] == (int(won), int(draw), int(not won and not draw))
    assert [r["bot"] for r in rows if r["name"] == "mcts"] == [True, True]
    assert [r["bot"] for r in rows if r["name"] == "ann"] == [False, False]
    best = rows[0]
    assert best["wins"] == 1 and best["mu"] > 25 > rows[-1]["mu"]


class _Keys:
    """os for play_game with the seats' signing keys chosen: the same player (key) at
    several games, as at a club."""

    def __init__(self, keys):
        self._keys = list(keys)

    def urandom(self, n):
        return self._keys.pop(0)


def test_a_player_is_its_key_across_games_with_the_name_it_last_used(tmp_path, monkeypatch):
    from peerboard.client.bots import table
    from peerboard.protocol.log.identity import fingerprint

    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path / "home"))
    ann_key, bob_key = bytes([1]) * 32, bytes([2]) * 32
    games = tmp_path / "games"
    games.mkdir()
    results = []
    for n, (keys, names) in enumerate([((ann_key, bob_key), ["ann", "bob"]), ((bob_key, ann_key), ["bob", "ann"]),
                                       ((ann_key, bob_key), ["anna", "bob"])]):
        monkeypatch.setattr(table, "os", _Keys(keys))
        played = aton_game(games / f"g{n}.pblog", n + 10, names)
        results.append((played.genesis.terms.seats, played.winners))
    code, text = run([games], as_json=True)
    rows = {r["name"]: r for r in json.loads(text)["ladders"]["aton"]}
    assert set(rows) == {"anna", "bob"}  # ann's key, by the name it used last
    ann_print = fingerprint(results[0][0][0].key)
    assert rows["anna"]["fingerprint"] == ann_print and rows["anna"]["games"] == rows["bob"]["games"] == 3
    won = {"anna": 0, "bob": 0}
    for seats, winners in results:
        for w in winners:
            won["anna" if fingerprint(seats[w].key) == ann_print else "bob"] += 1
    assert rows["anna"]["wins"] == won["anna"] and rows["bob"]["wins"] == won["bob"]
    assert rows["anna"]["wins"] + rows["anna"]["draws"] + rows["anna"]["losses"] == 3
    if won["anna"] != won["bob"]:
        better = max(won, key=won.get)
        assert rows[better]["mu"] > rows[min(won, key=won.get)]["mu"]
