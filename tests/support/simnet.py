"""A deterministic simulated network for consensus sessions.

Every node is a real `protocol.session.Session` whose effects the production runner
(`protocol.effects.EffectRunner`) carries out, the session's deferred steps included; the
network is a seeded scheduler that delays, drops, duplicates and reorders messages, cuts
links for a while (partitions that heal) and crashes nodes, which restart from what they had
stored. Random bots decide when a session says it is their turn, reading it only through
its public surface. Time is simulated: nothing sleeps.

`Node.cpu` is the CPU time a node's own work took: its session's handling of what it receives,
its ticks, its submits and deferred steps, and the effects its runner carries out (the
simulated sends and stores included). Not counted: the scheduler, the random bots' choosing,
and whatever a test looks at (bench/bench_session.py reports both).
"""
from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from time import process_time
from typing import Any

from peerboard.protocol.session.effects import EffectRunner
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.log.secrets import SeatSecrets
from peerboard.protocol.session.session import (
    Confirmed, Desync, Equivocation, Event, GameOver, LocalError, Phase, Rejected, Session, TakeoverTurn, YourTurn,
)

TICK = 0.25
IDLE_LAG = (0.0, 0.004)  # how long a node's deferred step waits for the input in flight


@dataclass
class Disk:
    """What a node has stored: `entries` survive any crash; `written` (appended, not yet
    fsynced) survive a crashed process but not a power cut."""

    genesis: Any = None
    addrs: tuple = ()
    entries: list = field(default_factory=list)
    written: list = field(default_factory=list)
    choice: tuple | None = None
    claim: tuple | None = None  # the claim statement signed last: (gone, seq, prev)

    def all_entries(self) -> list:
        return self.entries + self.written


class _PowerCut(Exception):
    """Raised inside `apply` to stop a node between its effects."""


@dataclass
class Node:
    index: int
    identity: Identity
    secrets: SeatSecrets | None
    rng: random.Random
    session: Session | None = None
    disk: Disk = field(default_factory=Disk)
    alive: bool = True
    events: list = field(default_factory=list)
    confirmed: dict = field(default_factory=dict)  # seq -> entry hash when confirmed
    sent: list = field(default_factory=list)  # (to, bytes) of every message sent
    cut_power_at_sync: bool = False  # lose power at the next fsync of a written entry
    runner: EffectRunner | None = None
    idle_due: bool = False  # an "idle" event is queued for its deferred step
    aside: list = field(default_factory=list)  # entries a claim of this seat replaced, kept aside
    cpu: float = 0.0  # seconds of CPU its own work took (see the module's docstring)

    @property
    def key(self) -> bytes:
        return self.identity.public_key


class SimIO:
    """A simulated node's I/O, for the production effect runner."""

    def __init__(self, net: "SimNet", node: Node):
        self.net, self.node = net, node

    def send(self, to: bytes, data: bytes) -> None:
        net, node = self.net, self.node
        node.sent.append((to, data))
        net.messages += 1
        net.bytes += len(data)
        if to not in net.by_key:
            return
        if (net.cut and net.cut.get(frozenset((node.key, to)), -1) > net.now) or net.rng.random() < net.drop:
            return
        copies = 2 if net.rng.random() < net.dup else 1
        for _ in range(copies):
            net._push(net.now + net.rng.uniform(*net.delay), ("deliver", to, node.key, data))

    def store(self, entry, sync: bool) -> None:
        node = self.node
        assert len(node.disk.entries) + len(node.disk.written) + 1 == entry.seq, "stored out of order"
        node.disk.written.append(entry)
        if sync:
            self.net._sync(node)

    def sync(self) -> None:
        self.net._sync(self.node)

    def unstore(self, entry) -> None:
        disk = self.node.disk
        stored = disk.written or disk.entries
        assert stored and stored[-1] is entry, "took back an entry that is not the last"
        stored.pop()

    def set_aside(self, entries) -> None:
        disk = self.node.disk
        disk.entries += disk.written  # (what is kept aside is fsynced first, in its own file)
        disk.written.clear()
        n = len(entries)
        assert [e.hash for e in disk.entries[-n:]] == [e.hash for e in entries], "set aside what is not the tail"
        del disk.entries[-n:]
        self.node.aside.extend(entries)

    def store_genesis(self, genesis, addrs) -> None:
        self.node.disk.genesis, self.node.disk.addrs = genesis, addrs

    def store_choice(self, actions, nonce) -> None:
        self.node.disk.choice = (actions, nonce)

    def store_claim(self, gone, seq, prev) -> None:
        self.node.disk.claim = (gone, seq, prev)

    def event(self, event: Event) -> None:
        node, net = self.node, self.net
        node.events.append(event)
        if isinstance(event, Confirmed):
            disk, i = node.disk, event.seq - 1
            held = len(disk.entries)
            node.confirmed[event.seq] = (disk.entries[i] if i < held else disk.written[i - held]).hash
        elif isinstance(event, YourTurn):
            net._push(net.now + net.rng.uniform(*net.think), ("decide", node.index, event, node.session.log_length))
        elif isinstance(event, TakeoverTurn):
            net._push(net.now + net.rng.uniform(*net.think), ("takeover", node.index, event, node.session.log_length))


