"""The live game as the screen sees it: one immutable Snapshot (client/tui/source.py) built
from the session's public surface (spec/protocol.md, "The session's public surface"), with
the status line that says where the game stands in client/event_words.py's words."""
from __future__ import annotations

from typing import Any

from peerboard.client.event_words import halt_words, result_words, seat_name
from peerboard.client.text import printable
from peerboard.client.tui.source import FormingLine, MoveLine, SeatLine, Snapshot


def snapshot_of(node: Any, title: str = "", notes: tuple[str, ...] = (), chat: tuple[str, ...] = (),
                lines: MoveLines | None = None) -> Snapshot:
    """The game as the session's public surface shows it now (call on the node's thread,
    or before it runs); `lines`: the session's move lines kept from the snapshot before."""
    s = node.session
    game = s.game
    position = s.position()
    state = position.state if position is not None else None
    scores = game.scores(state) if state is not None else None
    seats = tuple(
        SeatLine(info.index, printable(info.name, 40), info.fingerprint,
                 scores[info.index] if scores is not None and info.index < len(scores) else None,
                 info.connection, info.last_heard, printable(info.address, 80))
        for info in s.seats
    )
    moves = (lines or MoveLines()).of(s)
    decision = s.decision_kind()
    legal = tuple(s.legal_actions()) if decision else ()
    held = s.held_choice
    if held is not None:  # (chosen already: the session commits it when it may, nobody is asked)
        decision, legal = None, ()
    elif decision is None:
        # a secret choice the seat is in, before its turn to commit: it may choose now
        # (the session holds it and commits it when it may: `Session.submit`)
        legal = tuple(s.choice_ahead())
        decision = "commit" if legal else None
    to_act = position.to_act if position is not None else None
    phase = s.phase.value
    forming = None
    if phase in ("forming", "signing"):
        hosting = s.local_seat == 0
        forming = FormingLine(
            table_id=s.table_id.hex(), players=s.players, private=s.private,
            hosting=hosting, can_remove=hosting and phase == "forming",
            notes=notes, signing=phase == "signing",
        )
    return Snapshot(
        game=game, seq=position.seq if position is not None else 0, state=state, seats=seats,
        local_seat=s.local_seat, to_act=to_act, decision=decision,
        legal=legal, moves=moves,
        status=_status(s, seats, to_act, decision, held), over=phase == "over",
        title=title or f"{game.title} · {_seat_title(s)}", forming=forming, chat=chat,
        patience=s.patience if s.local_seat is not None and s.ending is None and phase == "playing" else None,
    )


def move_lines(s: Any) -> tuple[MoveLine, ...]:
    """The moves, and the chance outcomes (dice, draws) where they came about, as the replay
    viewer writes them: `-> roll 4` after the move that brought it, or its own line after a
    reveal (`reveal -> roll 4`)."""
    return MoveLines().of(s)


class MoveLines:
    """`move_lines` for one live session, asked again after every turn of the node's loop
    that brought news: the lines up to the last confirmed entry never change (its moves and
    outcomes are in and confirmed), so they are kept and only the lines after it are written
    again (all of them each time cost the node's thread a quarter of a millisecond at 75
    moves, and more with every move)."""

    def __init__(self) -> None:
        self._kept: tuple[MoveLine, ...] = ()
        self._moves = 0  # the move records and the chance records the kept lines cover
        self._chance = 0
        self._last: tuple = (None, None)  # the last of each covered, to notice a list that changed
        self._session: Any = None  # (a rematch is a new session: its lines start again)

    def of(self, s: Any) -> tuple[MoveLine, ...]:
        confirmed = s.confirmed_seq
        moves, chance = s.moves, s.chance
        if s is not self._session or not self._covers(moves, chance):
            self.__init__()  # (a new session, or a claim of this seat took back moves: all again)
            self._session = s
        new_moves, new_chance = moves[self._moves:], chance[self._chance:]
        lines = _lines(new_moves, new_chance, confirmed)
        final = sum(1 for m in new_moves if m.seq <= confirmed)
        final_chance = sum(1 for c in new_chance if c.seq <= confirmed)
        if final or final_chance:
            kept = [line for line in lines if line.seq <= confirmed]
            lines = [line for line in lines if line.seq > confirmed]
            self._kept += tuple(kept)
            self._moves += final
            self._chance += final_chance
            self._last = (moves[self._moves - 1] if self._moves else None,
                          chance[self._chance - 1] if self._chance else None)
        out = self._kept + tuple(lines)
        ends = _ending_lines(s)
        return tuple(sorted(out + ends, key=lambda line: line.seq)) if ends else out

    def _covers(self, moves: tuple, chance: tuple) -> bool:
        if len(moves) < self._moves or len(chance) < self._chance:
            return False
        last_move = moves[self._moves - 1] if self._moves else None
        last_chance = chance[self._chance - 1] if self._chance else None
        return (last_move, last_chance) == self._last


