"""A deterministic simulated network for consensus sessions.

Every node is a real `protocol.session.Session`; the network is a seeded scheduler that
delays, drops, duplicates and reorders messages, cuts links for a while (partitions that
heal) and crashes nodes, which restart from what they had stored. Random bots decide when
a session says it is their turn. Time is simulated: nothing sleeps.
"""
from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Any

from protocol.identity import Identity
from protocol.secrets import SeatSecrets
from protocol.session import (
    Confirmed, Desync, Equivocation, Event, GameOver, LocalError, Rejected, Send, Session, Store,
    StoreChoice, StoreGenesis, Sync, Then, Unstore, YourTurn,
)

TICK = 0.25


@dataclass
class Disk:
    """What a node has stored: `entries` survive any crash; `written` (appended, not yet
    fsynced) survive a crashed process but not a power cut."""

    genesis: Any = None
    addrs: tuple = ()
    entries: list = field(default_factory=list)
    written: list = field(default_factory=list)
    choice: tuple | None = None

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

    @property
    def key(self) -> bytes:
        return self.identity.public_key


class SimNet:
    def __init__(self, seed: int, *, drop: float = 0.0, dup: float = 0.0, delay: tuple = (0.001, 0.03),
                 think: tuple = (0.0, 0.02)):
        self.rng = random.Random(seed)
        self.drop, self.dup, self.delay, self.think = drop, dup, delay, think
        self.now = 0.0
        self.queue: list = []
        self.counter = 0
        self.nodes: list[Node] = []
        self.by_key: dict[bytes, Node] = {}
        self.cut: dict[frozenset, float] = {}  # link -> healed at
        self.messages = 0
        self.bytes = 0
        self.received: dict[bytes, list[bytes]] = {}  # key -> every message it received

    # -- building a table -------------------------------------------------------------------

    def add_node(self, seated: bool = True) -> Node:
        i = len(self.nodes)
        rng = random.Random(self.rng.randbytes(8))
        node = Node(i, Identity.from_seed(rng.randbytes(32)), SeatSecrets.from_master(rng.randbytes(32)) if seated else None, rng)
        self.nodes.append(node)
        self.by_key[node.key] = node
        return node

    def table(self, game: str, players: int, options: dict | None = None) -> list[Node]:
        """`players` nodes; node 0 hosts, the others join; runs until the game has started."""
        nodes = [self.add_node() for _ in range(players)]
        host = nodes[0]
        self.table_id = self.rng.randbytes(16)
        self.game_name = game
        host.session = Session.host(host.identity, host.secrets, "node-0", "sim://0", game, players,
                                    options or {}, self.table_id, host.rng.randbytes, self.now)
        for node in nodes[1:]:
            node.session, effects = Session.join(node.identity, node.secrets, f"node-{node.index}", f"sim://{node.index}",
                                                 host.key, self.table_id, game, node.rng.randbytes, self.now)
            self.apply(node, effects)
        self.run(lambda: all(n.session.chain is not None for n in nodes), max_time=60)
        return nodes

    def spectator(self, via: Node) -> Node:
        node = self.add_node(seated=False)
        node.session, effects = Session.join(node.identity, None, f"watcher-{node.index}", f"sim://{node.index}",
                                             via.key, self.table_id, self.game_name, node.rng.randbytes, self.now)
        self.apply(node, effects)
        return node

    # -- the scheduler ---------------------------------------------------------------------------

    def _push(self, at: float, what: tuple) -> None:
        self.counter += 1
        heapq.heappush(self.queue, (at, self.counter, what))

    def apply(self, node: Node, effects: list) -> None:
        """Carry out a session's effects in order, as a node would."""
        try:
            self._apply(node, effects)
        except _PowerCut:
            pass

    def _apply(self, node: Node, effects: list) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                self._send(node, effect.to, effect.data)
            elif isinstance(effect, Store):
                assert len(node.disk.all_entries()) + 1 == effect.entry.seq, "stored out of order"
                node.disk.written.append(effect.entry)
                if effect.sync:
                    self._sync(node)
            elif isinstance(effect, Sync):
                self._sync(node)
            elif isinstance(effect, Unstore):
                stored = node.disk.written or node.disk.entries
                assert stored and stored[-1] is effect.entry, "took back an entry that is not the last"
                stored.pop()
            elif isinstance(effect, StoreGenesis):
                node.disk.genesis, node.disk.addrs = effect.genesis, effect.addrs
            elif isinstance(effect, StoreChoice):
                node.disk.choice = (effect.actions, effect.nonce)
            elif isinstance(effect, Then):
                self._apply(node, effect.work())
            elif isinstance(effect, Event):
                node.events.append(effect)
                if isinstance(effect, Confirmed):
                    node.confirmed[effect.seq] = node.disk.all_entries()[effect.seq - 1].hash
                elif isinstance(effect, YourTurn):
                    self._push(self.now + self.rng.uniform(*self.think), ("decide", node.index, effect))

    def _sync(self, node: Node) -> None:
        if node.cut_power_at_sync and node.disk.written:
            node.cut_power_at_sync = False
            node.disk.written.clear()  # never reached the disk
            node.alive = False
            raise _PowerCut
        node.disk.entries += node.disk.written
        node.disk.written.clear()

    def _send(self, node: Node, to: bytes, data: bytes) -> None:
        node.sent.append((to, data))
        self.messages += 1
        self.bytes += len(data)
        if to not in self.by_key:
            return
        link = frozenset((node.key, to))
        if self.cut.get(link, -1) > self.now or self.rng.random() < self.drop:
            return
        copies = 2 if self.rng.random() < self.dup else 1
        for _ in range(copies):
            self._push(self.now + self.rng.uniform(*self.delay), ("deliver", to, node.key, data))

    def step(self) -> bool:
        if not self.queue:
            return False
        at, _, what = heapq.heappop(self.queue)
        self.now = max(self.now, at)
        if what[0] == "deliver":
            _, to, sender, data = what
            node = self.by_key[to]
            if node.alive and node.session is not None:
                self.received.setdefault(to, []).append(data)
                self.apply(node, node.session.receive(sender, data, self.now))
        elif what[0] == "decide":
            _, index, turn = what
            node = self.nodes[index]
            if node.alive and node.session is not None and node.session.chain is not None:
                chain = node.session.chain
                if node.session._prompted == (chain.next_seq, turn.kind):  # the prompt still stands
                    choice = turn.legal[node.rng.randrange(len(turn.legal))]
                    try:
                        self.apply(node, node.session.submit([choice], self.now))
                    except LocalError:
                        pass
        elif what[0] == "tick":
            for node in self.nodes:
                if node.alive and node.session is not None:
                    self.apply(node, node.session.tick(self.now))
            self._push(self.now + TICK, ("tick",))
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
        node.session, effects = Session.resume(node.identity, node.secrets, f"node-{node.index}", f"sim://{node.index}",
                                               d.genesis, d.addrs, list(d.entries), d.choice, node.rng.randbytes, self.now)
        self.apply(node, effects)

    # -- what the tests look at ----------------------------------------------------------------------

    def finished(self, nodes: list[Node]) -> bool:
        return all(n.alive and n.session is not None and n.session.chain is not None and n.session.chain.finished for n in nodes)

    def halted(self, nodes: list[Node]) -> list:
        return [n.session.halted for n in nodes if n.session is not None and n.session.halted is not None]

    def rejections(self, node: Node) -> list[str]:
        return [e.reason for e in node.events if isinstance(e, Rejected)]


def game_over(node: Node) -> GameOver | None:
    return next((e for e in node.events if isinstance(e, GameOver)), None)


def problems(node: Node) -> list:
    return [e for e in node.events if isinstance(e, (Desync, Equivocation))]
