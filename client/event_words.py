"""What each event of a game means, in the words a person reads.

One sentence per event (protocol/session/events.py, and the node's own in node/loop.py), worded
here only: the line prompt (client/line_prompt.py) prints it, the full-screen client
(client/tui/live_source.py) shows it on its status line as loudly as its `kind` says. A
front end decides *whether* to say an event — the screen, say, keeps quiet about a peer's
coming and going once the game is over — never how it is said.

Everything here reads the session's public surface only (`seats`, `phase`, `local_seat`,
`log_length`); a name, an address or a reason a peer sent is untrusted text, made
printable and cut to a length.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from peerboard.client.text import printable
from peerboard.node.loop import Connection, LogOpened, Notice
from peerboard.node.storage import DISK_FULL
from peerboard.protocol.session import (
    Accepted, CLOSED, Chatted, Claimable, Confirmed, Declined, Desync, Disputed, Ended, Equivocation, Event, FULL,
    ChoseAhead, GameOver, Unanswered, Woke,
    GameStarted, InternalFault, Offered, PeerAway, PeerBack, PeerLeft, PeerMoved, PeersKnown, Phase, REMATCH_WAIT,
    Refused, Rejected, RematchAnswer, SEAT_LEASE, SeatFreed, SeatTaken, Seated, TakenOver, TakeoverTurn, YourTurn,
)
from peerboard.protocol.log import fingerprint

REJECTIONS_SHOWN = 5  # per peer: more are counted, not said
NAME_AT_MOST = 40
ADDRESS_AT_MOST = 80
REASON_AT_MOST = 200
CHAT_AT_MOST = 200  # characters of a line said at the table (protocol.schema.MAX_CHAT)

#: why a seat of a forming table is free again (SeatFreed.why)
FREED = {
    "left": "it left",
    "silent": f"it fell silent (nothing heard for {SEAT_LEASE:g} s, or no signature in time)",
    "removed": "the host removed it",
}


@dataclass(frozen=True)
class Words:
    """One sentence about the game, and how loudly a screen shows it."""

    text: str
    kind: str = "info"  # "info", "warn" (something to look at) or "error" (the game stops here)


def seat_name(session: Any, seat: int) -> str:
    """A seat by its number and its player's name: `seat 1 (ann)`."""
    for info in session.seats if session is not None else ():
        if info.index == seat:
            return f"seat {seat} ({printable(info.name, NAME_AT_MOST)})"
    return f"seat {seat}"


def played(session: Any, seat: int, text: str) -> str:
    """A move of the game said: `seat 1 (ann) played: assign 2 4 3 1` (or `You played: …`)."""
    who = "You" if seat == session.local_seat else seat_name(session, seat)
    return f"{who} played: {printable(text)}"


#: chance outcomes named in one line at most (Asterix's layout is sixty tiles turned up at once)
OUTCOMES_SAID = 10


def outcomes_words(record: Any) -> str:
    """The chance outcomes one entry brought about (a `ChanceRecord`), in the game's notation:
    `roll 1 5`, `draw 3, draw ?`; past `OUTCOMES_SAID` of them, how many more."""
    texts = [printable(text, 80) for text in record.texts]
    more = len(texts) - OUTCOMES_SAID
    return ", ".join(texts[:OUTCOMES_SAID]) + (f" and {more} more" if more > 0 else "")


