"""Who sits at a node and prints what happens there: the line prompt a person plays at
(`--plain`, or a terminal the full-screen client cannot use), the built-in random player
of `--headless`, and a bot of the SDK (`peerboard bot --strategy NAME | --exec CMD`).

They read the game only through the session's read-only surface (`node.session.phase`,
`.seats`, `.position()`, `.legal_actions()`, `.moves` ...) and take its events by class;
what an event means is said in client/event_words.py's words, the same the full-screen
client shows. The line prompt never blocks the node: it reads stdin only when the node's
poll says a line is there, and every mistake in what was typed is one line saying what is
allowed.
"""
from __future__ import annotations

import os
import random
import sys
from typing import Any, Callable, TextIO

from peerboard.client import colour
from peerboard.client.bell import bell_wanted, waited_on_others
from peerboard.client.event_words import Rejections, outcomes_words, played, said
from peerboard.client.exitcode import ExitCode
from peerboard.client.text import printable
from peerboard.engines import IllegalAction
from peerboard.node.loop import Connection, LogOpened, Node, Notice
from peerboard.node.storage import DISK_FULL
from peerboard.protocol.session import (
    Accepted, Chatted, Claimable, Confirmed, Declined, Desync, Ended, Equivocation, Event, GameOver, GameStarted,
    InternalFault, LocalError, Offered, PeerAway, RematchAnswer,
    PeerBack, PeerLeft, PeerMoved, PeersKnown, Phase, Refused, Rejected, Seated, SeatFreed, SeatTaken, TakenOver,
    Disputed, Unanswered, Woke,
    TakeoverTurn, YourTurn,
)

HELP = ("Type a move in the game's notation, `help` for the legal moves, `board` to see the board, "
        "`resign` to resign the game (at any time), `offer draw` or `offer abort` (the others `accept` or `decline` it), "
        "`claim` to claim a seat away longer than the table's patience, "
        "`say TEXT` to say something to the table, `quit` to leave (resume later with peerboard resume FILE).")
RESIGN_QUESTION = "Resign the game? The other seats are told at once and it cannot be taken back. (yes/no)"
FORMING_HELP = ("While the table forms: `seats` lists who holds each seat, `remove N` frees seat N "
                "(its node is refused from then on), `quit` closes the table.")
JOINING_HELP = "The table waits for its seats: `seats` lists them once it is full, `quit` leaves it."
AGAIN_HELP = ("Play again? `again` offers the same table again, the first seat moved on (the others "
              "accept or not); `no` or `quit` leaves.")


class Seat:
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
            Unanswered: tell,
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


class RandomSeat(Seat):
    """The built-in random player: a uniformly random legal choice, after `think` seconds."""

    def __init__(self, node: Node, seed: int | None = None, think: float = 0.0, **kw):
        super().__init__(node, **kw)
        self.rng = random.Random(seed)
        self.think = think

    def on_your_turn(self, e: YourTurn) -> None:
        seq = self.node.session.log_length

        def decide() -> None:
            s = self.node.session
            if s.log_length != seq or s.decision_kind() != e.kind:
                return  # stale: the game moved on (or halted) since the prompt
            try:
                self.node.submit([e.legal[self.rng.randrange(len(e.legal))]])
            except LocalError:
                pass

        self.node.call_later(self.think, decide)

    def on_claimable(self, e: Claimable) -> None:
        # a built-in player claims a seat as soon as the table's patience has run out
        self.tell(e)
        self.claim(e.seat)

    def on_offered(self, e: Offered) -> None:
        # a built-in player declines every offer
        self.tell(e)
        self.offer(e.how, accept=False)


