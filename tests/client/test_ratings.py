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
    assert "4 log file(s): 2 game(s) counted once each (2 rated, 0 not), 0 unfinished, 1 invalid" in out
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


# -- every copy compared (client/ladder.py, protocol/log/copies.py; docs/ratings.md) ---------------


def ratings_of(tmp_path, monkeypatch, files, **options):
    """`peerboard ratings --json` over a folder holding `files` (name -> bytes)."""
    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path / "home"))
    folder = tmp_path / "club"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.pblog"):
        old.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    out = io.StringIO()
    args = argparse.Namespace(dirs=[str(folder)], json=True, rate_claims=False, roster=None)
    vars(args).update(options)
    assert ratings.command(args, out) == 0
    doc = json.loads(out.getvalue())
    text = io.StringIO()
    args.json = False
    ratings.command(args, text)
    return doc, text.getvalue()


def test_a_forged_copy_beside_the_honest_one_never_wins_whichever_name_sorts_first(tmp_path, monkeypatch):
    from support.forged import forgery

    f = forgery(1)
    for honest_name, forged_name in (("a.pblog", "b.pblog"), ("b.pblog", "a.pblog")):
        doc, text = ratings_of(tmp_path, monkeypatch, {honest_name: f.honest, forged_name: f.forged})
        (game,) = doc["results"]
        assert game["kind"] == "equivocated" and game["rated"] and game["losers"] == [f.loser]
        rows = {r["name"]: r for r in doc["ladders"]["aton"]}
        assert (rows[f"p{f.winner}"]["wins"], rows[f"p{f.loser}"]["losses"]) == (1, 1)
        assert rows[f"p{f.loser}"]["wins"] == 0
        (e,) = doc["equivocations"]
        assert (e["seat"], e["seq"]) == (f.loser, f.cut) and "equivocated" in e["why"]
        (d,) = doc["disputes"]
        assert (d["seat"], d["seq"]) == (f.winner, f.cut)
        assert f"seat {f.loser} (p{f.loser}) equivocated: it signed two histories of entry {f.cut}" in text
        assert f"p{f.winner} beat p{f.loser}  [equivocated]" in text


def test_a_game_won_by_claim_is_marked_and_rated_only_when_asked(tmp_path, monkeypatch):
    from support.forged import forgery

    f = forgery(1)
    doc, text = ratings_of(tmp_path, monkeypatch, {"forged.pblog": f.forged})
    (game,) = doc["results"]
    assert game["kind"] == "claimed" and not game["rated"] and "--rate-claims" in game["why"]
    assert doc["ladders"] == {} and doc["rated"] == 0
    assert "[claimed, not rated: ended by a claim" in text
    doc, text = ratings_of(tmp_path, monkeypatch, {"forged.pblog": f.forged}, rate_claims=True)
    (game,) = doc["results"]
    assert game["kind"] == "claimed" and game["rated"] and game["losers"] == [f.winner]
    rows = {r["name"]: r for r in doc["ladders"]["aton"]}
    assert rows[f"p{f.loser}"]["wins"] == 1
    assert f"p{f.loser} beat p{f.winner}  [claimed]" in text


def test_a_drawn_game_is_rated_a_draw_and_an_aborted_one_not_at_all(tmp_path, monkeypatch):
    from support.vectors import VECTORS

    doc, text = ratings_of(tmp_path, monkeypatch, {n: (VECTORS / n).read_bytes()
                                                   for n in ("athos-drawn.pblog", "asterix-aborted.pblog")})
    kinds = {g["game"]: (g["kind"], g["rated"]) for g in doc["results"]}
    assert kinds == {"athos": ("drawn", True), "asterix": ("aborted", False)}
    assert [r["draws"] for r in doc["ladders"]["athos"]] == [1, 1]
    assert "asterix" not in doc["ladders"]
    assert "[aborted, not rated: aborted by every seat: no result]" in text


def test_a_roster_keeps_the_ladder_to_the_clubs_keys_under_the_clubs_names(tmp_path, monkeypatch):
    from support.forged import forgery
    from peerboard.protocol.log import fingerprint

    f, g = forgery(1), forgery(2)
    keys = [i.public_key for i in f.builder.identities]
    roster = tmp_path / "club.roster"
    roster.write_text(f"# our club\n{keys[0].hex()}  Ann Smith\n{fingerprint(keys[1])} Bob\n")
    doc, text = ratings_of(tmp_path, monkeypatch, {"one.pblog": f.honest, "two.pblog": g.honest}, roster=str(roster))
    rated = [r for r in doc["results"] if r["rated"]]
    assert [r["genesis"] for r in rated] == [read_genesis(f.honest)]
    other = next(r for r in doc["results"] if not r["rated"])
    assert "is not on the roster" in other["why"]
    assert sorted(r["name"] for r in doc["ladders"]["aton"]) == ["Ann Smith", "Bob"]
    assert "rated only between the 2 keys of the roster" in text


def read_genesis(data):
    from peerboard.protocol.log import read_log

    return read_log(data).genesis.hash.hex()


def test_a_roster_that_is_not_one_is_a_usage_error(tmp_path):
    from peerboard.client.roster import parse
    from peerboard.client.usage import UsageError
    import pytest

    for text, said in (("abcd Ann", "neither a key"), ("ab" * 32, "a key and then a name"),
                       (f"{'ab' * 32} Ann\n{'AB' * 32} Ann again", "on the roster already"),
                       (f"{'ab' * 32} Ann\x1b[2J", "printable")):
        with pytest.raises(UsageError, match=said):
            parse(text)


def test_the_ladder_is_ordered_by_the_rating_it_shows(tmp_path, monkeypatch):
    from support.forged import forgery

    files = {f"g{n}.pblog": forgery(n).honest for n in range(1, 4)}
    doc, text = ratings_of(tmp_path, monkeypatch, files)
    shown = [r["rating"] for r in doc["ladders"]["aton"]]
    assert shown == sorted(shown, reverse=True)
    lines = [line for line in text.splitlines() if line.strip()[:1].isdigit() and "±" in line]
    printed = [float(line.split()[-4]) for line in lines]
    assert printed == sorted(printed, reverse=True) and len(printed) == len(shown)


def test_a_disputed_claim_is_listed_and_never_rated_with_or_without_the_claimers_copy(tmp_path, monkeypatch):
    from support.forged import disputed

    d = disputed(1)
    for files in ({"mine.pblog": d.claimed_copy}, {"mine.pblog": d.claimed_copy, "theirs.pblog": d.claimer_copy}):
        for rate_claims in (False, True):
            doc, text = ratings_of(tmp_path, monkeypatch, files, rate_claims=rate_claims)
            (game,) = doc["results"]
            assert game["kind"] == "disputed" and not game["rated"] and doc["ladders"] == {}
            (x,) = doc["disputes"]
            assert (x["seat"], x["seq"]) == (d.claimed, d.claim) and "is disputed: seat 0 (p0) signed its move" in x["why"]
            assert "no result  [disputed, not rated: a claim one seat signed alone, which the claimed seat disputes]" in text
