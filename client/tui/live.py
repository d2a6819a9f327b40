"""The live game as a GameSource: a thin adapter over the node and its session's read-only
surface (spec/protocol.md, "The session's public surface"; the names are those of the
core API: session.position(), legal_actions(), decision_kind(), seats, moves, phase ...).

The node runs its own loop in a thread of its own; the screen runs prompt-toolkit's loop.
They share nothing mutable:
- on the node's thread, every event from the node builds an immutable Snapshot from the
  session and hands it, with the event's Alert, to the screen's loop
  (`call_soon_threadsafe`), which redraws at once;
- the screen's decisions go the other way through a queue and a pipe the node's poll
  watches (`node.watch_fd`), so the node thread wakes at once and calls `node.submit`.
Neither loop ever polls the other: an idle client sleeps in two polls.
"""
from __future__ import annotations

import asyncio
import os
import queue
import threading
from concurrent.futures import Future
from typing import Any, Callable, Sequence

from client.text import printable
from client.tui.source import Alert, Changed, MoveLine, SeatLine, Snapshot, SourceEvent, SubmitError
from node import loop as node_loop
from protocol import session as proto

EXIT_DONE, EXIT_HALTED, EXIT_REFUSED = 0, 1, 2
SUBMIT_WAIT = 5.0  # seconds the screen waits for the node to take a decision
REJECTIONS_SHOWN = 5  # per peer: more are counted, not shown


def snapshot_of(node: Any, title: str = "") -> Snapshot:
    """The game as the session's public surface shows it now (call on the node's thread)."""
    s = node.session
    game = s.game
    position = s.position()
    state = position.state if position is not None else None
    scores = game.scores(state) if state is not None else None
    seats = tuple(
        SeatLine(info.index, printable(info.name, 40), info.fingerprint,
                 scores[info.index] if scores is not None and info.index < len(scores) else None,
                 info.connection, info.last_heard)
        for info in s.seats
    )
    moves = tuple(MoveLine(m.seq, m.seat, "; ".join(m.texts), m.confirmed) for m in s.moves)
    decision = s.decision_kind()
    to_act = position.to_act if position is not None else None
    return Snapshot(
        game=game, seq=position.seq if position is not None else 0, state=state, seats=seats,
        local_seat=s.local_seat, to_act=to_act, decision=decision,
        legal=tuple(s.legal_actions()) if decision else (), moves=moves,
        status=_status(s, seats, to_act), over=_phase(s) == "over",
        title=title or f"{game.title} · {_seat_title(s)}",
    )


def _seat_title(s: Any) -> str:
    return "watching" if s.local_seat is None else f"seat {s.local_seat}"


def _phase(s: Any) -> str:
    """The session's Phase by its value ("forming", "signing", "playing", "halted", "over")."""
    return getattr(s.phase, "value", s.phase)


def _status(s: Any, seats: tuple[SeatLine, ...], to_act: tuple[int, str] | None) -> str:
    phase = _phase(s)
    if phase == "forming":
        return f"The table is forming: {len(seats)} of {s.players or '?'} seats taken."
    if phase == "signing":
        return "Every seat is signing the start of the game."
    if phase == "halted":
        return "The game is halted: " + _halt_text(s.halt, seats)
    if phase == "over":
        return "Game over: " + _result_text(s.result, seats)
    if to_act is None:
        return ""
    seat, kind = to_act
    who = _seat_name(seats, seat)
    if seat == s.local_seat and kind in ("move", "commit"):
        return "your secret choice" if kind == "commit" else "your turn"
    doing = {"move": "to move", "commit": "to choose in secret", "reveal": "to reveal",
             "chance": "to draw", "audit": "to reveal its seed", "result": "to sign the result"}
    return f"{who} {doing.get(kind, kind)}"


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
    return f"won by {won}; scores {'-'.join(map(str, result.scores))}{cheats}"


def _halt_text(event: Any, seats: tuple[SeatLine, ...]) -> str:
    if isinstance(event, proto.Desync):
        return f"the seats reached different states at seq {event.seq}."
    if isinstance(event, proto.Equivocation):
        return f"{_seat_name(seats, event.seat)} signed two different entries for seq {event.seq}."
    return printable(getattr(event, "text", "")) or "see the log file."


