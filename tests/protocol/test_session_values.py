"""Messages that fit the wire's schema but carry hostile values — any seat number, any seq,
a stranger's key, a genesis for another game, signatures that do not verify, early and late
messages — sent to a session in every phase: each is taken or refused with a reason, and
none of them is ever counted as our own fault (an InternalFault would halt an honest game)."""
from __future__ import annotations

import os

from hypothesis import given, settings, strategies as st

from peerboard import engines
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import (
    Ack, Beat, EntryMessage, GenesisMessage, Hello, Leave, Proof, Propose, Refuse, Sign, Want, Welcome,
)
from peerboard.protocol.log.records import Entry, Genesis, Seat, SignedGenesis
from peerboard.protocol.log.schema import MAX_SEATS
from peerboard.protocol.log.secrets import SeatSecrets
from peerboard.protocol.session.session import InternalFault, Phase, Session
from support.simnet import SimNet
from support.budget import examples

# -- sessions in every phase --------------------------------------------------------------------


def _played():
    net = SimNet(41)
    nodes = net.table("aton", 2)
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    return nodes


_NODES = _played()
_DISK = _NODES[0].disk
_KEYS = [n.key for n in _NODES]
_STRANGER = Identity.from_seed(bytes(range(32)))
_TABLE_ID = _DISK.genesis.terms.table


