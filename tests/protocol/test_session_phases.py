"""A session's phase moves only as the phase table says (spec/protocol.md, "Phases"): HALTED
is final — after a halt no message of any kind, and no passing of time, moves the phase or
takes anything in — and OVER is left only for HALTED."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from peerboard.protocol.session import hosting
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import (
    MESSAGE_CLASSES, Ack, Beat, Chosen, Claim, Confirm, Decline, EntryMessage, GenesisMessage, Hello, Leave, Message, Offer, Proof,
    Propose,
    Refuse, Rematch, Resign, Say, Sign, Want, Welcome,
)
from peerboard.protocol.session.phases import TRANSITIONS, Milestone, TransitionError, next_phase
from peerboard.protocol.log.records import agree_statement, claim_statement, make_entry, resign_statement
from peerboard.protocol.session.session import Desync, InternalFault, Phase, Session
from support.simnet import SimNet


def _played():
    net = SimNet(43)
    nodes = net.table("aton", 2)
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    return nodes


_NODES = _played()
_DISK = _NODES[0].disk
_TABLE = _DISK.genesis.terms.table
_random = os.urandom


def _one_of_each(sender: Identity, seq: int) -> list[Message]:
    """A message of every class, each one that would move a live session if anything
    could: from the key of seat 1 of the played game, the next entry after `seq`, a true
    proof of equivocation, the whole signed genesis."""
    seat = _DISK.genesis.terms.seats[1]
    entry = _DISK.entries[seq]
    author = _NODES[entry.seat].identity
    forged = make_entry(author, entry.seq, entry.prev, entry.seat, "move", {"actions": [("x",)], "nonce": None})
    messages = [
        Hello(_TABLE, "aton", "node-1", sender.public_key, "seat", seat.chain, seat.seed, "sim://1", None),
        Welcome(1, 2), Refuse("no"), Propose(_DISK.genesis.terms, _DISK.addrs), Sign(1, _DISK.genesis.sigs[1]),
        GenesisMessage(_DISK.genesis, _DISK.addrs), EntryMessage(entry),
        Ack(1, seq, _DISK.entries[seq - 1].hash, b"\x07" * 32), Confirm(seq, _DISK.entries[seq - 1].hash, (b"\x07" * 32,) * 2),
        Beat(len(_DISK.entries), _DISK.entries[-1].hash),
        Want(1), Proof(entry, forged), Leave(), Rematch(_TABLE, "yes"),
        Say(_TABLE, seq, "hello", sender.public_key, b"\x05" * 64),
        Resign(1, _NODES[1].identity.sign(resign_statement(_DISK.genesis.hash, 1))),
        Offer(1, "drawn", seq + 1, entry.prev, _NODES[1].identity.sign(
            agree_statement(_DISK.genesis.hash, "drawn", seq + 1, entry.prev))),
        Decline(1, "drawn", seq + 1),
        Claim(1, 0, seq + 1, entry.prev, _NODES[1].identity.sign(claim_statement(_DISK.genesis.hash, 0, seq + 1, entry.prev))),
        Chosen(1, seq + 1),
    ]
    assert {type(m) for m in messages} == set(MESSAGE_CLASSES)  # a new message class belongs here too
    return messages


def _stays_halted(session: Session, sender: bytes, messages: list[Message]) -> None:
    halt, held = session.halt, session.log_length
    for now, message in enumerate(messages, start=1):
        effects = session.receive(sender, message.to_bytes(), float(now))
        effects += session.tick(float(now) + 0.5)
        assert session.phase is Phase.HALTED, (message, session.phase)
        assert session.halt is halt and session.log_length == held, message
        assert effects == [], (message, effects)


def test_a_host_that_halts_while_forming_stays_halted_whatever_comes_next(monkeypatch):
    host = _NODES[0]
    session = Session.host(host.identity, host.secrets, "host", "sim://0", "aton", 2, {}, _TABLE, _random, 0.0)
    joiner = _NODES[1]

    def broken(key: bytes) -> str:
        raise RuntimeError("a fault planted by the test")

    monkeypatch.setattr(hosting, "fingerprint", broken)  # the host's own bug, while it seats a joiner
    hello = _one_of_each(joiner.identity, 1)[0]
    faults = [e for e in session.receive(joiner.key, hello.to_bytes(), 0.5) if isinstance(e, InternalFault)]
    monkeypatch.undo()
    assert faults and session.phase is Phase.HALTED and session.halt is faults[0]
    # the hello again (a table full of live seats would be proposed), every other message,
    # the whole genesis of a game with this host at seat 0: none moves it, before or after
    _stays_halted(session, joiner.key, _one_of_each(joiner.identity, 1) * 2)


def test_a_game_halted_by_a_desync_stays_halted_whatever_comes_next():
    node, peer = _NODES
    upto = len(_DISK.entries) // 2
    session, _ = Session.resume(node.identity, node.secrets, "node-0", "sim://0", _DISK.genesis, _DISK.addrs,
                                _DISK.entries[:upto], None, _random, 0.0)
    assert session.phase is Phase.PLAYING
    wrong = Ack(1, upto, _DISK.entries[upto - 1].hash, b"\x13" * 32)
    assert [e for e in session.receive(peer.key, wrong.to_bytes(), 0.5) if isinstance(e, Desync)]
    assert session.phase is Phase.HALTED and session.position().to_act is None
    # the next entries in order (each one would be accepted by a live game) and every other message
    later = [EntryMessage(e) for e in _DISK.entries[upto:]]
    _stays_halted(session, peer.key, _one_of_each(peer.identity, upto) + later)
    assert session.decision_kind() is None and session.legal_actions() == ()


def test_a_game_over_is_left_only_for_a_halt():
    node, peer = _NODES
    session, _ = Session.resume(node.identity, node.secrets, "node-0", "sim://0", _DISK.genesis, _DISK.addrs,
                                _DISK.entries, None, _random, 0.0)
    assert session.phase is Phase.OVER and session.result is not None
    for now, message in enumerate(_one_of_each(peer.identity, 1), start=1):
        was = session.phase
        session.receive(peer.key, message.to_bytes(), float(now))
        session.tick(float(now) + 0.5)
        # a true proof of equivocation, or an ack that disagrees, halts even a game over
        assert session.phase is (Phase.HALTED if was is Phase.HALTED or isinstance(message, (Ack, Proof)) else was)
        assert (session.halt is not None) is (session.phase is Phase.HALTED)


def test_the_phase_table_lets_nothing_out_of_halted_and_only_a_halt_out_of_over():
    for milestone in Milestone:
        with pytest.raises(TransitionError, match="cannot have"):
            next_phase(Phase.HALTED, milestone)
    assert {m: next_phase(Phase.OVER, m) for m in TRANSITIONS[Phase.OVER]} == {Milestone.HALTED: Phase.HALTED}
    with pytest.raises(TransitionError, match="a session in phase OVER cannot have started"):
        next_phase(Phase.OVER, Milestone.STARTED)
    # every phase but HALTED can halt
    assert all(next_phase(p, Milestone.HALTED) is Phase.HALTED for p in Phase if p is not Phase.HALTED)


def test_the_phase_table_of_the_spec_is_the_one_the_session_moves_by():
    spec = (Path(__file__).resolve().parents[2] / "spec" / "protocol.md").read_text(encoding="utf-8")
    lines = spec.splitlines()
    header = lines.index("| phase | proposed | withdrawn | started | ended | halted |")
    columns = [Milestone(name.strip()) for name in lines[header].strip("|").split("|")[1:]]
    rows = {}
    for line in lines[header + 2:]:
        if not line.startswith("|"):
            break
        phase, *cells = [cell.strip() for cell in line.strip("|").split("|")]
        # a cell names the phase first, then perhaps says why in brackets
        rows[Phase[phase]] = {m: Phase[cell.split()[0]] for m, cell in zip(columns, cells) if cell != "—"}
    assert rows == TRANSITIONS
