"""Playing the same table again, sans-IO (spec/protocol.md, "Rematch").

Once a game is over, any seat may offer to play again ("yes"); each other seat accepts
("yes") or declines ("no"), and a seat that leaves declines. When every seat has said
"yes", seat 0's node opens a new table with a fresh genesis (its own table id), its seats
the same keys with the first seat moved on — seat i of the new game is seat i + 1 of the
old, the old seat 0 the last — and tells the others its id ("yes" with `next`); they join
it at seat 0's address. Nobody waits for ever: a node waits for the answers only while a
rematch is possible, and at most `REMATCH_WAIT` seconds after the end. A seat where a
person sits says "ask" when the game starts, so that at the end the others wait for that
person's answer rather than leaving at once (a bot or the built-in random player
answers at once: it accepts any offer).

`RematchState` is what one node has heard; `Rematches` who answers at its seat (a person,
or the node by itself, with so many rematches left); `Rematching` the session's part that
decides what the node says by itself, when seat 0's node opens the new table and when this
node begins the next game (`NextGame`: the node then starts the session `Session.next_game`
gives it). A rematch's table that has not started its game `REMATCH_WAIT` seconds after it
was begun is left. Time is an argument.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable

from peerboard.protocol.log import TABLE_BYTES
from peerboard.protocol.session.effects import Effects, NextGame, Send
from peerboard.protocol.session.events import RematchAnswer
from peerboard.protocol.session.messages import MessageError, Rematch

REMATCH_WAIT = 60.0  # seconds after the end a node waits for the answers, at most
ANSWERS = ("ask", "yes", "no")


def next_order(keys: Iterable[bytes]) -> tuple[bytes, ...]:
    """The seats of the rematch: the same keys, the first seat moved on (old seat 1 is the
    new seat 0, old seat 0 the last)."""
    keys = tuple(keys)
    return keys[1:] + keys[:1]


class RematchState:
    """The answers heard about playing this game again, by seat."""

    def __init__(self, players: int):
        self.players = players
        self.asking: set[int] = set()  # seats where a person answers
        self.answers: dict[int, str] = {}  # seat -> "yes" or "no"
        self.next: bytes | None = None  # the new table's id, once seat 0's node opened it

    def heard(self, seat: int, answer: str, next_table: bytes | None = None) -> bool:
        """Take `seat`'s answer; False when it says nothing new (a repeat)."""
        if answer == "ask":
            if seat in self.asking:
                return False
            self.asking.add(seat)
            return True
        if self.answers.get(seat) == answer and (next_table is None or next_table == self.next):
            return False
        self.answers[seat] = answer
        if next_table is not None:
            self.next = next_table
        return True

    @property
    def offered(self) -> bool:
        return "yes" in self.answers.values()

    @property
    def agreed(self) -> bool:
        """Every seat said yes."""
        return len(self.answers) == self.players and all(a == "yes" for a in self.answers.values())

    def declined(self, left: Iterable[int] = ()) -> int | None:
        """The first seat that said no, or (`left`) left the table since; None if none."""
        gone = sorted({s for s, a in self.answers.items() if a == "no"} | set(left))
        return gone[0] if gone else None

    def pending(self, seat: int | None, over_for: float, left: Iterable[int] = ()) -> bool:
        """Whether the node of `seat` (None: a spectator) should still wait, the game having
        been over here for `over_for` seconds: a rematch is possible (nobody declined or
        left), not yet settled, and the wait is not over."""
        if seat is None or over_for >= REMATCH_WAIT or self.declined(left) is not None:
            return False
        if self.offered:  # (agreed: until the new game begins here, which ends this one's wait)
            return True
        return any(s not in self.answers for s in self.asking)


@dataclass(frozen=True)
class Rematches:
    """Who answers a rematch at this node's seat: a person (`person`: the others wait a
    while for their answer at the end, and nothing is said for them but "ask"), or the node
    by itself — accepting every rematch offered and offering none (`left` None), or offering
    and accepting `left` more rematches, then declining."""

    person: bool = False
    left: int | None = None

    @property
    def asks(self) -> bool:
        """Whether this seat says "ask" (the game starts, and again at its end): a person
        sits here, or the node offers rematches itself."""
        return self.person or bool(self.left)

    def after(self) -> "Rematches":
        """The answers of the next game: one rematch fewer left."""
        return replace(self, left=None if self.left is None else max(0, self.left - 1))


