"""The chance outcomes on the session's surface (spec/protocol.md, "The session's public
surface", `chance`): what a move list shows of dice and draws, in a simulated network."""
from peerboard.protocol.log.ledger import Ledger
from support.simnet import SimNet


def test_the_chance_outcomes_are_on_the_surface_where_they_came_about():
    """Dice and draws for move lists (issue 24, 17): every seat sees the public ones alike,
    at the entry that brought them about, written as the replay of the log writes them; a
    hidden draw of another seat is its placeholder."""
    net = SimNet(11)
    nodes = net.table("asterix", 3, {"max_rounds": 1})
    assert net.run(lambda: net.finished(nodes), max_time=20000)
    records = [n.session.chance for n in nodes]
    assert records[0] == records[1] == records[2]
    rolls = [c for c in records[0] if c.texts[0].startswith("roll ")]
    # (a table of this version writes each reveal round as one `reveals` entry)
    assert rolls and all(c.kind == "reveals" and len(c.texts) == 1 for c in rolls)
    ledger = Ledger.start(nodes[0].disk.genesis)
    expected = []
    for entry in nodes[0].disk.entries:
        ledger = ledger.check(entry, signatures=False)
        if ledger.outcomes and entry.kind != "audit":
            expected.append((entry.seq, tuple(ledger.game.format_action(s, o) for s, o in ledger.outcomes)))
    assert [(c.seq, c.texts) for c in records[0]] == expected
    from peerboard.client.tui.live_snapshot import move_lines  # (what the game screen's move list shows)

    shown = {line.seq: line.text for line in move_lines(nodes[1].session)}
    assert all(shown[c.seq] == "reveals -> " + c.texts[0] for c in rolls)

    net = SimNet(5)
    red, blue = net.table("aton", 2)
    net.run(lambda: len(red.disk.entries) >= 6, max_time=2000)
    first = red.session.chance[0].texts
    assert any(t == "draw ?" for t in first) and any(t != "draw ?" for t in first)  # its own, and the other's hidden


def test_the_chance_outcomes_are_the_same_whenever_they_are_asked_for():
    """They are written out in the notation when first asked for (a node nobody asks pays
    nothing for them): asked after every step or once at the end, the same records."""
    seen = []

    def game(ask: bool):
        net = SimNet(11)
        nodes = net.table("asterix", 3, {"max_rounds": 1})

        def done() -> bool:
            if ask and nodes[1].session is not None:
                seen.append(nodes[1].session.chance)
            return net.finished(nodes)
        assert net.run(done, max_time=20000)
        return nodes[1].session.chance

    asked, once = game(True), game(False)
    assert asked == once and len(once) > 3
    assert all(once[:len(then)] == then for then in seen)
