"""The live game screen's move list is kept between snapshots (client/tui/live_snapshot.py,
`MoveLines`): only the lines after the last confirmed entry are written again, and what it
shows is at every moment what writing every line afresh shows."""
from peerboard.client.tui.live_snapshot import MoveLines, move_lines
from support.simnet import SimNet


def _follow(net, nodes, kept: list[MoveLines], done) -> int:
    """Run the table; after every step of the network, each node's kept list must equal one
    written afresh. Returns how many steps were compared."""
    steps = 0

    def check() -> bool:
        nonlocal steps
        steps += 1
        for node, lines in zip(nodes, kept):
            assert lines.of(node.session) == move_lines(node.session), (steps, node)
        return done()

    assert net.run(check, max_time=20000)
    return steps


def test_the_kept_move_list_is_the_whole_list_at_every_step_of_a_game():
    net = SimNet(3)
    nodes = net.table("asterix", 3, {"max_rounds": 2})
    kept = [MoveLines() for _ in nodes]
    steps = _follow(net, nodes, kept, lambda: net.finished(nodes))
    assert steps > 50
    final = move_lines(nodes[0].session)
    assert len(final) > 20 and all(line.confirmed for line in final)
    assert kept[0].of(nodes[0].session) == final


def test_the_kept_move_list_starts_again_for_another_session():
    """A rematch is a new session; the lines kept for the last one are not shown in it."""
    net = SimNet(5)
    red, blue = net.table("aton", 2)
    lines = MoveLines()
    _follow(net, [red], [lines], lambda: len(red.disk.entries) >= 12)
    # (blue's view has its own hidden draws where red's has "draw ?")
    assert lines.of(blue.session) == move_lines(blue.session) != move_lines(red.session)
    assert lines.of(red.session) == move_lines(red.session)


def test_a_claim_and_the_takeover_after_it_are_lines_of_the_move_list():
    """issue 39: the entries that change how the game goes are in the list, named by their
    kind as the replay viewer names them: the claim, the takeover, and a claim that ends it."""
    from support.claim_tables import Claimers, by_seat, play_until, seat_of

    net = SimNet(2)
    nodes = by_seat(net.table("athos", 3, {}, patience=10, takeover="greedy"))
    play_until(net, nodes, 6)
    net.crash(nodes[2])
    rest = nodes[:2]
    kept = [MoveLines() for _ in rest]
    assert Claimers(net, rest).run(lambda: bool(rest[0].session.taken_over), max_time=2000)
    _follow(net, rest, kept, lambda: rest[0].session.confirmed_seq >= rest[0].session.taken_over[0][1])
    (seat, seq, runner), = rest[0].session.taken_over
    lines = {line.seq: line for line in move_lines(rest[0].session)}
    assert lines[seq - 1].text == "claim: seat 2 (node-2) gone for good" and lines[seq - 1].seat == runner
    assert lines[seq].text == "takeover: a greedy bot plays seat 2 (node-2)"
    assert [line.seq for line in move_lines(rest[0].session)] == sorted(lines)
    # the runner goes too: seat 1 claims it, and the game ends there
    net.crash(rest[0])
    assert Claimers(net, rest[1:]).run(lambda: rest[1].session.ending is not None, max_time=2000)
    ending = rest[1].session.ending
    last = {line.seq: line for line in MoveLines().of(rest[1].session)}
    assert last[ending.seq].text == f"claim: seat {seat_of(rest[0])} (node-0) gone for good"
