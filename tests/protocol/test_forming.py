"""A table forming on a hostile LAN, sans-IO in the simulated network (spec/protocol.md,
"Forming a table"): a seat is held only by a live node, a clean leave frees it at once, the
same key coming back takes its seat again, keys that say hello and vanish never get a
table proposed, a seat that goes silent or never signs after the proposal has the proposal
withdrawn and the table formed again, the host removes a seat, and a private table takes
only a hello that proves its code."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings, strategies as st

from peerboard.protocol.session.forming import (
    CLOSED, FULL, FULL_PATIENCE, PRIVATE, REMOVED, SEAT_LEASE, SIGN_WITHIN, STARTED, WRONG_CODE,
)
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello, Leave, Welcome, decode_message
from peerboard.protocol.log.secrets import SeatSecrets
from peerboard.protocol.session.session import (
    InternalFault, LocalError, Phase, Refused, Rejected, Seated, SeatFreed, SeatTaken, Session,
)
from peerboard.protocol.session.tablecode import code_problem, knock, pick_code, stretched
from support.simnet import SimNet
from support.budget import examples

GAME, PLAYERS = "athos", 3


def _open(seed: int = 1, players: int = PLAYERS, code: str | None = None):
    net = SimNet(seed)
    host = net.add_node()
    net.table_id, net.game_name = net.rng.randbytes(16), GAME
    net.begin(host, Session.host(host.identity, host.secrets, "host", "sim://0", GAME, players, {}, net.table_id,
                                 host.rng.randbytes, net.now, code=code))
    return net, host


def _join(net, host, node=None, code: str | None = None, name: str | None = None):
    """A node (new, or `node` again: the same key, restarted) asks the host for a seat."""
    node = node or net.add_node()
    node.alive = True
    session, effects = Session.join(node.identity, node.secrets, name or f"node-{node.index}", f"sim://{node.index}",
                                    host.key, net.table_id, net.game_name, node.rng.randbytes, net.now, code=code)
    net.begin(node, session, effects)
    return node


def _never_signs(node) -> None:
    """`node` goes on saying hello and beating, but its signatures never leave."""
    real = node.runner.io.send
    node.runner.io.send = lambda to, data: None if decode_message(data).kind == "sign" else real(to, data)


def _events(node, cls):
    return [e for e in node.events if isinstance(e, cls)]


def _taken(host):
    return {s.index: s.key for s in host.session.seats}


def _seated(net, host, node):
    return net.run(lambda: node.key in _taken(host).values() and node.session.local_seat is not None, max_time=10)


def _playing(net, nodes):
    return net.run(lambda: all(n.session.phase is Phase.PLAYING for n in nodes), max_time=60)


def test_a_silent_joiner_loses_its_seat_after_the_lease_and_another_takes_it():
    net, host = _open()
    a = _join(net, host)
    assert _seated(net, host, a)
    net.crash(a)  # killed while the table forms: never heard again
    t = net.now
    assert net.run(lambda: _events(host, SeatFreed), max_time=SEAT_LEASE + 2)
    freed = _events(host, SeatFreed)[0]
    assert (freed.index, freed.fingerprint, freed.why) == (1, a.identity.fingerprint, "silent")
    assert net.now - t >= SEAT_LEASE - 0.5
    b, c = _join(net, host), _join(net, host)
    assert _playing(net, [host, b, c])
    assert {s.key for s in host.session.seats} == {host.key, b.key, c.key}


def test_a_live_joiner_keeps_its_seat_however_long_the_table_takes_to_fill():
    net, host = _open()
    a = _join(net, host)
    net.run(lambda: False, max_time=10 * SEAT_LEASE)
    assert not _events(host, SeatFreed) and a.key in _taken(host).values()


def test_a_clean_leave_frees_the_seat_at_once():
    net, host = _open()
    a = _join(net, host)
    assert _seated(net, host, a)
    net.apply(a, a.session.leave())
    net.crash(a)
    t = net.now
    assert net.run(lambda: _events(host, SeatFreed), max_time=1)
    assert _events(host, SeatFreed)[0].why == "left" and net.now - t < 1


def test_the_same_key_coming_back_takes_its_seat_again_even_with_a_new_hello():
    net, host = _open()
    a, b = _join(net, host), _join(net, host)
    assert _seated(net, host, a) and _seated(net, host, b)
    seat = a.session.local_seat
    net.crash(a)
    net.run(lambda: False, max_time=1)
    a.secrets = SeatSecrets.from_master(a.rng.randbytes(32))  # restarted: new commitments
    _join(net, host, node=a, name="back again")
    assert net.run(lambda: a.session.local_seat == seat and any(
        e.seat.name == "back again" for e in _events(host, SeatTaken)), max_time=5)
    assert _playing(net, [host, a, b])
    assert host.session.seats[seat].name == "back again"  # the genesis holds what it said last
    c = _join(net, host)
    assert net.run(lambda: _events(c, Refused), max_time=3)
    assert _events(c, Refused)[0].reason == "the table is full: its game has started"


def test_a_key_coming_back_after_its_seat_was_given_away_gets_a_free_seat_or_is_refused():
    net, host = _open(players=4)
    a = _join(net, host)
    assert _seated(net, host, a)
    net.crash(a)
    assert net.run(lambda: _events(host, SeatFreed), max_time=SEAT_LEASE + 2)
    b = _join(net, host)
    assert _seated(net, host, b) and b.session.local_seat == 1  # a's old seat, given away
    _join(net, host, node=a)
    assert _seated(net, host, a) and a.session.local_seat == 2


def test_keys_that_say_hello_once_and_vanish_never_get_a_table_proposed():
    net, host = _open()
    squatters = [net.add_node() for _ in range(2)]
    for s in squatters:
        hello = Hello(net.table_id, GAME, "squat", s.key, "seat", bytes(32), bytes(32), "sim://x")
        net.inject(s, host, hello.to_bytes())
    assert net.run(lambda: len(_taken(host)) == PLAYERS, max_time=1)  # they hold the seats for now
    c = _join(net, host)
    assert net.run(lambda: _events(c, Refused), max_time=3)  # full, while they hold them
    assert host.session.phase is Phase.FORMING  # but nothing is proposed to them
    assert net.run(lambda: len(_events(host, SeatFreed)) == 2, max_time=SEAT_LEASE + 2)
    assert host.session.phase is Phase.FORMING
    a, b = _join(net, host), _join(net, host)
    assert _playing(net, [host, a, b])


def test_a_seat_that_goes_silent_after_the_proposal_has_it_withdrawn_and_the_table_forms_again():
    net, host = _open()
    a = _join(net, host)
    assert _seated(net, host, a)
    b = _join(net, host)
    _never_signs(b)
    # b dies once the proposal has reached it, its signature never sent
    assert net.run(lambda: b.session.phase is Phase.SIGNING, max_time=5)
    net.crash(b)
    assert net.run(lambda: _events(host, SeatFreed), max_time=SEAT_LEASE + 2)
    assert host.session.phase is Phase.FORMING
    assert net.run(lambda: a.session.phase is Phase.FORMING, max_time=2)  # told: forming again
    assert host.session.genesis_hash is None and a.session.genesis_hash is None
    c = _join(net, host)
    assert _playing(net, [host, a, c])
    assert [s.key for s in host.session.seats] == [host.key, a.key, c.key]


def test_a_live_seat_that_never_signs_is_freed_after_the_signing_time():
    net, host = _open()
    a = _join(net, host)
    assert _seated(net, host, a)
    b = _join(net, host)
    _never_signs(b)  # a node that says hello and beats but never signs
    assert net.run(lambda: host.session.phase is Phase.SIGNING, max_time=5)
    t = net.now
    assert net.run(lambda: _events(host, SeatFreed), max_time=SIGN_WITHIN + 3)
    assert _events(host, SeatFreed)[0].why == "silent" and net.now - t >= SIGN_WITHIN - 1


def test_the_host_removes_a_seat_and_refuses_that_key_from_then_on():
    net, host = _open()
    a = _join(net, host)
    assert _seated(net, host, a)
    with pytest.raises(LocalError, match="Seat 0 is the host's own"):
        host.session.remove_seat(0, net.now)
    with pytest.raises(LocalError, match="Seat 2 is not taken by anyone"):
        host.session.remove_seat(2, net.now)
    with pytest.raises(LocalError, match="Only the host"):
        a.session.remove_seat(0, net.now)
    net.apply(host, host.session.remove_seat(1, net.now))
    assert _events(host, SeatFreed)[-1].why == "removed" and 1 not in _taken(host)
    assert net.run(lambda: _events(a, Refused), max_time=2)
    assert _events(a, Refused)[0].reason == REMOVED
    net.run(lambda: False, max_time=5)  # its repeated hellos are refused too
    assert 1 not in _taken(host)
    b, c = _join(net, host), _join(net, host)
    assert _playing(net, [host, b, c])
    with pytest.raises(LocalError, match="before the game starts"):
        host.session.remove_seat(1, net.now)


def test_removing_a_seat_after_the_proposal_withdraws_it():
    net, host = _open()
    a, b = _join(net, host), _join(net, host)
    _never_signs(b)  # (so the genesis is not complete yet)
    assert net.run(lambda: host.session.phase is Phase.SIGNING, max_time=5)
    net.apply(host, host.session.remove_seat(b.session.local_seat, net.now))
    assert host.session.phase is Phase.FORMING and _events(host, SeatFreed)[-1].why == "removed"
    c = _join(net, host)
    assert _playing(net, [host, a, c])


def test_the_host_leaving_closes_the_table_for_its_joiners():
    net, host = _open()
    a = _join(net, host)
    assert _seated(net, host, a)
    net.apply(host, host.session.leave())
    assert net.run(lambda: _events(a, Refused), max_time=2)
    assert _events(a, Refused)[0].reason == CLOSED


def _refusal(node) -> str | None:
    """The host's refusal for good (not one for now, that the node asks again after)."""
    found = [e for e in _events(node, Refused) if not e.again]
    return found[0].reason if found else None


