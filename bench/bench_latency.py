"""Move confirmation latency on real node processes (loopback), next to its floor.

Prints, never asserts. For 2, 4 and 8 nodes (an Asterix table on loopback, each node a
separate process of bench/latency_node.py played by a random player, through the node's
public surface: no hook in the product): the time from a player's submit to the moment
every node has confirmed that entry (p50, p99), and the resident memory of the nodes during
the game. A node count for which no move was measured is said, and the bench exits 1.

The floor, measured in the same run: one raw pyzmq DEALER->ROUTER->DEALER round trip with
CURVE between two processes on loopback (as between two nodes) plus one fsynced append of a
log entry. It is measured twice: back to back ("hot"), and with the same pause before each
round trip and each append as the random players take before each move ("paced"). On a
machine whose idle cores sleep, the first work after a pause costs several times the same
work done back to back, for a raw socket as for a node, so the paced floor is the like for
like one; both ratios are printed.

What one machine adds, measured in the same run: every node of a table here fsyncs on the
same disk and runs on the same few cores, where on a LAN each has its own. So each game is
followed by one with the nodes' fsyncs doing nothing (bench/latency_node.py's NOFSYNC: the
disk's part is the difference of the two p50s), and the CPU time all the nodes used per
move is printed next to the cores it had (the part the cores take in turn).

`--against DIR` compares this code with another's, game by game in the same run (the
machine's pace changes from minute to minute, so two runs cannot be compared): DIR holds
the other code's `peerboard` package (a checkout's top level, e.g. `git archive main`
unpacked there); after each game of this code one game is played by nodes that import
that code instead (the same bench/latency_node.py, through PYTHONPATH), likewise with the
fsyncs doing nothing, and each node count prints both p50s, both CPUs per move, and their
ratios.

`--screen MS` plays 2-node games whose nodes each run their loop in a thread beside a
stand-in of the full-screen client's screen (bench/latency_node.py's SCREEN: MS ms of CPU in
Python after each event, as a redraw), alternately with Python's switch interval as it is
(5 ms) and as the client sets it (client/tui/live_run.py), and prints both p50s: a thread
waiting for the interpreter after its poll may wait for as long as the switch interval.

`--stages` also has the nodes note when each stage of every move happened (bench/
latency_node.py's STAGES) and prints, per stage, the p50 time the move waited for its
slowest node there: the author's signing and sending, the hop to the last peer, that peer's
check and fsync, its ack's hop back, the author's confirm and its hop; and a node's CPU per
move split into its loop thread's and, of that, the session's (protocol/ and engines/). At
three nodes or more it also sums, per move, the CPU every node's loop thread spent inside the
move's window (its submit to its last confirmation), split by what each node was doing, and
prints what of it a confirmation needs, over the cores: on a machine with fewer cores than
nodes, a bound under the window that no reordering of the rest can beat.

    python bench/bench_latency.py [--rounds R] [--think S] [--games G] [--nodes N ...] [--stages] [--against DIR]
                                  [--screen MS]
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zmq

ROOT = Path(__file__).resolve().parent.parent

from peerboard.node.storage import LogFile  # noqa: E402
from peerboard.protocol.log import Identity  # noqa: E402
from peerboard.protocol.log import Genesis, SeatRecord, make_entry, sign_genesis  # noqa: E402

TRACE = "latency.json"  # what each bench/latency_node.py writes in its games directory

ECHO = """
import sys, zmq
ctx = zmq.Context()
router = ctx.socket(zmq.ROUTER)
router.curve_server = True
router.curve_publickey, router.curve_secretkey = sys.argv[1].encode(), sys.argv[2].encode()
print(router.bind_to_random_port("tcp://127.0.0.1"), flush=True)
while True:
    who, data = router.recv_multipart()
    if data == b"stop":
        break
    router.send_multipart([who, data])
