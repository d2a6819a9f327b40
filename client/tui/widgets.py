"""Small pieces every screen uses: the clickable function-key bar, the status line, the
one-message screen for a terminal too small, and mouse targets on text fragments."""
from __future__ import annotations

from typing import Callable, Sequence

from prompt_toolkit.layout import Window
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from peerboard.client.text import shorten_start, within
from peerboard.client.tui.source import Alert

#: how a key's prompt-toolkit name is written on the bar
KEY_LABELS = {"left": "←", "right": "→", "home": "Home", "end": "End", "pageup": "PgUp",
              "pagedown": "PgDn", "space": "Space", "escape": "Esc"}


def key_label(key: str) -> str:
    return KEY_LABELS.get(key, key.upper() if key.startswith("f") and key[1:].isdigit() else key)


def on_click(action: Callable[[], None]) -> Callable[[MouseEvent], None]:
    """A fragment's mouse handler that runs `action` when the button is released on it."""

    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            action()
            return None
        return NotImplemented

    return handler


def key_bar(commands: Callable[[], Sequence]) -> Window:
    """The function keys with their labels; a click on a label does what the key does."""

    def fragments():
        shown = [c for c in commands() if c.shown is not None]
        width = columns_now()
        # a bar too wide for the terminal leaves out whole keys (the last, Quit, stays),
        # never half a label
        while len(shown) > 2 and sum(len(_key_text(c)) + len(c.label) + 3 for c in shown) > width:
            del shown[-2]
        out = []
        for command in shown:
            click = on_click(command.run)
            out.append(("class:keybar.key", _key_text(command), click))
            out.append(("class:keybar", f" {command.label} ", click))
            out.append(("", " "))
        return out

    return Window(FormattedTextControl(fragments), height=1, style="class:keybar")


def _key_text(command) -> str:
    return f" {command.shown or key_label(command.key)}"


def columns_now() -> int:
    """The terminal's width now (wide when no application runs yet)."""
    from prompt_toolkit.application import DummyApplication
    from prompt_toolkit.application.current import get_app

    app = get_app()
    return 1 << 16 if isinstance(app, DummyApplication) else app.output.get_size().columns


def status_line(alert: Callable[[], "Alert | None"], hint: Callable[[], str], rows: Callable[[], int] = lambda: 1,
                columns: Callable[[], int | None] = lambda: None) -> Window:
    """The latest alert, or else the screen's hint, on `rows()` lines (an error may take two,
    so the file holding its details is not cut off); broken at words in `columns()`, and
    what does not fit shortened with "…" at a word."""

    def fitted(text: str, newest_last: bool = False) -> str:
        width = columns()
        if width is None:
            return text
        if newest_last and rows() == 1:  # (what just happened is at its end: keep that)
            return shorten_start(text, width)
        return "\n".join(within(text, width, rows()))

    def fragments():
        a = alert()
        if a is None:
            return [("class:dim", fitted(hint()))]
        return [(f"class:status.{a.kind}", fitted(a.text, a.newest_last))]

    return Window(FormattedTextControl(fragments), height=lambda: Dimension.exact(rows()), wrap_lines=True)


def mouse_or_text(kb, as_text: Callable[[str], None]) -> None:
    """Bind mouse reports on `kb`: a well-formed one is a click (prompt-toolkit's own
    handler), anything else that merely looks like one — pasted text holding
    `ESC [ 5 M`, say — is text, handed to `as_text` without its escape character
    (prompt-toolkit's parser would raise on it, and the screen call it our fault)."""
    from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings
    from prompt_toolkit.keys import Keys

    (click,) = load_mouse_bindings().get_bindings_for_keys((Keys.Vt100MouseEvent,))

    @kb.add(Keys.Vt100MouseEvent)
    def _(event) -> object:
        try:
            return click.handler(event)
        except (ValueError, KeyError, IndexError):  # (what no terminal sends as a mouse report)
            as_text(event.data.lstrip("\x1b"))
            return None


def message_window(text: Callable[[], str]) -> Window:
    """A whole screen holding one message (a terminal below the minimum size)."""
    return Window(FormattedTextControl(lambda: [("class:status.warn", text())]), wrap_lines=True)
