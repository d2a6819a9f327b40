"""spec/games/athos.md as a standard (issue 23): the parting rule, the bonus account and the
handicap placements, each written here again from the spec's words alone and compared with
the engine on seeded random positions. Only the board's data (neighbours, colours) is shared."""
import random

from peerboard import engines
from peerboard.engines.athos.board import HEX_COLOUR, HEX_COUNT, NEIGHBOURS, NODE_NAMES, START_AREAS, SUMMIT
from peerboard.engines import IllegalAction

GAME = engines.get("athos")
INDEX = {name: i for i, name in enumerate(NODE_NAMES)}
BONUS = (3, 3, 2, 2, 1)


def bonus(k):
    return BONUS[k] if k < len(BONUS) else 0


def passable_set(state):
    return frozenset(h for h in range(HEX_COUNT) if not state.tiles[h].isupper()) | set(START_AREAS) | {SUMMIT}


def dist_from(P, a):
    """The fewest steps from a to every node, through P; no step leaves the summit."""
    dist, frontier = {a: 0}, [a]
    while frontier:
        nxt = []
        for v in frontier:
            if v == SUMMIT:
                continue
            for w in NEIGHBOURS[v]:
                if w in P and w not in dist:
                    dist[w] = dist[v] + 1
                    nxt.append(w)
        frontier = nxt
    return dist


def crowded(M, T):
    hexes = [m for m in M if m < HEX_COUNT]
    return any(m in T for m in hexes) or len(hexes) != len(set(hexes))


def spread(P, M, T, pool):
    targets = []
    for m in M:
        d = dist_from(P, m)
        near_area = min((d[a] for a in START_AREAS if a in d), default=None)
        options = sorted((k, n) for n, k in d.items() if n < HEX_COUNT and n not in T and k <= pool)
        if near_area is not None and near_area <= pool:
            options.append((near_area, -1))
        targets.append(sorted(options))

    def assign(i, used, cost):
        if i == len(targets):
            return True
        for k, n in targets[i]:
            if cost + k > pool:
                break
            if n == -1 or n not in used:
                if assign(i + 1, used | ({n} if n >= 0 else set()), cost + k):
                    return True
        return False

    return assign(0, frozenset(), 0)


def part(P, M, T, U, pool, arrived, memo):
    if not crowded(M, T):
        return True
    key = (P, tuple(sorted(M)), pool, arrived)
    if key in memo:
        return memo[key]
    memo[key] = False
    ok = spread(P, M, T, pool)
    for i, m in enumerate(M):
        if ok:
            break
        d = dist_from(P, m).get(SUMMIT)
        if d is not None and d <= pool:
            ok = part(P, M[:i] + M[i + 1:], T, U, pool - d + bonus(arrived), arrived + 1, memo)
    if not ok and pool >= 5:
        for t in U:
            if t in P:
                continue
            if any(dist_from(P, m).get(v, pool) <= pool - 5 for m in M for v in NEIGHBOURS[t]):
                if part(P | {t}, M, T, U, pool - 4, arrived, memo):
                    ok = True
                    break
    memo[key] = ok
    return ok


def words(state):
    seat = state.actor
    M = tuple(n for n in state.monks[seat] if n != SUMMIT)
    T = frozenset(n for s, nodes in enumerate(state.monks) if s != seat for n in nodes if n < HEX_COUNT)
    U = [h for h in range(HEX_COUNT) if state.tiles[h] != "." and h not in state.fixed]
    return passable_set(state), M, T, U, len(state.arrivals)


def go_legal_by_the_spec(state, u, v, d, memo):
    P, M, T, U, arrived = words(state)
    rest = list(M)
    rest.remove(u)
    pool = state.pool - d
    if v == SUMMIT:
        pool, arrived = pool + bonus(arrived), arrived + 1
    else:
        rest.append(v)
    return not crowded(rest, T) or part(P, tuple(rest), T, U, pool, arrived, memo)


def _legal(state, action):
    try:
        GAME.apply(state, action)
        return True
    except IllegalAction:
        return False


def _crowding_player(rng):
    """Random, but fond of going onto occupied hexes, so parting is asked often."""
    def pick(state, legal):
        taken = {n for nodes in state.monks for n in nodes if n < HEX_COUNT}
        onto = [a for a in legal if a[0] == "go" and INDEX[a[2]] in taken]
        if onto and rng.random() < 0.7:
            return rng.choice(onto)
        return rng.choice(legal)
    return pick


