"""The round of Aton as a machine: each action is applied, then `settle` carries out every
step the rules leave no choice in (reshuffles, revealing, cartouche 1, the order, overflow,
discarding, scoring, the next round) until a seat must decide or a card must be drawn.

The rules are one table (`BOOK`, engines/rulebook.py): for each phase the list of its legal
actions, for each (phase, kind of action) why such an action is refused (None when it is
legal) and what it does.

Actions (spec/games/aton.md):
    ("draw", v)            chance: the drawer's next card is v (1..4); ("draw", None) when
                           the card is hidden from this view
    ("keep",)              keep the hand (a seat with the white counter)
    ("exchange", a,b,c,d)  hand in the white counter, discard these four cards face up
    ("assign", c1,c2,c3,c4)  the cards put on cartouches 1..4 (secret until all committed)
    ("turn", v)            chance: the tie-break card turned up from the deck is v
    ("remove", sq)         take the counter on square sq (0..47) to the Kingdom of the Dead
    ("place", sq)          put one counter from the supply on the empty square sq
    ("retrieve", sq)       after a scoring: take one of one's own counters back
"""
from __future__ import annotations

from itertools import permutations
from operator import attrgetter
from typing import Any

from peerboard.engines.aton import cards, scoring
from peerboard.engines.aton.notation import decode
from peerboard.engines.aton.state import (
    ASSIGN, DRAW, EXCHANGE, OVER, PLACE, REMOVE, RETRIEVE, SEATS, TURN_UP, Seat, State, changed,
)
from peerboard.engines.aton.temples import NUM_SQUARES, square_name, squares_up_to
from peerboard.engines.chance import uniform_below
from peerboard.engines.contract import Action
from peerboard.engines.rulebook import Rule, Rulebook, always, until_settled
from peerboard.engines.values import replaced

HAND = 4
KINGDOM_FULL = 8
RETRIEVE_COUNT = 4


def new_state(win_points: int, first_round_removal: bool) -> State:
    state = State(
        win_points=win_points,
        first_round_removal=first_round_removal,
        seats=(Seat(), Seat()),
        board=(-1,) * NUM_SQUARES,
    )
    return settle(state)


# -- small pure helpers ---------------------------------------------------------------


def _with_seat(state: State, i: int, **changes: Any) -> State:
    return changed(state, seats=_seats_with(state.seats, i, changed(state.seats[i], **changes)))


def _with_seat_and(state: State, i: int, seat: dict[str, Any], **changes: Any) -> State:
    """`_with_seat(state, i, **seat)` with `changes` to the state too: one new state, not two
    (the ledger applies every action twice a game: as it is played, and at the audit)."""
    return changed(state, seats=_seats_with(state.seats, i, changed(state.seats[i], **seat)), **changes)


def _seats_with(seats: tuple[Seat, Seat], i: int, seat: Seat) -> tuple[Seat, Seat]:
    """`replaced(seats, i, seat)` for the two seats, as a playout makes it at every action."""
    return (seat, seats[1]) if i == 0 else (seats[0], seat)


def _other(seat: int) -> int:
    return 1 - seat


def removal_due(state: State, seat: int) -> tuple[int, int]:
    """(how many counters, whose) the seat's cartouche-2 card removes."""
    shown = state.seats[seat].cartouches
    assert shown is not None  # (a seat removes only once its cartouches are shown)
    card = shown[1]
    if state.round == 1 and not state.first_round_removal:
        return 0, _other(seat)
    if card == 1:
        return 1, seat
    return card - 2, _other(seat)


def allowed_squares(state: State, seat: int) -> range:
    """The squares of the temples the seat's cartouche-3 card opens."""
    shown = state.seats[seat].cartouches
    assert shown is not None  # (asked only once the cartouches are shown)
    return _UP_TO[shown[2]]


#: a cartouche-3 card -> the squares it opens (squares_up_to, made once)
_UP_TO = {card: squares_up_to(card) for card in cards.VALUES}


