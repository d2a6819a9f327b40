"""The forms a table of this version writes, changed for a while: a measurement's baseline
(bench/bench_session.py) runs the same code in the form before — every ack to every peer,
one `reveal` entry per seat, one `audit` and one `result` entry per seat. It reaches inside
the live session (a bench may use only its face), so it lives with the tests' helpers."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from peerboard.protocol.session import acks, hosting

#: the seats from which this version gathers acks at each entry's author
GATHER_FROM = acks.GATHER_FROM


@contextmanager
def table_forms(gather_from: int, reveals: str | None, ends: str | None) -> Iterator[None]:
    """Tables formed meanwhile gather acks from `gather_from` seats on, and write the
    genesis's `reveals` and `ends` as given (None: not written, the form before)."""
    saved = acks.GATHER_FROM, hosting.REVEALS_TOGETHER, hosting.ENDS_TOGETHER
    acks.GATHER_FROM, hosting.REVEALS_TOGETHER, hosting.ENDS_TOGETHER = gather_from, reveals, ends
    try:
        yield
    finally:
        acks.GATHER_FROM, hosting.REVEALS_TOGETHER, hosting.ENDS_TOGETHER = saved
