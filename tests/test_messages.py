"""The wire form of messages: the byte-exact examples of spec/protocol.md, and for every
kind of message, whatever its values, the bytes a node sends are the one canonical
encoding of its map and decode to the same message."""
from __future__ import annotations

from hypothesis import given, strategies as st

from engines.canonical import encode
from protocol.messages import Ack, Beat, Leave, Sign, Want, Welcome, decode_message
from protocol.schema import PROTOCOL_VERSION

HASH = st.binary(min_size=32, max_size=32)


def test_the_examples_in_the_spec():
    assert Want(5).to_bytes().hex() == "83a373657105a174a477616e74a17601"
    assert Leave().to_bytes().hex() == "82a174a56c65617665a17601"
    assert Beat(3, bytes(32)).to_bytes().hex() == "84a468656164c420" + "00" * 32 + "a373657103a174a462656174a17601"
    assert Ack(1, 7, b"\x11" * 32, b"\x22" * 32).to_bytes().hex() == (
        "86a5656e747279c420" + "11" * 32 + "a47365617401a373657107a57374617465c420" + "22" * 32
        + "a174a361636ba17601")


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
