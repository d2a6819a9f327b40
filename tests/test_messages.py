"""The wire form of messages: the byte-exact examples of spec/protocol.md, and for every
kind of message, whatever its values, the bytes a node sends are the one canonical
encoding of its map and decode to the same message."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engines.canonical import encode
from protocol.messages import Ack, Beat, Hello, Leave, MessageError, Sign, Want, Welcome, decode_message
from protocol.schema import PROTOCOL_VERSION

HASH = st.binary(min_size=32, max_size=32)


def test_the_examples_in_the_spec():
    assert Want(5).to_bytes().hex() == "83a373657105a174a477616e74a17601"
    assert Leave().to_bytes().hex() == "82a174a56c65617665a17601"
    assert Beat(3, bytes(32)).to_bytes().hex() == "84a468656164c420" + "00" * 32 + "a373657103a174a462656174a17601"
    assert Ack(1, 7, b"\x11" * 32, b"\x22" * 32).to_bytes().hex() == (
        "86a5656e747279c420" + "11" * 32 + "a47365617401a373657107a57374617465c420" + "22" * 32
        + "a174a361636ba17601")
    hello = Hello(bytes(16), "aton", "ann", b"\x11" * 32, "seat", b"\x22" * 32, b"\x33" * 32, "tcp://10.0.0.2:7000")
    assert hello.to_bytes().hex() == (
        "8ba461646472b37463703a2f2f31302e302e302e323a37303030a5636861696ec420" + "22" * 32
        + "a467616d65a461746f6ea36b6579c420" + "11" * 32 + "a56b6e6f636bc0a46e616d65a3616e6ea4726f6c65a473656174"
        + "a473656564c420" + "33" * 32 + "a174a568656c6c6fa57461626c65c410" + "00" * 16 + "a17601")
    knocked = Hello(bytes(16), "aton", "ann", b"\x11" * 32, "seat", b"\x22" * 32, b"\x33" * 32,
                    "tcp://10.0.0.2:7000", b"\x44" * 32)
    assert knocked.to_bytes().hex() == hello.to_bytes().hex().replace("a56b6e6f636bc0", "a56b6e6f636bc420" + "44" * 32)


def test_a_hello_must_carry_a_printable_name_and_a_knock_of_32_bytes_or_nil():
    def hello(**changes):
        fields = dict(table=bytes(16), game="aton", name="ann", key=b"\x11" * 32, role="seat", chain=bytes(32),
                      seed=bytes(32), addr="tcp://10.0.0.2:7000", knock=None)
        fields.update(changes)
        return encode({"t": "hello", "v": PROTOCOL_VERSION, **fields})

    assert decode_message(hello()).name == "ann" and decode_message(hello(knock=bytes(32))).knock == bytes(32)
    for bad, says in [(hello(name="\x1b]0;pwned\x07"), "name must be printable text"),
                      (hello(name="a\u202eb"), "name must be printable text"),
                      (hello(knock=bytes(31)), "knock must be 32 bytes or nil"),
                      (hello(knock="code"), "knock must be 32 bytes or nil")]:
        with pytest.raises(MessageError, match=says):
            decode_message(bad)


@given(st.one_of(
    st.builds(Ack, st.integers(0, 7), st.integers(1, 2**40), HASH, HASH),
    st.builds(Beat, st.integers(0, 2**40), HASH),
    st.builds(Want, st.integers(1, 2**40)),
    st.builds(Welcome, st.integers(-1, 7), st.integers(1, 8)),
    st.builds(Sign, st.integers(0, 7), st.binary(min_size=64, max_size=64)),
))
def test_every_message_is_sent_as_its_canonical_encoding_and_decodes_to_itself(message):
    data = message.to_bytes()
    assert data == encode({"t": message.kind, "v": PROTOCOL_VERSION, **message.body()})
    assert decode_message(data) == message
