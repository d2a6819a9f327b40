"""The end together in the simulated network (spec/protocol.md, "The end together";
protocol/log/ends.py): a game's end is one `audits` and one `results` entry, written by the
writer of the entry before, each seat's seed and signature riding on its acks to it. Under
loss, duplication, partitions and crashes — of the gatherer or of another seat, at either
of the two entries — every honest node ends with the same log, which verifies; a seat gone
for good at the end is claimed and the claim's writer gathers the rest; a forged seed or
signature is refused with a reason; a taken-over seat's runner sends its parts; and a log
whose genesis has no `ends` still ends, and resumes, one entry per seat."""
import pytest

from peerboard.protocol.session import forming
from peerboard.protocol.log.logfile import frame, header_frame
from peerboard.protocol.session.messages import Ack
from peerboard.protocol.log.replay import verify_log
from peerboard.protocol.session.session import Rejected
from support.simnet import SimNet, game_over
from support.claim_tables import Claimers, by_seat, same_logs, seat_of
from support.simnet import assert_agreement, play_faulty


def file_of(node) -> bytes:
    """The node's log as its file holds it."""
    disk = node.disk
    return header_frame() + frame(disk.genesis.record()) + b"".join(frame(e.encoded) for e in disk.entries)


def assert_ended_together(node, players: int, signers: int | None = None) -> None:
    entries = node.disk.entries
    results = entries[-1]
    assert results.kind == "results" and [e.kind for e in entries].count("audits") == 1  # (a claim may stand between)
    assert not any(e.kind in ("audit", "result") for e in entries)
    assert len(results.body["sigs"]) == (players if signers is None else signers)
    verdict = verify_log(file_of(node))
    assert verdict.ok and verdict.ledger.finished, verdict.summary()


def due(nodes, kind: str):
    """The first node whose next entry is `kind`, and the seat entitled to it; else None."""
    for n in nodes:
        if n.alive and n.session is not None:
            position = n.session.position()
            if position is not None and position.to_act is not None and position.to_act[1] == kind:
                return n, position.to_act[0]
    return None


@pytest.mark.parametrize("game, seats, options", [("aton", 2, {}), ("asterix", 3, {"max_rounds": 2}),
                                                  ("asterix", 4, {"max_rounds": 1}), ("asterix", 8, {"max_rounds": 1})])
@pytest.mark.parametrize("seed", range(2))
def test_under_loss_duplication_partitions_and_crashes_every_game_ends_in_two_entries(game, seats, options, seed):
    net, nodes = play_faulty(game, seats, options, 700 + seed, drop=0.15, dup=0.1, crashes=2, partitions=2)
    assert_agreement(net, nodes)
    assert_ended_together(nodes[0], seats)
    entries = nodes[0].disk.entries
    assert entries[-2].seat == entries[-1].seat  # (the audits' writer gathers the results, no claim between)
    assert nodes[0].disk.genesis.terms.ends == "together"


@pytest.mark.parametrize("stage", ["audits", "results"])
@pytest.mark.parametrize("who", ["gatherer", "another"])
@pytest.mark.parametrize("seats", [2, 4])
def test_a_crash_at_the_end_of_the_gatherer_or_another_seat_and_its_restart_still_end_the_game(stage, who, seats):
    net = SimNet(40 + seats, drop=0.05, delay=(0.001, 0.05))
    nodes = by_seat(net.table("asterix", seats, {"max_rounds": 1}))
    assert net.run(lambda: due(nodes, stage) is not None, max_time=5000)
    _, gatherer = due(nodes, stage)
    down = nodes[gatherer] if who == "gatherer" else nodes[(gatherer + 1) % seats]
    net.crash(down)
    net.run(lambda: False, max_time=3)
    assert not net.finished(nodes)  # (the end waits for it)
    net.restart(down)
    assert net.run(lambda: net.finished(nodes), max_time=300)
    net.run(lambda: False, max_time=2)
    assert_agreement(net, nodes)
    assert_ended_together(nodes[0], seats)