def _eligible_removals(state: State) -> list[int]:
    _, target = removal_due(state, state.actor)
    board = state.board
    return [sq for sq in allowed_squares(state, state.actor) if board[sq] == target]


def _empty_allowed(state: State) -> list[int]:
    # (the allowed squares are those from 0 on: enumerate a slice, no index per square)
    return [sq for sq, owner in enumerate(state.board[: allowed_squares(state, state.actor).stop]) if owner == -1]


def _allowed_holds(state: State, seat: int, owner: int) -> bool:
    """Whether a square cartouche 3 allows `seat` holds a counter of `owner` (-1: is empty):
    what `_step` asks after every removal and placement, without the list."""
    return owner in state.board[: allowed_squares(state, seat).stop]  # (the squares from 0 on)


def _own_squares(state: State, seat: int) -> list[int]:
    return [sq for sq, owner in enumerate(state.board) if owner == seat]


def _reshuffle_if_empty(state: State, seat: int) -> State:
    """An empty deck takes the discards back (a deck has no order the rules can see)."""
    s = state.seats[seat]
    if sum(s.unseen) == s.hand_size:  # (s.deck_size == 0, without the property's call)
        state = _with_seat(state, seat, unseen=cards.add(s.unseen, s.discards), discards=cards.EMPTY)
    return state


def _end(state: State, winners: tuple[int, ...], why: str) -> State:
    return changed(state, phase=OVER, winners=winners, ending=why, owed=0)


# -- what happens by itself ---------------------------------------------------------------


def _step(state: State) -> State:
    """One forced step, or `state` itself when someone must act (engines.rulebook.until_settled)."""
    phase = state.phase
    if phase == DRAW:
        seats = state.seats
        i = 0 if seats[0].hand_size < HAND else 1 if seats[1].hand_size < HAND else None
        if i is None:
            return changed(state, phase=EXCHANGE)
        state = _reshuffle_if_empty(state, i)
        return state if state.actor == i else changed(state, actor=i)
    if phase == EXCHANGE:
        for i in SEATS:
            if i not in state.decided and state.seats[i].exchange:
                return state if state.actor == i else changed(state, actor=i)
        return changed(state, phase=ASSIGN, actor=0)
    if phase == ASSIGN:
        for i in SEATS:
            if state.seats[i].cartouches is None:
                return state if state.actor == i else changed(state, actor=i)
        return _resolve_cartouche_1(state)
    if phase == TURN_UP:
        if len(state.turned) < 2:
            seat = len(state.turned)
            state = _reshuffle_if_empty(state, seat)
            return state if state.actor == seat else changed(state, actor=seat)
        a, b = state.turned
        if a == b:
            return changed(state, turned=())
        return _begin_actions(state, (0, 1) if a < b else (1, 0))
    if phase == REMOVE:
        if state.owed and _allowed_holds(state, state.actor, removal_due(state, state.actor)[1]):
            return state
        # too few eligible counters: the rest of the removal is lost
        shown = state.seats[state.actor].cartouches
        assert shown is not None  # (REMOVE comes after the cartouches are shown)
        return changed(state, phase=PLACE, owed=shown[3])
    if phase == PLACE:
        placer = state.seats[state.actor]
        if state.owed and placer.supply:
            if _allowed_holds(state, state.actor, -1):
                return state
            # no empty square allowed: the rest of the counters go to the Kingdom of the Dead
            overflow = min(state.owed, placer.supply)
            return _next_actor(_with_seat_and(state, state.actor, {"supply": placer.supply - overflow,
                                                                   "dead": placer.dead + overflow}, owed=0))
        return _next_actor(state)  # (whatever comes next sets what is owed)
    if phase == RETRIEVE:
        if state.owed:
            return state
        position = state.order.index(state.actor)
        if position == 0:
            nxt = state.order[1]
            return changed(state, actor=nxt, owed=min(RETRIEVE_COUNT, len(_own_squares(state, nxt))))
        return _new_round(state)
    return state  # OVER


