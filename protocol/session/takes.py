"""Which messages each phase takes (spec/protocol.md, "The session", "Phases"): the
session's message table, one row per message class and one handler per phase, read in one
screen. FORMING and SIGNING alike hand a message to the forming side (the host's or a
joiner's, which knows whether a proposal stands); PLAYING and OVER to the game (whose
ledger knows whether it is over), or to the part of the game that holds what it is about;
HALTED drops everything. A message class without a row, or a row without a handler for
every phase, stops the module from loading (`dispatch_table`).
"""
from __future__ import annotations

from typing import Callable, Mapping, Protocol

from peerboard.protocol.session.acks import Acking
from peerboard.protocol.session.ahead import ChoicesAhead
from peerboard.protocol.session.budget import CatchUp
from peerboard.protocol.session.claims import Claims
from peerboard.protocol.session.effects import Effects
from peerboard.protocol.session.endings import Endings
from peerboard.protocol.session.forks import Forks
from peerboard.protocol.session.hosting import Hosting
from peerboard.protocol.session.joining import Joining
from peerboard.protocol.session.messages import (
    MESSAGE_CLASSES, Ack, Beat, Chosen, Claim, Confirm, Decline, EntryMessage, GenesisMessage, Hello, Leave, Message,
    MessageError, Offer, Proof, Propose, Refuse, Rematch, Resign, Say, Sign, Want, Welcome,
)
from peerboard.protocol.session.play import Play
from peerboard.protocol.session.surface import Phase


class Dispatching(Protocol):
    """What a handler needs of the session it handles a message for (`Session`)."""

    _stage: Hosting | Joining | Play
    _catch_up: CatchUp

    @property
    def _play(self) -> Play: ...

    def _formed(self, effects: Effects) -> Effects: ...

    def _flooding(self, sender: bytes, now: float) -> Effects: ...

    def _heard_say(self, sender: bytes, line: Say, now: float) -> Effects: ...

    def _heard_rematch(self, sender: bytes, m: Rematch, now: float) -> Effects: ...


Handler = Callable[[Dispatching, bytes, Message, float], Effects]


# -- which messages each phase takes -------------------------------------------------------------


def _paced_want(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
    """A `want`, answered only within the sender's catch-up budget (protocol/session/budget.py)."""
    play = session._play
    assert isinstance(message, Want)  # (the row of `Want`)
    if not session._catch_up.answers(sender, sender not in play.seats, now):
        return session._flooding(sender, now)
    return play.fetches.on_want(sender, message, play.acking.last_confirm)


def _ignore(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
    """Taken and dropped: a late repeat, or something this phase has no use for."""
    return []


def _no_game(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
    raise MessageError(f"{message.kind}: no game has started here")


def _say(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
    assert isinstance(message, Say)  # (the row of `Say`)
    return session._heard_say(sender, message, now)


def _rematch(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
    assert isinstance(message, Rematch)  # (the row of `Rematch`)
    return session._heard_rematch(sender, message, now)


def _forming(name: str) -> Handler:
    """A message for the forming handshake: the host's or the joiner's `name` method
    (protocol/session/forming.py)."""
    getattr(Hosting, name), getattr(Joining, name)  # (a name either side lacks fails as this module loads)

    def handler(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
        return session._formed(getattr(session._stage, name)(sender, message, now))
    return handler


def _game(name: str, part: type | None = None) -> Handler:
    """A message for the game under way: `Play`'s `name` method (protocol/session/play.py),
    or that of its `part` — its acks (`Acking`), endings (`Endings`), claims (`Claims`) or
    forks (`Forks`): the part of the game that holds what the message is about."""
    if part is None:
        # (found by name, as the module loads; it takes the message of its row)
        method: Callable[..., Effects] = getattr(Play, name)

        def handler(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
            return method(session._stage, sender, message, now)
        return handler
    getattr(part, name)  # (a name the part lacks fails as this module loads)
    attribute = _PARTS[part]

    def handled(session: Dispatching, sender: bytes, message: Message, now: float) -> Effects:
        effects: Effects = getattr(getattr(session._stage, attribute), name)(sender, message, now)
        return effects
    return handled


#: each part of the game under way that takes messages, and its attribute of `Play`
_PARTS: dict[type, str] = {Acking: "acking", Endings: "endings", Claims: "claims", Forks: "forks",
                           ChoicesAhead: "ahead"}


#: (spec/protocol.md, "Phases") each message class, and what each phase does with it: FORMING
#: and SIGNING alike hand it to the forming side (which knows whether a proposal stands),
#: PLAYING and OVER to the game (whose ledger knows whether it is over)
COLUMNS = ((Phase.FORMING, Phase.SIGNING), (Phase.PLAYING, Phase.OVER), (Phase.HALTED,))
TABLE: dict[type[Message], tuple[Handler, ...]] = {
    #                FORMING, SIGNING         PLAYING, OVER                 HALTED
    Hello:          (_forming("on_hello"),    _game("on_hello"),   _ignore),
    Welcome:        (_forming("on_welcome"),  _ignore,             _ignore),
    Refuse:         (_forming("on_refuse"),   _ignore,             _ignore),
    Propose:        (_forming("on_propose"),  _ignore,             _ignore),
    Sign:           (_forming("on_sign"),     _game("on_sign"),    _ignore),
    GenesisMessage: (_forming("on_genesis"),  _game("on_genesis"), _ignore),
    EntryMessage:   (_ignore,                 _game("on_entry"),   _ignore),
    Ack:            (_ignore,                 _game("on_ack"),     _ignore),
    Confirm:        (_ignore,                 _game("on_confirm", Acking), _ignore),
    Beat:           (_ignore,                 _game("on_beat"),    _ignore),
    Want:           (_ignore,                 _paced_want,         _ignore),
    Proof:          (_no_game,                _game("on_proof", Forks),     _ignore),
    Leave:          (_forming("on_leave"),    _game("on_leave"),   _ignore),
    Say:            (_ignore,                 _say,                _ignore),
    Rematch:        (_ignore,                 _rematch,            _ignore),
    Resign:         (_ignore,                 _game("on_resign", Endings),  _ignore),
    Offer:          (_ignore,                 _game("on_offer", Endings),   _ignore),
    Decline:        (_ignore,                 _game("on_decline", Endings), _ignore),
    Claim:          (_ignore,                 _game("on_claim", Claims),    _ignore),
    Chosen:         (_ignore,                 _game("on_chosen", ChoicesAhead), _ignore),
}


def dispatch_table(table: Mapping[type[Message], tuple[Handler, ...]]) -> dict[Phase, dict[type[Message], Handler]]:
    """phase -> message class -> handler, from a table of rows; ImportError unless every
    message class of the protocol has a row with a handler for every phase (so a message
    class renamed or added without its row fails the moment this module loads)."""
    missing = sorted(c.__name__ for c in set(MESSAGE_CLASSES) - set(table))
    unknown = sorted(c.__name__ for c in set(table) - set(MESSAGE_CLASSES))
    short = sorted(c.__name__ for c, row in table.items() if len(row) != len(COLUMNS))
    phases = [phase for column in COLUMNS for phase in column]
    if missing or unknown or short or sorted(phases, key=str) != sorted(Phase, key=str):
        raise ImportError(f"the session's table must give every message class a handler in every phase "
                          f"(no row: {missing}; not a message: {unknown}; not one handler per phase: {short})")
    return {phase: {cls: row[i] for cls, row in table.items()} for i, column in enumerate(COLUMNS) for phase in column}


#: phase -> message class -> its handler
TAKES = dispatch_table(TABLE)