class ConsoleSeat(Seat):
    """A person at a plain line prompt: the board, then the game's notation."""

    def __init__(self, node: Node, stdin_fd: int = 0, **kw):
        super().__init__(node, **kw)
        self.fd = stdin_fd
        self.buffer = b""
        node.rematch_policy = "person"  # (at the end, the others wait a while for this person's answer)
        self.turn: YourTurn | None = None
        self.bell = bell_wanted()
        self._rung_at = -1  # how many moves there were when the bell last rang
        self.asked_to_resign = False  # the next line answers the resign question
        node.watch_fd(stdin_fd, self._readable)

    def on_game_started(self, e: GameStarted) -> None:
        super().on_game_started(e)
        self.say(HELP)

    def on_game_over(self, e: GameOver) -> None:
        super().on_game_over(e)
        self.turn = None
        self.say(AGAIN_HELP)

    def on_your_turn(self, e: YourTurn) -> None:
        self.turn = e
        moves = self.node.session.moves
        if self.bell and len(moves) != self._rung_at and waited_on_others(moves, e.seat):
            self._rung_at = len(moves)
            self.out.write("\a")  # your turn, after the others': the terminal flags the window
        self.show_board()
        what = "your secret choice" if e.kind == "commit" else "your move"
        self.say(f"seat {e.seat}, {what} ({len(e.legal)} legal; `help` lists them):")

    def forming(self, text: str) -> bool:
        """The commands of a forming table (`seats`, and the host's `remove N`); False if
        `text` is none of them."""
        s = self.node.session
        if text == "seats":
            taken = {i.index: i for i in s.seats}
            for index in range(s.players):
                i = taken.get(index)
                if i is None:
                    self.say(f"  seat {index}: free")
                else:
                    who = "you" if i.connection == "you" else f"{printable(i.name, 40)} ({i.fingerprint})"
                    at = f" at {printable(i.address, 60)}" if i.address and i.connection != "you" else ""
                    self.say(f"  seat {index}: {who}{at}")
            return True
        word, _, rest = text.partition(" ")
        if word != "remove":
            return False
        if not rest.strip().isdigit():
            self.say("remove takes a seat number, e.g. `remove 2` (`seats` lists them)")
            return True
        try:
            self.node.remove_seat(int(rest))
        except LocalError as exc:
            self.say(str(exc))
        return True

    def claim_command(self, rest: str) -> None:
        """`claim` (the other seat of a two-seat game) or `claim N`."""
        s = self.node.session
        if s is None or s.phase is not Phase.PLAYING or s.local_seat is None:
            self.say("There is no game in progress at this seat.")
            return
        if rest and not rest.isdigit():
            self.say("claim takes a seat number, e.g. `claim 1` (or nothing: the other seat)")
            return
        seat = int(rest) if rest else 1 - s.local_seat if s.players == 2 else -1
        if seat < 0:
            self.say("Name the seat to claim: `claim N`.")
            return
        self.claim(seat)

    def answer_resign(self, text: str) -> None:
        """The answer to the resign question: yes resigns, no goes on; anything else asks again."""
        answer = text.lower()
        if answer in ("y", "yes"):
            self.asked_to_resign = False
            try:
                self.node.resign()
            except LocalError as exc:
                self.say(str(exc))
                return
            self.say("You resigned; the game ends as soon as the next entry is written.")
        elif answer in ("n", "no"):
            self.asked_to_resign = False
            self.say("Not resigned; the game goes on.")
        else:
            self.say("Please answer yes or no: " + RESIGN_QUESTION)

    def show_board(self) -> None:
        s = self.node.session
        position = None if s is None else s.position()
        if position is not None:
            self.say(colour.board(s.game, position.state, s.local_seat, self.out))

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 4096)
        except OSError:
            data = b""
        if not data:
            self.node.unwatch_fd(self.fd)
            self.say("input closed: leaving the game" + self._resume_hint())
            self.node.leave()
            self.finish(ExitCode.DONE)
            return
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.handle(line.decode("utf-8", "replace").strip())

    def handle(self, text: str) -> None:
        if not text:
            return
        s = self.node.session
        if self.asked_to_resign:
            self.answer_resign(text)
            return
        if text == "resign":
            if s is None or s.phase is not Phase.PLAYING or s.local_seat is None or s.ending is not None:
                self.say("There is no game in progress at this seat to resign.")
            else:
                self.asked_to_resign = True
                self.say(RESIGN_QUESTION)
            return
        word, _, what = text.partition(" ")
        if word in ("offer", "accept", "decline"):
            how = {"draw": "drawn", "abort": "aborted"}.get(what.strip())
            if how is None and word != "offer" and s is not None and len(s.offers) == 1:
                how = s.offers[0][0]  # (`accept` alone: the one offer standing)
            if how is None:
                self.say(f"{word} draw, or {word} abort")
            else:
                self.offer(how, accept=word != "decline")
            return
        if text == "claim" or text.startswith("claim "):
            self.claim_command(text[5:].strip())
            return
        if text == "quit":
            self.say(self.leaving())
            self.node.leave()
            self.finish(ExitCode.DONE)
            return
        if text == "board":
            self.show_board()
            return
        if s is not None and (text == "again" or text == "no" and s.phase is Phase.OVER):
            try:
                self.node.rematch("yes" if text == "again" else "no")
            except LocalError as exc:
                self.say(str(exc))
            return
        word, _, rest = text.partition(" ")
        if word == "say":
            try:
                self.node.say(rest.strip())
            except LocalError as exc:
                self.say(str(exc))
            return
        if s is not None and s.phase in (Phase.FORMING, Phase.SIGNING) and self.forming(text):
            return
        turn = self.turn
        waiting = s is None or turn is None or s.decision_kind() != turn.kind
        if text == "help":
            self.say(HELP)
            if s is not None and s.phase in (Phase.FORMING, Phase.SIGNING):
                self.say(FORMING_HELP if s.local_seat == 0 else JOINING_HELP)
            if not waiting:
                game, state = s.game, s.position().state
                names = [game.format_action(state, a) for a in s.legal_actions()]
                shown = ", ".join(names[:80]) + (f", … ({len(names)} in all)" if len(names) > 80 else "")
                self.say(f"legal now: {shown}")
            return
        ahead = s.choice_ahead() if waiting and s is not None and self.node.held_choice is None else ()
        if ahead:  # a secret choice before its turn to commit: both seats choose at the same time
            self._choose_ahead(text, ahead)
            return
        if waiting:
            if s is not None and s.phase in (Phase.FORMING, Phase.SIGNING):
                self.say("The game has not started. " + (FORMING_HELP if s.local_seat == 0 else JOINING_HELP))
            else:
                self.say("It is not your turn; wait for the others (type `help` for the commands).")
            return
        game, state = s.game, s.position().state
        try:
            action = tuple(game.parse_action(state, text))
        except IllegalAction as exc:
            self.say(f"{exc} ({'type `help` for the legal moves'})")
            return
        if action not in s.legal_actions():
            self.say(f"{text!r} is not legal now; type `help` for the legal moves.")
            return
        try:
            self.node.submit([action])
        except LocalError as exc:
            self.say(str(exc))


    def _choose_ahead(self, text: str, ahead: tuple) -> None:
        """The secret choice typed while a seat ahead still chooses: the node holds it and
        commits it in its turn (node/loop.py, `submit`)."""
        s = self.node.session
        game, state = s.game, s.position().state
        try:
            action = tuple(game.parse_action(state, text))
        except IllegalAction:
            action = None
        if action not in ahead:
            names = ", ".join(game.format_action(state, a) for a in ahead[:12])
            self.say(f"{text!r} is not one of your secret choices; they are: {names}"
                     + (f", … ({len(ahead)} in all)" if len(ahead) > 12 else ""))
            return
        try:
            self.node.submit([action])
        except LocalError as exc:
            self.say(str(exc))
            return
        self.say("Your choice is made: it goes in once the seat ahead of you has committed.")