"""


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def zmq_round_trip(n: int, pause: float) -> list[float]:
    """Round trips to a ROUTER echoing in another process, `pause` seconds apart."""
    spub, ssec = zmq.curve_keypair()
    cpub, csec = zmq.curve_keypair()
    echo = subprocess.Popen([sys.executable, "-c", ECHO, spub.decode(), ssec.decode()], stdout=subprocess.PIPE)
    port = int(echo.stdout.readline())
    ctx = zmq.Context()
    dealer = ctx.socket(zmq.DEALER)
    dealer.curve_publickey, dealer.curve_secretkey, dealer.curve_serverkey = cpub, csec, spub
    dealer.rcvtimeo = 5000
    dealer.connect(f"tcp://127.0.0.1:{port}")
    payload = os.urandom(300)
    times = []
    try:
        for i in range(n + 20):
            if pause:
                time.sleep(pause)
            t = time.perf_counter()
            dealer.send(payload)
            dealer.recv()
            if i >= 20:
                times.append(time.perf_counter() - t)
        dealer.send(b"stop")
        echo.wait(timeout=10)
    finally:
        echo.kill()
        dealer.close(0)
        ctx.term()
    return times


def fsync_append(n: int, pause: float) -> list[float]:
    me = Identity.from_seed(os.urandom(32))
    genesis = sign_genesis(Genesis("aton", "1", {}, (SeatRecord("a", me.public_key),), os.urandom(16)), [me])
    entry = make_entry(me, 1, genesis.hash, 0, "move", {"actions": [("pass",)], "nonce": None})
    times = []
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        log = LogFile.create(Path(tmp) / "bench.pblog", genesis)
        for _ in range(n):
            if pause:
                time.sleep(pause)
            t = time.perf_counter()
            log.append(entry)
            times.append(time.perf_counter() - t)
        log.close()
    return times


def fsyncs_at_once(nodes: int, n: int, pause: float) -> list[float]:
    """The disk's part of an n-node confirmation on one machine: `nodes` logs each appended
    and fsynced at the same moment (a thread each: fsync leaves the interpreter), `pause`
    seconds apart; the time until the last is on disk. Every node of a table fsyncs each
    entry before it acks, and here they all share one disk (on a LAN each has its own)."""
    import threading

    me = Identity.from_seed(os.urandom(32))
    genesis = sign_genesis(Genesis("aton", "1", {}, (SeatRecord("a", me.public_key),), os.urandom(16)), [me])
    entry = make_entry(me, 1, genesis.hash, 0, "move", {"actions": [("pass",)], "nonce": None})
    times = []
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        logs = [LogFile.create(Path(tmp) / f"bench{i}.pblog", genesis) for i in range(nodes)]
        for _ in range(n):
            if pause:
                time.sleep(pause)
            t = time.perf_counter()
            threads = [threading.Thread(target=log.append, args=(entry,)) for log in logs]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            times.append(time.perf_counter() - t)
        for log in logs:
            log.close()
    return times


def floor(pause: float, n: int) -> tuple[float, str]:
    rtt, sync = zmq_round_trip(n, pause), fsync_append(n, pause)
    value = statistics.median(rtt) + statistics.median(sync)
    return value, (f"round trip p50 {statistics.median(rtt) * 1e3:.3f} ms (p99 {pct(rtt, 0.99) * 1e3:.3f}) + "
                   f"fsynced append p50 {statistics.median(sync) * 1e3:.3f} ms (p99 {pct(sync, 0.99) * 1e3:.3f}) "
                   f"= {value * 1e3:.3f} ms")


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def game_latency(nodes: int, rounds: int, think: float, stages: list | None = None,
                 fsync: bool = True, code: Path | None = None,
                 env: dict[str, str] | None = None) -> tuple[list[float], list[int], tuple[float, float] | None]:
    """One Asterix game between `nodes` node processes (bench/latency_node.py): the time from
    each move's submit to the moment every node had confirmed it, the nodes' memory, and the
    CPU time all of them used per move (`game_cpu`). With a `stages` list, the nodes also
    note when each stage of a move happened, and the game's traces are added to it; with
    `fsync` false, the nodes' fsyncs do nothing (what the disk adds, for comparison); with
    `code`, a folder holding another `peerboard` package, the nodes import that one; `env`
    is added to the nodes' environment (bench/latency_node.py's SCREEN and SWITCH)."""
    node = [sys.executable, str(ROOT / "bench" / "latency_node.py")]
    env = dict(os.environ, STAGES="1" if stages is not None else "", NOFSYNC="" if fsync else "1", **(env or {}))
    if code is not None:  # (ahead of the installed package: sys.path comes before its finder)
        env["PYTHONPATH"] = os.pathsep.join([str(code), *filter(None, [os.environ.get("PYTHONPATH")])])
    with tempfile.TemporaryDirectory() as tmp:
        homes = [Path(tmp) / f"node-{i}" for i in range(nodes)]

        def start(*args: str) -> subprocess.Popen:
            return subprocess.Popen([*node, *args, str(think), str(homes[len(procs)])], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, cwd=str(ROOT), env=env)

        procs: list[subprocess.Popen] = []
        procs.append(start("host", str(nodes), str(rounds)))
        try:
            table = json.loads(procs[0].stdout.readline())
            for _ in range(nodes - 1):
                procs.append(start("join", table["endpoint"], table["key"], table["table"]))
            rss: list[int] = []
            while any(p.poll() is None for p in procs):
                sample = [rss_kib(p.pid) for p in procs]  # (from the start: a short game is soon over)
                if all(sample):
                    rss = max(rss, sample, key=sum) if rss else sample
                time.sleep(0.1)
            traces = [json.loads((home / TRACE).read_text()) for home in homes]
        except (json.JSONDecodeError, KeyError, OSError):
            return [], [], None  # a node that did not start or did not finish: nothing measured
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                p.wait()
    # the game's files are gone; what the disk still owes for them (a game with the fsyncs
    # doing nothing leaves all of its writes to the journal) is paid now, not by the next
    # game's first fsyncs: every game starts on a settled disk, whichever came before it
    os.sync()
    submits = {int(seq): at for trace in traces for seq, at in trace.get("submits", {}).items()}
    confirms: dict[int, list[float]] = {}
    for trace in traces:
        for seq, at in trace.get("confirms", {}).items():
            confirms.setdefault(int(seq), []).append(at)
    latencies = [max(confirms[s]) - t for s, t in submits.items() if len(confirms.get(s, ())) == nodes]
    if stages is not None:
        stages.append(traces)
    return latencies, rss, game_cpu(traces) if latencies else None


#: the stages of a move's confirmation, in order, as `move_stages` names them
STAGE_NAMES = (
    ("submit", "entry sent", "author signs and sends"),
    ("entry sent", "entry in, last peer", "hop: the entry reaches the last peer"),
    ("entry in, last peer", "checked, last peer", "last peer decodes and checks"),
    ("checked, last peer", "fsynced, last peer", "last peer appends and fsyncs"),
    ("fsynced, last peer", "ack sent, last peer", "last peer acks"),
    ("ack sent, last peer", "last ack in", "hop: the last ack reaches the author"),
    ("last ack in", "confirm sent", "author gathers and sends its confirm"),
    ("confirm sent", "confirmed everywhere", "hop: the confirm reaches the last node, which confirms"),
    ("last ack in", "confirmed everywhere", "(2 seats: the last ack to the last confirmation)"),
    ("entry sent", "author fsynced", "(beside: the author's own fsync done)"),
)


def move_stages(traces: list[dict]) -> list[dict[str, float]]:
    """For each move of one game: when each stage of its confirmation happened (the node it
    waited for last at each step), from the nodes' stage traces (bench/latency_node.py)."""
    submits = {int(seq): (i, at) for i, trace in enumerate(traces) for seq, at in trace["submits"].items()}
    out = []
    for seq, (author, submitted) in submits.items():
        confirms = [t["confirms"].get(str(seq)) for t in traces]
        if None in confirms:
            continue
        st = [t["stages"] for t in traces]
        mine = st[author]
        when = {"submit": submitted, "confirmed everywhere": max(confirms)}
        peers = [i for i in range(len(traces)) if i != author]
        # (the author's first n−1 sends of it: one to each peer; any later one answers a want)
        sent = [at for at, kind, s, _ in mine["sent"] if kind == "entry" and s == seq][:len(peers)]
        if sent:
            when["entry sent"] = sent[-1]
        got = {}
        for i in peers:
            ins = [at for at, kind, s, _ in st[i]["received"] if kind == "entry" and s == seq]
            done = [(t0, t1) for s, t0, t1, _ in st[i]["stores"] if s == seq]
            acks = [at for at, kind, s, _ in st[i]["sent"] if kind == "ack" and s == seq]
            if ins and done and acks:
                got[i] = (ins[0], done[0], acks[0])
        if len(got) == len(peers) and got:
            last = max(got, key=lambda i: got[i][2])  # the peer whose ack left last
            when["entry in, last peer"], (when["checked, last peer"], when["fsynced, last peer"]), \
                when["ack sent, last peer"] = got[last]
        acked = [at for at, kind, s, _ in mine["received"] if kind == "ack" and s == seq]
        if len(acked) >= len(peers):
            when["last ack in"] = sorted(acked)[len(peers) - 1]
        confirm = [at for at, kind, s, c in mine["sent"] if (kind == "confirm" and s == seq) or c == seq][:len(peers)]
        if confirm:
            when["confirm sent"] = confirm[-1]
            when["rode"] = any(c == seq for _, kind, _, c in mine["sent"] if kind == "entry")
        own = [t1 for t0, t1 in mine["syncs"] if t0 >= submitted]
        if own:
            when["author fsynced"] = min(own)
        out.append(when)
    return out


