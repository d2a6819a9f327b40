"""One node of bench/bench_latency.py: a seat of an Asterix table on loopback, played by a
random player that notes when it submitted each move and when each entry was confirmed at
this node. It uses the node's public surface only (node/loop.py: host, join, submit, run,
and the events it passes on), so nothing in the product writes traces for the bench.

    python bench/latency_node.py host PLAYERS ROUNDS THINK GAMES_DIR
        prints one JSON line {"endpoint", "key", "table"} once the table is open
    python bench/latency_node.py join ENDPOINT KEY TABLE THINK GAMES_DIR

Either writes, when its run ends, GAMES_DIR/latency.json: {"submits": {seq: t}, "confirms":
{seq: t}, "cpu": [[t, the process's CPU seconds then, of which the kernel's], ...] at each
confirmation} (t: time.monotonic(), the same clock in every process of this machine), and exits
0 — or 1 for a game not over here within MAX_SECONDS.

With NOFSYNC=1 in its environment its fsyncs do nothing: the bench's way to show what the
one disk all the nodes of one machine share adds (a node never runs so).

With SCREEN=MS in its environment the node's loop runs in a thread of its own, as the
full-screen client runs it (client/tui/live_run.py), and the main thread stands in for the
screen: after each event the node passes on, it spends MS ms of CPU in Python, as a redraw
does, holding the interpreter meanwhile. With SWITCH=S the interpreter's switch interval is S
seconds (sys.setswitchinterval; Python's default is 0.005): how long a thread that wants the
interpreter back, the node's after its poll, may wait for the one holding it.

With STAGES=1 in its environment it also notes when each stage of a move happened here
(`stages` in latency.json: messages taken off the socket and sent, by type and seq; each
append and fsync; the CPU time the process used; at each confirmation, the loop thread's CPU
so far and the part of it spent inside the session; the loop thread's CPU at each poll's
start and end, each batch taken, each send, append and step), by wrapping the node's own I/O
methods from the outside (a bench's diagnosis: the product has no such hook).
"""
from __future__ import annotations

import json
import os
import queue
import random
import sys
import threading
import time
from pathlib import Path

from peerboard.node.loop import Node
from peerboard.node.transport import Admission, Transport
from peerboard.protocol.session import (
    Ack, Confirm, Confirmed, EntryMessage, Event, LocalError, MessageError, YourTurn, decode_message,
)
from peerboard.protocol.log import Identity, SeatSecrets

GAME = "asterix"
LOOPBACK = "tcp://127.0.0.1:0"
MAX_SECONDS = 300.0
TRACE = "latency.json"
STAGES = os.environ.get("STAGES") == "1"
#: NOFSYNC=1: the node's fsyncs return at once (the bench's measure of what one shared disk
#: adds; never a node's real behaviour)
NOFSYNC = os.environ.get("NOFSYNC") == "1"
#: SCREEN=MS: the node runs beside a stand-in of the screen that spends MS ms of CPU per event
SCREEN = float(os.environ.get("SCREEN") or 0) / 1000
SWITCH = os.environ.get("SWITCH")


