"""The LAN adapter (client/bots/seat.py) on a stand-in node and session that offer the
session's public read-only surface (the one being added to protocol/session/session.py in another
branch). A bot seated at a real LAN table is tested once that surface lands."""
import time
from dataclasses import dataclass

from peerboard import engines
from peerboard.client.bots import Bot
from peerboard.client.bots.seat import BotSeat
from peerboard.protocol.session.session import Accepted, GameOver, GameStarted, YourTurn

ATON = engines.get("aton")


@dataclass(frozen=True)
class Position:
    seq: int
    state: object
    to_act: object = None


@dataclass(frozen=True)
class MoveRecord:
    seq: int
    seat: int
    actions: tuple
    texts: tuple
    confirmed: bool = True


class Session:
    """The read-only surface the adapter uses, over a plain Aton state."""

    def __init__(self, state, seat):
        self.game_name, self.game, self.local_seat, self.players = "aton", ATON, seat, 2
        self.options = {"win_points": 40, "first_round_removal": False}
        self.full, self.seq, self.moves = state, 0, ()

    def position(self, confirmed=False):
        return Position(self.seq, ATON.view(self.full, self.local_seat))

    def legal_actions(self):
        return tuple(ATON.legal_actions(self.full)) if ATON.current(self.full) == self.local_seat else ()

    def decision_kind(self):
        return "move" if self.legal_actions() else None


class Node:
    def __init__(self, session):
        self.session, self.timers, self.submitted = session, [], []

    def call_later(self, delay, fn):
        self.timers.append(fn)

    def submit(self, actions):
        self.submitted.append(list(actions))

    def run_timers(self, seconds=5.0):
        end = time.monotonic() + seconds
        while self.timers and time.monotonic() < end:
            self.timers.pop(0)()
            time.sleep(0.005)


class Recorder(Bot):
    def __init__(self, seed=0, budget=None):
        super().__init__(seed, budget)
        self.seen = []

    def on_start(self, game, seat, players, options):
        self.seen.append(("start", game, seat, players))

    def decide(self, decision):
        self.seen.append(("decide", decision.view.seats[1 - decision.seat].hand, decision.kind))
        return decision.legal[-1]

    def on_action(self, seat, actions, texts):
        self.seen.append(("action", seat, texts))

    def on_end(self, winners, scores):
        self.seen.append(("end", winners, scores))


def test_the_adapter_turns_the_sessions_surface_into_decisions_and_hooks():
    state = ATON.new_game(2)
    while ATON.current(state) != 0 or state.phase != "exchange":
        state = ATON.apply(state, ATON.legal_actions(state)[0])
    session = Session(state, 0)
    node, bot = Node(session), Recorder()
    seat = BotSeat(node, bot, "recorder", "1", report=lambda line: None)
    seat.on_event(GameStarted(genesis=None))
    seat.on_event(YourTurn(0, "move", session.legal_actions()))
    node.run_timers()
    assert node.submitted == [[session.legal_actions()[-1]]]
    session.moves = (MoveRecord(1, 0, (("keep",),), ("keep",)),)
    seat.on_event(Accepted(1, entry=None))
    seat.on_event(GameOver(winners=(0,), scores=(40, 12), cheats=()))
    assert bot.seen[0] == ("start", "aton", 0, 2)
    assert bot.seen[1] == ("decide", None, "move")   # the opponent's hand: unknown to the bot
    assert bot.seen[2:] == [("action", 0, ("keep",)), ("end", (0,), (40, 12))]


def test_an_answer_for_a_position_the_game_has_left_is_dropped():
    state = ATON.new_game(2)
    while ATON.current(state) != 0 or state.phase != "exchange":
        state = ATON.apply(state, ATON.legal_actions(state)[0])
    session = Session(state, 0)
    node = Node(session)
    seat = BotSeat(node, Recorder(), "recorder", "1", report=lambda line: None)
    seat.on_event(GameStarted(genesis=None))
    seat.on_event(YourTurn(0, "move", session.legal_actions()))
    session.seq = 5  # the game moved on before the answer was handed over
    node.run_timers()
    assert node.submitted == []
    seat.close()
