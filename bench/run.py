"""Run benchmarks and keep what they print in bench/RESULTS.md, where every figure lives.

    python bench/run.py                 # every benchmark (slow: some play many whole games)
    python bench/run.py aton replay     # only these; the other sections of RESULTS.md stay as they are
    python bench/run.py --list          # the names, what each measures, and its command
    python bench/run.py analysis --with "--games 24 --no-decide"   # one, with arguments of its own

Each benchmark prints its figures beside a baseline measured in the same run (a raw pyzmq
round trip, a bare prompt-toolkit application, the signatures alone, an earlier engine ...);
this runner adds what a figure means nothing without: the machine (its CPU, cores, memory
and how loaded it was when the run began), the date, and the commit measured (`+changes`
when the tree had uncommitted changes). A section is rewritten only by a run of its own
benchmark, so a figure never outlives the run that measured it unmarked. The documentation
links to RESULTS.md and states no timing of its own.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"

#: name -> (the arguments after `python`, what it measures); in the order `make bench` runs them
BENCHES: dict[str, tuple[list[str], str]] = {
    "aton": (["bench/bench_aton.py"], "Aton engine: random games and actions a second"),
    "athos": (["bench/bench_athos.py"], "Athos engine: game lengths, branching, games a second, the path rule's cost"),
    "asterix": (["bench/bench_asterix.py"], "Asterix engine: random games and MCTS playouts against a fixed reference"),
    "replay": (["bench/bench_replay.py", "aton", "athos", "asterix"],
               "replay --verify throughput beside verifying the signatures alone"),
    "latency": (["bench/bench_latency.py"], "move confirmation latency between node processes beside a raw pyzmq round trip"),
    "session": (["bench/bench_session.py"], "the session's messages, bytes and CPU per move beside one sign + verify"),
    "bots": (["bench/bench_bots.py"], "the players' strength, MCTS playouts a second, a program bot's decision beside a pipe round trip"),
    "tui": (["bench/bench_tui.py"], "the terminal client beside a bare prompt-toolkit application"),
    "turn_inputs": (["bench/bench_turn_inputs.py"], "inputs a turn by mouse and by keyboard (tmux)"),
    "discovery": (["bench/bench_discovery.py"], "a beacon flood's cost to a listener beside no flood"),
    "resume": (["bench/bench_resume.py"], "resume's full check of a stored log, and damaged logs"),
    "want_flood": (["bench/bench_want_flood.py"], "a spectator's want flood: the game's pace beside no flood"),
    "guesses": (["bench/bench_guesses.py"], "a private code's online guesses checked a second beside the hellos sent"),
    "endings": (["bench/bench_endings.py"], "from a seat's death to the claim (and the takeover) beside the patience"),
    "analysis": (["bench/bench_analysis.py"], "`analyse`: its chances against who won (Brier, calibration), its marks against a 10x search, its CPU beside the mcts player's"),
    "ceiling": (["bench/chance_ceiling.py", "aton:2", "--jobs", "2"],
                "the best chance of winning there is (strong players playing on), its Brier score beside the share's"),
}

HEADER = """# Benchmark results

What `make bench` (bench/run.py) last measured: one section a benchmark, each with the machine,
the date and the commit it ran on, and its figures as the benchmark printed them, every one
beside its baseline measured in the same run. `make bench BENCH="aton replay"` measures only
those again; `python bench/run.py --list` names them all. A section without a run says so.
The documentation states no timing: it links here.
"""


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory() -> str:
    try:
        kib = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
        return f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, AttributeError):
        return "unknown memory"


def machine() -> str:
    """The machine in one line: CPU, cores, memory, OS, Python, and its load as the run begins."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{_cpu()}, {os.cpu_count()} cores, {_memory()}; {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}; load average {load} (1, 5, 15 min) at the start")


