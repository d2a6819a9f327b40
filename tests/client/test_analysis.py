"""`peerboard analyse`: a planted blunder is found and the better move named; a seat is
judged by what it could see; the analysis file names its log and is deterministic."""
import io
import json
import random

import pytest

from peerboard import engines
from peerboard.client.analysis import document
from peerboard.client.analysis.command import analyse, rng_for
from peerboard.client.analysis.judge import BLUNDER, judge
from peerboard.client.analysis.positions import Position, positions
from peerboard.client.bots.players import GreedyBot
from peerboard.client.bots.sdk import Bot, Budget
from peerboard.client.bots.table import play_game
from peerboard.client.bots.tournament import InProcess
from peerboard.client.selfplay import write_log
from peerboard.logs import read_log
from support import new_game

GOAL = 20


@pytest.fixture
def pig(monkeypatch):
    """Pig (tests/support/newgame/pig), registered for the test (support/new_game.py)."""
    yield new_game.register(monkeypatch)
    new_game.forget()


class Banker(Bot):
    """Holds at a turn total of 4 or more, or when holding wins."""

    name = "banker"

    def decide(self, decision):
        state = decision.view
        if ("hold",) not in decision.legal:
            return decision.legal[0]
        if state.total >= 4 or state.banked[decision.seat] + state.total >= state.goal:
            return ("hold",)
        return ("roll",)


class Planter(Banker):
    """Plays as the Banker, except once: two points short of the goal, with the other seat
    near it too, it holds — giving the turn (and most likely the game) to the other seat,
    where any roll but a 1 would have won."""

    name = "planter"

    def __init__(self, seed=0, budget=None):
        super().__init__(seed, budget)
        self.planted = False

    def decide(self, decision):
        state = decision.view
        me, other = decision.seat, 1 - decision.seat
        if (not self.planted and ("hold",) in decision.legal and state.total > 0
                and state.banked[me] + state.total == state.goal - 2 and state.banked[other] >= state.goal - 4):
            self.planted = True
            return ("hold",)
        if state.banked[me] + state.total == state.goal - 2:
            return ("roll",)  # (walks into the planted position when the dice allow)
        return super().decide(decision)


def planted_game(pig, tmp_path):
    """A Pig game in which seat 0 made the planted blunder (the first seed that led there)."""
    for seed in range(200):  # bounded: about one seed in a few leads there
        planter = Planter()
        played = play_game(pig, {"goal": GOAL}, [planter, Banker()], ["ann", "bob"], random.Random(seed))
        if planter.planted:
            path = tmp_path / f"pig-{seed}.pblog"
            write_log(path, played.genesis, played.entries)
            return path
    pytest.fail("no seed up to 200 led the planter into its position")


def blunder_seq(path):
    """The seq of the planted hold: the entry where seat 0 held at goal - 2."""
    contents = read_log(path.read_bytes())
    game, found = positions(contents)
    for p in found:
        if p.seat == 0 and p.played == ("hold",) and p.view.banked[0] + p.view.total == GOAL - 2 and p.view.total:
            return p.seq
    raise AssertionError("the planted hold is not in the log")


