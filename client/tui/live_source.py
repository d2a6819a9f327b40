"""The live game as a GameSource: a thin adapter over the node (node/loop.py) and its
session's read-only surface (spec/protocol.md, "The session's public surface").

The node runs its own loop in a thread of its own; the screen runs prompt-toolkit's loop
in the main thread. They share nothing mutable:
- on the node's thread, the events of one turn of the node's loop are gathered, then one
  immutable Snapshot is built from the session (client/tui/live_snapshot.py) and handed,
  with the events' alerts, to the screen's loop (`call_soon_threadsafe`), which redraws at
  once;
- the screen's decisions go the other way through a queue and a pipe the node's poll
  watches (`node.watch_fd`), so the node thread wakes at once and calls `node.submit`.
Neither loop polls the other: an idle client sleeps in two polls (the node's wakes every
0.2 s for the session's heartbeats). What an event says is client/event_words.py's; this
adapter only decides which events the status line shows, and which end the game here.
"""
from __future__ import annotations

import asyncio
import os
import queue
from concurrent.futures import Future
from typing import Any, Callable, Sequence

from peerboard.client.event_words import Rejections, Words, chat_words, played, said
from peerboard.client.exitcode import ExitCode
from peerboard.client.text import printable
from peerboard.client.tui.live_snapshot import MoveLines, snapshot_of
from peerboard.client.tui.source import Alert, Changed, Snapshot, SourceEvent, SubmitError
from peerboard.node import loop as node_loop
from peerboard.protocol.session import session as proto

