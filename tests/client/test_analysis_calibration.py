"""The chance `peerboard analyse` prints is calibrated per game and seat count (issue 40): the
shipped maps load, keep the order of the search's chances, add up to 1; a game or seat count
without one prints the search's own chance and says so; a file from before still reads."""
import json
import random

import pytest

from peerboard import engines
from peerboard.client.analysis import document
from peerboard.client.analysis.calibrate import MOST_PROGRESS, Situation, calibration_for, printed
from peerboard.client.analysis.command import analyse_here
from peerboard.client.bots.players import GreedyBot
from peerboard.client.bots.sdk import Budget
from peerboard.client.bots.table import play_game
from peerboard.client.games import piece
from peerboard.client.selfplay import write_log
from peerboard.logs import read_log

GAMES = ("aton", "athos", "asterix")


def _shipped():
    """(game, seats) of every fit shipped in client/games/NAME/calibration.py."""
    out = []
    for name in GAMES:
        data = piece(name, "calibration")
        if data is not None:
            out += [(name, seats) for seats in sorted(data.FITS)]
    return out


def test_every_game_ships_a_calibration_for_its_two_seat_game():
    assert {(name, 2) for name in GAMES} <= set(_shipped())


@pytest.mark.parametrize("name", GAMES)
def test_the_shipped_data_loads_for_every_seat_count_the_game_has(name):
    game = engines.get(name)
    shipped = {s for n, s in _shipped() if n == name}
    for seats in range(game.min_players, game.max_players + 1):
        cal = calibration_for(name, seats)
        assert (cal is not None) == (seats in shipped)
        if cal is not None:
            assert cal.seats == seats and len(cal.features) == len(cal.weights) and cal.length > 0
            assert name in cal.source and "self-play games" in cal.source


def _situations(seats, rng):
    for _ in range(40):
        raw = [rng.random() for _ in range(seats)]
        total = sum(raw)
        yield Situation(tuple(r / total for r in raw), rng.randrange(seats), rng.randrange(1, 400),
                        tuple(rng.randrange(6) for _ in range(seats)),
                        tuple({"need": rng.randrange(1, 12), "owed": rng.random(), "banked": rng.random()}
                              for _ in range(seats)))


@pytest.mark.parametrize("name,seats", _shipped())
def test_a_printed_chance_rises_with_the_search_s_and_the_chances_add_up_to_one(name, seats):
    cal = calibration_for(name, seats)
    rng = random.Random(f"{name}:{seats}")
    for s in _situations(seats, rng):
        p = cal.chances(s)
        assert sum(p) == pytest.approx(1.0) and all(0 < x < 1 for x in p)
        for seat in range(seats):
            higher = list(s.raw)
            higher[seat] = min(0.99, higher[seat] + 0.05)
            if higher[seat] > s.raw[seat]:
                assert cal.chances(Situation(tuple(higher), s.mover, s.seq, s.scores, s.known))[seat] > p[seat]
    # at the end of a long game too (where the progress stops growing)
    late = Situation((0.3,) + (0.7 / (seats - 1),) * (seats - 1), 0, int(cal.length * MOST_PROGRESS * 2), (0,) * seats)
    later = Situation((0.4,) + (0.6 / (seats - 1),) * (seats - 1), 0, late.seq, late.scores)
    assert cal.chances(later)[0] > cal.chances(late)[0]


def test_a_drop_s_error_is_carried_through_the_map_by_its_slope():
    cal = calibration_for("athos", 2)
    s = Situation((0.7, 0.3), 0, 60, (0, 0))
    before, after, error = printed(cal, s, (0.5, 0.5), 0.05)
    slope = (before[0] - after[0]) / 0.2
    assert slope > 0 and error == pytest.approx(0.05 * slope)
    assert printed(None, s, (0.5, 0.5), 0.05) == ((0.7, 0.3), (0.5, 0.5), 0.05)  # no map: the search's own


def test_a_seat_prior_moves_chance_to_that_seat_alone_from_the_others_in_proportion():
    from peerboard.client.analysis.calibrate import Calibration
    plain = Calibration("athos", 3, ("logit",), (1.0,), 150.0, 3.0, "")
    prior = Calibration("athos", 3, ("logit", "seat:1"), (1.0, 0.8), 150.0, 3.0, "")
    s = Situation((0.5, 0.3, 0.2), 0, 40, (0, 0, 0))
    p, q = plain.chances(s), prior.chances(s)
    assert sum(q) == pytest.approx(1.0)
    assert q[1] > p[1] and q[0] < p[0] and q[2] < p[2]
    assert q[0] / q[2] == pytest.approx(p[0] / p[2])  # the others keep their odds between them