#: what `move_window` splits a move's window into: (name, what the line says); the ones a
#: confirmation needs are marked True
WINDOW_PARTS = (
    ("author sends", "the author signs and sends", True),
    ("author to last ack", "the author until its last ack (its re-run, fsync, the acks)", True),
    ("author confirms", "the author's confirm", True),
    ("author after", "the author after its confirm", False),
    ("peer before", "the peers before the entry comes", False),
    ("peer checks", "the peers decode and check", True),
    ("peer stores", "append and fsync", True),
    ("peer acks", "ack", True),
    ("peer after ack", "after the ack until they poll again", False),
    ("peer wakes", "waking for the confirm", True),
    ("peer takes confirm", "taking it", True),
    ("peer after", "after confirming", False),
)


def _cpu_at(marks: list, times: list[float], t: float) -> float:
    """The loop thread's CPU seconds at time `t`, between the two marks around it."""
    i = bisect.bisect_right(times, t)
    if i == 0:
        return marks[0][1]
    if i >= len(marks):
        return marks[-1][1]
    (t0, c0, _), (t1, c1, _) = marks[i - 1], marks[i]
    return c0 + (c1 - c0) * (t - t0) / (t1 - t0) if t1 > t0 else c0


def move_window(traces: list[dict]) -> list[dict[str, float]]:
    """For each move of one game (at three seats or more): the CPU every node's loop thread
    spent between the move's submit and its last confirmation, in all ("all") and split by
    `WINDOW_PARTS`, summed over the nodes, from the nodes' CPU marks (bench/latency_node.py);
    with "window", the window's length. On a machine with fewer cores than nodes, the parts
    a confirmation needs, over the cores, are a bound under the window."""
    for trace in traces:
        st = trace["stages"]
        if "marks" not in st or not st["marks"]:
            return []
        st["marks"].sort()
        st["times"] = [m[0] for m in st["marks"]]
    out = []
    submits = {int(seq): (i, at) for i, trace in enumerate(traces) for seq, at in trace["submits"].items()}
    for seq, (author, t0) in submits.items():
        confirms = [t["confirms"].get(str(seq)) for t in traces]
        if None in confirms:
            continue
        t1 = max(confirms)
        parts = dict.fromkeys((name for name, _, _ in WINDOW_PARTS), 0.0)
        parts["all"], parts["window"] = 0.0, t1 - t0
        whole = True
        for i, trace in enumerate(traces):
            st = trace["stages"]
            marks, times = st["marks"], st["times"]

            def cpu(a: float, b: float) -> float:
                a, b = max(a, t0), min(b, t1)
                return max(0.0, _cpu_at(marks, times, b) - _cpu_at(marks, times, a)) if b > a else 0.0

            parts["all"] += cpu(t0, t1)
            if i == author:
                sent = [at for at, kind, s, _ in st["sent"] if kind == "entry" and s == seq][:len(traces) - 1]
                acks = sorted(at for at, kind, s, _ in st["received"] if kind == "ack" and s == seq)
                confirm = [at for at, kind, s, c in st["sent"] if (kind == "confirm" and s == seq) or c == seq]
                if not sent or len(acks) < len(traces) - 1 or not confirm:
                    whole = False
                    break
                spans = (("author sends", t0, sent[-1]), ("author to last ack", sent[-1], acks[len(traces) - 2]),
                         ("author confirms", acks[len(traces) - 2], confirm[0]), ("author after", confirm[0], t1))
            else:
                ins = [at for at, kind, s, _ in st["received"] if kind == "entry" and s == seq]
                stored = [(a, b) for s, a, b, _ in st["stores"] if s == seq]
                acks = [at for at, kind, s, _ in st["sent"] if kind == "ack" and s == seq]
                taken = [at for at, kind, s, c in st["received"] if (kind == "confirm" and s == seq) or c == seq]
                if not ins or not stored or not acks:
                    whole = False
                    break
                done = trace["confirms"][str(seq)]
                took = taken[0] if taken else done
                idle = next((m[0] for m in marks if m[0] > acks[0] and m[2] == "p"), took)
                idle = min(idle, max(acks[0], took))
                spans = (("peer before", t0, ins[0]), ("peer checks", ins[0], stored[0][0]),
                         ("peer stores", stored[0][0], stored[0][1]), ("peer acks", stored[0][1], acks[0]),
                         ("peer after ack", acks[0], idle), ("peer wakes", idle, max(idle, took)),
                         ("peer takes confirm", took, max(took, done)), ("peer after", max(took, done), t1))
            for name, a, b in spans:
                parts[name] += cpu(a, b)
        if whole:
            out.append(parts)
    return out


