"""The wire form of messages: the byte-exact examples of spec/protocol.md, and for every
kind of message, whatever its values, the bytes a node sends are the one canonical
encoding of its map and decode to the same message."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from peerboard.engines.canonical import encode
from peerboard.protocol.session.messages import (
    Ack, Beat, Confirm, Hello, Leave, MessageError, Refuse, Rematch, Say, Sign, Want, Welcome, decode_message,
)
from peerboard.protocol.log.schema import PROTOCOL_VERSION

HASH = st.binary(min_size=32, max_size=32)


SPEC = Path(__file__).resolve().parents[2] / "spec" / "protocol.md"
MESSAGES = {cls.kind: cls for cls in (Hello, Welcome, Refuse, Sign, Ack, Beat, Want, Leave, Say, Rematch)}


def _value(text: str):
    """An example's field value: "text", a number, nil, or NN×K bytes."""
    if text == "nil":
        return None
    if text.startswith('"'):
        return text[1:-1]
    if "×" in text:
        byte, count = text.split("×")
        return bytes.fromhex(byte) * int(count)
    return int(text)


def _hex(line: str) -> bytes:
    return b"".join(_value(t) if "×" in t else bytes.fromhex(t) for t in line.split())


def spec_examples() -> list[tuple[str, object, bytes]]:
    """(heading, message, bytes) for every example in spec/protocol.md's byte-exact block."""
    text = SPEC.read_text()
    block = text[text.index("Byte-exact examples"):]
    block = block[block.index("```") + 3:]
    block = block[: block.index("```")]
    examples: list[tuple[str, object, bytearray]] = []
    for line in block.strip("\n").splitlines():
        head = re.fullmatch(r"(\w+)\((.*)\):", line)
        if head:
            kind, args = head.groups()
            fields = dict(re.findall(r'(\w+)=("[^"]*"|[^,\s]+)', args))
            message = MESSAGES[kind](**{k: _value(v) for k, v in fields.items()})
            examples.append((line, message, bytearray()))
        elif line.strip() and not line.strip().startswith("("):
            examples[-1][2].extend(_hex(line))
    return [(h, m, bytes(b)) for h, m, b in examples]


def test_every_example_in_the_spec_is_the_code_s_bytes_both_ways():
    examples = spec_examples()
    assert {type(m) for _, m, _ in examples} == set(MESSAGES.values())  # one of each kind at least
    assert {m.knock is None for _, m, _ in examples if isinstance(m, Hello)} == {True, False}
    for heading, message, data in examples:
        assert message.to_bytes() == data, heading
        assert decode_message(data) == message, heading


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
    st.builds(Ack, st.integers(0, 7), st.integers(1, 2**40), HASH, HASH, HASH),
    st.builds(Confirm, st.integers(1, 2**40), HASH, st.lists(st.one_of(st.none(), HASH), min_size=1, max_size=8).map(tuple)),
    st.builds(Beat, st.integers(0, 2**40), HASH),
    st.builds(Want, st.integers(1, 2**40)),
    st.builds(Welcome, st.integers(-1, 7), st.integers(1, 8)),
    st.builds(Sign, st.integers(0, 7), st.binary(min_size=64, max_size=64)),
))
def test_every_message_is_sent_as_its_canonical_encoding_and_decodes_to_itself(message):
    data = message.to_bytes()
    assert data == encode({"t": message.kind, "v": PROTOCOL_VERSION, **message.body()})
    assert decode_message(data) == message


def test_the_log_header_frame_is_the_35_bytes_the_log_format_spec_shows():
    text = (SPEC.parent / "log-format.md").read_text()
    block = text[text.index("always exactly these 35 bytes"):]
    line = block[block.index("```") + 3:].strip().splitlines()[0]
    from peerboard.protocol.log.logfile import header_frame

    assert header_frame() == bytes.fromhex("".join(line.split())) and len(header_frame()) == 35
