"""The ledger: a genesis and the entries after it, re-checked with the engine.

`Ledger.check(entry)` says whether an entry may come next — place in the log, signature,
the one (seat, kind) entitled to it (the table of protocol/log/writers.py), and what it carries (legal actions, a reveal that
matches the seat's hash chain, a secret choice that matches its commitment, the result) —
and returns the ledger with it appended; the ledger it was called on never changes.

A ledger knows the private seeds of some seats (`known`): a node knows its own, the in-process
builder knows all, a verifier of someone else's log none until the audit. It follows the
game as a view: what those seats may see. At the end every seat reveals its seed (the
audit) and the whole game is re-run with full information; a seat whose claims do not hold
is named in `cheats`. See spec/protocol.md and spec/log-format.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, TypeVar

from peerboard import engines
from peerboard.engines import Game, IllegalAction, OptionError
from peerboard.engines.values import cached, cached_names, evolve
from peerboard.protocol.log import consent, failures, writers
from peerboard.protocol.log.chance import Outcomes, run_chance
from peerboard.protocol.log.ends import audits_seeds, check_result, check_results, result_of, result_statement
from peerboard.protocol.log.failures import Refused
from peerboard.protocol.log.identity import verify
from peerboard.protocol.log.records import Entry, SignedGenesis
from peerboard.protocol.log.reveals import fits_chain, together_values
from peerboard.protocol.log.schema import ENDS_TOGETHER, NO_TAKEOVER, REVEALS_TOGETHER, WireMap
from peerboard.protocol.log.secrets import CHAIN_LENGTH, choice_digest, node_entropy, round_entropy, seed_commitment


class LedgerError(ValueError):
    """An entry (or a genesis) that may not stand in the ledger; `seq` is where, `why` why,
    `failure` the class of the check that refused it (protocol/log/failures.py)."""

    def __init__(self, seq: int, why: str, failure: str):
        super().__init__(f"seq {seq}: {why}")
        self.seq = seq
        self.why = why
        self.failure = failure


@dataclass(frozen=True)
class _History:
    """The entries so far as a linked list: appending shares everything before."""

    entry: Entry
    before: "_History | None"

    def __iter__(self) -> Iterator[Entry]:
        items = []
        node: _History | None = self
        while node is not None:
            items.append(node.entry)
            node = node.before
        return reversed(items)


@dataclass(frozen=True)
class Ledger:
    genesis: SignedGenesis
    game: Game
    #: the game as the `known` seats see it (the full state when all are known)
    state: Any
    #: the private seed of each seat this ledger knows, else None
    known: tuple[bytes | None, ...]
    head: bytes
    next_seq: int = 1
    #: each seat's last hash-chain value (the genesis tip at first, or the tip of its latest
    #: `chain` entry), how many values it has revealed in all, and how many values its
    #: current chain still holds
    chain_values: tuple[bytes, ...] = ()
    chain_used: tuple[int, ...] = ()
    chain_left: tuple[int, ...] = ()
    #: reveals of the reveal round in progress, in seat order
    reveals: tuple[bytes, ...] = ()
    rounds: int = 0
    #: the chance run in progress: its entropy and the index of its next chance node
    run: tuple[bytes, int] | None = None
    #: commitments to a secret choice not yet revealed: ((seat, digest), ...)
    commits: tuple[tuple[int, bytes], ...] = ()
    #: seeds revealed at the audit, per seat (None until then)
    audited: tuple[bytes | None, ...] = ()
    audits: int = 0
    #: whether this ledger ever followed a private outcome it could not check (a hidden draw
    #: it applied as a placeholder, an announced card from a pile it cannot see): only then
    #: does the audit need to re-run the game with full information
    blind: bool = False
    cheats: tuple[int, ...] = ()
    #: the entry at which the audit proves a lie, and why: (seq, why), else None — a seat's
    #: own audit entry when its seed is false, else the last audit entry (spec/log-format.md)
    audit_failure: tuple[int, str] | None = None
    #: the chance outcomes the last entry brought about, as (state before, outcome) pairs
    #: (placeholders where the outcome is hidden from this ledger)
    outcomes: Outcomes = ()
    results: int = 0
    history: _History | None = None
    #: how the game ended otherwise than by its rules: (how, seats, seq), else None
    #: (spec/protocol.md, "Endings")
    ending: tuple[str, tuple[int, ...], int] | None = None
    #: the seats that write no audit and no result (gone for good), ascending
    gone: tuple[int, ...] = ()
    #: each seat's key and seed commitment now: the genesis's, or a takeover's
    keys: tuple[bytes, ...] = ()
    seeds: tuple[bytes, ...] = ()
    #: seats taken over by a bot: (seat, seq of the takeover entry, the seat that runs it)
    taken: tuple[tuple[int, int, int], ...] = ()
    #: a claim that a takeover follows: (claimed seat, the claim's writer, who writes it)
    pending: tuple[int, int] | None = None
    #: the seq of the claimed seat's protest of the claim before it, else None: the game ended
    #: disputed there, and nothing follows (spec/log-format.md, "Endings")
    protest: int | None = None

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, genesis: SignedGenesis, known: dict[int, bytes] | None = None, *,
              signatures: bool = True) -> "Ledger":
        """The ledger holding only `genesis`; LedgerError(0, why) if the genesis is bad.
        `known`: seat -> private seed, for the seats whose hidden draws this ledger may see.
        `signatures` false: the seats' signatures of the genesis held already (the audit's
        re-run of a game this ledger checked), so they are not verified again."""
        g = genesis.terms
        try:
            game = engines.get(g.game)
        except OptionError as exc:
            raise LedgerError(0, str(exc), failures.GENESIS) from None
        if g.engine != game.version:
            raise LedgerError(0, f"the log needs {g.game} engine version {g.engine}; this peerboard has {game.version}",
                             failures.GENESIS)
        try:
            state = game.new_game(len(g.seats), g.options)
        except OptionError as exc:
            raise LedgerError(0, str(exc), failures.GENESIS) from None
        if g.takeover is not None and len(g.seats) < 3:
            # a claim of one of two seats ends the game: a strategy here would mean nothing,
            # and a log says one thing only (spec/log-format.md, "The genesis")
            raise LedgerError(0, f"the genesis names a takeover strategy at a table of {len(g.seats)} seats; a bot "
                                 f"takes a claimed seat over only at three or more", failures.GENESIS)
        bad = genesis.bad_signers() if signatures else ()
        if bad:
            raise LedgerError(0, f"bad genesis signature of seat {bad[0]} ({g.seats[bad[0]].name})", failures.SIGNATURE)
        n = len(g.seats)
        seeds = tuple((known or {}).get(i) for i in range(n))
        for i, seed in enumerate(seeds):
            if seed is not None and seed_commitment(seed) != g.seats[i].seed:
                raise LedgerError(0, f"the private seed given for seat {i} is not the one its genesis commits to",
                                 failures.GENESIS)
        ledger = cls(
            genesis, game, _view(game, state, seeds), seeds, genesis.hash,
            chain_values=tuple(s.chain for s in g.seats), chain_used=(0,) * n, chain_left=(CHAIN_LENGTH,) * n,
            audited=(None,) * n, keys=tuple(s.key for s in g.seats), seeds=tuple(s.seed for s in g.seats),
        )
        return ledger._run_chance()

    @property
    def seats(self) -> int:
        return len(self.genesis.terms.seats)

    @property
    def together(self) -> bool:
        """Whether a reveal round is one `reveals` entry (the genesis says so), not one
        `reveal` entry per seat."""
        return self.genesis.terms.reveals == REVEALS_TOGETHER

    @property
    def ends_together(self) -> bool:
        """Whether the end is one `audits` and one `results` entry (the genesis says so), not
        one `audit` and one `result` entry per seat (protocol/log/ends.py)."""
        return self.genesis.terms.ends == ENDS_TOGETHER

    @property
    def over(self) -> bool:
        """The game is over: by its rules, or by an ending entry (a resignation)."""
        return self.ending is not None or self.game.is_terminal(self.state)

    # (`cached`: a ledger never changes, and the session asks these of the same ledger several
    # times an entry — its ack, its deferred next step, a round's value; `evolve` drops them)
    @cached
    def writers(self) -> tuple[int, ...]:
        """The seats that write the audit and the result: every seat not gone for good."""
        return tuple(i for i in range(self.seats) if i not in self.gone)

    @cached
    def finished(self) -> bool:
        """The game is over, audited, and every seat still there has signed the result — or
        the claimed seat protested the claim that ended it: nothing follows a protest."""
        return self.over and (self.results == len(self.writers) or self.protest is not None)

    def may_end(self) -> bool:
        """Whether an ending entry (a resignation) may come next: the game is not over yet."""
        return self.ending is None and not self.game.is_terminal(self.state)

    def may_claim(self, gone: int) -> bool:
        """Whether seat `gone` may be claimed at the next entry (protocol/log/writers.py)."""
        return writers.may_claim(self, gone)

    def claim_signers(self, gone: int) -> tuple[int, ...]:
        """The seats that sign a claim of `gone` (protocol/log/writers.py)."""
        return writers.claim_signers(self, gone)

    def claim_writer(self, gone: int) -> int:
        """The one seat that writes the claim of seat `gone` (protocol/log/writers.py)."""
        return writers.claim_writer(self, gone)

    @cached
    def taken_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, _, _ in self.taken)

    def takes_over(self, gone: int) -> bool:
        """Whether a claim of `gone` at the next entry is followed by a takeover (the game goes
        on, `gone` played by a bot) rather than ending the game: the genesis names a strategy,
        the table has three or more seats, the game is not over, and `gone` runs no taken-over
        seat (spec/protocol.md, "Takeover")."""
        strategy = self.genesis.terms.takeover
        return (strategy is not None and strategy != NO_TAKEOVER and self.seats >= 3 and self.may_end()
                and all(runner != gone for _, _, runner in self.taken))

    @cached
    def turn(self) -> int:
        """The engine's `current` of the state: a seat, CHANCE or TERMINAL."""
        return self.game.current(self.state)

    @property
    def disputable(self) -> int | None:
        """The seat the last entry claimed, when one seat alone signed that claim and it ended
        the game (no takeover follows): that seat may protest it at the next entry. Else None."""
        if self.history is None or self.pending is not None:
            return None
        last = self.history.entry
        return last.body["gone"] if last.kind == "claim" and len(last.body["sigs"]) == 1 else None

    @property
    def last_writer(self) -> int | None:
        """The seat that wrote the last entry; None right after the genesis."""
        return None if self.history is None else self.history.entry.seat

    # -- who writes next: the table of protocol/log/writers.py ---------------------------------

    def entitled(self) -> tuple[int, str]:
        """(seat, kind) of the one entry that may come next; LedgerError ("over") when none
        may: the game is over and every seat has signed its result."""
        return self._entitled

    @cached
    def _entitled(self) -> tuple[int, str]:
        try:
            return writers.entitled(self)
        except Refused as exc:
            raise LedgerError(self.next_seq, exc.why, exc.failure) from None

    def result_body(self) -> dict[str, Any]:
        """The game's result, as every seat signs it (protocol/log/ends.py)."""
        return result_of(self.game, self.state, self.seats, self.cheats, self.ending, self.gone, self.taken)

    def result_statement(self) -> bytes:
        """What each seat still playing signs to agree with the result in the `results` entry due next."""
        return result_statement(self.genesis.hash, self.next_seq, self.head, self.result_body())

    # -- checking an entry --------------------------------------------------------------------

    def check(self, entry: Entry, *, signatures: bool = True) -> "Ledger":
        """The ledger with `entry` appended, or LedgerError naming the seq, the reason and the
        failure class. The checks run in the order of spec/log-format.md, "Checking a log"."""
        seq = self.next_seq
        if entry.seq != seq:
            raise LedgerError(seq, f"out of order: expected seq {seq}, found seq {entry.seq}", failures.SEQ)
        if entry.prev != self.head:
            raise LedgerError(seq, "broken chain: prev is not the hash of the entry before", failures.PREV)
        if not 0 <= entry.seat < self.seats:
            raise LedgerError(seq, f"seat {entry.seat} is not at this table (its seats are 0 to {self.seats - 1})",
                             failures.SEAT)
        if signatures:
            key = self.keys[entry.seat]  # (a taken-over seat's is its takeover's)
            if not verify(key, entry.signing_bytes(), entry.sig):
                raise LedgerError(seq, f"bad signature (not seat {entry.seat}'s key)", failures.SIGNATURE)
        seat, kind = self._entitled  # (`entitled()` without its call)
        if entry.kind in writers.IN_PLACE:
            try:
                # an entry that may stand in place of the one due (protocol/log/writers.py)
                seat, kind = writers.expected(self, entry, (seat, kind))
            except Refused as exc:
                raise LedgerError(seq, exc.why, exc.failure) from None
        if entry.kind != kind or entry.seat != seat:
            raise LedgerError(seq, f"wrong seat: seat {seat} must write {_a(kind)} entry here, not seat {entry.seat} "
                                  f"{_a(entry.kind)}", failures.TURN)
        try:
            nxt = _KINDS[kind](self, entry)
        except Refused as exc:
            raise LedgerError(seq, exc.why, exc.failure) from None
        except IllegalAction as exc:
            # Only this is the entry's fault: its values fit the schema (protocol/log/schema.py),
            # and the engine answers any action its rules refuse with IllegalAction. Anything
            # else raised here is a bug of ours, and goes up as it is (spec/protocol.md, "Whose fault").
            raise LedgerError(seq, f"illegal action: {exc}", failures.ILLEGAL) from None
        # outcomes are the ones this entry brought about: none, unless its handler set them
        outcomes = () if nxt.outcomes is self.outcomes else nxt.outcomes
        last = {"head": entry.hash, "next_seq": seq + 1, "history": _History(entry, self.history), "outcomes": outcomes}
        if nxt is self:
            return evolve(nxt, **last)
        # `nxt` is the new ledger its kind's handler made for this entry, held by nobody else
        # yet: its last fields are set in place rather than in a second copy of its thirty
        # (what it cached so far goes, as `evolve` drops it)
        values = nxt.__dict__
        for name in _CACHED:
            values.pop(name, None)
        values.update(last)
        return nxt

    # -- the kinds -------------------------------------------------------------------------------

    def _move(self, entry: Entry) -> "Ledger":
        game, state, seat = self.game, self.state, entry.seat
        actions, nonce = entry.body["actions"], entry.body["nonce"]
        commits = self.commits
        if game.secret_choice(state):
            digest = dict(commits)[seat]
            if nonce is None or choice_digest(actions, nonce) != digest:
                raise Refused(failures.COMMITMENT, f"seat {seat}'s revealed choice does not match its commitment")
            if len(actions) != 1:
                raise Refused(failures.COMMITMENT, "a secret choice is revealed as exactly one action")
            commits = tuple(c for c in commits if c[0] != seat)
        elif nonce is not None:
            raise Refused(failures.COMMITMENT, "a nonce belongs only to the reveal of a secret choice")
        for i, action in enumerate(actions):
            if game.current(state) != seat:
                raise IllegalAction(f"it is no longer seat {seat}'s turn for {action!r}")
            if i and game.secret_choice(state):
                raise IllegalAction("a planned turn cannot run into a secret choice")
            state = game.apply(state, action)
        if not game.secret_choice(state):
            commits = ()
        return evolve(self, state=state, commits=commits)._run_chance()

    def _commit(self, entry: Entry) -> "Ledger":
        return evolve(self, commits=self.commits + ((entry.seat, entry.body["digest"]),))

    def _next_chain(self, entry: Entry) -> "Ledger":
        """A seat whose hash chain is spent commits to the tip of its next one."""
        seat = entry.seat
        return evolve(self, chain_values=_set(self.chain_values, seat, entry.body["tip"]),
                      chain_left=_set(self.chain_left, seat, CHAIN_LENGTH))

    def _reveal(self, entry: Entry) -> "Ledger":
        # (a seat's chain holds a value for this round: one that was spent wrote its `chain`
        # entry before the round's first reveal — `entitled`)
        seat, value = entry.seat, entry.body["value"]
        if not fits_chain(self.chain_values[seat], value):
            raise Refused(failures.REVEAL, f"seat {seat}'s reveal does not match its hash chain (a biased or forged reveal)")
        values = _set(self.chain_values, seat, value)
        used = _set(self.chain_used, seat, self.chain_used[seat] + 1)
        left = _set(self.chain_left, seat, self.chain_left[seat] - 1)
        reveals = self.reveals + (value,)
        nxt = evolve(self, chain_values=values, chain_used=used, chain_left=left, reveals=reveals)
        if len(reveals) < self.seats:
            return nxt
        entropy = round_entropy(self.rounds, reveals)
        return evolve(nxt, reveals=(), rounds=self.rounds + 1, run=(entropy, 0))._run_chance()

    def _reveals(self, entry: Entry) -> "Ledger":
        """A whole reveal round in one entry: every seat's next hash-chain value, in seat order."""
        values = tuple(together_values(self.chain_values, entry.body["values"]))
        # (every seat's chain holds a value for this round: one that was spent wrote its
        # `chain` entry before it — `entitled`)
        used = tuple(u + 1 for u in self.chain_used)
        left = tuple(k - 1 for k in self.chain_left)
        entropy = round_entropy(self.rounds, values)
        return evolve(self, chain_values=values, chain_used=used, chain_left=left, reveals=(),
                      rounds=self.rounds + 1, run=(entropy, 0))._run_chance()

    def _chance(self, entry: Entry) -> "Ledger":
        game, state = self.game, self.state
        owner = game.chance_owner(state)
        outcome = entry.body["outcome"]
        # (a `chance` entry is due only in a run, at a node a seat owns: `entitled`)
        assert self.run is not None and owner is not None
        entropy, index = self.run
        seed = self.known[owner]
        if seed is not None and game.sample_chance(state, node_entropy(entropy, index, seed)) != outcome:
            raise IllegalAction(f"seat {owner}'s outcome is not the one its private seed picks")
        nxt = evolve(self, state=game.apply(state, outcome), run=(entropy, index + 1), blind=self.blind or seed is None)
        return nxt._run_chance(((state, outcome),))

    def _resign(self, entry: Entry) -> "Ledger":
        """A seat's resignation, signed by it, carried by the seat entitled here (itself or
        another): the game ends; the audit and the result follow."""
        resigner = consent.resigner(self.genesis.hash, self.keys, entry.body)
        return evolve(self, ending=("resigned", (resigner,), entry.seq), reveals=(), run=None, commits=())

    def _agree(self, entry: Entry) -> "Ledger":
        """Every seat still playing agreed that the game ends here, drawn or aborted: each
        signed the statement bound to this seq and the entry before."""
        signers = self.writers
        consent.agreed(self.genesis.hash, self.keys, signers, entry.seq, entry.prev, entry.body)
        return evolve(self, ending=(entry.body["how"], signers, entry.seq), reveals=(), run=None, commits=())

    def _claim(self, entry: Entry) -> "Ledger":
        """Every other seat still there claims seat `gone`, away longer than the table's
        patience: it is gone for good. Its signatures are each seat's of the claim's
        statement, bound to this seq and the entry before (spec/protocol.md, "Endings")."""
        gone = entry.body["gone"]
        consent.claimed(self.genesis.hash, self.keys, self.claim_signers(gone), entry.seq, entry.prev, entry.body)
        if self.takes_over(gone):
            # the game goes on: the writer takes the seat over at the next entry; a reveal round
            # under way starts again, so no value of it is known when the new chain is committed
            return evolve(self, pending=(gone, entry.seat), reveals=(), run=None, commits=())
        ending = self.ending if self.ending is not None else ("claimed", (gone,), entry.seq)
        lost = self.gone
        for seat in (gone, *(seat for seat, _, runner in self.taken if runner == gone)):
            lost = _add(lost, seat)  # (a runner claimed: the seats it ran are gone with it)
        nxt = evolve(self, gone=lost, ending=ending, reveals=(), run=None, commits=())
        if all(nxt.audited[i] is not None for i in nxt.writers) and nxt.audits and not nxt.ends_together:
            nxt = nxt._full_audit(entry.seq)  # the seat it waited for is gone: the audit is whole
            # (the `audits` entry holds every seed at once: its re-run is done already)
        return nxt

    def _protest(self, entry: Entry) -> "Ledger":
        """The claimed seat protests the claim before it, signed by one seat alone: it was
        there. Its `entries` are its own the claim displaced, its evidence (checked by
        `consent.protested`); the game ends disputed here (spec/protocol.md, "What a claim
        proves")."""
        assert self.history is not None  # a protest follows the claim it protests (`writers`)
        claim = self.history.entry
        consent.protested(self.keys[entry.seat], entry.seat, claim.seq, claim.prev, entry.body)
        return evolve(self, protest=entry.seq)

    def _takeover(self, entry: Entry) -> "Ledger":
        """The claim's writer takes the claimed seat over: from here on that seat's entries
        are signed by the new key and reveal from the new hash chain; its audit reveals the
        seed committed here (spec/log-format.md, "Takeover")."""
        assert self.pending is not None  # a takeover is due only after a claim (`writers`)
        body, (gone, _) = entry.body, self.pending
        if body["gone"] != gone:
            raise Refused(failures.CONSENT, f"a takeover of seat {body['gone']}, but the claim before it is of seat {gone}")
        return evolve(
            self, pending=None, taken=self.taken + ((gone, entry.seq, entry.seat),),
            keys=_set(self.keys, gone, body["key"]), seeds=_set(self.seeds, gone, body["seed"]),
            chain_values=_set(self.chain_values, gone, body["chain"]), chain_used=_set(self.chain_used, gone, 0),
            chain_left=_set(self.chain_left, gone, CHAIN_LENGTH), known=_set(self.known, gone, None),
        )

    def _audit(self, entry: Entry) -> "Ledger":
        seat, seed = entry.seat, entry.body["seed"]
        nxt = evolve(self, audited=_set(self.audited, seat, seed), audits=self.audits + 1)
        if seed_commitment(seed) != self.seeds[seat]:
            # proven here and now: the genesis commitment and this seed disagree
            nxt = evolve(nxt, cheats=_add(nxt.cheats, seat))
            if nxt.audit_failure is None:
                why = f"the audit: seat {seat}'s revealed seed is not the one its genesis commits to"
                nxt = evolve(nxt, audit_failure=(entry.seq, why))
        if all(nxt.audited[i] is not None for i in nxt.writers):
            nxt = nxt._full_audit(entry.seq)
        return nxt

    def _audits(self, entry: Entry) -> "Ledger":
        """The whole audit in one entry: every seat still playing's seed, in seat order, each
        the one its commitment names; then the game re-run with full information."""
        seeds = audits_seeds(self.writers, self.seeds, entry.body["seeds"])
        audited = tuple(seeds.get(i, seed) for i, seed in enumerate(self.audited))
        nxt = evolve(self, audited=audited, audits=self.audits + len(seeds))
        return nxt._full_audit(entry.seq)

    def _results(self, entry: Entry) -> "Ledger":
        """The result and every seat still playing's signature of its statement."""
        check_results(self.genesis.hash, self.writers, self.keys, entry, _as_record(self.result_body()))
        return evolve(self, results=len(self.writers))

    def _result(self, entry: Entry) -> "Ledger":
        check_result(dict(entry.body), _as_record(self.result_body()))
        return evolve(self, results=self.results + 1)

    # -- chance ------------------------------------------------------------------------------

    def _run_chance(self, outcomes_so_far: Outcomes = ()) -> "Ledger":
        """Apply the chance nodes the current run decides (protocol/log/chance.py)."""
        if self.run is None:
            return self
        state, run, outcomes, blind = run_chance(self.game, self.state, self.run, self.known, self.blind)
        return evolve(self, state=state, run=run, outcomes=outcomes_so_far + outcomes, blind=blind)

    # -- the audit --------------------------------------------------------------------------------

    def _full_audit(self, seq: int) -> "Ledger":
        """Every seat has audited (the last audit is entry `seq`). Unless a seed was already
        false, re-run the whole game with full information: it needs every seed, so the
        first entry it refuses is proven a lie here, at `seq`; its writer joins `cheats`."""
        if self.cheats:
            return self  # a false seed, already reported at its own audit entry
        if not self.blind:
            return self  # this ledger saw everything already: there is nothing to re-check
        taken = self.taken_seats  # (their genesis seeds were lost with their nodes)
        seeds = {i: seed for i, seed in enumerate(self.audited) if seed is not None and i not in taken}
        full = Ledger.start(self.genesis, seeds, signatures=False)  # (every check but the signatures)
        assert self.history is not None  # the audit is entries of the log, not its start
        for entry in self.history:
            if entry.kind in ("audit", "audits"):
                break
            try:
                full = full.check(entry, signatures=False)
            except LedgerError as exc:
                why = f"the audit: seat {entry.seat} lied at seq {entry.seq} ({exc.why})"
                return evolve(self, cheats=_add(self.cheats, entry.seat), audit_failure=(seq, why))
        return self


