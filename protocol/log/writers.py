"""Who writes the next entry, as one table (spec/log-format.md, "Who writes the next entry").

Exactly one (seat, kind) may write each entry after the genesis, so the log is a total order
with no voting. Which one follows from the game state — the engine's `current`,
`secret_choice` and `chance_owner` — and from the log so far, and it is written here once:

- `DUE`, the entry due next: of the rows of the game's stage (a takeover due, the game
  over, a chance node, a decision), the first whose situation holds names the kind and its
  writer. A row of no kind means that no entry may follow (class `over`).
- `IN_PLACE`, the entries that may stand in place of the one due, each where its situation
  holds and by its own writer: a resignation, an agreement, a claim.

The ledger consults both for every entry (`entitled`, then `expected` in `Ledger.check`);
nothing else decides who writes. spec/log-format.md's table is this one in words
(`markdown`): tests/spec/test_writers_table.py checks the two word for word, and
`python tests/support/writers_table.py` writes it into the spec. A new kind of entry is a
row here (its body's shape goes in schema.py, its check in the ledger's `_KINDS`).

The table reads a ledger only through `Standing`, the few things it needs to know.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from peerboard.engines import CHANCE, TERMINAL, Game
from peerboard.protocol.log import failures
from peerboard.protocol.log.failures import Refused
from peerboard.protocol.log.records import Entry


class Standing(Protocol):
    """What the table reads of the log so far and the game it leads to (a `Ledger` is one)."""

    @property
    def game(self) -> Game: ...
    @property
    def state(self) -> Any: ...
    @property
    def turn(self) -> int: ...
    @property
    def seats(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def ending(self) -> tuple[str, tuple[int, ...], int] | None: ...
    @property
    def together(self) -> bool: ...
    @property
    def ends_together(self) -> bool: ...
    @property
    def last_writer(self) -> int | None: ...
    @property
    def pending(self) -> tuple[int, int] | None: ...
    @property
    def writers(self) -> tuple[int, ...]: ...
    @property
    def gone(self) -> tuple[int, ...]: ...
    @property
    def taken_seats(self) -> tuple[int, ...]: ...
    @property
    def audited(self) -> tuple[bytes | None, ...]: ...
    @property
    def audits(self) -> int: ...
    @property
    def results(self) -> int: ...
    @property
    def run(self) -> tuple[bytes, int] | None: ...
    @property
    def reveals(self) -> tuple[bytes, ...]: ...
    @property
    def chain_left(self) -> tuple[int, ...]: ...
    @property
    def commits(self) -> tuple[tuple[int, bytes], ...]: ...
    @property
    def disputable(self) -> int | None: ...
    @property
    def protest(self) -> int | None: ...


class Stage(enum.Enum):
    """Where the game stands, which picks the rows of `DUE` that apply."""

    TAKEOVER = "a takeover is due"
    OVER = "over"
    CHANCE = "at chance"
    DECISION = "at a decision"


@dataclass(frozen=True)
class When:
    """A situation of the log so far: in the spec's words, and as a test."""

    words: str
    holds: Callable[[Standing], bool]


@dataclass(frozen=True)
class Who:
    """A writer: in the spec's words, and the seat it is."""

    words: str
    seat: Callable[[Standing], int]


@dataclass(frozen=True)
class Due:
    """A row of `DUE`: at `stage`, where `when` holds, `who` writes an entry of `kind`
    (None: nobody writes any more: the game is over and its result signed)."""

    stage: Stage
    when: When
    kind: str | None
    who: Who | None


# -- the situations and the writers of the entry due ------------------------------------------------

def _unaudited(s: Standing) -> list[int]:
    # (a seat claimed after it audited has its audit in the log all the same)
    return [seat for seat in s.writers if s.audited[seat] is None]


def _spent(s: Standing) -> list[int]:
    return [seat for seat, left in enumerate(s.chain_left) if left == 0]


def _uncommitted(s: Standing) -> list[int]:
    committed = {seat for seat, _ in s.commits}
    return [seat for seat in s.game.secret_choice(s.state) if seat not in committed]


def _owner(s: Standing) -> int:
    owner = s.game.chance_owner(s.state)
    assert owner is not None  # (a run pauses only at an outcome from a seat's own pile)
    return owner


def _runner(s: Standing) -> int:
    assert s.pending is not None  # (`Stage.TAKEOVER`)
    return s.pending[1]


ALWAYS = When("always", lambda s: True)
ANYWAY = When("otherwise", lambda s: True)
PROTESTED = When("a `protest` is written", lambda s: s.protest is not None)
ENDS_SIGNED = When('the genesis says `"ends": "together"` and the `results` entry is written',
                   lambda s: s.ends_together and s.results > 0)
ENDS_UNAUDITED = When('the genesis says `"ends": "together"` and the `audits` entry is not written',
                      lambda s: s.ends_together and s.audits == 0)