def result_words(result: Any, session: Any) -> str:
    """The end of a game (a GameOver, or the session's `result`), after "Game over: "."""
    if result is None:
        return "the result is being signed."
    won = ", ".join(seat_name(session, w) for w in result.winners) or "nobody"
    cheats = f"; dishonest: {', '.join(seat_name(session, c) for c in result.cheats)}" if result.cheats else ""
    ending = getattr(result, "ending", None)
    if ending is not None and getattr(ending, "disputed", None) is not None:
        return f"{ending_words(ending, session)}; no result (the game ended disputed), scores {'-'.join(map(str, result.scores))}."
    how = f"{ending_words(ending, session)}; " if ending is not None else ""
    taken = getattr(result, "takeovers", ())
    bots = (f"; taken over by a bot (it cannot win): "
            f"{', '.join(f'{seat_name(session, seat)} from entry {seq}' for seat, seq, _ in taken)}") if taken else ""
    # each score by its seat: "scores 4-0" under "won by nobody" read like a mistake
    scores = ", ".join(f"{seat_name(session, s)} {v}" for s, v in enumerate(result.scores))
    return f"{how}won by {won}; scores: {scores}{cheats}{bots}."


def ending_words(ending: Any, session: Any) -> str:
    """How a game ended otherwise than by its rules: `seat 1 (bob) resigned at entry 40`
    (`you resigned …` at the seat that did); `seat 1 (bob) was away too long and was claimed
    at entry 12`."""
    you = [seat == session.local_seat for seat in ending.seats]
    who = " and ".join("you" if me else seat_name(session, seat) for me, seat in zip(you, ending.seats))
    if ending.how in ("drawn", "aborted"):
        agreed = "a draw" if ending.how == "drawn" else "to abort the game (no result)"
        return f"every seat agreed to {agreed} at entry {ending.seq}"
    if ending.how == "claimed" and getattr(ending, "disputed", None) is not None:
        return (f"{who} {'were' if any(you) else 'was'} claimed at entry {ending.seq} on one seat's word, and "
                f"disputed it: the protest is in the log at entry {ending.disputed}")
    if ending.how == "claimed":
        were = "were" if any(you) or len(you) > 1 else "was"
        # (at two seats the claimer alone signed it: its word, which no log can prove — a ladder says "by claim")
        word = " (on one seat's word)" if getattr(session, "players", 0) == 2 else ""
        return f"{who} {were} away longer than the table's patience and {were} claimed at entry {ending.seq}{word}"
    return f"{who} {ending.how} at entry {ending.seq}"


def _peer_away(e: Any, s: Any) -> Words:
    patience = getattr(s, "patience", None)
    if patience and s.players == 2 and s.local_seat is not None:
        return Words(f"{seat_name(s, e.seat)} is away; the game waits for it — if it is still away after "
                     f"{patience} s (the table's patience), `claim` ends the game and you win.", "warn")
    return Words(f"{seat_name(s, e.seat)} is away; the game waits for it.", "warn")


def _offer_words(how: str) -> str:
    return "a draw" if how == "drawn" else "to abort the game (no result)"


def _offered(e: Any, s: Any) -> Words:
    what = "draw" if e.how == "drawn" else "abort"
    return Words(f"{seat_name(s, e.seat)} offers {_offer_words(e.how)}: `accept {what}` or `decline {what}` "
                 f"(the offer lapses when the next entry is written).", "warn")


def _claimable(e: Any, s: Any) -> Words:
    if getattr(s, "players", 2) > 2:
        return Words(f"{seat_name(s, e.seat)} has been away longer than the table's patience ({e.patience} s) and the "
                     f"game waits for it: `claim {e.seat}` claims its seat; once every other seat has, "
                     + ("a bot plays it from then on." if getattr(s, "takeover", None) else
                        "the game ends with no winner."), "warn")
    return Words(f"{seat_name(s, e.seat)} has been away longer than the table's patience ({e.patience} s): "
                 f"`claim` (F8 in the full-screen client) claims its seat, and the game ends with you the winner.", "warn")


def fault_words(e: InternalFault) -> str:
    """A fault of our own: what failed, that no peer is to blame, and where its details are.
    A full disk is nobody's fault: its line (node.storage.disk_full_text) is said as it is."""
    if e.text.startswith(DISK_FULL):
        return printable(e.text, 1000)  # (whole: it ends with the command that resumes the game)
    where = f"; details in {e.log_path}" if e.log_path else ""
    return f"{printable(e.text, REASON_AT_MOST)} — our own fault, not a peer's{where}"