def _session(phase: str) -> Session:
    node = _NODES[0]
    random = lambda n: os.urandom(n)  # noqa: E731
    if phase == "hosting":  # forming, as the host: seat 0 taken, one free
        return Session.host(node.identity, node.secrets, "host", "sim://0", "aton", 2, {}, _TABLE_ID, random, 0.0)
    if phase == "hosting-private":  # forming, as the host of a private table
        return Session.host(node.identity, node.secrets, "host", "sim://0", "aton", 2, {}, _TABLE_ID, random, 0.0,
                            code="abcd-efgh")
    if phase == "joining":  # forming, as a joiner waiting for the host's answer
        return Session.join(node.identity, node.secrets, "j", "sim://0", _KEYS[1], _TABLE_ID, "aton", random, 0.0)[0]
    upto = {"playing": len(_DISK.entries) // 2, "over": len(_DISK.entries)}[phase]
    session, _ = Session.resume(node.identity, node.secrets, "node-0", "sim://0", _DISK.genesis, _DISK.addrs,
                                _DISK.entries[:upto], None, random, 0.0)
    return session


# -- hostile values within the schema ---------------------------------------------------------

SEAT = st.integers(0, MAX_SEATS - 1)
SEQ = st.integers(1, 2**40) | st.integers(1, len(_DISK.entries) + 3)
HASH = st.binary(min_size=32, max_size=32) | st.sampled_from([e.hash for e in _DISK.entries[:5]] + [_DISK.genesis.hash])
KEY = st.sampled_from(_KEYS + [_STRANGER.public_key]) | st.binary(min_size=32, max_size=32)
SIG = st.binary(min_size=64, max_size=64) | st.sampled_from(list(_DISK.genesis.sigs))
TEXT = st.text(max_size=20)
ACTION = st.lists(st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | TEXT, max_size=4).map(tuple)
ADDRS = st.lists(st.text(max_size=30), max_size=MAX_SEATS).map(tuple)
GAME = st.sampled_from(engines.names()) | TEXT.filter(bool)
TABLE = st.just(_TABLE_ID) | st.binary(min_size=16, max_size=16)
OPTIONS = st.dictionaries(TEXT, st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | TEXT, max_size=3)

SEATS = st.lists(st.builds(Seat, TEXT, KEY, HASH, HASH), min_size=1, max_size=MAX_SEATS, unique_by=lambda s: s.key)
GENESIS = st.builds(Genesis, GAME, st.sampled_from(["1", "2"]) | TEXT.filter(bool), OPTIONS, SEATS.map(tuple), TABLE)
SIGNED = (st.just(_DISK.genesis)
          | GENESIS.flatmap(lambda g: st.lists(SIG, min_size=len(g.seats), max_size=len(g.seats))
                            .map(lambda sigs: SignedGenesis(g, tuple(sigs)))))
BODIES = {
    "move": st.fixed_dictionaries({"actions": st.lists(ACTION, min_size=1, max_size=3).map(tuple),
                                   "nonce": st.none() | st.binary(min_size=16, max_size=16)}),
    "commit": st.fixed_dictionaries({"digest": HASH}),
    "reveal": st.fixed_dictionaries({"value": HASH}),
    "chance": st.fixed_dictionaries({"outcome": ACTION}),
    "audit": st.fixed_dictionaries({"seed": HASH}),
    "result": st.fixed_dictionaries({"winners": st.lists(SEAT, max_size=3).map(tuple),
                                     "scores": st.lists(st.integers(-(2**63), 2**64 - 1), max_size=3).map(tuple),
                                     "state": HASH, "cheats": st.lists(SEAT, max_size=3).map(tuple)}),
    "audits": st.fixed_dictionaries({"seeds": st.lists(HASH, min_size=1, max_size=3).map(tuple)}),
    "results": st.fixed_dictionaries({"winners": st.lists(SEAT, max_size=3).map(tuple),
                                      "scores": st.lists(st.integers(-(2**63), 2**64 - 1), max_size=3).map(tuple),
                                      "state": HASH, "cheats": st.lists(SEAT, max_size=3).map(tuple),
                                      "sigs": st.lists(SIG, min_size=1, max_size=3).map(tuple)}),
}
ENTRY = (st.sampled_from(list(_DISK.entries))
         | st.sampled_from(sorted(BODIES)).flatmap(
             lambda kind: st.builds(Entry, SEQ, HASH, SEAT, st.just(kind), BODIES[kind], SIG)))

_MINE = Seat("j", _KEYS[0], _NODES[0].secrets.chain_tip, _NODES[0].secrets.commitments()["seed"])
# a proposal a joiner would sign: its own seat as it asked for it, beside another (Aton has two)
OURS = st.builds(
    lambda other, at, options, addrs: Propose(
        Genesis("aton", engines.get("aton").version, options, (other, _MINE) if at else (_MINE, other), _TABLE_ID),
        addrs),
    st.builds(Seat, TEXT, st.binary(min_size=32, max_size=32), HASH, HASH), st.booleans(),
    st.just({}) | OPTIONS, st.lists(st.text(max_size=30), min_size=2, max_size=2).map(tuple))

MESSAGES = st.one_of(
    OURS,
    st.builds(Hello, TABLE, GAME, TEXT, KEY, st.sampled_from(["seat", "spectator"]), HASH, HASH, TEXT,
              st.none() | HASH),
    st.builds(Welcome, st.integers(-1, MAX_SEATS - 1), st.integers(1, MAX_SEATS)),
    st.builds(Refuse, TEXT),
    st.builds(Propose, GENESIS, ADDRS),
    st.builds(Sign, SEAT, SIG),
    st.builds(GenesisMessage, SIGNED, ADDRS),
    st.builds(EntryMessage, ENTRY),
    st.builds(Ack, SEAT, SEQ, HASH, HASH),
    # (a seed, a value or a signature riding on it: spec/protocol.md, "The end together")
    st.builds(Ack, SEAT, SEQ, HASH, HASH, st.none() | HASH, st.none() | SIG),
    st.builds(Beat, st.integers(0, 2**40), HASH),
    st.builds(Want, SEQ),
    st.builds(Proof, ENTRY, ENTRY),
    st.just(Leave()),
)


@given(phase=st.sampled_from(["hosting", "hosting-private", "joining", "playing", "over"]),
       sent=st.lists(st.tuples(KEY, MESSAGES), min_size=1, max_size=4))
@settings(max_examples=examples(400), deadline=None)
def test_no_message_within_the_schema_is_ever_counted_as_our_own_fault(phase, sent):
    """Slow (about 10-20 s): each example plays a session to a phase and feeds it hostile messages."""
    session = _session(phase)
    for now, (sender, message) in enumerate(sent):
        was = session.phase
        effects = session.receive(sender, message.to_bytes(), float(now))
        assert not [e for e in effects if isinstance(e, InternalFault)], (phase, message)
        assert not isinstance(session.halt, InternalFault)
        session.tick(float(now) + 0.5)
        # a halt (a desync, an equivocation proved) is for good, and the phase says so
        assert (session.halt is not None) is (session.phase is Phase.HALTED), (message, session.phase)
        assert was is not Phase.HALTED or session.phase is Phase.HALTED, message
        assert session.phase not in _NEVER_AGAIN[was], (message, was, session.phase)


#: the phases a session never goes back to from each phase (protocol/session/phases.py)
_NEVER_AGAIN = {
    Phase.FORMING: set(), Phase.SIGNING: set(), Phase.PLAYING: {Phase.FORMING, Phase.SIGNING},
    Phase.OVER: {Phase.FORMING, Phase.SIGNING, Phase.PLAYING}, Phase.HALTED: set(Phase) - {Phase.HALTED},
}


@given(early=st.lists(st.tuples(KEY, st.builds(Sign, SEAT, SIG)), max_size=3), proposal=OURS,
       late=st.lists(st.tuples(KEY, st.builds(Sign, SEAT, SIG) | st.builds(GenesisMessage, SIGNED, ADDRS)), max_size=3))
@settings(max_examples=examples(200), deadline=None)
def test_a_joiner_takes_any_signature_before_the_proposal_and_any_message_while_it_signs(early, proposal, late):
    session = _session("joining")
    host = _KEYS[1]
    for sender, message in [*early, (host, proposal), *late]:
        effects = session.receive(sender, message.to_bytes(), 0.0)
        assert not [e for e in effects if isinstance(e, InternalFault)], message
