"""The lobby's view: the open tables, the unfinished games, the host form; containers only."""
from __future__ import annotations


from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import ConditionalContainer, Float, FloatContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.widgets import Frame

from peerboard.client.text import plural
from peerboard.client.tui.help import help_text
from peerboard.client.tui.lobby_presenter import LobbyPresenter
from peerboard.client.tui.lobby_source import TableLine
from peerboard.client.tui.widgets import columns_now, key_bar, key_label, mouse_or_text, on_click, status_line


class LobbyView:
    def __init__(self, presenter: LobbyPresenter):
        self.presenter = presenter
        self.model = presenter.model
        self.list_window = Window(FormattedTextControl(self._rows, focusable=True, show_cursor=False))
        form_open = Condition(lambda: self.model.form is not None)
        body = HSplit([
            Window(FormattedTextControl([("class:title", " peerboard · lobby ")]), height=1),
            self.list_window,
            status_line(lambda: self.model.alert, presenter.hint, columns=columns_now),
            key_bar(presenter.commands),
        ])
        self.layout = Layout(FloatContainer(body, floats=[
            Float(content=ConditionalContainer(
                Frame(Window(FormattedTextControl(self._form), width=76, height=lambda: self._form_height()),
                      title=lambda: self.model.form.title if self.model.form else ""),
                form_open)),
            Float(content=ConditionalContainer(
                Frame(Window(FormattedTextControl(self._help), wrap_lines=True), title="Help", style="class:help"),
                Condition(lambda: self.model.help_shown))),
        ]), focused_element=self.list_window)
        self.key_bindings = self._keys(form_open)

    def _rows(self):
        model = self.model
        out = [("class:heading", "Open tables on this network\n")]
        rows = model.rows()
        tables = [r for r in rows if isinstance(r, TableLine)]
        if not tables:
            out.append(("class:dim", "  (none heard yet: they appear here as they are announced)\n"))
        for i, row in enumerate(rows):
            if i == len(tables):
                out.append(("class:heading", "\nUnfinished games on this machine\n"))
            style = "class:cursor" if i == model.selected else ""
            if isinstance(row, TableLine):
                taken = row.players - row.free
                note = ("" if row.joinable else "  (another protocol version)") + ("  private" if row.private else "")
                text = (f"  {row.table_id[:8]}  {row.game:<8} {taken}/{row.players} seated  "
                        f"host {row.host} ({row.fingerprint})  {row.endpoint}{note}")
                if row.silent:
                    text += f"  silent {row.silent}s"
            else:
                text = f"  {row.game:<8} {plural(row.entries, 'entry', 'entries')}  seats {row.seats}  {row.path.name}"
            out.append((style, text + "\n", on_click(lambda i=i: self.presenter.select(i))))
        if len(tables) == len(rows):
            out.append(("class:heading", "\nUnfinished games on this machine\n"))
            out.append(("class:dim", "  (none)\n"))
        return out

    def _form(self):
        form = self.model.form
        if form is None:
            return []
        out = []
        for i, f in enumerate(form.fields):
            focused = i == form.focus
            value = f"‹ {f.shown} ›" if f.choices else f"[{f.text}{'_' if focused else ''}]"
            out.append(("class:heading" if focused else "", f"{'>' if focused else ' '} {f.label:<22}"))
            out.append(("class:cursor" if focused else "", value))
            out.append(("class:dim", f"  {f.hint}\n" if focused and f.hint else "\n"))
        out.append(("class:dim", "\nEnter opens it · Esc closes · Up/Down fields · Left/Right choices"))
        return out

    def _form_height(self) -> int:
        return len(self.model.form.fields) + 2 if self.model.form else 1

    def _help(self):
        bar = [(key_label(c.key), c.label) for c in self.presenter.commands() if c.shown is not None]
        return [("class:help", help_text("", self.presenter.keys_help, bar))]

    def _keys(self, form_open) -> KeyBindings:
        kb = KeyBindings()
        p = self.presenter
        listing = ~form_open
        for command in p.commands():
            kb.add(command.key)(lambda e, c=command: c.run())
        kb.add("c-c")(lambda e: p.quit())
        kb.add("<sigint>")(lambda e: p.quit())  # SIGINT from outside the terminal
        kb.add("up", filter=listing)(lambda e: p.move(-1))
        kb.add("down", filter=listing)(lambda e: p.move(1))
        kb.add("enter")(lambda e: p.enter())
        kb.add("up", filter=form_open)(lambda e: p.form_move(-1))
        kb.add("down", filter=form_open)(lambda e: p.form_move(1))
        kb.add("tab", filter=form_open)(lambda e: p.form_move(1))
        kb.add("left", filter=form_open)(lambda e: p.form_change(-1))
        kb.add("right", filter=form_open)(lambda e: p.form_change(1))
        kb.add("backspace", filter=form_open)(lambda e: p.form_backspace())
        kb.add("escape")(lambda e: p.escape())

        @kb.add("<any>", filter=form_open)
        def _(event) -> None:
            if len(event.data) == 1 and event.data.isprintable():
                p.form_type(event.data)

        # (pasted text that looks like a mouse report is text: typed into an open form)
        mouse_or_text(kb, lambda text: p.form_type(text) if p.model.form is not None else None)
        return kb

    def refresh(self) -> None:
        from prompt_toolkit.application.current import get_app

        get_app().invalidate()