#: carry out every forced step until a decision or a chance node (or the end)
settle = until_settled(_step)


def _resolve_cartouche_1(state: State) -> State:
    c0, c1 = state.seats[0].cartouches, state.seats[1].cartouches
    assert c0 is not None and c1 is not None  # (ASSIGN is over: both seats have chosen)
    diff = c0[0] - c1[0]
    if diff:
        scorer = 0 if diff > 0 else 1
        s = state.seats[scorer]
        state = _with_seat(state, scorer, score=s.score + 2 * abs(diff))
        if state.seats[scorer].score >= state.win_points:
            return _end(state, (scorer,), f"seat {scorer} reached {state.win_points} points on cartouche 1")
    # cartouche 2: the lower card acts first; tie: the lower cartouche-1 card; tie: turn up
    if c0[1] != c1[1]:
        return _begin_actions(state, (0, 1) if c0[1] < c1[1] else (1, 0))
    if c0[0] != c1[0]:
        return _begin_actions(state, (0, 1) if c0[0] < c1[0] else (1, 0))
    return changed(state, phase=TURN_UP, turned=(), actor=0)


def _begin_actions(state: State, order: tuple[int, int]) -> State:
    return _begin_removal(state, order[0], order=order, turned=())


def _begin_removal(state: State, seat: int, **changes: Any) -> State:
    """`seat` acts: its removal, or its placing at once when it has nothing to remove (what
    the removal's `_step` would find next), with `changes` made too: one new state, not
    the three in between (the ledger applies every action twice a game)."""
    count, target = removal_due(state, seat)
    if count and _allowed_holds(state, seat, target):
        return changed(state, actor=seat, phase=REMOVE, owed=count, **changes)
    shown = state.seats[seat].cartouches
    assert shown is not None  # (a seat acts only once its cartouches are shown)
    return changed(state, actor=seat, phase=PLACE, owed=shown[3], **changes)


def _next_actor(state: State) -> State:
    if state.order.index(state.actor) == 0:
        return _begin_removal(state, state.order[1])
    return _end_of_round(state)


def _shown(seat: Seat) -> tuple[int, int, int, int]:
    """The seat's cartouche cards, once shown (after ASSIGN, until the round's end)."""
    assert seat.cartouches is not None
    return seat.cartouches


def _end_of_round(state: State) -> State:
    # Discard the eight cartouche cards.
    seats = tuple(changed(s, discards=cards.add(s.discards, cards.of(_shown(s))), cartouches=None)
                  for s in state.seats)
    state = changed(state, seats=seats, last_first=state.order[0])
    if state.seats[0].dead + state.seats[1].dead < KINGDOM_FULL:
        return _new_round(state)
    points = scoring.temple_scores(state.board)
    for i in SEATS:
        state = _with_seat(state, i, score=state.seats[i].score + points[i])
    s0, s1 = state.seats[0].score, state.seats[1].score
    if max(s0, s1) >= state.win_points:
        winners = (0,) if s0 > s1 else (1,) if s1 > s0 else ()
        return _end(state, winners, f"a scoring took a seat to {state.win_points} or more points")
    # The Kingdom empties; then each seat takes 4 of its counters back, the leader first.
    for i in SEATS:
        s = state.seats[i]
        state = _with_seat(state, i, supply=s.supply + s.dead, dead=0)
    leader = 0 if s0 > s1 else 1 if s1 > s0 else state.last_first
    order = (leader, _other(leader))
    return changed(
        state, phase=RETRIEVE, order=order, actor=leader,
        owed=min(RETRIEVE_COUNT, len(_own_squares(state, leader))),
    )


def _new_round(state: State) -> State:
    return changed(state, round=state.round + 1, phase=DRAW, actor=0, order=(), decided=(), owed=0)


# -- decisions and chance ---------------------------------------------------------------