def run_analyse(paths, budget="300", seed=0):
    out, err = io.StringIO(), io.StringIO()
    code = analyse(paths, Budget.parse(budget), seed, InProcess(), out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_planted_blunder_is_marked_at_its_entry_with_the_move_that_kept_the_win(pig, tmp_path):
    path = planted_game(pig, tmp_path)
    seq = blunder_seq(path)
    code, out, err = run_analyse([path])
    assert code == 0, err
    doc = json.loads(document.path_for(path).read_text())
    (move,) = [m for m in doc["moves"] if m["seq"] == seq]
    assert move["mark"] == "blunder" and move["drop"] >= BLUNDER
    assert move["played"] == "hold" and move["preferred"] == "roll"
    assert move["before"][0] > 0.6 > 0.5 > move["after"][0]
    # the report names it among seat 0's costliest moves, with the better move
    assert f"seq {seq} blunder: played hold" in out and "better roll" in out


def test_the_analysis_file_names_its_log_and_a_seed_replays_it(pig, tmp_path):
    path = planted_game(pig, tmp_path)
    run_analyse([path], budget="60", seed=5)
    first = document.path_for(path).read_text()
    run_analyse([path], budget="60", seed=5)
    assert document.path_for(path).read_text() == first
    doc = json.loads(first)
    contents = read_log(path.read_bytes())
    assert doc["log"]["head"] == contents.entries[-1].hash.hex()
    assert doc["log"]["genesis"] == contents.genesis.hash.hex()
    assert document.read(document.path_for(path), contents)["moves"] == doc["moves"]


def test_an_invalid_log_is_one_line_and_the_others_are_analysed(pig, tmp_path):
    good = planted_game(pig, tmp_path)
    bad = tmp_path / "bad.pblog"
    data = bytearray(good.read_bytes())
    data[-40] ^= 1
    bad.write_bytes(bytes(data))
    code, out, err = run_analyse([bad, good], budget="20")
    assert code == 1
    assert err.count("\n") == 1 and err.startswith(f"{bad}: not analysed: invalid at seq")
    assert document.path_for(good).exists() and not document.path_for(bad).exists()


def aton_log(tmp_path):
    game = engines.get("aton")
    played = play_game(game, {}, [GreedyBot(seed=1), GreedyBot(seed=2)], ["ann", "bob"], random.Random(4))
    path = tmp_path / "aton.pblog"
    write_log(path, played.genesis, played.entries)
    return game, path


def test_a_hidden_hand_does_not_change_the_judgement_of_a_move(tmp_path):
    """Seat 0's decisions judged again from a position in which seat 1 holds other cards
    (dealt from the cards seat 0 has not seen): the same judgement every time. Given the
    full positions instead, the judgement does differ: the test sees a leak."""
    game, path = aton_log(tmp_path)
    _, found = positions(read_log(path.read_bytes()))
    mine = [p for p in found if p.seat == 0 and not p.forced][:4]
    leaks = 0
    for p in mine:
        one = game.determinize(p.view, 0, bytes(32))
        other = game.determinize(p.view, 0, bytes([7]) * 32)
        assert one.seats[1].hand != other.seats[1].hand or one.seats[1].hand_size == 0
        judged = [judge(game, Position(p.seq, p.index, 0, p.kind, game.view(s, 0), p.legal, p.played),
                        Budget(playouts=40), rng_for(0, p)) for s in (one, other)]
        assert judged[0] == judged[1] == judge(game, p, Budget(playouts=40), rng_for(0, p))
        cheats = [judge(game, Position(p.seq, p.index, 0, p.kind, s, p.legal, p.played),
                        Budget(playouts=40), rng_for(0, p)) for s in (one, other)]
        leaks += cheats[0] != cheats[1]
    assert leaks  # a search that saw seat 1's cards would judge differently


@pytest.mark.processes
def test_the_analysis_on_a_dask_cluster_is_the_analysis_here(tmp_path):
    """Slow (10-20 s): a local Dask cluster of two worker processes starts before the analysis runs."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        pytest.skip("Dask is not installed (pip install 'peerboard[cluster]'); the cluster test needs it")
    _, path = aton_log(tmp_path)
    run_analyse([path], budget="10", seed=3)
    here = json.loads(document.path_for(path).read_text())
    document.path_for(path).unlink()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        code = analyse([path], Budget(playouts=10), 3, client.get_executor(), io.StringIO(), io.StringIO())
    assert code == 0
    assert json.loads(document.path_for(path).read_text()) == here


def test_f7_in_the_viewer_analyses_the_log_and_the_graph_appears(pig, tmp_path, monkeypatch):

    from peerboard.client.analysis import command
    from peerboard.client.tui.replay import load
    from peerboard.client.tui.replay_presenter import ReplayPresenter
    from support.tui_harness import Screen, run

    monkeypatch.setattr(command, "DEFAULT_BUDGET", Budget(playouts=30))
    path = planted_game(pig, tmp_path)
    seq = blunder_seq(path)

    async def body():
        source, _ = load(path)
        assert source.analysis is None and "no analysis beside the log" in source.analysis_note
        async with Screen(ReplayPresenter(source), 120, 40) as screen:
            await screen.until(lambda: source.verdict is not None)
            assert "to win ·" not in screen.text()
            await screen.press("\x1b[18~")  # F7
            await screen.until(lambda: source.analysis is not None, 60)
            await screen.type(str(seq))
            assert "to win ·" in screen.text() and f"seq {seq} seat 0 ann: hold" in screen.text()
            assert "Analysed" in screen.text() or "hold ?" in screen.text()

    run(body())
    assert document.path_for(path).exists()


def test_the_graph_rises_and_falls_with_the_chance_and_marks_the_blunder_and_the_current_entry():
    from peerboard.client.tui.win_graph import Track, fragments

    def move(seq, before, after, mark):
        return {"seq": seq, "index": 0, "seat": 0, "kind": "move", "played": "hold", "preferred": "roll",
                "before": [before, 1 - before], "after": [after, 1 - after], "drop": max(0, before - after),
                "mark": mark}

    doc = {"seats": [{"name": "ann"}, {"name": "bob"}],
           "moves": [move(1, 0.5, 1.0, ""), move(2, 1.0, 0.0, "blunder")]}
    track = Track(doc, 3)  # positions 0 (the genesis), 1 and 2
    assert [c[0] for c in track.chances] == [0.5, 1.0, 0.0]
    assert track.sign(2) == "??" and track.sign(1) == ""
    assert "hold blunder, 100% -> 0%; better roll" in track.line(2, ["ann", "bob"])
    cells = fragments(track, 0, current=0, width=3, rows=2)
    rows = "".join(text for _, text in cells).split("\n")
    # position 0: half (the bottom row), marked as the current one; 1: full; 2: nothing
    assert rows == ["│█ ", "██ "]
    styles = [style for style, text in cells if text != "\n"]
    assert styles[0] == "class:cursor" and styles[2] == "class:status.error"


def test_the_opponents_hand_changed_in_the_audit_leaves_a_seats_judgement_unchanged(tmp_path):
    """Two Aton logs alike in everything seat 0 could see — the same public randomness and
    the same own seed — but with seat 1 holding other cards (another private seed, which
    the audit reveals): seat 0's decisions that it faced alike are judged alike."""
    from hashlib import sha256

    from peerboard.client.bots.sdk import Decision, notation_of
    from peerboard.protocol.log.builder import LogBuilder, new_genesis
    from peerboard.protocol.log.identity import Identity
    from peerboard.protocol.log.records import sign_genesis
    from peerboard.protocol.log.secrets import SeatSecrets

    class OtherSeed(SeatSecrets):
        @property
        def seed(self):
            return sha256(b"another hand" + self.master).digest()

    game = engines.get("aton")

    def build(second, name):
        rng = random.Random(9)
        identities = [Identity.from_seed(bytes([1]) * 32), Identity.from_seed(bytes([2]) * 32)]
        secrets = [SeatSecrets.from_master(bytes([3]) * 32), second.from_master(bytes([4]) * 32)]
        genesis = sign_genesis(new_genesis(game, {}, ["ann", "bob"], identities, secrets, bytes(16)), identities)
        log = LogBuilder(genesis, identities, secrets, lambda: rng.randbytes(16))
        bots = [GreedyBot(seed=1), GreedyBot(seed=2)]

        def choose(state, seat, legal):
            view = game.view(state, seat)
            kind = log.ledger.entitled()[1]
            return bots[seat].decide(Decision(game.name, game, seat, view, tuple(legal),
                                              notation_of(game, view, legal), kind))

        for _ in range(5000):
            if log.ledger.finished:
                break
            log.step(choose)
        path = tmp_path / name
        write_log(path, log.ledger.genesis, log.entries)
        return path

    paths = [build(SeatSecrets, "same.pblog"), build(OtherSeed, "other.pblog")]
    found = [positions(read_log(p.read_bytes()))[1] for p in paths]
    # seat 1's own first view: its hand differs between the two logs
    first_of_1 = [next(p for p in f if p.seat == 1) for f in found]
    assert first_of_1[0].view.seats[1].hand != first_of_1[1].view.seats[1].hand
    # seat 0's decisions while what it saw was the same in both
    alike = []
    for a, b in zip([p for p in found[0] if p.seat == 0], [p for p in found[1] if p.seat == 0]):
        if (a.seq, a.index, a.view, a.legal) != (b.seq, b.index, b.view, b.legal):
            break
        alike.append(a)
    judged = [p for p in alike if not p.forced]
    assert judged, "no decision of seat 0 was faced alike in the two logs"
    for p in paths:
        run_analyse([p], budget="40")
    docs = [json.loads(document.path_for(p).read_text()) for p in paths]
    for p in judged:
        records = [[m for m in d["moves"] if (m["seq"], m["index"]) == (p.seq, p.index)] for d in docs]
        assert records[0] and records[0] == records[1]
