"""A private table's code (spec/protocol.md, "Private tables").

The host of a private table gives its joiners a short code out of band (says it, writes it
down). The code itself never travels: not in a beacon, not in a hello. A joiner proves it
knows the code with its hello's `knock`:

    stretched = scrypt(code, salt = "peerboard/code/v1" || 0x00 || host key || table id,
                       N = 2^14, r = 8, p = 1, 32 bytes)
    knock     = SHA-256("peerboard/knock/v1" || 0x00 || stretched || joiner key)

Bound to the host's key and the table, a knock sent to a fake host that lured a joiner is
worth nothing at the real table; bound to the joiner's key, it cannot be replayed by
another node. What a fake host can do with a knock is test guesses of the code against
it, and scrypt makes every guess cost ~50 ms and 16 MiB (a generated code has about 40
bits: ages). The host stretches its code once; checking a knock is one SHA-256.
"""
from __future__ import annotations

import hashlib
from typing import Callable

CODE_DOMAIN = b"peerboard/code/v1\x00"
KNOCK_DOMAIN = b"peerboard/knock/v1\x00"
MAX_CODE = 64  # characters of a code
MIN_HOST_CODE = 6  # characters of a code a host opens a table with (a joiner's is the host's to judge)
#: a code's characters: printable ASCII, no space (compared with ASCII letters lowered)
CODE_FIRST, CODE_LAST = 0x21, 0x7E
#: the letters of a code the host picks (`--private`): no 0/o, 1/l/i to mistake
PICKED_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}


def code_problem(code: str) -> str | None:
    """Why `code` cannot be a table's code, or None if it can be one."""
    if not 1 <= len(code) <= MAX_CODE:
        return f"a table's code has 1 to {MAX_CODE} characters"
    for i, c in enumerate(code):
        if not CODE_FIRST <= ord(c) <= CODE_LAST:
            return (f"a table's code is letters, digits and punctuation (printable ASCII, no spaces); "
                    f"character {i + 1} is not")
    return None


def host_code_problem(code: str) -> str | None:
    """Why a host cannot open a table with `code` (`code_problem`, or too short to resist
    guessing), or None. A host checks a wrong code at most once a second, and less often
    as wrong codes pile up (protocol/session/guesses.py), so 6 characters — a million codes even
    if all are digits — take months to guess on average; a shorter one falls in hours."""
    problem = code_problem(code)
    if problem is None and len(code) < MIN_HOST_CODE:
        problem = (f"a host's code has at least {MIN_HOST_CODE} characters (a shorter one can be guessed in hours; "
                   f"--private picks one of 8 letters)")
    return problem


def normalised(code: str) -> bytes:
    """The bytes a code stands for: its ASCII letters lowered (people retype codes)."""
    if code_problem(code) is not None:
        raise ValueError(code_problem(code))
    return code.lower().encode("ascii")


def stretched(code: str, host: bytes, table: bytes) -> bytes:
    """The code made slow to guess and bound to the host's key and the table."""
    return hashlib.scrypt(normalised(code), salt=CODE_DOMAIN + host + table, **SCRYPT)


def knock(stretched_code: bytes, joiner: bytes) -> bytes:
    """What a joiner with key `joiner` sends in its hello to prove it knows the code."""
    return hashlib.sha256(KNOCK_DOMAIN + stretched_code + joiner).digest()


def pick_code(random: Callable[[int], bytes]) -> str:
    """A code for `--private`: 8 letters of `PICKED_LETTERS` as `abcd-efgh` (about 40 bits)."""
    letters: list[str] = []
    while len(letters) < 8:
        for b in random(16):
            if b < 248:  # 248 = 8 * 31: every letter equally likely
                letters.append(PICKED_LETTERS[b % 31])
                if len(letters) == 8:
                    break
    return "".join(letters[:4]) + "-" + "".join(letters[4:])
