"""Every shape refuses exactly what its fields' checks refuse, naming the first field that
fails — the fields in order, then the extra fields the map holds — though each shape tests
its fields inline in one function (protocol/log/schema.py)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from support.budget import examples
from peerboard.protocol.log import schema
from peerboard.protocol.log.schema import SchemaError, Shape

SHAPES = [schema.GENESIS, schema.SEAT, schema.ENTRY, schema.SIGNED_GENESIS, schema.ENDING, schema.TAKEOVER_RECORD,
          *schema.BODIES.values(), *schema.MESSAGES.values()]

ATOMS = st.one_of(st.none(), st.booleans(), st.integers(-2**64, 2**64), st.sampled_from([-1, 0, 1, 7, 8, 64, 65]),
                  st.text(max_size=45), st.sampled_from(["drawn", "aborted", "together", "seat", "ask", "\x1b"]),
                  st.binary(max_size=70), st.sampled_from([bytes(n) for n in (16, 32, 64)]), st.floats())
VALUES = st.recursive(ATOMS, lambda inner: st.one_of(st.lists(inner, max_size=9).map(tuple),
                                                     st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)


def checked_field_by_field(shape: Shape, value: dict) -> str | None:
    """The reason the shape gives, worked out by calling each field's check in turn."""
    for key, ok in shape.fields:
        if not ok(value[key]):
            return f"{shape.name}: {key} {shape.rules[key]}"
    for key, ok in shape.extra:
        if key in value and not ok(value[key]):
            return f"{shape.name}: {key} {shape.rules[key]}"
    return None


@st.composite
def filled(draw):
    shape = draw(st.sampled_from(SHAPES))
    keys = [k for k, _ in shape.fields] + [k for k, _ in shape.extra if draw(st.booleans())]
    value = {}
    for key in keys:
        # (a value that fits, most of the time, so that a later field is the one that fails)
        value[key] = draw(VALUES) if draw(st.integers(0, len(keys))) == 0 else draw(st.sampled_from(_FITS[shape.name, key]))
    return shape, value


def _fits() -> dict:
    samples = [None, True, 0, 1, 7, 64, -1, "drawn", "together", "seat", "ask", "ann", "x" * 33, bytes(16), bytes(32),
               bytes(64), (), (bytes(32),), (bytes(64),), (None, bytes(32)), (("go", 1),), (0, 1), {"a": 1}, (1,)]
    return {(shape.name, key): [v for v in samples if ok(v)] or [None]
            for shape in SHAPES for key, ok in (*shape.fields, *shape.extra)}


_FITS = _fits()


@given(filled())
@settings(max_examples=examples(1500), deadline=None)
def test_a_shape_names_the_first_field_its_check_refuses(case):
    shape, value = case
    try:
        shape.check(value)
        said = None
    except SchemaError as exc:
        said = str(exc)
    assert said == checked_field_by_field(shape, value)