def print_window(nodes: int, games: list[list[dict]]) -> None:
    moves = [m for traces in games for m in move_window(traces)]
    if not moves:
        return
    p50 = {name: statistics.median(m[name] for m in moves) * 1e3 for name in moves[0]}
    cores = os.cpu_count() or 1
    needed = sum(p50[name] for name, _, need in WINDOW_PARTS if need)
    print(f"{nodes} nodes, the loop threads' CPU inside a move's window (its submit to its last confirmation; "
          f"p50 over {len(moves)} moves of the sums over the nodes, ms): {p50['all']:.2f} in all, in a window of "
          f"{p50['window']:.2f} on {cores} cores; "
          + "; ".join(f"{p50[name]:.2f} {what}" for name, what, _ in WINDOW_PARTS)
          + f"; what a confirmation needs {needed:.2f} ms, {needed / cores:.2f} ms of the {cores} cores")


def game_cpu(traces: list[dict]) -> tuple[float, float]:
    """The CPU time all the nodes used per move while the moves were played (from the first
    submit to the last; each node's process, its ZeroMQ thread, beats and ticks included)."""
    at = sorted(t for trace in traces for t in trace["submits"].values())
    if len(at) < 2:
        return 0.0, 0.0
    used = [0.0, 0.0]
    for trace in traces:
        inside = [(cpu, kernel) for when, cpu, kernel in trace["cpu"] if at[0] <= when <= at[-1]]
        if inside:
            used[0] += inside[-1][0] - inside[0][0]
            used[1] += inside[-1][1] - inside[0][1]
    return used[0] / (len(at) - 1), used[1] / (len(at) - 1)


