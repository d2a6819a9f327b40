"""One full-screen prompt-toolkit Application around a screen (a view and its presenter):
the style, NO_COLOR, the mouse, Ctrl-C, and running it."""
from __future__ import annotations

from typing import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from client.tui.game_view import GameView
from client.tui.styles import color_depth, style


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

    def leave() -> None:
        if app.is_running and app.future is not None and not app.future.done():
            app.exit()

    presenter.leave = leave
    return app, view


def run(presenter, **kw) -> None:
    """Run the screen until the presenter leaves (quit, Ctrl-C)."""
    app, _ = build(presenter, **kw)
    app.run(pre_run=presenter.start)
