"""The live game as a GameSource: a thin adapter over the node (node/loop.py) and its
session's read-only surface (spec/protocol.md, "The session's public surface").

The node runs its own loop in a thread of its own; the screen runs prompt-toolkit's loop
in the main thread. They share nothing mutable:
- on the node's thread, the events of one turn of the node's loop are gathered, then one
  immutable Snapshot is built from the session and handed, with the events' alerts, to
  the screen's loop (`call_soon_threadsafe`), which redraws at once;
- the screen's decisions go the other way through a queue and a pipe the node's poll
  watches (`node.watch_fd`), so the node thread wakes at once and calls `node.submit`.
Neither loop polls the other: an idle client sleeps in two polls (the node's wakes every
0.2 s for the session's heartbeats).

`ScreenSeat` is what the LAN commands (client/lan.py) put at a node when a person plays
on a terminal: it takes the node's events from the moment the node is made, keeps what
the command says before the game (how to join this table) for the forming screen, and
`run` shows the game full screen until the person leaves, then prints how it ended and
where its log is. Every exit status is one of client/exitcode.py's.
"""
from __future__ import annotations

import asyncio
import os
import queue
import signal
import sys
import threading
from concurrent.futures import Future
from typing import Any, Callable, Sequence, TextIO

from peerboard.client.exitcode import ExitCode
from peerboard.client.text import printable
from peerboard.client.tui.source import Alert, Changed, FormingLine, MoveLine, SeatLine, Snapshot, SourceEvent, SubmitError
from peerboard.node import loop as node_loop
from peerboard.protocol import session as proto

SUBMIT_WAIT = 5.0  # seconds the screen waits for the node to take a decision
REJECTIONS_SHOWN = 5  # per peer: more are counted, not shown
THEIRS_SHOWN = 8  # the other seats' latest moves said in the status line
SPECTATOR_GRACE = node_loop.SPECTATOR_GRACE


def snapshot_of(node: Any, title: str = "", notes: tuple[str, ...] = ()) -> Snapshot:
    """The game as the session's public surface shows it now (call on the node's thread,
    or before it runs)."""
    s = node.session
    game = s.game
    position = s.position()
    state = position.state if position is not None else None
    scores = game.scores(state) if state is not None else None
    seats = tuple(
        SeatLine(info.index, printable(info.name, 40), info.fingerprint,
                 scores[info.index] if scores is not None and info.index < len(scores) else None,
                 info.connection, info.last_heard, printable(info.address, 80))
        for info in s.seats
    )
    moves = tuple(MoveLine(m.seq, m.seat, "; ".join(m.texts), m.seq <= s.confirmed_seq) for m in s.moves)
    decision = s.decision_kind()
    to_act = position.to_act if position is not None else None
    phase = _phase(s)
    forming = None
    if phase in ("forming", "signing"):
        hosting = s.local_seat == 0
        forming = FormingLine(
            table_id=s.table_id.hex(), players=s.players, private=s.private,
            hosting=hosting, can_remove=hosting and phase == "forming",
            notes=notes, signing=phase == "signing",
        )
    return Snapshot(
        game=game, seq=position.seq if position is not None else 0, state=state, seats=seats,
        local_seat=s.local_seat, to_act=to_act, decision=decision,
        legal=tuple(s.legal_actions()) if decision else (), moves=moves,
        status=_status(s, seats, to_act), over=phase == "over",
        title=title or f"{game.title} · {_seat_title(s)}", forming=forming,
    )


def _seat_title(s: Any) -> str:
    if s.local_seat is None:
        return "watching" if s.genesis_hash is not None else "joining"
    return f"you are seat {s.local_seat}"


def _phase(s: Any) -> str:
    """The session's Phase by its value ("forming", "signing", "playing", "halted", "over")."""
    return s.phase.value


