"""The line prompt a person plays at (`--plain`, or a terminal the full-screen client cannot
use): the board, then the game's notation, one line at a time. It never blocks the node: it
reads stdin only when the node's poll says a line is there, and every mistake in what was
typed is one line saying what is allowed.
"""
from __future__ import annotations

import os

from peerboard.client import colour
from peerboard.client.bell import bell_wanted, waited_on_others
from peerboard.client.exitcode import ExitCode
from peerboard.client.player import Player
from peerboard.client.text import printable
from peerboard.engines import IllegalAction
from peerboard.node.loop import Node
from peerboard.protocol.session import GameOver, GameStarted, LocalError, Phase, YourTurn

HELP = ("Type a move in the game's notation, `help` for the legal moves, `board` to see the board, "
        "`resign` to resign the game (at any time), `offer draw` or `offer abort` (the others `accept` or `decline` it), "
        "`claim` to claim a seat away longer than the table's patience, "
        "`say TEXT` to say something to the table, `quit` to leave (resume later with peerboard resume FILE).")
RESIGN_QUESTION = "Resign the game? The other seats are told at once and it cannot be taken back. (yes/no)"
FORMING_HELP = ("While the table forms: `seats` lists who holds each seat, `remove N` frees seat N "
                "(its node is refused from then on), `quit` closes the table.")
JOINING_HELP = "The table waits for its seats: `seats` lists them once it is full, `quit` leaves it."
AGAIN_HELP = ("Play again? `again` offers the same table again, the first seat moved on (the others "
              "accept or not); `no` or `quit` leaves.")


