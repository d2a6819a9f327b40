"""What a move costs on the wire, in the simulated network (spec/protocol.md, "Confirmation"
and "Fair chance"): at most 4n messages a move besides the beats, at any table size; at
three seats or more each seat acks an entry to its author alone, and the author's confirm
carries every seat's state hash on — so every node still confirms every entry and still
sees a desync, under loss, duplication, reordering and partitions; a seat's value for a
reveal round goes to the round's gatherer alone."""
import pytest

from peerboard.protocol.session.messages import Ack, Beat, Confirm, EntryMessage, Hello, decode_message
from peerboard.protocol.session.session import Desync
from support.simnet import SimNet, problems
from support.simnet import assert_agreement, play_faulty

TABLES = [("aton", 2, {}), ("asterix", 2, {"max_rounds": 4}), ("athos", 3, {}), ("asterix", 4, {"max_rounds": 2}),
          ("asterix", 8, {"max_rounds": 1})]


def sent(nodes):
    """(sender's seat, receiver key, message) of every message the nodes sent."""
    return [(n.session.local_seat, to, decode_message(data)) for n in nodes for to, data in n.sent]


def seat_keys(nodes):
    """The seats' keys, by seat (the seats are taken in the order the hellos arrived)."""
    return [s.key for s in nodes[0].disk.genesis.terms.seats]


@pytest.mark.parametrize("game, seats, options", TABLES, ids=[f"{g}-{n}" for g, n, _ in TABLES])
def test_a_move_costs_at_most_4n_messages_besides_the_beats(game, seats, options):
    net = SimNet(11)
    nodes = net.table(game, seats, options)
    for n in nodes:
        n.sent.clear()
    assert net.run(lambda: net.finished(nodes), max_time=20000)
    net.run(lambda: all(len(n.confirmed) == len(n.disk.entries) for n in nodes), max_time=10)
    assert all(len(n.confirmed) == len(n.disk.entries) for n in nodes)  # every node confirmed every entry
    entries = nodes[0].disk.entries
    messages = [m for _, _, m in sent(nodes) if not isinstance(m, Beat)]
    moves = sum(1 for e in entries if e.kind == "move")
    # the game's end is two entries, each gathered (protocol/log/ends.py), so a move and its
    # share of the reveal rounds and of the end cost at most 4n messages, the end included
    assert [e.kind for e in entries[-2:]] == ["audits", "results"]
    assert not any(e.kind in ("audit", "result") for e in entries)
    assert moves and len(messages) / moves <= 4 * seats, (len(messages) / moves, 4 * seats)
    # and any entry about 3(n - 1): the entry to n - 1 peers, n - 1 acks, n - 1 confirms
    # (at two seats the other seat's ack is the confirm; acks said again at beats besides)
    assert len(messages) / len(entries) <= 3.5 * (seats - 1), (len(messages) / len(entries), 3 * (seats - 1))


def _seq(m):
    """The seq of the entry a message is about, if it is about one."""
    if isinstance(m, EntryMessage):
        return m.entry.seq
    if isinstance(m, (Ack, Confirm)):
        return m.seq
    return None


def test_at_three_seats_or_more_a_seat_acks_each_entry_to_its_author_alone():
    net = SimNet(3)
    nodes = net.table("asterix", 4, {"max_rounds": 1})
    assert net.run(lambda: net.finished(nodes), max_time=20000)
    net.run(lambda: False, max_time=3)
    entries = nodes[0].disk.entries
    keys = seat_keys(nodes)
    acks = [(i, to, m) for i, to, m in sent(nodes) if isinstance(m, Ack)]
    assert acks and all(m.seq == 0 or to == keys[entries[m.seq - 1].seat] for _, to, m in acks)
    assert all(entries[m.seq - 1].seat != i for i, _, m in acks if m.seq)  # the author never acks its own
    confirms = [(i, m) for i, _, m in sent(nodes) if isinstance(m, Confirm)]
    confirms += [(i, m.confirm) for i, _, m in sent(nodes) if isinstance(m, EntryMessage) and m.confirm]
    assert confirms and all(entries[m.seq - 1].seat == i and len(m.states) == 4 for i, m in confirms)