class SimNet:
    def __init__(self, seed: int, *, drop: float = 0.0, dup: float = 0.0, delay: tuple = (0.001, 0.03),
                 think: tuple = (0.0, 0.02), idle_lag: tuple = IDLE_LAG):
        self.rng = random.Random(seed)
        self.drop, self.dup, self.delay, self.think, self.idle_lag = drop, dup, delay, think, idle_lag
        self.now = 0.0
        self.queue: list = []
        self.counter = 0
        self.nodes: list[Node] = []
        self.by_key: dict[bytes, Node] = {}
        self.cut: dict[frozenset, float] = {}  # link -> healed at
        self.messages = 0
        self.bytes = 0
        self.received: dict[bytes, list[bytes]] = {}  # key -> every message it received
        self.running: Node | None = None  # the node whose session is at work (tests plant faults in one)

    # -- building a table -------------------------------------------------------------------

    def add_node(self, seated: bool = True) -> Node:
        i = len(self.nodes)
        rng = random.Random(self.rng.randbytes(8))
        node = Node(i, Identity.from_seed(rng.randbytes(32)), SeatSecrets.from_master(rng.randbytes(32)) if seated else None, rng)
        self.nodes.append(node)
        self.by_key[node.key] = node
        return node

    def table(self, game: str, players: int, options: dict | None = None, patience: int | None = None,
              takeover: str | None = None) -> list[Node]:
        """`players` nodes; node 0 hosts (with that `patience`, if given), the others join;
        runs until the game has started."""
        nodes = [self.add_node() for _ in range(players)]
        host = nodes[0]
        self.table_id = self.rng.randbytes(16)
        self.game_name = game
        self.begin(host, Session.host(host.identity, host.secrets, "node-0", "sim://0", game, players,
                                      options or {}, self.table_id, host.rng.randbytes, self.now,
                                      patience=patience, takeover=takeover))
        for node in nodes[1:]:
            session, effects = Session.join(node.identity, node.secrets, f"node-{node.index}", f"sim://{node.index}",
                                            host.key, self.table_id, game, node.rng.randbytes, self.now)
            self.begin(node, session, effects)
        self.run(lambda: all(n.session.phase is Phase.PLAYING for n in nodes), max_time=60)
        return nodes

    def begin(self, node: Node, session: Session, effects: list = ()) -> None:
        """`node` runs `session` from now on (a new one, or one restarted)."""
        node.session = session
        node.runner = EffectRunner(session, SimIO(self, node))
        node.idle_due = False
        self.apply(node, list(effects))

    def spectator(self, via: Node) -> Node:
        node = self.add_node(seated=False)
        session, effects = Session.join(node.identity, None, f"watcher-{node.index}", f"sim://{node.index}",
                                        via.key, self.table_id, self.game_name, node.rng.randbytes, self.now)
        self.begin(node, session, effects)
        return node

    # -- the scheduler ---------------------------------------------------------------------------

    def _push(self, at: float, what: tuple) -> None:
        self.counter += 1
        heapq.heappush(self.queue, (at, self.counter, what))

    def apply(self, node: Node, effects: list) -> None:
        """Carry out a session's effects in order, as a node does: with the production runner.
        A deferred step waits for the input already in flight to this node (`IDLE_LAG`)."""
        t0 = process_time()
        try:
            node.runner.carry_out(effects)
        except _PowerCut:
            return
        finally:
            node.cpu += process_time() - t0
        self._idle_later(node)

    def _idle_later(self, node: Node) -> None:
        if node.alive and node.runner.pending and not node.idle_due:
            node.idle_due = True
            self._push(self.now + self.rng.uniform(*self.idle_lag), ("idle", node.index, node.runner))

    def _poll(self, node: Node, busy: bool) -> None:
        """The node's loop polled: with input (`busy`), or finding none (its deferred steps run)."""
        t0 = process_time()
        try:
            node.runner.polled(busy)
        except _PowerCut:
            return
        finally:
            node.cpu += process_time() - t0
        self._idle_later(node)

    def _sync(self, node: Node) -> None:
        if node.cut_power_at_sync and node.disk.written:
            node.cut_power_at_sync = False
            node.disk.written.clear()  # never reached the disk
            node.alive = False
            raise _PowerCut
        node.disk.entries += node.disk.written
        node.disk.written.clear()

    def step(self) -> bool:
        if not self.queue:
            return False
        at, _, what = heapq.heappop(self.queue)
        self.now = max(self.now, at)
        if what[0] == "deliver":
            _, to, sender, data = what
            node = self.running = self.by_key[to]
            if node.alive and node.session is not None:
                self.received.setdefault(to, []).append(data)
                t0 = process_time()
                try:
                    node.runner.carry_out(node.session.receive(sender, data, self.now))
                    if node.runner.pending:
                        node.runner.polled(True)  # a poll that found input
                except _PowerCut:
                    node.cpu += process_time() - t0
                else:
                    node.cpu += process_time() - t0
                    self._idle_later(node)
        elif what[0] == "idle":
            _, index, runner = what
            node = self.running = self.nodes[index]
            if node.alive and node.runner is runner:
                node.idle_due = False
                self._poll(node, busy=False)
        elif what[0] == "decide":
            _, index, turn, seq = what
            node = self.running = self.nodes[index]
            session = node.session
            # the prompt still stands: the same decision at the same place
            if node.alive and session is not None and session.log_length == seq and session.decision_kind() == turn.kind:
                legal = session.legal_actions()
                choice = legal[node.rng.randrange(len(legal))]
                t0 = process_time()
                try:
                    effects = session.submit([choice], self.now)
                except LocalError:
                    effects = None
                node.cpu += process_time() - t0
                try:
                    if effects is not None:
                        self.apply(node, effects)
                except LocalError:
                    pass
        elif what[0] == "takeover":
            _, index, turn, seq = what
            node = self.running = self.nodes[index]
            if node.alive and node.session is not None and node.session.log_length == seq:
                choice = turn.legal[node.rng.randrange(len(turn.legal))]
                t0 = process_time()
                try:
                    effects = node.session.submit_takeover(turn.seat, [choice], self.now)
                except LocalError:
                    effects = None
                node.cpu += process_time() - t0
                try:
                    if effects is not None:
                        self.apply(node, effects)
                except LocalError:
                    pass
        elif what[0] == "tick":
            for node in self.nodes:
                if node.alive and node.session is not None:
                    self.running = node
                    t0 = process_time()
                    effects = node.session.tick(self.now)
                    node.cpu += process_time() - t0
                    self.apply(node, effects)
            self._push(self.now + TICK, ("tick",))
        self.running = None
        return True

    def run(self, until, max_time: float, max_steps: int = 2_000_000) -> bool:
        if not any(w[2][0] == "tick" for w in self.queue):
            self._push(self.now + TICK, ("tick",))
        deadline = self.now + max_time
        for _ in range(max_steps):
            if until():
                return True
            if self.now > deadline or not self.step():
                return until()
        return until()

    # -- faults --------------------------------------------------------------------------------------

    def inject(self, sender: Node, to: Node, data: bytes) -> None:
        """Deliver bytes as if `sender` had sent them (a hostile or buggy peer)."""
        self._push(self.now + self.delay[0], ("deliver", to.key, sender.key, data))

    def partition(self, group_a: list[Node], group_b: list[Node], duration: float) -> None:
        for a in group_a:
            for b in group_b:
                self.cut[frozenset((a.key, b.key))] = self.now + duration

    def crash(self, node: Node) -> None:
        """The process dies (kill -9): what it wrote is kept, fsynced or not."""
        node.alive = False
        node.disk.entries += node.disk.written
        node.disk.written.clear()

    def restart(self, node: Node) -> None:
        d = node.disk
        node.alive = True
        self.running = node
        session, effects = Session.resume(node.identity, node.secrets, f"node-{node.index}", f"sim://{node.index}",
                                          d.genesis, d.addrs, list(d.entries), d.choice, node.rng.randbytes, self.now,
                                          claim=d.claim)
        self.begin(node, session, effects)
        self.running = None

    # -- what the tests look at ----------------------------------------------------------------------

    def finished(self, nodes: list[Node]) -> bool:
        return all(n.alive and n.session is not None and n.session.phase is Phase.OVER for n in nodes)

    def halted(self, nodes: list[Node]) -> list:
        return [n.session.halt for n in nodes if n.session is not None and n.session.halt is not None]

    def rejections(self, node: Node) -> list[str]:
        return [e.reason for e in node.events if isinstance(e, Rejected)]


