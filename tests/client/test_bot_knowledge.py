"""What the search players know of each game (client/bots/knowledge/, client/games/NAME/knowledge.py)."""
from __future__ import annotations

import heapq
import random

from peerboard import engines
from peerboard.client.bots import make_bot
from peerboard.client.bots.knowledge import knowledge_for
from peerboard.client.games.athos.knowledge import NO_WAY, THROUGH_BLOCKING, summit_distances
from peerboard.client.bots.mcts import Search
from peerboard.client.bots.lookahead import lookahead
from peerboard.client.bots.sdk import Decision, notation_of
from peerboard.client.bots.table import play_game
from peerboard.engines.athos.board import HEX_COUNT, NEIGHBOURS, NODE_COUNT, SUMMIT

ATHOS = engines.get("athos")


def _cheapest_to_summit(tiles: str, fixed: tuple[int, ...]) -> list[int]:
    """A plain Dijkstra from every node: entering a node costs 1, a blocking tile
    THROUGH_BLOCKING, a fixed blocking tile is closed; never through the summit."""
    def enter(v: int) -> int | None:
        if v < HEX_COUNT and tiles[v].isupper():
            return None if v in fixed else THROUGH_BLOCKING
        return 1

    out = []
    for start in range(NODE_COUNT):
        best = {start: 0}
        todo = [(0, start)]
        found = NO_WAY
        while todo:
            d, u = heapq.heappop(todo)
            if d > best[u]:
                continue
            if u == SUMMIT:
                found = d
                break
            for v in NEIGHBOURS[u]:
                cost = enter(v)
                if cost is not None and d + cost < best.get(v, NO_WAY):
                    best[v] = d + cost
                    heapq.heappush(todo, (d + cost, v))
        out.append(found)
    return out


def test_athos_a_monk_is_as_far_from_the_summit_as_its_steps_on_an_open_mountain():
    tiles = "." * HEX_COUNT
    assert list(summit_distances(tiles, ())) == _cheapest_to_summit(tiles, ())


def test_athos_a_blocking_tile_costs_its_turning_and_a_fixed_one_closes_the_hex():
    rng = random.Random(3)
    for _ in range(20):
        tiles = "".join(rng.choice("..rR") for _ in range(HEX_COUNT))
        blocking = [h for h in range(HEX_COUNT) if tiles[h] == "R"]
        fixed = tuple(sorted(rng.sample(blocking, min(3, len(blocking)))))
        assert list(summit_distances(tiles, ())) == _cheapest_to_summit(tiles, ())
        # (no monk ever stands on a blocking tile: the fixed ones' own entries don't matter)
        ours, theirs = summit_distances(tiles, fixed), _cheapest_to_summit(tiles, fixed)
        assert [d for n, d in enumerate(ours) if n not in fixed] == [d for n, d in enumerate(theirs) if n not in fixed]


def test_athos_greedy_wins_every_race_against_random():
    for seed in range(4):
        greedy = seed % 2
        bots = [make_bot("random", seed=seed), make_bot("random", seed=seed)]
        bots[greedy] = make_bot("greedy", seed=seed)
        played = play_game(ATHOS, {}, bots, ["a", "b"], random.Random(seed))
        assert played.winners == (greedy,), (seed, played.winners)


def test_asterix_mcts_searches_only_the_greedy_players_best_three_landings():
    game = engines.get("asterix")
    know = knowledge_for(game)
    rng = random.Random(5)
    state = game.new_game(2)
    while True:  # a decision with many landings
        who = game.current(state)
        if who >= 0:
            legal = tuple(game.legal_actions(state))
            if legal[0][0] == "move" and len(legal) > 8:
                break
            action = legal[rng.randrange(len(legal))]
        else:
            action = game.sample_chance(state, rng.randbytes(32))
        state = game.apply(state, action)
    view = game.view(state, who)
    search = Search(Decision("asterix", game, who, view, legal, notation_of(game, view, legal)),
                    know, random.Random(1), know.exploration)
    assert len(search.candidates) == know.root_width == 3
    value = {a: lookahead(game, know, game.apply(state, a), who, know.search_lookahead - 1, [10**6])
             for a in legal}
    worst_kept = min(value[a] for a in search.candidates)
    assert all(value[a] <= worst_kept + 1e-12 for a in legal if a not in search.candidates)
    for _ in range(30):
        search.iterate()
    assert search.best() in search.candidates
    assert sum(search.root.children[a].visits for a in search.candidates) == 30


def test_aton_the_cards_still_to_play_are_worth_what_their_values_say_and_a_placed_counter_leaves_the_supply():
    """Aton's evaluation reads the cards a seat has still to play (its hand and deck, which
    both seats know as counts) and its counters in supply (client/games/aton/knowledge.py:
    `cards_ahead`, `supply`): a whole deck is worth nothing either way, a deck whose 4s
    are played is worth less than one whose 1s are, and a counter placed leaves the supply."""
    from dataclasses import replace

    game = engines.get("aton")
    know = knowledge_for(game)
    names = know.FEATURES
    ahead, supply = names.index("cards_ahead"), names.index("supply")
    state = game.new_game(2)
    start = know.features(state)
    assert start[0][ahead] == 0.0 and start[0][supply] == 1.0
    fours_gone = replace(state.seats[0], unseen=(9, 9, 9, 0))
    ones_gone = replace(state.seats[0], unseen=(0, 9, 9, 9))
    low = know.features(replace(state, seats=(fours_gone, state.seats[1])))[0][ahead]
    high = know.features(replace(state, seats=(ones_gone, state.seats[1])))[0][ahead]
    assert low < 0 < high and high == -low
    placed = replace(state.seats[1], supply=state.seats[1].supply - 3)
    assert know.features(replace(state, seats=(state.seats[0], placed)))[1][supply] == (29 - 3) / 29
