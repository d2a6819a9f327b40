"""Hostile and broken peers: each bad message is rejected or detected with a clear reason;
the honest nodes carry on, or halt with proof where the rules say so."""
import random

from hypothesis import given, settings, strategies as st

from peerboard.engines.canonical import encode
from peerboard.protocol.session.messages import Ack, Beat, EntryMessage, Proof, Want
from peerboard.protocol.log.records import Entry, make_entry
from peerboard.protocol.session.session import Accepted, Desync, Equivocation, InternalFault, YourTurn
from support.simnet import SimNet, game_over
from support.budget import examples


def _started(game="aton", seats=2, seed=3, entries=0):
    net = SimNet(seed)
    nodes = net.table(game, seats)
    if entries:
        net.run(lambda: len(nodes[0].disk.entries) >= entries, max_time=1000)
    return net, nodes


def _head(node):
    """The hash of the last entry `node` holds (the genesis's before any)."""
    stored = node.disk.all_entries()
    return stored[-1].hash if stored else node.session.genesis_hash


def _next_entry(node, kind, body, seat=None, seq=None, prev=None, identity=None):
    session = node.session
    return make_entry(identity or node.identity, seq or session.log_length + 1, prev or _head(node),
                      session.local_seat if seat is None else seat, kind, body)


def _reasons(node):
    return " | ".join(r for r in (e.reason for e in node.events if hasattr(e, "reason")))


def _finishes(net, nodes):
    return net.run(lambda: net.finished(nodes), max_time=5000)


def _prompted(node):
    """Whether `node` was told to decide since the last entry it accepted."""
    last = next((e for e in reversed(node.events) if isinstance(e, (YourTurn, Accepted))), None)
    return isinstance(last, YourTurn)


def _paused_at_move(net, nodes):
    """Run until every node holds the same entries and a seat has been asked for its move;
    the bots wait (they think for 5 s) so the test can act first. Returns the seat to move."""
    net.think = (5.0, 5.0)

    def paused():
        seat, kind = nodes[0].session.position().to_act
        return (kind == "move" and all(n.session.log_length == nodes[0].session.log_length for n in nodes)
                and nodes[seat].session.decision_kind() == "move" and _prompted(nodes[seat]))

    assert net.run(paused, max_time=2000)
    return nodes[0].session.position().to_act[0]


def _resume_bots(net):
    net.think = (0.0, 0.02)


def test_an_illegal_action_is_rejected_and_the_game_goes_on():
    net, nodes = _started(entries=12)
    seat = _paused_at_move(net, nodes)
    author, victim = nodes[seat], nodes[1 - seat]
    bad = _next_entry(author, "move", {"actions": [("place", 47)], "nonce": None})
    net.inject(author, victim, EntryMessage(bad).to_bytes())
    net.run(lambda: False, max_time=0.5)
    assert "illegal action" in _reasons(victim)
    assert bad.hash not in {e.hash for e in victim.disk.entries}
    _resume_bots(net)
    assert _finishes(net, nodes) and game_over(victim) is not None


def test_an_entry_for_the_wrong_seat_is_rejected():
    net, nodes = _started(entries=10)
    seat = _paused_at_move(net, nodes)
    intruder, victim = nodes[1 - seat], nodes[seat]
    bad = _next_entry(intruder, "move", {"actions": [("keep",)], "nonce": None})
    net.inject(intruder, victim, EntryMessage(bad).to_bytes())
    net.run(lambda: False, max_time=0.5)
    assert "wrong seat" in _reasons(victim)
    _resume_bots(net)
    assert _finishes(net, nodes)


def test_an_entry_with_a_bad_signature_is_rejected():
    net, nodes = _started(entries=10)
    seat = _paused_at_move(net, nodes)
    author, victim = nodes[seat], nodes[1 - seat]
    good = _next_entry(author, "move", {"actions": [("keep",)], "nonce": None})
    forged = Entry(good.seq, good.prev, good.seat, good.kind, good.body, bytes(64))
    net.inject(author, victim, EntryMessage(forged).to_bytes())
    net.run(lambda: False, max_time=0.5)
    assert "bad signature" in _reasons(victim)
    assert forged.hash not in {e.hash for e in victim.disk.entries}
    _resume_bots(net)
    assert _finishes(net, nodes)


def test_a_node_that_died_before_re_running_its_own_move_drops_it_when_resumed_if_it_is_refused():
    """A seat's own move from its legal list is written and sent before it is re-run. If
    the process dies in between and the move does not check out (an engine fault), the
    node, resumed, checks that last entry, drops it, says so, and plays on."""
    net, nodes = _started(entries=10)
    seat = _paused_at_move(net, nodes)
    author = nodes[seat]
    bad = _next_entry(author, "move", {"actions": [("place", 47)], "nonce": None})
    net.crash(author)
    author.disk.entries.append(bad)  # written, not yet re-run, when the process died
    net.restart(author)
    assert bad not in author.disk.entries and author.session.log_length == bad.seq - 1
    assert "does not check out" in _reasons(author)
    _resume_bots(net)
    assert _finishes(net, nodes)