_KINDS = {
    "move": Ledger._move,
    "commit": Ledger._commit,
    "chain": Ledger._next_chain,
    "reveal": Ledger._reveal,
    "reveals": Ledger._reveals,
    "chance": Ledger._chance,
    "audit": Ledger._audit,
    "result": Ledger._result,
    "audits": Ledger._audits,
    "results": Ledger._results,
    "resign": Ledger._resign,
    "claim": Ledger._claim,
    "agree": Ledger._agree,
    "takeover": Ledger._takeover,
    "protest": Ledger._protest,
}


#: the values a ledger caches (`cached`: each depends on everything)
_CACHED = cached_names(Ledger)


def _view(game: Game, state: Any, known: tuple[bytes | None, ...]) -> Any:
    """The state as the seats with known seeds see it."""
    seen = [i for i, seed in enumerate(known) if seed is not None]
    if len(seen) == len(known):
        return state
    return game.view(state, seen[0] if len(seen) == 1 else None)


def _a(kind: str) -> str:
    return f"an {kind}" if kind[:1] in ("a", "e", "i", "o", "u") else f"a {kind}"


T = TypeVar("T")


def _set(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return values[:i] + (value,) + values[i + 1 :]


def _add(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(sorted(set(seats) | {seat}))


def _as_record(body: Mapping[str, Any]) -> WireMap:
    """A body as it reads back from the log (lists become tuples)."""
    return {k: tuple(v) if isinstance(v, list) else _as_record(v) if isinstance(v, dict) else v
            for k, v in body.items()}
