"""A bot in any language: a child process speaking newline-delimited JSON on its stdin and
stdout (spec/bot-protocol.md). `ProgramBot` is an ordinary Bot, so a program plays
wherever a Python bot does; whatever it gets wrong is a BotFault with one sentence, and
the program is told why in an `error` message before it is dismissed.

The hello offers the versions peerboard speaks and the program's reply picks one:

* version 1, lockstep: every message gets exactly one reply line (`{"ok": true}` to a
  notification, `{"action": "<notation>"}` to a decision);
* version 2, as UCI: only a decision is answered; `start`, `action`, `end` and `error`
  are heard without a reply, so a decision costs one round trip over the pipe.
"""
from __future__ import annotations

import hashlib
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

#: the versions peerboard speaks, oldest first; the hello's `protocol` stays 1, what
#: every program understands, and `protocols` offers them all
PROTOCOLS = (1, 2)
PROTOCOL = PROTOCOLS[0]
#: a hello's `games` for a program that plays whatever game it is offered
ANY_GAME = "*"
#: how long a program may take to answer the hello (starting an interpreter included)
HELLO_SECONDS = 10.0
#: how long it may take to answer a notification (start, action, end) in version 1, and
#: how long a write to it may wait for room in the pipe in either version
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


def program_seed(seed: int | str | bytes) -> int:
    """The `seed` a program's `start` carries: 32 bits of SHA-256 of the bot's own seed
    (in a tournament derived from its seed, the game and the seat), small enough for
    any language's integers."""
    text = seed.hex() if isinstance(seed, bytes) else str(seed)
    return int.from_bytes(hashlib.sha256(f"program:{text}".encode()).digest()[:4], "big")