def test_a_replayed_old_entry_is_a_harmless_duplicate():
    net, nodes = _started(entries=20)
    old = nodes[0].disk.entries[3]
    for _ in range(5):
        net.inject(nodes[0], nodes[1], EntryMessage(old).to_bytes())
    assert _finishes(net, nodes)
    assert nodes[1].session.halt is None


def test_a_forged_ack_is_rejected():
    net, nodes = _started(entries=10)
    # seat 0 claims seat 1 acked a different state: the transport says who really sent it
    entry = nodes[0].disk.entries[-1]
    ack = Ack(1, entry.seq, entry.hash, bytes(32))
    net.inject(nodes[0], nodes[1], ack.to_bytes())
    assert _finishes(net, nodes)
    assert "forged ack (the sender does not hold seat 1)" in _reasons(nodes[1]) and nodes[1].session.halt is None


def test_a_seat_acking_a_different_state_hash_halts_the_game_with_a_report():
    net, nodes = _started(entries=10)
    liar, honest = nodes[1], nodes[0]
    entry = honest.disk.entries[-1]
    wrong = b"\x13" * 32
    net.inject(liar, honest, Ack(1, entry.seq, entry.hash, wrong).to_bytes())
    net.run(lambda: honest.session.halt is not None, max_time=10)
    halt = honest.session.halt
    assert isinstance(halt, Desync) and halt.seq == entry.seq
    assert dict(halt.hashes)[1] == wrong and dict(halt.hashes)[0] != wrong


def test_garbled_oversized_and_unknown_version_messages_are_rejected_not_fatal():
    net, nodes = _started(entries=6)
    junk = [b"", b"\xc1", b"\x00" * 300_000, encode({"t": "beat", "v": 99, "seq": 1, "head": bytes(32)}),
            encode({"t": "launch", "v": 1}), encode({"t": "want", "v": 1}), encode([1, 2, 3])]
    for data in junk:
        net.inject(nodes[1], nodes[0], data)
    assert _finishes(net, nodes)
    reasons = _reasons(nodes[0])
    assert "protocol version 99; this node speaks version 1" in reasons
    assert "unknown message type" in reasons and "garbled message" in reasons


def _equivocate(second_legal: bool):
    net, nodes = _started("aton", 2, seed=21, entries=12)
    seat = _paused_at_move(net, nodes)
    cheat, victim = nodes[seat], nodes[1 - seat]
    legal = cheat.session.legal_actions()
    assert len(legal) >= 2
    a = _next_entry(cheat, "move", {"actions": [legal[0]], "nonce": None})
    b_actions = [legal[1]] if second_legal else [("place", 99)]
    b = _next_entry(cheat, "move", {"actions": b_actions, "nonce": None})
    net.inject(cheat, victim, EntryMessage(b).to_bytes())
    net.inject(cheat, victim, EntryMessage(a).to_bytes())
    net.run(lambda: victim.session.halt is not None, max_time=5)
    return a, b, seat, victim


def test_equivocation_halts_the_honest_node_with_a_proof():
    a, b, seat, victim = _equivocate(second_legal=True)
    halt = victim.session.halt
    assert isinstance(halt, Equivocation) and halt.seat == seat and halt.seq == a.seq
    assert {halt.proof.first.hash, halt.proof.second.hash} == {a.hash, b.hash}


def test_a_signed_illegal_entry_beside_a_legal_one_is_no_fork_and_no_halt():
    # the illegal one can never be accepted by anyone, so it cannot split the table
    a, b, seat, victim = _equivocate(second_legal=False)
    assert victim.session.halt is None and "illegal action" in _reasons(victim)


def test_equivocation_split_across_peers_is_found_through_acks():
    net, nodes = _started("asterix", 3, entries=10)
    for _ in range(50):  # a moment where the seat to move has two different choices
        seat = _paused_at_move(net, nodes)
        legal = nodes[seat].session.legal_actions()
        if len(legal) >= 2:
            break
        _resume_bots(net)
        at = nodes[0].session.log_length
        net.run(lambda: nodes[0].session.log_length > at, max_time=60)
    cheat = nodes[seat]
    a = _next_entry(cheat, "move", {"actions": [legal[0]], "nonce": None})
    b = _next_entry(cheat, "move", {"actions": [legal[1]], "nonce": None})
    others = [n for n in nodes if n is not cheat]
    net.crash(cheat)  # it sends nothing more: only the two forks are out
    net.inject(cheat, others[0], EntryMessage(a).to_bytes())
    net.inject(cheat, others[1], EntryMessage(b).to_bytes())
    net.run(lambda: all(n.session.halt is not None for n in others), max_time=60)
    for n in others:
        halt = n.session.halt
        assert isinstance(halt, Equivocation) and halt.seat == seat and halt.seq == a.seq


def test_a_proof_with_a_bad_signature_is_rejected():
    net, nodes = _started(entries=5)
    e = nodes[0].disk.entries[0]
    fake = Entry(e.seq, e.prev, e.seat, e.kind, e.body, bytes(64))
    net.inject(nodes[1], nodes[0], Proof(e, fake).to_bytes())
    net.run(lambda: False, max_time=1)
    assert nodes[0].session.halt is None and "signature does not verify" in _reasons(nodes[0])


