"""Copies of one game compared (spec/log-format.md, "Copies of a game"): what the seats'
signatures alone prove when two copies of a game's log disagree.

Every seat (and every spectator) keeps its own copy of a game; a copy that verifies proves
only what it holds. Put beside each other, copies of one genesis either lie on one history
(each a prefix of the longest: they agree) or they fork. A fork is never decided by a file's
name or by which copy was found first; it is decided by who signed what:

- **Equivocation.** A signed record commits its signer to the history it stands in: an
  entry to itself and, through its `prev`, to every entry before it; a statement bound to
  an entry (a claim's, an agreement's, a result's signature) to the entry that carries it
  and all before. A seat whose records commit it to two different entries at one seq has
  signed two histories: proof, from its own signatures, that it cheated. (A takeover's key
  answers for the seat that runs it.)
- **Dispute.** A claim signed by one seat alone (every two-seat claim) says that the
  claimed seat was gone; nothing can prove that. It is disputed when the claimed seat's own
  signature says otherwise: an entry it signed at or after the claim's seq on a history
  without the claim, or its `protest` of the claim. A claim every other seat signed is not
  disputed by the claimed seat's own entries that none of them took (it was cut off: the
  claim stands, and its copy holding them is set aside).

This module is pure: the copies come read and verified (a `Verdict` each); it says what they
prove. `peerboard ratings` and `peerboard replay --verify FILE...` show it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from peerboard.protocol.log.ends import result_in, result_statement
from peerboard.protocol.log.identity import verify
from peerboard.protocol.log.logfile import LogContents
from peerboard.protocol.log.names import shown
from peerboard.protocol.log.records import Entry, SignedGenesis, agree_statement, claim_statement, entry_from_record
from peerboard.protocol.log.replay import Verdict


@dataclass(frozen=True)
class Copy:
    """One copy of a game: its name (a file's path, for people only), what it holds, and
    its verdict alone."""

    name: str
    contents: LogContents
    verdict: Verdict

    @property
    def checked(self) -> tuple[Entry, ...]:
        """The entries that checked out: all of a valid copy's; an invalid copy's before its
        first bad record (what they prove holds all the same: they are signed and chained)."""
        entries = self.contents.entries
        return entries if self.verdict.ok else entries[: self.verdict.entries]

    @property
    def head(self) -> bytes:
        """The hash of the last entry that checked out (the genesis hash if none)."""
        checked = self.checked
        return checked[-1].hash if checked else self.contents.genesis.hash


@dataclass(frozen=True)
class Signed:
    """A record a seat signed, as evidence: the entry it is or rides in, in which copy."""

    seat: int  # the seat answerable for the signature (a takeover key's: its runner)
    seq: int
    what: str  # "its move", "its signature of the claim of seat 0", ...
    copy: str
    node: bytes  # the hash of the entry it commits to


@dataclass(frozen=True)
class Equivocation:
    """Seat `seat` signed records committing it to two different entries at seq `at`."""

    seat: int
    at: int
    first: Signed
    second: Signed


@dataclass(frozen=True)
class Dispute:
    """The claim of seat `gone` at seq `seq`, signed by `claimer` alone, contradicted by
    `gone`'s own signed `evidence`."""

    claimer: int
    gone: int
    seq: int
    copy: str
    evidence: Signed


@dataclass(frozen=True)
class Comparison:
    """What the copies of one game prove together."""

    genesis: SignedGenesis
    copies: tuple[Copy, ...]
    equivocations: tuple[Equivocation, ...] = ()
    disputes: tuple[Dispute, ...] = ()
    #: the copy holding the history every other copy agrees with (the longest), None when
    #: they fork with no proof of why
    standing: Copy | None = None
    #: copies of a seat claimed by every other seat, holding its own entries none of them took
    set_aside: tuple[Copy, ...] = ()
    #: the seq at which the copies fork (None: they agree)
    fork: int | None = None

    @property
    def equivocators(self) -> tuple[int, ...]:
        return tuple(sorted({e.seat for e in self.equivocations}))

    def who(self, seat: int) -> str:
        return f"seat {seat} ({shown(self.genesis.terms.seats[seat].name, 40)})"

    def said(self, finding: "Equivocation | Dispute") -> str:
        """One finding in words, for people."""
        if isinstance(finding, Equivocation):
            e = finding
            return (f"{self.who(e.seat)} equivocated: it signed two histories of entry {e.at} — "
                    f"{e.first.what} at entry {e.first.seq} ({e.first.copy}) and {e.second.what} at entry "
                    f"{e.second.seq} ({e.second.copy})")
        d = finding
        return (f"the claim of {self.who(d.gone)} at entry {d.seq}, signed by {self.who(d.claimer)} alone "
                f"({d.copy}), is disputed: {self.who(d.gone)} signed {d.evidence.what} at entry "
                f"{d.evidence.seq} ({d.evidence.copy})")

    def words(self) -> list[str]:
        """One line per finding: each equivocation and each dispute, the copies set aside,
        and a fork nothing explains."""
        findings: tuple[Equivocation | Dispute, ...] = (*self.equivocations, *self.disputes)
        out = [self.said(f) for f in findings]
        for c in self.set_aside:
            out.append(f"{c.name} holds entries of a seat the others claimed, which none of them took; "
                       f"the claim stands")
        if self.fork is not None and not self.equivocations and not self.disputes:
            out.append(f"the copies fork at entry {self.fork} and no signature says why")
        return out


def group(copies: Iterable[Copy]) -> dict[bytes, list[Copy]]:
    """Copies by their game: the genesis hash (a copy whose genesis is bad is no game's)."""
    out: dict[bytes, list[Copy]] = {}
    for c in copies:
        if c.verdict.ledger is not None:
            out.setdefault(c.contents.genesis.hash, []).append(c)
    return out


def compare(copies: Sequence[Copy]) -> Comparison:
    """What the copies of one game (one genesis) prove together. The same findings whatever
    the copies' names and order."""
    # (an order of their own: by what they hold, so that neither a name nor a listing decides)
    copies = tuple(sorted(copies, key=lambda c: (-len(c.checked), c.head, c.name)))
    tree = _Tree(copies[0].contents.genesis)
    for c in copies:
        tree.add(c)
    equivocations = tree.equivocations()
    disputes = tree.disputes()
    # the history the game stands on is the valid copies' (an invalid copy's entries that
    # checked out are evidence above, never the game's standing)
    stale = tree.stale()
    valid = [c for c in copies if c.verdict.ok]
    kept = [c for c in valid if c.head not in stale]
    set_aside = tuple(c for c in valid if c not in kept)
    if not kept:
        return Comparison(copies[0].contents.genesis, copies, tuple(equivocations), tuple(disputes), None, set_aside)
    longest = kept[0]
    off = [c for c in kept if not tree.descends(longest.head, c.head)]
    fork = min((tree.fork(longest.head, c.head) for c in off), default=None)
    return Comparison(copies[0].contents.genesis, copies, tuple(equivocations), tuple(disputes),
                      None if off else longest, set_aside, fork)


# -- the tree of every entry the copies hold ------------------------------------------------------


@dataclass
class _Tree:
    genesis: SignedGenesis
    #: entry hash -> the entry
    nodes: dict[bytes, Entry] = field(default_factory=dict)
    #: entry hash -> the copies holding it (their names)
    holders: dict[bytes, set[str]] = field(default_factory=dict)
    #: seat -> what it signed
    signed: dict[int, dict[bytes, Signed]] = field(default_factory=dict)
    #: entry hash -> (the seat answerable for its signature, the key it is signed with)
    authors: dict[bytes, tuple[int, bytes]] = field(default_factory=dict)
    #: the hash of a claim -> the claimed seat's protest of it
    protests: dict[bytes, Signed] = field(default_factory=dict)
    _paths: dict[bytes, dict[int, bytes]] = field(default_factory=dict)

    def add(self, copy: Copy) -> None:
        genesis = self.genesis
        keys = [s.key for s in genesis.terms.seats]
        runner: dict[int, int] = {}  # a taken-over seat -> the seat that runs it
        for e in copy.checked:
            self.nodes[e.hash] = e
            self.holders.setdefault(e.hash, set()).add(copy.name)
            author = runner.get(e.seat, e.seat)
            self.authors[e.hash] = (author, keys[e.seat])
            if e.kind == "protest":
                # it commits its writer to nothing but the entries it carries, its own (checked)
                mine = self.protests.get(e.prev)
                if mine is None or copy.name < mine.copy:
                    self.protests[e.prev] = Signed(e.seat, e.seq, "its protest", copy.name, e.hash)
                for record in e.body["entries"]:
                    carried = entry_from_record(record)
                    self.nodes[carried.hash] = carried
                    self.holders.setdefault(carried.hash, set()).add(copy.name)
                    self.authors[carried.hash] = (e.seat, keys[e.seat])
                    self._sign(e.seat, carried.hash, carried.seq, f"its {_kind_words(carried, False)} (its protest "
                                                                  f"carries it)", copy.name)
                continue
            self._sign(author, e.hash, e.seq, f"its {_kind_words(e, e.seat != author)}", copy.name)
            statement = _statement(genesis.hash, e)
            if statement is not None:
                for sig in e.body["sigs"]:
                    for seat, key in enumerate(keys):
                        if seat != e.seat and verify(key, statement, sig):
                            self._sign(runner.get(seat, seat), e.hash, e.seq,
                                       f"its signature of {_kind_words(e, False, statement=True)}", copy.name)
            if e.kind == "takeover":
                runner[e.body["gone"]] = e.seat
                keys[e.body["gone"]] = e.body["key"]

    def _sign(self, seat: int, node: bytes, seq: int, what: str, copy: str) -> None:
        mine = self.signed.setdefault(seat, {})
        known = mine.get(node)
        if known is None or copy < known.copy:
            mine[node] = Signed(seat, seq, what, copy, node)

    # -- histories --------------------------------------------------------------------------

    def path(self, node: bytes) -> dict[int, bytes]:
        """seq -> entry hash, of the history `node` ends (itself included)."""
        known = self._paths.get(node)
        if known is not None:
            return known
        out: dict[int, bytes] = {}
        walk = node
        while walk in self.nodes:
            e = self.nodes[walk]
            out[e.seq] = walk
            walk = e.prev
        self._paths[node] = out
        return out

    def descends(self, node: bytes, ancestor: bytes) -> bool:
        """Whether `ancestor` (an entry hash, or the genesis hash) is in `node`'s history."""
        if ancestor == self.genesis.hash or ancestor == node:
            return True
        e = self.nodes.get(ancestor)
        return e is not None and self.path(node).get(e.seq) == ancestor

    def fork(self, a: bytes, b: bytes) -> int:
        """The first seq at which the histories ending at `a` and at `b` hold different entries."""
        pa, pb = self.path(a), self.path(b)
        return min((s for s in set(pa) | set(pb) if pa.get(s) != pb.get(s)), default=0)

    # -- what the signatures prove ------------------------------------------------------------

    def equivocations(self) -> list[Equivocation]:
        out = []
        for seat in sorted(self.signed):
            records = self.signed[seat]
            deepest = max(records.values(), key=lambda s: (s.seq, s.node))
            off = sorted((s for s in records.values() if not self.descends(deepest.node, s.node)),
                         key=lambda s: (s.seq, s.node))
            if off:
                first = off[0]
                out.append(Equivocation(seat, self.fork(first.node, deepest.node), first, deepest))
        return out

    def disputes(self) -> list[Dispute]:
        """Claims signed by one seat alone that the claimed seat's own signature contradicts."""
        out = []
        for claim in sorted(self._claims(single=True), key=lambda e: (e.seq, e.hash)):
            gone = claim.body["gone"]
            evidence = [s for s in self.signed.get(gone, {}).values() if self._contradicts(s, claim)]
            if claim.hash in self.protests:
                evidence.append(self.protests[claim.hash])
            if evidence:
                best = min(evidence, key=lambda s: (s.seq, s.node))
                holder = min(self.holders[claim.hash])
                out.append(Dispute(self.authors[claim.hash][0], gone, claim.seq, holder, best))
        return out

    def _contradicts(self, signed: Signed, claim: Entry) -> bool:
        """Whether the claimed seat's record `signed` says it was there: an entry of its own,
        signed with its genesis key, at or after the claim's seq, after the entry the claim
        follows, on a history without the claim."""
        node = self.nodes[signed.node]
        gone = claim.body["gone"]
        return (node.seat == gone and self.authors[signed.node] == (gone, self.genesis.terms.seats[gone].key)
                and node.seq >= claim.seq and self.descends(signed.node, claim.prev)
                and not self.descends(signed.node, claim.hash))

    def stale(self) -> set[bytes]:
        """The entries of a seat that every other seat claimed, written where the claim
        stands and taken by none of them: only that seat signed them or anything after."""
        out: set[bytes] = set()
        for claim in self._claims(single=False):
            gone = claim.body["gone"]
            for h, e in self.nodes.items():
                if e.seq >= claim.seq and self.descends(h, claim.prev) and not self.descends(h, claim.hash):
                    after = self.path(h)
                    if all(self.nodes[after[s]].seat == gone for s in after if s >= claim.seq):
                        out.add(h)
        return out

    def _claims(self, single: bool) -> list[Entry]:
        return [e for e in self.nodes.values() if e.kind == "claim" and (len(e.body["sigs"]) == 1) == single]


def _statement(genesis_hash: bytes, e: Entry) -> bytes | None:
    """The statement each of an entry's `sigs` signs (a claim's, an agreement's, a result's)."""
    if e.kind == "claim":
        return claim_statement(genesis_hash, e.body["gone"], e.seq, e.prev)
    if e.kind == "agree":
        return agree_statement(genesis_hash, e.body["how"], e.seq, e.prev)
    if e.kind == "results":
        result = result_in(e)
        assert result is not None  # (a `results` entry states a result)
        return result_statement(genesis_hash, e.seq, e.prev, result)
    return None


def _kind_words(e: Entry, runner: bool, statement: bool = False) -> str:
    """An entry in words: "move", "claim of seat 0", "results"."""
    what = {"claim": f"claim of seat {e.body.get('gone')}", "agree": f"agreement ({e.body.get('how')})"}.get(e.kind, e.kind)
    if statement:
        return f"the {what}"
    return f"{what} for seat {e.seat}, which it ran" if runner else what
