"""The terminal client driven headless: prompt-toolkit's pipe input (real key and mouse
escape sequences through the real parser) and an output that draws nowhere but has a
fixed size. Each step waits for a condition the test names, bounded in time."""
from __future__ import annotations

import asyncio
import random
from typing import Callable

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

from peerboard import engines
from peerboard.client.tui.app import build
from peerboard.client.tui.game_presenter import GamePresenter
from peerboard.client.tui.local import LocalSource
from peerboard.client.tui.snapshot import FixedSizeOutput, screen_text

KEYS = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D", "home": "\x1b[H", "end": "\x1b[F",
        "enter": "\r", "tab": "\t", "f1": "\x1bOP", "f2": "\x1bOQ", "f3": "\x1bOR", "f4": "\x1bOS",
        "f6": "\x1b[17~", "f10": "\x1b[21~", "pagedown": "\x1b[6~", "pageup": "\x1b[5~", "c-c": "\x03",
        "space": " ", "escape": "\x1b", "backspace": "\x7f"}
MARK = "\x1b[34~"  # F20: bound only by the harness (and prefix of no binding); once it is handled, every key before it is


class Screen:
    def __init__(self, presenter, columns: int = 120, rows: int = 32, view_class=None):
        self.presenter = presenter
        self._pipe = create_pipe_input()
        self.input = self._pipe.__enter__()
        extra_args = {"view_class": view_class} if view_class is not None else {}
        self.app, self.view = build(presenter, input=self.input, output=FixedSizeOutput(columns, rows), **extra_args)
        self.marks = 0
        extra = KeyBindings()

        @extra.add("f20")
        def _(event) -> None:
            self.marks += 1

        self.app.key_bindings = merge_key_bindings([self.app.key_bindings, extra])
        self.task: asyncio.Task | None = None

    async def __aenter__(self) -> "Screen":
        self.task = asyncio.ensure_future(self.app.run_async(pre_run=self.presenter.start))
        await self.until(lambda: self.app.is_running and self.app.future is not None)
        await self.flush()
        return self

    async def __aexit__(self, *exc) -> None:
        if self.task is not None and not self.task.done():
            self.app.exit()
            await asyncio.wait_for(self.task, 5)
        self._pipe.__exit__(None, None, None)

    async def until(self, condition: Callable[[], bool], seconds: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not condition():
            if loop.time() > deadline:
                raise AssertionError(f"timed out waiting; the screen:\n{self.text()}")
            await asyncio.sleep(0.005)

    async def flush(self) -> None:
        """Wait until every key sent so far has been handled."""
        want = self.marks + 1
        self.input.send_text(MARK)
        await self.until(lambda: self.marks >= want)

    async def press(self, *keys: str) -> None:
        assert "escape" not in keys, "a bare Esc waits for the parser's timeout: use escape(until=...)"
        for key in keys:
            self.input.send_text(KEYS.get(key, key))
        await self.flush()

    async def escape(self, until: Callable[[], bool]) -> None:
        """A bare Esc: the parser takes it as one key only after its short timeout, so the
        test names what the key changes and waits for that."""
        self.input.send_text("\x1b")
        await self.until(until)

    async def press_last(self, key: str) -> None:
        """A key that closes the screen (no key after it is read): wait for the close."""
        self.input.send_text(KEYS.get(key, key))
        await self.until(lambda: self.task.done())

    async def type(self, text: str, enter: bool = True) -> None:
        self.input.send_text(text + ("\r" if enter else ""))
        await self.flush()

    async def click(self, x: int, y: int) -> None:
        """A left click at column x, row y (0-based), as a terminal reports it (SGR)."""
        self.input.send_text(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
        await self.flush()

    def text(self) -> str:
        return screen_text(self.app)


def local_screen(game: str, seed: int = 3, columns: int = 120, rows: int = 32, source=None, **kw) -> Screen:
    """The game screen in front of a game against random players in this process."""
    source = source or LocalSource(engines.get(game), seed=seed, **kw)
    return Screen(GamePresenter(source), columns, rows)


async def to_decision(screen: Screen, kind: str, tries: int = 200) -> None:
    """Play random legal moves by typing them until the local seat faces a decision whose
    first action is of this kind (e.g. "assign")."""
    rng = random.Random(1)
    model = screen.presenter.model
    for _ in range(tries):
        plan = model.plan
        if plan is not None and plan.deciding and not plan.steps and plan.legal_now()[0][0] == kind:
            return
        if plan is None:
            raise AssertionError(f"no decision; the screen:\n{screen.text()}")
        if plan.deciding:
            await screen.type(rng.choice(model.legal_texts()))
        else:
            await screen.press("enter")
    raise AssertionError(f"no {kind} decision came")


async def click_at(screen: Screen, spot: str) -> None:
    """A mouse click on the spot where the screen shows it (the board starts on row 1)."""
    line, col = screen.presenter.pointing.positions()[spot]
    await screen.click(col, line + 1)


def run(coro) -> None:
    asyncio.run(asyncio.wait_for(coro, 120))


# -- a real terminal: tmux --------------------------------------------------------------------------

import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAVE_TMUX = shutil.which("tmux") is not None
#: what the line under the board says while the local seat decides (client/tui/game_presenter.py, guide)
DECIDING = ("Your turn:", "Your secret choice:", "Go on")


class Tmux:
    """One program in a tmux server of its own (a unique socket), read by capture-pane."""

    def __init__(self, command: str, columns: int = 120, rows: int = 40, env: dict[str, str] | None = None):
        self.socket = f"pb-tui-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={v}" for k, v in (env or {}).items())
        self._run("new-session", "-d", "-s", "t", "-x", str(columns), "-y", str(rows),
                  f"cd {ROOT} && {exports} {command}; echo EXIT=$?; sleep 60")

    def _run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, check=True).stdout

    def screen(self) -> str:
        return self._run("capture-pane", "-t", "t", "-p")

    def joined(self) -> str:
        """The screen with the lines the terminal wrapped joined again (tmux knows which it wrapped:
        a long path printed after the program left the full screen)."""
        return self._run("capture-pane", "-t", "t", "-p", "-J")

    def wait_for(self, text: str, seconds: float = 30.0) -> str:
        return self.wait_until(lambda screen: text in screen, repr(text), seconds)

    def wait_until(self, condition, what: str, seconds: float = 30.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.02)
        raise AssertionError(f"{what} did not appear; the screen:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        self._run("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self._run("send-keys", "-t", "t", "-l", text)

    def resize(self, columns: int, rows: int) -> None:
        self._run("resize-window", "-t", "t", "-x", str(columns), "-y", str(rows))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def status_line(screen: str) -> str:
    """The game screen's status line (the line above the key bar)."""
    lines = screen.rstrip("\n").split("\n")
    return lines[-2] if len(lines) >= 2 else ""


def input_line(screen: str) -> str:
    """What is typed on the game screen's input line."""
    for line in reversed(screen.split("\n")):  # (a seat's line may begin with ">" too: the turn)
        if "│>" in line:
            return line.split("│>", 1)[1].strip()
    return ""


def above_input(screen: str) -> list[str]:
    """The screen's lines above the input line (where Tab's menu opens)."""
    lines = screen.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if "│>" in lines[i]:
            return lines[:i]
    return lines


def play_one_action(t: Tmux) -> str:
    """The local seat's next action, taken as a person would at the game screen: Tab lists
    the legal actions that fit what is typed (nothing yet: all of them) and writes what they
    have in common; Tab again picks the first; Enter takes it. Returns the status line
    that says what was planned."""
    t.keys("C-u")
    before = t.wait_until(lambda s: input_line(s) == "", "an empty input line", 20)
    t.keys("Tab")
    t.wait_until(lambda s: input_line(s) or above_input(s) != above_input(before), "what Tab offers", 20)
    t.keys("Tab", "Enter")
    said = status_line(before)  # (each action taken says so: the plan so far, or why not)
    return status_line(t.wait_until(lambda s: input_line(s) == "" and status_line(s) != said, "the action taken", 20))


def play_to_the_end(t: Tmux, seconds: float = 60.0) -> list[str]:
    """Play the local seat by Tab and Enter until the game is over; returns the status line
    after each action (what was planned, sent, or why not)."""
    deadline = time.monotonic() + seconds
    typed: list[str] = []
    while time.monotonic() < deadline:
        screen = t.screen()
        status = status_line(screen)
        if "Game over: won by" in status:  # (not the preview's "game over" of a turn not sent yet)
            return typed
        if "Enter (or F3) " in status:  # the turn is planned whole: send it
            t.keys("Enter")
            t.wait_until(lambda s: "Enter (or F3) " not in status_line(s), "the turn sent", 20)
        elif any(words in screen for words in DECIDING):
            typed.append(play_one_action(t))
        else:
            time.sleep(0.02)  # (polling the screen: the other seat is deciding)
    raise AssertionError(f"the game was not over within {seconds} s; the screen:\n{t.screen()}")
