"""What a log reader needs, in one import: read a saved game and check it offline.

    from peerboard.logs import verify_file

    verdict = verify_file("games/aton-....pblog")
    print(verdict.summary())            # "valid: aton, seats 0:ann, 1:bot-1, 83 entries; ..."
    if verdict.ok:
        game, state = verdict.ledger.game, verdict.ledger.state   # the final position

`read_log(data)` gives the records themselves (the signed genesis and every entry), as
spec/log-format.md describes them; `verify_log(data)` is `peerboard replay FILE --verify`.
"""
from __future__ import annotations

import os

from peerboard.protocol.log import LogContents, LogFileError, Verdict, read_log, verify_contents, verify_log


def verify_file(path: str | os.PathLike) -> Verdict:
    """The verdict on the log file at `path` (`peerboard replay PATH --verify`)."""
    with open(path, "rb") as f:
        return verify_log(f.read())


__all__ = ["LogContents", "LogFileError", "Verdict", "read_log", "verify_contents", "verify_file", "verify_log"]
