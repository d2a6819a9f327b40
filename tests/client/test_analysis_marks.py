"""A mark is a claim with evidence (issue 40): a move is marked only when the search is sure
of the drop, a close call gets more playouts and is said to be close, a step the seat did
not choose (forced, or a pass a client puts in by itself) is never judged, and the report
lists what it counts."""
import io
import json
import random

import pytest

from peerboard import engines
from peerboard.client.analysis import command, document
from peerboard.client.analysis.command import analyse, analyse_here
from peerboard.client.analysis import judge
from peerboard.client.analysis.judge import (BLUNDER, CHECKS, EXTRA, MISTAKE, T_CHECKS, Z, mark_of, sureness,
                                             undecided)
from peerboard.client.analysis.positions import positions
from peerboard.client.bots.players import GreedyBot, RandomBot
from peerboard.client.bots.sdk import Budget
from peerboard.client.bots.table import play_game
from peerboard.client.bots.tournament import InProcess
from peerboard.client.selfplay import write_log
from peerboard.logs import read_log


# -- the rule of a mark ---------------------------------------------------------------------

def test_a_drop_is_a_mistake_only_when_its_bound_clears_the_threshold():
    assert mark_of(0.30, 0.01) == "blunder"
    assert mark_of(0.30, 0.04) == "mistake"  # 0.30 - 1.96 * 0.04 = 0.22: surely a mistake, not surely a blunder
    assert mark_of(0.16, 0.02) == "mistake"
    assert mark_of(0.16, 0.05) == "close"  # 0.16 - 0.098 < 0.10: not sure
    assert mark_of(0.08, 0.05) == ""  # below the threshold: never marked, never close
    assert mark_of(0.0, 0.0) == ""


def test_how_sure_is_the_chance_that_the_move_lost_at_least_the_mistake_threshold():
    assert sureness(MISTAKE, 0.05) == pytest.approx(0.5)
    assert sureness(MISTAKE + Z * 0.05, 0.05) == pytest.approx(0.975, abs=1e-3)
    assert sureness(0.0, 0.05) < 0.03
    assert sureness(0.2, 0.0) == 1.0 and sureness(0.05, 0.0) == 0.0


def test_more_playouts_are_spent_only_where_they_could_change_the_mark():
    assert undecided(0.12, 0.05)  # could be a mistake or not
    assert not undecided(0.30, 0.01)  # surely a blunder
    assert not undecided(0.02, 0.10)  # looks fine: not chased
    assert not undecided(0.12, 0.005)  # surely a mistake


# -- a drop that would be marked is checked by searches of their own ---------------------------

def _check(drop, error, before=0.6):
    chances = ((before, 1 - before), (before - drop, 1 - before + drop), error)
    return judge._Check(chances, chances, 100, 200)


def test_checks_that_disagree_leave_the_move_unmarked():
    # two searches say 0.22, two say 0.00, each sure of itself (Asterix's searches did so):
    # the mean is 0.11 and the spread says nothing is sure
    (_, _, _), (before, after, error) = judge._pooled([_check(0.22, 0.01), _check(0.0, 0.01)] * 2, seat=0)
    assert before[0] - after[0] == pytest.approx(0.11)
    spread = (sum((d - 0.11) ** 2 for d in (0.22, 0.0, 0.22, 0.0)) / 3) ** 0.5
    assert error == pytest.approx(spread / 2 * T_CHECKS / Z)
    assert mark_of(before[0] - after[0], error) == "close"


def test_checks_that_agree_mark_the_move_and_their_own_errors_bound_the_spread():
    (_, _, _), (before, after, error) = judge._pooled([_check(0.18, 0.01)] * 4, seat=0)
    assert before[0] - after[0] == pytest.approx(0.18)
    # no spread at all: the error is the checks' own (0.01 over 2), not 0
    assert error == pytest.approx(0.01 / 2 * T_CHECKS / Z)
    assert mark_of(before[0] - after[0], error) == "mistake"
    # and every seat's chances are the checks' means, still adding up to 1
    assert sum(before) == pytest.approx(1) and sum(after) == pytest.approx(1)


def test_a_move_is_checked_exactly_when_its_first_drop_reaches_the_threshold(monkeypatch, tmp_path):
    # a low threshold, so that a short game between a random and a greedy player has such moves
    monkeypatch.setattr(judge, "MISTAKE", 0.02)
    game = engines.get("athos")
    played = play_game(game, {}, [RandomBot(seed=1), GreedyBot(seed=2)], ["ann", "bob"], random.Random(3),
                       max_moves=120)
    write_log(tmp_path / "athos.pblog", played.genesis, played.entries)
    contents = read_log((tmp_path / "athos.pblog").read_bytes())
    doc = analyse_here(contents, "athos.pblog", Budget(playouts=16))
    checked = [m for m in doc["moves"] if m["checks"]]
    unchecked = [m for m in doc["moves"] if not m["checks"]]
    assert checked and unchecked
    for m in checked:
        # the checks' playouts: each of the CHECKS searches gives both actions at least 8
        assert m["checks"] == CHECKS and m["played_playouts"] >= 8 * CHECKS and m["preferred_playouts"] >= 8 * CHECKS
    # a move not checked kept the first search's drop, below the threshold
    assert all(m["drop"] < 0.02 for m in unchecked)
    # the same seed gives the same file: the checks' generators come from the decision's
    assert analyse_here(contents, "athos.pblog", Budget(playouts=16)) == doc


# -- a log of Athos: passes -----------------------------------------------------------------

