"""The full-screen game in front of a live node: the node's loop in a thread of its own,
the screen in this one (client/tui/live_source.py joins the two), until the person leaves."""
from __future__ import annotations

import asyncio
import signal
import sys
import threading
from typing import Any

from peerboard.client.exitcode import ExitCode
from peerboard.client.tui.live_source import SUBMIT_WAIT, LiveSource

#: the interpreter's switch interval while the node's loop runs beside the screen: the node's
#: thread, its poll back with a peer's message, waits at most this long for the screen's
#: thread to let go of the interpreter (a redraw holds it for milliseconds; Python's default
#: interval is 5 ms, each message's wait up to that: spec/transport.md, "Latency")
NODE_SWITCH_INTERVAL = 0.0005


def run_game(node: Any, title: str = "", input=None, output=None, max_seconds: float | None = None,
             source: LiveSource | None = None) -> ExitCode:
    """The full-screen game in front of a node that has hosted, joined or resumed a table:
    the node runs in a thread, the screen in this one, until the person quits (a game not
    over waits for them; `peerboard resume` brings them back). Returns the exit status:
    DONE (over, or left with F10), INTERRUPTED (Ctrl-C, SIGTERM), HALTED, REFUSED, GAVE_UP."""
    from peerboard.client.tui.app import build, run_screen
    from peerboard.client.tui.game_presenter import GamePresenter

    source = source or LiveSource(node, title)
    source.prepare()
    presenter = GamePresenter(source)
    app, _ = build(presenter, input=input, output=output)

    def interrupted() -> None:  # Ctrl-C, or SIGINT/SIGTERM from outside
        source.interrupt()
        presenter.quit()

    def stopped() -> None:
        """The node's loop ended: a game over or halted stays on screen until the person
        leaves; anything else (refused, no answer, --max-seconds) ends the screen."""
        snap = source.snapshot()
        if presenter.closed:
            return
        if snap.state is not None and (source.finished or source.exit_status is ExitCode.HALTED):
            presenter.redraw()
        else:
            presenter.leave()

    presenter.interrupt = interrupted
    source.when_stopped(stopped)
    thread = threading.Thread(target=source.run_node, args=(max_seconds,), name="peerboard-node", daemon=True)

    def pre_run() -> None:
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGTERM, interrupted)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread (tests): Ctrl-C still comes as a key
        presenter.start()
        sys.setswitchinterval(NODE_SWITCH_INTERVAL)
        thread.start()

    interval = sys.getswitchinterval()
    try:
        run_screen(app, presenter, pre_run, lambda: node.log_path)
    finally:
        source.close(ExitCode.DONE)
        if thread.is_alive():
            thread.join(timeout=SUBMIT_WAIT)
        sys.setswitchinterval(interval)
    return source.exit_status if source.exit_status is not None else ExitCode.DONE