def commit() -> str:
    """The commit measured, `+changes` if the tree differs from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30).stdout.strip()

    head = git("rev-parse", "--short=12", "HEAD") or "unknown (not a git checkout)"
    return head + (" +changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def sections(text: str) -> dict[str, str]:
    """The sections of a RESULTS.md, by benchmark name (each between its two markers)."""
    return {m.group(1): m.group(0) for m in re.finditer(r"<!-- bench:(\w+) -->.*?<!-- /bench:\1 -->", text, re.S)}


def section(name: str, body: str) -> str:
    return f"<!-- bench:{name} -->\n## {name}\n\n{body.rstrip()}\n<!-- /bench:{name} -->"


def not_run(name: str) -> str:
    argv, what = BENCHES[name]
    return section(name, f"{what}.\n\nNot measured yet: `python {' '.join(argv)}` (or `make bench BENCH={name}`).\n")


def reference() -> float:
    """The CPU milliseconds of a fixed pure-Python workload (a stand-in for an engine's work:
    small tuples, dicts and integer arithmetic), the best of three: the baseline every section
    carries, measured right before and right after its benchmark, so a figure without a
    baseline of its own can still be read against the machine's speed at that moment."""
    def work() -> int:
        seen: dict[tuple[int, int], int] = {}
        total = 0
        for i in range(300_000):
            key = (i % 97, i % 89)
            seen[key] = seen.get(key, 0) + i
            total += (i * i) % 7
        return total + len(seen)

    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best * 1000


def run(name: str, extra: list[str] | None = None) -> tuple[str, int]:
    """Run one benchmark (its output shown as it comes), `extra` arguments after its own;
    its section and its exit status."""
    argv, what = BENCHES[name]
    argv = argv + list(extra or [])
    where, when, before = machine(), datetime.datetime.now(datetime.timezone.utc), reference()
    started = time.monotonic()
    print(f"== {name}: python {' '.join(argv)}", flush=True)
    proc = subprocess.Popen([sys.executable, *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    lines = []
    for line in proc.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    status = proc.wait()
    took, after = time.monotonic() - started, reference()
    output = "".join(lines).rstrip() or "(it printed nothing)"
    body = (f"{what}.\n\n"
            f"- command: `python {' '.join(argv)}`\n"
            f"- machine: {where}\n"
            f"- date: {when:%Y-%m-%d %H:%M} UTC; commit {commit()}\n"
            f"- the machine's baseline: a fixed pure-Python workload (bench/run.py, `reference`) took "
            f"{before:.0f} ms of CPU right before the run and {after:.0f} ms right after\n"
            f"- the run took {took:.0f} s" + ("" if status == 0 else f" and failed (exit status {status})") + "\n\n"
            f"```\n{output}\n```\n")
    return section(name, body), status


def write(results: dict[str, str]) -> None:
    text = HEADER + "\n" + "\n\n".join(results.get(name) or not_run(name) for name in BENCHES) + "\n"
    RESULTS.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default: all; --list names them)")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and stop")
    parser.add_argument("--with", dest="extra", metavar="ARGS", default="",
                        help='more arguments for the one benchmark named (e.g. analysis --with "--games 24 --no-decide")')
    args = parser.parse_args(argv)
    if args.list:
        for name, (bench, what) in BENCHES.items():
            print(f"{name:12} python {' '.join(bench):45} {what}")
        return 0
    unknown = [n for n in args.names if n not in BENCHES]
    if unknown:
        parser.error(f"no benchmark {', '.join(unknown)} (the names: {', '.join(BENCHES)})")
    if args.extra and len(args.names) != 1:
        parser.error("--with needs exactly one benchmark named")
    results = sections(RESULTS.read_text()) if RESULTS.exists() else {}
    failed = []
    for name in args.names or list(BENCHES):
        results[name], status = run(name, shlex.split(args.extra))
        write(results)  # (after each: a long run stopped midway keeps what it measured)
        if status:
            failed.append(name)
    print(f"bench/RESULTS.md: {', '.join(args.names or BENCHES)} written" +
          (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
