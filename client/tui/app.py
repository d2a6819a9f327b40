"""One full-screen prompt-toolkit Application around a screen (a view and its presenter):
the style, NO_COLOR, the mouse, Ctrl-C, and running it."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from peerboard.client.bell import bell_wanted
from peerboard.client.tui.game_view import GameView
from peerboard.client.tui.styles import color_depth, style


def build(presenter, *, input: Input | None = None, output: Output | None = None,
          view_class: Callable = GameView) -> tuple[Application, GameView]:
    """The application for a presenter's screen (a view_class over it: GameView, LobbyView);
    the presenter starts when the application runs, so that events from the game reach the
    application's own loop."""
    view = view_class(presenter)
    app: Application = Application(
        layout=view.layout, key_bindings=view.key_bindings, style=style(), full_screen=True,
        mouse_support=True, color_depth=color_depth(), input=input, output=output,
        # redraw as soon as a key or an event changed something (prompt-toolkit waits up to
        # 10 ms by default, to batch invalidations; ours come one loop turn at a time anyway)
        max_render_postpone_time=0,
    )
    app.ttimeoutlen = 0.05  # a bare Esc should not wait half a second for a following key
    presenter.redraw = view.refresh
    if hasattr(presenter, "bell") and bell_wanted():
        presenter.bell = app.output.bell

    def leave() -> None:
        if app.is_running and app.future is not None and not app.future.done():
            app.exit()

    presenter.leave = leave
    return app, view


def run(presenter, **kw) -> None:
    """Run the screen until the presenter leaves (quit, Ctrl-C)."""
    app, _ = build(presenter, **kw)
    run_screen(app, presenter)


def run_screen(app: Application, presenter, pre_run: Callable[[], None] | None = None,
               log_path: Callable[[], Path | None] = lambda: None) -> None:
    """Run a built screen until it leaves. Our own bug in what a key or an event does is
    ours: its traceback goes to the errors file (beside the game's log, `log_path()`, or
    in the data directory), the status line says so in one line, and the screen goes on
    (prompt-toolkit's own handler would print the traceback and wait for Enter)."""

    def start() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda loop, context: keep_fault(presenter, context, log_path()))
        (pre_run or presenter.start)()

    app.run(pre_run=start, set_exception_handler=False)


def keep_fault(presenter, context: dict, log_path: Path | None) -> None:
    """One fault of our own on the screen's loop: details to a file, one line on screen."""
    from peerboard.node import faults
    from peerboard.node.dirs import data_dir

    exc = context.get("exception")
    what = type(exc).__name__ if exc is not None else "error"
    details = faults.details_of(exc) if exc is not None else str(context.get("message"))
    kept = faults.keep("the terminal client", details, log_path, None if log_path is not None else data_dir())
    presenter.say(f"Internal error in the terminal client ({what}); {kept.where}.", "error")
