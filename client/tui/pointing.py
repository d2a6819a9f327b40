"""Pointing at the board: the board cursor and the mouse. Where the cursor stands and
where an arrow key takes it, what Enter or a click on a spot means (the same for both: a
pick, an action taken into the plan, or a line saying why not), the spots picked so far,
and the words for the spot under the cursor (what it is, what touches it).

The game screen's presenter holds one `Pointing` and gives it what it needs: the model,
a way to take an action into the plan, to send the turn, to say a line and to redraw.
"""
from __future__ import annotations

from typing import Callable

from peerboard.engines import IllegalAction
from peerboard.client.tui.forming import seat_of
from peerboard.client.tui.game_model import GameModel
from peerboard.client.tui.picking import BUTTON, Outcome, Picking

#: (row, column) steps of the arrow keys
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class Pointing:
    """The board cursor and the mouse on one game screen's model."""

    def __init__(self, model: GameModel, take: Callable[[tuple], None], send: Callable[[], None],
                 say: Callable[[str], None], redraw: Callable[[], None]):
        self.model = model
        self._take = take  # an action into the plan (said on the status line)
        self._send = send  # the turn planned whole goes out (Enter on the board)
        self._say = say  # a line on the status line
        self._redraw = redraw
        #: (the spot, the column) an Up/Down walk started from: the walk aims at that column
        #: all the way, so on a board whose rows are offset (Athos's hexes) it does not
        #: drift one way, row by row
        self._column: tuple[str, int] | None = None

    def choose(self, spot: str) -> None:
        """A spot pointed at, by Enter on the cursor or by a click (the same for both)."""
        model = self.model
        seat = seat_of(spot) if model.snapshot.forming is not None else None
        if seat is not None:
            model.cursor = spot
            self._say(f"{self._describe_seat(seat)}: F5 takes this seat back.")
            return
        if model.plan is None or not model.plan.open:
            self._say(f"Nothing to choose now: {model.snapshot.status}" if model.plan is None
                      else "The turn is planned whole: Enter or F3 sends it, F2 takes back.")
            return
        model.cursor = spot
        outcome: Outcome = model.picking.pick(spot)
        if outcome.missed:
            outcome = self._pick_later(spot, outcome)
        model.picking = outcome.picking
        if outcome.action is not None:
            self._take(outcome.action)
            return
        if model.cursor not in self.positions():  # (a card just used) the next choice then
            self.cursor_home()
        if outcome.note:
            self._say(outcome.note)
        elif (words := self.picked_words()) is not None:  # (the board's own words for what is pointed at)
            self._say(f"{words[0].upper()}{words[1:]} (Esc clears).")
        else:
            self._say(f"Picked {self._describe(spot)}; now its target (Esc clears).")

    def _pick_later(self, spot: str, missed: Outcome) -> Outcome:
        """A spot no choice takes now: one of a later part of the turn (a tile pointed at
        during the move phase) is taken with the phase ends before it; otherwise the
        action the spot would mean is refused with the rule's reason."""
        model = self.model
        plan = model.plan
        tried = model.picking.selection + (spot,)
        later = [Picking.of(p.legal_now(), p.text_of, lambda a, st=p.preview: model.board.spots(st, a))
                 for p in plan.later_parts()]
        if not model.picking.selection:
            # a target pointed at before anything was planned is taken for a slip (the piece
            # first), not a reason to end the phase; once the turn has begun, a spot of a
            # later part ends the parts before it (said, and F2 takes it back)
            ends = [r.text for r in model.picking.routes if spot in r.spots[1:]] if not plan.steps else []
            if ends:
                shown = ", ".join(ends[:3]) + (" …" if len(ends) > 3 else "")
                return Outcome(missed.picking, note=f"Point at where it starts first ({shown}).")
            for picking in later:
                exact = [r for r in picking.routes if r.spots == tried]
                if len(exact) == 1:
                    return Outcome(model.picking.clear(), exact[0].action)
        reason = ""
        for picking in (model.picking, *later):
            for candidate in _meant(picking, tried, lambda a: model.board.spots(plan.preview, a)):
                try:
                    plan.add(candidate)
                except IllegalAction as exc:
                    reason = reason or str(exc)
                    continue
                except Exception:
                    continue
                return Outcome(model.picking.clear(), candidate)
        return Outcome(missed.picking, note=reason) if reason else missed

    def click(self, spot: str) -> None:
        """A mouse click on a spot or a button: the cursor goes there and it is chosen."""
        self.choose(spot)

    def clear_selection(self) -> None:
        self.model.picking = self.model.picking.clear()
        self._redraw()

    def cursor_enter(self) -> None:
        """Enter on the board: picks the spot under the cursor; with the turn planned whole
        (nothing left to point at) it sends, as the line under the board says."""
        plan = self.model.plan
        if plan is not None and plan.complete:
            self._send()
            return
        if self.model.cursor is None:
            self.cursor_home()
            self._redraw()
            return
        self.choose(self.model.cursor)

    def move_cursor(self, direction: str) -> None:
        positions = self.positions()
        model = self.model
        if model.cursor not in positions:
            self.cursor_home()
            self._column = None
        else:
            vertical = direction in ("up", "down")
            column = positions[model.cursor][1]
            if vertical and self._column is not None and self._column[0] == model.cursor:
                column = self._column[1]
            model.cursor = step(positions, model.cursor, DIRECTIONS[direction], column)
            self._column = (model.cursor, column) if vertical else None
        self._redraw()

    def positions(self) -> dict[str, tuple[int, int]]:
        """Where each spot is, for the cursor: the board's spots, then the buttons in a row
        under it (as the view draws them)."""
        drawing = self.model.drawing()
        positions = dict(drawing.positions)
        if self.model.shown_state is None:
            return positions  # (the forming table: its seats)
        col = 0
        for route in self.model.picking.buttons():
            positions[BUTTON + route.text] = (drawing.height + 1, col)
            col += len(route.text) + 3
        return positions

    def cursor_home(self) -> None:
        """The cursor to the first spot that can be chosen now (else the first spot)."""
        positions = self.positions()
        targets = self.model.picking.next_spots()
        ordered = sorted(positions, key=lambda s: positions[s])
        chosen = [s for s in ordered if s in targets] or ordered
        self.model.cursor = chosen[0] if chosen else None

    def picked_words(self) -> str | None:
        """What the spots pointed at so far mean, in the board's words, when it has its own
        (Aton's cards fill the cartouches in order); None: spots that ask for a target."""
        words = getattr(self.model.board, "picked", None)
        return words(self.model.picking.selection) if words is not None else None

    def touching(self) -> str:
        """What touches the spot under the board cursor, in the board's words (Athos: the
        hexes a step may go to); "" where the board does not say or there is no cursor."""
        model = self.model
        words = getattr(model.board, "touching", None)
        if words is None or model.cursor is None or model.shown_state is None:
            return ""
        try:
            return words(model.shown_state, model.cursor)
        except Exception:  # a board's words are never worth a crash of the screen
            return ""

    def cursor_info(self) -> str:
        model = self.model
        if model.cursor is None:
            return ""
        return self._describe(model.cursor)

    def _describe_seat(self, index: int) -> str:
        for seat in self.model.snapshot.seats:
            if seat.index == index:
                return f"Seat {index} ({seat.name}, {seat.fingerprint})"
        return f"Seat {index}"

    def _describe(self, spot: str) -> str:
        seat = seat_of(spot) if self.model.snapshot.forming is not None else None
        if seat is not None:
            return self._describe_seat(seat)
        try:
            return self.model.board.describe(self.model.shown_state, spot, self.model.names) or spot
        except Exception:
            return spot


