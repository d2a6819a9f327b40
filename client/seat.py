"""Who sits at a node: the line-based console a person plays with (until the terminal
client lands) and the built-in random player of `--headless`; both print what happens.

They read the game only through the session's read-only surface (`node.session.phase`,
`.seats`, `.position()`, `.legal_actions()`, `.moves` ...) and take its events by class.
The console never blocks the node: it reads stdin only when the node's poll says a line
is there, and every mistake in what was typed is one line saying what is allowed.
"""
from __future__ import annotations

import os
import random
import sys
import time
from typing import Any, Callable, TextIO

from peerboard.client import colour
from peerboard.client.exitcode import ExitCode
from peerboard.client.text import printable
from peerboard.engines import IllegalAction
from peerboard.node.loop import Connection, LogOpened, Node, Notice
from peerboard.protocol.forming import CLOSED, SEAT_LEASE
from peerboard.protocol.identity import fingerprint
from peerboard.protocol.session import (
    Accepted, Confirmed, Desync, Equivocation, Event, GameOver, GameStarted, InternalFault, LocalError, PeerAway,
    PeerBack, PeerLeft, PeerMoved, PeersKnown, Phase, Refused, Rejected, Seated, SeatFreed, SeatTaken, YourTurn,
)

REJECTIONS_SHOWN = 5  # per peer; more are counted, not printed
HELP = ("Type a move in the game's notation, `help` for the legal moves, `board` to see the board, "
        "`quit` to leave (resume later with peerboard resume FILE).")
FORMING_HELP = ("While the table forms: `seats` lists who holds each seat, `remove N` frees seat N "
                "(its node is refused from then on), `quit` closes the table.")
JOINING_HELP = "The table waits for its seats: `seats` lists them once it is full, `quit` leaves it."
FREED = {"left": "left", "silent": f"went silent (nothing heard for {SEAT_LEASE:g} s, or no signature in time)",
         "removed": "was removed by the host"}