@pytest.mark.parametrize("seats", [2, 4, 8])
def test_a_seat_s_value_for_a_round_goes_to_the_round_s_gatherer_alone(seats):
    net = SimNet(4)
    nodes = net.table("asterix", seats, {"max_rounds": 1})
    watcher = net.spectator(nodes[0])
    assert net.run(lambda: net.finished(nodes), max_time=20000)
    entries = nodes[0].disk.entries
    rounds = [e for e in entries if e.kind == "reveals"]
    assert rounds and not any(e.kind == "reveal" for e in entries)
    keys = seat_keys(nodes)
    # (the same field carries a seat's seed for the audits: protocol/log/ends.py)
    valued = [(i, to, m) for i, to, m in sent(nodes) if isinstance(m, Ack) and m.reveal is not None]
    for i, to, m in valued:
        gatherer = 0 if m.seq == 0 else entries[m.seq - 1].seat
        assert to == keys[gatherer] and entries[m.seq].kind in ("reveals", "audits") and entries[m.seq].seat == gatherer
    assert {(e.seq, e.seat) for e in rounds} <= {(m.seq + 1, keys.index(to)) for _, to, m in valued} | {(1, 0)}
    assert watcher.key not in {to for _, to, _ in valued}
    # the seeds and the signatures of the result go to the end's gatherer alone, too
    audits, results = entries[-2:]
    assert (audits.kind, results.kind) == ("audits", "results")
    seeds = {i for i, to, m in valued if m.seq == audits.seq - 1}
    signed = [(i, to, m) for i, to, m in sent(nodes) if isinstance(m, Ack) and m.sig is not None]
    others = set(range(seats)) - {audits.seat}
    assert seeds == others and {i for i, _, _ in signed} == others
    assert all(to == keys[audits.seat] and m.seq == audits.seq for _, to, m in signed)
    assert watcher.key not in {to for _, to, _ in signed}
    assert results.seat == audits.seat == entries[-3].seat


def test_a_desync_at_eight_seats_halts_every_node_with_every_seat_s_hash(monkeypatch):
    """One node's engine computes another state hash (a bug): the author of the next entry
    sees it in that seat's ack, and its confirm carries every hash to every node."""
    net = SimNet(5)
    nodes = net.table("asterix", 8, {"max_rounds": 2})
    assert net.run(lambda: len(nodes[0].disk.entries) >= 8, max_time=1000)
    odd = next(n for n in nodes if n.session.local_seat == 5)
    engine = type(odd.session.game)
    real = engine.state_hash
    monkeypatch.setattr(engine, "state_hash", lambda self, state: b"\x66" * 32 if net.running is odd else real(self, state))
    assert net.run(lambda: all(n.session.halt is not None for n in nodes), max_time=60)
    halts = [n.session.halt for n in nodes]
    assert all(isinstance(h, Desync) for h in halts)
    # (each at the first entry where it saw it: the odd node may have been an entry behind)
    assert all(dict(h.hashes)[5] == b"\x66" * 32 and any(s != b"\x66" * 32 for _, s in h.hashes) for h in halts)


@pytest.mark.parametrize("seed", range(3))
def test_eight_seats_under_loss_reordering_partitions_and_crashes_confirm_everything(seed):
    net, nodes = play_faulty("asterix", 8, {"max_rounds": 1}, seed, drop=0.15, dup=0.1, crashes=2, partitions=2)
    assert_agreement(net, nodes)
    # (a node restarted from its log takes what it stored as confirmed: `confirmed_seq`)
    net.run(lambda: all(n.session.confirmed_seq == len(n.disk.entries) for n in nodes), max_time=60)
    assert all(n.session.confirmed_seq == len(n.disk.entries) for n in nodes)
    assert all(n.session.acked(i) == len(n.disk.entries) for n in nodes for i in range(8))
    assert not any(problems(n) for n in nodes)