def _status(s: Any, seats: tuple[SeatLine, ...], to_act: tuple[int, str] | None) -> str:
    phase = _phase(s)
    if phase == "forming":
        if not s.players:
            return "Asking the table for a seat …"
        return f"Waiting for players: {len(seats)} of {s.players} seats taken."
    if phase == "signing":
        return "Every seat is there: each signs the start of the game …"
    if phase == "halted":
        return "The game is halted: " + _halt_text(s.halt, seats)
    if phase == "over":
        return "Game over: " + _result_text(s.result, seats)
    if to_act is None:
        return ""
    seat, kind = to_act
    if seat == s.local_seat and kind in ("move", "commit"):
        return "Your secret choice." if kind == "commit" else "Your turn."
    doing = {"move": "to move", "commit": "to choose in secret", "reveal": "to reveal",
             "chance": "to draw", "audit": "to reveal its seed", "result": "to sign the result"}
    return f"Waiting for {_seat_name(seats, seat)} {doing.get(kind, kind)}."


def _seat_name(seats: tuple[SeatLine, ...], seat: int) -> str:
    for line in seats:
        if line.index == seat:
            return f"seat {seat} ({line.name})"
    return f"seat {seat}"


def _result_text(result: Any, seats: tuple[SeatLine, ...]) -> str:
    if result is None:
        return "the result is being signed."
    won = ", ".join(_seat_name(seats, w) for w in result.winners) or "nobody"
    cheats = f"; dishonest: {', '.join(_seat_name(seats, c) for c in result.cheats)}" if result.cheats else ""
    return f"won by {won}; scores {'-'.join(map(str, result.scores))}{cheats}."


def _halt_text(event: Any, seats: tuple[SeatLine, ...]) -> str:
    if isinstance(event, proto.Desync):
        return f"the seats reached different states at seq {event.seq}."
    if isinstance(event, proto.Equivocation):
        return f"{_seat_name(seats, event.seat)} signed two different entries for seq {event.seq}."
    if isinstance(event, proto.InternalFault):
        return _fault_text(event)
    return "see the log file."


def _fault_text(e: Any) -> str:
    where = f"; details in {e.log_path}" if e.log_path else ""
    return f"{printable(e.text, 200)} — our own fault, not a peer's{where}"


