"""The client's bot for a seat taken over at this node (client/takeover.py): it answers each
`TakeoverTurn` with a legal action of the table's strategy; a name it does not know — an
import path above all, since the name comes from another node's genesis — is said once and
never imported, and the node then plays the first legal action."""
import sys

from peerboard.client.takeover import TakeoverPlayer
from peerboard.protocol.session.session import TakeoverTurn
from support.simnet import SimNet
from support.claim_tables import Claimers, by_seat, play_until


def _runner_turn():
    net = SimNet(3)
    nodes = by_seat(net.table("asterix", 3, {"max_rounds": 2}, patience=10, takeover="greedy"))
    play_until(net, nodes, 5)
    net.crash(nodes[2])
    told = lambda: any(isinstance(e, TakeoverTurn) for e in nodes[0].events)  # noqa: E731
    assert Claimers(net, nodes[:2]).run(told, 300), "the runner was never asked for the seat it took over"
    return nodes[0].session, next(e for e in nodes[0].events if isinstance(e, TakeoverTurn))


def test_the_tables_strategy_answers_with_a_legal_action_and_a_stranger_is_never_imported(tmp_path, monkeypatch):
    (tmp_path / "planted_bot.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'w').close()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    session, turn = _runner_turn()
    said = []
    for strategy in ("greedy", "random", "mcts"):
        (action,) = TakeoverPlayer(said.append)(TakeoverTurn(turn.seat, turn.kind, turn.legal, strategy), session)
        assert action in turn.legal
    assert said == []
    for strategy in ("nonsense", "planted_bot:Bot"):
        assert TakeoverPlayer(said.append)(TakeoverTurn(turn.seat, turn.kind, turn.legal, strategy), session) == []
    assert len(said) == 2 and all("first legal move" in line for line in said)
    assert not (tmp_path / "imported").exists(), "a strategy named by another node was imported"
    assert "planted_bot" not in sys.modules