def test_a_confirm_from_another_than_the_entry_s_author_or_of_the_wrong_size_is_refused():
    net = SimNet(2)
    nodes = net.table("asterix", 3, {"max_rounds": 1})
    assert net.run(lambda: min(len(n.disk.entries) for n in nodes) >= 6, max_time=1000)
    keys = seat_keys(nodes)
    entry = nodes[0].disk.entries[4]
    liar = next(n for n in nodes if n.key != keys[entry.seat])
    victim = next(n for n in nodes if n is not liar and n.key != keys[entry.seat])
    lie = b"\x13" * 32
    net.inject(liar, victim, Confirm(entry.seq, entry.hash, (lie,) * 3).to_bytes())
    net.inject(keys_node(nodes, keys[entry.seat]), victim, Confirm(entry.seq, entry.hash, (lie,) * 2).to_bytes())
    net.run(lambda: False, max_time=1)
    reasons = " | ".join(getattr(e, "reason", "") for e in victim.events)
    assert f"only its author confirms it" in reasons and "one state hash (or nil) per seat" in reasons
    assert victim.session.halt is None
    assert net.run(lambda: net.finished(nodes), max_time=20000)


def keys_node(nodes, key):
    return next(n for n in nodes if n.key == key)


def test_a_log_of_per_seat_reveals_plays_on_as_it_was_written_after_a_restart(monkeypatch):
    """spec/log-format.md, "The genesis": a genesis without `reveals` (every log written
    before it) has one `reveal` entry per seat and round, and a node resuming one goes on so."""
    from peerboard.protocol.session import forming

    monkeypatch.setattr(forming, "REVEALS_TOGETHER", None)  # a table opened by the version before
    net = SimNet(8)
    nodes = net.table("asterix", 4, {"max_rounds": 2})
    monkeypatch.undo()
    assert nodes[0].disk.genesis.terms.reveals is None
    assert net.run(lambda: len(nodes[0].disk.entries) >= 12, max_time=1000)
    net.crash(nodes[2])
    net.run(lambda: False, max_time=2)
    net.restart(nodes[2])
    assert net.run(lambda: net.finished(nodes), max_time=20000)
    net.run(lambda: False, max_time=3)
    assert_agreement(net, nodes)
    kinds = {e.kind for e in nodes[0].disk.entries}
    assert "reveal" in kinds and "reveals" not in kinds


@pytest.mark.parametrize("seed", [4, 6, 7, 9])
def test_a_spectator_at_four_seats_sees_every_entry_confirmed_through_the_authors_confirms(seed):
    """A spectator acks nothing: a confirm it lost is asked for again (seeds 4, 6 and 7 lose
    the last entry's confirm on the way to it)."""
    net = SimNet(seed, drop=0.1, delay=(0.001, 0.05))
    nodes = net.table("asterix", 4, {"max_rounds": 1})
    watcher = net.spectator(nodes[0])
    assert net.run(lambda: watcher.session.phase.name == "PLAYING", max_time=100)
    s = watcher.session
    for seat in nodes[1:]:  # as its node does once it has the genesis (node/loop.py): hello to every seat
        hello = Hello(s.table_id, s.game_name, "watcher", watcher.key, "spectator", bytes(32), bytes(32),
                      f"sim://{watcher.index}", None).to_bytes()
        net.inject(watcher, seat, hello)
    assert net.run(lambda: net.finished(nodes) and s.confirmed_seq == len(nodes[0].disk.entries), max_time=5000)
    assert all(s.acked(i) == len(nodes[0].disk.entries) for i in range(4))
    assert not any(isinstance(decode_message(data), (Ack, Confirm)) for _, data in watcher.sent)  # it never acks
    assert not problems(watcher)


def test_spent_chains_at_four_seats_a_round_gathered_by_the_last_chain_s_writer(monkeypatch):
    """Hash chains of 2 values: a seat whose chain is spent writes its `chain` entry before
    the round, and the round's gatherer is the writer of the entry before it."""
    from peerboard.protocol.log import ledger as protocol_ledger, secrets

    monkeypatch.setattr(secrets, "CHAIN_LENGTH", 2)
    monkeypatch.setattr(protocol_ledger, "CHAIN_LENGTH", 2)
    net = SimNet(6)
    nodes = net.table("asterix", 4, {"max_rounds": 2})
    assert net.run(lambda: net.finished(nodes), max_time=2000)
    net.run(lambda: False, max_time=3)
    assert_agreement(net, nodes)
    entries = nodes[0].disk.entries
    rounds = [e for e in entries if e.kind == "reveals"]
    assert sum(e.kind == "chain" for e in entries) >= 4
    assert any(entries[e.seq - 2].kind == "chain" for e in rounds if e.seq > 1)
    assert all(e.seq == 1 or e.seat == entries[e.seq - 2].seat for e in rounds)
