"""The terminal client's speed, side by side with a bare prompt-toolkit application
measured in the same run.

    python bench/bench_tui.py [--presses N] [--idle SECONDS]

1. Time to first frame: from building the application to the end of its first drawing,
   for the replay viewer (Aton vector log, read from its file), the Athos game screen (the
   largest board) and a bare application (one window holding a full screen of text).
   Goal: at most 2x the bare one.
2. Keypress to redrawn frame: a key written to the input pipe until the drawing it causes
   has been written out: the replay viewer stepping one entry (Right), the Athos screen
   moving its board cursor (Right), the bare application counting the key. Median and 90th
   percentile, and the CPU time the process spent on it (steadier than wall time on a busy
   machine). Goal: at most 2x the bare one. Both redraw at once (max_render_postpone_time
   0; prompt-toolkit's default waits up to 10 ms to batch redraws, which would hide the cost
   of the drawing itself).
3. Idle CPU: each of the three in a process of its own on a pseudo-terminal, from 2 s
   after its first frame, over SECONDS (10 by default): CPU time used / wall time. Goal: under 1% of
   a core. Then the live client: `peerboard play aton --bots 1` (its node in a thread of its
   own, a real bot process as the peer, waiting on you) from 2 s after its screen says it is
   your turn; the bot process's CPU is shown beside it.

The drawing is written as real escape sequences (a VT100 output, 120x32) to /dev/null, so
generating the terminal's bytes is counted; the terminal's own work is not.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import pty
import select
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from peerboard import engines  # noqa: E402
from prompt_toolkit.application import Application  # noqa: E402
from prompt_toolkit.data_structures import Size  # noqa: E402
from prompt_toolkit.input import create_pipe_input  # noqa: E402
from prompt_toolkit.key_binding import KeyBindings  # noqa: E402
from prompt_toolkit.layout import Layout, Window  # noqa: E402
from prompt_toolkit.layout.controls import FormattedTextControl  # noqa: E402
from prompt_toolkit.output.vt100 import Vt100_Output  # noqa: E402

from peerboard.client.tui.app import build  # noqa: E402
from peerboard.client.tui.game_presenter import GamePresenter  # noqa: E402
from peerboard.client.tui.local import LocalSource  # noqa: E402
from peerboard.client.tui.replay import load  # noqa: E402
from peerboard.client.tui.replay_presenter import ReplayPresenter  # noqa: E402

VECTOR = os.path.join(ROOT, "spec", "vectors", "aton.pblog")
SIZE = Size(rows=32, columns=120)
RIGHT = "\x1b[C"


def _output() -> Vt100_Output:
    return Vt100_Output(open(os.devnull, "w"), lambda: SIZE, term="xterm-256color")


# -- the three applications -----------------------------------------------------------------------


def bare(pipe, output):
    """A bare prompt-toolkit application: one window holding a full screen of text (as much
    for the terminal as the client's screens), and a key that changes its first line."""
    count = [0]
    kb = KeyBindings()

    @kb.add("right")
    def _(event) -> None:
        count[0] += 1

    filler = "".join(f"{i:>3} " + "bare prompt-toolkit application, a line of text " * 2 + "\n" for i in range(31))
    control = FormattedTextControl(lambda: f"presses: {count[0]}\n" + filler)
    app = Application(layout=Layout(Window(control)), key_bindings=kb, full_screen=True,
                      input=pipe, output=output, max_render_postpone_time=0)  # as the client's
    return app, None


def replay_viewer(pipe, output):
    source, _ = load(__import__("pathlib").Path(VECTOR))
    presenter = ReplayPresenter(source)
    app, _ = build(presenter, input=pipe, output=output)
    return app, presenter.start


def athos_screen(pipe, output):
    presenter = GamePresenter(LocalSource(engines.get("athos"), seed=1))
    presenter.model.focus = "board"  # the Right key moves the board cursor
    app, view = build(presenter, input=pipe, output=output)

    def start() -> None:
        presenter.start()
        view.refresh()

    return app, start


APPS = {"bare prompt-toolkit": bare, "replay viewer": replay_viewer, "Athos game screen": athos_screen}


# -- 1 and 2: first frame, keypress to frame ------------------------------------------------------------


async def _measure(make, presses: int) -> tuple[float, list[float]]:
    with create_pipe_input() as pipe:
        start = time.perf_counter()
        app, pre_run = make(pipe, _output())
        frames: list[tuple[float, float]] = []
        app.after_render += lambda _: frames.append((time.perf_counter(), time.process_time()))
        task = asyncio.ensure_future(app.run_async(pre_run=pre_run))
        while not frames:
            await asyncio.sleep(0)
        first = frames[0][0] - start
        latencies, cpu = [], []
        for _ in range(presses):
            seen = len(frames)
            sent, sent_cpu = time.perf_counter(), time.process_time()
            pipe.send_text(RIGHT)
            deadline = sent + 5
            while len(frames) == seen and time.perf_counter() < deadline:
                await asyncio.sleep(0)
            latencies.append(frames[-1][0] - sent)
            cpu.append(frames[-1][1] - sent_cpu)
        app.exit()
        await task
    return first, latencies, cpu


def speed(presses: int, rounds: int = 5) -> None:
    firsts = {name: [] for name in APPS}
    keys = {name: [] for name in APPS}
    cpus = {name: [] for name in APPS}
    for _ in range(rounds):  # the applications take turns, so a busy moment hits all alike
        for name, make in APPS.items():
            first, latencies, cpu = asyncio.run(_measure(make, presses))
            firsts[name].append(first)
            keys[name].extend(latencies)
            cpus[name].extend(cpu)
    base_first = min(firsts["bare prompt-toolkit"])
    base_key = statistics.median(keys["bare prompt-toolkit"])
    base_cpu = statistics.median(cpus["bare prompt-toolkit"])
    print(f"{'':22}{'first frame':>14}{'x bare':>8}{'key→frame median':>20}{'p90':>9}{'x bare':>8}"
          f"{'CPU per key':>14}{'x bare':>8}")
    for name in APPS:
        first = min(firsts[name])
        median = statistics.median(keys[name])
        p90 = statistics.quantiles(keys[name], n=10)[-1]
        cpu = statistics.median(cpus[name])
        print(f"{name:<22}{first * 1000:>11.1f} ms{first / base_first:>8.2f}"
              f"{median * 1000:>17.2f} ms{p90 * 1000:>6.2f} ms{median / base_key:>8.2f}"
              f"{cpu * 1000:>11.2f} ms{cpu / base_cpu:>8.2f}")
    print(f"(first frame: best of {rounds}; key to frame: {presses * rounds} presses each, wall time and the "
          f"process's CPU time, which a busy machine disturbs less)")


# -- 3: idle CPU -----------------------------------------------------------------------------------------------

SETTLE = 2.0  # seconds after the first frame before the idle measure starts
IDLE_PROGRAMS = {"bare prompt-toolkit": "bare", "replay viewer": "replay_viewer", "Athos game screen": "athos_screen"}
_IDLE_MAIN = """
import sys
sys.path[:0] = [{root!r}, {bench!r}]
from bench_tui import {make} as make
from prompt_toolkit.input import create_input
from prompt_toolkit.output import create_output
app, pre_run = make(create_input(), create_output())
told = []

def first(_):
    if not told:
        told.append(True)
        sys.stderr.write("FIRST-FRAME\\n")
        sys.stderr.flush()

app.after_render += first
app.run(pre_run=pre_run)
"""


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drain(leader: int, seconds: float, poll: float) -> None:
    """Read and drop what the program writes to its terminal for `seconds`."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        select.select([leader], [], [], poll)
        try:
            os.read(leader, 65536)
        except BlockingIOError:
            pass


def idle(seconds: float) -> None:
    print(f"{'':22}{'idle CPU over ' + format(seconds, 'g') + ' s':>26}")
    for name, line in IDLE_PROGRAMS.items():
        leader, follower = pty.openpty()
        os.set_blocking(leader, False)
        program = _IDLE_MAIN.format(root=ROOT, bench=os.path.join(ROOT, "bench"), make=line)
        proc = subprocess.Popen([sys.executable, "-c", program],
                                stdin=follower, stdout=follower, stderr=subprocess.PIPE, cwd=ROOT)
        os.close(follower)
        try:
            deadline = time.monotonic() + 30
            ready = b""
            while b"FIRST-FRAME" not in ready and time.monotonic() < deadline:
                if select.select([proc.stderr], [], [], 0.5)[0]:
                    ready += os.read(proc.stderr.fileno(), 4096)
                try:
                    os.read(leader, 65536)  # the terminal takes what is drawn
                except BlockingIOError:
                    pass
            _drain(leader, SETTLE, 0.2)  # (the viewer checks its log in this time)
            start_cpu, start = _cpu_seconds(proc.pid), time.monotonic()
            _drain(leader, seconds, 0.5)
            used = _cpu_seconds(proc.pid) - start_cpu
            wall = time.monotonic() - start
            print(f"{name:<22}{used / wall * 100:>21.3f}% of a core")
        finally:
            proc.kill()
            proc.wait(10)
            os.close(leader)


def idle_live(seconds: float) -> None:
    """The live client waiting on you (its node's thread included), and its bot waiting too."""
    import shutil
    import tempfile

    home = tempfile.mkdtemp(prefix="peerboard-bench-")
    leader, follower = pty.openpty()
    os.set_blocking(leader, False)
    env = dict(os.environ, PEERBOARD_HOME=home, TERM="xterm-256color")
    proc = subprocess.Popen([sys.executable, "-m", "peerboard.client.cli", "play", "aton", "--bots", "1"],
                            stdin=follower, stdout=follower, stderr=follower, cwd=ROOT, env=env, start_new_session=True)
    os.close(follower)
    try:
        seen = b""
        deadline = time.monotonic() + 30
        while b"Your turn" not in seen and time.monotonic() < deadline:
            select.select([leader], [], [], 0.5)
            try:
                seen = (seen + os.read(leader, 65536))[-65536:]
            except BlockingIOError:
                pass
        if b"Your turn" not in seen:
            print("live client: its screen never said it was your turn (within 30 s)")
            return
        bot = _child_pids(proc.pid)
        _drain(leader, SETTLE, 0.2)
        start = time.monotonic()
        start_cpu = {pid: _cpu_seconds(pid) for pid in [proc.pid, *bot]}
        _drain(leader, seconds, 0.5)
        wall = time.monotonic() - start
        used = {pid: _cpu_seconds(pid) - cpu for pid, cpu in start_cpu.items()}
        print(f"{'live client (play)':<22}{used[proc.pid] / wall * 100:>21.3f}% of a core")
        for pid in bot:
            print(f"{'  its bot process':<22}{used[pid] / wall * 100:>21.3f}% of a core")
    finally:
        os.killpg(proc.pid, 9)
        proc.wait(10)
        os.close(leader)
        shutil.rmtree(home, ignore_errors=True)


def _child_pids(pid: int) -> list[int]:
    """The processes `pid` started (the bots of `play`)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--idle", type=float, default=10.0)
    args = parser.parse_args()
    speed(args.presses)
    print()
    idle(args.idle)
    idle_live(args.idle)


if __name__ == "__main__":
    main()
