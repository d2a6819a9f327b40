"""Who plays at a node, and prints what happens there: a `Player` takes the node's events
by class — most only said, in client/event_words.py's words (the same the full-screen client
shows), some acted on — and decides for the local seat; each kind of player decides its own
way: the line prompt a person plays at (client/line_prompt.py), the built-in random player
(client/random_player.py), a bot of the SDK (client/strategy_player.py); the full-screen
client is client/tui's `ScreenPlayer`.

They read the game only through the session's read-only surface (`node.session.phase`,
`.seats`, `.position()`, `.legal_actions()`, `.moves` ...).
"""
from __future__ import annotations

import sys
from typing import Any, Callable, TextIO

from peerboard.client import colour
from peerboard.client.event_words import Rejections, outcomes_words, played, said
from peerboard.client.exitcode import ExitCode
from peerboard.client.text import printable
from peerboard.node.loop import Connection, LogOpened, Node, Notice
from peerboard.node.storage import DISK_FULL
from peerboard.protocol.session import (
    Accepted, Chatted, Claimable, Confirmed, Declined, Desync, Ended, Equivocation, Event, GameOver, GameStarted,
    InternalFault, LocalError, Offered, PeerAway, RematchAnswer,
    PeerBack, PeerLeft, PeerMoved, PeersKnown, Phase, Refused, Rejected, Seated, SeatFreed, SeatTaken, TakenOver,
    ChoseAhead, Disputed, Unanswered, Woke,
    TakeoverTurn, YourTurn,
)


