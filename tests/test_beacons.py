"""Beacons are untrusted: every field is checked before a table is listed, a flood cannot
grow the list without bound, and a second host claiming a real table's id is listed beside
it, never instead of it (spec/transport.md, "Discovery")."""
from __future__ import annotations

from peerboard.engines.canonical import encode
from peerboard.node.discovery import MAGIC, MAX_PER_SOURCE, MAX_TABLES, Heard, beacon_bytes, parse_beacon
from peerboard.protocol.identity import Identity

HOST = Identity.from_seed(bytes(range(32))).public_key
OTHER = Identity.from_seed(bytes(32)).public_key
TABLE = bytes.fromhex("ab" * 16)
NOT_A_POINT = bytes.fromhex("02" + "00" * 31)  # y = 2 is on no Ed25519 curve point


def beacon(**changes) -> bytes:
    fields = {"v": 1, "game": "aton", "players": 2, "free": 1, "name": "alice", "key": HOST, "table": TABLE,
              "port": 41234, "private": False}
    fields.update(changes)
    return MAGIC + encode({k: v for k, v in fields.items() if v is not ...})


def test_a_well_formed_beacon_is_a_table_at_its_source_address():
    t = parse_beacon(beacon_bytes("aton", 2, 1, "alice", HOST, TABLE, 41234), "10.0.0.5")
    assert (t.game, t.players, t.free, t.name, t.key, t.endpoint) == ("aton", 2, 1, "alice", HOST, "tcp://10.0.0.5:41234")


def test_a_beacon_says_whether_the_table_is_private_and_never_carries_its_code():
    data = beacon_bytes("aton", 2, 1, "alice", HOST, TABLE, 41234, private=True)
    assert parse_beacon(data, "10.0.0.5").private is True
    assert parse_beacon(beacon_bytes("aton", 2, 1, "alice", HOST, TABLE, 41234), "10.0.0.5").private is False
    assert b"code" not in data and b"knock" not in data


def test_a_key_that_is_not_an_ed25519_point_is_not_listed():
    assert parse_beacon(beacon(key=NOT_A_POINT), "10.0.0.5") is None


def test_every_field_is_checked_before_a_table_is_listed():
    bad = [
        beacon(name="\x1b[2Jowned"), beacon(name="evil\u202eevil"), beacon(name="x" * 41),
        beacon(game="Aton!"), beacon(game=""), beacon(players=0), beacon(players=9), beacon(free=3),
        beacon(free=-1), beacon(port=0), beacon(port=70000), beacon(table=b"\x00" * 15), beacon(key=HOST[:31]),
        beacon(players=True), beacon(port=...), beacon(extra=1), beacon(v="1"), beacon(private=...),
        beacon(private=1),
    ]
    assert [parse_beacon(b, "10.0.0.5") for b in bad] == [None] * len(bad)


def test_a_second_host_claiming_a_real_table_id_is_listed_beside_it():
    heard = Heard()
    real = parse_beacon(beacon(), "10.0.0.5")
    fake = parse_beacon(beacon(key=OTHER, name="mallory"), "10.0.0.66")
    assert heard.add(real, "10.0.0.5") and heard.add(fake, "10.0.0.66")
    assert heard.add(parse_beacon(beacon(free=0), "10.0.0.5"), "10.0.0.5")  # the real one, updated
    listed = heard.listed()
    assert len(listed) == 2 and {t.key for t in listed} == {HOST, OTHER}
    assert next(t for t in listed if t.key == HOST).free == 0


def test_a_flood_of_beacons_is_bounded_per_source_and_in_all():
    heard = Heard()
    for i in range(1000):
        t = parse_beacon(beacon(table=i.to_bytes(16, "big")), f"10.0.{i % 300 // 250}.{i % 250}")
        heard.add(t, t.endpoint[6:].rsplit(":", 1)[0])
    assert len(heard.listed()) == MAX_TABLES and heard.ignored == 1000 - MAX_TABLES
    one = Heard()
    for i in range(50):
        one.add(parse_beacon(beacon(table=i.to_bytes(16, "big")), "10.0.0.9"), "10.0.0.9")
    assert len(one.listed()) == MAX_PER_SOURCE
    # a real table elsewhere is still heard after one machine's flood
    assert one.add(parse_beacon(beacon(key=OTHER), "10.0.0.5"), "10.0.0.5")
