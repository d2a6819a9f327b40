"""The test vectors in spec/vectors/ still hold: each log verifies, its state hash after
every entry is the recorded one, and building it again from its seeds gives the same bytes."""
import json

import pytest

from peerboard.protocol.log.replay import verify_log
from peerboard.protocol.log.schema import ENDS_TOGETHER, REVEALS_TOGETHER
from support.vectors import (
    CASES, DISPUTES, ENDINGS, ENDINGS_ENDS, ENDS, SETTLED, TAKEOVERS_TOGETHER, TOGETHER, VECTORS, build,
    build_disputed, build_ending, build_settled, hashes,
)


@pytest.mark.parametrize("name, players, options", CASES, ids=[c[0] for c in CASES])
def test_vector_verifies_and_hashes_as_recorded(name, players, options):
    data = (VECTORS / f"{name}.pblog").read_bytes()
    verdict = verify_log(data)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    recorded = json.loads((VECTORS / f"{name}.hashes.json").read_text())
    assert recorded["players"] == players and recorded["options"] == options
    assert hashes(data) == recorded["state_hashes"]


@pytest.mark.parametrize("name, players, options", CASES, ids=[c[0] for c in CASES])
def test_vector_is_rebuilt_byte_for_byte(name, players, options):
    assert build(name, players, options) == (VECTORS / f"{name}.pblog").read_bytes()


def verified_as_recorded(name: str, game: str, players: int, options: dict, *forms):
    """A valid vector of a newer form: rebuilt byte for byte, finished, its state hashes as
    recorded beside it; its verdict."""
    data = (VECTORS / f"{name}.pblog").read_bytes()
    assert build(name, players, options, game, *forms) == data
    verdict = verify_log(data)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    recorded = json.loads((VECTORS / f"{name}.hashes.json").read_text())
    assert (recorded["game"], recorded["players"], recorded["options"]) == (game, players, options)
    assert hashes(data) == recorded["state_hashes"]
    return verdict


@pytest.mark.parametrize("name, game, players, options", TOGETHER, ids=[c[0] for c in TOGETHER])
def test_a_vector_of_reveals_together_verifies_hashes_as_recorded_and_is_rebuilt(name, game, players, options):
    """spec/log-format.md, "Who writes the next entry": each reveal round one `reveals`
    entry, written by the writer of the entry before it (seat 0 after the genesis)."""
    entries = list(verified_as_recorded(name, game, players, options, REVEALS_TOGETHER).ledger.history)
    rounds = [e for e in entries if e.kind == "reveals"]
    assert rounds and not any(e.kind == "reveal" for e in entries)
    before = {e.seq: e.seat for e in entries}
    assert all(e.seat == before.get(e.seq - 1, 0) and len(e.body["values"]) == players for e in rounds)


@pytest.mark.parametrize("case", ENDINGS, ids=[c[0] for c in ENDINGS])
def test_an_ending_vector_verifies_and_its_result_says_how_it_ended(case):
    name, game, players, options, after, seat, how = case
    data = (VECTORS / f"{name}.pblog").read_bytes()
    assert build_ending(*case) == data  # rebuilt byte for byte
    verdict = verify_log(data)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    result = verdict.ledger.result_body()
    if seat is None:  # agreed by every seat, at the first decision after entry `after`
        assert result["ending"]["how"] == how and result["ending"]["seats"] == list(range(players))
        assert result["ending"]["seq"] > after and result["winners"] == []
        assert f"{how} at seq {result['ending']['seq']}" in verdict.summary()
        return
    assert_one_seat_ending(verdict, result, players, after, seat, how)
    assert how != "takenover" or result["winners"]  # (a seat of its own beat it in these two)


def assert_one_seat_ending(verdict, result: dict, players: int, after: int, seat: int, how: str) -> None:
    """What the result and the verdict's summary say of a seat that resigned, was claimed or
    was taken over at entry `after` + 1."""
    if how == "takenover":  # the claim at entry after + 1, the takeover right after it; the game went on
        assert "ending" not in result
        assert result["takeovers"] == [{"runner": 0, "seat": seat, "seq": after + 2}]
        assert seat not in result["winners"]
        assert f"seat {seat} (seat-{seat}) taken over at seq {after + 2} by a greedy bot, run by seat 0" in verdict.summary()
        return
    said = "resigned at" if how == "resigned" else "gone for good: claimed at"
    assert f"seat {seat} (seat-{seat}) {said} seq {after + 1}" in verdict.summary()
    unchecked = [seat] if how == "claimed" else []
    assert result["ending"] == {"how": how, "seats": [seat], "seq": after + 1, "unchecked": unchecked}
    assert result["winners"] == ([1 - seat] if players == 2 else [])