def test_a_joiner_refused_because_the_table_is_full_asks_again_until_a_silent_seat_is_freed():
    net, host = _open(players=2)
    squatter = _join(net, host)
    assert _seated(net, host, squatter)
    net.crash(squatter)  # it holds seat 1 until its lease runs out
    honest = _join(net, host)
    assert net.run(lambda: honest.session.local_seat == 1, max_time=FULL_PATIENCE)
    told = _events(honest, Refused)
    assert [(e.reason, e.again) for e in told] == [(FULL, FULL_PATIENCE)]  # said once
    assert _playing(net, [host, honest])


def test_a_joiner_asks_again_for_a_bounded_time_then_the_full_table_refuses_it_for_good():
    net, host = _open()
    a, b = _join(net, host), _join(net, host)
    _never_signs(b)  # the table is full, and stays full while the proposal waits for it
    assert net.run(lambda: host.session.phase is Phase.SIGNING, max_time=3)
    late = _join(net, host)
    assert net.run(lambda: _events(late, Refused), max_time=3)
    net.crash(host)  # nothing more from the host: the joiner stops asking by itself
    t = net.now
    assert net.run(lambda: _refusal(late), max_time=FULL_PATIENCE + 3)
    assert [(e.reason, e.again) for e in _events(late, Refused)] == [(FULL, FULL_PATIENCE), (FULL, 0.0)]
    assert net.now - t <= FULL_PATIENCE + 1


