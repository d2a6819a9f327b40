"""Forming a table: the handshake before the genesis (spec/protocol.md, "Forming a table").

The host hands out seats to the nodes that say `hello` and answers each with `welcome` (or
`refuse`). A seat is *leased*: its node keeps it by being heard (its hello, repeated every
`REPEAT_EVERY` seconds, and its beat every second); a seat silent for `SEAT_LEASE` seconds
is freed, a clean `leave` frees it at once, and the host may remove it. The same key coming
back takes its seat again (its old seat if that is still free). Once every seat is taken,
and every joiner's node has been heard again since its hello took the seat (a key that
said hello once and vanished never gets a table proposed), the host proposes the genesis.
Every seat checks that the proposal states its own seat exactly as it asked, signs it and
sends its signature to the host; the host, holding every signature, has the genesis and
hands it to every seat. A seat that goes silent, leaves or is removed before the host has
every signature — or whose signature has not come `SIGN_WITHIN` seconds after the proposal
— is freed, and the host withdraws the proposal: it welcomes each remaining seat again
(a `welcome` while signing means "forming again") and proposes anew once the table is full.
Only the host completes a genesis, so a withdrawn proposal can never become a game.

A private table needs a code: the joiner's hello carries a knock proving it knows the code
(protocol/session/tablecode.py); the code itself never travels. Wrong codes cost the guesser time:
the host checks knocks less often the more wrong ones came (protocol/session/guesses.py). Two
refusals are for now — the table full while it forms, codes not checked now — and a joiner
told one asks again for a while before it takes it as final.

`Forming` is what the two sides share — the proposal and its signatures; `Hosting`
(protocol/session/hosting.py) is the host's side, `Joining` (protocol/session/joining.py) a
joiner's (a seat's or a spectator's). Either is the data of a session's FORMING and SIGNING
phases: the session hands it the forming messages, is told when a proposal stands or is
withdrawn (`reached`), and takes the finished genesis from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from peerboard import engines
from peerboard.engines import OptionError
from peerboard.protocol.session.effects import Effects, Send
from peerboard.protocol.session.events import PeersKnown, Seated
from peerboard.protocol.session.guesses import TOTAL_MOST
from peerboard.protocol.log import Genesis, Identity, PROTOCOL_VERSION, SignedGenesis, verify
from peerboard.protocol.session.phases import Milestone
from peerboard.protocol.session.refusals import CODES_WAIT, FULL
from peerboard.protocol.session.surface import ChanceRecord, MoveRecord
from peerboard.protocol.session.messages import Beat, GenesisMessage, Hello, MessageError, Propose, Sign, Want

#: seconds between repeats of what a forming node said (a lost hello, a lost signature)
REPEAT_EVERY = 2.0
#: seconds of silence after which the host frees a seat (or forgets a spectator) while the
#: table forms: three repeats of the hello, six beats
SEAT_LEASE = 6.0
#: seconds after the proposal within which every seat's signature must have come
SIGN_WITHIN = 6.0
#: spectators a forming table takes (each is sent the genesis when the game starts)
MAX_WATCHERS = 32

#: how long a joiner refused for now goes on asking: a seat's lease and two repeats of the
#: hello (a seat taken by a node that then went silent is free by then); the longest wait
#: for a code check and two repeats
FULL_PATIENCE = SEAT_LEASE + 3 * REPEAT_EVERY
CODES_PATIENCE = TOTAL_MOST + 3 * REPEAT_EVERY
#: the refusals for now: a reason that is one of these, or one and more words after a space
FOR_NOW = ((FULL, FULL_PATIENCE), (CODES_WAIT, CODES_PATIENCE))
#: keys remembered as having given a private table's code (their repeated hellos are not
#: checked again, so a wait for codes never refuses a seat already taken)
PROVEN_KEPT = 1024

_NO_HEAD = Beat(0, bytes(32)).to_bytes()  # a forming node's beat: it holds no log yet


@dataclass
class Lease:
    """A seat taken at a forming table, as its host keeps it: the hello that took it (the
    latest, if its node said another), when its node was last heard, and whether it has
    been heard again since that hello."""

    hello: Hello
    heard: float  # session time its node was last heard from
    answered: bool = False

    @property
    def key(self) -> bytes:
        return self.hello.key


@dataclass
class Forming:
    """One node's side of a forming table, what the host and a joiner share: the proposal
    and its signatures. `genesis` is set once the table is formed; from then on the session
    plays the game and this object is done."""

    identity: Identity
    #: what this node says in its hello (its role, name, commitments, address and knock)
    local: Hello
    host: bytes
    players: int  # a joiner learns it from the welcome (0 until then)
    options: Mapping[str, Any]
    #: told each milestone of forming as it happens (the session moves its phase by it)
    reached: Callable[[Milestone], None]
    #: spectators' keys and where they listen
    spectators: dict[bytes, str] = field(default_factory=dict)
    seat: int | None = None  # this node's seat once it has one
    proposal: Genesis | None = None
    addrs: tuple[str, ...] = ()
    sigs: dict[int, bytes] = field(default_factory=dict)
    genesis: SignedGenesis | None = None
    repeat_at: float = 0.0
    #: where the message being handled came from: its network address as the node saw it
    #: (the session sets it; "" when not known)
    source: str = ""
    #: a joiner's last refusal for now from the host, while it asks again
    refused_for_now: str | None = None
    _resolved: Mapping[str, Any] | None = field(default=None, repr=False)
    _resolved_for: Genesis | None = field(default=None, repr=False)

    @property
    def key(self) -> bytes:
        return self.local.key

    @property
    def game(self) -> str:
        return self.local.game

    @property
    def table(self) -> bytes:
        return self.local.table

    #: whether this side hands the complete genesis to every seat (the host, who completes it)
    hands_out_genesis = False

    def known_seats(self) -> tuple[tuple[int, str, bytes, str], ...]:
        """(index, name, key, address) of each seat known so far: the proposal's."""
        if self.proposal is None:
            return ()
        return tuple((i, s.name, s.key, a) for i, (s, a) in enumerate(zip(self.proposal.seats, self.addrs)))

    def peers(self) -> list[bytes]:
        """Whom a broadcast goes to while the table forms."""
        return [k for k in dict.fromkeys(self._dealing_with() + list(self.spectators)) if k != self.key]

    def _dealing_with(self) -> list[bytes]:
        """The seats this node deals with (its own key may be among them)."""
        return [s.key for s in self.proposal.seats] if self.proposal is not None else []

    def heard_from(self, sender: bytes, now: float) -> Effects:
        """A message came from `sender` (the host renews that node's lease)."""
        return []

    def after_message(self, now: float) -> Effects:
        """What follows from a message just taken, whichever it was (the host may propose)."""
        return []

    def beat(self) -> bytes:
        return _NO_HEAD

    # -- the read-only surface: no game yet -----------------------------------------------------

    @property
    def options_resolved(self) -> Mapping[str, Any]:
        """The proposal's options with every default filled in ({} before a proposal)."""
        g = self.proposal
        if g is None:
            return {}
        if self._resolved_for is not g:
            self._resolved, self._resolved_for = engines.get(g.game).resolve_options(len(g.seats), g.options), g
        assert self._resolved is not None  # (worked out with `_resolved_for`)
        return self._resolved

    @property
    def game_name(self) -> str:
        return self.local.game

    log_length = 0
    confirmed_seq = 0
    genesis_hash = None
    result = None

    def connection(self, index: int) -> str:
        return "connected"

    def acked(self, index: int) -> int:
        return 0

    def position(self, confirmed: bool) -> None:
        return None

    def move_records(self) -> tuple[MoveRecord, ...]:
        return ()

    def chance_records(self) -> tuple[ChanceRecord, ...]:
        return ()

    # -- the proposal and the signatures -----------------------------------------------------

    def on_propose(self, sender: bytes, m: Propose, now: float) -> Effects:
        if self.proposal == m.genesis:
            return []  # a repeat of what this node already signed
        if sender != self.host:
            raise MessageError("propose: not expected from this sender now")
        g = m.genesis
        mine = [i for i, s in enumerate(g.seats) if s.key == self.key]
        if len(mine) != 1 or self.local.role != "seat":
            raise MessageError("propose: this node has no seat in it")
        seat = mine[0]
        s, asked = g.seats[seat], self.local
        if (s.name, s.chain, s.seed) != (asked.name, asked.chain, asked.seed) or (g.table, g.game) != (self.table, self.game):
            raise MessageError("propose: the proposal misstates this node's seat")
        if g.protocol != PROTOCOL_VERSION or len(m.addrs) != len(g.seats):
            raise MessageError("propose: bad version or addresses")
        try:
            engine = engines.get(g.game)
            engine.new_game(len(g.seats), g.options)
        except OptionError as exc:
            raise MessageError(f"propose: {exc}") from None
        if g.engine != engine.version:
            raise MessageError(f"propose: {g.game} engine version {g.engine}; this node has version {engine.version}")
        if g.takeover is not None and len(g.seats) < 3:
            raise MessageError("propose: a takeover strategy at a table of two seats (no verifier takes that genesis)")
        self.proposal, self.addrs, self.seat, self.players = g, m.addrs, seat, len(g.seats)
        self.reached(Milestone.PROPOSED)
        message = g.signing_bytes()
        # signatures that came before the proposal count if they sign this one
        self.sigs = {i: sig for i, sig in self.sigs.items() if i < len(g.seats) and verify(g.seats[i].key, message, sig)}
        sign = Sign(seat, self.identity.sign(message))
        effects: Effects = [PeersKnown(tuple((s.key, a) for s, a in zip(g.seats, m.addrs))), Seated(seat, len(g.seats))]
        return effects + self._signed(g, m.addrs, sign) + self.on_sign(self.key, sign, now)

    def _signed(self, g: Genesis, addrs: tuple[str, ...], sign: Sign) -> Effects:
        """What follows this node's own signature of proposal `g`, besides keeping it."""
        return []

    def on_sign(self, sender: bytes, m: Sign, now: float) -> Effects:
        g = self.proposal
        if g is None:
            # a seat's signature may outrun the proposal; keep it until the proposal comes
            self.sigs[m.seat] = m.sig
            return []
        if not m.seat < len(g.seats) or g.seats[m.seat].key != sender:
            raise MessageError("sign: the sender does not hold that seat")
        if not verify(sender, g.signing_bytes(), m.sig):
            raise MessageError("sign: bad genesis signature")
        self.sigs[m.seat] = m.sig
        if len(self.sigs) == len(g.seats):
            self.genesis = SignedGenesis(g, tuple(self.sigs[i] for i in range(len(g.seats))))
        return []

    def on_genesis(self, sender: bytes, m: GenesisMessage, now: float) -> Effects:
        """The whole signed genesis: every seat gets it from the host once the host has
        every signature; a spectator, or a seat that missed it, from a node that has it."""
        g = m.genesis.terms
        if g.table != self.table:
            raise MessageError("genesis: not the table this node asked for")
        if m.genesis.bad_signers():
            raise MessageError("genesis: not signed by every seat")
        if self.local.role == "seat" and self.key not in {s.key for s in g.seats}:
            raise MessageError("genesis: this node has no seat in it")
        self.genesis, self.addrs = m.genesis, m.addrs
        return [Send(sender, Want(1).to_bytes())]  # and the entries written since
