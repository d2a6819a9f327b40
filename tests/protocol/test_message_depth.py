"""A message nested too deep is refused as that, before anything else, whatever its kind —
though `decode_message` measures the depth of most kinds only once their shape refused them
(protocol/session/messages.py): every outcome is the one of measuring first, as the decoder does."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from support.budget import examples
from peerboard.engines.canonical import encode
from peerboard.protocol.session import messages
from peerboard.protocol.log.codec import DecodeError, decode, nested_within
from peerboard.protocol.session.messages import Ack, Beat, Confirm, EntryMessage, MessageError, decode_message
from peerboard.protocol.log.records import Entry, RecordError
from peerboard.protocol.log.schema import MESSAGE_LIMITS, MESSAGES, PROTOCOL_VERSION, SchemaError

H = b"\x11" * 32


def measured_first(data: bytes):
    """What decoding gave when the depth was measured before anything looked at the value
    (`decode_message` as it was written before it measured most kinds only when refused)."""
    try:
        m = decode(data, MESSAGE_LIMITS, canonical=False)
    except DecodeError as exc:
        raise MessageError(f"garbled message: {exc}") from None
    if type(m) is not dict or type(m.get("t")) is not str or type(m.get("v")) is not int:
        raise MessageError("not a peerboard message")
    if m["v"] != PROTOCOL_VERSION:
        raise MessageError(f"protocol version {m['v']}; this node speaks version {PROTOCOL_VERSION}")
    kind = m.pop("t")
    del m["v"]
    if kind not in messages._BUILD:
        raise MessageError(f"unknown message type {kind[:20]!r}")
    try:
        fields = MESSAGES[kind].check(m)
    except SchemaError as exc:
        raise MessageError(str(exc)) from None
    try:
        return messages._BUILD[kind][1](fields)
    except RecordError as exc:
        raise MessageError(f"{kind}: {exc}") from None


def outcome(decoder, data: bytes):
    try:
        return ("message", decoder(data))
    except MessageError as exc:
        return ("refused", str(exc))


def nest(value, times: int):
    for _ in range(times):
        value = (value,)
    return value


def entry_message(action, **fields) -> bytes:
    record = {"seq": 1, "prev": H, "seat": 0, "kind": "move", "body": {"actions": (action,), "nonce": None},
              "sig": bytes(64)}
    record.update(fields)
    return encode({"t": "entry", "v": PROTOCOL_VERSION, "entry": record})


def test_the_deepest_message_a_shape_lets_through_is_within_the_limit():
    # an action nested as deep as an action may be, in an entry message, decodes ...
    deepest = entry_message(nest("go", 4))
    assert isinstance(decode_message(deepest), EntryMessage)
    m = decode(deepest, MESSAGE_LIMITS, canonical=False)
    assert nested_within(m, messages._SHALLOW_DEPTH) and not nested_within(m, messages._SHALLOW_DEPTH - 1)
    # ... one level deeper it is an action no longer, and refused as that (still within the limit)
    with pytest.raises(MessageError, match="actions must be a list"):
        decode_message(entry_message(nest("go", 5)))


@pytest.mark.parametrize("data, says", [
    # an action nested 13 deep in all: message, entry, body, actions, then the action's 9
    (entry_message(nest("go", 9)), "garbled message: nested deeper than 12"),
    (entry_message(nest("go", 8)), "entry: a move body: actions must be a list"),  # 12 deep: the shape's refusal
    # an ack or a beat with a field nested 13 deep (12 below the message's map)
    (encode({"t": "ack", "v": 1, "seat": 0, "seq": 1, "entry": H, "state": nest(H, 12)}), "nested deeper than 12"),
    (encode({"t": "ack", "v": 1, "seat": 0, "seq": 1, "entry": H, "state": nest(H, 11)}), "ack: state must be 32 bytes"),
    (encode({"t": "beat", "v": 1, "seq": 1, "head": H, "x": nest(1, 12)}), "nested deeper than 12"),
    (encode({"t": "confirm", "v": 1, "seq": 1, "entry": H, "states": (nest(H, 11),)}), "nested deeper than 12"),
    # too deep, and of another version, of no kind, or not a message at all: the depth first
    (encode({"t": "ack", "v": 2, "x": nest(1, 12)}), "nested deeper than 12"),
    (encode({"t": "nothing", "v": 1, "x": nest(1, 12)}), "nested deeper than 12"),
    (encode({"t": ("ack",), "v": 1, "x": nest(1, 12)}), "nested deeper than 12"),
    (encode({"t": {"a": 1}, "v": 1, "x": nest(1, 12)}), "nested deeper than 12"),
    (encode(nest(1, 13)), "nested deeper than 12"),
    (encode(nest(1, 12)), "not a peerboard message"),
    # a genesis's options may nest deeper than a message may: measured before it is built
    (encode({"t": "propose", "v": 1, "addrs": (), "genesis": {"options": {"o": nest(1, 11)}}}),
     "nested deeper than 12"),
])
def test_too_deep_is_refused_first_whatever_else_is_wrong(data, says):
    with pytest.raises(MessageError, match=says):
        decode_message(data)
    assert outcome(decode_message, data) == outcome(measured_first, data)


def _messages():
    entry = Entry(3, H, 1, "move", {"actions": (("go", 1),), "nonce": None}, bytes(64))
    return [Ack(0, 3, H, H).to_bytes(), Ack(0, 3, H, H, H).to_bytes(), Beat(3, H).to_bytes(),
            Confirm(3, H, (H, None, H)).to_bytes(), EntryMessage(entry).to_bytes(),
            EntryMessage(entry, Confirm(2, H, (None, H))).to_bytes()]


@st.composite
def deepened(draw):
    """A message with one of its values (or the whole) wrapped in arrays some levels deep."""
    data = draw(st.sampled_from(_messages()))
    m = decode(data, MESSAGE_LIMITS, canonical=False)
    times = draw(st.integers(0, 14))
    key = draw(st.sampled_from(sorted(m) + ["*"]))
    if draw(st.booleans()):  # (another kind's name, or another version, or none)
        m["t"] = draw(st.sampled_from(sorted(messages._BUILD) + ["nothing", 1, None]))
    if draw(st.integers(0, 5)) == 0:
        m["v"] = draw(st.sampled_from([0, 2, "1", None]))
    if key == "*":
        return encode(nest(m, times))
    if key == "entry" and type(m[key]) is dict:
        inner = dict(m["entry"])
        inner["body"] = dict(inner["body"], actions=nest(inner["body"]["actions"], times))
        m[key] = inner
    else:
        m[key] = nest(m[key], times)
    return encode(m)


@given(deepened())
@settings(max_examples=examples(800), deadline=None)
def test_every_message_decodes_as_when_its_depth_is_measured_first(data):
    assert outcome(decode_message, data) == outcome(measured_first, data)
