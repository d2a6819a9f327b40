"""What each game counts for on a ladder (docs/ratings.md): its kind of result, whether it
is rated, and each seat's place; and the ratings, game by game.

A game is its genesis, and every copy of it found is compared (protocol/log/copies.py):
what the copies prove together decides, never a file's name or order. The kinds:

| kind | how the game ended | rated |
|---|---|---|
| `rules` | by the game's rules (a bot may have played a seat taken over) | yes |
| `resigned` | a seat resigned: it loses | yes |
| `drawn` | every seat agreed to a draw | yes, a draw |
| `claimed` | a seat was claimed, gone for good: one seat's word at two seats | with `--rate-claims` only |
| `aborted` | every seat agreed to abort: no result | no |
| `equivocated` | a seat signed two histories of the game: it loses, whatever any copy says | yes |
| `disputed` | a claim signed by one seat alone, contradicted by the claimed seat's own signature | no |
| `forked` | the copies disagree and no signature says why | no |
| `unfinished` | no copy holds a result every seat still playing signed | no |
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from peerboard.client.roster import Roster
from peerboard.protocol.log import fingerprint, result_in
from peerboard.protocol.log import Comparison

#: the names peerboard gives the bots it starts: `bot-N` at a table, a strategy in
#: selfplay (`mcts`, `greedy#2`, `random-0`, `exec:prog`). A name is the seat's own claim:
#: "bot" says what it called itself, not what it is.
BOT_NAME = re.compile(r"(bot-\d+|random|greedy|mcts|exec:.*)([#@-].*)?")

#: the kinds of result, in the order the docs list them
KINDS = ("rules", "resigned", "drawn", "claimed", "aborted", "equivocated", "disputed", "forked", "unfinished")


@dataclass(frozen=True)
class Player:
    fingerprint: str
    name: str  # the seat's own name, or the roster's for its key
    key: bytes


@dataclass
class Game:
    """One game on the ladder, decided from every copy of it."""

    genesis: bytes
    game: str
    copies: tuple[str, ...]
    written: int  # when its oldest copy was last written (ns): the order games are rated in
    seats: tuple[Player, ...]
    kind: str
    #: seats that won, and seats named as losing (resigned, claimed, equivocated)
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    rated: bool = False
    #: why it is not rated (empty when it is)
    why: str = ""
    #: what the copies proved, in words (protocol/log/copies.py)
    findings: tuple[str, ...] = ()
    comparison: Comparison | None = field(default=None, repr=False)

    def places(self) -> list[int]:
        """Each seat's place, 1 the best: the winners first, the seats named as losing last,
        the rest between (all first when nobody won)."""
        out = []
        for i in range(len(self.seats)):
            place = 1 if i in self.winners or not self.winners else 2
            out.append(place + 1 if i in self.losers else place)
        return out

    def outcome(self) -> str:
        """The result in words: "ann beat bob", "ann and carl won", "a draw", "no result"."""
        names = [p.name for p in self.seats]
        if self.kind in ("aborted", "forked", "unfinished", "disputed"):
            return "no result"
        if not self.winners and not self.losers:
            return "a draw"
        top = [names[i] for i in range(len(names)) if self.places()[i] == 1]
        rest = [names[i] for i in range(len(names)) if self.places()[i] != 1]
        if len(top) == 1 and len(rest) == 1:
            return f"{top[0]} beat {rest[0]}"
        return f"{' and '.join(top)} won"

    def row(self) -> dict[str, Any]:
        return {
            "genesis": self.genesis.hex(), "game": self.game, "copies": list(self.copies), "kind": self.kind,
            "rated": self.rated, "why": self.why,
            "seats": [{"fingerprint": p.fingerprint, "name": p.name, "key": p.key.hex()} for p in self.seats],
            "winners": list(self.winners), "losers": list(self.losers), "findings": list(self.findings),
        }


def decide(comparison: Comparison, written: int, *, rate_claims: bool = False, roster: Roster | None = None) -> Game:
    """The game the copies of one genesis make: its kind, places and whether it is rated."""
    terms = comparison.genesis.terms
    seats = tuple(Player(fingerprint(s.key), s.name if roster is None else roster.name_of(s.key) or s.name, s.key)
                  for s in terms.seats)
    base = dict(genesis=comparison.genesis.hash, game=terms.game, copies=tuple(sorted(c.name for c in comparison.copies)),
                written=written, seats=seats, findings=tuple(comparison.words()), comparison=comparison)
    game = _decided(comparison, base, rate_claims)
    if game.rated and roster is not None:
        unknown = [i for i, s in enumerate(terms.seats) if roster.name_of(s.key) is None]
        if unknown:
            seat = unknown[0]
            game.rated = False
            game.why = f"seat {seat}'s key ({seats[seat].fingerprint}) is not on the roster"
    if game.rated and len({p.key for p in seats}) < 2:
        game.rated, game.why = False, "one key played every seat"
    return game


def _decided(comparison: Comparison, base: dict, rate_claims: bool) -> Game:
    if comparison.equivocations:
        cheats = comparison.equivocators
        everyone = len(cheats) == len(base["seats"])
        return Game(**base, kind="equivocated", losers=cheats, rated=not everyone,
                    why="every seat equivocated" if everyone else "")
    if comparison.disputes:
        return Game(**base, kind="disputed", why="a claim one seat signed alone, which the claimed seat disputes")
    standing = comparison.standing
    if standing is None:
        return Game(**base, kind="forked", why="the copies disagree")
    ledger = standing.verdict.ledger
    if not ledger.finished:
        return Game(**base, kind="unfinished", why="no copy holds the signed result")
    result = next(r for r in (result_in(e) for e in reversed(standing.contents.entries)) if r is not None)
    winners = tuple(result["winners"])
    ending = result.get("ending")
    if ending is None:
        return Game(**base, kind="rules", winners=winners, rated=True)
    how, named = ending["how"], tuple(ending["seats"])
    if how == "drawn":
        return Game(**base, kind="drawn", rated=True)
    if how == "aborted":
        return Game(**base, kind="aborted", why="aborted by every seat: no result")
    if how == "resigned":
        return Game(**base, kind="resigned", winners=winners, losers=named, rated=True)
    if ledger.game.is_terminal(ledger.state):
        # over by its rules before the claim, which stood only for a missing signature of
        # the result: the moves, every one signed by its seat, decide it
        return Game(**base, kind="rules", winners=winners, rated=True)
    # claimed: the claimed seats lose; at two seats on one seat's word
    losers = tuple(i for i in named if i not in winners)
    return Game(**base, kind="claimed", winners=winners, losers=losers, rated=rate_claims,
                why="" if rate_claims else "ended by a claim: the word of the seats that signed it, which no log can "
                                         "prove (--rate-claims rates it)")


# -- the ratings --------------------------------------------------------------------------------


@dataclass
class Standing:
    fingerprint: str
    name: str
    bot: bool
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rating: Any = None

    @property
    def ordinal(self) -> float:
        """The rating shown and ranked by: the mean less three standard deviations, the level
        the player is nearly sure to be above."""
        return self.rating.ordinal()

    def row(self) -> dict[str, Any]:
        return {"fingerprint": self.fingerprint, "name": self.name, "bot": self.bot, "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "rating": round(self.ordinal, 3), "mu": round(self.rating.mu, 3), "sigma": round(self.rating.sigma, 3),
                "ordinal": round(self.ordinal, 3)}


def ladders(games: Sequence[Game]) -> dict[str, list[Standing]]:
    """Per game, its players best first by their rating (`Standing.ordinal`), from the rated
    games in the order they were written (Weng-Lin: openskill's Plackett-Luce model)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    out: dict[str, dict[str, Standing]] = {}
    for g in sorted((g for g in games if g.rated), key=lambda g: (g.written, g.genesis)):
        table = out.setdefault(g.game, {})
        players = []
        for p in g.seats:
            s = table.get(p.fingerprint)
            if s is None:
                s = table[p.fingerprint] = Standing(p.fingerprint, p.name, False, rating=model.rating(name=p.fingerprint))
            s.name = p.name  # the name last used
            s.bot = bool(BOT_NAME.fullmatch(p.name))
            players.append(s)
        # one team per seat (Athos's teams share a result: their seats are all winners);
        # a key at two seats of one game (allowed at a table of one's own) is rated once
        once = {id(s): (s, place) for s, place in zip(players, g.places())}
        if len(once) < 2:
            continue
        places = [place for _, place in once.values()]
        rated = model.rate([[s.rating] for s, _ in once.values()], ranks=places)
        best = min(places)
        level = len(set(places)) == 1
        for (s, place), (new,) in zip(once.values(), rated):
            s.rating = new
            s.games += 1
            if level:
                s.draws += 1
            elif place == best:
                s.wins += 1
            else:
                s.losses += 1
    return {name: sorted(t.values(), key=lambda s: (-s.ordinal, s.fingerprint)) for name, t in sorted(out.items())}
