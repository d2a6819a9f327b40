"""Whatever bytes a log holds, `resume`'s opening of it never shrinks it except by a torn
tail, and that tail is kept aside: the log left behind followed by what was kept aside is
the file as it was, byte for byte (hypothesis; issue 22, point 1)."""
from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from support.stored_games import build, log_bytes, spans, store
from support.budget import examples
from peerboard.node.gamefiles import GameFileError, GameFiles
from peerboard.protocol.log.logfile import MAX_FRAME


@functools.cache
def game():
    return build("aton", seed=9)  # a whole game: the results and the audit are in it too


def open_for_resume(path: Path) -> tuple[bytes, bytes, str]:
    """What resume's opening left: the log's bytes, the bytes kept aside, and how it ended."""
    try:
        files, _ = GameFiles.reopen(path)
    except GameFileError as exc:
        outcome = type(exc).__name__
    else:
        files.close()
        outcome = "resumable"
    aside = b"".join(p.read_bytes() for p in sorted(path.parent.glob("*.torn")))
    return path.read_bytes(), aside, outcome


damage = st.one_of(
    st.tuples(st.just("flip"), st.floats(0, 1), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.floats(0, 1), st.just(0)),
    st.tuples(st.just("overwrite"), st.floats(0, 1), st.integers(1, 64)),
    st.tuples(st.just("insert"), st.floats(0, 1), st.integers(1, 16)),
    st.tuples(st.just("delete"), st.floats(0, 1), st.integers(1, 16)),
    st.tuples(st.just("length"), st.floats(0, 1), st.integers(0, MAX_FRAME + 1)),
)


def damaged(data: bytes, harms, filler: bytes) -> bytes:
    for kind, where, n in harms:
        pos = min(int(where * len(data)), len(data) - 1)
        if kind == "flip":
            data = data[:pos] + bytes([data[pos] ^ (1 << n)]) + data[pos + 1:]
        elif kind == "cut":
            data = data[:pos]
        elif kind == "overwrite":
            data = data[:pos] + filler[:n] + data[pos + n:]
        elif kind == "insert":
            data = data[:pos] + filler[:n] + data[pos:]
        elif kind == "delete":
            data = data[:pos] + data[pos + n:]
        else:  # a frame's length prefix set to `n`
            starts = [s for s, _ in spans(data)] or [0]
            start = starts[min(int(where * len(starts)), len(starts) - 1)]
            data = data[:start] + n.to_bytes(4, "big") + data[start + 4:]
        if not data:
            data = b"\0"
    return data


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(damage, min_size=1, max_size=3), st.binary(min_size=64, max_size=64))
def test_resume_never_shrinks_a_log_except_by_a_torn_tail_kept_aside(harms, filler):
    data = damaged(log_bytes(game()), harms, filler)
    folder = Path(tempfile.mkdtemp(prefix="logsafe-"))
    try:
        path = store(folder, game(), data)
        left, aside, outcome = open_for_resume(path)
        event(outcome)
        assert left + aside == data
        if outcome != "resumable":
            assert not aside and left == data  # refused: the file untouched
        assert len(aside) < 4 + MAX_FRAME  # (at most one record: the one being appended)
    finally:
        shutil.rmtree(folder)
