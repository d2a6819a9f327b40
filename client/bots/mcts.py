"""Monte Carlo tree search (UCT), open-loop and over information sets.

Each iteration starts from a full state the seat's view allows (`game.determinize`: for
Aton the opponent's hand dealt from its unseen cards; a perfect-information game's view
is the state), walks down a tree keyed by the actions taken (chance outcomes are sampled
afresh every time, not branched on), adds one node, plays the game on (`Knowledge.
playout_action`) for at most `Knowledge.cutoff` actions and scores the end with
`Knowledge.evaluate`: each seat's expected result in [0, 1], backed up into the nodes of
the seat that chose each action (max^n: every seat plays for itself).

Actions available in one sampled state and not another are handled as in SO-ISMCTS: a
child's exploration term counts the visits in which it was available. At a simultaneous
secret choice the other seats pick (by the playout policy) from the position before the
seat's own choice, so the tree never lets them see it.
"""
from __future__ import annotations

import math
import time

from client.bots.knowledge import Knowledge, knowledge_for
from client.bots.players import _has_hidden, lookahead
from client.bots.sdk import Bot, Budget, Decision
from client.bots.simulate import play_choice
from engines import CHANCE, TERMINAL, Action

DEFAULT_BUDGET = Budget(playouts=300)


class Node:
    __slots__ = ("actor", "children", "visits", "total", "avail", "expanded")

    def __init__(self, actor: int):
        self.actor = actor          # the seat whose action led here
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0            # the actor's rewards summed over the visits
        self.avail = 0              # visits of the parent in which this action was legal
        self.expanded = False       # its children have been made (a playout went on from it)


class MctsBot(Bot):
    """UCT with determinization; `budget` playouts (default 300) or seconds per decision."""

    name = "mcts"
    #: UCB1's exploration constant, for rewards in [0, 1]
    exploration = 0.7

    def __init__(self, seed: int | str | bytes = 0, budget: Budget | None = None):
        super().__init__(seed, budget or DEFAULT_BUDGET)
        self._knowledge: Knowledge | None = None
        #: playouts run and seconds spent, over every decision (bench/bench_bots.py)
        self.playouts = 0
        self.seconds = 0.0

    def decide(self, decision: Decision) -> Action:
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        game = decision.game
        know = self._knowledge
        if know is None or know.game is not game:
            know = self._knowledge = knowledge_for(game)
        root = Node(decision.seat)
        if know.prior_visits:
            self._root_priors(decision, know, root)
        limit = self.budget.playouts
        started = time.monotonic()
        deadline = None if self.budget.seconds is None else started + self.budget.seconds
        hidden = _has_hidden(game)
        n = 0
        while True:
            if limit is not None and n >= limit:
                break
            if deadline is not None and n and time.monotonic() >= deadline:
                break
            self._iterate(decision, know, root, hidden)
            n += 1
        self.playouts += n
        self.seconds += time.monotonic() - started
        children = root.children
        return max(legal, key=lambda a: children[a].visits if a in children else -1)

    def _root_priors(self, decision: Decision, know: Knowledge, root: Node) -> None:
        """The root's children start at what the greedy player sees in them (the position
        at the end of the seat's own turn), worth `prior_visits` visits each: the search
        begins where the greedy player stands and moves off only for what the playouts
        show (the dice, the other seats' replies)."""
        game, seat = decision.game, decision.seat
        state = game.determinize(decision.view, seat, self.rng.randbytes(32))
        budget = [know.lookahead_nodes]
        weight = know.prior_visits
        for a in decision.legal:
            after = play_choice(game, state, seat, a, lambda st, s, options: know.playout_action(st, options, self.rng))
            child = root.children[a] = Node(seat)
            child.visits = weight
            child.total = weight * lookahead(game, know, after, seat, know.search_lookahead - 1, budget)
        root.expanded = True

    def _iterate(self, decision: Decision, know: Knowledge, root: Node, hidden: bool) -> None:
        game, seat, rng = decision.game, decision.seat, self.rng
        current, apply, secret = game.current, game.apply, game.secret_choice
        state = game.determinize(decision.view, seat, rng.randbytes(32)) if hidden else decision.view

        def pick(st, s, options):
            return know.playout_action(st, options, rng)

        node, path, legal = root, [], decision.legal
        c = self.exploration
        prior = know.prior_visits
        # Selection and expansion: down the tree to a node met for the first time; its
        # children are made (each worth `prior` visits at the evaluation of the position
        # it leads to, when the knowledge gives priors), one is chosen, and the playout
        # goes on from there.
        while True:
            who = current(state)
            if who == TERMINAL:
                break
            if who == CHANCE:
                state = apply(state, game.sample_chance(state, rng.randbytes(32)))
                continue
            group = secret(state)
            if group and seat not in group:
                for s in group:
                    state = apply(state, pick(state, s, game.choices_for(state, s)))
                continue
            actor = seat if group else who
            if legal is None:
                legal = game.choices_for(state, seat) if group else game.legal_actions(state)
            children = node.children
            fresh = not node.expanded
            node.expanded = True
            if node is root:
                fresh = False  # the root's children may be made already (_root_priors)
            for a in legal:
                child = children.get(a)
                if child is None:
                    child = children[a] = Node(actor)
                    if prior:
                        after = play_choice(game, state, actor, a, pick) if group else apply(state, a)
                        child.visits = prior
                        child.total = prior * know.evaluate(after)[actor]
                child.avail += 1
            best, best_score = None, -1.0
            for a in legal:
                ch = children[a]
                if ch.visits == 0:  # no prior: an untried action goes first (in random order)
                    score = 2.0 + rng.random()
                else:
                    score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = a, score
            node = children[best]
            path.append(node)
            state = play_choice(game, state, actor, best, pick) if group else apply(state, best)
            legal = None
            if fresh:
                break  # a node met for the first time: play out from the action chosen there
        # Playout: on from the new node, then the evaluation.
        cutoff = know.cutoff
        steps = 0
        playout_action = know.playout_action
        # A playout first finishes the turn under way (a position halfway through a turn
        # is not worth evaluating: a tile landed on is not yet picked up), then runs on
        # for `cutoff` more actions.
        mover = path[-1].actor if path else seat
        while current(state) == mover and not secret(state):
            state = apply(state, playout_action(state, game.legal_actions(state), rng))
        while cutoff is None or steps < cutoff:
            who = current(state)
            if who == TERMINAL:
                break
            if who == CHANCE:
                state = apply(state, game.sample_chance(state, rng.randbytes(32)))
            else:
                state = apply(state, playout_action(state, game.legal_actions(state), rng))
            steps += 1
        rewards = know.evaluate(state)
        for node in path:
            node.visits += 1
            node.total += rewards[node.actor]
