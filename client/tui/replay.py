"""A saved game as a GameSource: the state after every entry of a log file, stepped
through by the replay viewer.

The log is re-run once with the engine (with every hidden card known when the log holds
the audit), keeping the state after each entry. `view_as` shows the game as one seat saw
it (`game.view(state, seat)`); None shows everything the log lets anyone know. What was
said at the table (the chat file beside the log, spec/chat-format.md) is shown at its place:
at entry n, the latest lines said after entry n or before.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

from peerboard.client.event_words import said_by
from peerboard.client.text import printable
from peerboard.client.tui.source import Alert, Changed, MoveLine, SeatLine, Snapshot, SourceEvent, SubmitError
from peerboard.protocol.log import (
    Ledger, LedgerError, LogContents, LogFileError, Verdict, audited_seeds, ending_words, fingerprint, read_log,
    result_in, verify_contents,
)
from peerboard.node.chatfile import chat_path, read_chat_file
from peerboard.protocol.session import Say


CHAT_SHOWN = 4  # the latest lines said at the table by the entry shown


class ReplaySource:
    def __init__(self, contents: LogContents, name: str = "", view_as: int | None = None,
                 chat: Sequence[Say] = ()):
        """LedgerError when the genesis itself cannot start a game (verify_contents says why).

        The states are built without checking signatures, so that the first frame need not
        wait for them: `check` verifies the whole log (the viewer runs it in a thread and
        shows the verdict when it comes)."""
        self.contents = contents
        self.verdict: Verdict | None = None
        self.name = name
        seeds = audited_seeds(contents)
        #: True when hidden cards are known (the audit is in the log): every view can be shown
        self.full = bool(seeds)
        ledger = Ledger.start(contents.genesis, seeds)
        self.game = ledger.game
        g = contents.genesis.terms
        self.seats = tuple((printable(s.name, 40), fingerprint(s.key)) for s in g.seats)
        seat_of = {s.key: i for i, s in enumerate(g.seats)}
        #: (after, words) of every line said at the table, in the chat file's order
        self.chat = [(line.after, said_by(f"seat {seat_of[line.by]} ({self.seats[seat_of[line.by]][0]})"
                                          if line.by in seat_of else f"spectator {fingerprint(line.by)}", line.text))
                     for line in chat]
        self.states: list[Any] = [ledger.state]
        self.to_act: list[tuple[int, str] | None] = [_entitled(ledger)]
        #: how the game ended otherwise than by its rules, in words, at each entry ("" before)
        self.endings: list[str] = [""]
        self.lines: list[MoveLine] = []
        for entry in contents.entries:
            text = _entry_text(ledger, entry)
            try:
                ledger = ledger.check(entry, signatures=False)
            except LedgerError:
                break  # the verdict names it; the replay ends where the log stops holding
            chance = [ledger.game.format_action(before, o) for before, o in ledger.outcomes]
            if chance:
                text += ("  " if text else "") + "-> " + ", ".join(chance)
            # a move is its actions; any other entry is named by its kind (reveal, commit ...)
            line = text if entry.kind == "move" else f"{entry.kind} {text}".rstrip()
            self.lines.append(MoveLine(entry.seq, entry.seat, line))
            self.states.append(ledger.state)
            self.to_act.append(_entitled(ledger))
            self.endings.append(printable(ending_words(ledger), 200) if ledger.ending is not None else "")
        #: the analysis beside the log (client/tui/win_graph.py), None when there is none
        #: that belongs to this log; `analysis_note` says why not
        self.analysis = None
        self.analysis_note = ""
        #: whether a file beside the log was refused (the viewer says so once, and shows the game)
        self.analysis_refused = False
        #: the log file's path (where its analysis is kept), when it was read from one
        self.path: Path | None = None
        self.index = 0
        self.view_as = view_as if view_as is not None and 0 <= view_as < len(self.seats) else None
        self._listeners: list[Callable[[SourceEvent], None]] = []

    # -- GameSource -----------------------------------------------------------------------------

    def attach_analysis(self, doc: dict) -> None:
        """Show `doc` (an analysis of this log, document.read's): the graph, and each
        judged entry's mark in the move list."""
        from peerboard.client.tui.win_graph import Track

        track = Track(doc, len(self.states))
        self.analysis = track
        self.lines = [MoveLine(m.seq, m.seat, f"{m.text} {track.sign(m.seq)}".rstrip(), m.confirmed)
                      for m in self.lines]

    def snapshot(self) -> Snapshot:
        full = self.states[self.index]
        game = self.game
        shown = game.view(full, self.view_as) if self.view_as is not None else full
        scores = game.scores(full)
        seats = tuple(SeatLine(i, name, fp, scores[i], "", None) for i, (name, fp) in enumerate(self.seats))
        at = self.to_act[self.index]
        ending = self.endings[self.index]
        if game.is_terminal(full):
            won = game.winners(full)
            status = "game over: " + (" and ".join(f"seat {w} ({self.seats[w][0]})" for w in won) or "a draw")
        elif ending:
            status = f"game over: {ending}" + (f"; next: seat {at[0]} ({self.seats[at[0]][0]}), {at[1]}" if at else "")
        elif at is not None:
            status = f"next: seat {at[0]} ({self.seats[at[0]][0]}), {at[1]}"
        else:
            status = "the log ends here"
        return Snapshot(
            game=game, seq=self.index, state=shown, seats=seats, local_seat=self.view_as, to_act=at,
            decision=None, legal=(), moves=tuple(self.lines), status=status,
            over=game.is_terminal(full) or bool(ending), title=self.title(),
            chat=tuple([words for after, words in self.chat if after <= self.index][-CHAT_SHOWN:]),
        )

    def submit(self, actions: Sequence[tuple]) -> None:
        raise SubmitError("A replay takes no moves.")

    def rematch(self, answer: str) -> None:
        raise SubmitError("A replay is a game already played: `peerboard play` starts a new one.")

    def chat(self, text: str) -> None:
        raise SubmitError("Nobody hears a replay: what was said at the table is shown as it was said.")

    def subscribe(self, listener: Callable[[SourceEvent], None]) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        self._listeners.clear()

    def check(self) -> Verdict:
        """The verdict on the whole log (replay --verify's); kept in `verdict`."""
        verdict = verify_contents(self.contents)
        self.verdict = verdict
        return verdict

    # -- stepping ---------------------------------------------------------------------------------

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def title(self) -> str:
        seen = "everything" if self.view_as is None else f"as seat {self.view_as}"
        # where the replay stands first: a long file name is what gets shortened in a narrow panel
        return f"{self.index}/{self.last} · {seen} · {self.game.title} · {self.name}"

    def goto(self, index: int) -> None:
        index = max(0, min(self.last, index))
        if index != self.index:
            self.index = index
            self._tell(Changed())

    def cycle_view(self) -> None:
        """The next seat's view, after the last seat everything, then seat 0 again."""
        n = len(self.seats)
        self.view_as = 0 if self.view_as is None else (self.view_as + 1 if self.view_as + 1 < n else None)
        self._tell(Changed())
        if not self.full and self.view_as is not None:
            self._tell(Alert("This log holds no audit: hidden cards stay unknown in every view.", "warn"))

    def _tell(self, event: SourceEvent) -> None:
        for listener in list(self._listeners):
            listener(event)


def _entitled(ledger: Ledger) -> tuple[int, str] | None:
    try:
        return ledger.entitled()
    except LedgerError:
        return None  # over, with the result signed by every seat


def _entry_text(ledger: Ledger, entry) -> str:
    """An entry's actions in the notation, formatted at the state before each."""
    if entry.kind == "move":
        game, state, texts = ledger.game, ledger.state, []
        for action in entry.body["actions"]:
            try:
                texts.append(game.format_action(state, tuple(action)))
                state = game.apply(state, tuple(action))
            except Exception:
                texts.append(printable(action))
                break
        return "; ".join(texts)
    result = result_in(entry)  # (a `result`, or the `results` of an end together)
    if result is not None:
        won = ",".join(map(str, result["winners"])) or "none"
        return f"winners {won}"
    return ""


def load(path: Path, view_as: int | None = None) -> tuple[ReplaySource | None, Verdict | None]:
    """The replay of a log file, not yet verified (None, and the verdict saying why, when
    the file holds no game to show)."""
    try:
        contents = read_log(path.read_bytes())
    except LogFileError as exc:
        return None, Verdict.refused(exc)
    chat, _ = read_chat_file(chat_path(path), contents.genesis.terms.table)
    try:
        source = ReplaySource(contents, path.name, view_as, chat)
    except LedgerError:
        return None, verify_contents(contents)
    source.path = path
    from peerboard.client.analysis import document

    try:
        source.attach_analysis(document.read(document.path_for(path), contents))
    except document.AnalysisFileError as exc:
        source.analysis_note = str(exc)
        source.analysis_refused = not exc.missing
    return source, None
