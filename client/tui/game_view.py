"""The game screen's view: prompt-toolkit containers only. It shows the model and hands
every key, line and click to the presenter; it decides nothing.

    ┌ situation line ───────────────────────┐┌ title ───────────────┐
    │ the board (each game's own look)      ││ seats: name, print,   │
    │                                       ││ score, turn, link     │
    │ [buttons for actions off the board]   ││ moves in the notation │
    │ what is under the cursor              ││ > input line          │
    ├ status line (alerts) ─────────────────┴┴──────────────────────┤
    └ function keys (clickable) ─────────────────────────────────────┘
"""
from __future__ import annotations

import time

from prompt_toolkit.application import DummyApplication
from prompt_toolkit.application.current import get_app_or_none
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.bindings.completion import generate_completions
from prompt_toolkit.layout import (
    ConditionalContainer, DynamicContainer, Float, FloatContainer, HSplit, Layout, VSplit, Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.widgets import Frame

from peerboard.client.text import shorten, within
from peerboard.client.tui.boards import Drawing
from peerboard.client.tui.forming import wrap
from peerboard.client.tui.game_model import PANEL_MAX, PANEL_WIDTH
from peerboard.client.tui.game_presenter import GamePresenter
from peerboard.client.tui.help import help_text
from peerboard.client.tui.picking import BUTTON
from peerboard.client.tui.widgets import key_bar, key_label, message_window, mouse_or_text, on_click, status_line

#: how often a timer shown on screen ("away 12s") is drawn again while it counts
TIMER_TICK = 1.0
#: the most lines the situation line above the board takes (a long one wraps, then shortens)
SITUATION_ROWS = 2
#: the move list is laid out in blocks of this many lines around the current one (a long
#: game is not laid out whole on every frame)
MOVE_BLOCK = 50
FRAME_BELOW_INPUT = 3  # the input line, the status line and the key bar: the completion menu sits above them
CHAT_ROWS = 6  # at most this many rows of the table's chat above the input line
#: the win-probability graph's rows (a caption line and the graph), when the presenter has one
GRAPH_ROWS = 5
CONNECTION = {"you": "you", "connected": "", "away": "away", "left": "left", "bot": "bot (taken over)", "": ""}


class ActionCompleter(Completer):
    """Tab: the legal actions whose notation begins with what is typed."""

    def __init__(self, presenter: GamePresenter):
        self.presenter = presenter

    def get_completions(self, document, complete_event):
        typed = document.text_before_cursor
        for text in self.presenter.completions(typed):
            yield Completion(text, start_position=-len(typed))


class GameView:
    def __init__(self, presenter: GamePresenter):
        self.presenter = presenter
        self.model = presenter.model
        self._handlers: dict = {}  # spot -> its mouse handler (made once, not every render)
        self._move_start = 0  # where the move list's laid-out lines began at the last frame
        self.help_scroll = 0  # the help's first line shown (PgDn/PgUp scroll a long help)
        self.input = Buffer(multiline=False, completer=ActionCompleter(presenter),
                            accept_handler=self._accept, complete_while_typing=False)
        self.input_window = Window(BufferControl(self.input, input_processors=[BeforeInput("> ", "class:heading")]),
                                   height=1)
        self.board_window = Window(
            FormattedTextControl(self._board_fragments, focusable=True, show_cursor=False,
                                 key_bindings=self._board_keys()),
            wrap_lines=False,
            # (its size is the drawing's: prompt-toolkit then need not lay the text out to ask)
            width=lambda: Dimension.exact(self.drawing().width),
            height=lambda: Dimension.exact(self.board_rows),
        )
        self.too_small = ""
        # the size of each part, from the terminal's size, worked out once per frame (_fits)
        self.panel_width, self.left_width = PANEL_MAX, 80
        self.body_rows = self.board_rows = self.seat_rows = self.move_rows = self.button_rows = self.status_rows = 1
        self.chat_rows = 0  # the chat's rows, its heading included (0: nothing said yet)
        self.graph_rows = 0  # the win-probability graph's (0: none, or no room for it)
        self.columns = 80
        self.situation_lines: list[str] = [""]
        self._ticking = False  # a redraw is due for a timer on screen
        self.body = self._body()
        too_small = message_window(lambda: self.too_small)
        root = FloatContainer(
            DynamicContainer(lambda: self.body if self._fits() else too_small),
            floats=[
                # above the input line, in the panel: it covers the move list, never the status line
                Float(bottom=FRAME_BELOW_INPUT, right=0, content=CompletionsMenu(max_height=12, scroll_offset=1)),
                # (top and bottom: the help takes the screen's height at most, and scrolls)
                # (left and right too: its width is the screen's, whatever part of it is scrolled into view)
                Float(top=0, bottom=1, left=1, right=1,
                      content=ConditionalContainer(self._help(), Condition(lambda: self.model.help_shown))),
            ],
        )
        self.layout = Layout(root, focused_element=self.input_window)
        self.key_bindings = self._keys()

    # -- what is drawn -------------------------------------------------------------------------------

    def drawing(self) -> Drawing:
        """The board as the model says it is now (drawn again only when that changed)."""
        return self.model.drawing()

    def _fits(self) -> bool:
        """Whether the screen fits the terminal (if not, `too_small` says so in one line),
        and the size of each of its parts: every window is given its exact size, so a frame
        costs the drawing, not prompt-toolkit's measuring and sharing out of space."""
        # (get_app, with no application running, makes a DummyApplication, and with it every
        # default key binding: most of the first frame's cost, the layout being built asking)
        app = get_app_or_none()
        if app is None or isinstance(app, DummyApplication):  # (the layout being built: nothing drawn yet)
            return True
        size = app.output.get_size()
        self.model.forming_width = max(40, min(90, size.columns - PANEL_WIDTH - 1))
        drawing = self.drawing()
        self.too_small = self.model.too_small(size.columns, size.rows, drawing.width, drawing.height)
        if self.too_small:
            return False
        # the graph only when the screen still fits without its rows
        has_graph = self.presenter.graph(1, 1) is not None
        self.graph_rows = GRAPH_ROWS if has_graph and not self.model.too_small(
            size.columns, size.rows - GRAPH_ROWS, drawing.width, drawing.height) else 0
        self.columns = size.columns
        self.panel_width = max(PANEL_WIDTH, min(PANEL_MAX, size.columns - drawing.width - 1))
        self.left_width = size.columns - self.panel_width - 1
        alert = self.model.alert
        long_error = alert is not None and alert.kind == "error"
        # (at words: the last words of an error name the file holding its details)
        self.status_rows = min(3, len(within(alert.text, size.columns, 3))) if long_error else 1
        self.columns = size.columns
        self.situation_lines = within(self.model.situation(), size.columns, SITUATION_ROWS)
        # the situation line(s) above, the status line and the key bar below
        self.body_rows = max(1, size.rows - len(self.situation_lines) - 1 - self.status_rows - self.graph_rows)
        width = sum(len(route.text) + 3 for route in self.model.picking.buttons())
        self.button_rows = max(1, min(3, -(-width // max(self.left_width, 1))))
        self.board_rows = max(1, min(drawing.height, self.body_rows - self.button_rows - 1))
        seats = 1 + sum(text.count("\n") for _, text, *_ in self._seat_fragments())
        self.seat_rows = max(1, min(seats, self.body_rows - 4))  # the title, "moves", a move, the input line
        chat = self._chat_lines()
        self.chat_rows = 1 + len(chat) if chat and self.body_rows - self.seat_rows - 4 > len(chat) + 1 else 0
        self.move_rows = max(1, self.body_rows - self.seat_rows - 3 - self.chat_rows)
        return True

    def _chat_lines(self) -> list[str]:
        """The latest lines said at the table, wrapped to the panel, at most CHAT_ROWS rows."""
        rows = [piece for line in self.model.snapshot.chat for piece in wrap(line, self.panel_width - 1)]
        return rows[-CHAT_ROWS:]

    def _body(self):
        exact = Dimension.exact
        left = HSplit([
            self.board_window,
            Window(FormattedTextControl(self._button_fragments), wrap_lines=True, height=lambda: exact(self.button_rows)),
            Window(FormattedTextControl(lambda: [("class:info", shorten(self._info(), self.left_width))]), height=1),
        ], width=lambda: exact(self.left_width))
        panel = HSplit([
            Window(FormattedTextControl(
                lambda: [("class:title", f" {shorten(self.model.snapshot.title, self.panel_width - 2)} ")]), height=1),
            Window(FormattedTextControl(self._seat_fragments), wrap_lines=True, height=lambda: exact(self.seat_rows)),
            Window(FormattedTextControl([("class:heading", "moves")]), height=1),
            Window(FormattedTextControl(self._move_fragments, get_cursor_position=self._move_cursor),
                   wrap_lines=False, height=lambda: exact(self.move_rows), get_vertical_scroll=self._move_scroll),
            ConditionalContainer(HSplit([
                Window(FormattedTextControl([("class:heading", "chat")]), height=1),
                Window(FormattedTextControl(lambda: "\n".join(self._chat_lines())), wrap_lines=False,
                       height=lambda: exact(max(1, self.chat_rows - 1))),
            ]), Condition(lambda: self.chat_rows > 0)),
            self.input_window,
        ], width=lambda: exact(self.panel_width))
        return HSplit([
            Window(FormattedTextControl(lambda: [("class:heading", "\n".join(self.situation_lines))]),
                   height=lambda: exact(len(self.situation_lines))),
            VSplit([left, Window(width=1, char="│", style="class:dim"), panel], height=lambda: exact(self.body_rows)),
            ConditionalContainer(HSplit([
                Window(FormattedTextControl(lambda: [("class:heading", self.presenter.graph_caption(self.columns))]),
                       height=1),
                Window(FormattedTextControl(lambda: self.presenter.graph(self.columns, GRAPH_ROWS - 1) or []),
                       height=GRAPH_ROWS - 1, wrap_lines=False),
            ]), Condition(lambda: self.graph_rows > 0)),
            status_line(lambda: self.model.alert, self.presenter.hint, lambda: self.status_rows, lambda: self.columns),
            key_bar(self.presenter.commands),
        ])

    def _board_fragments(self):
        drawing = self.drawing()
        out = []
        for line in drawing.lines:
            for style, text, spot in line:
                if spot is None:
                    out.append((style, text))
                else:
                    out.append((style, text, self._handler(spot)))
            out.append(("", "\n"))
        return out[:-1]  # the last newline fragment

    def _button_fragments(self):
        routes = self.model.picking.buttons()
        out = []
        for route in routes:
            spot = BUTTON + route.text
            style = "class:button" + (" class:cursor" if self.model.cursor == spot else "")
            out.append((style, f" {route.text} ", self._handler(spot)))
            out.append(("", " "))
        return out

    def _handler(self, spot: str):
        handler = self._handlers.get(spot)
        if handler is None:
            handler = self._handlers[spot] = on_click(lambda: self.presenter.pointing.click(spot))
        return handler

    def _info(self) -> str:
        parts = []
        info = self.presenter.pointing.cursor_info()
        if info and self.model.focus == "board":
            parts.append(info)
        selection = self.model.picking.selection
        if selection:
            parts.append(self.presenter.pointing.picked_words()
                         or "picked " + " → ".join(s.partition(":")[2] for s in selection) + " → ?")
        used = len("   ".join(parts))
        room = self.left_width - used - (3 if parts else 0)
        guide = self.presenter.guide(room) if not selection else ""
        if guide and len(guide) <= room or not parts:
            parts.append(guide)
        return "   ".join(parts)

    def _seat_fragments(self):
        snap = self.model.snapshot
        state = self.model.shown_state
        acting = snap.to_act[0] if snap.to_act else None
        now = time.monotonic()
        out = []
        for seat in snap.seats:
            turn = seat.index == acting
            mark = ">" if turn else " "
            score = "" if seat.score is None else f"{seat.score:>3}"
            link = CONNECTION.get(seat.connection, seat.connection)
            if seat.last_heard is not None and seat.connection in ("away", "left"):
                away = int(now - seat.last_heard)
                link += f" {away}s"
                if snap.patience is not None and seat.index != snap.local_seat:
                    # the table's patience counted down: then F8 claims the seat
                    left = snap.patience - away
                    link += f", claim in {left}s" if left > 0 else ", F8 claims"
                self._tick()
            style = f"class:seat{seat.index}" + (" class:panel.turn" if turn else "")
            out.append((style, f"{mark}{seat.index} {shorten(seat.name, 12):<12}"))
            out.append(("", f" {score} {link}\n"))
            out.append(("class:dim", f"  {seat.fingerprint}\n"))
            detail = self._seat_detail(state, seat.index)
            for line in detail.splitlines():
                for piece in wrap(line, self.panel_width - 2):  # (at word breaks: a narrow panel)
                    out.append(("class:dim", f"  {piece}\n"))
        return _without_last_newline(out)

    def _seat_detail(self, state, seat: int) -> str:
        if state is None:
            return ""
        try:
            return self.model.board.seat_detail(state, seat)
        except Exception:
            return ""

    def _tick(self) -> None:
        """A timer is on screen: draw it again in a second, though nothing else happens
        (no redraw is due while no timer is shown: an idle screen costs nothing)."""
        if self._ticking:
            return
        app = get_app_or_none()
        loop = getattr(app, "loop", None)
        if app is None or isinstance(app, DummyApplication) or loop is None:
            return
        self._ticking = True

        def again() -> None:
            self._ticking = False
            app.invalidate()

        loop.call_later(TIMER_TICK, again)

    def _move_lines(self) -> tuple[list, int, int]:
        """The move list's lines laid out (the blocks around the current entry), where the
        current entry is among them, and where they start in the whole list."""
        lines = self.model.move_lines()
        current = self.model.snapshot.seq
        at = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].seq == current), len(lines) - 1)
        start = max(0, (at // MOVE_BLOCK - 1) * MOVE_BLOCK)
        return lines[start : start + 3 * MOVE_BLOCK], at - start, start

    def _move_scroll(self, window: Window) -> int:
        """The move list turns a page when the current entry leaves it, rather than a line
        at each step: stepping redraws two lines of it, not all of them."""
        _, at, start = self._move_lines()
        top = window.vertical_scroll + self._move_start - start  # the same first line as before
        self._move_start = start
        rows = self.move_rows
        if at >= top + rows:
            top = at - rows // 4
        elif at < top:
            top = at - rows * 3 // 4
        return max(0, top)

    def _move_fragments(self):
        out = []
        current = self.model.snapshot.seq
        for line in self._move_lines()[0]:
            style = "class:dim" if not line.confirmed else ""
            if line.seq == current:
                style += " class:selected"
            seat = line.seat if line.seat >= 0 else " "
            out.append((style, shorten(f"{line.seq:>4} {seat} {line.text}", self.panel_width) + "\n"))
        return _without_last_newline(out) or [("class:dim", "(no moves yet)")]

    def _move_cursor(self) -> Point:  # (keeps the current entry in view)
        return Point(0, max(0, self._move_lines()[1]))

    def _help(self):
        def text():
            bar = [(c.shown or key_label(c.key), c.label) for c in self.presenter.commands() if c.shown is not None]
            lines = help_text(self.model.snapshot.game.name, self.presenter.keys_help, bar,
                              self.presenter.pointing.touching()).split("\n")
            # scrolled by whole lines (a long help: the rules in brief and how to read the board)
            self.help_scroll = min(self.help_scroll, max(0, len(lines) - 3))
            return [("class:help", "\n".join(lines[self.help_scroll:]))]

        window = Window(FormattedTextControl(text), wrap_lines=True)
        return Frame(window, title="Help (PgDn/PgUp or Down/Up scroll)", style="class:help")

    def _scroll_help(self, lines: int) -> None:
        self.help_scroll = max(0, self.help_scroll + lines)
        self.refresh()

    # -- what a key does ---------------------------------------------------------------------------------

    def _accept(self, buffer: Buffer) -> bool:
        self.presenter.enter(buffer.text)
        return False  # the line is cleared

    def _board_keys(self) -> KeyBindings:
        kb = KeyBindings()
        for direction in ("up", "down", "left", "right"):
            kb.add(direction)(lambda e, d=direction: self.presenter.pointing.move_cursor(d))
        kb.add("enter")(lambda e: self.presenter.pointing.cursor_enter())
        kb.add("space")(lambda e: self.presenter.pointing.cursor_enter())

        @kb.add("<any>")
        def _(event) -> None:  # typing on the board goes to the input line
            data = event.data
            if len(data) == 1 and data.isprintable():
                self.model.focus = "input"
                self.refresh()
                self.input.insert_text(data)

        return kb

    def _keys(self) -> KeyBindings:
        kb = KeyBindings()
        for command in self.presenter.commands():
            kb.add(command.key)(lambda e, c=command: c.run())
        kb.add("?", eager=True)(lambda e: self.presenter.toggle_help())
        helping = Condition(lambda: self.model.help_shown)
        for key, lines in (("pagedown", 10), ("down", 1), ("pageup", -10), ("up", -1)):
            kb.add(key, filter=helping, eager=True)(lambda e, n=lines: self._scroll_help(n))
        kb.add("tab", filter=Condition(lambda: self.model.focus == "input"))(self._tab)
        kb.add("c-c")(lambda e: self.presenter.interrupt())
        kb.add("<sigint>")(lambda e: self.presenter.interrupt())  # SIGINT from outside the terminal
        mouse_or_text(kb, self._pasted)

        @kb.add("escape")
        def _(event) -> None:
            model = self.model
            if model.help_shown:
                self.presenter.close_help()
            elif self.input.complete_state is not None:
                self.input.cancel_completion()
            elif model.picking.selection:
                self.presenter.pointing.clear_selection()
            else:
                self.presenter.toggle_focus()

        return kb

    def _tab(self, event) -> None:
        """Tab: the legal actions that begin with what is typed, or a word that none does."""
        typed = self.input.document.text_before_cursor
        if self.input.complete_state is None and not self.presenter.completions(typed):
            self.presenter.nothing_fits(typed)
            self.refresh()
            return
        generate_completions(event)

    def _pasted(self, text: str) -> None:
        """Text that came in looking like a mouse report goes to the input line as typed."""
        self.model.focus = "input"
        self.refresh()
        self.input.insert_text(text)

    def refresh(self) -> None:
        """The model changed: focus follows it, and the screen is redrawn."""
        want = self.board_window if self.model.focus == "board" else self.input_window
        try:
            if self.layout.current_window is not want:
                self.layout.focus(want)
        except ValueError:
            pass  # the body is not on screen (terminal too small): focus again when it is
        app = get_app_or_none()
        if app is not None:  # (none yet: the first frame draws it all)
            app.invalidate()


def _without_last_newline(fragments: list) -> list:
    """Fragments whose last one ends in a newline, without that newline (no empty last line)."""
    if fragments and fragments[-1][1].endswith("\n"):
        style, text = fragments[-1][:2]
        fragments[-1] = (style, text[:-1])
    return fragments