def game_split(traces: list[dict]) -> tuple[float, float] | None:
    """A node's CPU per move in its loop thread and, of that, inside the session (protocol/,
    engines/), while the moves were played (as `game_cpu`: the forming, the engine's import and
    the end left out), from the nodes' stage traces; None if they noted none."""
    at = sorted(t for trace in traces for t in trace["submits"].values())
    used, inside = [0.0, 0.0], 0
    for trace in traces:
        split = [s for s in trace["stages"].get("split", ()) if at[0] <= s[0] <= at[-1]] if len(at) > 1 else []
        if split:
            used[0] += split[-1][1] - split[0][1]
            used[1] += split[-1][2] - split[0][2]
            inside += 1
    if not inside:
        return None
    return used[0] / inside / (len(at) - 1), used[1] / inside / (len(at) - 1)


def print_stages(nodes: int, games: list[list[dict]]) -> None:
    moves = [m for traces in games for m in move_stages(traces)]
    if not moves:
        print(f"{nodes} nodes, stages: none measured")
        return
    parts = []
    for a, b, what in STAGE_NAMES:
        spans = [m[b] - m[a] for m in moves if a in m and b in m]
        if len(spans) * 2 >= len(moves):
            parts.append(f"{statistics.median(spans) * 1e3:.2f} {what}")
    total = statistics.median(m["confirmed everywhere"] - m["submit"] for m in moves)
    rode = [m for m in moves if m.get("rode")]
    if rode:
        parts.append(f"the confirm rode on the author's next entry for {len(rode) * 100 // len(moves)}% of the moves "
                     f"(p50 {statistics.median(m['confirmed everywhere'] - m['submit'] for m in rode) * 1e3:.2f}, "
                     f"the others' {statistics.median(m['confirmed everywhere'] - m['submit'] for m in moves if not m.get('rode')) * 1e3:.2f})")
    cpu, kernel = (statistics.median(c) for c in zip(*(game_cpu(traces) for traces in games)))
    splits = [s for s in (game_split(traces) for traces in games) if s is not None]
    split = ""
    if splits:
        loop, session = (statistics.median(c) for c in zip(*splits))
        split = (f"; a node per move: {cpu / nodes * 1e3:.2f} ms, {loop * 1e3:.2f} of it in its loop thread, "
                 f"{session * 1e3:.2f} in the session")
    print(f"{nodes} nodes, stages (p50 ms, the node waited for last at each step): " + "; ".join(parts)
          + f"; whole p50 {total * 1e3:.2f}; CPU of all the nodes per move {cpu * 1e3:.2f} ms "
          f"({kernel * 1e3:.2f} in the kernel; on {os.cpu_count()} cores){split}")
    if nodes > 2:
        print_window(nodes, games)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="Asterix rounds per game (default 8)")
    parser.add_argument("--think", type=float, default=0.02, help="pause before each random move (default 0.02 s)")
    parser.add_argument("--games", type=int, default=3, help="games per node count, their moves pooled (default 3)")
    parser.add_argument("--stages", action="store_true", help="also time each stage of a move (the nodes trace them)")
    parser.add_argument("--nodes", type=int, nargs="*", default=[2, 4, 8], help="node counts (default 2 4 8)")
    parser.add_argument("--against", type=Path, help="another code's top level (its `peerboard` package): "
                                                     "its games alternate with this code's")
    parser.add_argument("--screen", type=float, metavar="MS",
                        help="also 2-node games beside a stand-in screen spending MS ms a redraw, the switch "
                             "interval as Python has it and as the client sets it")
    args = parser.parse_args()
    against = None
    if args.against is not None:
        if not (args.against / "node" / "loop.py").is_file():
            print(f"--against {args.against}: no peerboard checkout there (no node/loop.py)", file=sys.stderr)
            return 2
        holder = tempfile.TemporaryDirectory()  # (a folder whose `peerboard` is that code)
        against = Path(holder.name)
        (against / "peerboard").symlink_to(args.against.resolve())
    hot, hot_text = floor(0.0, 2000)
    print(f"floor, hot: pyzmq CURVE DEALER/ROUTER {hot_text}")
    paced, paced_text = floor(args.think, 200)
    print(f"floor, paced {args.think} s like the moves: {paced_text}")
    results = []
    unmeasured = []
    for nodes in args.nodes:
        # game by game, alternately: as the nodes are, and with their fsyncs doing nothing
        # (what the one disk they share adds), so both see the machine in the same state
        lat, bare, rss, cpu, traced, other, other_traced, other_cpu, other_bare = [], [], [], [], [], [], [], [], []
        for _ in range(args.games):
            more, sample, used = game_latency(nodes, args.rounds, args.think, traced if args.stages else None)
            lat += more
            rss = max(rss, sample, key=sum) if rss else sample
            cpu += [used] if used else []
            if against is not None:
                more, _, used = game_latency(nodes, args.rounds, args.think,
                                             other_traced if args.stages else None, code=against)
                other += more
                other_cpu += [used] if used else []
            bare += game_latency(nodes, args.rounds, args.think, fsync=False)[0]
            if against is not None:  # (the disk's part varies most with the neighbours: both without it too)
                other_bare += game_latency(nodes, args.rounds, args.think, fsync=False, code=against)[0]
        if args.stages:
            print_stages(nodes, traced)
            if against is not None:
                print(f"   against {args.against}: ", end="")
                print_stages(nodes, other_traced)
        if against is not None:
            if other and lat:
                print(f"{nodes} nodes, game by game: this code p50 {statistics.median(lat) * 1e3:.2f} ms over {len(lat)} "
                      f"moves, {args.against} p50 {statistics.median(other) * 1e3:.2f} ms over {len(other)} moves "
                      f"(this / that {statistics.median(lat) / statistics.median(other):.2f}); the CPU all the nodes "
                      f"used per move {statistics.median(c[0] for c in cpu) * 1e3:.2f} ms against "
                      f"{statistics.median(c[0] for c in other_cpu) * 1e3:.2f} ms (this / that "
                      f"{statistics.median(c[0] for c in cpu) / statistics.median(c[0] for c in other_cpu):.2f})")
                if bare and other_bare:
                    print(f"   with the nodes' fsyncs doing nothing: this code p50 {statistics.median(bare) * 1e3:.2f} ms, "
                          f"{args.against} {statistics.median(other_bare) * 1e3:.2f} ms "
                          f"(this / that {statistics.median(bare) / statistics.median(other_bare):.2f})")
            else:
                print(f"{nodes} nodes, game by game against {args.against}: no moves measured for it")
                unmeasured.append(f"{nodes} nodes of {args.against}")
        if not lat:
            print(f"{nodes} nodes: no moves measured")
            unmeasured.append(f"{nodes} nodes")
            continue
        results.append((nodes, lat, bare, rss, cpu))
    # the machine may have changed pace meanwhile: the paced floor again, after the games
    again, again_text = floor(args.think, 200)
    print(f"floor, paced, after the games: {again_text}")
    paced = (paced + again) / 2
    disk = {nodes: statistics.median(fsyncs_at_once(nodes, 100, args.think)) for nodes, *_ in results}
    print("disk, paced: " + ", ".join(f"{nodes} fsynced appends at once p50 {d * 1e3:.3f} ms" for nodes, d in disk.items()))
    cores = os.cpu_count() or 1
    for nodes, lat, bare, rss, cpu in results:
        p50, p99 = statistics.median(lat), pct(lat, 0.99)
        mem = f"RSS per node {min(rss) // 1024}-{max(rss) // 1024} MiB" if rss else "RSS not sampled"
        first = statistics.median(results[0][1])
        print(f"{nodes} nodes: confirmation latency p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms over "
              f"{len(lat)} moves; p50 = {p50 / paced:.2f}x the paced floor (mean of the two), "
              f"{p50 / hot:.1f}x the hot one, {p50 / first:.2f}x the {results[0][0]}-node p50; {mem}")
        # what one machine adds: the disk every node fsyncs on, the cores every node runs on
        parts = []
        if bare:
            parts.append(f"with the nodes' fsyncs doing nothing p50 {statistics.median(bare) * 1e3:.2f} ms "
                         f"over {len(bare)} moves")
        if cpu:
            used, kernel = statistics.median(c[0] for c in cpu), statistics.median(c[1] for c in cpu)
            parts.append(f"the CPU all {nodes} nodes used per move {used * 1e3:.2f} ms ({kernel * 1e3:.2f} of it in "
                         f"the kernel) = {used / cores * 1e3:.2f} ms of this machine's {cores} cores, "
                         f"{used / nodes * 1e3:.2f} ms a node")
        if parts:
            print(f"   {nodes} nodes on one machine: " + "; ".join(parts))
    # the same with players that do not pause at all, next to the hot floor
    lat = [x for _ in range(args.games) for x in game_latency(2, args.rounds, 0.0)[0]] if 2 in args.nodes else []
    if 2 not in args.nodes:
        pass
    elif lat:
        p50 = statistics.median(lat)
        print(f"2 nodes, no pause before moves: p50 {p50 * 1e3:.2f} ms, p99 {pct(lat, 0.99) * 1e3:.2f} ms over "
              f"{len(lat)} moves; p50 = {p50 / hot:.1f}x the hot floor")
    else:
        print("2 nodes, no pause before moves: no moves measured")
        unmeasured.append("2 nodes without a pause")
    if args.screen:
        from peerboard.client.tui.live_run import NODE_SWITCH_INTERVAL
        beside = {"as Python has it": {}, f"{NODE_SWITCH_INTERVAL * 1e3:g} ms": {"SWITCH": str(NODE_SWITCH_INTERVAL)}}
        got: dict[str, list[float]] = {name: [] for name in beside}
        for _ in range(args.games):
            for name, switch in beside.items():
                got[name] += game_latency(2, args.rounds, args.think, env={"SCREEN": str(args.screen), **switch})[0]
        if all(got.values()):
            (a, la), (b, lb) = got.items()
            print(f"2 nodes beside a screen spending {args.screen:g} ms a redraw: the switch interval {a} "
                  f"(5 ms) p50 {statistics.median(la) * 1e3:.2f} ms, p99 {pct(la, 0.99) * 1e3:.2f} over {len(la)} moves; "
                  f"{b} p50 {statistics.median(lb) * 1e3:.2f} ms, p99 {pct(lb, 0.99) * 1e3:.2f} over {len(lb)} moves")
        else:
            unmeasured.append("2 nodes beside a screen")
    if unmeasured:
        print(f"bench_latency measured nothing for {', '.join(unmeasured)}: the figures above are incomplete",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