@pytest.mark.parametrize("case", TAKEOVERS_TOGETHER, ids=[c[0] for c in TAKEOVERS_TOGETHER])
def test_a_takeover_in_a_log_of_rounds_together_reveals_from_the_new_chain(case):
    """The seat taken over takes part in every later round with its new chain's values, and
    gathers a round when it wrote the entry before (its runner writes it, signed by its new
    key): the log verifies, is rebuilt byte for byte, and names the takeover."""
    name, game, players, options, after, seat, how = case
    data = (VECTORS / f"{name}.pblog").read_bytes()
    assert build_ending(*case, REVEALS_TOGETHER) == data
    verdict = verify_log(data)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    assert verdict.ledger.result_body()["takeovers"] == [{"runner": 0, "seat": seat, "seq": after + 2}]
    entries = list(verdict.ledger.history)
    rounds_after = [e for e in entries if e.kind == "reveals" and e.seq > after + 2]
    assert rounds_after and not any(e.kind == "reveal" for e in entries)
    assert any(e.seat == seat for e in rounds_after)  # the taken-over seat gathered one (its runner wrote it)


def test_a_claimed_game_is_finished_for_the_lobby_and_its_export_says_how_it_ended():
    from peerboard.client.export import as_text
    from peerboard.node.gamefiles import is_finished
    from peerboard.protocol.log.logfile import read_log

    contents = read_log((VECTORS / "aton-claimed.pblog").read_bytes())
    assert is_finished(contents)  # one result: the claimed seat signs none
    assert not is_finished(read_log((VECTORS / "aton-claimed.pblog").read_bytes()[:-200]))
    text = as_text(contents)
    assert "seat 0 is claimed: gone for good" in text and "claimed at entry 16" in text
    assert "seat 0 resigns" in as_text(read_log((VECTORS / "athos-resigned.pblog").read_bytes()))


@pytest.mark.parametrize("name, game, players, options", ENDS, ids=[c[0] for c in ENDS])
def test_a_vector_of_the_end_together_verifies_hashes_as_recorded_and_is_rebuilt(name, game, players, options):
    """spec/log-format.md, "Who writes the next entry", case 1: in a genesis with `"ends":
    "together"` the end is two entries, the `audits` (every seat's seed) and the `results`
    (the result and every seat's signature of it), both written by the writer of the last move."""
    verdict = verified_as_recorded(name, game, players, options, REVEALS_TOGETHER, ENDS_TOGETHER)
    entries = list(verdict.ledger.history)
    *play, last, audits, results = entries
    assert (audits.kind, results.kind) == ("audits", "results") and last.kind == "move"
    assert audits.seat == results.seat == last.seat
    assert len(audits.body["seeds"]) == len(results.body["sigs"]) == players
    assert not any(e.kind in ("audit", "result") for e in entries)
    assert "won" in verdict.summary() or "nobody won" in verdict.summary()


@pytest.mark.parametrize("case", ENDINGS_ENDS, ids=[c[0] for c in ENDINGS_ENDS])
def test_an_ending_in_the_end_together_names_the_same_seats_as_the_form_before(case):
    """A resignation, a claim, a takeover: the `results` entry says what the `result`
    entries of the form before say, signed by every seat still playing (a claimed seat
    neither audits nor signs; a taken-over seat's runner signs for it with its new key)."""
    name, game, players, options, after, seat, how = case
    data = (VECTORS / f"{name}.pblog").read_bytes()
    assert build_ending(*case, REVEALS_TOGETHER, ENDS_TOGETHER) == data  # rebuilt byte for byte
    verdict = verify_log(data)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    entries = list(verdict.ledger.history)
    audits, results = entries[-2:]
    assert (audits.kind, results.kind) == ("audits", "results")
    assert not any(e.kind in ("audit", "result") for e in entries)
    still = players - (1 if how == "claimed" else 0)
    assert len(audits.body["seeds"]) == len(results.body["sigs"]) == still
    result = verdict.ledger.result_body()
    assert results.body["winners"] == tuple(result["winners"]) and results.body["cheats"] == ()
    assert_one_seat_ending(verdict, result, players, after, seat, how)
    if how != "takenover":
        assert audits.seat == entries[-3].seat  # the writer of the entry that ended it gathers


