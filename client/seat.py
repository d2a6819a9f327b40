"""Who sits at a node: the line-based console a person plays with (until the terminal
client lands) and the built-in random player of `--headless`; both print what happens.

The console never blocks the node: it reads stdin only when the node's poll says a line
is there, and every mistake in what was typed is one line saying what is allowed.
"""
from __future__ import annotations

import os
import random
import sys
import time
from typing import TextIO

from client import colour
from engines import IllegalAction
from node.loop import Connection, LogOpened, Node, Notice
from protocol.identity import fingerprint
from protocol.session import (
    Accepted, Confirmed, Desync, Equivocation, Event, GameOver, GameStarted, LocalError, PeerAway, PeerBack,
    PeerLeft, Refused, Rejected, Seated, YourTurn,
)

EXIT_DONE, EXIT_HALTED, EXIT_REFUSED = 0, 1, 2
REJECTIONS_SHOWN = 5  # per peer; more are counted, not printed
HELP = ("Type a move in the game's notation, `help` for the legal moves, `board` to see the board, "
        "`quit` to leave (resume later with peerboard resume FILE).")


class Seat:
    """Prints the game as it happens and decides for the local seat; subclasses decide how."""

    def __init__(self, node: Node, out: TextIO = sys.stdout, verbose: bool = True):
        self.node = node
        self.out = out
        self.verbose = verbose
        self.exit_status: int | None = None
        self.interrupted = False  # stopped by a signal: leave cleanly
        self.log_path = None
        self.rejections: dict[str, int] = {}
        self.connected_once: set[bytes] = set()
        node.on_event = self.on_event

    # -- what happens ------------------------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def seat_name(self, seat: int) -> str:
        s = self.node.session
        if s is not None and s.genesis is not None and 0 <= seat < len(s.genesis.genesis.seats):
            info = s.genesis.genesis.seats[seat]
            return f"seat {seat} ({info.name}, {fingerprint(info.key)})"
        return f"seat {seat}"

    def on_event(self, event: Event) -> None:
        handler = getattr(self, "on_" + type(event).__name__, None)
        if handler is not None:
            handler(event)

    def on_Notice(self, e: Notice) -> None:
        self.say(e.text)

    def on_LogOpened(self, e: LogOpened) -> None:
        self.log_path = e.path
        self.say(f"log: {e.path}")

    def on_Seated(self, e: Seated) -> None:
        self.say("watching as a spectator" if e.seat < 0 else f"seated: seat {e.seat} of {e.players}")

    def on_GameStarted(self, e: GameStarted) -> None:
        g = e.genesis.genesis
        seats = ", ".join(f"{i}:{s.name} ({fingerprint(s.key)})" for i, s in enumerate(g.seats))
        self.say(f"game started: {g.game}, seats {seats}")

    def on_Accepted(self, e: Accepted) -> None:
        if not self.verbose or e.entry.kind != "move":
            return
        chain = self.node.session.chain
        moves = "; ".join(chain.game.format_action(chain.state, tuple(a)) for a in e.entry.body["actions"])
        who = "you" if e.entry.seat == self.node.session.seat else self.seat_name(e.entry.seat)
        self.say(f"{e.seq}: {who}: {moves}")

    def on_PeerAway(self, e: PeerAway) -> None:
        self.say(f"{self.seat_name(e.seat)} is away; the game waits for it")

    def on_PeerBack(self, e: PeerBack) -> None:
        self.say(f"{self.seat_name(e.seat)} is back")

    def on_PeerLeft(self, e: PeerLeft) -> None:
        self.say(f"{self.seat_name(e.seat)} left the table; the game waits until it resumes")

    def on_Rejected(self, e: Rejected) -> None:
        n = self.rejections[e.sender] = self.rejections.get(e.sender, 0) + 1
        if n <= REJECTIONS_SHOWN:
            self.say(f"rejected a message from {e.sender}: {e.reason}")
        elif n == REJECTIONS_SHOWN + 1:
            self.say(f"rejecting more messages from {e.sender} (not shown)")

    def on_Refused(self, e: Refused) -> None:
        if self.exit_status is None:  # the refusal of a repeated hello says it again
            self.say(f"the table refused this node: {e.reason}")
        self.finish(EXIT_REFUSED)

    def on_Desync(self, e: Desync) -> None:
        hashes = ", ".join(f"seat {seat}: {h[:8].hex()}" for seat, h in e.hashes)
        self.say(f"desync at seq {e.seq}: the seats reached different states ({hashes}); the game halts")
        self.finish(EXIT_HALTED)

    def on_Equivocation(self, e: Equivocation) -> None:
        self.say(f"{self.seat_name(e.seat)} signed two different entries for seq {e.seq}; the game halts "
                 f"(the proof is kept)")
        self.finish(EXIT_HALTED)

    def on_GameOver(self, e: GameOver) -> None:
        chain = self.node.session.chain
        self.say(colour.board(chain.game, chain.state, self.node.session.seat, self.out))
        won = ", ".join(self.seat_name(w) for w in e.winners) or "nobody"
        scores = "-".join(str(s) for s in e.scores)
        cheats = f"; dishonest: {', '.join(self.seat_name(c) for c in e.cheats)}" if e.cheats else ""
        self.say(f"game over: won by {won}; scores {scores}{cheats}")

    def on_Connection(self, e: Connection) -> None:
        c = e.change
        if c.what == "refused":
            self.say(f"the node at {c.addr} refused this node's key: it is not a seat there "
                     f"and not a spectator that node admits")
            if self.node.session is None or self.node.session.genesis is None or self.node.session.seat is None:
                self.finish(EXIT_REFUSED)
        elif c.what == "wrong-key" and c.peer not in self.connected_once and not self._in_game():
            # (in a game a failed handshake is most often a peer dying mid-handshake: not news)
            self.connected_once.add(c.peer)
            self.say(f"the node at {c.addr} does not hold the key {fingerprint(c.peer)} "
                     f"(a wrong key, or not a peerboard node there)")

    def on_YourTurn(self, e: YourTurn) -> None:
        pass

    def _in_game(self) -> bool:
        return self.node.session is not None and self.node.session.genesis is not None

    def finish(self, status: int) -> None:
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

    def on_Confirmed(self, e: Confirmed) -> None:
        if self.trace is not None:
            self.trace.write(f"confirmed {e.seq} {time.monotonic()}\n")
            if self.node.finished():
                self.trace.flush()

    def on_YourTurn(self, e: YourTurn) -> None:
        seq = self.node.session.chain.next_seq

        def decide() -> None:
            chain = self.node.session.chain
            if chain is None or chain.next_seq != seq or self.node.session.halted is not None:
                return  # stale: the game moved on (or halted) since the prompt
            try:
                if self.trace is not None:
                    self.trace.write(f"submit {seq} {time.monotonic()}\n")
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

    def on_GameStarted(self, e: GameStarted) -> None:
        super().on_GameStarted(e)
        self.say(HELP)

    def on_YourTurn(self, e: YourTurn) -> None:
        self.turn = e
        self.show_board()
        what = "your secret choice" if e.kind == "commit" else "your move"
        self.say(f"seat {e.seat}, {what} ({len(e.legal)} legal; `help` lists them):")

    def show_board(self) -> None:
        s = self.node.session
        if s is not None and s.chain is not None:
            self.say(colour.board(s.chain.game, s.chain.state, s.seat, self.out))

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 4096)
        except OSError:
            data = b""
        if not data:
            self.node.unwatch_fd(self.fd)
            self.say("input closed: leaving the game" + self._resume_hint())
            self.node.leave()
            self.finish(EXIT_DONE)
            return
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.handle(line.decode("utf-8", "replace").strip())

    def _resume_hint(self) -> str:
        return f" (resume it with: peerboard resume {self.log_path})" if self.log_path else ""

    def handle(self, text: str) -> None:
        if not text:
            return
        s = self.node.session
        if text == "quit":
            self.say("leaving the game" + self._resume_hint())
            self.node.leave()
            self.finish(EXIT_DONE)
            return
        if text == "board":
            self.show_board()
            return
        turn = self.turn
        waiting = s is None or s.chain is None or turn is None or s.chain.entitled() != (s.seat, turn.kind)
        if text == "help":
            self.say(HELP)
            if not waiting:
                game, state = s.chain.game, s.chain.state
                names = [game.format_action(state, a) for a in turn.legal]
                shown = ", ".join(names[:80]) + (f", … ({len(names)} in all)" if len(names) > 80 else "")
                self.say(f"legal now: {shown}")
            return
        if waiting:
            self.say("It is not your turn; wait for the others (type `help` for the commands).")
            return
        game, state = s.chain.game, s.chain.state
        try:
            action = tuple(game.parse_action(state, text))
        except IllegalAction as exc:
            self.say(f"{exc} ({'type `help` for the legal moves'})")
            return
        if action not in turn.legal:
            self.say(f"{text!r} is not legal now; type `help` for the legal moves.")
            return
        try:
            self.node.submit([action])
        except LocalError as exc:
            self.say(str(exc))
