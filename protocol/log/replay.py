"""Replay verification: a log file checked record by record with the engine, offline.

`verify_log(data)` reads the header, the genesis and every entry, checks signatures, the
chain, each entry's seat and the legality of every action, the audit and the signed result,
and stops at the first bad record with its seq, the failure class (protocol/log/failures.py)
and the reason: `invalid at seq 17 [signature]: bad signature (not seat 1's key)`.
"""
from __future__ import annotations

from dataclasses import dataclass

from peerboard.protocol.log import failures
from peerboard.protocol.log.ledger import LedgerError, Ledger
from peerboard.protocol.log.logfile import LogContents, LogFileError, read_log
from peerboard.protocol.log.ends import seeds_in
from peerboard.protocol.log.names import shown
from peerboard.protocol.log.records import Entry
from peerboard.protocol.log.secrets import seed_commitment


@dataclass(frozen=True)
class Verdict:
    ok: bool
    #: entries that checked out
    entries: int
    #: the ledger as far as it checked out (None when the genesis itself is bad)
    ledger: Ledger | None
    #: where the first problem is (None: the header), and why
    bad_seq: int | None = None
    why: str = ""
    #: the class of the check that failed: a word of protocol.failures.ORDER
    failure: str = ""

    @classmethod
    def refused(cls, exc: LedgerError | LogFileError, entries: int = 0, ledger: Ledger | None = None) -> "Verdict":
        """The verdict on a log whose record `exc.seq` failed."""
        return cls(False, entries, ledger, exc.seq, exc.why, exc.failure)

    def summary(self) -> str:
        """One line: `valid: ...`, or `invalid at seq N [class]: why` (`at header` for the header)."""
        if not self.ok:
            where = "header" if self.bad_seq is None else f"seq {self.bad_seq}"
            return f"invalid at {where} [{self.failure}]: {shown(self.why, 1000)}"
        ledger = self.ledger
        assert ledger is not None  # a valid log's verdict holds the ledger it ended at
        g = ledger.genesis.terms
        # (names are printable by the log's rule; escaped all the same: this line reaches terminals)
        names = ", ".join(f"{i}:{shown(s.name, 40)}" for i, s in enumerate(g.seats))
        head = f"valid: {g.game}, seats {names}, {self.entries} entries"
        for seat, seq, runner in ledger.taken:
            assert g.takeover is not None  # a seat is taken over only by the genesis's strategy
            head += (f"; seat {seat} ({shown(g.seats[seat].name, 40)}) taken over at seq {seq} by a "
                     f"{shown(g.takeover, 40)} bot, run by seat {runner}")
        game, state = ledger.game, ledger.state
        if ledger.protest is not None:  # (a game ended disputed has no result)
            return f"{head}; {ending_words(ledger)}; no result"
        if ledger.finished:
            result = ledger.result_body()
            winners = result["winners"]
            nobody = "nobody" if ledger.ending is not None or ledger.taken else "nobody (a draw)"
            won = " and ".join(f"seat {w} ({shown(g.seats[w].name, 40)})" for w in winners) or nobody
            scores = "-".join(str(s) for s in result["scores"])
            how = f"; {ending_words(ledger)}" if ledger.ending is not None else ""
            return f"{head}{how}; {won} won, scores {scores}; final state {game.state_hash(state).hex()[:16]}"
        if ledger.ending is not None:
            return f"{head}; {ending_words(ledger)}; over, the result signed by {ledger.results} of {len(ledger.writers)} seats"
        if game.is_terminal(state):
            return f"{head}; over, the result signed by {ledger.results} of {ledger.seats} seats"
        return f"{head}; unfinished, next: seat {ledger.entitled()[0]} ({ledger.entitled()[1]})"


def ending_words(ledger: Ledger) -> str:
    """How the game ended otherwise than by its rules, in words: "seat 1 (bob) resigned at seq 40"."""
    assert ledger.ending is not None  # (asked only of a game that ended so)
    how, seats, seq = ledger.ending
    names = ledger.genesis.terms.seats
    who = " and ".join(f"seat {i} ({shown(names[i].name, 40)})" for i in seats)
    if how == "claimed" and ledger.protest is not None:
        claim, protest = _entry(ledger, seq), _entry(ledger, ledger.protest)
        carried = protest.body["entries"]
        evidence = f", carrying its own entr{'ies' if len(carried) > 1 else 'y'} from seq {seq}" if carried else ""
        return (f"{who} claimed at seq {seq} by seat {claim.seat} ({shown(names[claim.seat].name, 40)}) alone — "
                f"disputed: {who} protested at seq {ledger.protest}{evidence}")
    if how == "claimed":
        claim = _entry(ledger, seq)
        if len(claim.body["sigs"]) > 1:
            return f"{who} gone for good: claimed at seq {seq}"
        # (spec/protocol.md, "What a claim proves": with no third party, absence cannot be proven)
        return (f"{who} gone for good: claimed at seq {seq} by seat {claim.seat} ({shown(names[claim.seat].name, 40)}) "
                f"alone — its word that {who} was away, which no log can prove")
    if how in ("drawn", "aborted"):
        return f"every seat agreed: {how} at seq {seq}"
    return f"{who} {how} at seq {seq}"


def _entry(ledger: Ledger, seq: int) -> Entry:
    assert ledger.history is not None  # (seq is an entry of the ledger's)
    return next(e for e in ledger.history if e.seq == seq)


def audited_seeds(contents: LogContents) -> dict[int, bytes]:
    """Every seat's private seed from the audit entries, when all are there and each
    matches its genesis commitment; else {}."""
    seats = contents.genesis.terms.seats
    seeds = seeds_in(contents.entries, len(seats))  # (the `audit` entries, or the `audits` entry)
    if len(seeds) == len(seats) and all(seed_commitment(seeds[i]) == s.seed for i, s in enumerate(seats)):
        return seeds
    return {}


def verify_contents(contents: LogContents) -> Verdict:
    """A finished log is checked in one pass with every hidden card known (the seeds from
    its audit), which checks everything the public pass would and the audit besides. Only
    when that fails, or the log has no complete audit, does the public pass run, so that the
    verdict names the first bad entry exactly as the players' nodes saw it."""
    seeds = audited_seeds(contents)
    if seeds and contents.error is None:
        try:
            ledger = Ledger.start(contents.genesis, seeds)
            for entry in contents.entries:
                ledger = ledger.check(entry)
        except LedgerError:
            pass
        else:
            return Verdict(True, len(contents.entries), ledger)
    return _public_pass(contents)


def _public_pass(contents: LogContents) -> Verdict:
    try:
        ledger = Ledger.start(contents.genesis)
    except LedgerError as exc:
        return Verdict.refused(exc)
    for entry in contents.entries:
        try:
            checked = ledger.check(entry)
        except LedgerError as exc:
            return Verdict.refused(exc, ledger.next_seq - 1, ledger)
        if checked.audit_failure is not None:
            # the audit entry that proves a lie is the first bad record: the entries after
            # it (the result naming the liar, or not) are never looked at
            seq, why = checked.audit_failure
            return Verdict(False, ledger.next_seq - 1, ledger, seq, why, failures.AUDIT)
        ledger = checked
    if contents.error is not None:
        return Verdict.refused(contents.error, len(contents.entries), ledger)
    return Verdict(True, len(contents.entries), ledger)


def verify_log(data: bytes) -> Verdict:
    """The verdict on a whole log file's bytes."""
    try:
        contents = read_log(data)
    except LogFileError as exc:
        return Verdict.refused(exc)
    return verify_contents(contents)
