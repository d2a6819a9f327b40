"""Replay verification: a log file checked record by record with the engine, offline.

`verify_log(data)` reads the header, the genesis and every entry, checks signatures, the
chain, each entry's seat and the legality of every action, the audit and the signed result,
and stops at the first bad record with its seq, the failure class (protocol/failures.py)
and the reason: `invalid at seq 17 [signature]: bad signature (not seat 1's key)`.
"""
from __future__ import annotations

from dataclasses import dataclass

from peerboard.protocol import failures
from peerboard.protocol.chain import ChainError, GameChain
from peerboard.protocol.logfile import LogContents, LogFileError, read_log
from peerboard.protocol.names import shown
from peerboard.protocol.secrets import seed_commitment


@dataclass(frozen=True)
class Verdict:
    ok: bool
    #: entries that checked out
    entries: int
    #: the chain as far as it checked out (None when the genesis itself is bad)
    chain: GameChain | None
    #: where the first problem is (None: the header), and why
    bad_seq: int | None = None
    why: str = ""
    #: the class of the check that failed: a word of protocol.failures.ORDER
    failure: str = ""

    @classmethod
    def refused(cls, exc: ChainError | LogFileError, entries: int = 0, chain: GameChain | None = None) -> "Verdict":
        """The verdict on a log whose record `exc.seq` failed."""
        return cls(False, entries, chain, exc.seq, exc.why, exc.failure)

    def summary(self) -> str:
        """One line: `valid: ...`, or `invalid at seq N [class]: why` (`at header` for the header)."""
        if not self.ok:
            where = "header" if self.bad_seq is None else f"seq {self.bad_seq}"
            return f"invalid at {where} [{self.failure}]: {shown(self.why, 1000)}"
        chain = self.chain
        g = chain.genesis.terms
        # (names are printable by the log's rule; escaped all the same: this line reaches terminals)
        names = ", ".join(f"{i}:{shown(s.name, 40)}" for i, s in enumerate(g.seats))
        head = f"valid: {g.game}, seats {names}, {self.entries} entries"
        game, state = chain.game, chain.state
        if chain.finished:
            result = chain.result_body()
            winners = result["winners"]
            nobody = "nobody" if chain.ending is not None else "nobody (a draw)"
            won = " and ".join(f"seat {w} ({shown(g.seats[w].name, 40)})" for w in winners) or nobody
            scores = "-".join(str(s) for s in result["scores"])
            how = f"; {ending_words(chain)}" if chain.ending is not None else ""
            return f"{head}{how}; {won} won, scores {scores}; final state {game.state_hash(state).hex()[:16]}"
        if chain.ending is not None:
            return f"{head}; {ending_words(chain)}; over, the result signed by {chain.results} of {len(chain.writers)} seats"
        if game.is_terminal(state):
            return f"{head}; over, the result signed by {chain.results} of {chain.seats} seats"
        return f"{head}; unfinished, next: seat {chain.entitled()[0]} ({chain.entitled()[1]})"


def ending_words(chain: GameChain) -> str:
    """How the game ended otherwise than by its rules, in words: "seat 1 (bob) resigned at seq 40"."""
    how, seats, seq = chain.ending
    names = chain.genesis.terms.seats
    who = " and ".join(f"seat {i} ({shown(names[i].name, 40)})" for i in seats)
    if how == "claimed":
        return f"{who} gone for good: claimed at seq {seq}"
    if how in ("drawn", "aborted"):
        return f"every seat agreed: {how} at seq {seq}"
    return f"{who} {how} at seq {seq}"


def audited_seeds(contents: LogContents) -> dict[int, bytes]:
    """Every seat's private seed from the audit entries, when all are there and each
    matches its genesis commitment; else {}."""
    seats = contents.genesis.terms.seats
    seeds = {e.seat: e.body["seed"] for e in contents.entries if e.kind == "audit"}
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
            chain = GameChain.start(contents.genesis, seeds)
            for entry in contents.entries:
                chain = chain.check(entry)
        except ChainError:
            pass
        else:
            return Verdict(True, len(contents.entries), chain)
    return _public_pass(contents)


def _public_pass(contents: LogContents) -> Verdict:
    try:
        chain = GameChain.start(contents.genesis)
    except ChainError as exc:
        return Verdict.refused(exc)
    for entry in contents.entries:
        try:
            checked = chain.check(entry)
        except ChainError as exc:
            return Verdict.refused(exc, chain.next_seq - 1, chain)
        if checked.audit_failure is not None:
            # the audit entry that proves a lie is the first bad record: the entries after
            # it (the result naming the liar, or not) are never looked at
            seq, why = checked.audit_failure
            return Verdict(False, chain.next_seq - 1, chain, seq, why, failures.AUDIT)
        chain = checked
    if contents.error is not None:
        return Verdict.refused(contents.error, len(contents.entries), chain)
    return Verdict(True, len(contents.entries), chain)


def verify_log(data: bytes) -> Verdict:
    """The verdict on a whole log file's bytes."""
    try:
        contents = read_log(data)
    except LogFileError as exc:
        return Verdict.refused(exc)
    return verify_contents(contents)