class ProgramBot(Bot):
    """Runs `command` (split like a shell would, no shell) once per game."""

    name = "exec"
    #: the versions this bot offers in its hello (a bench measures version 1 alone)
    protocols: tuple[int, ...] = PROTOCOLS

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
        #: the name its hello gave (printable, at most 40 characters), "" before or without one
        self.program_name = ""
        #: the version its hello chose
        self.protocol = 0
        self.games: Any = ANY_GAME
        #: why the handshake failed, once it has
        self.refused: str | None = None
        #: whether its views carry `text`, the board drawn (a hello with "text": false: no)
        self.text = True
        #: what its last line answered (a stray line after it is blamed on it)
        self.answered = "the hello"
        self.answered_before = self.answered
        self.decisions = 0
        #: version 2: notifications not written yet. They go with the next message, in one
        #: write: each write to a pipe wakes the program, and on a busy machine a wake-up
        #: costs as much as the round trip itself.
        self.pending: list[bytes] = []

    # -- the child ---------------------------------------------------------------------------

    def _spawn(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0,
                start_new_session=True,  # a ^C at the terminal is peerboard's to handle, not the bot's
            )
        except OSError as exc:
            raise BotFault(f"could not be started ({self.command!r}: {exc.strerror or exc})") from None
        # Writes never block for good: a program that stops reading is a fault after
        # NOTICE_SECONDS, not a hung table (version 2 sends without waiting for replies).
        os.set_blocking(self.proc.stdin.fileno(), False)

    def _send(self, message: dict | None) -> None:
        """Write `message` (None: nothing more), after the notifications held back."""
        data = b"".join(self.pending)
        self.pending = []
        if message is not None:
            line = (json.dumps(message, separators=(",", ":")) + "\n").encode()
            if len(line) - 1 > MAX_LINE:
                # peerboard's own lines keep the bound a bot may rely on: a longer one is our bug
                raise RuntimeError(f"a bot message of {len(line) - 1} bytes is over the {MAX_LINE}-byte line limit")
            data += line
        fd = self.proc.stdin.fileno()
        deadline = None
        while data:
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                deadline = deadline or time.monotonic() + NOTICE_SECONDS
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [fd], [], left)[1]:
                    raise BotFault(f"stopped reading its input (nothing read for {NOTICE_SECONDS:g} s)") from None
            except (BrokenPipeError, OSError):
                raise BotFault(self._gone("its input")) from None

    def _gone(self, closed: str) -> str:
        try:
            status = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return f"closed {closed}"
        return f"exited (status {status})" if status >= 0 else f"was killed by signal {-status}"

    def _line(self, seconds: float, what: str) -> bytes:
        deadline = time.monotonic() + seconds
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._tell(f"no answer to {what} within {seconds:g} s")
                raise BotFault(f"did not answer {what} within {seconds:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFault(self._gone("its output") + f" instead of answering {what}")
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer[: MAX_LINE + 1]:
                self._tell(f"a line is at most {MAX_LINE} bytes")
                raise BotFault(f"sent a line longer than {MAX_LINE} bytes")
        line, self.buffer = self.buffer.split(b"\n", 1)
        # the same bound however the bytes were cut into reads (spec/bot-protocol.md, "Lines")
        if len(line) > MAX_LINE:
            raise BotFault(f"sent a line longer than {MAX_LINE} bytes")
        return line

    def _stray(self) -> None:
        """A line the program wrote that answers nothing (a second reply, a version-2
        program answering a notification) is its fault, blamed on what it last answered."""
        fd = self.proc.stdout.fileno()
        while not self.buffer.strip() and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                return  # it exited: the next read says so
            self.buffer += chunk
        if self.buffer.strip():
            line = self.buffer.split(b"\n", 1)[0]
            self._tell(f"a line after your answer to {self.answered} answers nothing")
            raise BotFault(f"wrote {_quote(line)} after its answer to {self.answered}, which answers nothing")

    def _ask(self, message: dict, seconds: float, what: str) -> dict:
        """Send `message`; its reply as a JSON object (BotFault when it is not one)."""
        self._stray()
        self._send(message)
        line = self._line(seconds, what)
        self.answered = what
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
        if self.proc is None:
            return
        try:
            self._send({"type": "error", "error": why})
        except BotFault:
            pass

    def _notify(self, message: dict, what: str) -> None:
        if self.protocol >= 2:
            self.pending.append((json.dumps(message, separators=(",", ":")) + "\n").encode())
            return
        before = self.answered
        reply = self._ask(message, NOTICE_SECONDS, what)
        if "action" in reply:
            self._tell(f"{what} is answered {{\"ok\": true}}; was that a second answer to {before}?")
            raise BotFault(f"wrote a second answer to {before} (an action, read as its reply to {what})")
        if "ok" not in reply and "error" not in reply:
            self._tell(f'the reply to {what} is {{"ok": true}} or {{"error": "..."}}')
            raise BotFault(f'answered {what} with neither "ok" nor "error"')
        # an error reply to a notification is allowed (a message it does not know)

    # -- the Bot -----------------------------------------------------------------------------

    def introduce(self) -> str:
        """Start the program and shake hands; its hello's name ("" for none). `on_start`
        does this itself; a LAN seat calls it first to show the name at the table."""
        if self.refused is not None:
            raise BotFault(self.refused)  # the handshake failed before: it stays failed
        if self.proc is not None:
            return self.program_name
        try:
            return self._handshake()
        except BotFault as exc:
            self.refused = str(exc)
            raise

    def _handshake(self) -> str:
        self._spawn()
        offered = self.protocols
        hello = self._ask({"type": "hello", "protocol": PROTOCOL, "protocols": list(offered)},
                          HELLO_SECONDS, "the hello")
        if "error" in hello:
            raise BotFault(f"refused the hello: {str(hello['error'])[:SHOWN]!r}")
        if hello.get("protocol") not in offered or type(hello.get("protocol")) is not int:
            self._tell(f"peerboard speaks protocol {' or '.join(map(str, offered))}")
            raise BotFault(f"speaks protocol {str(hello.get('protocol'))[:SHOWN]}, not "
                           f"{' or '.join(map(str, offered))}")
        self.protocol = hello["protocol"]
        self.games = hello.get("games", ANY_GAME)  # left out: any game, as "*" says
        if self.games != ANY_GAME and (not isinstance(self.games, list)
                                       or not all(isinstance(g, str) for g in self.games)):
            self._tell('the hello names the games you play: "games": ["aton", ...], or "*" for any')
            raise BotFault('named neither a list of games nor "*" in its hello')
        self.text = hello.get("text", True) is not False
        name = hello.get("name")
        self.program_name = "".join(ch for ch in str(name) if ch.isprintable())[:40].strip() if name else ""
        return self.program_name

    def on_start(self, game: str, seat: int, players: int, options: Mapping[str, Any]) -> None:
        self.game = game
        self.introduce()
        if self.games != ANY_GAME and game not in self.games:
            self._tell(f"this game is {game}")
            raise BotFault(f"does not play {game} (it plays {', '.join(self.games) or 'nothing'})")
        self._notify({"type": "start", "game": game, "seat": seat, "players": players,
                      "options": plain(dict(options)), "seed": program_seed(self.seed)}, "the start")

    def decide_message(self, decision: Decision) -> dict:
        """The `decide` message for `decision`, as this program gets it."""
        return {
            "type": "decide", "game": decision.game_name, "seat": decision.seat, "kind": decision.kind,
            "view": view_json(decision.game, decision.view, decision.seat, self.text),
            "legal": list(decision.notation),
            "time": decision.time if decision.time is not None else DECIDE_SECONDS,
        }

    def decide(self, decision: Decision) -> Action:
        message = self.decide_message(decision)
        seconds = message["time"]
        self.decisions += 1
        self.answered_before = self.answered
        reply = self._ask(message, seconds, "a decision")
        self.answered = f"its decision {self.decisions}"
        if "error" in reply:
            raise BotFault(f"answered a decision with an error: {str(reply['error'])[:SHOWN]!r}")
        text = reply.get("action")
        if self.protocol >= 2 and "ok" in reply and "action" not in reply:
            self._tell('in protocol 2 only a decision is answered: {"ok": true} answers nothing')
            raise BotFault(f'wrote {{"ok": true}} after its answer to {self.answered_before}, which answers '
                           f"nothing in protocol 2 (only a decision is answered)")
        if not isinstance(text, str):
            self._tell('a decision is answered {"action": "<one of legal>"}')
            raise BotFault('answered a decision without an "action" text')
        for action, written in zip(decision.legal, decision.notation):
            if written == text or _squash(written) == _squash(text):
                return action
        self._tell(f"{text[:SHOWN]!r} is not one of the legal actions")
        raise BotFault(f"answered {text[:SHOWN]!r}, which is not one of the {len(decision.legal)} legal actions")

    def on_action(self, seat: int, actions: tuple[Action, ...], texts: tuple[str, ...]) -> None:
        self._notify({"type": "action", "seat": seat, "actions": list(texts)}, f"seat {seat}'s move")

    def on_ending(self, how: str, seats: tuple[int, ...], seq: int) -> None:
        # said in the `end` message that follows, as its "ending" (older programs ignore the key)
        self._ending = {"how": how, "seats": list(seats), "seq": seq}

    def on_takeover(self, seat: int, seq: int, strategy: str) -> None:
        # said in the `end` message, as its "takeovers" (no new message type mid-game: older
        # programs read only the types they know)
        self._takeovers = [*getattr(self, "_takeovers", []), {"seat": seat, "seq": seq}]

    def on_end(self, winners: tuple[int, ...], scores: tuple[int, ...]) -> None:
        message = {"type": "end", "winners": list(winners), "scores": list(scores)}
        ending = getattr(self, "_ending", None)
        if ending is not None:
            message["ending"] = ending
        takeovers = getattr(self, "_takeovers", None)
        if takeovers:
            message["takeovers"] = takeovers
        self._notify(message, "the end")

    def close(self) -> None:
        if self.proc is not None and self.pending:
            try:
                self._send(None)  # the end of the game, held back
            except BotFault:
                pass
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