class Rematching:
    """One node's side of a rematch: what it has heard (`state`), who answers here
    (`policy`; None: nobody answers by itself), when the game was over here (`over_at`,
    session time), and whether the next game was told to begin (`NextGame`)."""

    def __init__(self, players: int, policy: Rematches | None):
        self.state = RematchState(players)
        self.policy = policy
        self.over_at: float | None = None
        self.begun = False

    def by_itself(self, seat: int) -> str | None:
        """What the node answers by itself now, unless a person answers here: nothing once
        this seat answered or a seat declined; "no" when it has no rematch left and one is
        offered; "yes" to an offer, or, with rematches left, as an offer."""
        state, policy = self.state, self.policy
        if policy is None or policy.person or seat in state.answers or state.declined() is not None:
            return None
        if policy.left == 0 and state.offered:
            return "no"
        if policy.left or (policy.left is None and state.offered):
            return "yes"
        return None

    def opens(self, seat: int) -> bool:
        """Whether this node opens the new table now: it is seat 0's, and every seat said yes."""
        return seat == 0 and self.state.agreed and self.state.next is None

    def begins(self, seat: int) -> bytes | None:
        """The new table, once (when this node said yes and seat 0's node has named it)."""
        state = self.state
        if self.begun or state.next is None or state.answers.get(seat) != "yes":
            return None
        self.begun = True
        return state.next

    # -- what is said ----------------------------------------------------------------------------------

    def answer(self, seat: int, answer: str, next_table: bytes | None, table: bytes,
               others: Iterable[bytes]) -> Effects:
        """Seat `seat`'s own answer about the game at `table`, kept and said to every other
        seat (`others`: their keys). A repeat is said only for "ask" (a seat still forming
        when it was said first dropped it)."""
        if not self.state.heard(seat, answer, next_table) and answer != "ask":
            return []
        data = Rematch(table, answer, next_table).to_bytes()
        effects: Effects = [Send(k, data) for k in others]
        return effects + [RematchAnswer(seat, answer, next_table, True)]

    def heard(self, seat: int | None, m: Rematch, table: bytes) -> Effects:
        """A `rematch` from the node of seat `seat` (None: no seat's); MessageError if it may
        not say it."""
        if m.table != table:
            raise MessageError("rematch: about another table")
        if seat is None:
            raise MessageError("rematch: from a node that holds no seat")
        if m.next is not None and (seat != 0 or m.answer != "yes"):
            raise MessageError("rematch: only seat 0's node opens the new table")
        if not self.state.heard(seat, m.answer, m.next):
            return []
        return [RematchAnswer(seat, m.answer, m.next)]

    def step(self, seat: int, table: bytes, others: Iterable[bytes], host: tuple[bytes, str],
             random: Callable[[int], bytes]) -> Effects:
        """What follows from where the rematch stands, the game over here: the node's own
        answer, unless a person answers; seat 0's node, every seat having said yes, opens the
        new table (its id from `random`) and says it; once this seat said yes and knows the
        new table, its next game begins (`NextGame`, at seat 0's node: `host`, its key and
        address)."""
        others = tuple(others)
        effects: Effects = []
        answer = self.by_itself(seat)
        if answer is not None:
            effects += self.answer(seat, answer, None, table, others)
        if self.opens(seat):
            effects += self.answer(seat, "yes", random(TABLE_BYTES), table, others)
        new = self.begins(seat)
        if new is not None:
            effects.append(NextGame(new, *host))
        return effects

    def waits(self, seat: int | None, now: float, left: Iterable[int]) -> bool:
        """Whether the node of `seat` should still wait for a rematch at session time `now`."""
        if self.over_at is None:
            return False
        return self.state.pending(seat, now - self.over_at, left)
