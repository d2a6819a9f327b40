"""The game screen's model: what the screen shows, derived from the source's snapshot and
the player's plan. It holds data and answers questions; it never draws and never talks to
the source (the presenter does both).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from peerboard.client.tui.boards import Board, BoardContext, Canvas, Drawing, board_for
from peerboard.client.tui.boards.canvas import DrawingCache
from peerboard.client.tui.forming import draw_forming, heading
from peerboard.client.tui.picking import Picking
from peerboard.client.tui.plan import Plan
from peerboard.client.tui.source import Alert, MoveLine, Snapshot


@dataclass(frozen=True)
class Decision:
    """Which decision a plan belongs to: a new one starts a new plan."""

    seq: int
    kind: str
    legal: tuple


class GameModel:
    def __init__(self, snapshot: Snapshot):
        self.snapshot = snapshot
        self.board: Board = board_for(snapshot.game.name)
        self.plan: Plan | None = None
        self.decision: Decision | None = None
        #: the decision last sent: its snapshot is not planned again while it lasts
        self.sent: Decision | None = None
        #: the secret choice sent and not yet revealed, shown to its owner
        self.committed: tuple | None = None
        self.picking = Picking()
        self.cursor: str | None = None
        self.alert: Alert | None = None
        self.help_shown = False
        self.focus = "input"  # or "board"
        #: the board's drawings, kept by the view's and the presenter's common cache
        self.drawings = DrawingCache()
        #: columns the forming screen may use (the view sets it from the terminal's size)
        self.forming_width = 80
        self._forming: tuple | None = None  # (what it was drawn from, the drawing)

    # -- following the source ------------------------------------------------------------------

    def refresh(self, snapshot: Snapshot) -> bool:
        """Take a new snapshot; True when a new decision began (a new plan)."""
        self.snapshot = snapshot
        if self.committed is not None and self._revealed():
            self.committed = None
        if snapshot.decision is None or snapshot.local_seat is None:
            self.decision = None
            self._set_plan(None)
            return False
        decision = Decision(snapshot.seq, snapshot.decision, snapshot.legal)
        if decision == self.decision or decision == self.sent:
            return False
        if (decision.kind == "commit" and self.decision is not None and self.decision.kind == "commit"
                and decision.legal == self.decision.legal and self.plan is not None):
            # the same secret choice, chosen ahead of the seat's turn to commit: the seat
            # ahead committed meanwhile (a commit changes nothing in the game), so the plan stays
            self.decision = decision
            return False
        self.decision = decision
        self._set_plan(Plan(snapshot.game, snapshot.local_seat, snapshot.decision, snapshot.state, snapshot.legal))
        return True

    def _revealed(self) -> bool:
        seat = self.snapshot.local_seat
        seats = getattr(self.snapshot.state, "seats", None)
        if seat is None or not isinstance(seats, tuple) or seat >= len(seats):
            return True
        return getattr(seats[seat], "cartouches", None) is not None

    def _set_plan(self, plan: Plan | None) -> None:
        self.plan = plan
        self.picking = self._picking()

    def set_plan(self, plan: Plan) -> None:
        self._set_plan(plan)

    def mark_sent(self) -> None:
        """The plan went to the source: nothing is planned until the next decision."""
        if self.plan is not None and self.plan.decision == "commit" and self.plan.steps:
            self.committed = self.plan.steps[0].action
        self.sent = self.decision
        self._set_plan(None)

    def unsend(self, plan: Plan) -> None:
        """The source refused the plan: it is back, to be changed or sent again."""
        if self.sent == self.decision:
            self.sent = None
            self.committed = None
            self._set_plan(plan)

    def _picking(self) -> Picking:
        plan = self.plan
        if plan is None:
            return Picking()
        state = plan.preview
        return Picking.of(plan.choices(), plan.text_of, lambda a: self.board.spots(state, a))

    # -- what the screen shows -------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.snapshot.seats)

    @property
    def shown_state(self) -> Any:
        return self.plan.preview if self.plan is not None else self.snapshot.state

    def legal_now(self) -> tuple:
        return self.plan.legal_now() if self.plan is not None else ()

    def legal_texts(self) -> list[str]:
        plan = self.plan
        return [plan.text_of(a) for a in plan.legal_now()] if plan is not None else []

    def completions(self, typed: str) -> list[str]:
        """The choices whose notation begins with what is typed (case and extra spaces do
        not matter): the legal actions, then the tiles that join the plan in board order."""
        wanted = " ".join(typed.lower().split())
        if typed.endswith(" ") and wanted:
            wanted += " "
        plan = self.plan
        texts = [plan.text_of(a) for a in plan.choices()] if plan is not None else []
        return [t for t in texts if t.lower().startswith(wanted)]

    def board_context(self) -> BoardContext:
        choice = None
        if self.plan is not None and self.plan.decision == "commit" and self.plan.steps:
            choice = self.plan.steps[0].action
        elif self.committed is not None:
            choice = self.committed
        return BoardContext(
            self.shown_state, self.snapshot.local_seat, self.names, self.cursor,
            self.picking.selection, self.picking.next_spots(), choice,
        )

    def drawing(self) -> Drawing:
        """What the board's place shows now: the board (drawn again only when it changed),
        the forming table before the game starts, or the source's one line."""
        if self.shown_state is not None:
            return self.drawings.draw(self.board, self.board_context())
        snap = self.snapshot
        if snap.forming is not None:
            key = (snap.forming, snap.seats, snap.status, self.cursor, self.forming_width)
            if self._forming is None or self._forming[0] != key:
                self._forming = (key, draw_forming(snap, self.cursor, self.forming_width))
            return self._forming[1]
        canvas = Canvas(self.board_context())
        canvas.line(snap.status)
        return canvas.drawing()

    def move_lines(self) -> list[MoveLine]:
        """The move list, with the planned actions (not yet sent) at its end."""
        lines = list(self.snapshot.moves)
        plan = self.plan
        if plan is not None and plan.steps:
            text = "; ".join(s.text for s in plan.steps)
            lines.append(MoveLine(self.snapshot.seq + 1, plan.seat, f"planned: {text}", confirmed=False))
        return lines

    def situation(self) -> str:
        snap = self.snapshot
        if self.shown_state is None:
            return heading(snap) if snap.forming is not None else snap.status
        if snap.over and self.plan is None and not self._ended_by_rules():
            # a resignation, a draw agreed, a claim or an abort: the position is mid-game,
            # and the board's words for it ("… rolls.") would say the game goes on
            return snap.status
        try:
            words = self.board.situation(self.shown_state, self.names)
        except Exception:  # a drawing fault must not hide the game: show the source's words
            return snap.status
        plan = self.plan
        if plan is not None and plan.turn_over and not plan.only_forced and plan.decision != "commit":
            # the board shows the turn as planned, but nothing has gone out: the next seat's
            # turn is what comes *after* Enter, never news already
            # (short: a top line that wraps would move the board under the mouse)
            return f"After you send: {words}"
        return words

    def _ended_by_rules(self) -> bool:
        try:
            return bool(self.snapshot.game.is_terminal(self.snapshot.state))
        except Exception:  # a seat's view the engine cannot judge: the source's words say it
            return False

    def too_small(self, width: int, height: int, board_width: int, board_height: int) -> str:
        """"" when the screen fits, else the one line to show instead."""
        need_w, need_h = min_size(board_width, board_height, len(self.snapshot.seats))
        if width >= need_w and height >= need_h:
            return ""
        return (f"{self.snapshot.game.title} needs a terminal of at least {need_w}x{need_h}; "
                f"this one is {width}x{height}. Make it larger (or use --plain).")


#: the side panel's narrowest width; it takes what the board leaves, up to PANEL_MAX
PANEL_WIDTH = 28
PANEL_MAX = 44
#: lines around the board: the situation line, buttons, cursor info, status, key bar
FRAME_LINES = 5


def min_size(board_width: int, board_height: int, seats: int) -> tuple[int, int]:
    """The smallest terminal (columns, rows) the game screen fits."""
    panel_lines = 2 + seats + 4  # title, heading, a line per seat, the move list, the input
    return board_width + 1 + PANEL_WIDTH, max(board_height + FRAME_LINES, panel_lines)
