"""The bots of `play` and `host --bots`: each a `peerboard bot` process of its own, with its
own identity and games under the data directory's bots/ folder; their faults passed on to
the table's output; and their end, by themselves once the game is over or told to leave."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from peerboard.client.exitcode import ExitCode
from peerboard.client.lan.options import LanOptions
from peerboard.client.lan.running import _run
from peerboard.client.player import Player
from peerboard.client.text import printable
from peerboard.node.dirs import data_dir
from peerboard.node.loop import Node, Notice


def _spawn(argv: list[str], home: Path, out: Path) -> subprocess.Popen:
    """A `peerboard` child process with its own home (identity and games)."""
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PEERBOARD_HOME=str(home))
    with open(out, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "peerboard.client.cli", *argv], env=env, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT)


def _bot_homes(count: int) -> list[Path]:
    return [data_dir() / "bots" / f"bot-{i + 1}" for i in range(count)]


def _start_bots(opts: LanOptions, homes: list[Path], endpoint: str, key: bytes, table: bytes, bind_host: str,
                advertise: str) -> list[subprocess.Popen]:
    """One `peerboard bot` process per bot seat. Every node of the table admits the
    spectators the table admits, so each bot is given the same --spectator keys and
    --spectators-any (spec/transport.md, "Spectators")."""
    procs = []
    watchers = [a for k in opts.spectators for a in ("--spectator", k.hex())]
    if opts.spectators_any:
        watchers.append("--spectators-any")
    for i, (home, strategy) in enumerate(zip(homes, opts.bot_players)):
        argv = ["bot", endpoint, "--key", key.hex(), "--table", table.hex(), "--game", opts.game.name,
                "--name", f"bot-{i + 1}", "--bind", f"tcp://{bind_host}:0", "--advertise", advertise,
                "--parent", str(os.getpid()), "--think", str(opts.think), "--strategy", strategy,
                "--faults", str(_faults_file(home)), *watchers]
        if opts.seed is not None:
            argv += ["--seed", str(opts.seed + i + 1)]
        if opts.code is not None:
            argv += ["--code", opts.code]
        procs.append(_spawn(argv, home, home / "bot.out"))
    return procs


def _faults_file(home: Path) -> Path:
    return home / "faults.txt"


def _show_bot_faults(node: Node, homes: list[Path]) -> None:
    """Pass on, as notices, the fault lines the host's own bots write (a bot that failed is
    played by the random player, or forfeits): the table's output shows them."""
    seen = {home: 0 for home in homes}
    for home in homes:
        try:
            _faults_file(home).unlink()
        except OSError:
            pass  # (none from an earlier game)

    def look() -> None:
        for i, home in enumerate(homes):
            try:
                with open(_faults_file(home), "rb") as f:
                    f.seek(seen[home])
                    data = f.read(64 * 1024)
            except OSError:
                continue
            complete = data[: data.rfind(b"\n") + 1]
            seen[home] += len(complete)
            for line in complete.decode("utf-8", "replace").splitlines():
                node.on_event(Notice(f"bot-{i + 1}: {printable(line, 300)}"))
        node.call_later(0.5, look)

    node.call_later(0.5, look)


def _reap(procs: list[subprocess.Popen], leave: bool = False, wait: float = 10.0) -> None:
    """Wait for the bot processes to end; `leave`: the game goes on without this node, so
    they are told to leave now (SIGTERM: a bot leaves cleanly on it)."""
    if leave:
        for p in procs:
            if p.poll() is None:
                p.terminate()
    deadline = time.monotonic() + wait
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

def _run_with_bots(node: Node, player: Player, opts: LanOptions, procs: list[subprocess.Popen]) -> ExitCode:
    """`_run`, then the bot processes end: by themselves once the game is over, or told to
    leave when this node leaves before."""
    over = False
    try:
        status = _run(node, player, opts)
        over = node.settled()  # (the game over and acknowledged: the bots end by themselves)
        if procs and not over:
            player.say("your bots leave the table too" + ("; resuming the game restarts them" if player.log_path else ""))
        return status
    finally:
        _reap(procs, leave=not over)