class LinePrompt(Player):
    """A person at a plain line prompt: the board, then the game's notation."""

    def __init__(self, node: Node, stdin_fd: int = 0, **kw):
        super().__init__(node, **kw)
        self.fd = stdin_fd
        self.buffer = b""
        node.rematch_policy = "person"  # (at the end, the others wait a while for this person's answer)
        self.turn: YourTurn | None = None
        self.bell = bell_wanted()
        self._rung_at = -1  # how many moves there were when the bell last rang
        self.asked_to_resign = False  # the next line answers the resign question
        node.watch_fd(stdin_fd, self._readable)

    def on_game_started(self, e: GameStarted) -> None:
        super().on_game_started(e)
        self.say(HELP)

    def on_game_over(self, e: GameOver) -> None:
        super().on_game_over(e)
        self.turn = None
        self.say(AGAIN_HELP)

    def on_your_turn(self, e: YourTurn) -> None:
        self.turn = e
        moves = self.node.session.moves
        if self.bell and len(moves) != self._rung_at and waited_on_others(moves, e.seat):
            self._rung_at = len(moves)
            self.out.write("\a")  # your turn, after the others': the terminal flags the window
        self.show_board()
        what = "your secret choice" if e.kind == "commit" else "your move"
        self.say(f"seat {e.seat}, {what} ({len(e.legal)} legal; `help` lists them):")

    def forming(self, text: str) -> bool:
        """The commands of a forming table (`seats`, and the host's `remove N`); False if
        `text` is none of them."""
        s = self.node.session
        if text == "seats":
            taken = {i.index: i for i in s.seats}
            for index in range(s.players):
                i = taken.get(index)
                if i is None:
                    self.say(f"  seat {index}: free")
                else:
                    who = "you" if i.connection == "you" else f"{printable(i.name, 40)} ({i.fingerprint})"
                    at = f" at {printable(i.address, 60)}" if i.address and i.connection != "you" else ""
                    self.say(f"  seat {index}: {who}{at}")
            return True
        word, _, rest = text.partition(" ")
        if word != "remove":
            return False
        if not rest.strip().isdigit():
            self.say("remove takes a seat number, e.g. `remove 2` (`seats` lists them)")
            return True
        try:
            self.node.remove_seat(int(rest))
        except LocalError as exc:
            self.say(str(exc))
        return True

    def claim_command(self, rest: str) -> None:
        """`claim` (the other seat of a two-seat game) or `claim N`."""
        s = self.node.session
        if s is None or s.phase is not Phase.PLAYING or s.local_seat is None:
            self.say("There is no game in progress at this seat.")
            return
        if rest and not rest.isdigit():
            self.say("claim takes a seat number, e.g. `claim 1` (or nothing: the other seat)")
            return
        seat = int(rest) if rest else 1 - s.local_seat if s.players == 2 else -1
        if seat < 0:
            self.say("Name the seat to claim: `claim N`.")
            return
        self.claim(seat)

    def answer_resign(self, text: str) -> None:
        """The answer to the resign question: yes resigns, no goes on; anything else asks again."""
        answer = text.lower()
        if answer in ("y", "yes"):
            self.asked_to_resign = False
            try:
                self.node.resign()
            except LocalError as exc:
                self.say(str(exc))
                return
            self.say("You resigned; the game ends as soon as the next entry is written.")
        elif answer in ("n", "no"):
            self.asked_to_resign = False
            self.say("Not resigned; the game goes on.")
        else:
            self.say("Please answer yes or no: " + RESIGN_QUESTION)

    def show_board(self) -> None:
        s = self.node.session
        position = None if s is None else s.position()
        if position is not None:
            self.say(colour.board(s.game, position.state, s.local_seat, self.out))

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 4096)
        except OSError:
            data = b""
        if not data:
            self.node.unwatch_fd(self.fd)
            self.say("input closed: leaving the game" + self._resume_hint())
            self.node.leave()
            self.finish(ExitCode.DONE)
            return
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.handle(line.decode("utf-8", "replace").strip())

    def handle(self, text: str) -> None:
        if not text:
            return
        s = self.node.session
        if self.asked_to_resign:
            self.answer_resign(text)
            return
        if text == "resign":
            if s is None or s.phase is not Phase.PLAYING or s.local_seat is None or s.ending is not None:
                self.say("There is no game in progress at this seat to resign.")
            else:
                self.asked_to_resign = True
                self.say(RESIGN_QUESTION)
            return
        word, _, what = text.partition(" ")
        if word in ("offer", "accept", "decline"):
            how = {"draw": "drawn", "abort": "aborted"}.get(what.strip())
            if how is None and word != "offer" and s is not None and len(s.offers) == 1:
                how = s.offers[0][0]  # (`accept` alone: the one offer standing)
            if how is None:
                self.say(f"{word} draw, or {word} abort")
            else:
                self.offer(how, accept=word != "decline")
            return
        if text == "claim" or text.startswith("claim "):
            self.claim_command(text[5:].strip())
            return
        if text == "quit":
            self.say(self.leaving())
            self.node.leave()
            self.finish(ExitCode.DONE)
            return
        if text == "board":
            self.show_board()
            return
        if s is not None and (text == "again" or text == "no" and s.phase is Phase.OVER):
            try:
                self.node.rematch("yes" if text == "again" else "no")
            except LocalError as exc:
                self.say(str(exc))
            return
        word, _, rest = text.partition(" ")
        if word == "say":
            try:
                self.node.say(rest.strip())
            except LocalError as exc:
                self.say(str(exc))
            return
        if s is not None and s.phase in (Phase.FORMING, Phase.SIGNING) and self.forming(text):
            return
        turn = self.turn
        waiting = s is None or turn is None or s.decision_kind() != turn.kind
        if text == "help":
            self.say(HELP)
            if s is not None and s.phase in (Phase.FORMING, Phase.SIGNING):
                self.say(FORMING_HELP if s.local_seat == 0 else JOINING_HELP)
            if not waiting:
                game, state = s.game, s.position().state
                names = [game.format_action(state, a) for a in s.legal_actions()]
                shown = ", ".join(names[:80]) + (f", … ({len(names)} in all)" if len(names) > 80 else "")
                self.say(f"legal now: {shown}")
            return
        ahead = s.choice_ahead() if waiting and s is not None and s.held_choice is None else ()
        if ahead:  # a secret choice before its turn to commit: both seats choose at the same time
            self._choose_ahead(text, ahead)
            return
        if waiting:
            if s is not None and s.phase in (Phase.FORMING, Phase.SIGNING):
                self.say("The game has not started. " + (FORMING_HELP if s.local_seat == 0 else JOINING_HELP))
            else:
                self.say("It is not your turn; wait for the others (type `help` for the commands).")
            return
        game, state = s.game, s.position().state
        try:
            action = tuple(game.parse_action(state, text))
        except IllegalAction as exc:
            self.say(f"{exc} ({'type `help` for the legal moves'})")
            return
        if action not in s.legal_actions():
            self.say(f"{text!r} is not legal now; type `help` for the legal moves.")
            return
        try:
            self.node.submit([action])
        except LocalError as exc:
            self.say(str(exc))


    def _choose_ahead(self, text: str, ahead: tuple) -> None:
        """The secret choice typed while a seat ahead still chooses: the session holds it and
        commits it in its turn (`Session.submit`)."""
        s = self.node.session
        game, state = s.game, s.position().state
        try:
            action = tuple(game.parse_action(state, text))
        except IllegalAction:
            action = None
        if action not in ahead:
            names = ", ".join(game.format_action(state, a) for a in ahead[:12])
            self.say(f"{text!r} is not one of your secret choices; they are: {names}"
                     + (f", … ({len(ahead)} in all)" if len(ahead) > 12 else ""))
            return
        try:
            self.node.submit([action])
        except LocalError as exc:
            self.say(str(exc))
            return
        self.say("Your choice is made: it goes in once the seat ahead of you has committed.")