class Player:
    """Prints the game as it happens and decides for the local seat; subclasses decide how."""

    def __init__(self, node: Node, out: TextIO = sys.stdout, verbose: bool = True):
        self.node = node
        self.out = out
        self.verbose = verbose
        self.exit_status: ExitCode | None = None
        self.interrupted = False  # stopped by a signal: leave cleanly
        self.rejections = Rejections()
        self.connected_once: set[bytes] = set()
        # every event the node passes on, by its class (a renamed class fails here, loudly):
        # most are only said; these do something besides
        tell = self.tell
        self.handlers: dict[type[Event], Callable[[Any], None]] = {
            Notice: tell, LogOpened: tell, Connection: self.on_connection,
            Seated: self.on_seated, SeatTaken: tell, SeatFreed: tell,
            PeersKnown: tell, GameStarted: self.on_game_started,
            Accepted: self.on_accepted, Confirmed: self.on_confirmed, YourTurn: self.on_your_turn,
            PeerAway: tell, PeerBack: tell, PeerLeft: tell, PeerMoved: tell, Ended: self.on_ended,
            Claimable: self.on_claimable, Offered: self.on_offered, Declined: tell,
            Desync: self.on_halted, Equivocation: self.on_halted, InternalFault: self.on_internal_fault,
            GameOver: self.on_game_over, Rejected: self.on_rejected, Refused: self.on_refused,
            Chatted: tell, RematchAnswer: tell, TakenOver: tell, Disputed: tell, Woke: tell,
            Unanswered: tell, ChoseAhead: tell,
            TakeoverTurn: lambda e: None,  # (the node's takeover player decides: client/takeover.py)
        }
        node.on_event = self.on_event

    @property
    def log_path(self):
        return self.node.log_path

    # -- what happens ------------------------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def tell(self, event: Event) -> None:
        """Say what `event` means (client/event_words.py), if it is news."""
        words = said(event, self.node.session)
        if words is not None:
            self.say(words.text)

    def leaving(self) -> str:
        """What leaving now means, in a line."""
        s = self.node.session
        if s is None or s.phase in (Phase.FORMING, Phase.SIGNING):
            if s is not None and s.local_seat == 0:
                return "closing the table: the nodes at it are told"
            return "leaving the table: the host frees your seat"
        if s.phase is Phase.OVER:
            return "leaving: the game is over"
        return ("leaving the game: the other seats are told you left, and the game waits for you"
                + self._resume_hint())

    def on_event(self, event: Event) -> None:
        self.handlers[type(event)](event)

    def on_seated(self, e: Seated) -> None:
        s = self.node.session
        if e.seat >= 0 and s is not None and s.phase is Phase.SIGNING:
            return  # (the proposal says it again)
        self.tell(e)

    def on_game_started(self, e: GameStarted) -> None:
        self.tell(e)
        s = self.node.session
        # (the line prompt has no seats panel: who plays is said once, here)
        self.say("The seats: " + ", ".join(f"{i.index} {printable(i.name, 40)} ({i.fingerprint})" for i in s.seats)
                 + ".")

    def on_accepted(self, e: Accepted) -> None:
        """(verbose) A move, and the chance outcomes an entry brought about: the dice, the
        card drawn (another seat's as its placeholder), the prize turned up."""
        if not self.verbose:
            return
        s = self.node.session
        outcome = next((c for c in reversed(s.chance) if c.seq == e.seq), None)
        brought = "" if outcome is None else f" -> {outcomes_words(outcome)}"
        if e.entry.kind == "move":
            move = next(m for m in reversed(s.moves) if m.seq == e.seq)
            self.say(f"{e.seq}: {played(s, move.seat, '; '.join(move.texts))}{brought}")
        elif outcome is not None:
            self.say(f"{e.seq}: chance{brought}")

    def on_confirmed(self, e: Confirmed) -> None:
        pass

    def on_your_turn(self, e: YourTurn) -> None:
        pass

    def on_ended(self, e: Ended) -> None:
        self.tell(e)

    def on_claimable(self, e: Claimable) -> None:
        self.tell(e)

    def on_offered(self, e: Offered) -> None:
        self.tell(e)

    def offer(self, how: str, accept: bool = True) -> None:
        """Offer (or accept) `how`, or decline it (said in one line when it cannot be)."""
        try:
            if accept:
                self.node.offer(how)
            else:
                self.node.decline(how)
                self.say(f"You declined {'a draw' if how == 'drawn' else 'to abort the game'}; the game goes on.")
        except LocalError as exc:
            self.say(str(exc))

    def claim(self, seat: int) -> None:
        """Claim seat `seat` (said in one line when it cannot be)."""
        try:
            self.node.claim(seat)
        except LocalError as exc:
            self.say(str(exc))

    def on_rejected(self, e: Rejected) -> None:
        words = self.rejections.words(e)
        if words is not None:
            self.say(words.text)

    def on_refused(self, e: Refused) -> None:
        if e.again:  # refused for now: the node asks again (said once)
            self.tell(e)
            return
        if self.exit_status is None:  # the refusal of a repeated hello says it again
            self.tell(e)
        self.finish(ExitCode.REFUSED)

    def on_halted(self, e: Desync | Equivocation) -> None:
        self.tell(e)
        self.finish(ExitCode.HALTED)

    def on_internal_fault(self, e: InternalFault) -> None:
        later = f" Resume it later with: peerboard resume {self.log_path}" if self.log_path else ""
        if e.text.startswith(DISK_FULL):  # (its line says how to resume)
            later = ""
        self.say(said(e, self.node.session).text + later)
        self.finish(ExitCode.HALTED)

    def on_game_over(self, e: GameOver) -> None:
        s = self.node.session
        self.say(colour.board(s.game, s.position().state, s.local_seat, self.out))
        self.tell(e)

    def on_connection(self, e: Connection) -> None:
        c = e.change
        s = self.node.session
        if c.what == "refused":
            self.tell(e)
            if s is None or s.genesis_hash is None or s.local_seat is None:
                self.finish(ExitCode.REFUSED)
        elif c.what == "wrong-key" and c.peer not in self.connected_once and not self._in_game():
            # (in a game a failed handshake is most often a peer dying mid-handshake: not news)
            self.connected_once.add(c.peer)
            self.tell(e)

    def _in_game(self) -> bool:
        return self.node.session is not None and self.node.session.genesis_hash is not None

    def _resume_hint(self) -> str:
        return f" (resume it with: peerboard resume {self.log_path})" if self.log_path else ""

    def finish(self, status: ExitCode) -> None:
        if self.exit_status is None:
            self.exit_status = status
        self.node.stop()
