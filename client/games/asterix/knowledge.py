"""Asterix: The Hunt for the search players: who leads each of the four categories,
counting what a pawn carries at a discount that grows with its way home to the village."""
from __future__ import annotations

import random

from peerboard.client.bots.knowledge.generic import Knowledge, logistic
from peerboard.engines.asterix.board import BIT, BOAR, COHORT, MENHIR, MISTLETOE, SQUARE_NAMES, VILLAGE, squares_of
from peerboard.engines.asterix.rules import can_carry
from peerboard.engines.asterix.state import OVER, State
from peerboard.engines.asterix.walks import blocked_squares, layers

SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}
#: the scoring tiles: when all are in victory piles the game is over
TILES_TO_BANK = 40

_VILLAGE_XY = ((3, 3), (4, 3), (3, 4), (4, 4))
CATEGORIES = (BOAR, COHORT, MENHIR, MISTLETOE)


def _distance_to_village(square: int) -> int:
    x, y = square % 8, square // 8
    return min(max(abs(x - vx), abs(y - vy)) for vx, vy in _VILLAGE_XY)


#: per square, king steps to the nearest village square (lakes ignored); the search asks
#: it of every pawn in every position it values
HOME_DISTANCE: tuple[int, ...] = tuple(_distance_to_village(square) for square in range(64))


#: per square + 1 (a pawn not yet placed, square -1, first), the part of what a pawn carries
#: that counts as good as banked: the farther from home, the less
KEEP: tuple[float, ...] = tuple(max(0.25, 0.85 - 0.1 * (HOME_DISTANCE[square] if square >= 0 else 0))
                                for square in range(-1, 64))


def _home_distance(square: int) -> int:
    """King steps from `square` to the nearest village square (lakes ignored)."""
    return HOME_DISTANCE[square] if square >= 0 else 0