class StageTrace:
    """When each message left or arrived here and when each entry was appended and fsynced,
    noted cheaply while the game runs (bytes kept, decoded only at the end)."""

    def __init__(self, node: Node):
        self.received: list[tuple[float, bytes]] = []
        self.sent: list[tuple[float, bytes]] = []
        self.stores: list[tuple[int, float, float, bool]] = []
        self.syncs: list[tuple[float, float]] = []
        self.threads: dict[str, float] = {}
        self.loop_cpu = 0.0
        #: (when, the loop thread's CPU then, what: "p" a poll began, "q" it ended, "r" messages
        #: were taken, "s" one was sent, "a" and "b" an append began and ended): at each of those, so a move's window can be split by what the node did in it
        self.marks: list[tuple[float, float, str]] = []
        transport, clock, cpu = node.transport, time.monotonic, time.thread_time
        receive, send, store, sync = transport.receive, transport.send, node.store, node.sync
        poll = node._poll
        marks = self.marks

        def traced_receive(now=None):
            out = receive(now)
            at = clock()
            marks.append((at, cpu(), "r"))
            self.received += [(at, data) for _, _, data in out]
            return out

        def traced_send(key, data):
            at = clock()
            marks.append((at, cpu(), "s"))
            self.sent.append((at, data))
            return send(key, data)

        def traced_poll(timeout):
            marks.append((clock(), cpu(), "p"))
            try:
                return poll(timeout)
            finally:
                marks.append((clock(), cpu(), "q"))

        node._poll = traced_poll

        def traced_store(entry, sync_now):
            t = clock()
            marks.append((t, cpu(), "a"))
            store(entry, sync_now)
            done = clock()
            marks.append((done, cpu(), "b"))
            self.stores.append((entry.seq, t, done, sync_now))

        def traced_sync():
            t = clock()
            sync()
            self.syncs.append((t, clock()))

        transport.receive, transport.send, node.store, node.sync = traced_receive, traced_send, traced_store, traced_sync
        self.session_cpu = 0.0  # the loop thread's CPU inside the session (protocol/, engines/)
        self.split: list[tuple[float, float, float]] = []  # at each confirmation: (when, loop thread's CPU, session's)

    def trace_session(self, session) -> None:
        cpu = time.thread_time

        def traced(call):
            def counted(*args):
                t = cpu()
                try:
                    return call(*args)
                finally:
                    self.session_cpu += cpu() - t
            return counted

        session.receive, session.follow = traced(session.receive), traced(session.follow)
        follow, marks, clock = session.follow, self.marks, time.monotonic

        def marked(step):
            marks.append((clock(), cpu(), "f"))
            try:
                return follow(step)
            finally:
                marks.append((clock(), cpu(), "g"))

        session.follow = marked

    @staticmethod
    def _what(data: bytes) -> list | None:
        """[type, seq, confirmed seq or None] of a message (an entry may carry a confirm)."""
        try:
            m = decode_message(data)
        except MessageError:
            return None
        if isinstance(m, EntryMessage):
            return ["entry", m.entry.seq, None if m.confirm is None else m.confirm.seq]
        if isinstance(m, (Ack, Confirm)):
            return [m.kind, m.seq, None]
        return None

    def record(self) -> dict:
        def decoded(notes):
            out, last = [], (None, None)
            for at, data in notes:
                what = last[1] if data is last[0] else self._what(data)  # (one entry, sent to each peer)
                last = (data, what)
                if what is not None:
                    out.append([at, *what])
            return out

        return {"threads": self.threads, "session_cpu": self.session_cpu, "loop_cpu": self.loop_cpu, "received": decoded(self.received), "sent": decoded(self.sent),
                "stores": self.stores, "syncs": self.syncs, "split": self.split, "marks": self.marks}

    @staticmethod
    def thread_cpu() -> dict[str, float]:
        """Each thread's CPU seconds so far (the loop's, ZeroMQ's I/O thread's, ...)."""
        threads = {}
        for task in Path("/proc/self/task").iterdir():
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                name = (task / "comm").read_text().strip()
                threads[f"{name}-{task.name}"] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, IndexError, ValueError):
                pass
        return threads


class TimedRandomPlayer:
    """A uniformly random legal choice after `think` seconds, each submit and confirmation timed."""

    def __init__(self, think: float):
        self.think = think
        self.rng = random.Random()
        self.node: Node | None = None
        self.submits: dict[int, float] = {}
        self.confirms: dict[int, float] = {}
        self.cpu: list[tuple[float, float, float]] = []  # at each confirmation: (when, CPU seconds, of which the kernel's)
        self.stages: StageTrace | None = None
        self.screen: queue.SimpleQueue | None = None  # (SCREEN: what the screen is to redraw)

    def on_event(self, event: Event) -> None:
        if self.screen is not None:
            self.screen.put(event)
        if isinstance(event, Confirmed):
            self.confirms[event.seq] = at = time.monotonic()
            # (the whole process, its ZeroMQ thread too; the kernel's part only to 10 ms)
            self.cpu.append((at, time.process_time(), os.times().system))
            if self.stages is not None:  # (the loop thread's and the session's CPU so far)
                self.stages.split.append((at, time.thread_time(), self.stages.session_cpu))
        elif isinstance(event, YourTurn):
            node, seq = self.node, self.node.session.log_length

            def decide() -> None:
                s = node.session
                if s.log_length != seq or s.decision_kind() != event.kind:
                    return  # stale: the game moved on since the prompt
                try:
                    self.submits[seq + 1] = time.monotonic()
                    node.submit([event.legal[self.rng.randrange(len(event.legal))]])
                except LocalError:
                    self.submits.pop(seq + 1, None)

            node.call_later(self.think, decide)