def _lines(moves: tuple, chance_records: tuple, confirmed: int) -> list[MoveLine]:
    chance = {c.seq: c for c in chance_records}
    lines: list[MoveLine] = []
    for m in moves:
        text = "; ".join(m.texts)
        c = chance.pop(m.seq, None)
        if c is not None:
            text += "  -> " + ", ".join(c.texts)
        lines.append(MoveLine(m.seq, m.seat, text, m.seq <= confirmed))
    if chance:
        lines += [MoveLine(c.seq, c.seat, f"{c.kind} -> " + ", ".join(c.texts), c.seq <= confirmed)
                  for c in chance.values()]
        lines.sort(key=lambda line: line.seq)
    return lines


def _ending_lines(s: Any) -> tuple[MoveLine, ...]:
    """The entries that changed how the game goes, named as the replay viewer names them by
    their kind: a claim and the takeover after it, a resignation, an agreement, a claim that
    ended the game."""
    confirmed = s.confirmed_seq
    out = []
    for seat, seq, runner in s.taken_over:
        out.append(MoveLine(seq - 1, runner, f"claim: {seat_name(s, seat)} gone for good", seq - 1 <= confirmed))
        out.append(MoveLine(seq, runner, f"takeover: a {printable(s.takeover, 40)} bot plays {seat_name(s, seat)}",
                            seq <= confirmed))
    ending = s.ending
    if ending is not None:
        named = " and ".join(seat_name(s, seat) for seat in ending.seats)
        text = {"resigned": f"resign: {named} resigned", "claimed": f"claim: {named} gone for good",
                "drawn": "agree: every seat agreed to a draw",
                "aborted": "agree: every seat agreed to abort"}.get(ending.how, f"{ending.how}: {named}")
        out.append(MoveLine(ending.seq, -1, text, ending.seq <= confirmed))
        if ending.disputed is not None:
            out.append(MoveLine(ending.disputed, -1, f"protest: {named} disputes the claim: it was here",
                                ending.disputed <= confirmed))
    return tuple(out)


def _seat_title(s: Any) -> str:
    if s.local_seat is None:
        return "watching" if s.genesis_hash is not None else "joining"
    return f"you are seat {s.local_seat}"


def _status(s: Any, seats: tuple[SeatLine, ...], to_act: tuple[int, str] | None, decision: str | None = None,
            held: tuple | None = None) -> str:
    phase = s.phase.value
    if phase == "forming":
        if not s.players:
            return "Asking the table for a seat …"
        return f"Waiting for players: {len(seats)} of {s.players} seats taken."
    if phase == "signing":
        return "Every seat is there: each signs the start of the game …"
    if phase == "halted":
        return "The game is halted: " + halt_words(s.halt, s)
    if phase == "over":
        return "Game over: " + result_words(s.result, s)
    if to_act is None:
        return ""
    seat, kind = to_act
    if held is not None:
        if seat == s.local_seat:
            return "Your choice is made: it goes in now."
        return f"Your choice is made: it goes in once {seat_name(s, seat)} has committed."
    if seat == s.local_seat and kind == "commit":
        waiting = " and ".join(seat_name(s, other) for other in s.chosen_ahead)
        has = "have" if len(s.chosen_ahead) > 1 else "has"
        return f"Your secret choice ({waiting} {has} chosen and waits for you)." if waiting else "Your secret choice."
    if seat == s.local_seat and kind == "move":
        return "Your turn."
    if decision == "commit":  # (ahead of its turn to commit: both choose at the same time)
        return f"Your secret choice ({seat_name(s, seat)} chooses too)."
    doing = {"move": "to move", "commit": "to choose in secret", "reveal": "to reveal", "reveals": "to gather the round's reveals",
             "chance": "to draw", "audit": "to reveal its seed", "result": "to sign the result",
             "audits": "to gather every seat's seed", "results": "to gather every seat's signature of the result"}
    return f"Waiting for {seat_name(s, seat)} {doing.get(kind, kind)}."
