"""The game screen's presenter: what happens on a key, a typed line, a click, or an event
from the game. A network event and a keypress come through here alike; the presenter
changes the model and asks for a redraw, and the view only shows the model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from peerboard.engines import IllegalAction
from peerboard.client.bell import waited_on_others
from peerboard.client.tui.forming import seat_of
from peerboard.client.tui.game_model import GameModel
from peerboard.client.tui.help import PLAYING_KEYS
from peerboard.client.tui.picking import BUTTON, Outcome, Picking
from peerboard.client.tui.source import Alert, Changed, GameSource, SourceEvent, SubmitError


@dataclass(frozen=True)
class Command:
    """One function key: the key (prompt-toolkit's name), its label on the key bar, and what
    it does. The key bar shows it and a click on the label does the same as the key."""

    key: str
    label: str
    run: Callable[[], None]
    #: how the key is written on the bar ("" = the key's own name; None: bound, not shown)
    shown: str | None = ""


#: (row, column) steps of the arrow keys
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class GamePresenter:
    keys_help = PLAYING_KEYS

    def __init__(self, source: GameSource, redraw: Callable[[], None] = lambda: None,
                 leave: Callable[[], None] = lambda: None):
        self.source = source
        self.model = GameModel(source.snapshot())
        self.redraw = redraw
        self.leave = leave
        #: Ctrl-C: leave (the live game sets what it means for the exit status)
        self.interrupt: Callable[[], None] = self.quit
        #: the terminal's bell (the application sets it unless PEERBOARD_BELL is off)
        self.bell: Callable[[], None] = lambda: None
        self.closed = False
        #: (the spot, the column) an Up/Down walk started from: the walk aims at that column
        #: all the way, so on a board whose rows are offset (Athos's hexes) it does not
        #: drift one way, row by row
        self._column: tuple[str, int] | None = None
        self.resign_asked = False  # F6 (or `resign`) once: the next F6 (or `yes`) resigns

    def start(self) -> None:
        """Listen to the source and take the decision in front, if any."""
        self.source.subscribe(self.on_source_event)
        self._follow()

    # -- the game's side -------------------------------------------------------------------------

    def on_source_event(self, event: SourceEvent) -> None:
        if isinstance(event, Alert):
            self.model.alert = event
        elif isinstance(event, Changed):
            self._follow()
        self.redraw()

    def _follow(self) -> None:
        """A new snapshot: a new decision starts a new plan, and a decision with a single
        legal action is taken at once."""
        model = self.model
        if not model.refresh(self.source.snapshot()) or model.plan is None:
            return
        if waited_on_others(model.snapshot.moves, model.plan.seat):
            self.bell()  # your turn, after the others': the terminal flags the window
        plan = model.plan.with_forced()
        model.set_plan(plan)
        if plan.turn_over and plan.only_forced:
            texts = "; ".join(s.text for s in plan.steps)
            self._send(f"Taken at once (the only choice): {texts}.")

    # -- commands ----------------------------------------------------------------------------------

    def hint(self) -> str:
        """The status line when there is no alert."""
        if self.model.snapshot.forming is not None:
            return "The game starts when every seat is taken · F1 help · F10 leaves the table"
        return "F1 help · Tab lists your moves · F4 points at the board · F10 leaves (the game waits for you)"

    def graph(self, width: int, rows: int) -> list | None:
        """A graph across the screen under the board and panel (the replay viewer's
        win-probability graph), as fragments; None: no graph."""
        return None

    def graph_caption(self, width: int) -> str:
        return ""

    def guide(self, width: int = 80) -> str:
        """The line under the board: what to do now, in at most `width` columns when a
        shorter wording exists (the cursor's spot takes it when the board has the focus)."""
        model = self.model
        snap = model.snapshot
        plan = model.plan
        if snap.forming is not None:
            return ""
        if snap.over:
            return "The game is over: F7 plays again (the first seat moved on), F10 leaves (its log stays)."
        if plan is None:
            return snap.status  # whose turn it is, or why the game stopped
        verb = "commits your choice" if plan.decision == "commit" else "sends the turn"
        if model.focus == "board":
            if plan.complete:  # (nothing left to point at: Enter on the board sends)
                short = "commits" if plan.decision == "commit" else "sends"
                return _fit(width, f"Enter {verb}; F2 takes back; Esc goes back to typing.",
                            f"Enter {short}; F2 takes back.")
            return _fit(width, "Arrows move, Enter picks, F3 sends, Esc goes back to typing.",
                        "Arrows, Enter picks, F3 sends.")
        if plan.complete:
            return _fit(width, f"Enter on the empty line {verb}; F2 takes back the last action.",
                        f"Enter {verb}; F2 takes back.")
        if plan.steps and plan.ending().plan is not None:
            return _fit(width, "Go on with your turn, or Enter on the empty line to send it as it is.",
                        "Go on, or Enter on the empty line sends.")
        if plan.steps:
            return _fit(width, "Go on with your turn (Tab lists your choices); F2 takes back.",
                        "Go on: Tab lists your choices.")
        if plan.decision == "commit":
            return _fit(width, "Your secret choice: type it (Tab lists them), or F4 to point at the board.",
                        "Your secret choice: Tab lists them.")
        return _fit(width, "Your turn: type a move (Tab lists them), or F4 to point at the board.",
                    "Your turn: Tab lists moves, F4 points.")

    def commands(self) -> list[Command]:
        snap = self.model.snapshot
        removing = snap.forming is not None and snap.forming.can_remove and len(snap.seats) > 1
        # Undo and Send are shown while the local seat plays (not while the table forms,
        # not to a spectator, not once the game is over)
        playing = "" if snap.forming is None and snap.local_seat is not None and not snap.over else None
        return [
            Command("f1", "Help", self.toggle_help),
            Command("f2", "Undo", self.undo, playing),
            Command("f3", "Send", self.send, playing),
            Command("f4", "Board", self.toggle_focus),
            Command("f5", "Remove seat", self.remove_seat, "" if removing else None),
            Command("f7", "Again", self.again, "" if snap.over and snap.local_seat is not None else None),
            Command("f6", "Resign", self.resign, playing),
            Command("f8", "Claim", self.claim, "" if snap.patience is not None and any(
                s.connection in ("away", "left") for s in snap.seats) else None),
            Command("f10", "Quit", self.quit),
        ]

    def toggle_help(self) -> None:
        self.model.help_shown = not self.model.help_shown
        self.redraw()

    def close_help(self) -> None:
        self.model.help_shown = False
        self.redraw()

    def toggle_focus(self) -> None:
        model = self.model
        model.focus = "input" if model.focus == "board" else "board"
        if model.focus == "board" and model.cursor is None:
            self._cursor_home()
        self.redraw()

    def quit(self) -> None:
        if not self.closed:
            self.closed = True
            self.source.close()
        self.leave()

    def answer_offer(self, command: str) -> None:
        """`offer draw`, `offer abort`, `accept [draw|abort]`, `decline [draw|abort]`."""
        word, _, what = command.partition(" ")
        how = {"draw": "drawn", "abort": "aborted"}.get(what.strip())
        offers = getattr(self.source, "offers", lambda: ())()
        if how is None and word != "offer" and len(offers) == 1:
            how = offers[0][0]
        act = getattr(self.source, "offer" if word != "decline" else "decline", None)
        if how is None or act is None:
            self.say(f"{word} draw, or {word} abort" if act is not None else "There is no game to offer that in.", "warn")
            return
        try:
            act(how)
        except SubmitError as exc:
            self.say(str(exc), "warn")
            return
        what = "a draw" if how == "drawn" else "to abort the game"
        if word == "decline":  # (in place of the offer's alert: it stands no more here)
            self.say(f"You declined {what}; the game goes on.")
        elif any(h == how for h, _ in offers):
            self.say(f"You accepted {what}; the game ends so once every seat has.")
        else:
            self.say(f"You offered {what}; the other seats are asked.")

    def claim(self, seat: int | None = None) -> None:
        """Claim a seat away longer than the table's patience (F8, or `claim [N]`): at two
        seats the other one; at more, the one named, or else the first seat away."""
        snap = self.model.snapshot
        claim = getattr(self.source, "claim", None)
        if claim is None or snap.local_seat is None or snap.forming is not None or snap.over:
            self.say("There is no seat to claim here.", "warn")
            return
        if seat is None:
            away = [s.index for s in snap.seats if s.connection in ("away", "left") and s.index != snap.local_seat]
            seat = 1 - snap.local_seat if len(snap.seats) == 2 else away[0] if away else -1
        if seat < 0:
            self.say("No seat is away: name the seat to claim, `claim N`.", "warn")
            return
        try:
            claim(seat)
        except SubmitError as exc:
            self.say(str(exc), "warn")

    def resign(self) -> None:
        """Resign the game, at any time: asked once, done on the second F6 (or `yes`)."""
        snap = self.model.snapshot
        resign = getattr(self.source, "resign", None)
        if resign is None or snap.forming is not None or snap.local_seat is None or snap.over:
            self.say("There is no game in progress at this seat to resign.", "warn")
            return
        if not self.resign_asked:
            self.resign_asked = True
            self.say("Resign the game? It cannot be taken back: F6 again (or type yes) resigns; "
                     "anything else goes on playing.", "warn")
            return
        self.resign_asked = False
        try:
            resign()
        except SubmitError as exc:
            self.say(str(exc), "warn")
            return
        self.say("You resigned; the game ends as soon as the next entry is written.")

    def remove_seat(self, index: int | None = None) -> None:
        """The host takes a seat back before the game starts: the seat under the board
        cursor, or the one named (`remove 2`)."""
        forming = self.model.snapshot.forming
        if forming is None or not forming.can_remove:
            self.say("Only the host takes seats back, while the table is forming.", "warn")
            return
        index = seat_of(self.model.cursor) if index is None else index
        if index is None:
            self.say("Point at a seat first (F4, then the arrow keys), or type: remove N", "warn")
            return
        try:
            self.source.remove_seat(index)
        except SubmitError as exc:
            self.say(str(exc), "warn")
            return
        # done: the table says so, as it says every seat taken or freed
        self.model.cursor, self.model.focus = None, "input"
        self.redraw()

    def say(self, text: str, kind: str = "info") -> None:
        self.model.alert = Alert(text, kind)
        self.redraw()

    # -- typing --------------------------------------------------------------------------------

    def enter(self, text: str) -> None:
        """A line typed into the input field."""
        words = text.strip()
        command = words.lower()
        if self.resign_asked and command in ("y", "yes"):
            self.resign()
            return
        asked, self.resign_asked = self.resign_asked, False  # any other line: not resigned
        if command == "resign":
            self.resign()
        elif command == "claim":
            self.claim()
        elif command.startswith("claim ") and command[6:].strip().isdigit():
            self.claim(int(command[6:].strip()))
        elif command.split(" ")[0] in ("offer", "accept", "decline"):
            self.answer_offer(command)
        elif asked and command in ("n", "no"):
            self.say("Not resigned; the game goes on.")
        elif command in ("", "send", "done"):
            self.send()
        elif command == "undo":
            self.undo()
        elif command in ("help", "?"):
            self.toggle_help()
        elif command in ("quit", "exit"):
            self.quit()
        elif command in ("again", "no") and self.model.snapshot.over or command == "again":
            self.again("yes" if command == "again" else "no")
        elif command == "say" or command.startswith("say "):
            self.chat(words[3:].strip())
        elif command.startswith("remove ") and command[7:].strip().isdigit():
            self.remove_seat(int(command[7:]))
        else:
            self.take_text(words)

    def again(self, answer: str = "yes") -> None:
        """At the end: play the same table again (F7, `again`), or not (`no`)."""
        try:
            self.source.rematch(answer)
        except SubmitError as exc:
            self.say(str(exc), "warn")

    def chat(self, text: str) -> None:
        """Say `text` to the table (`say TEXT` on the input line); the line comes back as
        the table's chat, or one line says why it cannot be said."""
        try:
            self.source.chat(text)
        except SubmitError as exc:
            self.say(str(exc), "warn")

    def take_text(self, text: str) -> None:
        plan = self.model.plan
        if plan is None:
            self.say(f"It is not your turn: {self.model.snapshot.status}", "warn")
            return
        try:
            action = plan.parse(text)
        except IllegalAction as exc:
            self.say(str(exc), "warn")
            return
        self.take(action)

    def completions(self, typed: str) -> list[str]:
        return self.model.completions(typed)

    def nothing_fits(self, typed: str) -> None:
        """Tab found no legal action beginning with `typed`: say so (and why)."""
        if not self.model.completions(""):
            self.say(f"Nothing to complete: {self.model.snapshot.status}")
        else:
            shown = typed.strip()[:40]
            self.say(f"Nothing fits '{shown}': no legal move begins so. Tab on an empty line lists them all.", "warn")

    # -- the plan ----------------------------------------------------------------------------------

    def take(self, action: tuple) -> None:
        """Add an action to the plan (it is legal: it came from the plan's own list)."""
        model = self.model
        try:
            plan = model.plan.add(action).with_forced()
        except IllegalAction as exc:
            self.say(str(exc), "warn")
            return
        except Exception as exc:  # our engine failed on its own legal action: our bug
            self.say(f"The game engine failed on that move ({type(exc).__name__}); nothing was changed.", "error")
            return
        # (the status line says what this action added, and what comes next, first; the
        # whole plan is on the move list's last line). What was added is named, wherever it
        # went in the plan: a tile placed out of board order is sorted in, not last.
        before = model.plan.actions
        # the parts of the turn this action passed over end there (Athos: a tile planned in
        # the move phase ends the move, and `skip athos` uses no Athos piece this turn): said
        # apart, never put into the plan without a word
        passed = [s.text for s in plan.steps if s.action not in before and s.joined]
        added = "; ".join(s.text for s in plan.steps if s.action not in before and not s.joined)
        sorted_in = plan.actions[-1] != action and action in plan.actions and plan.decision != "commit"
        order = " (put in the order the rules take them)" if sorted_in else ""
        if passed:
            order += f", after {'; '.join(passed)}"
        model.set_plan(plan)
        model.picking = model.picking.clear()
        if plan.complete and plan.decision == "commit":
            self.say(f"Planned: {added}. Enter (or F3) commits your choice, F2 takes it back.")
        elif plan.complete:
            self.say(f"Planned: {added}{order}. The turn is whole: Enter (or F3) sends it, F2 takes back.")
        elif plan.ending().plan is not None:
            self.say(f"Planned: {added}{order}. Go on, or Enter (or F3) sends the turn as it is.")
        else:
            self.say(f"Planned: {added}{order}. Go on: {self._still_needed(plan)}")

    def undo(self) -> None:
        model = self.model
        if model.plan is None or model.plan.undo() is model.plan:
            self.say("Nothing to undo.")
            return
        model.set_plan(model.plan.undo())
        left = "; ".join(s.text for s in model.plan.steps) or "nothing"
        self.say(f"Taken back. Planned: {left}.")

    def send(self) -> None:
        """Enter on the empty line, F3, `send`: one rule in every game and phase. What is
        planned goes out and the turn ends there when the rules let it (the phases the seat
        may leave are left: Athos's fewer tiles than allowed); else nothing is sent and the
        line says what is missing."""
        plan = self.model.plan
        if plan is None:
            self.say(f"Nothing to send: {self.model.snapshot.status}")
            return
        if not plan.steps:
            self.say("Nothing planned yet: type a move (Tab lists them) or point at the board.")
            return
        ending = plan.ending()
        if ending.plan is None:
            self.say(f"Nothing sent: the turn cannot end here: {self._still_needed(plan, ending.missing)}", "warn")
            return
        self.model.set_plan(ending.plan)
        self._send(f"Sent: {'; '.join(s.text for s in ending.plan.steps)}.")

    def _still_needed(self, plan, reason: str = "") -> str:
        """What the turn still needs: the rule's reason, or what the seat is to do now."""
        if reason:
            return reason
        try:
            doing = self.model.board.situation(plan.preview, self.model.names)
        except Exception:
            doing = ""
        return f"{doing} (Tab lists your choices)".strip()

    def _send(self, note: str) -> None:
        # The plan counts as sent before the source hears of it: a source may answer at once
        # (with the next decision) before submit returns.
        model = self.model
        plan = model.plan
        model.mark_sent()
        self.say(note)
        try:
            self.source.submit(plan.actions)
        except SubmitError as exc:
            model.unsend(plan)
            self.say(str(exc), "warn")

    # -- pointing: the board cursor and the mouse ----------------------------------------------------

    def choose(self, spot: str) -> None:
        """A spot pointed at, by Enter on the cursor or by a click (the same for both)."""
        model = self.model
        seat = seat_of(spot) if model.snapshot.forming is not None else None
        if seat is not None:
            model.cursor = spot
            self.say(f"{self._describe_seat(seat)}: F5 takes this seat back.")
            return
        if model.plan is None or not model.plan.open:
            self.say(f"Nothing to choose now: {model.snapshot.status}" if model.plan is None
                     else "The turn is planned whole: Enter or F3 sends it, F2 takes back.")
            return
        model.cursor = spot
        outcome: Outcome = model.picking.pick(spot)
        if outcome.missed:
            outcome = self._pick_later(spot, outcome)
        model.picking = outcome.picking
        if outcome.action is not None:
            self.take(outcome.action)
            return
        if model.cursor not in self.positions():  # (a card just used) the next choice then
            self._cursor_home()
        if outcome.note:
            self.say(outcome.note)
        elif (words := self.picked_words()) is not None:  # (the board's own words for what is pointed at)
            self.say(f"{words[0].upper()}{words[1:]} (Esc clears).")
        else:
            self.say(f"Picked {self._describe(spot)}; now its target (Esc clears).")

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
        self.redraw()

    def cursor_enter(self) -> None:
        """Enter on the board: picks the spot under the cursor; with the turn planned whole
        (nothing left to point at) it sends, as the line under the board says."""
        plan = self.model.plan
        if plan is not None and plan.complete:
            self.send()
            return
        if self.model.cursor is None:
            self._cursor_home()
            self.redraw()
            return
        self.choose(self.model.cursor)

    def move_cursor(self, direction: str) -> None:
        positions = self.positions()
        model = self.model
        if model.cursor not in positions:
            self._cursor_home()
            self._column = None
        else:
            vertical = direction in ("up", "down")
            column = positions[model.cursor][1]
            if vertical and self._column is not None and self._column[0] == model.cursor:
                column = self._column[1]
            model.cursor = step(positions, model.cursor, DIRECTIONS[direction], column)
            self._column = (model.cursor, column) if vertical else None
        self.redraw()

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

    def _cursor_home(self) -> None:
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


def _fit(width: int, text: str, short: str) -> str:
    """`text` when it fits in `width` columns, else its shorter wording."""
    return text if len(text) <= width else short
