"""Beacons are untrusted: every field is checked before a table is listed, a flood cannot
grow the list without bound, and a second host claiming a real table's id is listed beside
it, never instead of it (spec/transport.md, "Discovery")."""
from __future__ import annotations

from peerboard.engines.canonical import encode
from peerboard.node.discovery import (MAGIC, MAX_PER_SOURCE, MAX_TABLES, MOVED_AFTER, SIGNED, Heard, beacon_bytes,
                                      parse_beacon)
from peerboard.protocol.log.identity import Identity

HOST_ID = Identity.from_seed(bytes(range(32)))
OTHER_ID = Identity.from_seed(bytes(32))
HOST, OTHER = HOST_ID.public_key, OTHER_ID.public_key
TABLE = bytes.fromhex("ab" * 16)
NOT_A_POINT = bytes.fromhex("02" + "00" * 31)  # y = 2 is on no Ed25519 curve point


def beacon(signer: Identity | None = None, **changes) -> bytes:
    """A beacon with these fields, signed by `signer` (by default the key it names, when that
    is HOST's or OTHER's) unless `sig` is given."""
    fields = {"v": 1, "game": "aton", "players": 2, "free": 1, "name": "alice", "key": HOST, "table": TABLE,
              "port": 41234, "private": False}
    fields.update(changes)
    signer = signer or {HOST: HOST_ID, OTHER: OTHER_ID}.get(fields["key"], HOST_ID)
    body = {k: v for k, v in fields.items() if v is not ... and k != "sig"}
    if "sig" not in changes:
        fields["sig"] = signer.sign(SIGNED + encode(body))
    return MAGIC + encode({k: v for k, v in fields.items() if v is not ...})


def test_a_well_formed_beacon_is_a_table_at_its_source_address():
    t = parse_beacon(beacon_bytes("aton", 2, 1, "alice", HOST_ID, TABLE, 41234), "10.0.0.5")
    assert (t.game, t.players, t.free, t.name, t.key, t.endpoint) == ("aton", 2, 1, "alice", HOST, "tcp://10.0.0.5:41234")


def test_a_beacon_says_whether_the_table_is_private_and_never_carries_its_code():
    data = beacon_bytes("aton", 2, 1, "alice", HOST_ID, TABLE, 41234, private=True)
    assert parse_beacon(data, "10.0.0.5").private is True
    assert parse_beacon(beacon_bytes("aton", 2, 1, "alice", HOST_ID, TABLE, 41234), "10.0.0.5").private is False
    assert b"code" not in data and b"knock" not in data


def test_a_key_that_is_not_an_ed25519_point_is_not_listed():
    heard = Heard()
    heard.add(parse_beacon(beacon(key=NOT_A_POINT), "10.0.0.5"), "10.0.0.5")
    assert heard.listed() == [] and heard.forged == 1


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


class Clock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def forgeries(count: int) -> list[bytes]:
    """One-off tables of fresh keys, each signed by its own key: well-formed noise."""
    keys = [Identity.from_seed(bytes([i, 9]) * 16) for i in range(16)]
    return [beacon(signer=keys[i % 16], key=keys[i % 16].public_key, table=i.to_bytes(16, "big"), name=f"noise {i}")
            for i in range(count)]


def flood(heard: Heard, clock: Clock, seconds: int, real: bytes | None, per_second: int = 2000,
          real_source: str = "10.0.0.5", beside_host: list[bytes] = ()) -> list[bool]:
    """`seconds` of one-off forgeries from ever new addresses (and `beside_host` repeated
    from the host's address), the real beacon once a second; whether it was listed after each."""
    noise = forgeries(per_second)
    listed = []
    for second in range(seconds):
        for i, data in enumerate(noise):
            clock.now = 1000 + second + i / per_second
            source = f"10.{1 + second % 200}.{i // 250}.{i % 250}"
            heard.add(parse_beacon(data, source), source)
            if i % 100 == 0:
                for other in beside_host:
                    heard.add(parse_beacon(other, real_source), real_source)
            if real is not None and i == per_second // 2:
                heard.add(parse_beacon(real, real_source), real_source)
        listed.append(any(t.key == HOST and t.table == TABLE for t in heard.listed()))
    return listed


def test_one_off_forgeries_from_ever_new_addresses_cannot_hide_a_table_that_beacons_every_second():
    clock = Clock()
    heard = Heard(clock)
    listed = flood(heard, clock, 12, beacon())
    assert listed[3:] == [True] * 9  # listed by its third beacon, and for good
    assert len(heard.listed()) == MAX_TABLES and heard.ignored > 20000


def test_forged_other_version_tables_from_the_host_own_address_cannot_hide_it():
    clock = Clock()
    heard = Heard(clock)
    old = [beacon(v=0, private=..., sig=..., key=bytes([i]) * 32, table=bytes([i]) * 16, name=f"old {i}")
           for i in range(1, 5)]
    for data in old:  # they were there first
        heard.add(parse_beacon(data, "10.0.0.5"), "10.0.0.5")
    listed = flood(heard, clock, 6, beacon(), per_second=500, beside_host=old)
    assert listed[2:] == [True] * 4


def test_a_flood_costs_a_signature_check_per_table_kept_not_per_datagram(monkeypatch):
    from peerboard.node import discovery

    checks = []
    real_verify = discovery.verify
    monkeypatch.setattr(discovery, "verify", lambda *a: checks.append(1) or real_verify(*a))
    clock = Clock()
    heard = Heard(clock)
    flood(heard, clock, 10, beacon())
    assert len(checks) < 300  # against 20,000 forged datagrams


def test_fields_the_host_key_did_not_sign_change_nothing():
    heard = Heard(Clock())
    assert heard.add(parse_beacon(beacon(), "10.0.0.5"), "10.0.0.5")
    unsigned = beacon(free=0, sig=bytes(64))
    assert not heard.add(parse_beacon(unsigned, "10.0.0.5"), "10.0.0.5")
    resigned = beacon(signer=OTHER_ID, free=0)  # signed, but not by the key it names
    assert not heard.add(parse_beacon(resigned, "10.0.0.5"), "10.0.0.5")
    (table,) = heard.listed()
    assert table.free == 1 and heard.forged == 2


def test_a_replay_from_another_address_does_not_move_a_table_its_host_still_announces():
    clock = Clock()
    heard = Heard(clock)
    heard.add(parse_beacon(beacon(), "10.0.0.5"), "10.0.0.5")
    clock.now += 1
    assert not heard.add(parse_beacon(beacon(), "10.0.0.66"), "10.0.0.66")
    assert heard.listed()[0].endpoint == "tcp://10.0.0.5:41234"
    clock.now += MOVED_AFTER + 1  # the host went quiet there: it moved
    assert heard.add(parse_beacon(beacon(), "10.0.0.7"), "10.0.0.7")
    assert heard.listed()[0].endpoint == "tcp://10.0.0.7:41234"