@pytest.mark.parametrize("stage", ["audits", "results"])
@pytest.mark.parametrize("seed", range(3))
def test_a_seat_gone_for_good_at_the_end_is_claimed_and_the_claim_s_writer_gathers_the_rest(seed, stage):
    net = SimNet(60 + seed, drop=0.05, delay=(0.001, 0.05))
    nodes = by_seat(net.table("asterix", 3, {"max_rounds": 1}, patience=10))
    assert net.run(lambda: due(nodes, stage) is not None, max_time=5000)
    _, gatherer = due(nodes, stage)
    gone = (gatherer + 1 + seed % 2) % 3
    net.crash(nodes[gone])
    rest = [n for n in nodes if seat_of(n) != gone]
    assert Claimers(net, rest).run(lambda: net.finished(rest), max_time=300), \
        [(seat_of(n), n.session.position().to_act, len(n.disk.entries)) for n in rest]
    net.run(lambda: False, max_time=2)
    same_logs(rest)
    entries = rest[0].disk.entries
    claim = next(e for e in entries if e.kind == "claim")
    assert claim.body["gone"] == gone and claim.seat == min(seat_of(n) for n in rest)
    results = entries[-1]
    # the claim stood in place of the audits (or of the results, if the gone seat's seed was
    # in already); its writer gathers what comes after it, from the two seats left
    assert results.kind == "results" and "audits" in [e.kind for e in entries]
    audits = next(e for e in entries if e.kind == "audits")
    assert results.seat == claim.seat and len(results.body["sigs"]) == 2
    assert len(audits.body["seeds"]) == (2 if claim.seq < audits.seq else 3)
    if stage == "results":  # (gone before it signed the result: its seed stays in the audits)
        assert audits.seq < claim.seq < results.seq and len(audits.body["seeds"]) == 3
    result = game_over(rest[0])
    assert result.ending is not None and gone in result.ending.unchecked
    assert_ended_together(rest[0], 3, signers=2)
    # the gone seat comes back: it takes the claim and watches the end
    net.restart(nodes[gone])
    assert net.run(lambda: net.finished(nodes), max_time=60)
    same_logs(nodes)


def test_a_forged_seed_or_signature_is_refused_with_a_reason_and_the_game_still_ends():
    net = SimNet(81, delay=(0.01, 0.05))
    nodes = by_seat(net.table("asterix", 3, {"max_rounds": 1}))
    for stage, forged in (("audits", {"reveal": b"\x07" * 32}), ("results", {"sig": b"\x07" * 64})):
        assert net.run(lambda: due(nodes, stage) is not None and due(nodes, stage)[0] is nodes[due(nodes, stage)[1]],
                       max_time=5000)
        _, gatherer = due(nodes, stage)
        liar = nodes[(gatherer + 1) % 3]
        head = nodes[gatherer].disk.all_entries()[-1]
        state = nodes[gatherer].session.position().state
        ack = Ack(seat_of(liar), head.seq, head.hash, nodes[gatherer].session.game.state_hash(state), **forged)
        net.inject(liar, nodes[gatherer], ack.to_bytes())
        net.run(lambda: False, max_time=0.005)
    assert net.run(lambda: net.finished(nodes), max_time=300)
    reasons = [e.reason for n in nodes for e in n.events if isinstance(e, Rejected)]
    assert any("seed does not match its commitment" in r for r in reasons), reasons
    assert any("signature of the result is forged" in r for r in reasons), reasons
    net.run(lambda: False, max_time=2)
    assert_agreement(net, nodes)
    assert_ended_together(nodes[0], 3)


def test_a_taken_over_seat_s_seed_and_signature_come_from_its_runner():
    net = SimNet(91, drop=0.05, delay=(0.001, 0.05))
    nodes = by_seat(net.table("asterix", 4, {"max_rounds": 2}, patience=10, takeover="greedy"))
    assert net.run(lambda: min(len(n.disk.entries) for n in nodes) >= 6, max_time=1000)
    gone = 2
    net.crash(nodes[gone])
    rest = [n for n in nodes if seat_of(n) != gone]
    assert Claimers(net, rest).run(lambda: net.finished(rest), max_time=20000)
    net.run(lambda: False, max_time=2)
    same_logs(rest)
    result = game_over(rest[0])
    assert result.takeovers and result.takeovers[0][0] == gone
    # every seat audits and signs, the taken-over one by its runner with the takeover's key
    assert_ended_together(rest[0], 4)
    assert len(rest[0].disk.entries[-2].body["seeds"]) == 4


@pytest.mark.parametrize("seats", [2, 4])
def test_a_log_without_ends_ends_one_entry_per_seat_and_resumes_so(monkeypatch, seats):
    """spec/log-format.md, "The genesis": a genesis without `ends` (every log written before
    it, those with `"reveals": "together"` too) has one `audit` and one `result` entry per
    seat, and a node resuming one at its end goes on so."""
    monkeypatch.setattr(forming, "ENDS_TOGETHER", None)  # a table opened by the version before
    net = SimNet(95 + seats, drop=0.05, delay=(0.001, 0.05))
    nodes = by_seat(net.table("asterix", seats, {"max_rounds": 1}))
    monkeypatch.undo()
    terms = nodes[0].disk.genesis.terms
    assert terms.ends is None and terms.reveals == "together"
    assert net.run(lambda: due(nodes, "audit") is not None, max_time=5000)
    down = nodes[1]
    net.crash(down)
    net.run(lambda: False, max_time=2)
    net.restart(down)
    assert net.run(lambda: net.finished(nodes), max_time=300)
    net.run(lambda: False, max_time=2)
    assert_agreement(net, nodes)
    kinds = [e.kind for e in nodes[0].disk.entries]
    assert kinds[-2 * seats:] == ["audit"] * seats + ["result"] * seats and "reveals" in kinds
    assert "audits" not in kinds and "results" not in kinds
    assert verify_log(file_of(nodes[0])).ok
