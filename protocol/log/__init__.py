"""The log: what `replay --verify` and a second implementation need (spec/log-format.md).

A genesis and the signed, hash-chained entries after it; the ledger that re-checks each entry
with the engine (signature, chain, entitlement, legality, reveals, the audit and the result),
consulting one table for who writes each entry (writers.py);
the file format; the verdict of a whole file. Nothing here knows about peers or messages: the
live session (peerboard.protocol.session) is built on this face, never on the modules behind it.
"""
from __future__ import annotations

from peerboard.protocol.log import failures
from peerboard.protocol.log.builder import LogBuilder
from peerboard.protocol.log.chance import Outcomes
from peerboard.protocol.log.copies import Comparison, Copy, Dispute, Equivocation, compare, group
from peerboard.protocol.log.codec import DecodeError, Limits, decode, nested_within, too_deep, unpack
from peerboard.protocol.log.ends import finished_in, fits_seed, result_in
from peerboard.protocol.log.identity import Identity, fingerprint, verify
from peerboard.protocol.log.ledger import Ledger, LedgerError
from peerboard.protocol.log.logfile import MAX_FRAME, LogContents, LogFileError, frame, frames, header_frame, read_log, \
    torn_tail
from peerboard.protocol.log.logfile import VERSION as LOG_VERSION
from peerboard.protocol.log.names import name_problem, shown
from peerboard.protocol.log.records import (
    Entry, Genesis, RecordError, SeatRecord, SignedGenesis, agree_statement, claim_statement, entry_from_record,
    genesis_from_body, genesis_from_record, make_entry, resign_statement, sign_genesis,
)
from peerboard.protocol.log.replay import Verdict, audited_seeds, ending_words, verify_contents, verify_log
from peerboard.protocol.log.reveals import fits_chain
from peerboard.protocol.log.schema import (
    DEFAULT_PATIENCE, ENDS_TOGETHER, KEY_BYTES, MAX_ACTIONS_PER_ENTRY, MAX_CARRIED, MAX_CHAT, MAX_NAME, MAX_PATIENCE,
    MAX_SEATS,
    MAX_STRATEGY, MESSAGE_LIMITS, MESSAGES, NO_TAKEOVER, NONCE_BYTES, PROTOCOL_VERSION, RECORD_LIMITS, REVEALS_TOGETHER,
    SIG_BYTES, TABLE_BYTES, SchemaError, WireMap,
)
from peerboard.engines.actions import is_action
from peerboard.protocol.log.secrets import SeatSecrets, choice_digest, node_entropy
from peerboard.protocol.log.takeover import takeover_body, takeover_secrets
from peerboard.protocol.log.writers import GATHERED

__all__ = [
    # reading and checking a log file
    "read_log", "LogContents", "LogFileError", "torn_tail", "verify_log", "verify_contents", "Verdict",
    "audited_seeds", "ending_words", "result_in", "finished_in", "failures",
    # copies of one game compared: what their signatures prove together
    "Copy", "Comparison", "Equivocation", "Dispute", "compare", "group",
    # the file format
    "frame", "frames", "header_frame", "LOG_VERSION", "MAX_FRAME",
    # the signed records
    "Entry", "Genesis", "SeatRecord", "SignedGenesis", "RecordError", "entry_from_record", "genesis_from_record",
    "genesis_from_body", "make_entry", "sign_genesis", "agree_statement", "claim_statement", "resign_statement",
    # keys
    "Identity", "fingerprint", "verify",
    # the ledger, and a whole table's log built in one process
    "Ledger", "LedgerError", "LogBuilder", "Outcomes",
    # a seat's secrets, and the parts of entries gathered from several seats
    "SeatSecrets", "choice_digest", "node_entropy", "takeover_body", "takeover_secrets",
    "fits_chain", "fits_seed", "GATHERED",
    # the codec and the wire's shapes and limits
    "decode", "DecodeError", "Limits", "unpack", "nested_within", "too_deep", "SchemaError", "is_action", "WireMap",
    "MESSAGES", "MESSAGE_LIMITS", "RECORD_LIMITS", "PROTOCOL_VERSION", "KEY_BYTES", "SIG_BYTES", "NONCE_BYTES",
    "TABLE_BYTES", "MAX_NAME", "MAX_SEATS", "MAX_CHAT", "MAX_STRATEGY", "MAX_ACTIONS_PER_ENTRY",
    "DEFAULT_PATIENCE", "MAX_PATIENCE", "MAX_CARRIED", "NO_TAKEOVER", "ENDS_TOGETHER", "REVEALS_TOGETHER",
    # untrusted text
    "name_problem", "shown",
]