def halt_words(halt: Any, session: Any) -> str:
    """Why a game halted (the session's `halt`), after "The game is halted: "."""
    if isinstance(halt, Desync):
        return f"the seats reached different states at seq {halt.seq}."
    if isinstance(halt, Equivocation):
        return f"{seat_name(session, halt.seat)} signed two different entries for seq {halt.seq}."
    if isinstance(halt, InternalFault):
        return fault_words(halt)
    return "see the log file."


def chat_words(session: Any, line: Any, seat: int | None, local: bool) -> str:
    """A line said at the table, with who said it: `seat 1 (ann) says: hello` (`You said:
    …`; a spectator by its fingerprint). The text is the author's: escaped, and never more
    than the protocol lets a line hold."""
    if local:
        return f"You said: {printable(line.text, CHAT_AT_MOST)}"
    return said_by(seat_name(session, seat) if seat is not None else f"spectator {fingerprint(line.by)}", line.text)


def said_by(who: str, text: str) -> str:
    """`who` (already printable) says `text` (the author's, escaped here)."""
    return f"{who} says: {printable(text, CHAT_AT_MOST)}"


def _rematch(e: RematchAnswer, s: Any) -> Words | None:
    if e.answer == "ask" or e.next is not None:
        return None  # (a person sits there; the new table: the node says where it goes)
    if e.answer == "no":
        if e.mine:
            return Words("You will not play again.")
        return Words(f"{seat_name(s, e.seat)} will not play again: no rematch.", "warn")
    if e.mine:
        return Words(f"You would play again; waiting for the others (at most {REMATCH_WAIT:g} s).")
    return Words(f"{seat_name(s, e.seat)} would play again (the first seat moved on): `again` to play, "
                 f"or leave.")


def said(event: Event, session: Any) -> Words | None:
    """What `event` means, given the session it came from (None before there is one); None
    for an event that is no news in itself (a confirmation, whose turn it is, a move: see
    `played`). A class of event missing here is a KeyError, loudly."""
    return _WORDS[type(event)](event, session)


