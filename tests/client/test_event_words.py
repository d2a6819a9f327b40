"""Every event of a game has its words in one place (client/event_words.py), and the line
prompt and the full-screen client say the same words for it."""
from __future__ import annotations

import io
from types import SimpleNamespace

from peerboard.client.event_words import REJECTIONS_SHOWN, Rejections, said
from peerboard.client.seat import Seat
from peerboard.client.tui.live_source import LiveSource
from peerboard.node.loop import NODE_EVENTS
from peerboard.protocol.session import events as ev
from peerboard.protocol.session.forming import CLOSED
from peerboard.protocol.session.rematch import RematchState
from peerboard.protocol.session.session import Phase


def _session(phase=Phase.PLAYING, local_seat=0):
    seats = (SimpleNamespace(index=0, name="ann", fingerprint="aaaa-aaaa"),
             SimpleNamespace(index=1, name="bob\x1b[2J", fingerprint="bbbb-bbbb"))
    return SimpleNamespace(seats=seats, phase=phase, local_seat=local_seat, log_length=0, genesis_hash=b"g",
                           halt=None, rematch_state=RematchState(2))


def _node(session):
    return SimpleNamespace(on_event=None, session=session, log_path=None, stop=lambda: None,
                           watch_fd=lambda fd, cb: None, call_later=lambda delay, fn: None)


def test_every_event_the_node_passes_on_has_its_words_or_is_no_news_in_itself():
    from peerboard.client import event_words

    assert set(event_words._WORDS) == set(ev.SESSION_EVENTS) | set(NODE_EVENTS)


def test_a_seat_is_named_by_its_number_and_a_printable_name():
    s = _session()
    assert said(ev.PeerAway(1), s).text == r"seat 1 (bob\x1b[2J) is away; the game waits for it."
    assert said(ev.PeerAway(1), s).kind == "warn"
    assert said(ev.PeerLeft(1), _session(Phase.OVER)).text == r"seat 1 (bob\x1b[2J) left (the game is over)."
    offered = _session(Phase.OVER)
    offered.rematch_state.heard(0, "yes")
    assert said(ev.PeerLeft(1), offered).text == r"seat 1 (bob\x1b[2J) left the table: no rematch."


def test_the_host_closing_the_table_is_said_as_such_and_any_other_refusal_with_its_reason():
    assert said(ev.Refused(CLOSED), None).text == "The host closed the table."
    assert said(ev.Refused("the table is full"), None).text == "The table refused this node: the table is full"


def test_a_refusal_for_now_says_why_it_may_pass_and_how_long_the_node_asks_again():
    full = said(ev.Refused("the table is full", again=12.0), None)
    assert full.text == ("The table refused this node for now: the table is full; a seat whose node went silent is "
                         "freed within 6 s, so this node asks again for up to 12 s.") and full.kind == "warn"
    codes = said(ev.Refused("too many wrong codes were tried at this table: it checks codes again in 3 s", again=36.0),
                 None)
    assert codes.text.endswith("in 3 s; it checks codes again soon, so this node asks again for up to 36 s.")


def test_a_peer_flooding_rejected_messages_is_said_a_few_times_then_once_more_then_never():
    rejections = Rejections()
    texts = [rejections.words(ev.Rejected("cccc-cccc", "bad")) for _ in range(REJECTIONS_SHOWN + 3)]
    assert [w.text for w in texts[:REJECTIONS_SHOWN]] == ["Rejected a message from cccc-cccc: bad"] * REJECTIONS_SHOWN
    assert texts[REJECTIONS_SHOWN].text == "Rejecting more messages from cccc-cccc (not shown)."
    assert texts[REJECTIONS_SHOWN + 1:] == [None, None]


def test_the_line_prompt_and_the_screen_say_the_same_words():
    session = _session()
    out = io.StringIO()
    source_node = _node(session)
    source = LiveSource(source_node)
    events = [ev.PeerAway(1), ev.PeerBack(1), ev.PeerMoved(1, b"k" * 32, "tcp://10.0.0.2:5000"),
              ev.SeatFreed(1, "bob", "bbbb-bbbb", "silent")]
    for event in events:
        source_node.on_event(event)
    seat = Seat(_node(session), out=out)
    for event in events:
        seat.on_event(event)
    printed = out.getvalue().splitlines()
    shown = [alert.text for alert in source._alerts_due]
    assert printed == shown == [said(e, session).text for e in events]
    assert shown[-1] == ("Seat 1 (bob, bbbb-bbbb) is free again: it fell silent (nothing heard for 6 s, or no "
                         "signature in time).")


def test_a_disputed_claim_a_frozen_node_and_a_seat_nobody_answers_are_said_plainly():
    s = _session()
    mine = said(ev.Disputed(1, 0, 12, 13, 1, "claimed"), s)
    assert mine.kind == "error" and mine.text.startswith(r"Seat 1 (bob\x1b[2J) claimed your seat at entry 12, as if you "
                                                         "had been away longer than the table's patience")
    assert "You were here: this node has kept your signed protest in this game's log (entry 13)" in mine.text
    assert "the game ends disputed, with no result" in mine.text
    theirs = said(ev.Disputed(1, 0, 12, 13, 0, "claimer"), s)
    assert "disputes your claim of entry 12: its signed protest (entry 13) says it was here" in theirs.text
    woke = said(ev.Woke(63.4), s)
    assert woke.text.startswith("This node did not run for 63 s") and "they were not the ones away" in woke.text
    alone = said(ev.Unanswered((1,), 10.2), s)
    assert alone.text.startswith(r"Seat 1 (bob\x1b[2J) has not answered in 10 s since this node came back")
    assert "the game may have gone on, or ended without you" in alone.text


def _headless_lines(game, options, seed):
    """What `--headless --verbose` prints of a whole game's accepted entries, seat 0's node."""
    from support.simnet import SimNet

    net = SimNet(seed)
    nodes = net.table(game, 2, options)
    assert net.run(lambda: net.finished(nodes), max_time=5000)
    out = io.StringIO()
    seat = Seat(_node(nodes[0].session), out=out, verbose=True)
    for event in nodes[0].events:
        if isinstance(event, ev.Accepted):
            seat.on_event(event)
    return out.getvalue().splitlines()


def test_the_headless_output_names_the_dice_and_the_cards_drawn():
    asterix = _headless_lines("asterix", {"max_rounds": 1}, 3)
    assert any(line.endswith(": chance -> roll 1 5") for line in asterix), asterix  # the dice of a turn
    layout = next(line for line in asterix if line.startswith("1: chance -> tile "))  # the board turned up
    assert layout.endswith(" and 52 more")  # sixty tiles and two dice, ten of them named
    aton = _headless_lines("aton", {"win_points": 5}, 3)
    assert "1: chance -> draw 2, draw 3, draw 1, draw 2, draw ?, draw ?, draw ?, draw ?" in aton  # the other hand hidden
    assert any(": chance -> turn " in line for line in aton), aton  # the Kingdom of the Dead's card turned
    assert any(" played: " in line for line in aton)