def step(positions: dict[str, tuple[int, int]], current: str, direction: tuple[int, int],
         column: int | None = None) -> str:
    """The spot the cursor goes to from `current` in `direction`: Left/Right keep to the
    same line when there is a spot that way on it (else the nearest line), Up/Down go to
    the nearest line that way, to the spot nearest in `column` (the current one unless
    given: where a walk up or down began); `current` if there is none."""
    row, col = positions[current]
    drow, dcol = direction
    aim = col if column is None else column
    best, best_score = current, None
    for spot, (r, c) in positions.items():
        dy, dx = r - row, c - col
        along = dy * drow + dx * dcol
        if along <= 0:
            continue
        score = (abs(dy), along, r, c) if dcol else (along, abs(c - aim), r, c)
        if best_score is None or score < best_score:
            best, best_score = spot, score
    return best


def _meant(picking: Picking, tried: tuple[str, ...], spots_of) -> list[tuple]:
    """The actions `tried` would name if they were legal: each offered action whose spots
    match all but the last, with its last spot's argument put in its place (spots are
    `kind:argument`, the argument as the action holds it)."""
    kind, _, value = tried[-1].partition(":")
    out: list[tuple] = []
    for route in picking.routes:
        if len(route.spots) != len(tried) or route.spots[:-1] != tried[:-1]:
            continue
        old_kind, _, old = route.spots[-1].partition(":")
        if old_kind != kind:
            continue
        for i, arg in enumerate(route.action):
            if i == 0 or str(arg) != old:
                continue
            new = value if isinstance(arg, str) else int(value) if value.lstrip("-").isdigit() else None
            candidate = route.action[:i] + (new,) + route.action[i + 1:]
            if new is not None and candidate not in out and spots_of(candidate) == tried:
                out.append(candidate)
    return out
