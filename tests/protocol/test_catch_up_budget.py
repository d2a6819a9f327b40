"""Catch-up is paced (spec/protocol.md, "Budgets"): a node answers at most 4 `want`s a
second from one peer and 16 from all spectators together; what is beyond is counted, said
once 16 went unanswered, then at most every 10 s, and strikes nobody."""
from __future__ import annotations

from peerboard.protocol.session.budget import SAY_AFTER, SAY_EVERY, SPECTATOR_WANTS_PER_SECOND, WANTS_PER_SECOND, CatchUp

SEAT, WATCHER = b"s" * 32, b"w" * 32


def test_a_peer_gets_four_answers_a_second_and_its_budget_comes_back_with_time():
    c = CatchUp()
    answered = [c.answers(SEAT, False, 0.0) for _ in range(10)]
    assert answered == [True] * WANTS_PER_SECOND + [False] * (10 - WANTS_PER_SECOND)
    assert not c.answers(SEAT, False, 0.1) and c.answers(SEAT, False, 0.3)  # one back every 0.25 s
    # an honest node asks a peer twice a second: always answered
    c = CatchUp()
    assert all(c.answers(SEAT, False, t * 0.5) for t in range(100))


def test_spectators_together_get_sixteen_answers_a_second_and_never_hold_back_a_seat():
    c = CatchUp()
    watchers = [bytes([i]) * 32 for i in range(10)]
    answered = sum(c.answers(w, True, 0.0) for w in watchers for _ in range(WANTS_PER_SECOND))
    assert answered == SPECTATOR_WANTS_PER_SECOND
    assert all(c.answers(SEAT, False, 0.0) for _ in range(WANTS_PER_SECOND))  # a seat has its own
    # many spectators within their own budgets are not a flood, even beyond the budget of all
    assert all(c.said(w, 60.0) is None for w in watchers) and not c.unanswered


def test_a_flood_of_wants_is_said_once_it_is_one_then_every_ten_seconds_and_counts_against_nobody():
    c = CatchUp()
    for _ in range(WANTS_PER_SECOND + SAY_AFTER - 1):
        c.answers(WATCHER, True, 0.0)
    assert c.said(WATCHER, 0.0) is None  # a few too many: no flood yet
    c.answers(WATCHER, True, 0.0)
    line = c.said(WATCHER, 0.0)
    assert line == f"flooding: {SAY_AFTER} requests for entries beyond 4 a second were not answered so far"
    c.answers(WATCHER, False, 0.0)
    assert c.said(WATCHER, 1.0) is None and c.said(WATCHER, SAY_EVERY) is not None
    assert c.said(SEAT, SAY_EVERY) is None