class StrategySeat(Seat):
    """A bot of the SDK (client/bots) plays the seat: `peerboard bot --strategy NAME` or
    `--exec CMD`. It prints the game like any seat; the bot sees only the seat's view. A
    fault of the bot is one line here and in `faults` (a file the host that started this
    bot shows), and its seat plays on as its `--on-error` says."""

    def __init__(self, node: Node, bot, label: str, seed: str, on_error: str, time_limit: float | None,
                 faults: str | None = None, remake=None, **kw):
        from peerboard.client.bots.seat import BotSeat

        super().__init__(node, **kw)
        self.faults = faults
        self.player = BotSeat(node, bot, label, seed, on_error, time_limit, report=self.fault, remake=remake)
        self.say(f"the bot {printable(label)} plays this seat")

    def fault(self, line: str) -> None:
        self.say(line)
        if self.faults:
            try:
                with open(self.faults, "a") as f:
                    f.write(line.replace("\n", " ") + "\n")
            except OSError as exc:
                self.say(f"cannot note the fault in {self.faults}: {exc.strerror}")

    def on_event(self, event: Event) -> None:
        super().on_event(event)
        self.player.on_event(event)

    def on_claimable(self, e: Claimable) -> None:
        # a bot claims a seat as soon as the table's patience has run out
        self.tell(e)
        self.claim(e.seat)

    def on_offered(self, e: Offered) -> None:
        # a bot declines, unless its `on_offer` hook accepts (client/bots/seat.py asks it)
        self.tell(e)

