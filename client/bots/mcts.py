"""Monte Carlo tree search (UCT), open-loop and over information sets.

Each iteration starts from a full state the seat's view allows (`game.determinize`: for
Aton the opponent's hand dealt from its unseen cards; a perfect-information game's view
is the state), walks down a tree keyed by the actions taken (chance outcomes are sampled
afresh every time, not branched on), adds one node, plays the game on and scores the end
with `Knowledge.evaluate`: each seat's expected result in [0, 1], backed up into the
nodes of the seat that chose each action (max^n: every seat plays for itself).

What a game's knowledge (client/bots/knowledge/, client/games/NAME/knowledge.py) sets:

* the playout: the turn under way is finished by the playout policy
  (`Knowledge.playout_action`) or, with `finish_turn = "plan"`, by the seat's best plan
  (the greedy player's search, remembered for the whole decision); then the game runs on
  for `playout_turns` more turns, or `cutoff` more actions, its seats played by the
  playout policy or, with `others_plan`, by their own best plans (a rollout of the greedy
  player: what the search adds is the other seats' reply);
* the root: with `root_width`, only that many of its actions are searched, the best by
  the greedy player's eye (few playouts over many landings tell nothing);
* the tree: priors (`prior_visits`: a child starts as that many visits at the value of
  the position it leads to), at the root only or at every node (`tree_priors`);
  progressive widening for wide nodes (`widening`); at most `tree_depth` levels;
* `common_chance`: the k-th visit of every root child draws its chance outcomes and its
  playout choices from the same k-th stream (common random numbers), so that root
  actions are compared over the same dice rather than each over its own luck.

Actions available in one sampled state and not another are handled as in SO-ISMCTS: a
child's exploration term counts the visits in which it was available. At a simultaneous
secret choice the other seats pick (by the playout policy) from the position before the
seat's own choice, so the tree never lets them see it.
"""
from __future__ import annotations

import gc
import math
import random
import time
from contextlib import contextmanager
from typing import Any, Iterator

from peerboard.client.bots.knowledge import Knowledge, knowledge_for
from peerboard.client.bots.lookahead import best_own_action, followers, has_hidden, lookahead
from peerboard.client.bots.sdk import Bot, Budget, Decision
from peerboard.client.bots.simulate import play_choice
from peerboard.client.bots.stall import Pressing, StallWatch
from peerboard.engines import CHANCE, TERMINAL, Action

DEFAULT_BUDGET = Budget(playouts=300)


class Node:
    __slots__ = ("actor", "children", "visits", "total", "avail", "expanded", "played")

    def __init__(self, actor: int):
        self.actor = actor          # the seat whose action led here
        self.children: dict[Action, Node] = {}
        self.visits = 0             # playouts through it, and the prior's visits
        self.total = 0.0            # the actor's rewards summed over the visits
        self.avail = 0              # visits of the parent in which this action was legal
        self.expanded = False       # its children have been made (a playout went on from it)
        self.played = 0             # playouts through it (without the prior)


class MctsBot(Bot):
    """UCT with determinization; `budget` playouts (default 300) or seconds per decision.
    In a game that stands still it plays for progress (client/bots/stall.py)."""

    name = "mcts"

    def __init__(self, seed: int | str | bytes = 0, budget: Budget | None = None):
        super().__init__(seed, budget or DEFAULT_BUDGET)
        self._knowledge: Knowledge | None = None
        self._stall = StallWatch()
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
            self._stall = StallWatch()
        if self._stall.pressing_on(know, decision):
            return best_own_action(decision, Pressing(know, decision.seat), self.rng, know.lookahead,
                                   know.lookahead_nodes, know.samples)
        with collector_paused():
            return self._searched(decision, know)

    def _searched(self, decision: Decision, know: Knowledge) -> Action:
        """The search's choice; the search goes with this call (before the collector is
        back on, which would otherwise walk all it kept once more)."""
        search = Search(decision, know, self.rng, know.exploration)
        started = time.monotonic()
        self.playouts += spend(search, self.budget)
        self.seconds += time.monotonic() - started
        return search.best()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a decision's search (on again after, if it was).
    A search makes no reference cycles, only positions it keeps in its memos, which the
    collector would walk again and again as they pile up (8.6 % of an Asterix playout's
    instructions); they go by reference counting once the search is dropped."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def spend(search: "Search", budget: Budget) -> int:
    """Iterate `search` until `budget` is spent (its playouts, or its seconds — at least one
    iteration then); how many iterations ran."""
    limit = budget.playouts
    deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
    n = 0
    while True:
        if limit is not None and n >= limit:
            break
        if deadline is not None and n and time.monotonic() >= deadline:
            break
        search.iterate()
        n += 1
    return n


