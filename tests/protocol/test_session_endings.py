"""Endings in the simulated network (spec/protocol.md, "Endings"): a seat resigns at any
moment — its turn or another's, mid reveal round, at a secret choice — under loss,
duplication, reordering and partitions; every honest node ends with the same log, whose
result says who resigned at which entry, and the log verifies from scratch."""
import pytest

from peerboard import engines
from peerboard.protocol.log.ledger import Ledger
from peerboard.protocol.log.records import entry_from_record
from peerboard.protocol.session.session import Ended, LocalError, Phase
from support.budget import seeds
from support.simnet import SimNet, game_over, problems


def settle(net, nodes, max_time=4000):
    assert net.run(lambda: net.finished(nodes), max_time=max_time), [(n.index, n.session.phase, len(n.disk.entries)) for n in nodes]
    net.run(lambda: False, max_time=2)  # the last acks arrive


def assert_same_logs(nodes):
    logs = [[e.encoded for e in n.disk.entries] for n in nodes]
    assert all(log == logs[0] for log in logs), "the honest nodes' logs differ"
    for n in nodes:
        assert not problems(n)
    ledger = Ledger.start(nodes[0].disk.genesis)
    for entry in nodes[0].disk.entries:
        ledger = ledger.check(entry)
    assert ledger.finished
    return ledger


#: every registered game that seats two (these endings are of a two-seat table)
TWO_SEATS = [name for name in engines.names() if engines.get(name).min_players <= 2]


def play_until(net, nodes, entries, max_time=400):
    net.run(lambda: min(len(n.disk.entries) for n in nodes) >= entries or net.finished(nodes), max_time=max_time)


@pytest.mark.parametrize("game", TWO_SEATS)
@pytest.mark.parametrize("seed", seeds(6))
def test_a_resignation_at_any_moment_ends_the_game_the_same_everywhere(game, seed):
    net = SimNet(seed, drop=0.15, dup=0.1, delay=(0.001, 0.2))
    # (Asterix of 5 rounds: each reveal round is one entry, so a game of 3 could end by its
    # rules while a partition keeps the resignation from the seat to move)
    nodes = net.table(game, 2, {"max_rounds": 5} if game == "asterix" else {})
    play_until(net, nodes, net.rng.randrange(0, 30))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")  # (rare: short games)
    resigner = nodes[net.rng.randrange(2)]
    if seed % 3 == 0:
        net.partition(nodes[:1], nodes[1:], net.rng.uniform(0.5, 5.0))
    net.apply(resigner, resigner.session.resign(net.now))
    settle(net, nodes)
    ledger = assert_same_logs(nodes)
    over = {game_over(n) for n in nodes}
    assert len(over) == 1
    result = over.pop()
    assert result.ending is not None and result.ending.how == "resigned"
    assert result.ending.seats == (resigner.index,)
    assert result.winners == (1 - resigner.index,)
    assert ledger.result_body()["ending"]["seats"] == [resigner.index]
    assert all(any(isinstance(e, Ended) for e in n.events) for n in nodes)


def test_both_seats_resigning_at_once_end_with_one_resignation():
    net = SimNet(3, drop=0.1, delay=(0.001, 0.2))
    nodes = net.table("athos", 2, {})
    play_until(net, nodes, 6)
    for n in nodes:
        net.apply(n, n.session.resign(net.now))
    settle(net, nodes)
    assert_same_logs(nodes)
    ends = {game_over(n).ending for n in nodes}
    assert len(ends) == 1 and len(ends.pop().seats) == 1


def test_a_seat_cannot_resign_twice_nor_after_the_end():
    net = SimNet(5)
    nodes = net.table("athos", 2, {})
    play_until(net, nodes, 3)
    a = nodes[0]
    net.apply(a, a.session.resign(net.now))
    with pytest.raises(LocalError):
        a.session.resign(net.now)
    settle(net, nodes)
    with pytest.raises(LocalError, match="over"):
        a.session.resign(net.now)


