"""The terminal client driven headless: prompt-toolkit's pipe input (real key and mouse
escape sequences through the real parser) and an output that draws nowhere but has a
fixed size. Each step waits for a condition the test names, bounded in time."""
from __future__ import annotations

import asyncio
from typing import Callable

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

from client.tui.app import build
from client.tui.snapshot import FixedSizeOutput, screen_text

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


def run(coro) -> None:
    asyncio.run(asyncio.wait_for(coro, 120))