class Search:
    """One decision's tree, and what it remembers between iterations."""

    def __init__(self, decision: Decision, know: Knowledge, rng: random.Random, exploration: float):
        self.decision, self.know, self.rng, self.c = decision, know, rng, exploration
        self.game = decision.game
        self.hidden = has_hidden(self.game)
        self.root = Node(decision.seat)
        #: the positions the root's priors valued by `lookahead`
        self.seen: dict = {}
        #: the plan chosen in each position met in playouts, and per seat the positions
        #: its plans valued
        self.plans: dict[Any, Action] = {}
        self.seen_by: dict[int, dict] = {}
        #: the positions the plans' lookaheads reached from each position (lookahead.followers)
        self.children: dict = {}
        self.nodes = [know.search_nodes]
        self.salt = rng.getrandbits(64) if know.common_chance else None
        #: the root actions the search looks at (all, or the best `root_width` by prior)
        self.candidates = decision.legal
        #: the root action the latest iteration went through (None: it ended at the root)
        self.taken: Action | None = None
        if know.prior_visits or know.root_width:
            self._root_priors()

    def best(self) -> Action:
        """The most visited root action; among as many visits, the best valued; among
        actions alike in both (Athos: many tile placements that change no way up), one at
        random, as the greedy player takes them (the first in the list would be a tile in
        the corner nearest the lowest hex, turn after turn)."""
        children = self.root.children

        def rank(a: Action) -> tuple[int, float]:
            child = children.get(a)
            if child is None or child.visits == 0:
                return (-1, 0.0)
            return (child.visits, child.total / child.visits)

        top = max(rank(a) for a in self.candidates)
        ties = [a for a in self.candidates if rank(a) == top]
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]

    def _root_priors(self) -> None:
        """The root's children start at what the greedy player sees in them (the position
        at the end of the seat's own actions, `search_lookahead` of them), worth
        `prior_visits` visits each: the search begins where the greedy player stands and
        moves off only for what the playouts show (the dice, the other seats' replies)."""
        decision, know, game, rng = self.decision, self.know, self.game, self.rng
        seat = decision.seat
        state = game.determinize(decision.view, seat, rng.randbytes(32))
        weight = know.prior_visits
        priors = {}
        for a in decision.legal:
            after = play_choice(game, state, seat, a, lambda st, s, options: know.playout_action(st, options, rng))
            priors[a] = lookahead(game, know, after, seat, know.search_lookahead - 1, self.nodes, self.seen)
        if know.root_width and len(priors) > know.root_width:
            # The playouts are few: spent on the actions the greedy player likes best (ties
            # in a random order), so that each is compared over enough dice.
            order = list(decision.legal)
            rng.shuffle(order)
            order.sort(key=lambda a: -priors[a])
            keep = set(order[:know.root_width])
            self.candidates = tuple(a for a in decision.legal if a in keep)
        for a in self.candidates:
            child = self.root.children[a] = Node(seat)
            child.visits = weight
            child.total = weight * priors[a]
        self.root.expanded = True

    def _select(self, node: Node, legal, rng: random.Random) -> Action:
        """UCB1 over the children made so far (an unvisited one first, in random order)."""
        c = self.c
        best, best_score = None, -1.0
        for a in legal:
            ch = node.children.get(a)
            if ch is None:
                continue
            if ch.visits == 0:
                score = 2.0 + rng.random()
            else:
                score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if score > best_score:
                best, best_score = a, score
        return best

    def iterate(self) -> None:
        decision, know, game = self.decision, self.know, self.game
        seat, root = decision.seat, self.root
        current, apply, secret = game.current, game.apply, game.secret_choice
        rng = self.rng
        if self.salt is not None:
            # Common random numbers: the root child is chosen first, and its k-th visit
            # plays with the k-th stream, whichever child it is.
            legal = self.candidates
            for a in legal:
                if a not in root.children:
                    root.children[a] = Node(seat)
                root.children[a].avail += 1
            first = self._select(root, legal, rng)
            rng = random.Random(f"{self.salt}:{root.children[first].played}")
        else:
            first = None
        state = game.determinize(decision.view, seat, rng.randbytes(32)) if self.hidden else decision.view

        def pick(st, s, options):
            return know.playout_action(st, options, rng)

        node, path, legal = root, [], self.candidates
        self.taken = None
        prior = know.prior_visits
        priors_below = prior and know.tree_priors
        widening = know.widening
        depth_left = know.tree_depth
        # Selection and expansion, down to a child made in this iteration; the playout
        # goes on from there. With `tree_priors` a node met for the first time makes all
        # its children at once, each worth `prior` visits at the evaluation of the position
        # it leads to. Without, a node has at most 1 + widening * sqrt(visits) children
        # (progressive widening, all of them when `widening` is None), the next one the
        # playout policy's pick among the actions not tried yet: a wide node (an Athos move
        # phase offers hundreds) is searched along the likely actions first.
        while depth_left is None or depth_left > 0:
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
            made = None
            if node is root and first is not None:
                best = first
            elif node is root or priors_below:
                # the root's children are made already (_root_priors) when it has priors
                fresh = not node.expanded and node is not root
                node.expanded = True
                for a in legal:
                    child = children.get(a)
                    if child is None:
                        child = children[a] = Node(actor)
                        if prior:
                            after = play_choice(game, state, actor, a, pick) if group else apply(state, a)
                            child.visits = prior
                            child.total = prior * know.evaluate(after)[actor]
                    child.avail += 1
                best = self._select(node, legal, rng)
                made = best if fresh else None
            else:
                tried = 0
                for a in legal:
                    child = children.get(a)
                    if child is not None:
                        child.avail += 1
                        tried += 1
                if tried < len(legal) and (widening is None or tried < 1 + widening * math.sqrt(node.visits)):
                    untried = [a for a in legal if a not in children]
                    if widening is None:
                        made = untried[rng.randrange(len(untried))]
                    else:
                        made = know.playout_action(state, untried, rng)
                    children[made] = Node(actor)
                    children[made].avail = 1
                    best = made
                else:
                    best = self._select(node, legal, rng)
            node = children[best]
            if not path:
                self.taken = best
            path.append(node)
            state = play_choice(game, state, actor, best, pick) if group else apply(state, best)
            legal = None
            if depth_left is not None:
                depth_left -= 1
            if made is not None:
                break  # a node met for the first time: play out from the action chosen there
        state = self._playout(state, path[-1].actor if path else seat, rng)
        rewards = know.evaluate(state)
        for node in path:
            node.visits += 1
            node.played += 1
            node.total += rewards[node.actor]

    def _playout(self, state: Any, mover: int, rng: random.Random) -> Any:
        """On from the tree's last position: the turn under way is finished (a position
        halfway through a turn is not worth evaluating: a tile landed on is not yet picked
        up), then `playout_turns` more turns or `cutoff` more actions."""
        know, game = self.know, self.game
        current, apply, secret = game.current, game.apply, game.secret_choice
        playout_action, shortcut, legal_actions = know.playout_action, know.playout_shortcut, game.legal_actions

        others_plan = know.others_plan
        fast = know.playout_steps

        def step(state):
            if fast is not None:
                return fast(state, rng, 1)
            who = current(state)
            if who == CHANCE:
                return apply(state, game.sample_chance(state, rng.randbytes(32)))
            if others_plan and who >= 0 and not secret(state):
                return self._after_plan(state, who)
            action = shortcut(state)
            if action is None:
                action = playout_action(state, legal_actions(state), rng)
            return apply(state, action)

        planned = know.finish_turn == "plan"
        while current(state) == mover and not secret(state):
            state = self._after_plan(state, mover) if planned else step(state)
        if know.playout_turns is not None:
            turns, last = 0, mover
            while True:
                who = current(state)
                if who == TERMINAL:
                    break
                if who >= 0 and who != last:
                    turns += 1
                    last = who
                    if turns > know.playout_turns:
                        break
                state = step(state)
            return state
        cutoff = know.cutoff
        if fast is not None and cutoff is not None:
            return fast(state, rng, cutoff)
        steps = 0
        while cutoff is None or steps < cutoff:
            if current(state) == TERMINAL:
                break
            state = step(state)
            steps += 1
        return state

    def _after_plan(self, state: Any, seat: int) -> Any:
        """The position after the seat's plan: the one its plan looked at (`children`), whose
        own plan and hash are then to hand, else applied afresh."""
        action = self._plan(state, seat)
        for a, after in self.children.get(state, ()):
            if a is action:
                return after
        return self.game.apply(state, action)

    def _plan(self, state: Any, seat: int) -> Action:
        """The seat's best action by its own following ones (`search_lookahead` deep), as
        the greedy player sees it; the same position gets the same plan all decision long."""
        action = self.plans.get(state)
        if action is None:
            game, know = self.game, self.know
            depth = know.search_lookahead - 1
            seen = self.seen_by.setdefault(seat, {})
            best = -2.0
            for a, after in followers(game, state, self.children):
                value = lookahead(game, know, after, seat, depth, self.nodes, seen, self.children)
                if value > best:
                    action, best = a, value
            self.plans[state] = action
        return action