class Rejections:
    """The messages a front end says were rejected: the first REJECTIONS_SHOWN from each
    peer, then once that more are not shown (a hostile peer cannot flood the screen)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def words(self, e: Rejected) -> Words | None:
        sender = printable(e.sender, 20)
        n = self.counts[sender] = self.counts.get(sender, 0) + 1
        if n <= REJECTIONS_SHOWN:
            return _rejected(e, None)
        if n == REJECTIONS_SHOWN + 1:
            return Words(f"Rejecting more messages from {sender} (not shown).", "warn")
        return None


# -- each event ---------------------------------------------------------------------------------


def _connection(e: Connection, s: Any) -> Words | None:
    c = e.change
    addr = printable(c.addr, ADDRESS_AT_MOST)
    if c.what == "refused":
        return Words(f"The node at {addr} refused this node's key: it is not a seat there and not a spectator "
                     f"it admits.", "error")
    if c.what == "wrong-key":
        return Words(f"The node at {addr} does not hold the key {fingerprint(c.peer)} (a wrong key, or not a "
                     f"peerboard node there).", "warn")
    return None


def _seated(e: Seated, s: Any) -> Words:
    if e.seat < 0:
        return Words(f"Watching as a spectator: {e.players} seats.")
    return Words(f"You have seat {e.seat} of {e.players}; the game starts when every seat is taken.")


def _seat_taken(e: SeatTaken, s: Any) -> Words | None:
    seat = e.seat
    if seat.connection == "you":
        return None
    where = f" from {printable(seat.address, ADDRESS_AT_MOST)}" if seat.address else ""
    return Words(f"Seat {seat.index} taken by {printable(seat.name, NAME_AT_MOST)} ({seat.fingerprint}){where}.")


def _seat_freed(e: SeatFreed, s: Any) -> Words:
    why = FREED.get(e.why, printable(e.why, REASON_AT_MOST))
    return Words(f"Seat {e.index} ({printable(e.name, NAME_AT_MOST)}, {e.fingerprint}) is free again: {why}.", "warn")


def _started(e: GameStarted, s: Any) -> Words:
    you = "you are watching" if s.local_seat is None else f"you are seat {s.local_seat}"
    if s.log_length:  # resumed from its log
        return Words(f"The game goes on from entry {s.log_length}; {you}.")
    return Words(f"The game has started; {you}.")


def _peer_left(e: PeerLeft, s: Any) -> Words:
    if s is not None and s.phase is Phase.OVER:
        if s.local_seat is not None and s.rematch_state.offered:
            return Words(f"{seat_name(s, e.seat)} left the table: no rematch.", "warn")
        return Words(f"{seat_name(s, e.seat)} left (the game is over).")
    return Words(f"{seat_name(s, e.seat)} left the table; the game waits until it resumes.", "warn")


def _desync(e: Desync, s: Any) -> Words:
    hashes = ", ".join(f"seat {seat}: {h[:8].hex()}" for seat, h in e.hashes)
    return Words(f"Desync at seq {e.seq}: the seats reached different states ({hashes}); the game halts.", "error")


def _equivocation(e: Equivocation, s: Any) -> Words:
    return Words(f"{seat_name(s, e.seat)} signed two different entries for seq {e.seq}; the game halts (the proof "
                 f"is kept).", "error")


def _rejected(e: Rejected, s: Any) -> Words:
    return Words(f"Rejected a message from {printable(e.sender, 20)}: {printable(e.reason, REASON_AT_MOST)}", "warn")


def _refused(e: Refused, s: Any) -> Words:
    if e.reason == CLOSED:
        return Words("The host closed the table.", "error")
    if e.again:
        why = (f"a seat whose node went silent is freed within {SEAT_LEASE:g} s" if e.reason == FULL
               else "it checks codes again soon")
        return Words(f"The table refused this node for now: {printable(e.reason, REASON_AT_MOST)}; {why}, so this "
                     f"node asks again for up to {e.again:g} s.", "warn")
    return Words(f"The table refused this node: {printable(e.reason, REASON_AT_MOST)}", "error")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _no_news(e: Event, s: Any) -> None:
    return None


def _taken_over(e: TakenOver, s: Any) -> Words:
    bot = printable(e.strategy, 40)
    if e.you:
        return Words(f"You were away longer than the table's patience and were claimed: from entry {e.seq} a "
                     f"{bot} bot plays your seat, run by {seat_name(s, e.runner)}'s node; you watch the rest as a "
                     f"spectator.", "warn")
    runner = "this node" if s is not None and s.local_seat == e.runner else f"{seat_name(s, e.runner)}'s node"
    return Words(f"{_capital(seat_name(s, e.seat))} was away longer than the table's patience and was claimed: "
                 f"from entry {e.seq} a {bot} bot plays it, run by {runner}; the game goes on (that seat cannot win).",
                 "warn")


def _disputed(e: Disputed, s: Any) -> Words:
    patience = getattr(s, "patience", None)
    waited = f" ({patience} s)" if patience else ""
    carried = (f", with the entr{'ies' if e.carried > 1 else 'y'} of your own it took the place of" if e.carried
               else "")
    if e.you == "claimed":
        return Words(f"{_capital(seat_name(s, e.claimer))} claimed your seat at entry {e.seq}, as if you had been away "
                     f"longer than the table's patience{waited}. You were here: this node has kept your signed protest "
                     f"in this game's log (entry {e.protest}){carried}. A claim at two seats is one seat's word, and "
                     f"yours says otherwise: the game ends disputed, with no result, and `peerboard ratings` does "
                     f"not rate it.", "error")
    if e.you == "claimer":
        return Words(f"{_capital(seat_name(s, e.gone))} disputes your claim of entry {e.seq}: its signed protest "
                     f"(entry {e.protest}) says it was here. Nobody can prove who was away: the game ends disputed, "
                     f"with no result, and `peerboard ratings` does not rate it.", "warn")
    return Words(f"{_capital(seat_name(s, e.claimer))} claimed {seat_name(s, e.gone)} at entry {e.seq}, and "
                 f"{seat_name(s, e.gone)} disputes it (its protest, entry {e.protest}): the game ends disputed, "
                 f"with no result.", "warn")


def _woke(e: Woke, s: Any) -> Words:
    return Words(f"This node did not run for {e.seconds:.0f} s (its process was stopped, or the computer slept): the "
                 f"other seats heard nothing from you meanwhile. Their silence is counted again from now — they "
                 f"were not the ones away.", "warn")


def _unanswered(e: Unanswered, s: Any) -> Words:
    who = " and ".join(seat_name(s, seat) for seat in e.seats)
    patience = getattr(s, "patience", None)
    claim = (f"a seat away longer than the table's patience ({patience} s) can be claimed, and at two seats the "
             f"claim ends the game" if patience else "a seat away too long can be claimed")
    return Words(f"{_capital(who)} {'has' if len(e.seats) == 1 else 'have'} not answered in {e.seconds:.0f} s since "
                 f"this node came back, and this seat writes nothing until it has heard where the game stands. While "
                 f"you were away the game may have gone on, or ended without you: {claim}. This node goes on asking "
                 f"and tells you what it hears; `quit` leaves (`peerboard resume` comes back).", "warn")


_WORDS: dict[type[Event], Callable[[Any, Any], Words | None]] = {
    Notice: lambda e, s: Words(printable(e.text)),
    LogOpened: lambda e, s: Words(f"This game's log: {e.path}"),
    Connection: _connection,
    Seated: _seated,
    SeatTaken: _seat_taken,
    SeatFreed: _seat_freed,
    PeersKnown: _no_news,
    GameStarted: _started,
    Accepted: _no_news,
    Confirmed: _no_news,
    YourTurn: _no_news,
    TakeoverTurn: _no_news,
    TakenOver: _taken_over,
    Disputed: _disputed,
    Woke: _woke,
    Unanswered: _unanswered,
    ChoseAhead: lambda e, s: Words(f"{_capital(seat_name(s, e.seat))} has made its secret choice and waits for "
                                   f"yours (both stay sealed until every choice is in)."),
    PeerAway: _peer_away,
    Claimable: _claimable,
    Offered: _offered,
    Declined: lambda e, s: Words(f"{seat_name(s, e.seat)} declined {_offer_words(e.how)}; the game goes on.", "warn"),
    PeerBack: lambda e, s: Words(f"{seat_name(s, e.seat)} is back."),
    PeerLeft: _peer_left,
    PeerMoved: lambda e, s: Words(f"{seat_name(s, e.seat)} listens at {printable(e.address, ADDRESS_AT_MOST)} now."),
    Desync: _desync,
    Equivocation: _equivocation,
    InternalFault: lambda e, s: Words(f"{fault_words(e)}." if e.text.startswith(DISK_FULL)
                                      else f"The game is paused here: {fault_words(e)}.", "error"),
    Ended: lambda e, s: Words(_capital(f"{ending_words(e.ending, s)}: the game ends (the audit and the result follow)"
                                       + ("; you watch the rest as a spectator." if s is not None and
                                          s.local_seat in e.ending.seats and e.ending.how == "claimed" else "."))),
    GameOver: lambda e, s: Words(f"Game over: {result_words(e, s)}"),
    Rejected: _rejected,
    Refused: _refused,
    Chatted: lambda e, s: Words(chat_words(s, e.line, e.seat, e.mine)),
    RematchAnswer: _rematch,
}
