"""A bot in any language: a child process speaking newline-delimited JSON on its stdin and
stdout (spec/bot-protocol.md). `ProgramBot` is an ordinary Bot, so a program plays
wherever a Python bot does; whatever it gets wrong is a BotFault with one sentence.

Every message peerboard sends is one JSON object on one line and gets exactly one reply
line: `{"ok": true}` for a notification, `{"action": "<notation>"}` for a decision, or
`{"error": "<why>"}` when the program cannot take the message.
"""
from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import time
from typing import Any, Mapping

from peerboard.client.bots.guard import BotFault
from peerboard.client.bots.jsonview import plain, view_json
from peerboard.client.bots.sdk import Bot, Budget, Decision
from peerboard.engines import Action

PROTOCOL = 1
#: a hello's `games` for a program that plays whatever game it is offered
ANY_GAME = "*"
#: how long a program may take to answer the hello (starting an interpreter included)
HELLO_SECONDS = 10.0
#: how long it may take to answer a notification (start, action, end)
NOTICE_SECONDS = 5.0
#: a decision's time when the table sets none
DECIDE_SECONDS = 10.0
#: the longest line either side sends, in bytes of UTF-8 before its "\n" (spec/bot-protocol.md)
MAX_LINE = 1 << 20
SHOWN = 60  # characters of a bad line quoted in a fault


