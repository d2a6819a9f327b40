"""The lobby's model: the tables and unfinished games listed, which one is selected, and
the small forms for hosting a table and joining one (a private table's code); both end
with the name the others will see and where the node listens. Data only; no drawing."""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from typing import Any

from peerboard import engines
from peerboard.client.bots.registry import BUILT_IN
from peerboard.client.lan.options import DEFAULT_BOT, DEFAULT_TAKEOVER
from peerboard.client.lan.reading import player_name
from peerboard.client.usage import UsageError
from peerboard.client.tui.lobby_source import HostRequest, LobbySnapshot, TableLine, UnfinishedLine, option_fields
from peerboard.client.tui.source import Alert
from peerboard.engines import OptionError
from peerboard.protocol.log import DEFAULT_PATIENCE, MAX_PATIENCE, NO_TAKEOVER
from peerboard.protocol.session import host_code_problem


@dataclass
class Field:
    name: str
    label: str
    #: a choice field cycles through `choices`; a text field is edited
    choices: tuple[str, ...] = ()
    text: str = ""
    index: int = 0
    hint: str = ""

    @property
    def value(self) -> str:
        return self.choices[self.index] if self.choices else self.text

    @property
    def shown(self) -> str:
        """The value as the form shows it (a text choice without its JSON quotes)."""
        value = self.value
        if self.choices and value.startswith('"'):
            return json.loads(value)
        return value


#: where a node may listen: (what the form says, the --bind it stands for; None: the lobby's own)
BINDS = (("every interface", None), ("this machine only", "tcp://127.0.0.1:0"))


class Form:
    """A few fields, one focused. Subclasses say what the fields are and what they make."""

    title = ""

    def __init__(self, name: str = "") -> None:
        self.fields: list[Field] = []
        self.focus = 0
        #: the name shown unless changed (the lobby's --name, else the user's)
        self.default_name = name

    def seat_fields(self) -> list[Field]:
        """The name the other players see, and where this node listens."""
        return [Field("name", "your name", text=self.default_name, hint="the name the other players see"),
                Field("bind", "listen on", tuple(label for label, _ in BINDS),
                      hint="every interface: the network reaches you")]

    def seat_values(self) -> tuple[str | None, str | None]:
        """(name, bind) as the form gives them, None for what it left as it was;
        OptionError for a name no player may have."""
        values = {f.name: f for f in self.fields}
        name = values["name"].value.strip() if "name" in values else ""
        if name == self.default_name or not name:
            name = None
        if name is not None:
            try:
                player_name(name)
            except UsageError as exc:
                raise OptionError(f"Your name: {str(exc).removeprefix('--name: ')}.") from None
        bind = BINDS[values["bind"].index][1] if "bind" in values else None
        return name, bind

    @property
    def current(self) -> Field:
        return self.fields[self.focus]

    def move(self, by: int) -> None:
        self.focus = (self.focus + by) % len(self.fields)

    def change(self, by: int) -> None:
        f = self.current
        if f.choices:
            f.index = (f.index + by) % len(f.choices)

    def type(self, text: str) -> None:
        f = self.current
        if not f.choices:
            f.text += text

    def backspace(self) -> None:
        f = self.current
        if not f.choices:
            f.text = f.text[:-1]


def allowed(spec: Any) -> tuple[str, tuple[str, ...]]:
    """What an option allows, in the engine's own words — its check's sentence for a value
    no option takes ("must be one of 'ACE', 'ACD'") — and the values to choose from when
    the sentence names them (else (): a value is typed)."""
    try:
        sentence = spec.check(object()) or ""
    except Exception:  # a check that cannot judge such a value: the doc alone says it
        return "", ()
    words = sentence.removeprefix("must be ")
    if isinstance(spec.default, bool):
        return words, ("false", "true")
    if words.startswith("one of "):
        try:
            values = ast.literal_eval(f"[{words[len('one of '):]}]")
        except (ValueError, SyntaxError):
            return words, ()
        if all(isinstance(v, str) for v in values) and spec.default in values:
            return words, tuple(json.dumps(v) for v in values)
    return words, ()


