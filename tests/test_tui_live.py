"""The live adapter (client/tui/live.py) in front of a stand-in node that offers exactly the
read-only surface the core API names (API.md: session.position(), legal_actions(),
decision_kind(), seats, moves, phase; node.run/submit/leave/stop/watch_fd): the node runs
its loop in its own thread, as in `peerboard play`, and the screen in the test's loop.

The real node and session take this stand-in's place once the core work lands; until then
this checks the adapter's threading, its snapshots and what each event says."""
import enum
import os
import random
import select
import threading
import time
from dataclasses import dataclass

import engines

from client.tui.game_presenter import GamePresenter
from client.tui.live import LiveSource
from protocol import session as proto
from tui_harness import KEYS, Screen, run


class Phase(enum.Enum):
    FORMING = "forming"
    SIGNING = "signing"
    PLAYING = "playing"
    HALTED = "halted"
    OVER = "over"


@dataclass(frozen=True)
class SeatInfo:
    index: int
    name: str
    fingerprint: str
    key: bytes
    connection: str
    last_heard: float | None


@dataclass(frozen=True)
class MoveRecord:
    seq: int
    seat: int
    actions: tuple
    texts: tuple
    confirmed: bool


@dataclass(frozen=True)
class Position:
    seq: int
    state: object
    to_act: tuple | None


class StandInSession:
    """Athos between the local seat 0 and a random seat 1, on the API's read-only surface."""

    def __init__(self, peer_name: str):
        self.game = engines.get("athos")
        self.state = self.game.new_game(2)
        self.local_seat = 0
        self.players = 2
        self.phase = Phase.PLAYING
        self.moves: tuple = ()
        self.result = None
        self.halt = None
        self.names = ("me", peer_name)
        self.away = False
        self.rng = random.Random(2)

    @property
    def seats(self):
        return tuple(SeatInfo(i, n, f"fp{i}-xxxx", bytes(32), "you" if i == 0 else ("away" if self.away else "connected"),
                              None if i == 0 else time.monotonic()) for i, n in enumerate(self.names))

    def position(self, confirmed: bool = False):
        seat = self.game.current(self.state)
        return Position(len(self.moves), self.state, (seat, "move"))

    def decision_kind(self):
        return "move" if self.game.current(self.state) == self.local_seat else None

    def legal_actions(self):
        return tuple(self.game.legal_actions(self.state)) if self.decision_kind() else ()

    def play(self, seat: int, actions) -> None:
        texts, state = [], self.state
        for action in actions:
            if self.game.current(state) != seat:
                raise proto.LocalError(f"It is not your turn: seat {self.game.current(state)} must move.")
            texts.append(self.game.format_action(state, action))
            state = self.game.apply(state, action)
        self.state = state
        self.moves += (MoveRecord(len(self.moves) + 1, seat, tuple(actions), tuple(texts), True),)

    def peer_turn(self) -> None:
        actions = []
        while self.game.current(self.state) == 1:
            legal = self.game.legal_actions(self.state)
            action = legal[self.rng.randrange(len(legal))]
            actions.append(action)
            self.play(1, [action])


class StandInNode:
    """The node's loop: a poll of the watched file descriptors, bounded in time."""

    def __init__(self, session: StandInSession):
        self.session = session
        self.on_event = lambda e: None
        self.fds: dict = {}
        self.stopped = False
        self.left = False
        self.thread_ids: set = set()

    def watch_fd(self, fd, callback):
        self.fds[fd] = callback

    def unwatch_fd(self, fd):
        self.fds.pop(fd, None)

    def finished(self) -> bool:
        return False

    def run(self, done, max_seconds=None) -> bool:
        deadline = time.monotonic() + (max_seconds or 30)
        while not self.stopped and time.monotonic() < deadline:
            ready, _, _ = select.select(list(self.fds), [], [], 0.2)
            for fd in ready:
                self.thread_ids.add(threading.get_ident())
                self.fds[fd]()
        return done()

    def submit(self, actions) -> None:
        self.session.play(0, actions)
        self.on_event(proto.Accepted(len(self.session.moves), None))
        self.session.peer_turn()
        self.on_event(proto.YourTurn(0, "move", self.session.legal_actions()))

    def leave(self) -> None:
        self.left = True

    def stop(self) -> None:
        self.stopped = True

    def peer_goes_away(self) -> None:
        """(from the node thread, as a heartbeat timeout would)"""
        self.session.away = True
        self.on_event(proto.PeerAway(1))


def test_a_planned_turn_goes_to_the_node_thread_and_the_reply_redraws_the_screen():
    session = StandInSession("bob")
    node = StandInNode(session)

    async def body():
        source = LiveSource(node, "Athos against bob")
        thread = threading.Thread(target=source.run_node, args=(30,), daemon=True)
        thread.start()
        screen = Screen(GamePresenter(source), 120, 32)
        async with screen:
            for text in ("B-a5", "end move", "end turn"):
                await screen.type(text)
            await screen.press("enter")
            await screen.until(lambda: "B-a5; end move; end turn" in screen.text())
            await screen.until(lambda: len(session.moves) > 1 and screen.presenter.model.plan is not None)
            assert node.thread_ids and threading.get_ident() not in node.thread_ids  # the node's own thread
            assert screen.presenter.model.snapshot.moves[-1].seat == 1  # the peer's reply is shown
            screen.input.send_text(KEYS["f10"])  # (the screen closes: no key after it is read)
            await screen.until(lambda: screen.task.done())
        thread.join(10)
        assert node.left and node.stopped and not thread.is_alive()

    run(body())


def test_a_peer_away_is_one_line_and_its_name_reaches_the_screen_escaped():
    session = StandInSession("evil\x1b[2J\nname")
    node = StandInNode(session)

    async def body():
        source = LiveSource(node)
        thread = threading.Thread(target=source.run_node, args=(30,), daemon=True)
        thread.start()
        screen = Screen(GamePresenter(source), 120, 32)
        async with screen:
            # the heartbeat timeout happens on the node's thread: a descriptor ready at once
            # is how this test hands it over (the stand-in's poll picks it up within 0.2 s)
            ready = _ready_fd()

            def away() -> None:
                node.unwatch_fd(ready)
                os.close(ready)
                node.peer_goes_away()

            node.watch_fd(ready, away)
            await screen.until(lambda: "is away; the game waits for it" in screen.text())
            text = screen.text()
            assert "seat 1 (evil\\x1b[2J\\x0aname) is away; the game waits for it." in text
            assert "\x1b" not in text  # no raw escape anywhere on the screen
        source.close()  # as run_game does when the screen closes
        thread.join(10)
        assert not thread.is_alive()

    run(body())


def _ready_fd() -> int:
    """A descriptor that polls as readable at once."""
    r, w = os.pipe()
    os.write(w, b"x")
    os.close(w)
    return r
