"""Our own faults are ours. An exception from our own engine or session is not a peer's
doing: the session halts the game here with an InternalFault that keeps the traceback, no
peer is struck, nothing stored is lost, and once the fault is gone the node resumes from its
log and the game goes on. And a message class or an event class cannot lose its handler
silently: each is dispatched by its class, from tables that must be complete."""
from __future__ import annotations

import io
from types import SimpleNamespace

import pytest

from peerboard import engines
from peerboard.client.seat import Seat
from peerboard.node.loop import NODE_EVENTS
from peerboard.protocol.session import confirmation
from peerboard.protocol.log.ledger import LedgerError
from peerboard.protocol.session.events import SESSION_EVENTS
from peerboard.protocol.session.messages import MESSAGE_CLASSES, Ack
from peerboard.protocol.session.session import _TABLE, _TAKES, Event, InternalFault, Phase, dispatch_table
from support.simnet import SimNet, problems
from support.simnet import assert_agreement


def _plant(monkeypatch, net, node, owner, name, error=RuntimeError("a fault planted by the test")):
    """From now on `owner.name` raises `error` whenever it runs for `node` (the simulated
    nodes share the engines, so the others are spared)."""
    real = getattr(owner, name)

    def planted(*args, **kwargs):
        if net.running is node:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, planted)


def _faults(node) -> list[InternalFault]:
    return [e for e in node.events if isinstance(e, InternalFault)]


def _halted_by_our_fault(net, nodes, faulty, doing: str):
    honest = [n for n in nodes if n is not faulty]
    assert net.run(lambda: faulty.session.halt is not None, max_time=200)
    halt = faulty.session.halt
    assert faulty.session.phase is Phase.HALTED and isinstance(halt, InternalFault), halt
    assert doing in halt.text and "a fault planted by the test" in halt.text
    assert "Traceback" in halt.details and "planted" in halt.details  # for the node's errors file
    assert _faults(faulty) == [halt]
    net.run(lambda: False, max_time=8)  # the others wait for it, as for any silent seat
    assert net.rejections(faulty) == []  # no peer was struck for our fault
    for n in honest:
        assert n.session.halt is None and not problems(n) and net.rejections(n) == []
        stored = [e.hash for e in faulty.disk.all_entries()]
        assert [e.hash for e in n.disk.entries[:len(stored)]] == stored  # nothing stored was lost


def test_an_engine_that_raises_halts_its_own_node_strikes_nobody_and_the_game_resumes_once_it_is_fixed(monkeypatch):
    net = SimNet(13)
    nodes = net.table("aton", 2)
    faulty = nodes[1]
    assert net.run(lambda: len(faulty.disk.entries) >= 25, max_time=1000)
    _plant(monkeypatch, net, faulty, engines.get("aton"), "apply")
    _halted_by_our_fault(net, nodes, faulty, "internal error while")
    monkeypatch.undo()  # the bug is fixed: the node starts again from its log
    net.crash(faulty)
    net.restart(faulty)
    assert faulty.session.phase is Phase.PLAYING
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    net.run(lambda: False, max_time=2)
    assert_agreement(net, nodes)


def test_a_session_bug_on_an_honest_ack_halts_the_game_instead_of_striking_the_peer(monkeypatch):
    net = SimNet(14)
    nodes = net.table("asterix", 3, {"max_rounds": 2})
    faulty = nodes[2]
    assert net.run(lambda: len(faulty.disk.entries) >= 10, max_time=1000)
    # (an IndexError in the ack bookkeeping once counted as the sender's "unusable value")
    _plant(monkeypatch, net, faulty, confirmation.Confirmations, "take", IndexError("a fault planted by the test"))
    _halted_by_our_fault(net, nodes, faulty, "message just received")
    monkeypatch.undo()
    net.crash(faulty)
    net.restart(faulty)
    assert net.run(lambda: net.finished(nodes), max_time=5000)


def test_a_fault_while_re_checking_the_stored_log_halts_the_resumed_session():
    net = SimNet(15)
    nodes = net.table("aton", 2)
    faulty = nodes[0]
    assert net.run(lambda: len(faulty.disk.entries) >= 12, max_time=1000)
    net.crash(faulty)
    mp = pytest.MonkeyPatch()
    try:
        _plant(mp, net, faulty, engines.get("aton"), "apply")
        net.restart(faulty)
        halt = faulty.session.halt
        assert isinstance(halt, InternalFault) and "re-checking the stored log" in halt.text
    finally:
        mp.undo()
    net.crash(faulty)
    net.restart(faulty)
    assert net.run(lambda: net.finished(nodes), max_time=5000)


def test_the_chain_lets_anything_but_an_illegal_action_through_as_our_own_fault(monkeypatch):
    net = SimNet(16)
    nodes = net.table("aton", 2)
    assert net.run(lambda: len(nodes[0].disk.entries) >= 8, max_time=1000)
    from peerboard.protocol.log.ledger import Ledger

    genesis, entries = nodes[0].disk.genesis, nodes[0].disk.entries
    ledger = Ledger.start(genesis)
    monkeypatch.setattr(engines.get("aton"), "apply", lambda state, action: {}[action])
    with pytest.raises(KeyError):  # not a LedgerError: no entry is blamed for it
        for entry in entries:
            ledger = ledger.check(entry)
    assert not isinstance(KeyError(), LedgerError)


# -- nothing loses its handler silently ----------------------------------------------------------


def test_every_phase_takes_every_message_class():
    for phase in Phase:
        assert set(_TAKES[phase]) == set(MESSAGE_CLASSES)


def test_a_message_class_without_its_row_fails_when_the_session_loads():
    incomplete = {cls: row for cls, row in _TABLE.items() if cls is not Ack}
    with pytest.raises(ImportError, match="no row: \\['Ack'\\]"):
        dispatch_table(incomplete)
    short = dict(_TABLE)
    short[Ack] = _TABLE[Ack][:-1]
    with pytest.raises(ImportError, match="not one handler per phase: \\['Ack'\\]"):
        dispatch_table(short)


def test_the_console_takes_every_event_by_its_class_and_an_unknown_one_loudly():
    node = SimpleNamespace(on_event=None, session=None, log_path=None, stop=lambda: None)
    seat = Seat(node, out=io.StringIO())
    assert set(seat.handlers) == set(SESSION_EVENTS) | set(NODE_EVENTS)

    class Renamed(Event):  # an event class the console was not told about
        pass

    with pytest.raises(KeyError):
        seat.on_event(Renamed())
