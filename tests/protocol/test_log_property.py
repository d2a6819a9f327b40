"""Random tampering of random logs (hypothesis): the verifier never raises, and never calls a
tampered log valid — unless the tampered bytes are a valid log's (a log cut between two
frames is one: valid so far, spec/log-format.md "The file"). An invalid verdict always
names one of the failure classes."""
from __future__ import annotations

import functools
import random

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from peerboard import engines
from support.invalid_vectors import Log
from support.budget import examples
from peerboard.protocol.log import failures
from peerboard.protocol.log.builder import LogBuilder
from peerboard.protocol.log.logfile import frames
from peerboard.protocol.log.replay import verify_log

#: (game, players, options, entries kept: None for the whole game)
SETUPS = [
    ("aton", 2, {"win_points": 10}, None),
    ("asterix", 3, {"max_rounds": 1}, None),
    ("asterix", 2, {"max_rounds": 2, "carry_rule": "both"}, 40),
    ("athos", 2, {}, 40),
    ("athos", 3, {"handicap": {"1": 2}}, 30),
    ("aton", 2, {"win_points": 10}, None),
    ("asterix", 3, {"max_rounds": 1}, None),
]
#: the setups played as a table of this version plays: reveal rounds and the end together
#: (`reveals` and `ends` entries: spec/log-format.md, "Who writes the next entry")
TOGETHER = {5, 6}


@functools.cache
def logs() -> tuple[tuple[bytes, tuple[int, ...], Log], ...]:
    """Each setup played from its own seeds: the file, where its frames end, and its records."""
    out = []
    for n, (game, players, options, keep) in enumerate(SETUPS):
        rng = random.Random(f"tamper {n}")
        keys = [bytes([n * 8 + i + 1]) * 32 for i in range(players)]
        builder = LogBuilder.table(engines.get(game), options, [f"p{i}" for i in range(players)],
                                   [rng.randbytes(32) for _ in range(players)], keys, rng.randbytes(16),
                                   lambda: rng.randbytes(16), reveals="together" if n in TOGETHER else None,
                                   ends="together" if n in TOGETHER else None)
        choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
        if keep is None:
            builder.play(choose)
        else:
            for _ in range(keep):
                if not builder.ledger.finished:
                    builder.step(choose)
        log = Log.built(game, builder.ledger.genesis.record(), [e.record() for e in builder.entries], keys)
        data = log.data()
        ends = tuple(off + 4 + len(raw) for off, raw, _ in frames(data))
        assert verify_log(data).ok
        out.append((data, ends, log))
    return tuple(out)


def _valid_bytes(tampered: bytes, data: bytes, ends: tuple[int, ...]) -> bool:
    """Whether `tampered` is the log itself or a cut of it between two frames after the genesis."""
    return tampered == data or any(tampered == data[:end] for end in ends[1:])


@st.composite
def tampering(draw):
    index = draw(st.integers(0, len(SETUPS) - 1))
    data, ends, _ = logs()[index]
    spans = list(zip((0,) + ends[:-1], ends))
    how = draw(st.sampled_from(["flip", "overwrite", "insert", "delete", "cut", "drop", "repeat", "swap", "splice"]))
    # positions spread over the whole file (plain integers would favour its first bytes)
    pos = draw(st.randoms(use_true_random=False)).randrange(len(data))
    if how == "flip":
        bit = draw(st.integers(0, 7))
        out = data[:pos] + bytes([data[pos] ^ (1 << bit)]) + data[pos + 1 :]
    elif how == "overwrite":
        junk = draw(st.binary(min_size=1, max_size=12))
        out = data[:pos] + junk + data[pos + len(junk) :]
    elif how == "insert":
        out = data[:pos] + draw(st.binary(min_size=1, max_size=12)) + data[pos:]
    elif how == "delete":
        out = data[:pos] + data[pos + draw(st.integers(1, 40)) :]
    elif how == "cut":
        out = data[:pos]
    else:
        i = draw(st.integers(0, len(spans) - 1))
        j = draw(st.integers(0, len(spans) - 1))
        parts = [data[a:b] for a, b in spans]
        if how == "drop":
            del parts[i]
        elif how == "repeat":
            parts.insert(i, parts[j])
        elif how == "swap":
            parts[i], parts[j] = parts[j], parts[i]
        else:  # a frame of another log in place of one of this log's
            other, other_ends, _ = logs()[(index + 1 + j) % len(SETUPS)]
            k = draw(st.integers(0, len(other_ends) - 1))
            start = other_ends[k - 1] if k else 0
            parts[i] = other[start : other_ends[k]]
        out = b"".join(parts)
    return index, how, out


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tampering())
def test_tampered_bytes_never_crash_the_verifier_nor_verify(case):
    index, how, tampered = case
    data, ends, _ = logs()[index]
    assume(not _valid_bytes(tampered, data, ends))
    verdict = verify_log(tampered)  # never raises
    event(f"{how}: {verdict.failure or 'valid'}")
    assert not verdict.ok, f"{how}: a tampered log verified: {verdict.summary()}"
    assert verdict.failure in failures.ORDER and verdict.summary().startswith("invalid at ")