class LiveSource:
    """The node's game for the screen. Make it as soon as the node is made (it takes the
    node's events from then on); `prepare` once the node hosted, joined or resumed."""

    def __init__(self, node: Any, title: str = ""):
        self.node = node
        self.title = title
        #: the exit status once something decided it (None: the game goes on)
        self.exit_status: ExitCode | None = None
        #: how it ended, for the lines printed when the screen is gone
        self.ending: list[str] = []
        #: what the command said before the game (how to join this table): the forming screen shows it
        self.notes: tuple[str, ...] = ()
        self.finished = False
        self._snapshot: Snapshot | None = None
        self._listeners: list[Callable[[SourceEvent], None]] = []
        self._post: Callable[[Callable[[], None]], None] | None = None
        self._on_stopped: Callable[[], None] | None = None
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._wake_read, self._wake_write = os.pipe()
        self._rejections: dict[str, int] = {}
        self._theirs: list[tuple[int, str]] = []  # (seat, move) of others since the local seat's last move
        self._alerts_due: list[Alert] = []  # the current loop turn's, published together
        self._publish_due = False
        self._closing = False
        self._alerts = self._alert_table()
        node.on_event = self._on_event
        node.watch_fd(self._wake_read, self._drain)

    def prepare(self) -> None:
        """The first snapshot (the node has a session now; its thread has not started)."""
        self._snapshot = snapshot_of(self.node, self.title, self.notes)

    def say(self, text: str) -> None:
        """A line from the command (client/lan.py): before the game, the forming screen shows
        it; once the screen listens, the status line."""
        self.notes += (printable(text),)
        if self._snapshot is not None:
            self._alerts_due.append(Alert(printable(text)))
            self._schedule_publish()

    def finish(self, status: ExitCode) -> None:
        """Stop the node with `status` (called on the node's thread, by the command's timers)."""
        if self.exit_status is None:
            self.exit_status = status
        self.node.stop()

    # -- GameSource (the screen's thread) -----------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return self._snapshot

    def subscribe(self, listener: Callable[[SourceEvent], None]) -> None:
        """Call from the screen's running loop: events are handed to that loop."""
        loop = asyncio.get_running_loop()
        self._post = loop.call_soon_threadsafe
        self._listeners.append(listener)
        if self._alerts_due:  # what happened before the screen listened: the latest alert
            listener(self._alerts_due[-1])

    def submit(self, actions: Sequence[tuple]) -> None:
        done: Future = Future()
        self._send(("submit", [tuple(a) for a in actions], done))
        try:
            error = done.result(timeout=SUBMIT_WAIT)
        except TimeoutError:
            raise SubmitError("The node did not take the move in time; it is busy or stopped. Try again.") from None
        if error:
            raise SubmitError(error)

    def remove_seat(self, index: int) -> None:
        """The host takes a seat back before the game starts (SubmitError: why it cannot)."""
        done: Future = Future()
        self._send(("remove", index, done))
        try:
            error = done.result(timeout=SUBMIT_WAIT)
        except TimeoutError:
            raise SubmitError("The node did not answer in time; it is busy or stopped. Try again.") from None
        if error:
            raise SubmitError(error)

    def close(self, status: ExitCode = ExitCode.DONE) -> None:
        """The person leaves: a game not over waits for them (`peerboard resume` comes back);
        the node leaves the table cleanly and stops."""
        if not self._closing:
            self._closing = True
            if self.exit_status is None:
                self.exit_status = status
            self._listeners.clear()
            self._send(("stop", None, None))

    def interrupt(self) -> None:
        """Ctrl-C (or a signal): the person leaves a game not over with INTERRUPTED."""
        if self.exit_status is None and not self.finished:
            self.exit_status = ExitCode.INTERRUPTED

    def when_stopped(self, callback: Callable[[], None]) -> None:
        """`callback` runs on the screen's loop when the node's loop has ended."""
        self._on_stopped = callback

    def run_node(self, max_seconds: float | None = None) -> None:
        """The node's loop, until the game is over here or the screen leaves (a thread's target)."""
        try:
            self.finished = self.node.run(self.node.finished, max_seconds)
            if self.finished:
                self._publish()  # the end, on the screen at once
                if not self._closing:
                    self.node.linger(SPECTATOR_GRACE)  # spectators may still be catching up from here
            elif not self._closing and self.exit_status is None and self.node.session.halt is None:
                self.exit_status = ExitCode.GAVE_UP  # nobody stopped it: --max-seconds passed
            if self.node.session.halt is None:
                # whatever ended the run, the others are told at once (as client/lan.py's
                # loop does; a halted node is shown away instead: it comes back with resume)
                self.node.leave()
        finally:
            self.node.unwatch_fd(self._wake_read)
            for fd in (self._wake_read, self._wake_write):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._publish()
            self._tell_stopped()

    # -- the node's thread ---------------------------------------------------------------------------

    def _send(self, item: tuple) -> None:
        self._inbox.put(item)
        try:
            os.write(self._wake_write, b"!")
        except OSError:  # the node has stopped and closed the pipe
            if item[2] is not None:
                item[2].set_result("The game has stopped here.")

    def _drain(self) -> None:
        try:
            os.read(self._wake_read, 4096)
        except OSError:
            pass
        while True:
            try:
                what, value, done = self._inbox.get_nowait()
            except queue.Empty:
                return
            if what == "submit":
                self._answer(done, lambda: self.node.submit(value))
            elif what == "remove":
                self._answer(done, lambda: self.node.remove_seat(value))
            elif what == "stop":
                self.node.stop()  # (the others are told as the run ends)

    def _answer(self, done: Future, work: Callable[[], None]) -> None:
        try:
            work()
            done.set_result("")
        except proto.LocalError as exc:
            done.set_result(str(exc))
        except BaseException:
            done.set_result("That failed here (our own fault); the details are in the game's errors file.")
            raise  # the node keeps the traceback and stops (node/loop.py, "our own faults")
        self._schedule_publish()

    def _on_event(self, event: Any) -> None:
        handler = self._alerts.get(type(event))
        alert = handler(event) if handler is not None else None
        if alert is not None:
            self._alerts_due.append(alert)
        if self._snapshot is not None:
            self._schedule_publish()

    def _schedule_publish(self) -> None:
        """One snapshot for everything one turn of the node's loop brought (a message may
        bring an entry, its confirmation and the next decision at once)."""
        if not self._publish_due:
            self._publish_due = True
            self.node.call_later(0, self._publish)

    def _publish(self) -> None:
        self._publish_due = False
        snapshot = snapshot_of(self.node, self.title, self.notes)
        alerts, self._alerts_due = self._alerts_due, []
        post = self._post
        if post is None:
            self._snapshot = snapshot  # the screen is not listening yet: it reads this first
            if alerts:
                self._alerts_due = alerts[-1:]
            return

        def deliver() -> None:
            self._snapshot = snapshot
            for listener in list(self._listeners):
                for alert in alerts[-1:]:  # the latest says what the screen shows now
                    listener(alert)
                listener(Changed())

        try:
            post(deliver)
        except RuntimeError:
            pass  # the screen's loop has closed: nobody is looking any more

    def _tell_stopped(self) -> None:
        post, callback = self._post, self._on_stopped
        if post is not None and callback is not None:
            try:
                post(callback)
            except RuntimeError:
                pass

    # -- what each event says to a person ---------------------------------------------------------------

    def _alert_table(self) -> dict[type, Callable[[Any], Alert | None]]:
        table: dict[type, Callable[[Any], Alert | None]] = {
            proto.Seated: self._seated,
            proto.GameStarted: lambda e: Alert(self._started()),
            proto.Accepted: self._accepted,
            proto.PeerAway: lambda e: self._while_playing(f"{self._who(e.seat)} is away; the game waits for it."),
            proto.PeerBack: lambda e: self._while_playing(f"{self._who(e.seat)} is back."),
            proto.PeerLeft: lambda e: self._while_playing(f"{self._who(e.seat)} left the table; the game waits "
                                                          f"until it resumes."),
            proto.Desync: self._desync,
            proto.Equivocation: self._equivocation,
            proto.InternalFault: self._fault,
            proto.GameOver: self._game_over,
            proto.Rejected: self._rejected,
            proto.Refused: self._refused,
            node_loop.Notice: lambda e: Alert(printable(e.text)),
            node_loop.LogOpened: lambda e: Alert(f"This game's log: {e.path}"),
            node_loop.Connection: self._connection,
            proto.SeatTaken: self._seat_taken,
            proto.SeatFreed: self._seat_freed,
            proto.PeerMoved: lambda e: Alert(f"{self._who(e.seat)} listens at {printable(e.address, 80)} now."),
        }
        return table

    def _while_playing(self, text: str) -> Alert | None:
        """A peer's coming and going matters while the game goes on; once it is over the
        result stays on the status line (the seats panel still shows who left)."""
        s = self.node.session
        if s is not None and s.phase is proto.Phase.OVER:
            return None
        return Alert(text, "warn")

    def _who(self, seat: int) -> str:
        s = self.node.session
        for info in s.seats if s is not None else ():
            if info.index == seat:
                return f"seat {seat} ({printable(info.name, 40)})"
        return f"seat {seat}"

    def _seated(self, e: Any) -> Alert:
        if e.seat < 0:
            return Alert(f"Watching as a spectator: {e.players} seats.")
        return Alert(f"You have seat {e.seat} of {e.players}; the game starts when every seat is taken.")

    def _started(self) -> str:
        s = self.node.session
        if s.log_length:  # resumed from its log
            again = f"The game goes on from entry {s.log_length}"
            return f"{again}; you are watching." if s.local_seat is None else f"{again}; you are seat {s.local_seat}."
        if s.local_seat is None:
            return "The game has started; you are watching."
        return f"The game has started; you are seat {s.local_seat}."

    def _accepted(self, e: Any) -> Alert | None:
        """The other seats' moves since the local seat's last one, said in the status line
        (the move list has them too)."""
        s = self.node.session
        if e.entry.kind != "move":
            return None
        if e.entry.seat == s.local_seat:
            self._theirs = []
            return None
        for move in reversed(s.moves):
            if move.seq == e.seq:
                self._theirs = (self._theirs + [(move.seat, "; ".join(move.texts))])[-THEIRS_SHOWN:]
                break
        else:
            return None
        said: list[str] = []
        last = None
        for seat, text in self._theirs:
            said.append(text if seat == last else f"{self._who(seat)} played: {text}")
            last = seat
        return Alert("; ".join(said))

    def _seat_taken(self, e: Any) -> Alert | None:
        seat = e.seat
        if seat.connection == "you":
            return None
        where = f" from {printable(seat.address, 80)}" if seat.address else ""
        return Alert(f"Seat {seat.index} taken by {printable(seat.name, 40)} ({seat.fingerprint}){where}.")

    def _seat_freed(self, e: Any) -> Alert:
        why = {"left": "it left", "silent": "it fell silent", "removed": "the host removed it"}.get(e.why, printable(e.why))
        return Alert(f"Seat {e.index} ({printable(e.name, 40)}, {e.fingerprint}) is free again: {why}.", "warn")

    def _game_over(self, e: Any) -> Alert:
        s = self.node.session
        seats = tuple(SeatLine(i.index, printable(i.name, 40), i.fingerprint, None, i.connection, None)
                      for i in s.seats)
        text = "Game over: " + _result_text(e, seats)
        self.ending = [text]
        return Alert(text + " F10 leaves.")

    def _desync(self, e: Any) -> Alert:
        return self._halted(f"Desync at seq {e.seq}: the seats reached different states; the game halts.")

    def _equivocation(self, e: Any) -> Alert:
        return self._halted(f"{self._who(e.seat)} signed two different entries for seq {e.seq}; the game halts "
                            f"(the proof is kept).")

    def _fault(self, e: Any) -> Alert:
        # the node stops itself: everything stored stays, and resume goes on from it
        return self._halted(f"The game is paused here: {_fault_text(e)}.")

    def _halted(self, text: str) -> Alert:
        if self.exit_status is None:
            self.exit_status = ExitCode.HALTED
        self.ending = [text]
        self.node.stop()
        return Alert(text, "error")

    def _rejected(self, e: Any) -> Alert | None:
        sender = printable(e.sender, 20)
        n = self._rejections[sender] = self._rejections.get(sender, 0) + 1
        if n > REJECTIONS_SHOWN:
            return None
        return Alert(f"Rejected a message from {sender}: {printable(e.reason, 120)}", "warn")

    def _refused(self, e: Any) -> Alert:
        text = f"The table refused this node: {printable(e.reason, 120)}"
        if self.exit_status is None:
            self.exit_status = ExitCode.REFUSED
            self.ending = [text]
        self.node.stop()
        return Alert(text, "error")

    def _connection(self, e: Any) -> Alert | None:
        c = e.change
        s = self.node.session
        if c.what != "refused":
            return None
        text = (f"The node at {printable(c.addr, 80)} refused this node's key: it is not a seat there and not a "
                f"spectator it admits.")
        if s is None or s.genesis_hash is None or s.local_seat is None:
            if self.exit_status is None:
                self.exit_status = ExitCode.REFUSED
                self.ending = [text]
            self.node.stop()
        return Alert(text, "error")