def test_a_three_seat_resignation_ends_the_game_with_no_winner():
    net = SimNet(8, drop=0.1, delay=(0.001, 0.1))
    nodes = net.table("athos", 3, {})
    play_until(net, nodes, 5)
    net.apply(nodes[2], nodes[2].session.resign(net.now))
    settle(net, nodes)
    assert_same_logs(nodes)
    result = game_over(nodes[0])
    assert result.winners == () and result.ending.seats == (2,)


def test_a_resigned_seat_that_crashes_and_restarts_still_ends_the_game_the_same():
    net = SimNet(12, drop=0.1, delay=(0.001, 0.1))
    nodes = net.table("aton", 2, {})
    play_until(net, nodes, 10)
    net.apply(nodes[1], nodes[1].session.resign(net.now))
    net.crash(nodes[1])
    net.run(lambda: False, max_time=3)
    net.restart(nodes[1])
    if nodes[1].session.phase is Phase.PLAYING and nodes[1].session.ending is None:
        # its statement may have been lost with it: it resigns again once back
        net.run(lambda: not any(isinstance(a, bytes) for a in ()), max_time=0.1)
        try:
            net.apply(nodes[1], nodes[1].session.resign(net.now))
        except LocalError:
            pass
    settle(net, nodes)
    assert_same_logs(nodes)
    assert game_over(nodes[0]).ending.seats == (1,)


# -- a seat gone for good: patience and claim --------------------------------------------------

from support.simnet import Node  # noqa: E402
from peerboard.protocol.session.session import Claimable  # noqa: E402


def claim_when_claimable(net, claimer: Node, gone: int, max_time=200):
    """Run until `claimer` is told seat `gone` may be claimed, then claim it."""
    told = lambda: any(isinstance(e, Claimable) and e.seat == gone for e in claimer.events)  # noqa: E731
    assert net.run(told, max_time=max_time), "the seat never became claimable"
    net.apply(claimer, claimer.session.claim(gone, net.now))


def test_a_seat_cannot_be_claimed_before_the_tables_patience_runs_out():
    net = SimNet(2)
    nodes = net.table("aton", 2, {}, patience=10)
    play_until(net, nodes, 6)
    with pytest.raises(LocalError, match="not away"):
        nodes[0].session.claim(1, net.now)
    net.crash(nodes[1])
    net.run(lambda: False, max_time=7)  # away (5 s) but not yet for 10 s
    with pytest.raises(LocalError, match="patience, 10 s"):
        nodes[0].session.claim(1, net.now)
    assert 0 < nodes[0].session.claimable_in(1, net.now) <= 10
    with pytest.raises(LocalError, match="other seat"):
        nodes[0].session.claim(0, net.now)


@pytest.mark.parametrize("game", TWO_SEATS)
@pytest.mark.parametrize("seed", range(4))
def test_a_dead_seat_is_claimed_and_the_game_ends_with_the_other_seat_the_winner(game, seed):
    net = SimNet(seed, drop=0.1, dup=0.05, delay=(0.001, 0.1))
    nodes = net.table(game, 2, {"max_rounds": 3} if game == "asterix" else {}, patience=10)
    play_until(net, nodes, net.rng.randrange(0, 25))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    gone = net.rng.randrange(2)
    net.crash(nodes[gone])
    claimer = nodes[1 - gone]
    claim_when_claimable(net, claimer, gone)
    assert net.run(lambda: claimer.session.phase is Phase.OVER, max_time=100)
    result = game_over(claimer)
    assert result.ending.how == "claimed" and result.ending.seats == (gone,) and result.winners == (1 - gone,)
    assert result.ending.unchecked == (gone,)
    ledger = Ledger.start(claimer.disk.genesis)
    for entry in claimer.disk.entries:
        ledger = ledger.check(entry)
    assert ledger.finished and ledger.result_body()["ending"]["how"] == "claimed"
    # the gone seat comes back: it takes the claim, watches, and ends with the same log
    net.restart(nodes[gone])
    settle(net, nodes)
    assert_same_logs(nodes)
    assert nodes[gone].session.ending.seats == (gone,)
    assert nodes[gone].session.decision_kind() is None