def test_a_game_ended_together_is_finished_for_the_lobby_and_rated_and_exported():
    from peerboard.client.export import as_text
    from peerboard.client.ladder import decide
    from peerboard.protocol.log.copies import Copy, compare
    from peerboard.node.gamefiles import is_finished
    from peerboard.protocol.log.logfile import read_log

    data = (VECTORS / "aton-resigned-ends.pblog").read_bytes()
    contents = read_log(data)
    assert is_finished(contents) and not is_finished(read_log(data[:-200]))
    game = decide(compare([Copy("aton-resigned-ends.pblog", contents, verify_log(data))]), 0)
    assert (game.kind, game.winners, game.losers, game.rated) == ("resigned", (0,), (1,), True)
    text = as_text(contents)
    assert "winners 0" in text and "resigned at entry 21" in text


@pytest.mark.parametrize("case", SETTLED, ids=[c[0] for c in SETTLED])
def test_a_settled_corner_verifies_as_the_spec_says(case):
    """spec/log-format.md settles these (issue 39): a taken-over seat may resign, signed by its
    takeover's key; a claim of the seat that runs a taken-over seat ends the game with both
    gone; a claim after the claimer's own audit completes the audit, and a game over by its
    rules keeps its winners."""
    name = case[0]
    data = (VECTORS / f"{name}.pblog").read_bytes()
    assert build_settled(*case) == data  # rebuilt byte for byte
    verdict = verify_log(data)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    result = verdict.ledger.result_body()
    entries = list(verdict.ledger.history)
    if name == "athos-takenover-resigned":
        resign = next(e for e in entries if e.kind == "resign")
        assert resign.seat == 2 and resign.body["seat"] == 2  # written for seat 2 by its runner's node
        assert result["ending"] == {"how": "resigned", "seats": [2], "seq": resign.seq, "unchecked": [2]}
        assert result["winners"] == [] and result["takeovers"] == [{"seat": 2, "seq": 32, "runner": 0}]
        assert f"seat 2 (seat-2) resigned at seq {resign.seq}" in verdict.summary()
    elif name == "athos-takenover-runner-claimed":
        claims = [e for e in entries if e.kind == "claim"]
        assert [(c.seat, c.body["gone"], len(c.body["sigs"])) for c in claims] == [(0, 2, 2), (1, 0, 1)]
        assert result["ending"] == {"how": "claimed", "seats": [0], "seq": claims[1].seq, "unchecked": [0, 2]}
        assert result["winners"] == [] and verdict.ledger.writers == (1,)
        assert [e.seat for e in entries if e.kind in ("audits", "results", "audit", "result")] == [1, 1]
    else:
        claim = next(e for e in entries if e.kind == "claim")
        before = entries[claim.seq - 2]
        assert (before.kind, before.seat, claim.seat, claim.body["gone"]) == ("audit", 0, 0, 1)
        assert [e.kind for e in entries[claim.seq:]] == ["result"]  # seat 0's alone
        assert result["ending"]["how"] == "claimed" and result["winners"] == [0]
        assert verdict.ledger.game.is_terminal(verdict.ledger.state)


@pytest.mark.parametrize("case", DISPUTES, ids=[c[0] for c in DISPUTES])
def test_a_disputed_claim_verifies_finished_with_no_result_and_says_so(case):
    """spec/protocol.md, "What a claim proves": right after a claim one seat alone signed,
    the claimed seat protests — carrying its own entry the claim displaced, or nothing when
    it had none there — and the game ends disputed: no result, nothing after."""
    name, after, carried = case
    data = (VECTORS / f"{name}.pblog").read_bytes()
    assert build_disputed(*case) == data  # rebuilt byte for byte
    verdict = verify_log(data)
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    *_, claim, protest = list(verdict.ledger.history)
    assert (claim.kind, claim.seat, claim.body["gone"], len(claim.body["sigs"])) == ("claim", 1, 0, 1)
    assert (protest.kind, protest.seat) == ("protest", 0)
    kept = protest.body["entries"]
    assert [(e["seq"], e["seat"], e["prev"]) for e in kept] == ([(claim.seq, 0, claim.prev)] if carried else [])
    evidence = f", carrying its own entry from seq {claim.seq}" if carried else ""
    assert verdict.summary().endswith(f"; seat 0 (seat-0) claimed at seq {claim.seq} by seat 1 (seat-1) alone — "
                                      f"disputed: seat 0 (seat-0) protested at seq {protest.seq}{evidence}; no result")
    from peerboard.node.gamefiles import is_finished
    from peerboard.protocol.log.logfile import read_log

    assert is_finished(read_log(data)) and not is_finished(read_log(data[:-100]))
