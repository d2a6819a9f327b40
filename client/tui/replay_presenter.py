"""The replay viewer's presenter: the game screen, stepped through a saved log.

Arrow keys step one entry, PgUp/PgDn ten, Home/End jump to the start and the end, a typed
number jumps to that entry, Space plays and pauses at a speed + and - change, F6 shows the
game as the next seat saw it, F7 analyses the log when no analysis is beside it (the graph
of client/tui/win_graph.py then shows). The verdict of the log's verification stays in the status line.
"""
from __future__ import annotations

import asyncio
import threading
from typing import Callable

from peerboard.client.text import plural
from peerboard.client.tui.game_presenter import Command, GamePresenter
from peerboard.client.tui.help import REPLAY_KEYS
from peerboard.client.tui.replay import ReplaySource

#: autoplay speeds, in entries per second
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
DEFAULT_SPEED = 2


class Timer:
    """call_later on the running asyncio loop (the application's)."""

    def __call__(self, delay: float, fn: Callable[[], None]):
        return asyncio.get_running_loop().call_later(delay, fn)


class ReplayPresenter(GamePresenter):
    keys_help = REPLAY_KEYS
    source: ReplaySource

    def __init__(self, source: ReplaySource, redraw: Callable[[], None] = lambda: None,
                 leave: Callable[[], None] = lambda: None, call_later=None):
        super().__init__(source, redraw, leave)
        self.call_later = call_later or Timer()
        self.checking: asyncio.Future | None = None
        self.speed = DEFAULT_SPEED
        self.playing = False
        self._timer = None
        #: set to stop an analysis under way (F7) at its next decision
        self._stop_analysis = threading.Event()
        self.analysing = False

    def start(self) -> None:
        """Show the log at once; its verification runs in a thread and its verdict takes the
        status line when it is in (at once when no loop runs, as in a screenshot)."""
        super().start()
        if self.source.analysis_refused:
            self.say(f"The analysis beside the log is not used: {self.source.analysis_note}.", "warn")
        if self.source.verdict is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.source.check()
            return
        loop.call_soon(self._check_in_thread, loop)  # after the first frame: it needs the CPU

    def _check_in_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        self.checking = loop.run_in_executor(None, self.source.check)
        self.checking.add_done_callback(lambda _: self.redraw())

    def guide(self, width: int = 80) -> str:
        return ""

    def graph_seat(self) -> int:
        """Whose chance the graph shows: the seat whose view is shown, else seat 0."""
        return self.source.view_as if self.source.view_as is not None else 0

    def graph(self, width: int, rows: int) -> list | None:
        from peerboard.client.tui.win_graph import fragments

        track = self.source.analysis
        if track is None:
            return None
        return fragments(track, self.graph_seat(), self.source.index, width, rows)

    def graph_caption(self, width: int) -> str:
        track = self.source.analysis
        if track is None:
            return ""
        seat = self.graph_seat()
        names = [name for name, _ in self.source.seats]
        chance = track.chances[self.source.index][seat]
        text = (f"seat {seat} {names[seat]}: {100 * chance:.0f}% to win · "
                f"{track.line(self.source.index, names)}")
        return text[:width]  # (the situation line and the status line say it all)

    def hint(self) -> str:
        if self.source.verdict is None:
            return "Checking the log: signatures, links, every move …"
        return self.source.verdict.summary()

    def commands(self) -> list[Command]:
        return [
            Command("f1", "Help", self.toggle_help),
            Command("left", "Step", lambda: self.step(-1), "←/→"),
            Command("right", "Next", lambda: self.step(1), None),
            Command("home", "Start/End", lambda: self.jump(0), "Home/End"),
            Command("end", "End", lambda: self.jump(self.source.last), None),
            Command("pageup", "±10", lambda: self.step(-10), "PgUp/PgDn"),
            Command("pagedown", "+10", lambda: self.step(10), None),
            Command("space", "Pause" if self.playing else "Play", self.toggle_play),
            Command("+", "Speed", lambda: self.change_speed(1), "+/-"),
            Command("-", "Slower", lambda: self.change_speed(-1), None),
            Command("f6", "View", self.source.cycle_view),
            # (bound, not on the bar: the bar is full at 120 columns; F1's help names it)
            Command("f7", "Analyse", self.analyse, None),
            Command("f10", "Quit", self.quit),
        ]

    # -- stepping ------------------------------------------------------------------------------

    def step(self, by: int) -> None:
        self.jump(self.source.index + by)

    def jump(self, index: int) -> None:
        self.model.alert = None
        if index > self.source.last:
            self.say(f"The log has {plural(self.source.last, 'entry', 'entries')}; this is the last.")
        self.source.goto(index)
        self.redraw()

    def enter(self, text: str) -> None:
        words = text.strip().lower()
        if words.isdigit():
            self.jump(int(words))
        elif words in ("help", "?"):
            self.toggle_help()
        elif words in ("quit", "exit"):
            self.quit()
        elif words:
            self.say(f"Type an entry number (0 to {self.source.last}) and Enter to jump there; F1 for the keys.", "warn")

    # -- autoplay ------------------------------------------------------------------------------------

    def toggle_play(self) -> None:
        if self.playing:
            self._stop()
            self.say("Paused.")
            return
        if self.source.index >= self.source.last:
            self.source.goto(0)
        self.playing = True
        self.say(f"Playing at {SPEEDS[self.speed]:g} entries a second.")
        self._schedule()

    def change_speed(self, by: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + by))
        self.say(f"Speed: {SPEEDS[self.speed]:g} entries a second.")

    def _schedule(self) -> None:
        self._timer = self.call_later(1.0 / SPEEDS[self.speed], self._tick)

    def _tick(self) -> None:
        self._timer = None
        if not self.playing:
            return
        self.source.goto(self.source.index + 1)
        if self.source.index >= self.source.last:
            self.playing = False
            self.say("The end of the log.")
        else:
            self._schedule()
        self.redraw()

    def _stop(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # -- analysis ----------------------------------------------------------------------------------

    def analyse(self) -> None:
        """F7: analyse the log here (`peerboard analyse FILE` at the default budget), in a
        thread of its own; its file is written beside the log and the graph appears."""
        source = self.source
        if source.analysis is not None:
            self.say("The analysis beside the log is shown: the graph at the foot of the screen.")
            return
        if self.analysing:
            self.say("The analysis is under way.")
            return
        if source.verdict is None:
            self.say("The log is still being checked; analyse it once the check is done.", "warn")
            return
        if not source.verdict.ok:
            self.say("Only a log that checks out is analysed.", "warn")
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        self.analysing = True
        self.say(f"Analysing every move ({source.analysis_note or 'no analysis yet'}) …")
        # a daemon thread: leaving the viewer never waits for it (it stops at the next decision)
        threading.Thread(target=self._analyse_in_thread, args=(loop,), daemon=True).start()

    def _analyse_in_thread(self, loop) -> None:
        from peerboard.client.analysis import document
        from peerboard.client.analysis.command import analyse_here
        from peerboard.client.analysis.positions import Unjudgeable

        source = self.source

        def later(fn, *args):
            if loop is None:
                fn(*args)
            elif not loop.is_closed():
                loop.call_soon_threadsafe(fn, *args)

        def progress(done: int, total: int) -> None:
            later(self.say, f"Analysing: {done} of {total} decisions …")

        try:
            doc = analyse_here(source.contents, source.name, progress=progress, stop=self._stop_analysis)
        except Unjudgeable as exc:
            later(self._analysed, None, f"Not analysed: {exc}.")
            return
        if doc is None:
            return
        note = ""
        if source.path is not None:
            try:
                document.write(document.path_for(source.path), doc)
            except OSError as exc:
                note = f" (not saved: {exc.strerror})"
        later(self._analysed, doc, note)

    def _analysed(self, doc, note: str) -> None:
        self.analysing = False
        if doc is None:
            self.say(note, "warn")
            return
        self.source.attach_analysis(doc)
        self.say(f"Analysed {len(doc['moves'])} moves{note}.")

    def quit(self) -> None:
        self._stop_analysis.set()
        self._stop()
        super().quit()