def game_over(node: Node) -> GameOver | None:
    return next((e for e in node.events if isinstance(e, GameOver)), None)


def problems(node: Node) -> list:
    return [e for e in node.events if isinstance(e, (Desync, Equivocation))]


def play_faulty(game, seats, options, seed, *, drop, dup, crashes, partitions, max_time=4000):
    """A whole game on a faulty network: loss, duplication, delay, and (as many as given) crashes
    with restarts and partitions that heal, at moments the seed picks."""
    net = SimNet(seed, drop=drop, dup=dup, delay=(0.001, 0.15))
    nodes = net.table(game, seats, options)
    assert all(n.session.phase is Phase.PLAYING for n in nodes), "the table did not form"
    down = None
    for _ in range(4000):
        if net.finished(nodes) or net.now > max_time:
            break
        net.run(lambda: net.finished(nodes), max_time=net.rng.uniform(0.5, 4.0))
        roll = net.rng.random()
        if down is None and crashes and roll < 0.25:
            down = nodes[net.rng.randrange(seats)]
            net.crash(down)
            crashes -= 1
        elif down is not None and roll < 0.6:
            net.restart(down)
            down = None
        elif partitions and roll < 0.7:
            k = net.rng.randrange(1, seats)
            net.partition(nodes[:k], nodes[k:], net.rng.uniform(0.5, 5.0))
            partitions -= 1
    if down is not None:
        net.restart(down)
    net.run(lambda: net.finished(nodes), max_time=max_time)
    return net, nodes


