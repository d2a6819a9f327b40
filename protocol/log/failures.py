"""The failure classes of a log verdict (spec/log-format.md, "Checking a log").

A verifier reads a log record by record and stops at the first check that fails; the class
of that check is printed as a stable word — `invalid at seq 17 [signature]: ...` — so that a
program can compare verdicts without reading the sentence after it. `ORDER` is the order in
which a verifier applies the checks to one record: the first that fails names the class.
"""
from __future__ import annotations

#: the file does not begin with the 35-byte header frame
HEADER = "header"
#: a frame's length is 0 or over 1 MiB
FRAME = "frame"
#: the file ends inside a frame (a crash while writing), or right after the header
TRUNCATED = "truncated"
#: the frame's bytes are not one canonical msgpack value within the record limits
DECODE = "decode"
#: the value is not the record the log expects: wrong fields, types, sizes, or an unknown kind
SCHEMA = "schema"
#: a genesis this verifier cannot start: protocol version, seat keys, game, engine version,
#: player count, options
GENESIS = "genesis"
#: an entry's seq is not the next number
SEQ = "seq"
#: an entry's prev is not the hash of the record before
PREV = "prev"
#: an entry names a seat the genesis does not have
SEAT = "seat"
#: a genesis signature or an entry's signature does not verify (Ed25519, libsodium's rules)
SIGNATURE = "signature"
#: an entry after the result every seat has signed
OVER = "over"
#: an entry whose (seat, kind) is not the one entitled to write next
TURN = "turn"
#: a move that does not reveal its seat's committed secret choice, or that carries a nonce
#: where no secret choice is revealed
COMMITMENT = "commitment"
#: an action or an announced outcome the game's rules refuse
ILLEGAL = "illegal"
#: a reveal that is not the next value of its seat's hash chain
REVEAL = "reveal"
#: a resignation (or another ending by consent) whose signed statement is missing or does
#: not verify under the key of the seat it names
CONSENT = "consent"
#: a result entry that is not the game's result
RESULT = "result"
#: the audit proves that a seat lied: its seed, or a claim the full re-run refuses
AUDIT = "audit"

ORDER: tuple[str, ...] = (
    HEADER, FRAME, TRUNCATED, DECODE, SCHEMA, GENESIS, SEQ, PREV, SEAT, SIGNATURE, OVER, TURN,
    COMMITMENT, ILLEGAL, REVEAL, CONSENT, RESULT, AUDIT,
)


class Refused(Exception):
    """A record refused by one of the checks, before the ledger says where: the class of the
    check (`failure`, one of `ORDER`) and why, in a sentence."""

    def __init__(self, failure: str, why: str):
        super().__init__(why)
        self.failure = failure
        self.why = why
