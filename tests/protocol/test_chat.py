"""Table chat over the simulated network (spec/protocol.md, "Chat"): a line said at one node
is told at every seat and spectator, signed by its author, beside the game and never in its
log; a forged line, a stranger's line and a flood are dropped; the chat file keeps the lines
that check out."""
import pytest

from peerboard.protocol.session import chat
from peerboard.protocol.session.events import Chatted, Rejected
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.session.messages import Hello, Say
from peerboard.protocol.log.schema import MAX_CHAT
from peerboard.protocol.session.session import LocalError
from support.simnet import SimNet

STRANGER = Identity.from_seed(b"\x77" * 32)


def _table(seed=5, spectators=0):
    net = SimNet(seed)
    nodes = net.table("aton", 2)
    watchers = [net.spectator(nodes[0]) for _ in range(spectators)]
    net.run(lambda: all(w.session.genesis_hash is not None for w in watchers), max_time=60)
    for w in watchers:  # (as a spectator's node does once it has the genesis: node/loop.py)
        hello = Hello(net.table_id, "aton", f"watcher-{w.index}", w.key, "spectator", bytes(32), bytes(32),
                      f"sim://{w.index}")
        for seat in nodes:
            net.inject(w, seat, hello.to_bytes())
    net.run(lambda: all(len(n.session.spectators) == spectators for n in nodes), max_time=60)
    return net, nodes, watchers


def _said(node):
    return [(e.seat, e.line.text) for e in node.events if isinstance(e, Chatted)]


def _say(net, node, text):
    net.apply(node, node.session.say(text, net.now))


def _settle(net, seconds=1.0):
    net.run(lambda: False, max_time=seconds)


def test_a_line_said_at_one_seat_is_told_at_the_other_with_its_author_and_the_log_does_not_change():
    net, (ann, bob), _ = _table()
    net.think = (5.0, 5.0)  # (the bots wait: the log stands still while the line travels)
    _settle(net, 0.5)
    held = [e.hash for e in bob.disk.all_entries()]
    _say(net, ann, "good luck, bob")
    net.run(lambda: _said(bob), max_time=5)
    assert _said(bob) == [(0, "good luck, bob")]
    assert _said(ann) == [(0, "good luck, bob")]  # (the author's own node tells it too)
    mine = [e for e in ann.events if isinstance(e, Chatted)][0]
    assert mine.mine and chat.is_signed(mine.line) and mine.line.by == ann.key
    assert [e.hash for e in bob.disk.all_entries()][: len(held)] == held
    assert all(e.kind != "say" for e in bob.disk.all_entries())


def test_a_line_names_the_entry_it_was_said_after():
    net, (ann, bob), _ = _table()
    net.think = (5.0, 5.0)
    _settle(net, 0.5)
    _say(net, bob, "hm")
    net.run(lambda: _said(ann), max_time=5)
    line = [e for e in ann.events if isinstance(e, Chatted)][0].line
    assert line.after == bob.session.log_length


def test_a_spectator_hears_the_seats_and_its_line_is_passed_on_to_the_other_spectators():
    net, (ann, bob), (eve, fay) = _table(spectators=2)
    net.think = (5.0, 5.0)
    _settle(net, 1.0)
    _say(net, ann, "welcome, watchers")
    _say(net, eve, "hello from the gallery")
    net.run(lambda: len(_said(fay)) == 2 and len(_said(bob)) == 2, max_time=5)
    _settle(net, 1.0)
    assert set(_said(fay)) == {(0, "welcome, watchers"), (None, "hello from the gallery")}
    assert (None, "hello from the gallery") in _said(bob)
    assert len(_said(fay)) == 2  # passed on by both seats, told once


def test_a_forged_line_is_rejected_and_never_told():
    net, (ann, bob), _ = _table()
    good = chat.signed(ann.identity, ann.session.table_id, 0, "fair game")
    forged = Say(good.table, good.after, "I resign", good.by, good.sig)
    net.inject(ann, bob, forged.to_bytes())
    _settle(net, 0.5)
    assert _said(bob) == []
    assert any("signature is not its author's" in r for r in net.rejections(bob))


def test_a_line_from_a_node_that_is_neither_seat_nor_spectator_is_dropped():
    net, (ann, bob), _ = _table()
    line = chat.signed(STRANGER, bob.session.table_id, 0, "buy cheap gold")
    effects = bob.session.receive(STRANGER.public_key, line.to_bytes(), net.now)
    assert not any(isinstance(e, Chatted) for e in effects)
    assert any(isinstance(e, Rejected) and "holds no seat" in e.reason for e in effects)


def test_a_line_about_another_table_is_dropped():
    net, (ann, bob), _ = _table()
    line = chat.signed(ann.identity, b"\x01" * 16, 0, "wrong room")
    effects = bob.session.receive(ann.key, line.to_bytes(), net.now)
    assert not any(isinstance(e, Chatted) for e in effects)
    assert any(isinstance(e, Rejected) and "another table" in e.reason for e in effects)


def test_a_flood_is_bounded_said_once_and_the_flooder_still_plays():
    net, (ann, bob), _ = _table()
    table = ann.session.table_id
    now = net.now
    told, said_once = 0, 0
    for i in range(40):
        line = chat.signed(ann.identity, table, 0, f"spam {i}")
        for e in bob.session.receive(ann.key, line.to_bytes(), now):
            told += isinstance(e, Chatted)
            said_once += isinstance(e, Rejected)
    assert told == chat.CHAT_BURST and said_once == 1
    later = chat.signed(ann.identity, table, 0, "sorry")
    effects = bob.session.receive(ann.key, later.to_bytes(), now + chat.CHAT_EVERY)
    assert [e.line.text for e in effects if isinstance(e, Chatted)] == ["sorry"]
    assert bob.session._strikes.get(ann.key, 0) == 0  # (chat never costs a seat its game)


def test_a_copy_of_a_line_is_told_once():
    net, (ann, bob), _ = _table()
    line = chat.signed(ann.identity, ann.session.table_id, 0, "once")
    first = bob.session.receive(ann.key, line.to_bytes(), net.now)
    again = bob.session.receive(ann.key, line.to_bytes(), net.now)
    assert sum(isinstance(e, Chatted) for e in first) == 1 and again == []


def test_what_cannot_be_said_is_one_line_saying_why():
    net, (ann, bob), _ = _table()
    with pytest.raises(LocalError, match="Say what"):
        ann.session.say("   ", net.now)
    with pytest.raises(LocalError, match=f"at most {MAX_CHAT} characters"):
        ann.session.say("x" * (MAX_CHAT + 1), net.now)
    for i in range(chat.CHAT_BURST):
        ann.session.say(f"line {i}", net.now)
    with pytest.raises(LocalError, match="Slow down"):
        ann.session.say("one more", net.now)


def test_the_chat_file_keeps_the_lines_that_check_out_and_skips_the_rest():
    ann = Identity.from_seed(b"\x01" * 32)
    table = b"\x10" * 16
    lines = [chat.signed(ann, table, 0, "hi"), chat.signed(ann, table, 4, "nice move")]
    forged = Say(table, 5, "forged", ann.public_key, lines[0].sig)
    other = chat.signed(ann, b"\x20" * 16, 6, "elsewhere")
    data = chat.header_frame() + b"".join(chat.line_frame(x) for x in [lines[0], forged, other, lines[1]])
    assert chat.read_chat(data, table) == (lines, 2)
    assert chat.read_chat(data + chat.line_frame(lines[1])[:7], table) == (lines, 3)  # a torn last line
