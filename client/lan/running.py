"""The node's loop for a LAN command, until the game is over here (or it halts, is refused,
or is left): Ctrl-C and SIGTERM leave cleanly, a bot whose parent process is gone leaves
too, and the exit status says how it ended (client/exitcode.py)."""
from __future__ import annotations

import os
import signal

from peerboard.client.exitcode import ExitCode
from peerboard.client.invocation import command
from peerboard.client.lan.options import LanOptions
from peerboard.client.seat import Seat
from peerboard.node.loop import SPECTATOR_GRACE, Node


def _run(node: Node, seat: Seat, opts: LanOptions) -> ExitCode:
    """The node's loop until the game is over here (or it halts, is refused, or is left)."""
    if hasattr(seat, "run"):  # the full-screen client runs the node's loop itself (client/tui/live_run.py)
        try:
            return seat.run(opts.max_seconds)
        finally:
            node.close(linger=1.0)
    def stop(signum, frame):
        seat.interrupted = True
        node.stop()

    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    if opts.parent:
        def orphaned() -> None:
            if os.getppid() != opts.parent:
                seat.say("the process that started this bot is gone; leaving")
                seat.interrupted = True
                node.stop()
            else:
                node.call_later(1.0, orphaned)
        node.call_later(1.0, orphaned)
    try:
        # (over and acknowledged, even if the person left while a rematch could still come)
        finished = node.run(node.finished, max_seconds=opts.max_seconds) or node.settled()
        if finished:
            node.linger(SPECTATOR_GRACE)  # spectators may still be catching up from this node
        if node.session is not None and node.session.halt is None:
            # whatever ends this node's run, the others are told at once (a halted node is
            # shown away instead: it comes back with `resume`)
            if seat.interrupted:
                seat.say(seat.leaving())
            node.leave()
        if seat.interrupted:
            return ExitCode.INTERRUPTED if seat.exit_status is None else seat.exit_status
        if seat.exit_status is not None and not (finished and seat.exit_status is ExitCode.DONE):
            return seat.exit_status
        if not finished:
            seat.say(f"gave up after {opts.max_seconds:g} s (--max-seconds); the game is not over"
                     + (f"; resume it with: {command()} resume {seat.log_path}" if seat.log_path else ""))
            return ExitCode.GAVE_UP
        if seat.log_path is not None:
            seat.say(f"the game's log: {seat.log_path} (check it with: {command()} replay {seat.log_path} --verify)")
        return ExitCode.DONE
    finally:
        node.close(linger=1.0)
        for s, handler in old.items():
            signal.signal(s, handler)
