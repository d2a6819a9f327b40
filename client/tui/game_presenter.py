"""The game screen's presenter: what happens on a key, a typed line, a click, or an event
from the game. A network event and a keypress come through here alike; the presenter
changes the model and asks for a redraw, and the view only shows the model. Pointing at
the board (the cursor, the mouse) is its `pointing` (pointing.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from peerboard.engines import IllegalAction
from peerboard.client.bell import waited_on_others
from peerboard.client.tui.forming import seat_of
from peerboard.client.tui.game_model import GameModel
from peerboard.client.tui.help import PLAYING_KEYS
from peerboard.client.tui.pointing import Pointing
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
        #: the board cursor and the mouse (redraw looked up at each call: the application
        #: sets it once the view is built)
        self.pointing = Pointing(self.model, self.take, self.send, self.say, lambda: self.redraw())
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
            self.pointing.cursor_home()
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


def _fit(width: int, text: str, short: str) -> str:
    """`text` when it fits in `width` columns, else its shorter wording."""
    return text if len(text) <= width else short