def disputed_between(claimed, claimer, gone: int) -> tuple[int, int]:
    """The claimed seat protested, the claimer's node had written its end at once: the two
    logs are the same to the claim, then the protest on one side and the claimer's end on the
    other; each verifies; each node was told; compared, the copies say the claim is disputed.
    Returns (the claim's seq, the protest's)."""
    from peerboard.protocol.log import Copy, compare, read_log, verify_contents
    from peerboard.protocol.log.logfile import frame, header_frame
    from peerboard.protocol.session import Disputed

    mine, theirs = claimed.disk.entries, claimer.disk.entries
    protest = mine[-1]
    claim = mine[-2]
    assert (protest.kind, protest.seat, claim.kind, claim.body["gone"]) == ("protest", gone, "claim", gone)
    assert [e.encoded for e in mine[:-1]] == [e.encoded for e in theirs[:claim.seq]]
    assert [e.kind for e in theirs[claim.seq:]] in (["audits", "results"], ["audit", "result"], [])
    assert all(r["seat"] == gone and r["seq"] >= claim.seq for r in protest.body["entries"])
    told = [e for e in claimed.events if isinstance(e, Disputed)]
    assert told and told[0].you == "claimed" and told[0].protest == protest.seq
    assert [e.you for e in claimer.events if isinstance(e, Disputed)] == ["claimer"]
    # (never told it was claimed as if it had been away)
    assert not any(isinstance(e, Ended) and e.ending.seq == claim.seq for e in claimed.events)
    copies = []
    for name, n in (("claimed", claimed), ("claimer", claimer)):
        data = header_frame() + frame(n.disk.genesis.record()) + b"".join(frame(e.encoded) for e in n.disk.entries)
        contents = read_log(data)
        copies.append(Copy(name, contents, verify_contents(contents)))
        assert copies[-1].verdict.ok, copies[-1].verdict.summary()
    (dispute,) = compare(copies).disputes
    assert (dispute.gone, dispute.seq) == (gone, claim.seq) and not compare(copies).equivocations
    return claim.seq, protest.seq


@pytest.mark.parametrize("seed", seeds(12))
def test_a_claimed_seat_cut_off_but_alive_protests_with_what_it_wrote_meanwhile(seed):
    """The gone seat is not dead but cut off: it goes on writing what it is entitled to, and
    hears the claim at any moment after it. It was there all along — sending, unheard — so it
    never takes the claim as the truth: it protests, carrying its own entries the claim
    displaced (also kept aside, as before), and the game ends disputed on its side; the
    claimer, which wrote its end at once, keeps its log and is told."""
    from peerboard.protocol.session import Disputed

    net = SimNet(100 + seed, drop=0.1, dup=0.05, delay=(0.001, 0.15))
    nodes = net.table("aton", 2, {}, patience=10)
    play_until(net, nodes, net.rng.randrange(0, 25))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    gone = net.rng.randrange(2)
    net.partition([nodes[0]], [nodes[1]], 15 + net.rng.uniform(0, 20))
    claimer = nodes[1 - gone]
    claim_when_claimable(net, claimer, gone)
    settle(net, nodes)
    assert net.run(lambda: any(isinstance(e, Disputed) for e in claimer.events), max_time=30)
    disputed_between(nodes[gone], claimer, gone)
    protest = nodes[gone].disk.entries[-1]
    assert [e.encoded for e in nodes[gone].aside] == [
        e.encoded for e in (entry_from_record(r) for r in protest.body["entries"])][:len(nodes[gone].aside)]
    result = game_over(nodes[gone])
    assert result.winners == () and result.ending.disputed == protest.seq
    assert game_over(claimer).winners == (1 - gone,)  # (its own copy, as it wrote it)


