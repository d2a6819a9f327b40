"""What a session tells the client: frozen dataclasses, one per kind of news
(spec/protocol.md, "The session's public surface").

A client dispatches them by class (a dict keyed by the class, or `match`), never by building
a name from a class name, so a renamed event fails loudly where it is handled.
"""
from __future__ import annotations

import traceback

from dataclasses import dataclass, field

from peerboard.engines import Action
from peerboard.protocol.session.messages import Proof, Say
from peerboard.protocol.log import Entry, SignedGenesis
from peerboard.protocol.session.surface import SeatInfo


class Event:
    """Something the client (or the person) should know."""


@dataclass(frozen=True)
class Seated(Event):
    seat: int  # -1: watching as a spectator
    players: int


@dataclass(frozen=True)
class SeatTaken(Event):
    """While the table forms: a seat was taken, or taken again by the same key coming back
    (its hello may have changed: a restarted node). The host learns it from each hello; a
    joiner from the proposal."""

    seat: SeatInfo


@dataclass(frozen=True)
class SeatFreed(Event):
    """While the table forms, at the host: a seat is free again. `why`: "left" (its node said
    `leave`), "silent" (its lease ran out: nothing heard from its node for
    `protocol.forming.SEAT_LEASE` seconds, or no signature of the proposal within
    `SIGN_WITHIN`), or "removed" (the host removed it)."""

    index: int
    name: str  # as the peer gave it: escape it before showing it
    fingerprint: str
    why: str


@dataclass(frozen=True)
class PeersKnown(Event):
    """Where every seat listens (the node connects to them)."""

    peers: tuple[tuple[bytes, str], ...]


@dataclass(frozen=True)
class GameStarted(Event):
    genesis: SignedGenesis


@dataclass(frozen=True)
class Accepted(Event):
    seq: int
    entry: Entry


@dataclass(frozen=True)
class Confirmed(Event):
    seq: int
    state: bytes


@dataclass(frozen=True)
class YourTurn(Event):
    """The local seat must decide: `kind` "move", or "commit" for a secret choice."""

    seat: int
    kind: str
    legal: tuple[Action, ...]


@dataclass(frozen=True)
class TakeoverTurn(Event):
    """Seat `seat`, taken over by a bot this node runs, must decide (`kind`, `legal` as for
    `YourTurn`): the node's client decides with the table's takeover strategy
    (`Session.submit_takeover`)."""

    seat: int
    kind: str
    legal: tuple[Action, ...]
    strategy: str


@dataclass(frozen=True)
class TakenOver(Event):
    """Seat `seat` was claimed at entry `seq - 1` and is taken over from entry `seq` on: a bot
    (`strategy`) plays it, run by seat `runner`'s node; it cannot win. `you`: this node held
    that seat — it watches the rest as a spectator."""

    seat: int
    seq: int
    runner: int
    strategy: str
    you: bool = False


@dataclass(frozen=True)
class PeerAway(Event):
    seat: int


@dataclass(frozen=True)
class PeerBack(Event):
    seat: int


@dataclass(frozen=True)
class PeerLeft(Event):
    seat: int


@dataclass(frozen=True)
class PeerMoved(Event):
    """A seat said (in a hello, resuming) that it now listens at `address`: the node
    reconnects to it there."""

    seat: int
    key: bytes
    address: str


@dataclass(frozen=True)
class Desync(Event):
    """Seats acked different state hashes after one entry: the game halts."""

    seq: int
    hashes: tuple[tuple[int, bytes], ...]


@dataclass(frozen=True)
class Equivocation(Event):
    """A seat signed two different entries for one seq: the game halts; `proof` shows it."""

    seat: int
    seq: int
    proof: Proof


@dataclass(frozen=True)
class InternalFault(Event):
    """Our own bug — an engine or the session raised what no peer can be blamed for: the game
    is paused here (the session halts; nothing stored is lost, and the game resumes from its
    log once the fault is gone). `text` is one line; the node writes `details` (the
    traceback) to the file it names in `log_path`."""

    text: str
    log_path: str | None = None
    details: str = field(default="", repr=False, compare=False)

    @classmethod
    def of(cls, doing: str, exc: BaseException) -> "InternalFault":
        """The fault of ours that `exc`, raised while `doing` something, is: one line naming
        the exception (class and message, at most WHAT_AT_MOST characters), and its traceback
        as the details. The one way every layer reports its own faults (node/faults.py)."""
        what = " ".join(f"{type(exc).__name__}: {exc}".split())[:WHAT_AT_MOST]
        return cls(f"internal error while {doing} ({what})", details="".join(traceback.format_exception(exc)))


WHAT_AT_MOST = 200  # characters of an exception said on the screen (the details have it all)