class ScreenSeat:
    """The full-screen client at a node, for the LAN commands (client/lan.py): make it right
    after the node (before it hosts, joins or resumes), then `run` it."""

    def __init__(self, node: Any, title: str = "", out: TextIO | None = None):
        self.node = node
        self.out = out or sys.stdout
        self.source = LiveSource(node, title)
        self.interrupted = False
        self.ended = False  # the screen has closed

    @property
    def log_path(self):
        return self.node.log_path

    @property
    def exit_status(self) -> ExitCode | None:
        return self.source.exit_status

    def say(self, text: str) -> None:
        """Before and during the screen: the forming screen and the status line show it;
        once the screen is gone: a line on the terminal."""
        if self.ended:
            print(text, file=self.out, flush=True)
        else:
            self.source.say(text)

    def finish(self, status: ExitCode) -> None:
        self.source.finish(status)

    def run(self, max_seconds: float | None = None, input=None, output=None) -> ExitCode:
        """The game full screen until the person leaves; then how it ended, on the terminal."""
        status = run_game(self.node, source=self.source, input=input, output=output, max_seconds=max_seconds)
        self.ended = True
        for line in self.ending_lines(status):
            print(line, file=self.out, flush=True)
        return status

    def ending_lines(self, status: ExitCode) -> list[str]:
        """What stays on the terminal when the screen is gone: how the game ended and its log."""
        source, path = self.source, self.node.log_path
        lines = list(source.ending)
        if status in (ExitCode.DONE, ExitCode.INTERRUPTED) and not source.finished and not lines:
            if path is None:
                lines.append("You left the table before the game started.")
            else:
                lines.append(f"You left the game; it waits for you. Come back to it with: peerboard resume {path}")
        elif status is ExitCode.GAVE_UP:
            lines.append(f"Gave up (--max-seconds); the game is not over."
                         + (f" Come back to it with: peerboard resume {path}" if path is not None else ""))
        elif status is ExitCode.HALTED and path is not None:
            lines.append(f"Everything stored is kept; resume it with: peerboard resume {path}")
        if path is not None and (source.finished or status is ExitCode.HALTED):
            lines.append(f"The game's log: {path} (check it with: peerboard replay {path} --verify)")
        return lines