def _quote(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return repr(text[:SHOWN] + ("…" if len(text) > SHOWN else ""))


class ProgramBot(Bot):
    """Runs `command` (split like a shell would, no shell) once per game."""

    name = "exec"

    def __init__(self, command: str, seed: int | str | bytes = 0, budget: Budget | None = None,
                 stderr: Any = None):
        super().__init__(seed, budget)
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("--exec needs a command")
        self.stderr = stderr
        self.proc: subprocess.Popen | None = None
        self.buffer = b""
        self.game = ""
        self.program_name = ""

    # -- the child ---------------------------------------------------------------------------

    def _spawn(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0,
                start_new_session=True,  # a ^C at the terminal is peerboard's to handle, not the bot's
            )
        except OSError as exc:
            raise BotFault(f"could not start {self.command!r}: {exc.strerror or exc}") from None

    def _send(self, message: dict) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        if len(data) - 1 > MAX_LINE:
            # peerboard's own lines keep the bound a bot may rely on: a longer one is our bug
            raise RuntimeError(f"a bot message of {len(data) - 1} bytes is over the {MAX_LINE}-byte line limit")
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFault(self._gone()) from None

    def _gone(self) -> str:
        try:
            status = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited (status {status})" if status >= 0 else f"was killed by signal {-status}"

    def _line(self, seconds: float, what: str) -> bytes:
        deadline = time.monotonic() + seconds
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise BotFault(f"did not answer {what} within {seconds:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFault(self._gone() + f" instead of answering {what}")
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer[: MAX_LINE + 1]:
                raise BotFault(f"sent a line longer than {MAX_LINE} bytes")
        line, self.buffer = self.buffer.split(b"\n", 1)
        # the same bound however the bytes were cut into reads (spec/bot-protocol.md, "Lines")
        if len(line) > MAX_LINE:
            raise BotFault(f"sent a line longer than {MAX_LINE} bytes")
        return line

    def _ask(self, message: dict, seconds: float, what: str) -> dict:
        """Send `message`; its reply as a JSON object (BotFault when it is not one)."""
        self._send(message)
        line = self._line(seconds, what)
        try:
            reply = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            self._tell(f"your reply to {what} is not JSON")
            raise BotFault(f"answered {what} with {_quote(line)}, which is not JSON") from None
        if not isinstance(reply, dict):
            self._tell(f"your reply to {what} is not a JSON object")
            raise BotFault(f"answered {what} with {_quote(line)}, which is not a JSON object")
        return reply

    def _tell(self, why: str) -> None:
        """The last word to a program that got something wrong (it is dismissed after)."""
        try:
            self._send({"type": "error", "error": why})
        except BotFault:
            pass

    def _notify(self, message: dict, what: str) -> dict:
        reply = self._ask(message, NOTICE_SECONDS, what)
        if "ok" not in reply and "error" not in reply:
            self._tell(f'the reply to {what} is {{"ok": true}} or {{"error": "..."}}')
            raise BotFault(f'answered {what} with neither "ok" nor "error"')
        return reply  # an error reply to a notification is allowed (a message it does not know)

    # -- the Bot -----------------------------------------------------------------------------

    def on_start(self, game: str, seat: int, players: int, options: Mapping[str, Any]) -> None:
        self.game = game
        self._spawn()
        hello = self._ask({"type": "hello", "protocol": PROTOCOL}, HELLO_SECONDS, "the hello")
        if "error" in hello:
            raise BotFault(f"refused the hello: {str(hello['error'])[:SHOWN]!r}")
        if hello.get("protocol") != PROTOCOL:
            self._tell(f"this is protocol {PROTOCOL}")
            raise BotFault(f"speaks protocol {hello.get('protocol')!r}, not {PROTOCOL}")
        games = hello.get("games", ANY_GAME)  # left out: any game, as "*" says
        if games != ANY_GAME and (not isinstance(games, list) or not all(isinstance(g, str) for g in games)):
            self._tell('the hello names the games you play: "games": ["aton", ...], or "*" for any')
            raise BotFault('named neither a list of games nor "*" in its hello')
        if games != ANY_GAME and game not in games:
            self._tell(f"this game is {game}")
            raise BotFault(f"does not play {game} (it plays {', '.join(games) or 'nothing'})")
        name = hello.get("name")
        self.program_name = "".join(ch for ch in str(name) if ch.isprintable())[:40] if name else ""
        self._notify({"type": "start", "game": game, "seat": seat, "players": players,
                      "options": plain(dict(options))}, "the start")

    def decide(self, decision: Decision) -> Action:
        seconds = decision.time if decision.time is not None else DECIDE_SECONDS
        message = {
            "type": "decide", "game": decision.game_name, "seat": decision.seat, "kind": decision.kind,
            "view": view_json(decision.game, decision.view, decision.seat),
            "legal": list(decision.notation), "time": seconds,
        }
        reply = self._ask(message, seconds, "a decision")
        if "error" in reply:
            raise BotFault(f"answered a decision with an error: {str(reply['error'])[:SHOWN]!r}")
        text = reply.get("action")
        if not isinstance(text, str):
            self._tell('a decision is answered {"action": "<one of legal>"}')
            raise BotFault('answered a decision without an "action" text')
        for action, written in zip(decision.legal, decision.notation):
            if written == text or _squash(written) == _squash(text):
                return action
        self._tell(f"{text[:SHOWN]!r} is not one of the legal actions")
        raise BotFault(f"answered {text[:SHOWN]!r}, which is not one of the {len(decision.legal)} legal actions")

    def on_action(self, seat: int, actions: tuple[Action, ...], texts: tuple[str, ...]) -> None:
        self._notify({"type": "action", "seat": seat, "actions": list(texts)}, "an action")

    def on_ending(self, how: str, seats: tuple[int, ...], seq: int) -> None:
        # said in the `end` message that follows, as its "ending" (older programs ignore the key)
        self._ending = {"how": how, "seats": list(seats), "seq": seq}

    def on_end(self, winners: tuple[int, ...], scores: tuple[int, ...]) -> None:
        message = {"type": "end", "winners": list(winners), "scores": list(scores)}
        ending = getattr(self, "_ending", None)
        if ending is not None:
            message["ending"] = ending
        self._notify(message, "the end")

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1)  # a program exits at the end of its input
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def _squash(text: str) -> str:
    return " ".join(text.lower().split())