@pytest.fixture(scope="module")
def athos_log(tmp_path_factory):
    game = engines.get("athos")
    played = play_game(game, {}, [GreedyBot(seed=1), GreedyBot(seed=2)], ["ann", "bob"], random.Random(3),
                       max_moves=60)
    path = tmp_path_factory.mktemp("athos") / "athos.pblog"
    write_log(path, played.genesis, played.entries)
    return game, path


def test_a_pass_is_walked_but_not_judged(athos_log):
    game, path = athos_log
    _, found = positions(read_log(path.read_bytes()))
    passes = [p for p in found if p.passed]
    assert passes, "the greedy players ended no part of a turn"
    texts = {game.format_action(p.view, p.played) for p in passes}
    assert texts <= {"end move", "skip athos", "end turn"}
    assert all(not p.judged for p in passes)
    # the choices around them are judged: a placement, a step
    assert any(p.judged and p.played[0] in ("go", "place") for p in found)


def test_the_analysis_judges_no_pass_and_counts_them(athos_log):
    _, path = athos_log
    doc = analyse_here(read_log(path.read_bytes()), path.name, Budget(playouts=6))
    played = {m["played"] for m in doc["moves"]}
    assert not played & {"end move", "skip athos", "end turn"}
    assert doc["passes"] > 0 and doc["decisions"] == len(doc["moves"]) + doc["forced"] + doc["passes"]
    header = document.report(doc).splitlines()[0]
    assert f"{len(doc['moves'])} moves judged of {doc['decisions']} decisions" in header
    assert f"{doc['passes']} passes" in header


# -- the report -------------------------------------------------------------------------------

def _move(seq, mark, drop, seat=0):
    return {"seq": seq, "index": 0, "seat": seat, "kind": "move", "played": f"p{seq}", "preferred": f"b{seq}",
            "before": [0.6, 0.4], "after": [0.6 - drop, 0.4 + drop], "drop": drop, "error": 0.02,
            "sure": 0.99, "mark": mark}


def _doc(moves):
    return {"log": {"file": "x.pblog", "game": "aton"}, "seats": [{"name": "ann", "fingerprint": "aa"},
                                                                   {"name": "bob", "fingerprint": "bb"}],
            "settings": {"budget": "300 playouts", "seed": 0, "mistake": MISTAKE, "blunder": BLUNDER, "z": Z,
                         "extra": EXTRA, "checks": CHECKS},
            "decisions": len(moves), "forced": 0, "passes": 0, "moves": moves}


def test_the_count_printed_is_the_count_listed_or_says_how_many_are_shown():
    moves = [_move(1, "blunder", 0.4), _move(2, "mistake", 0.2), _move(3, "mistake", 0.15),
             _move(4, "mistake", 0.12), _move(5, "mistake", 0.11), _move(6, "close", 0.11), _move(7, "", 0.01),
             _move(8, "mistake", 0.2, seat=1)]
    text = document.report(_doc(moves))
    assert "seat 0 ann (aa): 7 moves judged, 1 blunder, 4 mistakes, 1 close" in text
    assert "seat 1 bob (bb): 1 moves judged, 0 blunders, 1 mistake, 0 close" in text
    listed = [line for line in text.splitlines() if line.startswith("  seq ")]
    assert [line.split()[1] for line in listed] == ["1", "2", "3", "8"]  # the costliest three, then seat 1's one
    assert "(3 of the 5 marked moves shown, the costliest; all are in the analysis file)" in text
    assert "seq 6" not in text and "seq 7" not in text  # a close call and a good move are counted, not listed


def test_the_header_says_the_budget_and_how_sure_a_mark_is():
    text = document.report(_doc([_move(1, "mistake", 0.2)]))
    first, second = text.splitlines()[:2]
    assert "budget 300 playouts, seed 0" in first
    assert "97.5% sure" in second and "mistake lost at least 10%" in second and "blunder 25%" in second
    assert f"searched again {CHECKS} times, each with its own luck" in second
    assert "(" in text and "sure 99%" in text and "±4" in text


def test_an_analysis_file_of_version_1_is_still_read(tmp_path):
    game = engines.get("aton")
    played = play_game(game, {}, [GreedyBot(seed=1), GreedyBot(seed=2)], ["ann", "bob"], random.Random(4),
                       max_moves=20)
    log = tmp_path / "aton.pblog"
    write_log(log, played.genesis, played.entries)
    contents = read_log(log.read_bytes())
    # (a version 1 record as written then: no error, sure, extra nor playout counts)
    old = {"format": document.FORMAT, "version": 1, "log": {"head": document.head_of(contents).hex()},
           "seats": [{"name": "ann", "fingerprint": "a"}, {"name": "bob", "fingerprint": "b"}],
           "moves": [{"seq": 3, "index": 0, "seat": 0, "played": "keep", "preferred": "keep", "mark": "",
                      "drop": 0.0, "before": [0.5, 0.5], "after": [0.5, 0.5]}]}
    document.path_for(log).write_text(json.dumps(old))
    assert document.read(document.path_for(log), contents)["moves"] == old["moves"]


# -- without a terminal: progress lines --------------------------------------------------------

def test_without_a_terminal_the_analysis_writes_progress_lines(monkeypatch, athos_log):
    _, log = athos_log
    monkeypatch.setattr(command, "PROGRESS_SECONDS", 0.0)
    out, err = io.StringIO(), io.StringIO()
    assert analyse([log], Budget(playouts=4), 0, InProcess(), out, err) == 0, err.getvalue()
    progress = [line for line in out.getvalue().splitlines() if line.startswith("analyse: ")]
    assert progress and progress[0].startswith("analyse: 1 of ") and progress[-1].endswith(" s")
    assert err.getvalue() == ""
