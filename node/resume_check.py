"""What `resume` may go on from: a stored log checked the way `peerboard replay --verify`
checks it (protocol/log/replay.py), before anything of it is kept (spec/log-format.md,
"Resuming a log").

A log that checks out is resumed whole. The only bytes ever taken off it are a torn tail
(protocol/log/logfile.py's `torn_tail`: a record a crash cut short while it was being appended,
never acknowledged), kept in a file beside the log first — and, likewise kept aside, this
seat's own last entry when the rules refuse it: it was written before it was re-run (an
engine fault) and the process died before it took it back, as it would have. Any other
damage, wherever it is, is refused in one line that names the seq and the failure class
exactly as `replay --verify` does, and the file is left as it is, byte for byte: what a
node finds wrong in its own file is never blamed on a peer.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from peerboard.protocol.log import (
    Ledger, LedgerError, LogContents, LogFileError, Verdict, failures, frame, read_log, torn_tail, verify,
    verify_contents,
)

#: the failures of an entry whose signature and place in the log checked out: the rules
#: refused what it says (the classes after `signature` in protocol/log/failures.ORDER, but the
#: audit: a lie it proves is how the game went, and the game goes on to its result)
RULES_REFUSED = frozenset(failures.ORDER[failures.ORDER.index(failures.SIGNATURE) + 1:]) - {failures.AUDIT}


class DamagedLog(ValueError):
    """A log `resume` will not go on from; the text is the one line that says why and what
    to do. `verdict` is replay-verify's verdict on the file."""

    def __init__(self, text: str, verdict: Verdict):
        super().__init__(text)
        self.verdict = verdict


@dataclass(frozen=True)
class Checked:
    """A log fit to resume: `contents` is what is kept (every entry checked), `verdict` its
    verdict; `tail` the bytes after what is kept, to be set aside (b"": none), at `offset`."""

    contents: LogContents
    verdict: Verdict
    offset: int
    tail: bytes = b""
    #: why `tail` is set aside, in words
    why: str = ""


def check_for_resume(path: Path, data: bytes, own_key: bytes | None) -> Checked:
    """`data`, the bytes of the log at `path`, checked whole; DamagedLog if it cannot be
    resumed as it is. `own_key` is this node's public key (its seat's own last entry)."""
    contents = read_log(data)  # (LogFileError: not a log at all; the caller says so)
    tail, why = b"", ""
    torn = torn_tail(data, contents)
    if torn is not None:
        tail, why = torn, "a record cut short by a crash while it was written (never acknowledged)"
        contents = dataclasses.replace(contents, error=None)
    verdict = verify_contents(contents)
    if not verdict.ok and _own_refused_last(contents, verdict, own_key):
        last = contents.entries[-1]
        kept = dataclasses.replace(contents, entries=contents.entries[:-1],
                                   good_bytes=contents.good_bytes - len(frame(last.encoded)))
        tail = frame(last.encoded) + tail
        why = (f"this seat's own last entry, seq {last.seq}, which the rules refuse ({verdict.failure}: "
               f"{verdict.why}): written before it was re-run, never acknowledged")
        contents, verdict = kept, verify_contents(kept)
    if not verdict.ok and verdict.failure == failures.AUDIT and _sound(contents):
        # a seat's proven lie is how the game went, not damage: the game goes on to its
        # result, which names the cheat (spec/log-format.md, "Checking a log")
        return Checked(contents, verdict, contents.good_bytes, tail, why)
    if not verdict.ok:
        raise DamagedLog(refusal(path, verdict), verdict)
    return Checked(contents, verdict, contents.good_bytes, tail, why)


def _sound(contents: LogContents) -> bool:
    """Every entry checks out, the audit's verdict aside (replay stops at the audit entry
    that proves a lie; resume needs the entries after it checked too)."""
    try:
        ledger = Ledger.start(contents.genesis)
        for entry in contents.entries:
            ledger = ledger.check(entry)
    except LedgerError:
        return False
    return contents.error is None


def refusal(path: Path, verdict: Verdict) -> str:
    """The one line `resume` refuses a damaged log with: what is wrong, as replay-verify
    says it, and how to get the game back."""
    said = (f"{path} is damaged and cannot be resumed: {verdict.summary()} (as `peerboard replay FILE --verify` "
            f"says); the file is left as it is. ")
    if not verdict.bad_seq:
        return said + "Its genesis says which game it is: only a copy of the log from another player can replace it"
    return said + (f"The {verdict.bad_seq - 1} entries before it are sound: to play on, take a copy of the log from "
                   f"another player of the game (check it with peerboard replay FILE --verify)")


def _own_refused_last(contents: LogContents, verdict: Verdict, own_key: bytes | None) -> bool:
    """Whether the first bad record is this seat's own last entry, soundly signed, that only
    the rules refuse."""
    if own_key is None or not contents.entries or verdict.failure not in RULES_REFUSED:
        return False
    last = contents.entries[-1]
    seats = contents.genesis.terms.seats
    return (verdict.bad_seq == last.seq and 0 <= last.seat < len(seats) and seats[last.seat].key == own_key
            and verify(own_key, last.signing_bytes(), last.sig))


def damage_of(data: bytes, contents: LogContents | None = None) -> str | None:
    """What makes a log unfit to resume without checking every entry (the lobby lists many):
    a record that does not read, other than a torn tail — as replay-verify's one line — or
    None. (A signature or a move that does not check out is found by `check_for_resume`.)
    `contents`: `data` as read_log read it, when the caller has it."""
    if contents is None:
        try:
            contents = read_log(data)
        except LogFileError as exc:
            return Verdict.refused(exc).summary()
    if contents.error is None or torn_tail(data, contents) is not None:
        return None
    return Verdict.refused(contents.error, len(contents.entries)).summary()
