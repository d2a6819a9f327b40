"""A game in this process against random players, as a GameSource: no network, no log.

It stands in for the live game where the network is not the point (the screen's tests,
bench/bench_tui.py) and plays by the same rules the protocol enforces: the local seat
sees only its `view`; a planned turn is applied as one entry, and only while it is the
local seat's turn; a secret choice is collected from every seat of the group before any
is applied, so nobody's choice is seen before all have chosen; chance comes from a
seeded generator and a hidden draw of another seat shows in the move list as its
placeholder.
"""
from __future__ import annotations

import asyncio
import random
from typing import Any, Callable, Mapping, Sequence

from peerboard.engines import CHANCE, Game, IllegalAction
from peerboard.client.tui.source import Changed, MoveLine, SeatLine, Snapshot, SourceEvent, SubmitError


class LocalSource:
    def __init__(self, game: Game, players: int | None = None, options: Mapping[str, Any] | None = None,
                 local_seat: int = 0, seed: int = 0, name: str = "you"):
        self.game = game
        self.players = players or game.min_players
        self.state = game.new_game(self.players, options)
        self.local_seat = local_seat
        self.rng = random.Random(seed)
        self.names = tuple(name if i == local_seat else f"random-{i}" for i in range(self.players))
        self.lines: list[MoveLine] = []
        #: a secret choice in progress: seat -> the action it chose (applied when all chose)
        self.choices: dict[int, tuple] = {}
        self._listeners: list[Callable[[SourceEvent], None]] = []
        self._post: Callable[[Callable[[], None]], object] | None = None
        self._advance()

    # -- GameSource -----------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        game, state, seat = self.game, self.state, self.local_seat
        decision, legal = self._decision()
        to_act = self._to_act()
        scores = game.scores(state)
        seats = tuple(
            SeatLine(i, self.names[i], f"local-{i}", scores[i], "you" if i == seat else "connected", None)
            for i in range(self.players)
        )
        if game.is_terminal(state):
            won = game.winners(state)
            status = "game over: " + (" and ".join(f"seat {w} ({self.names[w]})" for w in won) or "a draw")
        elif decision:
            status = "your turn" if decision == "move" else "your secret choice"
        else:
            status = f"waiting for seat {to_act[0]} ({self.names[to_act[0]]})" if to_act else ""
        return Snapshot(
            game=game, seq=self._seq(), state=game.view(state, seat), seats=seats, local_seat=seat,
            to_act=to_act, decision=decision, legal=legal, moves=tuple(self.lines), status=status,
            over=game.is_terminal(state), title=f"{game.title} · against random players",
        )

    def rematch(self, answer: str) -> None:
        raise SubmitError("This game has no table to play again: start a new one.")

    def chat(self, text: str) -> None:
        raise SubmitError("Nobody hears you here: the random players do not read.")

    def submit(self, actions: Sequence[tuple]) -> None:
        decision, legal = self._decision()
        actions = [tuple(a) for a in actions]
        if decision is None:
            raise SubmitError("It is not your turn.")
        if not actions:
            raise SubmitError("Nothing to submit.")
        if decision == "commit":
            if len(actions) != 1 or actions[0] not in legal:
                raise SubmitError("That is not one of your choices here.")
            self.choices[self.local_seat] = actions[0]
            self._note(self.local_seat, "commit (hidden until every seat chose)")
        else:
            state, texts = self.state, []
            for action in actions:
                if self.game.current(state) != self.local_seat:
                    raise SubmitError(f"The turn is over before {action!r}.")
                try:
                    texts.append(self.game.format_action(state, action))
                    state = self.game.apply(state, action)
                except IllegalAction as exc:
                    raise SubmitError(str(exc)) from None
            self.state = state
            self._note(self.local_seat, "; ".join(texts))
        self._advance()
        self._tell(Changed())

    def subscribe(self, listener: Callable[[SourceEvent], None]) -> None:
        """Events reach `listener` from the running loop when there is one (as the live
        game's do: after the call that caused them has returned), else at once."""
        try:
            self._post = asyncio.get_running_loop().call_soon
        except RuntimeError:
            self._post = None
        self._listeners.append(listener)

    def close(self) -> None:
        self._listeners.clear()

    # -- the game running by itself ------------------------------------------------------------------

    def _decision(self) -> tuple[str | None, tuple]:
        game, state, seat = self.game, self.state, self.local_seat
        group = game.secret_choice(state)
        if group:
            if seat in group and seat not in self.choices:
                return "commit", tuple(game.choices_for(state, seat))
            return None, ()
        if game.current(state) == seat:
            return "move", tuple(game.legal_actions(state))
        return None, ()

    def _to_act(self) -> tuple[int, str] | None:
        game, state = self.game, self.state
        if game.is_terminal(state):
            return None
        group = game.secret_choice(state)
        waiting = [s for s in group if s not in self.choices]
        if waiting:
            return waiting[0], "commit"
        return game.current(state), "move"

    def _advance(self) -> None:
        """Chance and the random players act until the local seat must decide (or the end)."""
        game = self.game
        for _ in range(100_000):  # a bound: an engine that never hands back is our bug, not a hang
            state = self.state
            if game.is_terminal(state):
                return
            group = game.secret_choice(state)
            if group:
                for seat in group:
                    if seat != self.local_seat and seat not in self.choices:
                        options = game.choices_for(state, seat)
                        self.choices[seat] = options[self.rng.randrange(len(options))]
                        self._note(seat, "commit")
                if any(s not in self.choices for s in group):
                    return
                for seat in group:  # every seat chose: the choices are applied in the engine's order
                    action = self.choices.pop(seat)
                    self._note(seat, game.format_action(self.state, action))
                    self.state = game.apply(self.state, action)
                continue
            current = game.current(state)
            if current == CHANCE:
                self._chance(state)
            elif current == self.local_seat:
                return
            else:
                legal = game.legal_actions(state)
                action = legal[self.rng.randrange(len(legal))]
                self._note(current, game.format_action(state, action))
                self.state = game.apply(state, action)
        raise RuntimeError("the game did not come back to the local seat within 100000 actions")

    def _chance(self, state: Any) -> None:
        game = self.game
        outcomes = game.chance_weights(state)
        total = sum(w for _, w in outcomes)
        pick = self.rng.randrange(total)
        for outcome, weight in outcomes:
            if pick < weight:
                break
            pick -= weight
        hidden = game.chance_hidden(state) and game.chance_owner(state) != self.local_seat
        shown = game.hidden_outcome(state) if hidden else outcome
        text = game.format_action(game.view(state, self.local_seat), shown)
        if self.lines:
            last = self.lines[-1]
            joined = f"{last.text}, {text}" if "-> " in last.text else f"{last.text} -> {text}"
            self.lines[-1] = MoveLine(last.seq, last.seat, joined)
        else:
            self.lines.append(MoveLine(0, -1, f"-> {text}"))
        self.state = game.apply(state, outcome)

    def _note(self, seat: int, text: str) -> None:
        self.lines.append(MoveLine(self._seq() + 1, seat, text))

    def _seq(self) -> int:
        return self.lines[-1].seq if self.lines else 0

    def _tell(self, event: SourceEvent) -> None:
        def deliver() -> None:
            for listener in list(self._listeners):
                listener(event)

        if self._post is not None:
            self._post(deliver)
        else:
            deliver()