class Seat:
    """Prints the game as it happens and decides for the local seat; subclasses decide how."""

    def __init__(self, node: Node, out: TextIO = sys.stdout, verbose: bool = True):
        self.node = node
        self.out = out
        self.verbose = verbose
        self.exit_status: ExitCode | None = None
        self.interrupted = False  # stopped by a signal: leave cleanly
        self.rejections: dict[str, int] = {}
        self.connected_once: set[bytes] = set()
        # every event the node passes on, by its class (a renamed class fails here, loudly)
        self.handlers: dict[type[Event], Callable[[Any], None]] = {
            Notice: self.on_notice, LogOpened: self.on_log_opened, Connection: self.on_connection,
            Seated: self.on_seated, SeatTaken: self.on_seat_taken, SeatFreed: self.on_seat_freed,
            PeersKnown: self.ignore, GameStarted: self.on_game_started,
            Accepted: self.on_accepted, Confirmed: self.on_confirmed, YourTurn: self.on_your_turn,
            PeerAway: self.on_peer_away, PeerBack: self.on_peer_back, PeerLeft: self.on_peer_left,
            PeerMoved: self.on_peer_moved,
            Desync: self.on_desync, Equivocation: self.on_equivocation, InternalFault: self.on_internal_fault,
            GameOver: self.on_game_over, Rejected: self.on_rejected, Refused: self.on_refused,
        }
        node.on_event = self.on_event

    @property
    def log_path(self):
        return self.node.log_path

    # -- what happens ------------------------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def seat_name(self, seat: int) -> str:
        s = self.node.session
        info = next((i for i in (s.seats if s is not None else ()) if i.index == seat), None)
        if info is not None:
            return f"seat {seat} ({printable(info.name, 40)}, {info.fingerprint})"
        return f"seat {seat}"

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

    def ignore(self, e: Event) -> None:
        pass

    def on_notice(self, e: Notice) -> None:
        self.say(printable(e.text))

    def on_log_opened(self, e: LogOpened) -> None:
        self.say(f"log: {e.path}")

    def on_seated(self, e: Seated) -> None:
        s = self.node.session
        if e.seat >= 0 and s is not None and s.phase is Phase.SIGNING:
            return  # (the proposal says it again)
        self.say("watching as a spectator" if e.seat < 0 else f"seated: seat {e.seat} of {e.players}")

    def on_seat_taken(self, e: SeatTaken) -> None:
        i = e.seat
        if i.connection == "you":
            return
        at = f" at {printable(i.address, 60)}" if i.address else ""
        self.say(f"seat {i.index} taken by {printable(i.name, 40)} ({i.fingerprint}){at}")

    def on_seat_freed(self, e: SeatFreed) -> None:
        why = FREED.get(e.why, printable(e.why))
        self.say(f"seat {e.index} is free: {printable(e.name, 40)} ({e.fingerprint}) {why}")

    def on_peer_moved(self, e: PeerMoved) -> None:
        self.say(f"{self.seat_name(e.seat)} listens at {printable(e.address, 60)} now")

    def on_game_started(self, e: GameStarted) -> None:
        s = self.node.session
        seats = ", ".join(f"{i.index}:{printable(i.name)} ({i.fingerprint})" for i in s.seats)
        self.say(f"game started: {s.game_name}, seats {seats}")

    def on_accepted(self, e: Accepted) -> None:
        if not self.verbose or e.entry.kind != "move":
            return
        s = self.node.session
        move = next(m for m in reversed(s.moves) if m.seq == e.seq)
        who = "you" if move.seat == s.local_seat else self.seat_name(move.seat)
        self.say(f"{e.seq}: {who}: {printable('; '.join(move.texts))}")

    def on_confirmed(self, e: Confirmed) -> None:
        pass

    def on_your_turn(self, e: YourTurn) -> None:
        pass

    def on_peer_away(self, e: PeerAway) -> None:
        self.say(f"{self.seat_name(e.seat)} is away; the game waits for it")

    def on_peer_back(self, e: PeerBack) -> None:
        self.say(f"{self.seat_name(e.seat)} is back")

    def on_peer_left(self, e: PeerLeft) -> None:
        s = self.node.session
        if s is not None and s.phase is Phase.OVER:
            self.say(f"{self.seat_name(e.seat)} left (the game is over)")
        else:
            self.say(f"{self.seat_name(e.seat)} left the table; the game waits until it resumes")

    def on_rejected(self, e: Rejected) -> None:
        n = self.rejections[e.sender] = self.rejections.get(e.sender, 0) + 1
        if n <= REJECTIONS_SHOWN:
            self.say(f"rejected a message from {printable(e.sender)}: {printable(e.reason, 300)}")
        elif n == REJECTIONS_SHOWN + 1:
            self.say(f"rejecting more messages from {e.sender} (not shown)")

    def on_refused(self, e: Refused) -> None:
        if self.exit_status is None:  # the refusal of a repeated hello says it again
            if e.reason == CLOSED:
                self.say("the host closed the table")
            else:
                self.say(f"the table refused this node: {printable(e.reason, 300)}")
        self.finish(ExitCode.REFUSED)

    def on_desync(self, e: Desync) -> None:
        hashes = ", ".join(f"seat {seat}: {h[:8].hex()}" for seat, h in e.hashes)
        self.say(f"desync at seq {e.seq}: the seats reached different states ({hashes}); the game halts")
        self.finish(ExitCode.HALTED)

    def on_equivocation(self, e: Equivocation) -> None:
        self.say(f"{self.seat_name(e.seat)} signed two different entries for seq {e.seq}; the game halts "
                 f"(the proof is kept)")
        self.finish(ExitCode.HALTED)

    def on_internal_fault(self, e: InternalFault) -> None:
        where = f"details in {e.log_path}" if e.log_path else e.text
        later = f"; resume it later with: peerboard resume {self.log_path}" if self.log_path else ""
        self.say(f"internal error: the game is paused; {where}{later}")
        self.finish(ExitCode.HALTED)

    def on_game_over(self, e: GameOver) -> None:
        s = self.node.session
        self.say(colour.board(s.game, s.position().state, s.local_seat, self.out))
        won = ", ".join(self.seat_name(w) for w in e.winners) or "nobody"
        scores = "-".join(str(s) for s in e.scores)
        cheats = f"; dishonest: {', '.join(self.seat_name(c) for c in e.cheats)}" if e.cheats else ""
        self.say(f"game over: won by {won}; scores {scores}{cheats}")

    def on_connection(self, e: Connection) -> None:
        c = e.change
        s = self.node.session
        if c.what == "refused":
            self.say(f"the node at {c.addr} refused this node's key: it is not a seat there "
                     f"and not a spectator that node admits")
            if s is None or s.genesis_hash is None or s.local_seat is None:
                self.finish(ExitCode.REFUSED)
        elif c.what == "wrong-key" and c.peer not in self.connected_once and not self._in_game():
            # (in a game a failed handshake is most often a peer dying mid-handshake: not news)
            self.connected_once.add(c.peer)
            self.say(f"the node at {c.addr} does not hold the key {fingerprint(c.peer)} "
                     f"(a wrong key, or not a peerboard node there)")

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
        # bench/bench_latency.py: when each move was submitted and each seq confirmed here
        trace = os.environ.get("PEERBOARD_TRACE")
        self.trace = open(os.path.join(trace, f"{os.getpid()}.trace"), "a") if trace else None

    def on_confirmed(self, e: Confirmed) -> None:
        if self.trace is not None:
            self.trace.write(f"confirmed {e.seq} {time.monotonic()}\n")
            if self.node.finished():
                self.trace.flush()

    def on_your_turn(self, e: YourTurn) -> None:
        seq = self.node.session.log_length

        def decide() -> None:
            s = self.node.session
            if s.log_length != seq or s.decision_kind() != e.kind:
                return  # stale: the game moved on (or halted) since the prompt
            try:
                if self.trace is not None:
                    self.trace.write(f"submit {seq + 1} {time.monotonic()}\n")
                self.node.submit([e.legal[self.rng.randrange(len(e.legal))]])
            except LocalError:
                pass

        self.node.call_later(self.think, decide)