def test_a_joiner_refused_because_the_game_has_started_is_refused_for_good_at_once():
    net, host = _open(players=2)
    a = _join(net, host)
    assert _playing(net, [host, a])
    late = _join(net, host)
    assert net.run(lambda: _refusal(late), max_time=3)
    assert [(e.reason, e.again) for e in _events(late, Refused)] == [(STARTED, 0.0)]


def test_a_private_table_refuses_a_hello_without_its_code_or_with_a_wrong_one():
    net, host = _open(code="Tea-Time")
    assert host.session.private
    nobody, wrong, right = _join(net, host), _join(net, host, code="tea-tine"), _join(net, host, code="TEA-time")
    assert net.run(lambda: _refusal(nobody) and _refusal(wrong) and right.session.local_seat, max_time=3)
    assert _refusal(nobody) == PRIVATE and _refusal(wrong) == WRONG_CODE and _refusal(right) is None
    assert right.session.private and {1} <= set(_taken(host))


def test_a_knock_is_bound_to_the_host_the_table_and_the_joiner():
    host, other = Identity.from_seed(bytes(32)).public_key, Identity.from_seed(bytes([1]) * 32).public_key
    table, joiner = bytes(16), Identity.from_seed(bytes([2]) * 32).public_key
    k = knock(stretched("abcd-efgh", host, table), joiner)
    assert k == knock(stretched("ABCD-EFGH", host, table), joiner)
    assert k != knock(stretched("abcd-efgh", other, table), joiner)  # a fake host's knock is no use here
    assert k != knock(stretched("abcd-efgh", host, bytes([1]) * 16), joiner)
    assert k != knock(stretched("abcd-efgh", host, table), other)  # nor another node's
    assert len(k) == 32 and b"abcd" not in k


def test_a_picked_code_is_eight_unmistakable_letters_and_codes_are_printable_ascii():
    code = pick_code(os.urandom)
    assert len(code) == 9 and code[4] == "-" and not set(code) & set("01ilo") and code_problem(code) is None
    assert code_problem("") and code_problem("two words") and code_problem("é") and code_problem("x" * 65)


