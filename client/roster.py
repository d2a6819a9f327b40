"""A club's roster: the keys it trusts, each with the name the club knows it by
(`peerboard ratings --roster FILE`; docs/ratings.md).

Keys are not people — anyone can make a key, and call it anything — so a ladder can be kept
to the keys a club knows. The file is plain text, one key a line: the public key as
`peerboard key` prints it (64 hex digits), or its fingerprint (`abcd-efgh`), then the name.
Blank lines and lines starting with `#` are skipped. A fingerprint is 40 bits of the key's
hash: matching one is cheaper to fake than matching a whole key, so a roster of whole keys
is the stronger one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from peerboard.client.text import printable
from peerboard.client.usage import UsageError
from peerboard.protocol.log import MAX_NAME, fingerprint, name_problem

_KEY = re.compile(r"[0-9a-fA-F]{64}")
_FINGERPRINT = re.compile(r"[a-z2-7]{4}-[a-z2-7]{4}")
#: a roster this long is not a club's: a file given by mistake
MAX_LINES = 10_000


@dataclass(frozen=True)
class Roster:
    #: whole public keys -> name
    keys: dict[bytes, str]
    #: fingerprints -> name
    prints: dict[str, str]

    def name_of(self, key: bytes) -> str | None:
        """The club's name for `key`, None if the roster does not hold it."""
        name = self.keys.get(key)
        return name if name is not None else self.prints.get(fingerprint(key))

    def __len__(self) -> int:
        return len(self.keys) + len(self.prints)


def parse(text: str, where: str = "the roster") -> Roster:
    """A roster from its text; UsageError naming the first line that is not one."""
    keys: dict[bytes, str] = {}
    prints: dict[str, str] = {}
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise UsageError(f"{where}: {len(lines)} lines; a roster holds at most {MAX_LINES} keys")
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        who, _, name = line.partition(" ")
        name = name.strip()
        if not name:
            raise UsageError(f"{where}, line {n}: a key and then a name, not {printable(line, 80)!r}")
        problem = name_problem(name, MAX_NAME)
        if problem is not None:
            raise UsageError(f"{where}, line {n}: {problem}")
        if _KEY.fullmatch(who):
            key = bytes.fromhex(who)
            if key in keys:
                raise UsageError(f"{where}, line {n}: this key is on the roster already")
            keys[key] = name
        elif _FINGERPRINT.fullmatch(who.lower()):
            if who.lower() in prints:
                raise UsageError(f"{where}, line {n}: this fingerprint is on the roster already")
            prints[who.lower()] = name
        else:
            raise UsageError(f"{where}, line {n}: {printable(who, 80)!r} is neither a key (64 hex digits, as "
                             f"`peerboard key` prints it) nor a fingerprint (abcd-efgh)")
    return Roster(keys, prints)


def read(path: str) -> Roster:
    """The roster in the file at `path`; UsageError if it cannot be read or is not one."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read the roster {printable(path, 200)}: {exc.strerror}") from None
    if len(data) > MAX_LINES * 200:
        raise UsageError(f"{printable(path, 200)}: too large for a roster")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{printable(path, 200)}: a roster is UTF-8 text") from None
    return parse(text, printable(path, 200))