def test_a_go_or_a_turn_is_legal_exactly_when_the_spec_s_parting_rule_says_so():
    asked = crowded_asked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_game(rng.choice([2, 3, 4]), {})
        pick = _crowding_player(rng)
        for _ in range(150):
            if GAME.is_terminal(state):
                break
            if state.phase == "move" and state.pool >= 1:
                memo = {}
                P, M, T, U, arrived = words(state)
                for u in sorted(set(M)):
                    for v, d in dist_from(P, u).items():
                        if v == u or d > state.pool:
                            continue
                        action = ("go", NODE_NAMES[u], NODE_NAMES[v])
                        assert _legal(state, action) == go_legal_by_the_spec(state, u, v, d, memo), action
                        asked += 1
                if crowded(M, T) and state.pool >= 4:
                    for h in U:
                        if any(h in nodes for nodes in state.monks):
                            continue
                        toggled = P - {h} if h in P else P | {h}
                        spec = part(toggled, M, T, U, state.pool - 4, arrived, memo)
                        engine = _legal(state, ("turn", NODE_NAMES[h]))
                        if not engine and spec and state.tiles[h].islower():
                            continue  # refused by the path rule, not by parting
                        assert engine == spec, ("turn", NODE_NAMES[h])
                        crowded_asked += 1
            state = GAME.apply(state, pick(state, GAME.legal_actions(state)))
    assert asked > 1000 and crowded_asked > 10, (asked, crowded_asked)


def test_the_bonus_account_is_spent_first_and_never_above_the_pool():
    arrived_seen = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = GAME.new_game(2, {"bonus_must_be_spent": seed % 2 == 1})
        for _ in range(600):
            if GAME.is_terminal(state):
                break
            action = rng.choice(GAME.legal_actions(state))
            after = GAME.apply(state, action)
            if state.phase == "move" and after.phase == "move" and after.actor == state.actor:
                cost = 4 if action[0] == "turn" else (state.pool - after.pool if action[2] != "summit"
                                                     else None)
                if action[0] == "go" and action[2] == "summit":
                    got = bonus(len(state.arrivals))
                    cost = state.pool + got - after.pool
                    assert after.owed == max(0, state.owed - cost) + got
                    arrived_seen += got > 0
                else:
                    assert after.owed == max(0, state.owed - cost)
            if after.phase != "move":
                assert after.owed == 0
            assert 0 <= after.owed <= after.pool or after.phase != "move"
            state = after
    assert arrived_seen


def _room(state, h, left):
    """Σ over the colours of min(free hexes after h, supply after this tile)."""
    free = [0] * 5
    occupied = {n for nodes in state.monks for n in nodes}
    for x in range(h + 1, HEX_COUNT):
        if state.tiles[x] == "." and x not in occupied and x not in state.fixed:
            free[HEX_COLOUR[x]] += 1
    return sum(min(f, n) for f, n in zip(free, left))


def test_handicap_placements_are_those_the_spec_s_formula_allows_and_field_9_stays_zero():
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        players = rng.choice([2, 3, 4])
        handicap = {str(s): rng.randint(0, 8) for s in range(players)}
        state = GAME.new_game(players, {"handicap": handicap})
        while state.phase == "handicap":
            record = GAME.public_record(state)
            assert record[9] == (0, 0, 0, 0, 0) and record[6] == record[7] == record[8] == 0
            L = state.handicap_left
            supply = [16 - state.tiles.upper().count(c) for c in "GYOBW"]
            occupied = {n for nodes in state.monks for n in nodes}
            last = state.last_placed
            allowed = []
            for h in range(last + 1, HEX_COUNT):
                c = HEX_COLOUR[h]
                if state.tiles[h] != "." or h in occupied or h in state.fixed or not supply[c]:
                    continue
                after = list(supply)
                after[c] -= 1
                if L >= 2 and _room(state, h, after) < L - 1:
                    continue
                allowed.append(h)
            opened = [INDEX[a[1]] for a in GAME.legal_actions(state) if a[0] == "place_open"]
            assert opened == allowed
            checked += 1
            state = GAME.apply(state, ("place_open", NODE_NAMES[rng.choice(allowed)]))
        assert state.phase == "move" and state.actor == 0
    assert checked > 100
