"""The log file format (spec/log-format.md): a header record, the genesis, then entries,
each a frame of a 4-byte big-endian length and that many bytes of canonical msgpack.

Pure: bytes in, records out. Opening, appending and fsyncing files is node/'s job.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from engines.canonical import encode
from protocol.codec import DecodeError, decode
from protocol.records import Entry, RecordError, SignedGenesis, entry_from_record, genesis_from_record
from protocol.schema import RECORD_LIMITS

FORMAT = "peerboard-log"
VERSION = 1
HEADER = {"format": FORMAT, "version": VERSION}
LENGTH_BYTES = 4
MAX_FRAME = RECORD_LIMITS.size  # a frame holds one record


class LogFileError(ValueError):
    """A file that is not a readable log. `seq` is the record that failed (None: the header)."""

    def __init__(self, seq: int | None, why: str):
        where = "header" if seq is None else f"seq {seq}"
        super().__init__(f"{where}: {why}")
        self.seq = seq
        self.why = why


def frame(record: dict | bytes) -> bytes:
    """One record (or its canonical bytes) as it is written to a log file."""
    data = record if isinstance(record, bytes) else encode(record)
    if len(data) > MAX_FRAME:
        raise ValueError("record too large for a log frame")
    return len(data).to_bytes(LENGTH_BYTES, "big") + data


def header_frame() -> bytes:
    return frame(HEADER)


def frames(data: bytes) -> Iterator[tuple[int, bytes | None, str]]:
    """(offset, record bytes, "") per frame; a bad frame yields (offset, None, why) and ends."""
    pos = 0
    while pos < len(data):
        if len(data) - pos < LENGTH_BYTES:
            yield pos, None, "truncated file (a partial record length at the end)"
            return
        size = int.from_bytes(data[pos : pos + LENGTH_BYTES], "big")
        if size == 0 or size > MAX_FRAME:
            yield pos, None, f"garbled record length {size}"
            return
        end = pos + LENGTH_BYTES + size
        if end > len(data):
            yield pos, None, "truncated file (the last record is cut short)"
            return
        yield pos, data[pos + LENGTH_BYTES : end], ""
        pos = end


@dataclass(frozen=True)
class LogContents:
    genesis: SignedGenesis
    entries: tuple[Entry, ...]
    #: the first unreadable record (its seq and why), or None when the whole file read
    error: LogFileError | None = None
    #: bytes of the file that hold whole, readable records (resume appends after these)
    good_bytes: int = 0


def read_log(data: bytes) -> LogContents:
    """Every readable record of a log file. A bad header or genesis raises LogFileError;
    a bad entry stops the reading there and is reported in `error`."""
    stream = frames(data)
    first = next(stream, None)
    if first is None:
        raise LogFileError(None, "empty file: not a peerboard log")
    _, raw, why = first
    if raw is None:
        raise LogFileError(None, why)
    try:
        header = decode(raw)
    except DecodeError as exc:
        raise LogFileError(None, f"not a peerboard log ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogFileError(None, "not a peerboard log")
    if header != HEADER:
        raise LogFileError(None, f"log format version {header.get('version')!r}; this peerboard reads version {VERSION}")
    genesis = None
    entries: list[Entry] = []
    good = LENGTH_BYTES + len(raw)
    for seq, (offset, raw, why) in enumerate(stream):
        try:
            if raw is None:
                raise LogFileError(seq, why)
            try:
                record = decode(raw)
                if seq == 0:
                    genesis = genesis_from_record(record)
                else:
                    entries.append(entry_from_record(record, raw))
            except (DecodeError, RecordError) as exc:
                raise LogFileError(seq, f"garbled record: {exc}") from None
        except LogFileError as exc:
            if genesis is None:
                raise
            return LogContents(genesis, tuple(entries), exc, good)
        good = offset + LENGTH_BYTES + len(raw)
    if genesis is None:
        raise LogFileError(0, "truncated file: no genesis")
    return LogContents(genesis, tuple(entries), None, good)