class HostForm(Form):
    """Game, players, bots, each option of the game (with its allowed values), a private code."""

    title = "Host a table"

    def __init__(self, game: str | None = None, name: str = "") -> None:
        super().__init__(name)
        self._build(game or engines.names()[0])

    def _build(self, game_name: str, players: int | None = None) -> None:
        kept = {f.name: f for f in self.fields if f.name in ("name", "bind")}  # (a game changed: kept)
        game = engines.get(game_name)
        names = tuple(engines.names())
        counts = tuple(str(n) for n in range(game.min_players, game.max_players + 1))
        players = players if players is not None and str(players) in counts else game.min_players
        self.fields = [
            Field("game", "game", names, index=names.index(game_name), hint=game.title),
            Field("players", "players", counts, index=counts.index(str(players))),
            Field("bots", "bots", tuple(str(n) for n in range(players)), hint=f"seats taken by {DEFAULT_BOT} bot processes"),
        ]
        for name, default, doc in option_fields(game_name):
            words, choices = allowed(game.options_schema[name])
            hint = f"{doc} ({words})" if words else doc
            if choices:
                self.fields.append(Field(name, name, choices, index=choices.index(json.dumps(default)), hint=hint))
            else:
                self.fields.append(Field(name, name, text=json.dumps(default), hint=hint))
        self.fields.append(Field("code", "private code", hint="empty: an open table; else joiners must give it"))
        self.fields.append(Field("patience", "patience", text=str(DEFAULT_PATIENCE),
                                 hint="seconds a seat may be away before the others may claim it"))
        if players >= 3:  # (at two seats a claim ends the game: nothing to take over)
            bots = (DEFAULT_TAKEOVER, *sorted(set(BUILT_IN) - {DEFAULT_TAKEOVER}), NO_TAKEOVER)
            self.fields.append(Field("takeover", "takeover", bots,
                                     hint="bot for a seat claimed; none: game ends"))
        self.fields += [kept.get(f.name, f) for f in self.seat_fields()]

    def change(self, by: int) -> None:
        name = self.current.name
        super().change(by)
        if name == "game":
            self._build(self.current.value)
        elif name == "players":
            focus = self.focus
            self._build(self.fields[0].value, int(self.current.value))
            self.focus = focus

    def request(self) -> HostRequest:
        """The table asked for; OptionError saying what is wrong with it."""
        values = {f.name: f for f in self.fields}
        game = engines.get(values["game"].value)
        options = {}
        for name, spec in game.options_schema.items():
            options[name] = spec.parse_text(values[name].value)
        players = int(values["players"].value)
        game.resolve_options(players, options)  # OptionError: the reason, in one line
        code = values["code"].value
        if code and host_code_problem(code):
            raise OptionError(f"The private code: {host_code_problem(code)}.")
        patience = values["patience"].value.strip()
        if not patience.isdigit() or not 1 <= int(patience) <= MAX_PATIENCE:
            raise OptionError(f"The patience is a whole number of seconds from 1 to {MAX_PATIENCE}.")
        takeover = values["takeover"].value if "takeover" in values else None
        name, bind = self.seat_values()
        return HostRequest(game.name, players, int(values["bots"].value), options, values["code"].value, int(patience),
                           takeover, name, bind)


class CodeForm(Form):
    """Joining a table: its code when it is private, then the name and where to listen."""

    def __init__(self, table: TableLine, name: str = "", asks_code: bool | None = None) -> None:
        """`asks_code`: a field for the code (by default: when the table is private)."""
        super().__init__(name)
        self.table = table
        self.asks_code = table.private if asks_code is None else asks_code
        self.title = "Join a private table" if self.asks_code else f"Join {table.host}'s table"
        code = [Field("code", "private code", hint=f"the code {table.host} gave you")] if self.asks_code else []
        self.fields = code + self.seat_fields()

    @property
    def code(self) -> str:
        return self.fields[0].value if self.asks_code else ""


@dataclass
class LobbyModel:
    snapshot: LobbySnapshot = field(default_factory=LobbySnapshot)
    #: index into rows(): the tables first, then the unfinished games
    selected: int = 0
    form: Form | None = None
    alert: Alert | None = None
    help_shown: bool = False

    def rows(self) -> list[TableLine | UnfinishedLine]:
        return [*self.snapshot.tables, *self.snapshot.unfinished]

    def refresh(self, snapshot: LobbySnapshot) -> None:
        """A new list; the selection stays on the same table when it is still there."""
        rows = self.rows()
        keep = rows[self.selected] if 0 <= self.selected < len(rows) else None
        self.snapshot = snapshot
        new = self.rows()
        if keep in new:
            self.selected = new.index(keep)
        elif isinstance(keep, TableLine):
            same = [i for i, r in enumerate(new) if isinstance(r, TableLine)
                    and (r.table_id, r.fingerprint) == (keep.table_id, keep.fingerprint)]
            self.selected = same[0] if same else min(self.selected, max(0, len(new) - 1))
        else:
            self.selected = min(self.selected, max(0, len(new) - 1))

    def chosen(self) -> TableLine | UnfinishedLine | None:
        rows = self.rows()
        return rows[self.selected] if 0 <= self.selected < len(rows) else None