def test_a_seat_s_own_logit_and_progress_count_for_that_seat_only():
    """`seat_logit:K` weighs seat K's raw chance on its own (Athos at 3 seats: the middle
    start's raw chance says more than the others'), `seat_progress:K` moves chance to seat
    K as the game goes on; neither touches another seat's features."""
    from peerboard.client.analysis.calibrate import Calibration, logit
    cal = Calibration("athos", 3, ("logit", "seat_logit:1", "seat_progress:1"), (0.5, 0.7, -0.4), 150.0, 3.0, "")
    s = Situation((0.5, 0.3, 0.2), 0, 75, (0, 0, 0))
    rows = cal.rows(s)
    assert rows[1] == [pytest.approx(logit(0.3)), pytest.approx(logit(0.3)), pytest.approx(0.5)]
    assert rows[0][1:] == [0.0, 0.0] and rows[2][1:] == [0.0, 0.0]
    later = Situation(s.raw, 0, 150, s.scores)
    assert cal.chances(later)[1] < cal.chances(s)[1]  # its progress weighs against it here
    plain = Calibration("athos", 3, ("logit",), (0.5,), 150.0, 3.0, "")
    higher = Situation((0.4, 0.4, 0.2), 0, 75, (0, 0, 0))
    # a rise of seat 1's raw chance moves its printed chance more than the plain map does
    assert cal.chances(higher)[1] - cal.chances(s)[1] > plain.chances(higher)[1] - plain.chances(s)[1]
    with pytest.raises(ValueError):
        Calibration("athos", 3, ("logit", "nonsense:2"), (0.5, 0.1), 150.0, 3.0, "").chances(s)


@pytest.fixture(scope="module")
def athos_log(tmp_path_factory):
    game = engines.get("athos")  # (no hidden cards: a log cut short can be judged)
    played = play_game(game, {}, [GreedyBot(seed=1), GreedyBot(seed=2)], ["ann", "bob"], random.Random(5),
                       max_moves=12)
    path = tmp_path_factory.mktemp("athos") / "athos.pblog"
    write_log(path, played.genesis, played.entries)
    return path


def test_the_analysis_prints_the_calibrated_chance_and_keeps_the_search_s_beside(athos_log):
    contents = read_log(athos_log.read_bytes())
    doc = analyse_here(contents, athos_log.name, Budget(playouts=12), 0)
    cal = calibration_for("athos", 2)
    assert doc["version"] == 4 and doc["settings"]["calibration"] == cal.source
    assert doc["moves"]
    for m in doc["moves"]:
        assert sum(m["before"]) == pytest.approx(1.0, abs=1e-3) and sum(m["after"]) == pytest.approx(1.0, abs=1e-3)
        assert m["search_before"] and m["drop"] == pytest.approx(max(0.0, m["before"][m["seat"]] - m["after"][m["seat"]]),
                                                                abs=2e-4)
    text = document.report(doc)
    assert "chances: calibrated to who won (athos at 2 seats: " in text
    document.write(document.path_for(athos_log), doc)
    assert document.read(document.path_for(athos_log), contents)["moves"] == doc["moves"]


def test_a_seat_count_without_a_calibration_prints_the_search_s_own_chance_and_says_so():
    assert calibration_for("asterix", 8) is None and calibration_for("nosuchgame", 2) is None
    doc = {"version": 3, "log": {"file": "x.pblog", "game": "asterix"}, "seats": [{"name": str(i), "fingerprint": "f"}
                                                                                  for i in range(8)],
           "settings": {"budget": "300 playouts", "seed": 0, "mistake": 0.1, "blunder": 0.25, "z": 1.96, "extra": 1.0,
                        "calibration": ""},
           "decisions": 0, "forced": 0, "passes": 0, "moves": []}
    assert "chances: the search's own, not calibrated (no calibration for asterix at 8 seats)" in document.report(doc)


def test_an_analysis_file_of_version_2_is_still_read_and_said_to_be_uncalibrated(athos_log):
    contents = read_log(athos_log.read_bytes())
    old = {"format": document.FORMAT, "version": 2,
           "log": {"file": athos_log.name, "game": "athos", "head": document.head_of(contents).hex()},
           "seats": [{"name": "ann", "fingerprint": "a"}, {"name": "bob", "fingerprint": "b"}],
           "settings": {"budget": "300 playouts", "seed": 0, "mistake": 0.1, "blunder": 0.25, "z": 1.96, "extra": 1.0},
           "decisions": 1, "forced": 0, "passes": 0,
           "moves": [{"seq": 3, "index": 0, "seat": 0, "kind": "move", "played": "a", "preferred": "a", "mark": "",
                      "drop": 0.0, "error": 0.0, "sure": 0.0, "before": [0.5, 0.5], "after": [0.5, 0.5],
                      "playouts": 300, "played_playouts": 200, "preferred_playouts": 200, "extra": 0}]}
    document.path_for(athos_log).write_text(json.dumps(old))
    doc = document.read(document.path_for(athos_log), contents)
    assert doc["moves"] == old["moves"]
    assert "an analysis from before chances were calibrated" in document.report(doc)


def test_a_file_whose_search_chances_are_not_chances_is_refused(athos_log):
    contents = read_log(athos_log.read_bytes())
    doc = analyse_here(contents, athos_log.name, Budget(playouts=8), 0)
    doc["moves"][0]["search_before"] = [2.0, -1.0]
    document.write(document.path_for(athos_log), doc)
    with pytest.raises(document.AnalysisFileError, match="not as spec/analysis.md says"):
        document.read(document.path_for(athos_log), contents)
