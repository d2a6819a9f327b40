"""The consensus session in a simulated network: lost, duplicated, delayed and reordered
messages, partitions that heal, nodes that crash and restart from their stored logs.
Every game ends; all honest nodes hold byte-identical logs; nothing confirmed is lost.

The long property set (`LONG`) runs whole with `--long`; every other run plays a slice of it
chosen by the run's simulation seed, which the test header prints (conftest.py): replay a
failure with `PEERBOARD_SIM_SEED=<seed> pytest tests/protocol/test_session_sim.py`."""
import random

import pytest

from peerboard.protocol.session.session import LocalError, Phase
from support.simnet import SimNet, assert_agreement, play_clean, play_faulty
from support.tables import LONG_GAMES, quick_tables, tables

# (game, seats, options): every registered game at its fewest seats, its most and one count between
GAMES = tables()


@pytest.mark.parametrize("game, seats, options", GAMES, ids=[f"{g}-{n}" for g, n, _ in GAMES])
def test_a_clean_network_plays_every_game_to_the_end(game, seats, options):
    play_clean(game, seats, options)


FAULTY = [(g, n, o, seed) for g, n, o in quick_tables() for seed in range(3)]


@pytest.mark.parametrize("game, seats, options, seed", FAULTY, ids=[f"{g}-{n}-seed{s}" for g, n, _, s in FAULTY])
def test_loss_duplication_reordering_partitions_and_crashes(game, seats, options, seed):
    net, nodes = play_faulty(game, seats, options, seed, drop=0.15, dup=0.1, crashes=3, partitions=2)
    assert_agreement(net, nodes)


# Athos random games run to thousands of entries: fewer seeds of them (support/tables.py, LONG_GAMES)
LONG = [(g, n, o, seed) for g, n, o in GAMES for seed in range(3, 8 if g in LONG_GAMES else 23)]
SLICE = 10  # long cases of the quick games every run plays, and one of a long game (~20 s in all on 2 cores)


def long_slice(seed: int) -> list:
    """The long cases a run with simulation seed `seed` plays: `SLICE` of the quick games'
    (Aton's, Asterix's), and one of a long game's (Athos's, whose games run to thousands of
    entries)."""
    rng = random.Random(seed)
    quick = [c for c in LONG if c[0] not in LONG_GAMES]
    long = [c for c in LONG if c[0] in LONG_GAMES]
    picked = rng.sample(quick, min(SLICE, len(quick))) + ([rng.choice(long)] if long else [])
    return sorted(picked, key=LONG.index)


def pytest_generate_tests(metafunc):
    if "slice_case" in metafunc.fixturenames:
        seed = metafunc.config.sim_seed
        cases = long_slice(seed)
        metafunc.parametrize("slice_case", cases, ids=[f"sim-seed{seed}-{g}-{n}-seed{s}" for g, n, _, s in cases])


def _play_long(game, seats, options, seed):
    net, nodes = play_faulty(game, seats, options, seed, drop=0.25, dup=0.2, crashes=6, partitions=4)
    assert_agreement(net, nodes)


@pytest.mark.slow
@pytest.mark.parametrize("game, seats, options, seed", LONG, ids=[f"{g}-{n}-seed{s}" for g, n, _, s in LONG])
def test_long_property_set(game, seats, options, seed):
    _play_long(game, seats, options, seed)


@pytest.mark.timeout(900)  # CPU-bound: on a loaded machine its wall time is several times its CPU time
def test_a_slice_of_the_long_set_chosen_by_the_runs_seed(request, slice_case):
    if request.config.getoption("--long"):
        pytest.skip("--long: the whole long set runs")
    _play_long(*slice_case)


def test_a_spectator_joining_mid_game_catches_up_and_cannot_author():
    net = SimNet(5)
    nodes = net.table("aton", 2)
    net.run(lambda: len(nodes[0].disk.entries) >= 40, max_time=1000)
    watcher = net.spectator(nodes[1])
    assert net.run(lambda: net.finished(nodes) and watcher.session.phase is Phase.OVER
                   and watcher.session.log_length == len(nodes[0].disk.entries), max_time=5000)
    assert [e.encoded for e in watcher.disk.entries] == [e.encoded for e in nodes[0].disk.entries]
    assert watcher.session.local_seat is None and watcher.session.legal_actions() == ()
    with pytest.raises(LocalError):
        watcher.session.submit([("keep",)], net.now)


def test_a_crashed_node_restarts_from_its_log_and_catches_up():
    net = SimNet(8)
    nodes = net.table("aton", 2)
    net.run(lambda: len(nodes[1].disk.entries) >= 30, max_time=1000)
    net.crash(nodes[1])
    net.run(lambda: False, max_time=3)  # the other seat can't go on alone: it waits
    net.restart(nodes[1])
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    assert_agreement(net, nodes)


