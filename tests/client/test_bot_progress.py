"""The generic knowledge plays for progress (client/bots/stall.py) in a game that has no
knowledge of its own: when every seat's numbers (scores, plus the engine's heuristic)
have stood still over more than `patience` of a player's decisions, it takes the action
that raises its own number, whatever that gives the others.

The game: a standoff. Each seat in turn waits (nothing changes) or advances: one point for
itself and two for the other seat. Whoever advances first hands the other the lead, so a
player that weighs its lead over the others waits for ever. The seat whose advance brings
a score to 10 wins."""
from __future__ import annotations

from peerboard.client.bots import make_bot
from peerboard.client.bots.knowledge import Knowledge, knowledge_for
from peerboard.client.bots.sdk import Decision, notation_of
from peerboard.engines import TERMINAL, Game, IllegalAction
from peerboard.engines.styled import Styled

WAIT, ADVANCE = ("wait",), ("advance",)


class Standoff(Game):
    name = "standoff"
    title = "Standoff"
    conformance_setups = ((2, {}),)

    def new_game(self, players, options=None):
        self.resolve_options(players, options)
        return ((0, 0), 0)  # (scores, seat to act)

    def current(self, state):
        scores, seat = state
        return TERMINAL if max(scores) >= 10 else seat

    def legal_actions(self, state):
        return [] if self.current(state) == TERMINAL else [WAIT, ADVANCE]

    def chance_weights(self, state):
        return []

    def apply(self, state, action):
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action!r} is not wait or advance, or the game is over.")
        scores, seat = state
        if action == ADVANCE:
            gain = [2, 2]
            gain[seat] = 1
            scores = (scores[0] + gain[0], scores[1] + gain[1])
        return (scores, 1 - seat)

    def winners(self, state):
        scores, seat = state
        return [1 - seat] if max(scores) >= 10 else []  # the seat that advanced last

    def scores(self, state):
        return list(state[0])

    def format_action(self, state, action):
        return action[0]

    def parse_action(self, state, text):
        return (text,)

    def public_record(self, state):
        return state

    def render_styled(self, state, seat=None):
        return Styled().line(f"scores {state[0]}").fragments()


GAME = Standoff()


def decide(bot, state):
    seat = GAME.current(state)
    legal = tuple(GAME.legal_actions(state))
    return bot.decide(Decision("standoff", GAME, seat, state, legal, notation_of(GAME, state, legal)))


def test_a_game_without_knowledge_of_its_own_gets_the_generic_kind_that_watches_its_numbers():
    know = knowledge_for(GAME)
    assert type(know) is Knowledge
    assert know.standing(((3, 4), 0), 0) == (None, (3.0, 4.0))
    assert know.distance(((3, 4), 0), 0) == -3.0


def test_the_greedy_player_waits_while_it_may_then_advances_when_nothing_moves():
    bot = make_bot("greedy", seed=1)
    patience = knowledge_for(GAME).patience
    state = GAME.new_game(2)
    chosen = [GAME.format_action(state, decide(bot, state)) for _ in range(patience + 1)]
    assert chosen == ["wait"] * patience + ["advance"], chosen
    after = GAME.apply(state, ADVANCE)
    assert GAME.format_action(after, decide(bot, after)) == "wait"  # the numbers moved: a new count


def test_two_greedy_players_finish_the_standoff():
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    state = GAME.new_game(2)
    for _ in range(500):  # without playing for progress: waiting for ever
        if GAME.current(state) == TERMINAL:
            break
        state = GAME.apply(state, decide(bots[GAME.current(state)], state))
    assert GAME.current(state) == TERMINAL and max(GAME.scores(state)) >= 10
