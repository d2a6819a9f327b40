"""Table chat, sans-IO (spec/protocol.md, "Chat"; spec/chat-format.md).

A line said to the table travels beside the game, never in its log: the log's bytes, its
hashes and `replay --verify` are the same with or without it. Each line is signed by its
author, so a seat can pass a spectator's line on to the other spectators and a chat file
kept beside a log can be checked offline against the seats' keys. What a receiver holds a
line to, besides its schema: its signature, one copy of it (a line passed on by several
seats arrives several times), and a pace per author (`CHAT_BURST` lines at once, then one
every `CHAT_EVERY` seconds), so a flood from one node costs the others a bounded amount of
work, screen and disk. Time is an argument, as everywhere in protocol/.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from peerboard.engines.canonical import encode
from peerboard.protocol.log import (
    DecodeError, Identity, MAX_CHAT, MESSAGES, RECORD_LIMITS, SchemaError, decode, fingerprint, frame, frames, verify,
)
from peerboard.protocol.session.effects import Effects, Send
from peerboard.protocol.session.events import Chatted, Rejected
from peerboard.protocol.session.messages import MessageError, Say
from peerboard.protocol.session.surface import LocalError
from peerboard.protocol.session.table import Table

CHAT_DOMAIN = b"peerboard/chat/v1\x00"
CHAT_BURST = 5  # lines an author may say at once ...
CHAT_EVERY = 2.0  # ... then one line every this many seconds
MAX_SEEN = 1024  # signatures of lines already taken, newest kept (a copy passed on again is dropped)


def signing_bytes(table: bytes, after: int, text: str, by: bytes) -> bytes:
    """What the author of a line signs: the domain, then the canonical map of the line."""
    return CHAT_DOMAIN + encode({"after": after, "by": by, "table": table, "text": text})


def signed(identity: Identity, table: bytes, after: int, text: str) -> Say:
    """A line `identity` says to the table `table`, after entry `after`."""
    by = identity.public_key
    return Say(table, after, text, by, identity.sign(signing_bytes(table, after, text, by)))


def is_signed(line: Say) -> bool:
    """The line's signature is its author's, over exactly what it says."""
    return verify(line.by, signing_bytes(line.table, line.after, line.text, line.by), line.sig)


def record(line: Say) -> dict[str, Any]:
    """The line as the chat file keeps it (spec/chat-format.md)."""
    return line.body()


def from_record(value: Any) -> Say:
    """A chat file's record as a line; SchemaError saying what is wrong otherwise."""
    # (a chat line's shape is the say message's: the same fields, the same rules)
    return Say(**MESSAGES["say"].check(value))


def problem_of(text: str) -> str | None:
    """Why `text` cannot be said to the table (None: it can)."""
    if not text.strip():
        return "Say what? `say TEXT` says TEXT to the table."
    if len(text) > MAX_CHAT:
        return f"A line to the table holds at most {MAX_CHAT} characters ({len(text)} typed)."
    return None


class Pace:
    """A token bucket per author: `burst` lines at once, then one every `every` seconds."""

    def __init__(self, burst: int = CHAT_BURST, every: float = CHAT_EVERY):
        self.burst = burst
        self.every = every
        self._tokens: dict[bytes, tuple[float, float]] = {}  # author -> (tokens, when counted)

    def take(self, author: bytes, now: float) -> bool:
        tokens, then = self._tokens.get(author, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + max(0.0, now - then) / self.every)
        if tokens < 1.0 - 1e-9:  # (a line exactly `every` seconds later is within its pace)
            self._tokens[author] = (tokens, now)
            return False
        self._tokens[author] = (tokens - 1.0, now)
        return True