def assert_agreement(net: SimNet, nodes: list[Node]) -> None:
    """The game ended at every node with byte-identical logs, nothing confirmed was lost, one
    result everywhere, and the stored log re-verifies from scratch."""
    from peerboard.protocol.log.ledger import Ledger

    assert net.finished(nodes), [(n.index, len(n.disk.entries)) for n in nodes]
    logs = [[e.encoded for e in n.disk.entries] for n in nodes]
    assert all(log == logs[0] for log in logs), "the honest nodes' logs differ"
    for n in nodes:
        assert not problems(n)
        for seq, entry_hash in n.confirmed.items():  # nothing confirmed was lost
            assert n.disk.entries[seq - 1].hash == entry_hash
    over = {game_over(n) for n in nodes}
    assert len(over) == 1 and None not in over
    ledger = Ledger.start(nodes[0].disk.genesis)
    for entry in nodes[0].disk.entries:
        ledger = ledger.check(entry)
    assert ledger.finished and ledger.cheats == ()


def play_clean(game: str, seats: int, options: dict, seed: int = 11) -> tuple[SimNet, list[Node]]:
    """A whole game on a network that loses nothing: played to the end, agreed, and every
    entry confirmed by every seat."""
    net = SimNet(seed)
    nodes = net.table(game, seats, options)
    assert net.run(lambda: net.finished(nodes), max_time=20000)
    net.run(lambda: False, max_time=2)  # the last acks arrive
    assert_agreement(net, nodes)
    assert all(len(n.confirmed) == len(n.disk.entries) for n in nodes)
    return net, nodes