def test_a_hello_whose_name_is_not_printable_is_rejected_by_its_schema():
    net, host = _open()
    s = net.add_node()
    hello = Hello(net.table_id, GAME, "\x1b[2Jowned", s.key, "seat", bytes(32), bytes(32), "sim://x")
    net.inject(s, host, hello.to_bytes())
    net.run(lambda: False, max_time=0.5)
    assert any("hello: name must be printable text" in e.reason for e in _events(host, Rejected))
    assert len(_taken(host)) == 1


def test_a_welcome_from_the_host_while_signing_says_the_proposal_was_withdrawn():
    """(spec/protocol.md, the phase table: `welcome` in SIGNING)"""
    net, host = _open(players=2)
    b = _join(net, host)
    assert net.run(lambda: b.session.phase is Phase.SIGNING, max_time=5)
    assert len(b.session.seats) == 2  # known from the proposal
    effects = b.session.receive(host.key, Welcome(1, 2).to_bytes(), net.now)
    assert b.session.phase is Phase.FORMING and Seated(1, 2) in effects and b.session.seats == ()

def test_a_joiner_does_not_sign_a_two_seat_proposal_that_names_a_takeover_strategy():
    """spec/log-format.md, "The genesis": no verifier takes a two-seat genesis with a
    `takeover`, so a joiner never signs one (a host of this version never proposes one)."""
    import dataclasses

    from peerboard.protocol.session.messages import Propose

    net, host = _open(players=2)
    b = _join(net, host)
    assert net.run(lambda: b.session.phase is Phase.SIGNING, max_time=5)
    proposal = b.session._stage.proposal
    assert proposal.takeover is None
    bad = Propose(dataclasses.replace(proposal, takeover="greedy"), b.session._stage.addrs)
    effects = b.session.receive(host.key, bad.to_bytes(), net.now)
    refused = [e for e in effects if isinstance(e, Rejected)]
    assert refused and "a takeover strategy at a table of two seats" in refused[0].reason
    assert b.session._stage.proposal == proposal  # still the one it signed


_KEYS = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(5)]
STEP = st.tuples(st.sampled_from(["hello", "new hello", "spectate", "leave", "wait", "remove"]),
                 st.integers(0, len(_KEYS) - 1), st.floats(0.0, 4.0))


@given(steps=st.lists(STEP, max_size=30))
@settings(max_examples=examples(200), deadline=None)
def test_whatever_nodes_say_and_however_long_they_wait_the_host_keeps_its_seats_straight(steps):
    host = Identity.from_seed(bytes(32))
    session = Session.host(host, SeatSecrets.from_master(bytes(32)), "host", "sim://0", GAME, PLAYERS, {},
                           bytes(16), lambda n: bytes(n), 0.0)
    now, salt = 0.0, 0
    for what, who, pause in steps:
        key = _KEYS[who].public_key
        now += pause
        if what in ("hello", "new hello", "spectate"):
            salt += what == "new hello"
            hello = Hello(bytes(16), GAME, f"n{who}", key, "spectator" if what == "spectate" else "seat",
                          bytes([salt % 256]) * 32, bytes(32), f"tcp://127.0.0.1:{1000 + who}")
            effects = session.receive(key, hello.to_bytes(), now)
        elif what == "leave":
            effects = session.receive(key, Leave().to_bytes(), now)
        elif what == "wait":
            effects = session.tick(now)
        else:
            try:
                effects = session.remove_seat(who % PLAYERS, now)
            except LocalError:
                effects = []
        assert not [e for e in effects if isinstance(e, InternalFault)]
        if session.phase in (Phase.FORMING, Phase.SIGNING):
            seats = session.seats
            assert seats[0].key == host.public_key and seats[0].connection == "you"
            assert len(seats) <= PLAYERS and len({s.index for s in seats}) == len(seats)
            assert len({s.key for s in seats}) == len(seats)
            if session.phase is Phase.SIGNING:
                assert len(seats) == PLAYERS


def test_the_worked_example_of_a_knock_in_the_log_format_spec_is_what_the_code_computes():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "spec" / "log-format.md").read_text()
    block = text[text.index("A private table's code `ABCD-efgh`"):]
    s, k = (line.split()[-1] for line in block.splitlines() if line.startswith(("stretched code ", "knock ")))
    code = stretched("ABCD-efgh", b"\x11" * 32, b"\x22" * 16)
    assert code.hex() == s and knock(code, b"\x33" * 32).hex() == k