def test_a_withheld_reveal_stalls_visibly_and_a_different_value_is_refused():
    """spec/protocol.md, "Fair chance": a seat may only withhold its value, which stalls the
    game visibly; any other value than its hash chain's next one is refused, on an ack to
    the round's gatherer as in an entry."""
    from peerboard.protocol.session.session import PeerAway

    net = SimNet(4)
    nodes = net.table("aton", 2)
    # run until seat 0 gathers the next round — seat 1 has not even heard of seat 0's last
    # entry yet — then silence seat 1: its value never comes, and the game cannot go on
    net.think = (5.0, 5.0)
    assert net.run(lambda: nodes[0].session.log_length and nodes[0].session.position().to_act == (0, "reveals"),
                   max_time=500)
    net.crash(nodes[1])
    stuck_at = nodes[0].session.log_length
    net.run(lambda: False, max_time=10)
    assert nodes[0].session.log_length == stuck_at
    assert nodes[0].session.position().to_act == (0, "reveals")
    assert any(isinstance(e, PeerAway) and e.seat == 1 for e in nodes[0].events)
    # no re-roll: any value but the committed hash chain's next one is refused
    state = nodes[0].session.game.state_hash(nodes[0].session.position().state)
    net.inject(nodes[1], nodes[0], Ack(1, stuck_at, _head(nodes[0]), state, b"\x01" * 32).to_bytes())
    net.run(lambda: False, max_time=1)
    assert "reveal does not match its hash chain" in _reasons(nodes[0])
    # and only the gatherer writes the round
    bad = make_entry(nodes[1].identity, stuck_at + 1, _head(nodes[0]), 1, "reveals", {"values": [b"\x01" * 32] * 2})
    net.inject(nodes[1], nodes[0], EntryMessage(bad).to_bytes())
    net.run(lambda: False, max_time=1)
    assert "seat 0 must write a reveals entry here, not seat 1" in _reasons(nodes[0])
    assert nodes[0].session.log_length == stuck_at


def test_want_and_beat_from_a_stranger_are_served_or_ignored_without_harm():
    net, nodes = _started(entries=8)
    for data in (Want(1).to_bytes(), Want(10_000).to_bytes(), Beat(10_000, bytes(32)).to_bytes()):
        net.inject(nodes[1], nodes[0], data)
    assert _finishes(net, nodes)


# -- fuzzing the whole session with hypothesis ---------------------------------------------------


@st.composite
def mutated(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    base = draw(st.sampled_from(_SAMPLES))
    data = bytearray(base)
    for _ in range(draw(st.integers(0, 4))):
        if data and rng.random() < 0.7:
            data[rng.randrange(len(data))] = rng.randrange(256)
        else:
            data.insert(rng.randrange(len(data) + 1), rng.randrange(256))
    return bytes(data)


def _samples():
    net, nodes = _started(entries=6)
    msgs = [data for _, data in nodes[0].sent[:40]]
    return net, nodes, msgs


_NET, _NODES, _SAMPLES = _samples()


@given(st.one_of(st.binary(max_size=200), mutated()))
@settings(max_examples=examples(300), deadline=None)
def test_no_byte_string_makes_the_session_raise_or_fault(data):
    session = _NODES[1].session
    for sender in (_NODES[0].key, b"\x00" * 32):
        effects = session.receive(sender, data, _NET.now)
        assert isinstance(effects, list)
        assert not any(isinstance(e, InternalFault) for e in effects), effects


def test_an_offered_move_the_engine_cannot_apply_is_taken_back_and_asked_again():
    """A single action from the prompt's legal list leaves before its author re-runs it
    (the engine contract says it applies). Should an engine break that contract, the
    author takes the entry back, says so, and asks again; the peer refuses the entry too,
    so nothing forks and the game goes on."""
    net, nodes = _started(entries=10)
    seat = _paused_at_move(net, nodes)
    author, peer = nodes[seat], nodes[1 - seat]
    seq = author.session.log_length + 1
    bogus = ("place", 47)  # not a legal Aton action: the engine refuses it
    seat_author = author.session._stage.author  # (the game under way: protocol/session/play.py)
    seat_author._offered = (seq, seat_author._offered[1] | {bogus})  # as if the engine had offered it
    prompts = sum(isinstance(e, YourTurn) for e in author.events)
    net.apply(author, author.session.submit([bogus], net.now))
    assert "engine fault" in _reasons(author)
    assert len(author.disk.entries) == seq - 1 and author.session.log_length == seq - 1
    # asked again (the session's next step, once the input in flight is taken)
    assert net.run(lambda: sum(isinstance(e, YourTurn) for e in author.events) == prompts + 1, max_time=0.5)
    net.run(lambda: False, max_time=0.5)
    assert "illegal action" in _reasons(peer)
    _resume_bots(net)
    assert _finishes(net, nodes) and game_over(peer) is not None
