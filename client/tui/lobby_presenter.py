"""The lobby's presenter: keys, clicks and new beacons change the lobby model; choosing a
table, a game to resume or a table to host ends the lobby with that request."""
from __future__ import annotations

from typing import Callable

from peerboard.engines import OptionError
from peerboard.protocol.session import code_problem
from peerboard.client.tui.game_presenter import Command
from peerboard.client.tui.lobby_model import CodeForm, HostForm, LobbyModel
from peerboard.client.tui.lobby_source import CodeAgain, JoinRequest, LobbyRequest, LobbySource, ResumeRequest, TableLine
from peerboard.client.tui.source import Alert, Changed, SourceEvent

LOBBY_KEYS = """\
Up/Down choose a table or an unfinished game; Enter joins the table (or resumes the game);
a click does the same. F2 hosts a new table: Up/Down between the fields, Left/Right change
a choice, type into a text field, Enter opens the table, Esc closes the form. A private
table asks for its code first (F3 gives a code for any table). The list follows the
network as tables open and fill."""


class LobbyPresenter:
    keys_help = LOBBY_KEYS

    def __init__(self, source: LobbySource, redraw: Callable[[], None] = lambda: None,
                 leave: Callable[[], None] = lambda: None, code_again: CodeAgain | None = None, name: str = ""):
        self.source = source
        self.model = LobbyModel(source.snapshot())
        #: the name the forms show first (the lobby's --name, else the user's)
        self.name = name
        if code_again is not None:  # (the code given for this table was refused: give it again)
            self.model.form = CodeForm(code_again.table, name, asks_code=True)
            self.model.alert = Alert(code_again.reason, "warn")
        self.redraw = redraw
        self.leave = leave
        #: what the person chose (None: they left without choosing)
        self.request: LobbyRequest | None = None

    def start(self) -> None:
        self.source.subscribe(self.on_source_event)
        self.model.refresh(self.source.snapshot())

    def on_source_event(self, event: SourceEvent) -> None:
        if isinstance(event, Alert):
            self.model.alert = event
        elif isinstance(event, Changed):
            self.model.refresh(self.source.snapshot())
        self.redraw()

    def hint(self) -> str:
        return self.model.snapshot.status or "F1 help"

    def commands(self) -> list[Command]:
        return [
            Command("f1", "Help", self.toggle_help),
            Command("f2", "Host", self.open_host),
            Command("f3", "Join with code", self.open_code),
            Command("f10", "Quit", self.quit),
        ]

    def say(self, text: str, kind: str = "info") -> None:
        self.model.alert = Alert(text, kind)
        self.redraw()

    def toggle_help(self) -> None:
        self.model.help_shown = not self.model.help_shown
        self.redraw()

    # -- the list ------------------------------------------------------------------------------

    def move(self, by: int) -> None:
        rows = self.model.rows()
        if rows:
            self.model.selected = max(0, min(len(rows) - 1, self.model.selected + by))
        self.redraw()

    def select(self, index: int) -> None:
        """A click on a row: choose it (the same as moving there and pressing Enter)."""
        self.model.selected = index
        self.enter()

    def enter(self) -> None:
        model = self.model
        if model.form is not None:
            self.submit_form()
            return
        row = model.chosen()
        if row is None:
            self.say("No table yet: wait for one, or F2 to host one.")
        elif isinstance(row, TableLine) and row.joinable and row.free > 0:
            self.model.form = CodeForm(row, self.name)  # (its code when private, the name, where to listen)
            self.redraw()
        elif isinstance(row, TableLine):
            self._join(row, "")
        else:
            self._finish(ResumeRequest(row.path))

    def _join(self, table: TableLine, code: str, name: str | None = None, bind: str | None = None) -> None:
        if not table.joinable:
            self.say("That table speaks another protocol version; this peerboard cannot join it.", "warn")
        elif table.free <= 0:
            self.say("That table is full.", "warn")
        else:
            self._finish(JoinRequest(table, code, name, bind))

    # -- the forms -------------------------------------------------------------------------------

    def open_host(self) -> None:
        self.model.form = HostForm(name=self.name)
        self.redraw()

    def open_code(self) -> None:
        row = self.model.chosen()
        if not isinstance(row, TableLine):
            self.say("Choose a table first (Up/Down).")
            return
        self.model.form = CodeForm(row, self.name, asks_code=True)
        self.redraw()

    def escape(self) -> None:
        """Esc closes the form, else the help."""
        if self.model.form is not None:
            self.model.form = None
        else:
            self.model.help_shown = False
        self.redraw()

    def form_move(self, by: int) -> None:
        self.model.form.move(by)
        self.redraw()

    def form_change(self, by: int) -> None:
        self.model.form.change(by)
        self.redraw()

    def form_type(self, text: str) -> None:
        self.model.form.type(text)
        self.redraw()

    def form_backspace(self) -> None:
        self.model.form.backspace()
        self.redraw()

    def submit_form(self) -> None:
        form = self.model.form
        if isinstance(form, CodeForm):
            code = form.code
            if form.asks_code and code_problem(code):
                self.say(f"The code: {code_problem(code)}.", "warn")
                return
            try:
                name, bind = form.seat_values()
            except OptionError as exc:
                self.say(str(exc), "warn")
                return
            self._join(form.table, code, name, bind)
            return
        try:
            request = form.request()
        except OptionError as exc:
            self.say(str(exc), "warn")
            return
        self._finish(request)

    # -- leaving ------------------------------------------------------------------------------------

    def _finish(self, request: LobbyRequest) -> None:
        self.request = request
        self.quit()

    def quit(self) -> None:
        self.source.close()
        self.leave()
