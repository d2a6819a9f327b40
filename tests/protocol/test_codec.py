"""The strict codec and the log reader: hostile bytes are refused with a reason, never a crash."""
from hypothesis import given, settings, strategies as st

from support.budget import examples
from peerboard.engines.canonical import encode
from peerboard.protocol.log.codec import DecodeError, Limits, decode
from peerboard.protocol.log.logfile import LogFileError, frame, header_frame, read_log

atoms = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20) | st.binary(max_size=20)
values = st.recursive(
    atoms,
    lambda inner: st.lists(inner, max_size=5).map(tuple) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


@given(values)
def test_canonical_values_round_trip(value):
    data = encode(value)
    assert decode(data) == value
    assert encode(decode(data)) == data


@given(st.binary(max_size=300))
@settings(max_examples=examples(500))
def test_random_bytes_decode_or_raise_decode_error(data):
    try:
        value = decode(data)
    except DecodeError as exc:
        assert str(exc)
    else:
        assert encode(value) == data  # canonical: exactly the value these bytes encode


@given(values, st.integers(0, 10_000), st.integers(0, 255))
@settings(max_examples=examples(300))
def test_mutated_values_decode_to_the_value_their_bytes_encode_or_raise_decode_error(value, where, byte):
    data = bytearray(encode(value))
    at = where % len(data)
    unchanged = data[at] == byte
    data[at] = byte
    try:
        decoded = decode(bytes(data))
    except DecodeError as exc:
        assert str(exc) and not unchanged, exc
    else:
        # never a value near the one meant, or a part of it: the one the bytes encode, whole
        assert encode(decoded) == bytes(data)
        if unchanged:
            assert decoded == value and type(decoded) is type(value)


def test_maps_must_have_sorted_keys():
    unsorted = b"\x82\xa1b\x01\xa1a\x01"  # {"b": 1, "a": 1}
    try:
        decode(unsorted)
    except DecodeError as exc:
        assert "canonical" in str(exc)
    else:
        raise AssertionError("unsorted map accepted")


def test_limits_are_enforced():
    deep = encode(((((((((((((((((((1,),),),),),),),),),),),),),),),),),))
    for data, limits in [(deep, Limits(depth=8)), (encode("x" * 100), Limits(text=50)),
                         (encode(tuple(range(100))), Limits(length=10)), (encode(b"x" * 100), Limits(size=50))]:
        try:
            decode(data, limits)
        except DecodeError:
            continue
        raise AssertionError(f"limit not enforced for {data[:10]!r}")


@given(st.binary(max_size=400))
@settings(max_examples=examples(300))
def test_random_files_read_or_raise_log_file_error(tail):
    for data in (tail, header_frame() + tail, header_frame() + frame({"genesis": {}, "sigs": []}) + tail):
        try:
            contents = read_log(data)
        except LogFileError as exc:
            assert str(exc)
        else:
            assert contents.genesis is not None
