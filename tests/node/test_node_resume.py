"""kill -9 at random points: a node started again with `peerboard resume FILE` rejoins,
catches up, and the game finishes with byte-identical logs on every node."""
from __future__ import annotations

import random
import time

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, logs, verify, wait_until
from peerboard.node.gamefiles import is_finished
from peerboard.protocol.log.logfile import read_log

pytestmark = pytest.mark.processes


def finished(path) -> bool:
    try:
        return is_finished(read_log(path.read_bytes()))
    except Exception:
        return False


def running(nodes) -> bool:
    for name, p in nodes.items():
        assert p.popen.poll() is None, f"{name} exited ({p.popen.returncode}):\n{p.text()[-2000:]}"
    return True


# Kill points are log sizes (bytes), drawn at random below what a whole game writes, so
# every kill lands mid-game however fast this machine is.
@pytest.mark.parametrize("game, seed, sizes", [("aton", 11, (2_000, 11_000)), ("asterix", 12, (8_000, 60_000))])
def test_killed_nodes_resume_and_the_game_finishes_with_identical_logs(tmp_path, game, seed, sizes):
    rng = random.Random(seed)
    procs = Procs(tmp_path)
    flags = ["--headless", "--think", "0.002"]
    try:
        nodes = {"seat0": procs.start("seat0", "host", game, "--players", "2", "--no-beacon",
                                      "--bind", LOOPBACK, *flags)}
        nodes["seat1"] = procs.start("seat1", "join", *join_args(nodes["seat0"]), "--bind", LOOPBACK, *flags)
        paths = {name: wait_until(lambda: logs(p.home) and logs(p.home)[0], 20, f"{name}'s log")
                 for name, p in nodes.items()}
        targets = sorted(rng.randrange(*sizes) for _ in range(4))
        victims = ["seat0", "seat1"] + [rng.choice(["seat0", "seat1"]) for _ in targets[2:]]
        for target, victim in zip(targets, victims):
            wait_until(lambda: running(nodes) and paths[victim].stat().st_size >= target, 60,
                       f"{victim}'s log to reach {target} bytes", step=0.01)
            assert not finished(paths[victim])
            nodes[victim].kill9()
            time.sleep(rng.uniform(0.0, 0.5))
            nodes[victim] = procs.start(victim, "resume", str(paths[victim]), *flags)
            nodes[victim].wait_for("resuming", 20)
        for name, p in nodes.items():
            assert p.wait(90) == 0, f"{name}:\n{p.text()[-2000:]}"
        assert_same_logs(list(paths.values()))
        assert "valid:" in verify(paths["seat0"])
    finally:
        procs.close()


def test_a_local_game_killed_with_its_bots_gone_resumes_them_and_finishes(tmp_path):
    """`peerboard play` killed mid-game: its bot sees the process that started it is gone
    and leaves. `peerboard resume FILE` starts the bot again from the bot's own stored log,
    and the game finishes with the same log at both seats."""
    procs = Procs(tmp_path)
    flags = ["--headless", "--think", "0.002"]
    try:
        me = procs.start("me", "play", "aton", "--bots", "1", *flags)
        path = wait_until(lambda: logs(me.home) and logs(me.home)[0], 30, "the player's log")
        bot_home = me.home / "bots" / "bot-1"
        wait_until(lambda: running({"me": me}) and path.stat().st_size >= 3_000, 60, "the game to get going", step=0.01)
        assert not finished(path)
        me.kill9()
        wait_until(lambda: "is gone; leaving" in (bot_home / "bot.out").read_text(errors="replace"), 20,
                   "the orphaned bot to leave")
        me = procs.start("me", "resume", str(path), *flags)
        me.wait_for("resuming", 20)
        assert me.wait(120) == 0, me.text()[-2000:]
        bot_log = wait_until(lambda: logs(bot_home) and logs(bot_home)[0], 5, "the bot's log")
        wait_until(lambda: finished(bot_log), 20, "the bot's log to hold the whole game")
        assert_same_logs([path, bot_log])
        assert "valid:" in verify(path)
    finally:
        procs.close()