@pytest.mark.parametrize("seed", seeds(8))
def test_a_claimed_seat_that_crashes_and_returns_at_any_moment_never_splits_but_over_the_claim(seed):
    """Cut off, then killed at any moment around the claim, then back: if the claim reached it
    while it was there, it protested then (its log ends with the protest); if it hears the
    claim only once restarted — it cannot tell how long it was down — it takes the claim and
    the claimer's end: the same log as the claimer's."""
    net = SimNet(200 + seed, drop=0.15, dup=0.1, delay=(0.001, 0.2))
    nodes = net.table("aton", 2, {}, patience=10)
    play_until(net, nodes, net.rng.randrange(0, 25))
    if net.finished(nodes):
        pytest.skip("the game ended by its rules before the chosen moment")
    gone = net.rng.randrange(2)
    net.partition([nodes[0]], [nodes[1]], 12 + net.rng.uniform(0, 5))
    claimer = nodes[1 - gone]
    claim_when_claimable(net, claimer, gone)
    net.run(lambda: False, max_time=net.rng.uniform(0, 3))  # the claim in flight, or not yet
    net.crash(nodes[gone])
    net.run(lambda: False, max_time=net.rng.uniform(0, 20))
    net.restart(nodes[gone])
    settle(net, nodes)
    if nodes[gone].disk.entries[-1].kind == "protest":
        from peerboard.protocol.session import Disputed

        assert net.run(lambda: any(isinstance(e, Disputed) for e in claimer.events), max_time=30)
        disputed_between(nodes[gone], claimer, gone)
    else:
        assert_same_logs(nodes)
        assert {game_over(n).ending.how for n in nodes} == {"claimed"}


# -- a draw or an abort by agreement -------------------------------------------------------------

from peerboard.protocol.session.session import Declined, Offered  # noqa: E402


def offered(node: Node, how: str) -> bool:
    return any(isinstance(e, Offered) and e.how == how for e in node.events)


def at_a_decision(net, nodes) -> None:
    """Nobody decides for a while, so the automatic entries (reveals) are all written and
    every node waits at the same decision: an offer made now stands."""
    net.think = (30.0, 31.0)

    def waiting():
        positions = [n.session.position() for n in nodes]
        return len({p.seq for p in positions}) == 1 and all(p.to_act and p.to_act[1] in ("move", "commit")
                                                             for p in positions)
    assert net.run(waiting, max_time=20)
    net.run(lambda: False, max_time=1)  # a decision already taking its short think is taken
    assert net.run(waiting, max_time=20)


@pytest.mark.parametrize("game, seats", [("aton", 2), ("athos", 3), ("asterix", 4)])
@pytest.mark.parametrize("how", ["drawn", "aborted"])
def test_an_offer_every_seat_accepts_ends_the_game_so(game, seats, how):
    net = SimNet(7, drop=0.1, dup=0.05, delay=(0.001, 0.1))
    nodes = net.table(game, seats, {"max_rounds": 3} if game == "asterix" else {})
    play_until(net, nodes, 5)
    at_a_decision(net, nodes)
    net.apply(nodes[0], nodes[0].session.offer(how, net.now))
    for n in nodes[1:]:
        # (seat 0's offer may be lost and come again a second later, after another's acceptance)
        assert net.run(lambda: offered(n, how) and 0 in dict(n.session.offers).get(how, ()), max_time=20), \
            "the offer did not reach every seat"
        net.apply(n, n.session.offer(how, net.now))  # accepted
    net.think = (0.0, 0.02)
    settle(net, nodes)
    ledger = assert_same_logs(nodes)
    result = game_over(nodes[0])
    assert result.winners == () and result.ending.how == how and result.ending.seats == tuple(range(seats))
    assert ledger.result_body()["ending"]["how"] == how


