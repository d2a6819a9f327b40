"""The engine contract: what every game offers the protocol, the client and the tests.

A game is a `Game` object holding no state of its own; every call takes an immutable
state and returns a value or a new state. See spec/engine-contract.md.
"""
from __future__ import annotations

from fractions import Fraction
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Mapping, TypeAlias

from peerboard.engines.canonical import Record, record_digest
from peerboard.engines.chance import pick_weighted
from peerboard.engines.options import Option, resolve_options
from peerboard.engines.styled import Fragment, plain

#: `current(state)` at a chance node: nature acts next (a die, a draw, a shuffle step).
CHANCE = -1
#: `current(state)` once the game is over.
TERMINAL = -2

#: An action is a small immutable value: a tuple of str, int, bool or None, or of such
#: tuples (engines/actions.py, `is_action`, says how deep).
if TYPE_CHECKING:
    Action: TypeAlias = tuple["str | int | None | Action", ...]
else:
    Action = tuple


class IllegalAction(ValueError):
    """An action (or its text) that the rules do not allow here; the message says why."""


class OptionError(ValueError):
    """A game was asked for with a player count or an option it does not have."""


class Game(ABC):
    """The contract. Subclasses implement the abstract methods (marked "engine:")."""

    #: registry name, e.g. "aton"
    name: str = ""
    #: human title, e.g. "Asterix: The Hunt"
    title: str = ""
    #: changes whenever a rule change could alter the outcome of a recorded log
    version: str = "1"
    min_players: int = 2
    max_players: int = 2
    #: name -> Option (default, check, doc)
    options_schema: Mapping[str, Option] = {}
    #: (players, options) set-ups the conformance kit plays (tests/engines/test_conformance.py)
    conformance_setups: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    #: a random game that has not ended after this many actions is a failed conformance run
    playout_limit: int = 200_000

    # -- setup -----------------------------------------------------------------
    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The full option set (defaults filled in), or OptionError with a reason."""
        if not isinstance(players, int) or isinstance(players, bool) or not (
            self.min_players <= players <= self.max_players
        ):
            span = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise OptionError(f"{self.title} is played by {span} players, not {players!r}.")
        resolved = resolve_options(self.title, self.options_schema, options or {}, OptionError)
        self.check_options(players, resolved)
        return resolved

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        """engine (optional): checks that depend on several options or the player count."""

    @abstractmethod
    def new_game(self, players: int, options: Mapping[str, Any] | None = None) -> Any:
        """engine: the state before the first action."""
        ...

    # -- whose move ------------------------------------------------------------
    @abstractmethod
    def current(self, state: Any) -> int:
        """engine: the seat to act, CHANCE or TERMINAL."""
        ...

    @abstractmethod
    def legal_actions(self, state: Any) -> list[Action]:
        """engine: every legal action in a deterministic order (at CHANCE: the outcomes)."""
        ...

    @abstractmethod
    def chance_weights(self, state: Any) -> list[tuple[Action, int]]:
        """engine: at CHANCE, each outcome with a positive integer weight (exact odds)."""
        ...

    @abstractmethod
    def apply(self, state: Any, action: Action) -> Any:
        """engine: the new state; the old one is untouched. IllegalAction if not allowed."""
        ...

    # -- outcome ---------------------------------------------------------------
    def is_terminal(self, state: Any) -> bool:
        return self.current(state) == TERMINAL

    def sides(self, state: Any) -> tuple[tuple[int, ...], ...]:
        """engine (optional): the seats that win or lose together, each side in seat
        order: every seat alone (the default), or teams (Athos with teams: (0, 2), (1, 3)).
        Several winners who are one side won as a team; several sides among the winners
        share the win."""
        return tuple((seat,) for seat in range(len(self.scores(state))))

    @abstractmethod
    def winners(self, state: Any) -> list[int]:
        """engine: the winning seats (several for a shared win, none for a draw)."""
        ...

    @abstractmethod
    def scores(self, state: Any) -> list[int]:
        """engine: one number per seat, the game's own score."""
        ...

    # -- notation --------------------------------------------------------------
    @abstractmethod
    def format_action(self, state: Any, action: Action) -> str:
        """engine: the action's one text form (spec/games/NAME.md)."""
        ...

    @abstractmethod
    def parse_action(self, state: Any, text: str) -> Action:
        """engine: the inverse of format_action; IllegalAction on bad text."""
        ...

    def plan_order(self, state: Any, actions: list[Action]) -> list[Action]:
        """The actions a person planned for the rest of their turn, in the order typed, put
        in the order the engine takes them (where the rules offer only one order of choices
        that give the same position). Default: as typed. Athos: a turn's placements go down
        in board order."""
        return list(actions)

    def phase_end(self, state: Any) -> Action | None:
        """The action by which the seat to act ends the part of its turn it is in, doing
        nothing more there, where the rules have one (Athos: end move, no Athos piece, end
        turn); None where that part must be played out. A client ends a turn "as it is" by
        taking these until another seat is to act. Default: None (no part may be cut short).
        It is a proposal: `apply` still decides whether it is legal (and says why not)."""
        return None

    # -- chance ----------------------------------------------------------------
    def chance_outcomes(self, state: Any) -> list[tuple[Action, Fraction]]:
        weighted = self.chance_weights(state)
        total = sum(w for _, w in weighted)
        return [(a, Fraction(w, total)) for a, w in weighted]

    def sample_chance(self, state: Any, entropy: bytes) -> Action:
        """The outcome these 32 bytes pick, with exactly the rules' odds (spec/chance.md)."""
        return pick_weighted(self.chance_weights(state), entropy)

    # -- hidden information -----------------------------------------------------
    def chance_owner(self, state: Any) -> int | None:
        """At CHANCE: the seat whose own private pile supplies the outcome, else None."""
        return None

    def chance_hidden(self, state: Any) -> bool:
        """At CHANCE: True when only `chance_owner` may see the outcome."""
        return False

    def hidden_outcome(self, state: Any) -> Action:
        """At a hidden CHANCE node: the placeholder the other seats apply to their views."""
        raise IllegalAction("This chance event is public; it has no hidden form.")

    def secret_choice(self, state: Any) -> tuple[int, ...]:
        """The seats still to choose in a simultaneous, secret decision that includes the
        current seat (Aton's cartouches), in the order the engine takes their choices; ()
        when the current decision is open. Every seat of the group commits to its choice
        before any is revealed."""
        return ()

    def choices_for(self, state: Any, seat: int) -> list[Action]:
        """At a secret choice: the actions `seat` may commit to now, before the seats ahead
        of it in the group have revealed theirs (their choices cannot change its options)."""
        if seat == self.current(state):
            return self.legal_actions(state)
        raise IllegalAction(f"Seat {seat} has no choice to make here.")

    def view(self, state: Any, seat: int | None) -> Any:
        """What `seat` may know (None: only what everyone knows). Perfect information: all."""
        return state

    def determinize(self, view: Any, seat: int | None, entropy: bytes) -> Any:
        """A full state that `seat` cannot tell apart from `view`: every hidden part (the
        other seats' hands, the order of a deck) filled in at random from `entropy` (32
        bytes), with the odds the public information leaves. Deterministic given `entropy`;
        it agrees with `view` on everything public and hashes like it. Search bots sample
        these (information-set MCTS). Perfect information: the view itself."""
        return view

    # -- identity ----------------------------------------------------------------
    @abstractmethod
    def public_record(self, state: Any) -> Record:
        """engine: the state as nested tuples of int/str/bool/None covering exactly what
        every seat knows; its layout is documented in spec/games/NAME.md."""
        ...

    def state_hash(self, state: Any) -> bytes:
        """SHA-256 of the canonical msgpack of `public_record` (spec/engine-contract.md)."""
        return record_digest(self.public_record(state))

    # -- display -----------------------------------------------------------------
    @abstractmethod
    def render_styled(self, state: Any, seat: int | None = None) -> list[Fragment]:
        """engine: the position as `seat` sees it, as (style, text) fragments: the style
        names what a piece of the picture is (spec/engine-contract.md, "Styled boards");
        the client decides how each looks. Plain, deterministic, under 80 columns."""
        ...

    def render_text(self, state: Any, seat: int | None = None) -> str:
        """A plain-text picture of the position as `seat` sees it: `render_styled` without
        its styles (for bots, logs, tests and terminals without colour)."""
        return plain(self.render_styled(state, seat))

    def rules_text(self) -> str:
        """engine (optional): the rules in brief, a dozen lines or so, for the client's
        help screen (F1); the same words as the section "The rules in brief" of
        spec/games/NAME.md (a test compares them). Default "": the help then names that
        file instead."""
        return ""

    # -- action ids ------------------------------------------------------------------
    def action_ids(self, players: int, options: Mapping[str, Any] | None = None) -> Any:
        """engine (optional): the game's fixed numbering of its actions for this player
        count and option set, an `engines.action_ids.ActionIds` (every action that can
        ever be legal has one id in `[0, len)`, chance outcomes first, the same in every
        version: spec/games/NAME.md, "Action ids"). Default None: the game has no
        numbering, so the research frameworks (peerboard.openspiel, peerboard.pettingzoo)
        do not offer it; everything else plays it as before."""
        return None

    def features(self, players: int, options: Mapping[str, Any] | None = None) -> Any:
        """engine (optional): the game's numeric picture of a seat's view for this player
        count, an `engines.features.Features`: `features(view, seat)` gives `len(features)`
        numbers in [0, 1] read from the view alone (spec/games/NAME.md, "Features"). Default
        None: the research frameworks then observe the game as text only."""
        return None

    # -- for bots ------------------------------------------------------------------
    def heuristic(self, state: Any, seat: int) -> float | None:
        """engine (optional): how much better `seat` stands than its score says, in the
        game's own points (a search player values a seat at `scores[seat]` plus this).
        Pure and cheap; it sees only what the state holds (a bot's state is its view).
        Default None: the score alone."""
        return None