ENDS_AUDITED = When('the genesis says `"ends": "together"`', lambda s: s.ends_together)
UNAUDITED = When("a seat still playing has not written its `audit`", lambda s: bool(_unaudited(s)))
UNSIGNED = When("a seat still playing has not written its `result`", lambda s: s.results < len(s.writers))
PAUSED = When("a run is paused at a public outcome from a seat's private pile", lambda s: s.run is not None)
SPENT = When("no value of the round is revealed yet, and a seat's hash chain is spent",
             lambda s: not s.reveals and bool(_spent(s)))
ROUND_TOGETHER = When('the genesis says `"reveals": "together"`', lambda s: s.together)
UNCOMMITTED = When("a seat of the secret choice's group has not committed", lambda s: bool(_uncommitted(s)))

RUNNER = Who("the claim's writer", _runner)
GATHERER = Who("the gatherer: the writer of the entry before (seat 0 after the genesis)",
               lambda s: 0 if s.last_writer is None else s.last_writer)
FIRST_UNAUDITED = Who("the lowest such seat", lambda s: _unaudited(s)[0])
NEXT_SIGNER = Who("the next seat still playing, in seat order", lambda s: s.writers[s.results])
PILE_OWNER = Who("the pile's owner (`chance_owner`)", _owner)
FIRST_SPENT = Who("the lowest such seat", lambda s: _spent(s)[0])
NEXT_IN_ROUND = Who("the next seat of the round, in seat order", lambda s: len(s.reveals))
FIRST_UNCOMMITTED = Who("the first such seat, in the group's order", lambda s: _uncommitted(s)[0])
CURRENT = Who("`current(state)`", lambda s: s.turn)

T, O, C, D = Stage.TAKEOVER, Stage.OVER, Stage.CHANCE, Stage.DECISION
#: the entry due next: the first row of the game's stage whose situation holds
DUE: tuple[Due, ...] = (
    #   stage  situation        kind        writer
    Due(T,     ALWAYS,          "takeover", RUNNER),
    Due(O,     PROTESTED,       None,       None),
    Due(O,     ENDS_SIGNED,     None,       None),
    Due(O,     ENDS_UNAUDITED,  "audits",   GATHERER),
    Due(O,     ENDS_AUDITED,    "results",  GATHERER),
    Due(O,     UNAUDITED,       "audit",    FIRST_UNAUDITED),
    Due(O,     UNSIGNED,        "result",   NEXT_SIGNER),
    Due(O,     ANYWAY,          None,       None),
    Due(C,     PAUSED,          "chance",   PILE_OWNER),
    Due(C,     SPENT,           "chain",    FIRST_SPENT),
    Due(C,     ROUND_TOGETHER,  "reveals",  GATHERER),
    Due(C,     ANYWAY,          "reveal",   NEXT_IN_ROUND),
    Due(D,     UNCOMMITTED,     "commit",   FIRST_UNCOMMITTED),
    Due(D,     ANYWAY,          "move",     CURRENT),
)
del T, O, C, D

#: the kinds a gatherer writes, each from every seat's part (riding on that seat's ack of the
#: entry before: spec/protocol.md, "Reveals that travel together", "The end together")
GATHERED: frozenset[str] = frozenset(row.kind for row in DUE if row.who is GATHERER and row.kind is not None)

_BY_STAGE: dict[Stage, tuple[Due, ...]] = {st: tuple(row for row in DUE if row.stage is st) for st in Stage}
# (`due` picks the rows of a stage without hashing the enum: it runs for every entry)
_TAKEOVER, _OVER, _CHANCE, _DECISION = (_BY_STAGE[st] for st in (Stage.TAKEOVER, Stage.OVER, Stage.CHANCE, Stage.DECISION))
#: why nothing may follow a finished log
FINISHED = "the game is over and its result is signed by every seat"
#: why nothing may follow a protest
PROTESTED_LAST = "the claimed seat protested the claim: the game ended disputed there, and nothing follows"


def due(s: Standing) -> Due:
    """The row of `DUE` that names the entry due next (the first that holds of the rows of
    the game's `stage`)."""
    if s.pending is not None:
        rows = _TAKEOVER
    elif s.ending is not None:
        rows = _OVER
    else:
        who = s.turn
        rows = _OVER if who == TERMINAL else _CHANCE if who == CHANCE else _DECISION
    for row in rows:
        if row.when.holds(s):
            return row
    raise AssertionError("the last row of every stage holds always")


def entitled(s: Standing) -> tuple[int, str]:
    """(seat, kind) of the one entry due next; Refused (class `over`) when none may come:
    the game is over and every seat has signed its result (or a protest ended it)."""
    row = due(s)
    if row.kind is None or row.who is None:
        raise Refused(failures.OVER, PROTESTED_LAST if row.when is PROTESTED else FINISHED)
    return row.who.seat(s), row.kind