SUBMIT_WAIT = 5.0  # seconds the screen waits for the node to take a decision
THEIRS_SHOWN = 8  # the other seats' latest moves said in the status line
CHAT_SHOWN = 4  # the latest lines said at the table, shown above the input line
SPECTATOR_GRACE = node_loop.SPECTATOR_GRACE
#: a peer's coming and going: news while the game goes on (once it is over the result stays
#: on the status line, and the seats panel still shows who left)
COMINGS_AND_GOINGS = (proto.PeerAway, proto.PeerBack, proto.PeerLeft)


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
        self._theirs: list[tuple[int, str]] = []  # (seat, move) of others since the local seat's last move
        self._alerts_due: list[Alert] = []  # the current loop turn's, published together
        self._publish_due = False
        self._closing = False
        self._rejections = Rejections()
        self._chat: tuple[str, ...] = ()  # the latest lines said at the table, in words
        self._lines = MoveLines()  # the move list, kept between snapshots
        self._after: dict[type, Callable[[Any, Words], Alert | None]] = {
            proto.GameOver: self._game_over, proto.Desync: self._halted, proto.Equivocation: self._halted,
            proto.InternalFault: self._halted, proto.Refused: self._refused, node_loop.Connection: self._connection,
        }
        node.on_event = self._on_event
        node.rematch_policy = "person"  # (at the end, the others wait a while for this person's answer)
        node.watch_fd(self._wake_read, self._drain)

    def prepare(self) -> None:
        """The first snapshot (the node has a session now; its thread has not started)."""
        self._snapshot = snapshot_of(self.node, self.title, self.notes, self._chat, self._lines)

    def say(self, text: str) -> None:
        """A line from the command (client/lan): before the game, the forming screen shows
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
        self._ask("submit", [tuple(a) for a in actions], "take the move")

    def chat(self, text: str) -> None:
        self._ask("chat", text, "take the line")

    def rematch(self, answer: str) -> None:
        self._ask("rematch", answer, "take the answer")

    def resign(self) -> None:
        """The local seat resigns (SubmitError: why it cannot)."""
        self._ask("resign", None, "resign")

    def offer(self, how: str) -> None:
        """Offer (or accept) a draw or an abort (SubmitError: why not)."""
        self._ask("offer", how, "offer it")

    def decline(self, how: str) -> None:
        self._ask("decline", how, "decline it")

    def offers(self) -> tuple:
        s = self.node.session
        return s.offers if s is not None else ()

    def claim(self, seat: int) -> None:
        """The local seat claims seat `seat`, away too long (SubmitError: why it cannot)."""
        self._ask("claim", seat, "claim the seat")

    def remove_seat(self, index: int) -> None:
        """The host takes a seat back before the game starts (SubmitError: why it cannot)."""
        self._ask("remove", index, "answer")

    def _ask(self, what: str, value: Any, doing: str) -> None:
        """Hand `what` to the node's thread and wait for its answer (SubmitError: why not)."""
        done: Future = Future()
        self._send((what, value, done))
        try:
            error = done.result(timeout=SUBMIT_WAIT)
        except TimeoutError:
            raise SubmitError(f"The node did not {doing} in time; it is busy or stopped. Try again.") from None
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
            # (over and acknowledged, even if the person left while a rematch could still come)
            self.finished = self.node.run(self.node.finished, max_seconds) or self.node.settled()
            if self.finished:
                self._publish()  # the end, on the screen at once
                if not self._closing:
                    # spectators may still be catching up from here; a seat this node claimed is
                    # served while the screen is open, to learn it at once if it comes back
                    self.node.linger(SPECTATOR_GRACE, hold=True)
            elif not self._closing and self.exit_status is None and self.node.session.halt is None:
                self.exit_status = ExitCode.GAVE_UP  # nobody stopped it: --max-seconds passed
            if self.node.session.halt is None:
                # whatever ended the run, the others are told at once (as client/lan/running.py's
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
            elif what == "rematch":
                self._answer(done, lambda: self.node.rematch(value))
            elif what == "chat":
                self._answer(done, lambda: self.node.say(value))
            elif what == "resign":
                self._answer(done, self.node.resign)
            elif what == "offer":
                self._answer(done, lambda: self.node.offer(value))
            elif what == "decline":
                self._answer(done, lambda: self.node.decline(value))
            elif what == "claim":
                self._answer(done, lambda: self.node.claim(value))
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
        if isinstance(event, proto.Chatted):
            words = chat_words(self.node.session, event.line, event.seat, event.mine)
            self._chat = (self._chat + (words,))[-CHAT_SHOWN:]
        alert = self._alert(event)
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
        snapshot = snapshot_of(self.node, self.title, self.notes, self._chat, self._lines)
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

    # -- which events the status line shows, and which end the game here ------------------------------

    def _alert(self, event: Any) -> Alert | None:
        s = self.node.session
        if isinstance(event, proto.Accepted):
            return self._accepted(event)
        if (isinstance(event, COMINGS_AND_GOINGS) and s is not None and s.phase is proto.Phase.OVER
                and not (isinstance(event, proto.PeerLeft) and s.local_seat is not None and s.rematch_state.offered)):
            return None  # (but a seat leaving ends a rematch offered: that is news)
        if isinstance(event, node_loop.Connection) and event.change.what != "refused":
            return None  # (a handshake that failed is retried; the seats panel shows the connection)
        words = self._rejections.words(event) if isinstance(event, proto.Rejected) else said(event, s)
        if words is None:
            return None
        after = self._after.get(type(event))
        return after(event, words) if after is not None else Alert(words.text, words.kind)

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
        said_: list[str] = []
        last = None
        for seat, text in self._theirs:
            said_.append(printable(text) if seat == last else played(s, seat, text))
            last = seat
        return Alert("; ".join(said_), newest_last=True)

    def _game_over(self, e: Any, words: Words) -> Alert:
        self.ending = [words.text]
        return Alert(words.text + " F10 leaves.")

    def _halted(self, e: Any, words: Words) -> Alert:
        # the node stops itself: everything stored stays, and resume goes on from it
        return self._stop_with(ExitCode.HALTED, words)

    def _refused(self, e: Any, words: Words) -> Alert:
        if getattr(e, "again", 0):  # refused for now: the node asks again
            return Alert(words.text, words.kind)
        return self._stop_with(ExitCode.REFUSED, words)

    def _stop_with(self, status: ExitCode, words: Words) -> Alert:
        """The game ends here: the first such event sets the exit status; a halt is what
        stays on the terminal whatever came before it."""
        first = self.exit_status is None
        if first:
            self.exit_status = status
        if first or status is ExitCode.HALTED:
            self.ending = [words.text]
        self.node.stop()
        return Alert(words.text, words.kind)

    def _connection(self, e: Any, words: Words) -> Alert:
        """A node that refused this one's key ends it here unless it is a seat of a game."""
        s = self.node.session
        if s is None or s.genesis_hash is None or s.local_seat is None:
            return self._refused(e, words)
        return Alert(words.text, words.kind)
