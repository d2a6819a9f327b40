"""An entry taken from a peer's record has the bytes, hash and signing bytes of its one
canonical encoding, whether protocol/log/records.py packed the record as it came (its keys in
canonical order, a body with no map of its own) or encoded it again from its values."""
from __future__ import annotations

from pathlib import Path

import pytest

from peerboard.engines.canonical import encode
from peerboard.protocol.log.codec import decode
from peerboard.protocol.log.logfile import read_log
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.log.records import ENTRY_DOMAIN, _NO_MAPS, entry_from_record, make_entry

VECTORS = sorted((Path(__file__).resolve().parents[2] / "spec" / "vectors").glob("*.pblog"))


def _records():
    for path in VECTORS:
        for entry in read_log(path.read_bytes()).entries:
            yield path.name, entry
    # (a kind no vector holds)
    yield "chain", make_entry(Identity.from_seed(bytes(32)), 3, b"\x11" * 32, 0, "chain", {"tip": b"\x22" * 32})


def test_the_vectors_hold_every_kind_of_entry():
    assert {e.kind for _, e in _records()} >= set(_NO_MAPS) | {"result", "results"}


@pytest.mark.parametrize("order", ["as sent", "keys reversed"])
def test_every_entry_of_the_vectors_is_taken_with_its_canonical_bytes(order):
    for name, stored in _records():
        record = decode(stored.encoded)
        if order == "keys reversed":  # (not canonical: encoded again, canonically)
            record = {k: record[k] for k in reversed(record)}
            record["body"] = {k: record["body"][k] for k in reversed(record["body"])}
        entry = entry_from_record(record)
        packed = "encoded" in entry.__dict__
        assert packed == (order == "as sent" and stored.kind in _NO_MAPS), name
        assert entry.encoded == stored.encoded == encode(record), name
        assert entry.hash == stored.hash, name
        assert entry.signing_bytes() == ENTRY_DOMAIN + encode({k: v for k, v in record.items() if k != "sig"}), name