#: the chance outcomes, made once: `apply` knows these very values (BOOK.known) and skips
#: decoding them; the ledger applies every draw it samples
HIDDEN_DRAW = ("draw", None)
DRAWN = {v: ("draw", v) for v in cards.VALUES}
TURNED = {v: ("turn", v) for v in cards.VALUES}


def _draw_actions(state: State) -> list[Action]:
    seat = state.seats[state.actor]
    if seat.hand is None:
        return [HIDDEN_DRAW]
    deck = cards.sub(seat.unseen, seat.hand)
    return [DRAWN[v] for v in cards.VALUES if deck[v - 1]]


def _turn_up_actions(state: State) -> list[Action]:
    return [action for action, _ in chance_weights(state)]


def _exchange_actions(state: State) -> list[Action]:
    return [("keep",)] + [("exchange", *h) for h in _possible_hands(state.seats[state.actor])]


#: hand -> its orders onto the cartouches, and the assign actions of them (a pure
#: function's memo: a hand is one of the 35 counts of four cards)
_ORDERS: dict[cards.Counts, tuple[tuple[int, ...], ...]] = {}
_ASSIGNS: dict[cards.Counts, tuple[Action, ...]] = {}


def assignments(hand: cards.Counts) -> tuple[tuple[int, ...], ...]:
    """Every order of the hand's cards onto cartouches 1..4, each distinct one once, ascending."""
    found = _ORDERS.get(hand)
    if found is None:
        found = _ORDERS[hand] = tuple(sorted(set(permutations(cards.listed(hand)))))
    return found


def _assign_actions(state: State) -> list[Action]:
    seat = state.seats[state.actor]
    if seat.hand is not None:
        known = _ASSIGNS.get(seat.hand)
        if known is None:
            known = _ASSIGNS[seat.hand] = tuple(("assign", *p) for p in assignments(seat.hand))
        return list(known)
    seen: set[tuple[int, ...]] = set()
    for hand in _possible_hands(seat):
        seen.update(permutations(hand))
    return [("assign", *p) for p in sorted(seen)]


def legal_actions(state: State) -> list[Action]:
    return BOOK.legal_actions(state)


def _possible_hands(seat: Seat) -> list[tuple[int, ...]]:
    """The hand (sorted), or every hand the unseen cards allow when this view can't see it."""
    if seat.hand is not None:
        return [cards.listed(seat.hand)]
    hands: list[tuple[int, ...]] = []
    for a in cards.VALUES:
        for b in range(a, 5):
            for c in range(b, 5):
                for d in range(c, 5):
                    if cards.contains(seat.unseen, cards.of((a, b, c, d))):
                        hands.append((a, b, c, d))
    return hands


def chance_weights(state: State) -> list[tuple[Action, int]]:
    seat = state.seats[state.actor]
    if state.phase == DRAW and seat.hand is None:
        return [(HIDDEN_DRAW, 1)]
    deck = cards.sub(seat.unseen, seat.hand) if seat.hand is not None else seat.unseen
    outcome = DRAWN if state.phase == DRAW else TURNED
    return [(outcome[v], deck[v - 1]) for v in cards.VALUES if deck[v - 1]]


def sample_card(state: State, entropy: bytes) -> tuple[str, int | None]:
    """`pick_weighted(chance_weights(state), entropy)` without the list: the deck's counts
    are the weights, walked in the same order (a value with none left is passed over alike)."""
    seat = state.seats[state.actor]
    if state.phase == DRAW and seat.hand is None:
        uniform_below(1, entropy)  # (the one outcome; the entropy is checked all the same)
        return HIDDEN_DRAW
    deck = cards.sub(seat.unseen, seat.hand) if seat.hand is not None else seat.unseen
    outcome = DRAWN if state.phase == DRAW else TURNED
    return outcome[card_at(deck, uniform_below(cards.size(deck), entropy))]


