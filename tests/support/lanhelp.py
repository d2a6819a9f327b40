"""Helpers for the tests that run real peerboard nodes as processes on loopback (or inside
network namespaces the test made): start them, read what they print, wait with deadlines,
and always kill them at the end."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "tcp://127.0.0.1:0"
JOIN_LINE = re.compile(r"from anywhere: peerboard join (\S+) --key (\S+) --table (\S+) --game (\S+)")


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proc:
    """One peerboard process; its stdout and stderr go to `out`."""

    def __init__(self, args: list[str], home: Path, out: Path, beacon_port: int | None = None,
                 netns: str | None = None, entry: list[str] | None = None):
        self.args, self.home, self.out = args, home, out
        home.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, PEERBOARD_HOME=str(home), PYTHONUNBUFFERED="1")
        if beacon_port is not None:
            env["PEERBOARD_BEACON_PORT"] = str(beacon_port)
        argv = [sys.executable, *(entry or ["-m", "peerboard.client.cli"]), *args]
        if netns is not None:
            argv = ["ip", "netns", "exec", netns] + argv
        self.handle = open(out, "ab")
        self.popen = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=self.handle,
                                      stderr=subprocess.STDOUT, cwd=str(ROOT))

    def text(self) -> str:
        return self.out.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float) -> re.Match:
        """The first match of `pattern` in the output, waiting at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while time.monotonic() < deadline:
            m = regex.search(self.text())
            if m:
                return m
            if self.popen.poll() is not None:
                m = regex.search(self.text())
                if m:
                    return m
                raise AssertionError(f"{self.args[0]} exited ({self.popen.returncode}) before printing "
                                     f"{pattern!r}:\n{self.text()[-3000:]}")
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} within {timeout} s from {self.args[0]}:\n{self.text()[-3000:]}")

    def wait(self, timeout: float) -> int:
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.args[0]} still running after {timeout} s:\n{self.text()[-3000:]}") from None

    def kill9(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=10)

    def close(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.handle.close()


class Procs:
    """Every process a test started; `close` kills what is still running."""

    def __init__(self, tmp: Path, beacon_port: int | None = None):
        self.tmp = tmp
        self.beacon_port = beacon_port if beacon_port is not None else free_udp_port()
        self.all: list[Proc] = []

    def start(self, name: str, *args: str, netns: str | None = None, entry: list[str] | None = None) -> Proc:
        """`peerboard ARGS` (or the script `entry` with them) as a process with its own home."""
        n = sum(p.home.name == name for p in self.all)
        proc = Proc(list(args), self.tmp / name, self.tmp / f"{name}.{n}.out", self.beacon_port, netns, entry)
        self.all.append(proc)
        return proc

    def close(self) -> None:
        for p in self.all:
            p.close()


def join_args(host: Proc, timeout: float = 20) -> list[str]:
    """The explicit `join ADDRESS --key --table --game` arguments a host printed."""
    m = host.wait_for(JOIN_LINE.pattern, timeout)
    return [m.group(1), "--key", m.group(2), "--table", m.group(3), "--game", m.group(4)]


def logs(home: Path) -> list[Path]:
    return sorted((home / "games").glob("*.pblog"))


def the_log(home: Path) -> Path:
    found = logs(home)
    assert len(found) == 1, f"expected one log in {home}, found {found}"
    return found[0]


def assert_same_logs(paths: list[Path]) -> bytes:
    """Every node's log is byte-identical; returns the bytes."""
    data = [p.read_bytes() for p in paths]
    for p, d in zip(paths[1:], data[1:]):
        assert d == data[0], f"{p} differs from {paths[0]}"
    return data[0]


def verify(path: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "replay", str(path), "--verify"],
                         capture_output=True, text=True, timeout=120, cwd=str(ROOT),
                         env=dict(os.environ))
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def wait_until(predicate, timeout: float, what: str, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def entries_in(path: Path) -> int:
    """How many entries a (possibly growing) log holds."""
    from peerboard.protocol.log.logfile import read_log

    try:
        return len(read_log(path.read_bytes()).entries)
    except Exception:
        return 0


class Tmux:
    """One command in a real terminal: a detached tmux session on a tmux server of its own (its
    own socket, so parallel tests and a person's own tmux never meet), keys in, the screen out.
    The server keeps the whole scrollback and `screen` returns all of it: a line printed once
    stays countable however much follows it."""

    def __init__(self, name: str, command: str, width: int = 120, height: int = 50):
        self.name = name
        self.socket = f"pb-lan-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        config = Path(tempfile.gettempdir()) / f"{self.socket}.conf"
        config.write_text("set -g history-limit 200000\n")  # (read before the first pane is made)
        try:
            self._tmux("-f", str(config), "new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command)
        finally:
            config.unlink()

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, check=True).stdout

    def screen(self) -> str:
        """Everything the terminal showed, the scrollback first, wrapped lines joined."""
        return self._tmux("capture-pane", "-t", "t", "-p", "-J", "-S", "-")

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match:
        regex = re.compile(pattern)
        return self.wait_until(regex.search, f"{pattern!r}", timeout)

    def wait_until(self, found, what: str, timeout: float = 30.0):
        """`found(screen)`'s first true value, asking at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = found(self.screen())
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"{what} did not appear within {timeout} s; the screen:\n{self.screen()[-4000:]}")

    def type(self, line: str) -> None:
        self._tmux("send-keys", "-t", "t", "-l", line)
        self._tmux("send-keys", "-t", "t", "Enter")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