class AsterixKnowledge(Knowledge):
    lookahead = 3         # one die's move: where it lands, the pick-up, the theft
    lookahead_nodes = 1000
    sharpness = 1.2
    # MCTS: a rollout player over the greedy one. The root's three best actions by the
    # greedy player's eye are compared over the same dice (common random numbers): each
    # playout finishes the seat's turn and plays the other seats' turns with the greedy
    # player's plans, and scores the position when the seat's next turn comes. What it
    # adds to the greedy player is the other seats' reply: a theft, a tile taken first.
    # (Measured against greedy: random playouts cut off after 12 actions won 4 of 20,
    # rollouts with the cheap playout policy as the opponent 7 of 20, with the greedy
    # opponent 14 of 20 and 17 of 30; the full figures: bench/bench_bots.py.)
    search_lookahead = 3
    search_nodes = 1_000_000
    root_width = 3
    tree_depth = 1
    finish_turn = "plan"
    others_plan = True
    playout_turns = 1
    common_chance = True

    def __init__(self, game):
        super().__init__(game)
        #: evaluations by what they read (piles, loads, pawns, the end): the search meets
        #: the same holdings again and again, in positions that differ elsewhere
        self._valued: dict[tuple, list[float]] = {}

    def evaluate(self, state: State) -> list[float]:
        key = (state.piles, state.carried, state.pawns, state.phase == OVER)
        known = self._valued.get(key)
        if known is None:
            if len(self._valued) >= 1 << 14:  # bounded: a pure function's memo
                self._valued.clear()
            known = self._valued[key] = super().evaluate(state)
        return list(known)

    FEATURES = ("value", "led", "banked", "value_late", "carried")
    # Not the players' evaluation (yet): the weights fitted to who won (client/games/
    # asterix/fitted.py, bench/fit_evaluation.py; out of fold 32% better than the share,
    # the contest 24%) weigh a seat's value below zero early in a game, and players that
    # search by them stop gathering: games ran three times as long and mcts won fewer of
    # them against greedy (bench/bench_bots.py, 18/24 -> 15/24). A fit whose features
    # reward progress is still to be made; the generic path costs 18 us a position against
    # the contest's 5, and the search values every position it meets (a one-pass version,
    # like `values`, is worth writing with it).
    weights = None

    def features(self, state: State) -> list[list[float]]:
        """Per seat: its value (`values`: the categories' leads, what it carries discounted
        by its way home, the tie-breaks); the categories it leads outright by that count;
        its victory pile (of the 40 scoring tiles); its value times the share of the 40
        already banked by anyone (late in the game a lead is harder to undo); what it
        carries (of 10)."""
        values = self.values(state)
        held = []
        for pile, carried, square in zip(state.piles, state.carried, state.pawns):
            keep = KEEP[square + 1]
            held.append([pile[c] + keep * carried[c] for c in CATEGORIES])
        led = [0] * len(held)
        for c in range(len(CATEGORIES)):
            top = max(h[c] for h in held)
            leaders = [i for i, h in enumerate(held) if h[c] == top]
            if len(leaders) == 1 and top > 0:
                led[leaders[0]] += 1
        banked = [sum(pile) for pile in state.piles]
        late = sum(banked) / TILES_TO_BANK
        return [[v, n / 4, b / TILES_TO_BANK, v * late, sum(c) / 10]
                for v, n, b, c in zip(values, led, banked, state.carried)]

    def standing(self, view: State, seat: int) -> None:
        """No count kept: Asterix ends by itself, at its round limit."""
        return None

    def values(self, state: State) -> list[float]:
        # (The search values every position it meets: the loops over the four categories
        # are written out, the arithmetic is the same, to the last bit.)
        held = []
        for pile, carried, square in zip(state.piles, state.carried, state.pawns):
            keep = KEEP[square + 1]
            held.append((pile[0] + keep * carried[0], pile[1] + keep * carried[1],
                         pile[2] + keep * carried[2], pile[3] + keep * carried[3]))
        # per category, the best and second-best holding: the best other seat's is the
        # best unless this seat holds it
        tops = []
        for c in CATEGORIES:
            first = second = -1.0  # holdings are never negative
            for h in held:
                x = h[c]
                if x > first:
                    first, second = x, first
                elif x > second:
                    second = x
            tops.append((first, second))
        (first0, second0), (first1, second1), (first2, second2), (first3, second3) = tops
        values = []
        for mine in held:
            m0, m1, m2, m3 = mine
            v = 0.0
            lead = m0 - (second0 if m0 == first0 else first0)
            v += -1.0 if lead < -2.0 else 1.0 if lead > 2.0 else lead / 2.0
            lead = m1 - (second1 if m1 == first1 else first1)
            v += -1.0 if lead < -2.0 else 1.0 if lead > 2.0 else lead / 2.0
            lead = m2 - (second2 if m2 == first2 else first2)
            v += -1.0 if lead < -2.0 else 1.0 if lead > 2.0 else lead / 2.0
            lead = m3 - (second3 if m3 == first3 else first3)
            v += -1.0 if lead < -2.0 else 1.0 if lead > 2.0 else lead / 2.0
            # the tie-breaks: menhirs, then boars
            v += 0.02 * m2 + 0.01 * m0
            values.append(v)
        return values

    def contest(self, values: list[float]) -> list[float]:
        """The generic contest (each seat's lead over the best other seat), with the best
        other found from the two best values rather than by a list per seat."""
        top = max(values)
        at = values.index(top)
        runner_up = max(values[:at] + values[at + 1:])
        sharpness = self.sharpness
        return [logistic(sharpness * (v - (runner_up if i == at else top))) for i, v in enumerate(values)]


    def playout_action(self, state: State, legal: list, rng: random.Random) -> tuple:
        """A quick player: take what can be taken, steal the heaviest thing, land where
        the most is to be had (a load banked, a tile, a theft), the die with the best
        landing first."""
        first = legal[0][0]
        if first == "pick":
            return legal[0]
        if first == "steal":  # the thefts, then "leave"
            thefts = legal[:-1]
            for name in ("menhir", "boar", "mistletoe"):
                for a in thefts:
                    if a[2] == name:
                        return a
            return thefts[0]
        if first == "move":
            squares = [SQUARE_INDEX[a[1]] for a in legal if a[0] == "move"]
            if squares:
                worth = _landing_worth(state, squares)
                top = max(worth)
                best = [a for a, w in zip(legal, worth) if w >= top]
                return best[rng.randrange(len(best))]
        if first == "die" and len(legal) > 1:
            seat = state.actor
            blocked = blocked_squares(state.tiles, state.potions[seat])
            start = state.pawns[seat]
            tops = []
            for a in legal:
                mask = layers(start, blocked)[a[1]]
                tops.append(max(_landing_worth(state, list(squares_of(mask))), default=-1.0))
            top = max(tops)
            best = [a for a, t in zip(legal, tops) if t >= top]
            return best[rng.randrange(len(best))]
        return legal[rng.randrange(len(legal))]


def _landing_worth(state: State, squares: list[int]) -> list[float]:
    """What the seat to move gets by landing on each square, roughly in tiles."""
    seat = state.actor
    load = state.carried[seat]
    tiles = state.tiles
    carrying = sum(load)
    out = []
    for sq in squares:
        bit = BIT[sq]
        if bit & VILLAGE:
            out.append(1.5 * carrying)
            continue
        w = 0.0
        if bit & tiles[COHORT]:
            w += 1.0
        else:
            for kind in (MENHIR, BOAR, MISTLETOE):
                if bit & tiles[kind]:
                    if can_carry(load, kind, state.carry_rule):
                        w += 0.8
                    break
        for other in range(state.players):
            if other != seat and state.pawns[other] == sq and any(
                state.carried[other][k] and can_carry(load, k, state.carry_rule) for k in (MENHIR, BOAR, MISTLETOE)
            ):
                w += 1.0
                break
        out.append(w - 0.05 * carrying * _home_distance(sq))
    return out


KNOWLEDGE = AsterixKnowledge