def card_at(deck: cards.Counts, value: int) -> int:
    """The card a draw of `value` (0 <= value < the deck's size) takes: the deck's counts
    walked in the order of the values, each value as many times as it is held."""
    for v in cards.VALUES:
        count = deck[v - 1]
        if value < count:
            return v
        value -= count
    raise AssertionError("unreachable: value < the deck's size")


def apply(state: State, action: Action) -> State:
    """The state after `action` and every step that follows it by itself (`settle`)."""
    return BOOK.apply(state, action)


def _elsewhere(state: State, kind: str) -> str:
    if state.phase == OVER:
        return "The game is over; no action is allowed."
    expected = {
        DRAW: "a card to be drawn", EXCHANGE: "keep or exchange", ASSIGN: "assign",
        TURN_UP: "a tie-break card to be turned up", REMOVE: "remove", PLACE: "place",
        RETRIEVE: "retrieve",
    }[state.phase]
    return f"'{kind}' is not allowed now: the game waits for {expected} (seat {state.actor})."


# -- the rule of each action: why it is refused, what it does --------------------------------


def _draw_problem(state: State, v: int | None) -> str | None:
    seat = state.seats[state.actor]
    if v is None:
        if seat.hand is not None:
            return f"Seat {state.actor}'s hand is seen here, so the card drawn must be named."
        return None
    if seat.hand is None:
        return f"Seat {state.actor}'s hand is hidden here; its draws are too."
    if not cards.sub(seat.unseen, seat.hand)[v - 1]:
        return f"Seat {state.actor}'s deck holds no {v}."
    return None


def _draw(state: State, v: int | None) -> State:
    seat = state.seats[state.actor]
    if v is None:
        return _with_seat(state, state.actor, hand=None, hand_size=seat.hand_size + 1)
    assert seat.hand is not None  # (a named card is drawn into a hand seen here: _draw_problem)
    return _with_seat(state, state.actor, hand=cards.add(seat.hand, cards.ONE[v]), hand_size=seat.hand_size + 1)


def _reveal_problem(state: State, seat_index: int, shown: tuple[int, ...], what: str) -> str | None:
    """Why the seat cannot show these cards from its hand: checked against the hand, or
    (where the hand is hidden from this view) against what the seat can possibly hold."""
    seat = state.seats[seat_index]
    counts = cards.of(shown)
    if len(shown) != seat.hand_size:
        return f"{what} needs all {seat.hand_size} cards of the hand, not {len(shown)}."
    if seat.hand is not None and counts != seat.hand:
        held = " ".join(map(str, cards.listed(seat.hand)))
        return f"{what} must use the cards in hand ({held})."
    if seat.hand is None and not cards.contains(seat.unseen, counts):
        return f"Seat {seat_index} cannot hold those cards."
    return None


def _revealed(state: State, seat_index: int, shown: tuple[int, ...], seat: dict[str, Any], **changes: Any) -> State:
    """The seat's hand shown (and `seat`'s changes to it made, `changes` to the state): one new state."""
    old = state.seats[seat_index]
    # A hidden hand stays hidden (None) even when empty, so the next draws stay hidden too.
    hand = None if old.hand is None else cards.EMPTY
    return _with_seat_and(state, seat_index, {"hand": hand, "hand_size": 0, "unseen": cards.sub(old.unseen, cards.of(shown)),
                                              **seat}, **changes)


def _keep(state: State) -> State:
    return changed(state, decided=state.decided + (state.actor,))


def _exchange_problem(state: State, *shown: int) -> str | None:
    if list(shown) != sorted(shown):
        return "'exchange' lists the four cards in ascending order."
    return _reveal_problem(state, state.actor, shown, "An exchange")


def _exchange(state: State, *shown: int) -> State:
    s = state.seats[state.actor]
    return _revealed(state, state.actor, shown, {"exchange": False, "discards": cards.add(s.discards, cards.of(shown))},
                     phase=DRAW, decided=state.decided + (state.actor,))


def _assign_problem(state: State, *shown: int) -> str | None:
    return _reveal_problem(state, state.actor, shown, "An assignment")