# -- tampering signed again: whatever a seat could sign, the verifier judges without raising ---

_atoms = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1),
                   st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
                   st.sampled_from(["go", "place", "keep", "assign", "move", "die", "roll", "turn", "draw", "a5",
                                    "e5", "summit", "B", "d4", "pick", "steal", "end_turn", "end_move", "village"]),
                   st.integers(-2, 60))
_values = st.recursive(_atoms, lambda inner: st.lists(inner, max_size=5), max_leaves=12)
_actions = st.lists(_values, max_size=5)


@st.composite
def signed_tampering(draw):
    index = draw(st.integers(0, len(SETUPS) - 1))
    log = logs()[index][2]
    seq = draw(st.integers(1, len(log.entries)))
    entry = log.entry(seq)
    # mostly the entry's own kind and seat: a wrong one is refused before its body is read
    kind = draw(st.sampled_from([entry["kind"]] * 8 + ["move", "commit", "reveal", "chain", "chance", "audit", "result",
                                                       "reveals", "audits", "results"]))
    bodies = {
        "move": st.fixed_dictionaries({"actions": st.lists(_actions, min_size=1, max_size=3),
                                       "nonce": st.one_of(st.none(), st.binary(min_size=16, max_size=16))}),
        "commit": st.fixed_dictionaries({"digest": st.binary(min_size=32, max_size=32)}),
        "reveal": st.fixed_dictionaries({"value": st.binary(min_size=32, max_size=32)}),
        "chain": st.fixed_dictionaries({"tip": st.binary(min_size=32, max_size=32)}),
        "chance": st.fixed_dictionaries({"outcome": _actions}),
        "audit": st.fixed_dictionaries({"seed": st.binary(min_size=32, max_size=32)}),
        "result": st.fixed_dictionaries({
            "winners": st.lists(st.integers(0, 7), max_size=3), "scores": st.lists(st.integers(-5, 60), max_size=4),
            "state": st.binary(min_size=32, max_size=32), "cheats": st.lists(st.integers(0, 7), max_size=2)}),
        "reveals": st.fixed_dictionaries({"values": st.lists(st.binary(min_size=32, max_size=32), max_size=4)}),
        "audits": st.fixed_dictionaries({"seeds": st.lists(st.binary(min_size=32, max_size=32), max_size=4)}),
        "results": st.fixed_dictionaries({
            "winners": st.lists(st.integers(0, 7), max_size=3), "scores": st.lists(st.integers(-5, 60), max_size=4),
            "state": st.binary(min_size=32, max_size=32), "cheats": st.lists(st.integers(0, 7), max_size=2),
            "sigs": st.lists(st.binary(min_size=64, max_size=64), max_size=4)}),
    }
    body = draw(bodies[kind])
    seat = draw(st.sampled_from([entry["seat"]] * 4 + [0, len(log.signers) - 1]))
    changed = log.copy()
    changed.entry(seq).update(kind=kind, body=body, seat=seat)
    changed.sign(seq)
    changed.relink(seq + 1)
    return changed.data(seq + draw(st.integers(0, 2)))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(signed_tampering())
def test_a_signed_entry_of_any_shape_is_judged_without_raising(data):
    verdict = verify_log(data)  # never raises: a hostile value is the log's fault, said in one line
    event(verdict.failure or "valid")
    if not verdict.ok:
        assert verdict.failure in failures.ORDER and "\n" not in verdict.summary()


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(signed_tampering(), tampering().map(lambda case: case[2])))
def test_replay_export_of_any_readable_log_never_raises(data):
    from peerboard.client import export
    from peerboard.protocol.log.logfile import LogFileError, read_log

    try:
        contents = read_log(data)
    except LogFileError:
        return  # nothing to export: `replay` prints the verdict alone
    assert export.as_text(contents).startswith("# peerboard log: ")
    assert export.as_json(contents).startswith("{")