def offered_a_draw():
    """A two-seat Athos table at a decision where seat 1 has offered a draw, and seat 0 heard it."""
    net = SimNet(9, delay=(0.001, 0.05))
    nodes = net.table("athos", 2, {})
    play_until(net, nodes, 4)
    at_a_decision(net, nodes)
    net.apply(nodes[1], nodes[1].session.offer("drawn", net.now))
    assert net.run(lambda: offered(nodes[0], "drawn"), max_time=10)
    return net, nodes


def test_a_declined_offer_is_told_to_the_offerer_and_the_game_goes_on():
    net, nodes = offered_a_draw()
    net.apply(nodes[0], nodes[0].session.decline("drawn", net.now))
    assert net.run(lambda: any(isinstance(e, Declined) for e in nodes[1].events), max_time=10)
    with pytest.raises(LocalError, match="no offer"):
        nodes[0].session.decline("drawn", net.now)
    net.think = (0.0, 0.02)
    settle(net, nodes, max_time=20000)
    assert_same_logs(nodes)
    assert game_over(nodes[0]).ending is None  # it ended by its rules


def test_a_declined_offer_stays_declined_at_the_decliner_while_its_repeats_come_in():
    """The offerer says its offer again every second while the head stays where it was; a
    repeat sent before it heard the decline (or one whose decline was lost) must not bring
    the offer back to the screen of the seat that declined it — that seat answers it with
    its decline again."""
    net, nodes = offered_a_draw()
    lost = net.drop
    net.drop = 1.0  # the decline is lost: the offerer goes on saying its offer
    net.apply(nodes[0], nodes[0].session.decline("drawn", net.now))
    net.run(lambda: False, max_time=0.2)
    net.drop = lost
    told = sum(isinstance(e, Offered) for e in nodes[0].events)
    net.run(lambda: False, max_time=4)  # four repeats of the offer
    assert nodes[0].session.offers == ()
    assert sum(isinstance(e, Offered) for e in nodes[0].events) == told
    assert any(isinstance(e, Declined) for e in nodes[1].events)  # the decline said again reached it
    assert nodes[1].session.offers == ()


def test_an_offer_lapses_when_another_entry_is_written_first():
    net = SimNet(4, delay=(0.001, 0.05))
    nodes = net.table("athos", 2, {})
    play_until(net, nodes, 4)
    waiting = nodes[nodes[0].session.position().to_act[0] ^ 1]  # not the seat to move
    net.apply(waiting, waiting.session.offer("drawn", net.now))
    held = waiting.session.log_length
    assert net.run(lambda: waiting.session.log_length > held, max_time=10)  # the other seat moved instead
    assert waiting.session.offers == ()
    # an acceptance of the lapsed offer is an offer of its own now, which the other seat is asked
    settle(net, nodes, max_time=20000)
    assert_same_logs(nodes)
    assert game_over(nodes[0]).ending is None


def test_a_resigner_gone_before_its_audit_is_claimed_and_the_resignation_stands():
    net = SimNet(23, drop=0.05, delay=(0.001, 0.05))
    nodes = net.table("aton", 2, {}, patience=10)
    play_until(net, nodes, 8)
    net.crash(nodes[1])  # seat 1 resigns and dies at once: its statement may or may not have left
    net.apply(nodes[0], nodes[0].session.resign(net.now))  # (seat 0 resigns instead: it is there to say so)
    net.run(lambda: nodes[0].session.ending is not None, max_time=10)
    assert nodes[0].session.ending.how == "resigned"
    # seat 1 owes its audit and never writes it: seat 0 claims it, and the resignation stands
    claim_when_claimable(net, nodes[0], 1)
    assert net.run(lambda: nodes[0].session.phase is Phase.OVER, max_time=30)
    result = game_over(nodes[0])
    assert result.ending.how == "resigned" and result.ending.seats == (0,) and result.winners == (1,)
    assert result.ending.unchecked == (1,)
    net.restart(nodes[1])
    settle(net, nodes)
    assert_same_logs(nodes)
