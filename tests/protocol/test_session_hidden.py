"""Hidden information in Aton over the network: a seat's private seed (which decides its
draws) and its committed cartouches never reach the other seat before the rules reveal
them — checked on the bytes the other seat received — and both seats still agree."""
from peerboard.protocol.session.messages import Ack, decode_message
from support.simnet import SimNet


def _received_before(net, node, needle: bytes, until: bytes) -> bool:
    """Whether `needle` is in any message `node` received before the first one holding `until`."""
    for data in net.received[node.key]:
        if until in data:
            return False
        if needle in data:
            return True
    return False


def _aton_game(seed):
    net = SimNet(seed)
    nodes = net.table("aton", 2)
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    return net, nodes


def test_a_seats_private_seed_reaches_no_one_before_its_audit():
    """(the end together, protocol/log/ends.py: a seat's seed rides on its ack of the entry that
    ended the game, to the gatherer alone; the gatherer's own is in the `audits` entry)"""
    net, nodes = _aton_game(31)
    audits = next(e for e in nodes[0].disk.entries if e.kind == "audits")
    for me, other in ((nodes[0], nodes[1]), (nodes[1], nodes[0])):
        seed = me.secrets.seed
        first = next(data for data in net.received[other.key] if seed in data)  # it does, in the end
        m = decode_message(first)
        if me.session.local_seat == audits.seat:
            assert audits.encoded in first
        else:
            assert isinstance(m, Ack) and m.seq == audits.seq - 1 and m.reveal == seed


def test_committed_cartouches_stay_secret_until_both_seats_committed():
    net, nodes = _aton_game(32)
    entries = nodes[0].disk.entries
    reveals = [e for e in entries if e.kind == "move" and e.body["nonce"] is not None]
    assert len(reveals) >= 4
    for reveal in reveals:
        other = nodes[1 - reveal.seat]
        # the nonce (and so the choice it hides) is unknown to the other seat until the reveal
        assert not _received_before(net, other, reveal.body["nonce"], reveal.encoded)
        # and it comes only after both seats committed for this round
        earlier = [r.seq for r in reveals if r.seat == reveal.seat and r.seq < reveal.seq]
        since = entries[(earlier[-1] if earlier else 0) : reveal.seq - 1]
        assert {e.seat for e in since if e.kind == "commit"} == {0, 1}


def test_each_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    net = SimNet(33)
    nodes = net.table("aton", 2)
    net.think = (5.0, 5.0)  # stop at the first decision: the hands are dealt
    assert net.run(lambda: all(n.session.position().to_act[1] in ("move", "commit") for n in nodes)
                   and nodes[0].session.log_length == nodes[1].session.log_length, max_time=100)
    for me in nodes:
        state = me.session.position().state
        mine, theirs = state.seats[me.session.local_seat], state.seats[1 - me.session.local_seat]
        assert mine.hand is not None and sum(mine.hand) == 4
        assert theirs.hand is None and theirs.hand_size == 4
    # yet both agree on the state hash (it covers only what both know)
    h = [n.session.game.state_hash(n.session.position().state) for n in nodes]
    assert h[0] == h[1]
