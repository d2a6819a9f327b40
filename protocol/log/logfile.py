"""The log file format (spec/log-format.md): a header record, the genesis, then entries,
each a frame of a 4-byte big-endian length and that many bytes of canonical msgpack.

Pure: bytes in, records out. Opening, appending and fsyncing files is node/'s job.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import msgpack

from peerboard.engines.canonical import encode
from peerboard.protocol.log import failures
from peerboard.protocol.log.codec import DecodeError, decode
from peerboard.protocol.log.records import Entry, RecordError, SignedGenesis, entry_from_record, genesis_from_record
from peerboard.protocol.log.schema import RECORD_LIMITS, WireMap

FORMAT = "peerboard-log"
VERSION = 1
HEADER = {"format": FORMAT, "version": VERSION}
LENGTH_BYTES = 4
MAX_FRAME = RECORD_LIMITS.size  # a frame holds one record


class LogFileError(ValueError):
    """A file that is not a readable log. `seq` is the record that failed (None: the header),
    `failure` the class of the check that failed (protocol/log/failures.py), `why` a sentence."""

    def __init__(self, seq: int | None, why: str, failure: str):
        where = "header" if seq is None else f"seq {seq}"
        super().__init__(f"{where}: {why}")
        self.seq = seq
        self.why = why
        self.failure = failure


def frame(record: WireMap | bytes) -> bytes:
    """One record (or its canonical bytes) as it is written to a log file."""
    data = record if isinstance(record, bytes) else encode(record)
    if len(data) > MAX_FRAME:
        raise ValueError("record too large for a log frame")
    return len(data).to_bytes(LENGTH_BYTES, "big") + data


def header_frame() -> bytes:
    return frame(HEADER)


def frames(data: bytes) -> Iterator[tuple[int, bytes | None, tuple[str, str] | None]]:
    """(offset, record bytes, None) per frame; a bad frame yields (offset, None, (failure
    class, why)) and ends the frames."""
    pos = 0
    while pos < len(data):
        if len(data) - pos < LENGTH_BYTES:
            yield pos, None, (failures.TRUNCATED, "truncated file (a partial record length at the end)")
            return
        size = int.from_bytes(data[pos : pos + LENGTH_BYTES], "big")
        if size == 0 or size > MAX_FRAME:
            yield pos, None, (failures.FRAME, f"garbled record length {size} (a frame holds 1 to {MAX_FRAME} bytes)")
            return
        end = pos + LENGTH_BYTES + size
        if end > len(data):
            yield pos, None, (failures.TRUNCATED, "truncated file (the last record is cut short)")
            return
        yield pos, data[pos + LENGTH_BYTES : end], None
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
    a bad entry stops the reading there and is reported in `error`.

    Whatever is wrong with the first frame — missing, cut short, not the 35 header bytes —
    is a `header` failure: a file that does not begin with the header is not a log at all."""
    stream = frames(data)
    first = next(stream, None)
    if first is None:
        raise LogFileError(None, "empty file: not a peerboard log", failures.HEADER)
    _, raw, problem = first
    if raw is None:
        assert problem is not None  # a frame without bytes says why (`frames`)
        raise LogFileError(None, f"not a peerboard log ({problem[1]})", failures.HEADER)
    try:
        header = decode(raw)
    except DecodeError as exc:
        raise LogFileError(None, f"not a peerboard log ({exc})", failures.HEADER) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogFileError(None, "not a peerboard log", failures.HEADER)
    if header != HEADER:
        raise LogFileError(None, f"log format version {header.get('version')!r}; this peerboard reads version {VERSION}",
                           failures.HEADER)
    genesis = None
    entries: list[Entry] = []
    good = LENGTH_BYTES + len(raw)
    for seq, (offset, raw, problem) in enumerate(stream):
        try:
            if raw is None:
                assert problem is not None  # a frame without bytes says why (`frames`)
                raise LogFileError(seq, problem[1], problem[0])
            try:
                record = decode(raw)
            except DecodeError as exc:
                raise LogFileError(seq, f"garbled record: {exc}", failures.DECODE) from None
            try:
                if seq == 0:
                    genesis = genesis_from_record(record)
                else:
                    entries.append(entry_from_record(record, raw))
            except RecordError as exc:
                what = "garbled record" if exc.failure == failures.SCHEMA else "a genesis no game starts from"
                raise LogFileError(seq, f"{what}: {exc}", exc.failure) from None
        except LogFileError as exc:
            if genesis is None:
                raise
            return LogContents(genesis, tuple(entries), exc, good)
        good = offset + LENGTH_BYTES + len(raw)
    if genesis is None:
        raise LogFileError(0, "truncated file: no genesis after the header", failures.TRUNCATED)
    return LogContents(genesis, tuple(entries), None, good)


def torn_tail(data: bytes, contents: LogContents) -> bytes | None:
    """The bytes after the last whole record when they are a *torn tail* — the start of one
    record an append was writing when its process or machine stopped — else None (no tail,
    or damage).

    An append writes a record's 4-byte length, then its canonical msgpack value. Cut short,
    that is either under 4 bytes of length, or a length that runs past the end of the file
    followed by a strict beginning of one msgpack value: a value's encoding says where it
    ends, so the beginning of one never holds a whole value. Bytes that do hold one — a
    length made longer by a flipped bit, say, over whole records behind it — are damage, and
    so is every other failure, wherever it is (spec/log-format.md, "A torn tail")."""
    error = contents.error
    if error is None or error.failure != failures.TRUNCATED:
        return None
    tail = data[contents.good_bytes:]
    if len(tail) < LENGTH_BYTES:
        return tail
    size = int.from_bytes(tail[:LENGTH_BYTES], "big")
    body = tail[LENGTH_BYTES:]
    if not 0 < size <= MAX_FRAME or len(body) >= size:
        return None
    unpacker = msgpack.Unpacker(max_buffer_size=MAX_FRAME, strict_map_key=False, raw=True)
    unpacker.feed(body)
    try:
        unpacker.unpack()
    except msgpack.OutOfData:
        return tail  # the beginning of one value, and nothing else
    except Exception:
        return None  # bytes that begin no value: damage
    return None  # a whole value inside: damage
