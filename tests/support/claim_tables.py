"""Tables in the simulated network where seats are claimed (tests/protocol/test_session_claims.py
and the tests of takeovers and endings built on it): claimers that act on `Claimable` after a
person's delay, the nodes in seat order, and the check that every honest log is the same."""
from peerboard.protocol.log.ledger import Ledger
from peerboard.protocol.session.session import Claimable, LocalError
from support.simnet import SimNet, problems

OPTIONS = {"athos": {}, "asterix": {"max_rounds": 3}}


def verified(node) -> Ledger:
    ledger = Ledger.start(node.disk.genesis)
    for entry in node.disk.entries:
        ledger = ledger.check(entry)
    return ledger


def same_logs(nodes) -> None:
    logs = [[e.encoded for e in n.disk.entries] for n in nodes]
    assert all(log == logs[0] for log in logs), "the honest nodes' logs differ"
    assert not any(problems(n) for n in nodes)
    assert verified(nodes[0]).finished


class Claimers:
    """Each seat still there claims a seat it is told is claimable, after its own delay (a
    person is slower than a bot)."""

    def __init__(self, net, nodes, delay=(0.0, 3.0)):
        self.net, self.nodes, self.delay = net, nodes, delay
        self.seen = {n.index: 0 for n in nodes}
        self.due: list = []  # (at, node, seat)
        self.signed: dict = {}  # node index -> how many statements it signed

    def step(self) -> None:
        net = self.net
        for n in self.nodes:
            if not n.alive:
                continue
            for e in n.events[self.seen[n.index]:]:
                if isinstance(e, Claimable):
                    self.due.append((net.now + net.rng.uniform(*self.delay), n, e.seat))
            self.seen[n.index] = len(n.events)
        for item in [d for d in self.due if d[0] <= net.now]:
            self.due.remove(item)
            _, n, seat = item
            if n.alive and n.session is not None:
                try:
                    net.apply(n, n.session.claim(seat, net.now))
                    self.signed[n.index] = self.signed.get(n.index, 0) + 1
                except LocalError:
                    pass  # (the moment passed: the seat was heard again, or another entry came)

    def run(self, until, max_time) -> bool:
        deadline = self.net.now + max_time
        while self.net.now < deadline:
            if until():
                return True
            self.step()
            self.net.run(until, max_time=0.1)
        return until()


def table(seed, game, seats, **net_args):
    net = SimNet(seed, **net_args)
    nodes = net.table(game, seats, OPTIONS[game], patience=10)
    return net, by_seat(nodes)


def seat_of(node) -> int:
    return node.session.local_seat


def by_seat(nodes) -> list:
    """The nodes in seat order (the joiners are seated in the order they were welcomed)."""
    return sorted(nodes, key=seat_of)


def play_until(net, nodes, entries):
    net.run(lambda: min(len(n.disk.entries) for n in nodes) >= entries or net.finished(nodes), max_time=400)