@dataclass(frozen=True)
class Ending:
    """How a game ended otherwise than by its rules (a result's `ending`, spec/log-format.md):
    `how` "resigned" or "claimed" (gone for good); the `seats` it names; the `seq` of the entry that ended it; the seats
    whose hidden draws the audit could not check (their seeds are lost)."""

    how: str
    seats: tuple[int, ...]
    seq: int
    unchecked: tuple[int, ...] = ()
    #: the seq of the claimed seat's protest, when it disputed the claim (`how` "claimed"):
    #: the game ended disputed there, with no result (spec/protocol.md, "What a claim proves")
    disputed: int | None = None


@dataclass(frozen=True)
class Ended(Event):
    """An entry ended the game here (a resignation): the audit and the result follow."""

    ending: Ending


@dataclass(frozen=True)
class Disputed(Event):
    """Seat `claimer` alone claimed seat `gone` at entry `seq`, and seat `gone` protested at
    entry `protest` — it was there — carrying its own entries from `seq` (`carried` of them):
    the game ends disputed, with no result. `you`: this node's seat is `gone` (its node wrote
    the protest), or `claimer` (its claim is disputed)."""

    claimer: int
    gone: int
    seq: int
    protest: int
    carried: int
    you: str = ""  # "claimed", "claimer", or "" (a spectator, a third seat)


@dataclass(frozen=True)
class ChoseAhead(Event):
    """Seat `seat` has made its secret choice ahead of its turn to commit, which comes after
    the seats before it in the group (entry `seq` is next): it waits for them."""

    seat: int
    seq: int


@dataclass(frozen=True)
class Woke(Event):
    """This node did not run for `seconds` (its process stopped, its computer asleep): the
    others heard nothing from it meanwhile, and their own silence is counted again from now."""

    seconds: float


@dataclass(frozen=True)
class Unanswered(Event):
    """This node came back (resumed) `seconds` ago and has not heard the head of `seats`: it
    writes nothing until it has; meanwhile the game may have gone on, or ended, without it."""

    seats: tuple[int, ...]
    seconds: float


@dataclass(frozen=True)
class Claimable(Event):
    """Seat `seat` has been away longer than the table's patience (`patience` seconds): the
    other seats may claim it (`Session.claim`)."""

    seat: int
    patience: int


@dataclass(frozen=True)
class Offered(Event):
    """Seat `seat` offers that the game ends `how` ("drawn" or "aborted"): accept it with
    `Session.offer(how)`, decline it with `Session.decline(how)`; it lapses once another
    entry is written."""

    seat: int
    how: str


@dataclass(frozen=True)
class Declined(Event):
    """Seat `seat` declined the offer that the game ends `how`."""

    seat: int
    how: str


@dataclass(frozen=True)
class GameOver(Event):
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    cheats: tuple[int, ...]
    ending: Ending | None = None  # None: the game ended by its rules
    #: the seats taken over by a bot: (seat, seq of the takeover entry, the seat that ran it)
    takeovers: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class Rejected(Event):
    """A message or entry from a peer that was refused, and why (also counted against it)."""

    sender: str  # fingerprint
    reason: str


@dataclass(frozen=True)
class Refused(Event):
    """The host refused this node a place at the table; if `again` (seconds) it refused
    it for now (the table full, codes not checked now), and the node asks again that long
    before it is refused for good (another `Refused`, without `again`)."""

    reason: str
    again: float = 0.0


@dataclass(frozen=True)
class Chatted(Event):
    """A line said to the table (by this node too), checked: signed by its author, new,
    within its author's pace (spec/protocol.md, "Chat"). `seat` is the author's seat, None
    for a spectator; `mine`: this node said it. `line.text` is the author's untrusted
    text: escape it to show it."""

    line: Say
    seat: int | None
    mine: bool = False


@dataclass(frozen=True)
class RematchAnswer(Event):
    """A seat said something about playing the game again (spec/protocol.md, "Rematch"):
    `answer` "ask" (a person sits there), "yes" or "no"; `next` the new table's id when seat
    0's node opened it; `mine`: this node said it."""

    seat: int
    answer: str
    next: bytes | None = None
    mine: bool = False


#: every event the session emits
SESSION_EVENTS: tuple[type[Event], ...] = (
    Seated, SeatTaken, SeatFreed, PeersKnown, GameStarted, Accepted, Confirmed, YourTurn, PeerAway, PeerBack,
    PeerLeft, PeerMoved, Desync, Equivocation, InternalFault, Ended, Claimable, Offered, Declined, GameOver, Rejected,
    Refused, Chatted, RematchAnswer, TakeoverTurn, TakenOver, Disputed, Woke, Unanswered, ChoseAhead,
)