class ConsoleSeat(Seat):
    """A person at a plain line prompt: the board, then the game's notation."""

    def __init__(self, node: Node, stdin_fd: int = 0, **kw):
        super().__init__(node, **kw)
        self.fd = stdin_fd
        self.buffer = b""
        self.turn: YourTurn | None = None
        node.watch_fd(stdin_fd, self._readable)

    def on_game_started(self, e: GameStarted) -> None:
        super().on_game_started(e)
        self.say(HELP)

    def on_your_turn(self, e: YourTurn) -> None:
        self.turn = e
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
        if text == "quit":
            self.say(self.leaving())
            self.node.leave()
            self.finish(ExitCode.DONE)
            return
        if text == "board":
            self.show_board()
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


class StrategySeat(Seat):
    """A bot of the SDK (client/bots) plays the seat: `peerboard bot --strategy NAME` or
    `--exec CMD`. It prints the game like any seat; the bot sees only the seat's view. A
    fault of the bot is one line here and in `faults` (a file the host that started this
    bot shows), and its seat plays on as its `--on-error` says."""

    def __init__(self, node: Node, bot, label: str, seed: str, on_error: str, time_limit: float | None,
                 faults: str | None = None, **kw):
        from peerboard.client.bots.seat import BotSeat

        super().__init__(node, **kw)
        self.faults = faults
        self.player = BotSeat(node, bot, label, seed, on_error, time_limit, report=self.fault)
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

