"""Aton for the search players: points, what a scoring would give now, and what the
revealed cartouches still owe this round."""
from __future__ import annotations

from peerboard.client.bots.knowledge.generic import Knowledge
from peerboard.client.games.aton import fitted
from peerboard.engines.aton.cards import FULL_DECK
from peerboard.engines.aton.random_play import playout
from peerboard.engines.aton.rules import removal_due
from peerboard.engines.aton.scoring import temple_scores
from peerboard.engines.aton.state import COUNTERS, PLACE, REMOVE, State
from peerboard.engines.aton.temples import GREEN_SQUARES, SQUARES_PER_TEMPLE, YELLOW_SQUARES

#: the squares whose occupation by one seat wins at once: each temple's 12, the 14 yellow,
#: the 14 green (engines/aton/scoring.py: immediate_win)
REGIONS = tuple(tuple(range(t * SQUARES_PER_TEMPLE, (t + 1) * SQUARES_PER_TEMPLE)) for t in range(4)) + (
    YELLOW_SQUARES, GREEN_SQUARES)

KINGDOM_FULL = 8
#: a seat's whole deck: 36 cards
DECK = sum(FULL_DECK)


class AtonKnowledge(Knowledge):
    # About one round of actions, then the fitted chance (client/games/aton/fitted.py):
    # random play to the end of a game (which 60 actions often reached) says a seat has
    # lost when strong players still win one such game in six (bench/fit_evaluation.py).
    cutoff = 20
    lookahead = 1         # a placement's worth does not depend on the order of a turn's placements
    samples = 6           # the opponent's hand and cartouches, sampled per decision
    sharpness = 0.15      # a 40-point race: a lead of ~7 points is a 3:1 favourite
    # the playouts are the random player's, played by the engine in one call
    playout_steps = staticmethod(playout)

    def standing(self, view: State, seat: int) -> None:
        """No count kept: every round of Aton draws, plays and places cards, so the game moves on
        by itself."""
        return None

    FEATURES = ("progress", "progress_squared", "board_later", "owed", "occupation", "cards_ahead", "supply")
    weights = fitted.WEIGHTS

    def features(self, state: State) -> list[list[float]]:
        """Per seat, in points over the points that win: its progress (its score, and what
        a scoring now would give it as far as the Kingdom is full: full, a scoring is due),
        and that squared (a lead counts more near the end); the board's points a scoring
        is not yet due to give (the Kingdom's empty part); what the revealed cartouches
        still owe it this round; how near it is to winning by occupation (the region of
        REGIONS it holds the most of, by the share held to the fourth power: a region is
        won only when full, and strong players did win one game in seven so, behind on
        points); the worth of the cards it has still to play (its hand and deck, which the
        opponent knows as counts: each card's value less the mean 2.5, over the 36 of a
        deck — high cards score on cartouche 1, reach the far temples and place more); and
        its counters in its supply (of 29)."""
        win = state.win_points
        seats = state.seats
        board = temple_scores(state.board)
        fill = min(1.0, (seats[0].dead + seats[1].dead) / KINGDOM_FULL)
        owed = [0.0, 0.0]
        if state.order and state.phase in (REMOVE, PLACE):
            for i, gain in _owed(state):
                owed[i] += gain
        held = state.board
        near = [0.0, 0.0]
        for region in REGIONS:
            counts = [0, 0]
            for square in region:
                owner = held[square]
                if owner >= 0:
                    counts[owner] += 1
            for i in (0, 1):
                share = counts[i] / len(region)
                if share > near[i]:
                    near[i] = share
        out = []
        for i in (0, 1):
            progress = (seats[i].score + fill * board[i]) / win
            u = seats[i].unseen
            ahead = (-1.5 * u[0] - 0.5 * u[1] + 0.5 * u[2] + 1.5 * u[3]) / DECK
            out.append([progress, progress * progress, (1 - fill) * board[i] / win, owed[i] / win, near[i] ** 4,
                        ahead, seats[i].supply / COUNTERS])
        return out

    def values(self, state: State) -> list[float]:
        seats = state.seats
        board_points = temple_scores(state.board)
        # A scoring comes when the Kingdom holds 8: the fuller it is, the surer the board pays.
        fill = min(1.0, (seats[0].dead + seats[1].dead) / KINGDOM_FULL)
        weight = 0.4 + 0.6 * fill
        values = [seats[i].score + weight * board_points[i] for i in (0, 1)]
        if state.order and state.phase in (REMOVE, PLACE):
            for i, gain in _owed(state):
                values[i] += gain
        return values


def _owed(state: State) -> list[tuple[int, float]]:
    """(seat, worth) of the removals and placements the revealed cartouches still owe."""
    out = []
    started = state.order.index(state.actor)
    for position, seat in enumerate(state.order):
        if position < started:
            continue
        c = state.seats[seat].cartouches
        if c is None:
            continue
        reach = c[2]  # temples 1..c3 are open to it
        if seat == state.actor:
            removals = state.owed if state.phase == REMOVE else 0
            placements = c[3] if state.phase == REMOVE else state.owed
        else:
            removals = removal_due(state, seat)[0]
            placements = c[3]
        placements = min(placements, state.seats[seat].supply)
        out.append((seat, placements * (0.6 + 0.25 * reach)))
        if removals:
            count, whose = removal_due(state, seat)
            worth = min(removals, count) * (0.5 + 0.25 * reach)
            # removing one's own counters (a card 1) costs; the opponent's gains
            out.append((seat, worth) if whose != seat else (seat, -worth))
    return out


KNOWLEDGE = AtonKnowledge