def _assign(state: State, *shown: int) -> State:
    return _revealed(state, state.actor, shown, {"cartouches": tuple(shown)})


def _deck(state: State) -> cards.Counts:
    seat = state.seats[state.actor]
    return cards.sub(seat.unseen, seat.hand) if seat.hand is not None else seat.unseen


def _turn_problem(state: State, v: int) -> str | None:
    return None if _deck(state)[v - 1] else f"Seat {state.actor}'s deck holds no {v}."


def _turn(state: State, v: int) -> State:
    seat = state.seats[state.actor]
    one = cards.ONE[v]
    return _with_seat_and(state, state.actor,
                          {"unseen": cards.sub(seat.unseen, one), "discards": cards.add(seat.discards, one)},
                          turned=state.turned + (v,))


def _remove_problem(state: State, sq: int) -> str | None:
    _, target = removal_due(state, state.actor)
    if sq not in allowed_squares(state, state.actor):
        return f"{square_name(sq)} is outside the temples cartouche 3 allows."
    if state.board[sq] != target:
        whose = "your own" if target == state.actor else "your opponent's"
        return f"{square_name(sq)} holds none of {whose} counters."
    return None


def _remove(state: State, sq: int) -> State:
    _, target = removal_due(state, state.actor)
    board = replaced(state.board, sq, -1)
    t = state.seats[target]
    return _with_seat_and(state, target, {"dead": t.dead + 1}, board=board, owed=state.owed - 1)


def _place_problem(state: State, sq: int) -> str | None:
    if sq not in allowed_squares(state, state.actor):
        return f"{square_name(sq)} is outside the temples cartouche 3 allows."
    if state.board[sq] != -1:
        return f"{square_name(sq)} is not empty."
    return None


def _place(state: State, sq: int) -> State:
    board = replaced(state.board, sq, state.actor)
    s = state.seats[state.actor]
    state = _with_seat_and(state, state.actor, {"supply": s.supply - 1}, board=board, owed=state.owed - 1)
    why = scoring.immediate_win(state.board, state.actor, sq)
    if why:
        return _end(state, (state.actor,), f"seat {state.actor} {why}")
    return state


def _retrieve_problem(state: State, sq: int) -> str | None:
    return None if state.board[sq] == state.actor else f"{square_name(sq)} holds none of your counters."


def _retrieve(state: State, sq: int) -> State:
    board = replaced(state.board, sq, -1)
    s = state.seats[state.actor]
    return _with_seat_and(state, state.actor, {"supply": s.supply + 1}, board=board, owed=state.owed - 1)


BOOK: Rulebook[State] = Rulebook(
    phase=attrgetter("phase"),  # (a lambda is a Python call more on every apply)
    lists={
        DRAW: _draw_actions,
        TURN_UP: _turn_up_actions,
        EXCHANGE: _exchange_actions,
        ASSIGN: _assign_actions,
        REMOVE: lambda state: [("remove", sq) for sq in _eligible_removals(state)],
        PLACE: lambda state: [("place", sq) for sq in _empty_allowed(state)],
        RETRIEVE: lambda state: [("retrieve", sq) for sq in _own_squares(state, state.actor)],
    },
    rules={
        (DRAW, "draw"): Rule(_draw_problem, _draw),
        (EXCHANGE, "keep"): Rule(always, _keep),
        (EXCHANGE, "exchange"): Rule(_exchange_problem, _exchange),
        (ASSIGN, "assign"): Rule(_assign_problem, _assign),
        (TURN_UP, "turn"): Rule(_turn_problem, _turn),
        (REMOVE, "remove"): Rule(_remove_problem, _remove),
        (PLACE, "place"): Rule(_place_problem, _place),
        (RETRIEVE, "retrieve"): Rule(_retrieve_problem, _retrieve),
    },
    decode=decode,
    known=(HIDDEN_DRAW, *DRAWN.values(), *TURNED.values()),
    elsewhere=_elsewhere,
    settle=settle,
)