def beside_a_screen(node: Node, player: TimedRandomPlayer) -> bool:
    """Run the node's loop in a thread, as the full-screen client does, while this thread
    redraws a stand-in screen: SCREEN seconds of CPU in Python after each event (one redraw
    for the events that came meanwhile)."""
    events = player.screen = queue.SimpleQueue()
    done: list[bool] = []

    def run() -> None:
        try:
            done.append(node.run(node.finished, max_seconds=MAX_SECONDS))
        finally:
            events.put(None)

    thread = threading.Thread(target=run, name="peerboard-node", daemon=True)
    thread.start()
    while events.get() is not None:
        try:  # (events that came meanwhile are drawn by one redraw, as the client's are)
            while True:
                if events.get_nowait() is None:
                    thread.join()
                    return bool(done and done[0])
        except queue.Empty:
            pass
        end = time.thread_time() + SCREEN
        while time.thread_time() < end:
            pass
    thread.join()
    return bool(done and done[0])


def main(argv: list[str]) -> int:
    if SWITCH:
        sys.setswitchinterval(float(SWITCH))
    if NOFSYNC:
        os.fsync = os.fdatasync = lambda fd: None
    role = argv[0]
    think, games = float(argv[-2]), Path(argv[-1])
    identity = Identity.from_seed(os.urandom(32))
    transport = Transport(identity, LOOPBACK, Admission())
    player = TimedRandomPlayer(think)
    node = Node(identity, f"bench-{os.getpid()}", transport, transport.endpoint, on_event=player.on_event,
                games=games)
    player.node = node
    stages = player.stages = StageTrace(node) if STAGES else None
    secrets = SeatSecrets.from_master(os.urandom(32))
    if role == "host":
        players, rounds = int(argv[1]), int(argv[2])
        table = node.host(secrets, GAME, players, {"max_rounds": rounds}, None)
        print(json.dumps({"endpoint": transport.endpoint, "key": identity.public_key.hex(), "table": table.hex()}),
              flush=True)
    else:
        endpoint, key, table = argv[1], bytes.fromhex(argv[2]), bytes.fromhex(argv[3])
        node.join(secrets, key, endpoint, table, GAME)
    if stages is not None:
        stages.trace_session(node.session)
    try:
        t = time.thread_time()
        finished = beside_a_screen(node, player) if SCREEN else node.run(node.finished, max_seconds=MAX_SECONDS)
        if stages is not None:
            stages.loop_cpu = time.thread_time() - t
            stages.threads = stages.thread_cpu()
        node.leave()
    finally:
        node.close(linger=1.0)
    games.mkdir(parents=True, exist_ok=True)
    trace = {"submits": player.submits, "confirms": player.confirms, "cpu": player.cpu}
    if stages is not None:
        trace["stages"] = stages.record()
    (games / TRACE).write_text(json.dumps(trace))
    return 0 if finished else 1


if __name__ == "__main__":
    if os.environ.get("PROFILE"):  # (a diagnosis: PROFILE=dir profiles every node into dir)
        import cProfile
        profile = cProfile.Profile(time.process_time)
        code = profile.runcall(main, sys.argv[1:])
        profile.dump_stats(f"{os.environ['PROFILE']}/{os.getpid()}.prof")
        sys.exit(code)
    sys.exit(main(sys.argv[1:]))