def run_game(node: Any, title: str = "", input=None, output=None, max_seconds: float | None = None,
             source: LiveSource | None = None) -> ExitCode:
    """The full-screen game in front of a node that has hosted, joined or resumed a table:
    the node runs in a thread, the screen in this one, until the person quits (a game not
    over waits for them; `peerboard resume` brings them back). Returns the exit status:
    DONE (over, or left with F10), INTERRUPTED (Ctrl-C, SIGTERM), HALTED, REFUSED, GAVE_UP."""
    from peerboard.client.tui.app import build, run_screen
    from peerboard.client.tui.game_presenter import GamePresenter

    source = source or LiveSource(node, title)
    source.prepare()
    presenter = GamePresenter(source)
    app, _ = build(presenter, input=input, output=output)

    def interrupted() -> None:  # Ctrl-C, or SIGINT/SIGTERM from outside
        source.interrupt()
        presenter.quit()

    def stopped() -> None:
        """The node's loop ended: a game over or halted stays on screen until the person
        leaves; anything else (refused, no answer, --max-seconds) ends the screen."""
        snap = source.snapshot()
        if presenter.closed:
            return
        if snap.state is not None and (source.finished or source.exit_status is ExitCode.HALTED):
            presenter.redraw()
        else:
            presenter.leave()

    presenter.interrupt = interrupted
    source.when_stopped(stopped)
    thread = threading.Thread(target=source.run_node, args=(max_seconds,), name="peerboard-node", daemon=True)

    def pre_run() -> None:
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGTERM, interrupted)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread (tests): Ctrl-C still comes as a key
        presenter.start()
        thread.start()

    try:
        run_screen(app, presenter, pre_run, lambda: node.log_path)
    finally:
        source.close(ExitCode.DONE)
        if thread.is_alive():
            thread.join(timeout=SUBMIT_WAIT)
    return source.exit_status if source.exit_status is not None else ExitCode.DONE


__all__ = ["LiveSource", "ScreenSeat", "run_game", "snapshot_of"]