# -- the entries that may stand in place of the one due ----------------------------------------------

@dataclass(frozen=True)
class InPlace:
    """A row of `IN_PLACE`: an entry of `kind` may stand in place of the entry due where
    `when` holds (of the log so far, the entry, and the (seat, kind) due), written by `who`.
    Where `when` does not hold it is refused (`turn`) for the reason `refused` gives; a row
    without one leaves the entry to be judged as the entry due."""

    kind: str
    words: str
    when: Callable[[Standing, Entry, tuple[int, str]], bool]
    writer: str
    who: Callable[[Standing, Entry, tuple[int, str]], int]
    refused: Callable[[Entry], str] | None = None


def claim_signers(s: Standing, gone: int) -> tuple[int, ...]:
    """The seats that sign a claim of `gone`: every other seat still there and played by its
    own node (a taken-over seat signs nothing: its runner signs as itself)."""
    taken = s.taken_seats
    return tuple(i for i in s.writers if i != gone and i not in taken)


def claim_writer(s: Standing, gone: int) -> int:
    """The one seat that writes the claim of seat `gone`: the lowest of its signers."""
    return claim_signers(s, gone)[0]


def may_claim(s: Standing, gone: int) -> bool:
    """Whether seat `gone` may be claimed at the next entry: it is a seat still there and
    played by its own node (not taken over), no takeover is due, and no result is written
    yet (the results all say the same: spec/protocol.md, "Endings")."""
    return (0 <= gone < s.seats and gone not in s.gone and gone not in s.taken_seats
            and s.pending is None and s.results == 0 and len(claim_signers(s, gone)) > 0)


def _ends_here(s: Standing, entry: Entry, due: tuple[int, str]) -> bool:
    return entry.seat == due[0] and not s.over and s.pending is None


def _claimed(s: Standing, entry: Entry, due: tuple[int, str]) -> int:
    # asked only where the protest's row holds: a disputable claim stands before it
    assert s.disputable is not None
    return s.disputable


#: the entries that may stand in place of the one due, by kind
IN_PLACE: dict[str, InPlace] = {row.kind: row for row in (
    InPlace("resign", "the game is not over, no takeover is due, and its writer is the writer of the entry due",
            _ends_here, "the writer of the entry due", lambda s, entry, due: due[0]),
    InPlace("agree", "the game is not over, no takeover is due, and its writer is the writer of the entry due",
            _ends_here, "the writer of the entry due", lambda s, entry, due: due[0]),
    InPlace("claim", "no result is written yet, no takeover is due, and its `gone` is a seat still playing, "
                     "not taken over, with another such seat to sign",
            lambda s, entry, due: may_claim(s, entry.body["gone"]),
            "the claim's writer: the lowest seat still playing other than `gone`, not taken over",
            lambda s, entry, due: claim_writer(s, entry.body["gone"]),
            lambda entry: f"seat {entry.body['gone']} cannot be claimed here (not a seat still playing, or the "
                          f"result is being signed)"),
    InPlace("protest", "the entry before is a claim that one seat alone signed and that ended the game (no "
                       "takeover follows)",
            lambda s, entry, due: s.disputable is not None,
            "the seat that claim claimed", _claimed,
            lambda entry: "a protest stands only right after a claim that one seat alone signed, written by the seat "
                          "it claimed"),
)}


def expected(s: Standing, entry: Entry, due: tuple[int, str]) -> tuple[int, str]:
    """The (seat, kind) that `entry` must have to stand next, `due` being the entry due:
    its own row's, where it may stand in place of that entry, else `due`; Refused (`turn`)
    for an entry in place of another where its row refuses it."""
    row = IN_PLACE.get(entry.kind)
    if row is None:
        return due
    if row.when(s, entry, due):
        return row.who(s, entry, due), row.kind
    if row.refused is not None:
        raise Refused(failures.TURN, row.refused(entry))
    return due


# -- the table in words (spec/log-format.md) ---------------------------------------------------------

def markdown() -> str:
    """Both tables as spec/log-format.md shows them."""
    lines = ["| the game | where | the entry due | written by |", "|---|---|---|---|"]
    for row in DUE:
        kind = "none (`over`)" if row.kind is None else f"`{row.kind}`"
        who = "—" if row.who is None else row.who.words
        lines.append(f"| {row.stage.value} | {row.when.words} | {kind} | {who} |")
    lines += ["", "| in place of the entry due | where | written by | elsewhere |", "|---|---|---|---|"]
    for place in IN_PLACE.values():
        elsewhere = "judged as the entry due" if place.refused is None else "refused (`turn`)"
        lines.append(f"| `{place.kind}` | {place.words} | {place.writer} | {elsewhere} |")
    return "\n".join(lines) + "\n"