class ChatRoom:
    """What one node has heard said at its table: the lines' signatures already taken and
    each author's pace. `hear` says what to do with a line (its sender already checked)."""

    def __init__(self) -> None:
        self.pace = Pace()
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        self._flooding: set[bytes] = set()  # authors whose lines are being dropped now
        self.dropped = 0  # lines dropped for their pace

    def hear(self, line: Say, now: float) -> str:
        """"new" (show it, keep it), "copy" (taken already: drop it quietly), "forged" (a
        bad signature: the sender's fault), "flood" (over its author's pace: dropped; said
        once per flood) or "flooding" (dropped, already said)."""
        if line.sig in self._seen:
            return "copy"
        if not is_signed(line):
            return "forged"
        if not self.pace.take(line.by, now):
            self.dropped += 1
            if line.by in self._flooding:
                return "flooding"
            self._flooding.add(line.by)
            return "flood"
        self._flooding.discard(line.by)
        self.taken(line)
        return "new"

    def taken(self, line: Say) -> None:
        """`line` is shown and kept (a copy of it is dropped from now on)."""
        self._seen[line.sig] = None
        if len(self._seen) > MAX_SEEN:
            self._seen.popitem(last=False)

    def say(self, identity: Identity, table: Table, text: str, now: float) -> Effects:
        """A line `identity` says at `table` (a game under way): signed, sent to every seat and
        spectator this node serves, and told here too (`Chatted`). LocalError saying why when
        the line is empty or too long, or this node says too much."""
        problem = problem_of(text)
        if problem is not None:
            raise LocalError(problem)
        if not self.pace.take(identity.public_key, now):
            raise LocalError(f"Slow down: at most {CHAT_BURST} lines at once, then one every {CHAT_EVERY:g} s.")
        line = signed(identity, table.table, table.log_length, text)
        self.taken(line)
        data = line.to_bytes()
        effects: Effects = [Send(k, data) for k in table.peers()]
        return effects + [Chatted(line, table.seat, mine=True)]

    def heard(self, sender: bytes, line: Say, now: float, table: Table) -> Effects:
        """A line said at `table`: from a seat or a spectator this node serves, or a
        spectator's line a seat passed on; MessageError when it may not be taken. A seat
        passes a spectator's line on to its other spectators (they hear seats only)."""
        if line.table != table.table:
            raise MessageError("say: about another table")
        if sender not in table.seats and (line.by != sender or sender not in table.spectators):
            raise MessageError("say: from a node that holds no seat and is not watching here")
        verdict = self.hear(line, now)
        if verdict == "forged":
            raise MessageError("say: the signature is not its author's; the line is dropped")
        if verdict == "flood":
            # (not a strike: a person who types fast must not be cut off from the game)
            return [Rejected(fingerprint(line.by), f"say: more than {CHAT_BURST} lines at once; its lines "
                                                   f"are dropped until it slows down")]
        if verdict != "new":
            return []
        effects: Effects = []
        if table.seat is not None and line.by == sender and sender in table.spectators:
            data = line.to_bytes()
            effects += [Send(k, data) for k in table.spectators if k != sender]
        return effects + [Chatted(line, table.seats.get(line.by))]


# -- the chat file (spec/chat-format.md) ------------------------------------------------------

CHAT_FORMAT = "peerboard-chat"
CHAT_VERSION = 1
CHAT_HEADER = {"format": CHAT_FORMAT, "version": CHAT_VERSION}


def header_frame() -> bytes:
    return frame(CHAT_HEADER)


def line_frame(line: Say) -> bytes:
    return frame(record(line))


def read_chat(data: bytes, table: bytes | None = None) -> tuple[list[Say], int]:
    """The lines of a chat file that check out — each a whole frame, of the chat line's
    shape, of the table `table` (when given) and signed by its author — in the order kept,
    and how many records were left out (a torn last one, a line of another table, a forged
    one). A chat file is not sacred like a log: a record that does not check out is
    skipped, never a reason to refuse the game."""
    lines: list[Say] = []
    skipped = 0
    first = True
    for _, raw, bad in frames(data):
        if bad is not None:
            return lines, skipped + 1
        assert raw is not None  # (a frame without its bytes says why: `frames`)
        try:
            value = decode(raw, RECORD_LIMITS)
        except DecodeError:
            skipped += 1
            continue
        if first:
            first = False
            if value != CHAT_HEADER:
                return [], 1
            continue
        try:
            line = from_record(value)
        except SchemaError:
            skipped += 1
            continue
        if (table is not None and line.table != table) or not is_signed(line):
            skipped += 1
            continue
        lines.append(line)
    return lines, skipped