class LiveSource:
    """The node's game for the screen. Build it before the node thread starts."""

    def __init__(self, node: Any, title: str = ""):
        self.node = node
        self.title = title
        self.exit_status = EXIT_DONE
        self._snapshot = snapshot_of(node, title)
        self._listeners: list[Callable[[SourceEvent], None]] = []
        self._post: Callable[[Callable[[], None]], None] | None = None
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._wake_read, self._wake_write = os.pipe()
        self._rejections: dict[str, int] = {}
        self._closed = False
        self._alerts = self._alert_table()
        node.on_event = self._on_event
        node.watch_fd(self._wake_read, self._drain)

    # -- GameSource (the screen's thread) -----------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return self._snapshot

    def subscribe(self, listener: Callable[[SourceEvent], None]) -> None:
        """Call from the screen's running loop: events are handed to that loop."""
        loop = asyncio.get_running_loop()
        self._post = loop.call_soon_threadsafe
        self._listeners.append(listener)

    def submit(self, actions: Sequence[tuple]) -> None:
        done: Future = Future()
        self._send(("submit", [tuple(a) for a in actions], done))
        try:
            error = done.result(timeout=SUBMIT_WAIT)
        except TimeoutError:
            raise SubmitError("The node did not take the move in time; it is busy or stopped. Try again.") from None
        if error:
            raise SubmitError(error)

    def close(self) -> None:
        """Leave the table (the game waits; `peerboard resume` comes back) and stop the node."""
        if not self._closed:
            self._closed = True
            self._listeners.clear()
            self._send(("leave", None, None))

    def run_node(self, max_seconds: float | None = None) -> None:
        """The node's loop, until the game is over here or the screen leaves (a thread's target)."""
        try:
            self.node.run(self.node.finished, max_seconds)
        finally:
            for fd in (self._wake_read, self._wake_write):
                try:
                    os.close(fd)
                except OSError:
                    pass

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
                what, actions, done = self._inbox.get_nowait()
            except queue.Empty:
                return
            if what == "submit":
                try:
                    self.node.submit(actions)
                    done.set_result("")
                except proto.LocalError as exc:
                    done.set_result(str(exc))
                self._publish(None)
            elif what == "leave":
                self.node.leave()
                self.node.stop()

    def _on_event(self, event: Any) -> None:
        handler = self._alerts.get(type(event))
        alert = handler(event) if handler is not None else None
        self._publish(alert)

    def _publish(self, alert: Alert | None) -> None:
        snapshot = snapshot_of(self.node, self.title)
        post = self._post
        if post is None:
            self._snapshot = snapshot  # the screen is not listening yet: it reads this first
            return

        def deliver() -> None:
            self._snapshot = snapshot
            for listener in list(self._listeners):
                if alert is not None:
                    listener(alert)
                listener(Changed())

        try:
            post(deliver)
        except RuntimeError:
            pass  # the screen's loop has closed: nobody is looking any more

    # -- what each event says to a person ---------------------------------------------------------------

    def _alert_table(self) -> dict[type, Callable[[Any], Alert | None]]:
        table: dict[type, Callable[[Any], Alert | None]] = {
            proto.PeerAway: lambda e: Alert(f"{self._who(e.seat)} is away; the game waits for it.", "warn"),
            proto.PeerBack: lambda e: Alert(f"{self._who(e.seat)} is back."),
            proto.PeerLeft: lambda e: Alert(f"{self._who(e.seat)} left the table; the game waits until it resumes.",
                                            "warn"),
            proto.Desync: self._desync,
            proto.Equivocation: self._equivocation,
            proto.GameOver: lambda e: Alert("Game over: " + _result_text(e, self._snapshot.seats)),
            proto.Rejected: self._rejected,
            proto.Refused: self._refused,
            proto.GameStarted: lambda e: Alert("The game has started."),
            node_loop.Notice: lambda e: Alert(printable(e.text)),
            node_loop.LogOpened: lambda e: Alert(f"This game's log: {e.path}"),
        }
        fault = getattr(proto, "InternalFault", None)  # the core API's name for our own bug
        if fault is not None:
            table[fault] = self._fault
        return table

    def _who(self, seat: int) -> str:
        return _seat_name(self._snapshot.seats, seat)

    def _desync(self, e: Any) -> Alert:
        self.exit_status = EXIT_HALTED
        return Alert(f"Desync at seq {e.seq}: the seats reached different states; the game halts.", "error")

    def _equivocation(self, e: Any) -> Alert:
        self.exit_status = EXIT_HALTED
        return Alert(f"{self._who(e.seat)} signed two different entries for seq {e.seq}; the game halts "
                     f"(the proof is kept).", "error")

    def _rejected(self, e: Any) -> Alert | None:
        sender = printable(e.sender, 20)
        n = self._rejections[sender] = self._rejections.get(sender, 0) + 1
        if n > REJECTIONS_SHOWN:
            return None
        return Alert(f"Rejected a message from {sender}: {printable(e.reason, 120)}", "warn")

    def _refused(self, e: Any) -> Alert:
        self.exit_status = EXIT_REFUSED
        return Alert(f"The table refused this node: {printable(e.reason, 120)}", "error")

    def _fault(self, e: Any) -> Alert:
        self.exit_status = EXIT_HALTED
        return Alert(f"{printable(e.text, 120)} (our own fault; the details are in {e.log_path})", "error")


def run_game(node: Any, title: str = "", input=None, output=None, max_seconds: float | None = None) -> int:
    """The full-screen game in front of a node that has hosted, joined or resumed a table:
    the node runs in a thread, the screen in this one, until the person quits (the game
    waits for them; `peerboard resume` brings them back). Returns the exit status."""
    from client.tui.app import build
    from client.tui.game_presenter import GamePresenter

    source = LiveSource(node, title)
    presenter = GamePresenter(source)
    app, _ = build(presenter, input=input, output=output)
    thread = threading.Thread(target=source.run_node, args=(max_seconds,), name="peerboard-node", daemon=True)
    thread.start()
    try:
        app.run(pre_run=presenter.start)
    finally:
        source.close()
        thread.join(timeout=SUBMIT_WAIT)
    return source.exit_status


__all__ = ["LiveSource", "run_game", "snapshot_of"]
