"""The suite's shared switches: the long sets (`--long`), the simulation seed, and the two
markers that split the quick loop from the whole suite.

`make check` runs the tests that need no second process and no terminal (`-m "not processes
and not tmux"`); `make test` runs them all, in parallel. A test that starts a process (a
peerboard node, a bot, a helper program, pip, a process pool) must say so with
`@pytest.mark.processes`, one that drives a terminal with `@pytest.mark.tmux`: this file
enforces it, so `make check` can never start a process by surprise.
"""
import multiprocessing.process
import os
import sys

import pytest

# the audit events that start another program or a copy of this one (sys.addaudithook)
_STARTS = {"subprocess.Popen", "os.system", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.exec"}
_MARKERS = ("processes", "tmux")
_running: pytest.Item | None = None  # the test whose setup, call or teardown runs now, if unmarked
_starts_seen: dict[str, str] = {}  # nodeid -> the first process it started without the marker


def _refuse_unmarked_starts(event: str, args: tuple) -> None:
    item = _running
    if item is None or event not in _STARTS:
        return
    what = f"{event} {args[1] if event == 'subprocess.Popen' and len(args) > 1 else ''}".strip()
    _starts_seen.setdefault(item.nodeid, what)
    raise RuntimeError(f"this test starts a process ({what[:200]}) but is not marked "
                       f"@pytest.mark.processes (or tmux): `make check` would run it")


def _guard_process_start(start):
    # a multiprocessing "spawn" or "forkserver" child starts with no audit event of its own
    def guarded(self):
        if _running is not None:
            _refuse_unmarked_starts("os.posix_spawn", ("multiprocessing", self.name))
        return start(self)
    return guarded


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", help="run the long property/simulation sets")
    parser.addoption("--sim-seed", type=int, default=None,
                     help="the seed that picks this run's slice of the long simulation set "
                          "(default: $PEERBOARD_SIM_SEED, else a fresh one, printed)")


def pytest_configure(config):
    seed = config.getoption("--sim-seed")
    if seed is None and os.environ.get("PEERBOARD_SIM_SEED", "").isdigit():
        seed = int(os.environ["PEERBOARD_SIM_SEED"])
    if seed is None:
        seed = int.from_bytes(os.urandom(3), "big")
    config.sim_seed = seed
    # the workers of a parallel run (pytest -n N) must pick the same slice as this process
    os.environ["PEERBOARD_SIM_SEED"] = str(seed)
    if config.getoption("--long"):  # (read by tests/support/budget.py as the test modules load)
        os.environ["PEERBOARD_LONG"] = "1"
    if not getattr(sys, "_peerboard_audit", False):  # (a hook cannot be removed: add it once)
        sys.addaudithook(_refuse_unmarked_starts)
        multiprocessing.process.BaseProcess.start = _guard_process_start(multiprocessing.process.BaseProcess.start)
        sys._peerboard_audit = True


def pytest_report_header(config):
    return (f"simulation seed {config.sim_seed}: the slice of the long simulation set this run plays "
            f"(replay it with PEERBOARD_SIM_SEED={config.sim_seed})")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tmux" in item.keywords and "processes" not in item.keywords:
            item.add_marker(pytest.mark.processes)  # (tmux is a process too: `-m processes` has it)
    items[:] = _long_ones_first(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long set: run with --long")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _long_ones_first(items: list, workers: int) -> list:
    """The tests of processes first in each worker's share: they are the long ones, and mostly
    wait, so each worker starts its own early and fills the waits with the rest. `make` runs
    pytest-xdist's work stealing, which first hands each of the N workers a contiguous Nth of
    this order, then moves tests from the end of the longest queue to an idle worker: so the
    order is N shares, each of its Nth of the process tests followed by its Nth of the others
    (dealt round-robin, so each share has long and short ones of every folder alike)."""
    processes = [item for item in items if "processes" in item.keywords]
    others = [item for item in items if "processes" not in item.keywords]
    return [item for share in range(workers)
            for item in processes[share::workers] + others[share::workers]]


@pytest.fixture(autouse=True)
def _a_home_of_its_own(tmp_path_factory, monkeypatch):
    """Every test's peerboard files (key, games, errors) go to a fresh PEERBOARD_HOME, never the
    user's own directories nor another test's: parallel tests and other checkouts on the same
    machine never meet there. A test that wants another home sets its own (or unsets it)."""
    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path_factory.mktemp("home")))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _running
    _running = None if any(m in item.keywords for m in _MARKERS) else item
    try:
        yield
    finally:
        _running = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    started = _starts_seen.pop(item.nodeid, None)
    if started is not None and report.passed:  # (even if the code under test swallowed the error)
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} started a process ({started[:200]}) without "
                           f"@pytest.mark.processes (or tmux)")
