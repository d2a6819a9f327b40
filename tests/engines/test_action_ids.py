"""Action ids never change (spec/engine-contract.md, "Action ids"; spec/games/NAME.md).

A research framework's saved policy or replay speaks of actions by these numbers: a
renumbering would silently make it play other moves. The digests cover every id of each
numbering; the named ids are the examples spec/games/NAME.md gives.
"""
from __future__ import annotations

import pytest

from peerboard import engines
from peerboard.engines.canonical import digest
from peerboard.engines.contract import IllegalAction
from peerboard.engines.testing import check_action_ids

#: (game, players) -> (number of ids, of them chance outcomes, SHA-256 of the canonical
#: msgpack of the actions in id order)
GOLDEN = {
    ("athos", 2): (19839, 0, "d328bb768c8d0ddc01d04f5ad5b57ffb2c63a1d2c35a7f72ca61aabb0efc3f95"),
    ("athos", 3): (19839, 0, "d328bb768c8d0ddc01d04f5ad5b57ffb2c63a1d2c35a7f72ca61aabb0efc3f95"),
    ("athos", 4): (19839, 0, "d328bb768c8d0ddc01d04f5ad5b57ffb2c63a1d2c35a7f72ca61aabb0efc3f95"),
    ("aton", 2): (665, 8, "6e958b5388a39592cb729f8d584433c305d337feba90628cef351675fa4c1674"),
    ("asterix", 2): (116, 33, "e467a5187a89907c97579d8a2876133031e33f33773898f193f70d540d1fd00b"),
    ("asterix", 3): (119, 33, "e67d323d67573ea8e0124f2e324a74fc0de1a03f909807c0dc6ec51a043bda21"),
    ("asterix", 4): (122, 33, "c9629ebb190e601aa3484851f2d7f371e067d2fc1ae245e78a5d3381437293ef"),
    ("asterix", 5): (125, 33, "051766df81baaf87d08fdee740be9ef1fbad915daaad2f1b2a68e25b9c0ee326"),
    ("asterix", 6): (128, 33, "f453cd8601e31a0eaa240d8b3f4f73b0a44a76828c076068ae19a8ea0c6ea2e1"),
    ("asterix", 7): (131, 33, "7301ff7622009bfbb9178d613c13f0a6e28f9b577ccf419a1cc05ead470422cd"),
    ("asterix", 8): (134, 33, "871ce61ee850370046f11110cf25172ee11d6d80be1738d34abe3144f9c336d3"),
}

#: (game, players, action, id): the examples of spec/games/NAME.md, "Action ids"
NAMED = [
    ("athos", 2, ("end_move",), 0),
    ("athos", 2, ("end_turn",), 2),
    ("athos", 3, ("go", "B", "a5"), 3 + 138 * 133 + 4),
    ("athos", 4, ("go", "k7", "summit"), 3 + 138 * 131 + 137),
    ("athos", 2, ("turn", "a1"), 19047),
    ("athos", 2, ("place_open", "k7"), 19047 + 132 * 5 + 131),
    ("aton", 2, ("draw", 1), 0),
    ("aton", 2, ("turn", 4), 7),
    ("aton", 2, ("keep",), 8),
    ("aton", 2, ("exchange", 1, 1, 1, 1), 9),
    ("aton", 2, ("assign", 4, 1, 3, 2), 265 + 64 * 3 + 0 + 4 * 2 + 1),
    ("aton", 2, ("remove", 0), 521),
    ("aton", 2, ("retrieve", 47), 664),
    ("asterix", 2, ("tile", "boar"), 0),
    ("asterix", 2, ("d6", 6), 11),
    ("asterix", 2, ("roll", 1, 1), 12),
    ("asterix", 2, ("roll", 6, 6), 32),
    ("asterix", 2, ("die", 1), 33),
    ("asterix", 2, ("village", "e5"), 42),
    ("asterix", 2, ("move", "a1"), 43),
    ("asterix", 8, ("move", "h8"), 106),
    ("asterix", 2, ("leave",), 109),
    ("asterix", 2, ("steal", 1, "mistletoe"), 115),
    ("asterix", 8, ("steal", 7, "boar"), 131),
]


def _every_numbering():
    for name in engines.names():
        game = engines.get(name)
        for players in range(game.min_players, game.max_players + 1):
            yield name, players


@pytest.mark.parametrize("name,players", list(_every_numbering()))
def test_every_id_is_the_golden_one(name, players):
    ids = check_action_ids(engines.get(name), players)
    assert ids is not None, f"{name} has no action ids"
    assert (len(ids), ids.chance, digest(tuple(ids)).hex()) == GOLDEN[(name, players)]


@pytest.mark.parametrize("name,players,action,number", NAMED)
def test_the_named_ids_of_the_spec(name, players, action, number):
    ids = engines.get(name).action_ids(players)
    assert ids.id(action) == number and ids.action(number) == action


def test_the_options_never_renumber():
    assert tuple(engines.get("athos").action_ids(4, {"teams": True})) == tuple(engines.get("athos").action_ids(4))
    assert tuple(engines.get("aton").action_ids(2, {"win_points": 25})) == tuple(engines.get("aton").action_ids(2))


def test_an_id_below_the_thefts_means_the_same_at_every_player_count():
    two, eight = engines.get("asterix").action_ids(2), engines.get("asterix").action_ids(8)
    assert tuple(two)[:110] == tuple(eight)[:110]


def test_a_value_of_the_wrong_type_has_no_id():
    ids = engines.get("asterix").action_ids(2)
    for bad in [("die", True), ("die", 1.0), ("move", "z9"), ["die", 1], ("die", 1, 2), ()]:
        with pytest.raises(IllegalAction):
            ids.id(bad)


def test_a_bad_player_count_is_refused_as_new_game_refuses_it():
    with pytest.raises(engines.OptionError):
        engines.get("asterix").action_ids(9)
