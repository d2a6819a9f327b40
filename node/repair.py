"""`peerboard resume FILE --repair`: a damaged log's game, got back from the other players
(spec/log-format.md, "Repairing a log").

The damaged file is kept as it is, byte for byte, under `<log>.damaged` (a second name of
the same file: nothing is copied, nothing rewritten). In its place goes a new log holding the
records before the first bad one — each checked as `replay --verify` checks it — and the
game resumes from that: the session asks the peers for every entry from there on and checks
each before it stores it, as after any crash. The seat signs nothing until every other seat
has told it its head and it holds that much, so it signs no second entry for a seq it signed
in the damaged part.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from peerboard.protocol.logfile import frames
from peerboard.protocol.replay import Verdict

DAMAGED_SUFFIX = ".damaged"


class CannotRepair(ValueError):
    """A log this node cannot repair by itself; the text says why and what to do."""


@dataclass(frozen=True)
class Repaired:
    #: where the damaged log is kept, as it was
    damaged: Path
    #: the entries kept (those before the first bad record)
    entries: int
    #: the seq of the first bad record
    bad_seq: int


def damaged_path(log_path: Path) -> Path:
    """A name beside the log that holds nothing yet: `<log>.damaged`, `<log>.damaged-2` ..."""
    path = log_path.with_name(log_path.name + DAMAGED_SUFFIX)
    n = 1
    while path.exists():
        n += 1
        path = log_path.with_name(f"{log_path.name}{DAMAGED_SUFFIX}-{n}")
    return path


def repair(path: Path, data: bytes, verdict: Verdict) -> Repaired:
    """Keep the damaged log `path` (its bytes `data`, its verdict `verdict`) under a name of
    its own, and put in its place a log of the records before its first bad one."""
    if not verdict.bad_seq:
        raise CannotRepair(f"{path} is damaged in its {'header' if verdict.bad_seq is None else 'genesis'}, "
                           f"which says what game it is: only a copy of the log from another player can replace it")
    # the bytes of every record before the bad one, exactly as they are (frame k + 1 is entry k)
    starts = [offset for offset, _, _ in frames(data)]
    if len(starts) < verdict.bad_seq + 2:
        raise CannotRepair(f"{path} does not hold the record its verdict names (seq {verdict.bad_seq})")
    good = data[:starts[verdict.bad_seq + 1]]
    damaged = damaged_path(path)
    os.link(path, damaged)  # the damaged file, under a second name: its bytes stay as they are
    new = path.with_name(path.name + ".repairing")
    with open(new, "wb") as f:
        f.write(good)
        f.flush()
        os.fsync(f.fileno())
    os.replace(new, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return Repaired(damaged, verdict.bad_seq - 1, verdict.bad_seq)