def test_an_author_that_loses_power_before_its_fsync_gets_its_entry_back_and_signs_no_other():
    """An author sends its entry before its own fsync, so the peers' checks overlap it. If
    its machine loses power in between, the entry is gone from its disk but not from the
    peer's. Restarted, the seat writes nothing until it has heard every seat's head, takes
    its own entry back from the peer, and the game goes on: no second entry for that seq."""
    from peerboard.protocol.session.messages import decode_message
    from peerboard.protocol.session.session import YourTurn

    net = SimNet(21)
    a, b = nodes = net.table("aton", 2)
    net.run(lambda: len(b.disk.entries) >= 20 and a.session.position().to_act == (0, "move"), max_time=1000)
    a.cut_power_at_sync = True  # at the fsync of that move
    assert net.run(lambda: not a.alive, max_time=1000)
    lost = len(a.disk.entries) + 1
    assert net.run(lambda: len(b.disk.entries) >= lost, max_time=10)  # the peer has it
    lost_entry = b.disk.entries[lost - 1]
    assert (lost_entry.seat, lost_entry.kind) == (0, "move")
    net.partition([a], [b], 6.0)
    sent, events = len(a.sent), len(a.events)
    net.restart(a)
    net.run(lambda: False, max_time=4)  # cut off from the only other seat
    assert len(a.disk.entries) == lost - 1
    assert all(decode_message(data).kind != "entry" for _, data in a.sent[sent:])
    assert not any(isinstance(e, YourTurn) for e in a.events[events:])
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    assert a.disk.entries[lost - 1].hash == lost_entry.hash
    assert_agreement(net, nodes)


def test_a_silent_peer_is_shown_away_and_back():
    from peerboard.protocol.session.session import PeerAway, PeerBack

    net = SimNet(9)
    nodes = net.table("aton", 2)
    net.crash(nodes[1])
    net.run(lambda: False, max_time=8)
    assert any(isinstance(e, PeerAway) and e.seat == 1 for e in nodes[0].events)
    net.restart(nodes[1])
    net.run(lambda: False, max_time=3)
    assert any(isinstance(e, PeerBack) and e.seat == 1 for e in nodes[0].events)
    assert net.run(lambda: net.finished(nodes), max_time=5000)


def test_a_planned_turn_of_several_actions_is_one_entry():
    """A person may try moves locally and commit the whole turn at once: one move entry
    carrying every action of the turn, accepted and confirmed like any other."""
    from peerboard.protocol.session.session import YourTurn

    net = SimNet(12)
    nodes = net.table("asterix", 2, {"max_rounds": 2})
    net.think = (50.0, 50.0)  # the bots stay out of it
    planned = 0
    for _ in range(200):
        assert net.run(lambda: any(isinstance(e, YourTurn) and e.kind == "move" for e in nodes[0].events + nodes[1].events)
                       or net.finished(nodes), max_time=100)
        if net.finished(nodes):
            break
        turn = next(e for e in reversed(nodes[0].events + nodes[1].events) if isinstance(e, YourTurn))
        node = nodes[turn.seat]
        for n in nodes:
            n.events = [e for e in n.events if not isinstance(e, YourTurn)]
        game, state = node.session.game, node.session.position().state
        plan = []
        while game.current(state) == turn.seat and len(plan) < 10:
            action = game.legal_actions(state)[0]
            plan.append(action)
            state = game.apply(state, action)
        net.apply(node, node.session.submit(plan, net.now))
        planned += len(plan) > 1
    assert net.run(lambda: net.finished(nodes), max_time=1000)
    assert planned >= 3
    multi = [e for e in nodes[0].disk.entries if e.kind == "move" and len(e.body["actions"]) > 1]
    assert len(multi) >= 3
    assert_agreement(net, nodes)


def test_a_spectator_gets_the_seats_acks_and_sees_what_is_confirmed():
    """spec/transport.md "Spectators", step 5: seats send their acks to the spectators they
    serve, and a spectator counts them as a seat does."""
    from peerboard.protocol.session.messages import Ack, Hello, decode_message
    from peerboard.protocol.session.session import Confirmed

    net = SimNet(6)
    nodes = net.table("aton", 2)
    net.run(lambda: len(nodes[0].disk.entries) >= 10, max_time=1000)
    watcher = net.spectator(nodes[0])
    assert net.run(lambda: watcher.session.phase is Phase.PLAYING, max_time=100)
    # as its node does once it has the genesis (node/loop.py): hello to every seat
    s = watcher.session
    hello = Hello(s.table_id, s.game_name, "watcher", watcher.key, "spectator", bytes(32), bytes(32),
                  f"sim://{watcher.index}", None).to_bytes()
    net.inject(watcher, nodes[1], hello)
    assert net.run(lambda: net.finished(nodes) and watcher.session.phase is Phase.OVER
                   and watcher.session.confirmed_seq == len(nodes[0].disk.entries), max_time=5000)
    confirmed = [e.seq for e in watcher.events if isinstance(e, Confirmed)]
    assert confirmed and confirmed[-1] == len(nodes[0].disk.entries)
    assert all(watcher.session.acked(i) == len(nodes[0].disk.entries) for i in (0, 1))
    assert not any(isinstance(decode_message(data), Ack) for _, data in watcher.sent)  # it never acks
