"""Aton's look: the four temples with their squares and colours, the Kingdom of the Dead,
the score track, each seat's cartouche row (face down until revealed) and hand (yours
only; the opponent's as a count), deck sizes.

Spots: `sq:N` a temple square (0..47), `card:V` a card of value V in your hand. The
cartouche choice is pointed at as four cards, for cartouches 1, 2, 3 and 4 in order.
"""
from __future__ import annotations

from peerboard.engines.aton import cards
from peerboard.engines.aton.state import ASSIGN, DRAW, EXCHANGE, OVER, PLACE, REMOVE, RETRIEVE, TURN_UP, State
from peerboard.engines.aton.temples import BONUS, BONUS_VALUE, COLOUR, SQUARES_PER_TEMPLE, square_name, temple_of
from peerboard.client.tui.boards.canvas import BoardContext, Canvas, Drawing

SIDES = ("red", "blue")
COUNTER = ("R", "B")
KINGDOM = 8
_COLOUR_NAMES = {"Y": "yellow", "K": "black", "B": "blue", "G": "green", BONUS: "bonus"}
#: each temple square on the ground of its colour (the seat's counter keeps its own colour)
_SQUARE_STYLE = {"Y": "bg:ansiyellow ansiblack", "K": "bg:ansibrightblack ansiwhite",
                 "B": "bg:ansibrightblue ansiblack", "G": "bg:ansigreen ansiblack",
                 BONUS: "bg:ansiwhite ansiblack"}
_TRACK = 40  # characters of the score track
#: how to read this board, for the help screen (F1): with the rules in brief, a person who
#: never played learns the game from F1 alone
READING = """\
Reading the board. Four temples of 12 squares, each in 3 rows of 4. Square t.n is temple
 t, square n: 1-4 the top row, 5-8 the middle row, 9-12 the bottom row, left to right
 (2.7: temple 2, middle row, third square). A square shows its colour: y yellow, k black,
 g green, b blue, +n a bonus square worth n points in a scoring. [R] is a red counter,
 [B] a blue one; beside each temple's name, how many each holds there (R3 B1).
 The Kingdom of the Dead holds the removed counters: at 8 a scoring ends the round. The
 score track runs from 0 to the goal (R red, B blue, * both on one mark). At the bottom:
 each seat's cartouches 1-4 ([?] face down until both reveal) and your hand: point at 4
 cards for cartouches 1, 2, 3, 4 in order (or type assign 1 2 3 4), then a square.
 What scores: cartouche 1 (2 x the difference of the two cards) and each scoring: the
 temples, the black squares and the bonus squares, as the rules below say."""


def _cell(state: State, sq: int) -> tuple[str, str]:
    owner = state.board[sq]
    style = _SQUARE_STYLE[COLOUR[sq]]
    if owner != -1:
        return f"[{COUNTER[owner]}]", f"{style} class:seat{owner} class:counter"
    if COLOUR[sq] == BONUS:
        return f"+{BONUS_VALUE[sq]} ", style
    return f" {COLOUR[sq].lower()} ", style


class AtonBoard:
    reading = READING

    def draw(self, ctx: BoardContext) -> Drawing:
        state: State = ctx.state
        c = Canvas(ctx)
        for pair in ((1, 2), (3, 4)):
            for t in pair:
                counts = [sum(1 for k in range(12) if state.board[12 * (t - 1) + k] == i) for i in (0, 1)]
                c.put(f"Temple {t}".ljust(9), "class:heading")
                c.put(f"R{counts[0]} B{counts[1]}".ljust(11))
            c.newline()
            for row in range(3):
                for t in pair:
                    for k in range(4):
                        sq = SQUARES_PER_TEMPLE * (t - 1) + 4 * row + k
                        text, style = _cell(state, sq)
                        c.put(text, style, spot=f"sq:{sq}")
                        c.put(" ")
                    c.put("    ")
                c.newline()
        c.newline()
        self._kingdom(c, state)
        self._track(c, state)
        c.newline()
        self._cartouches(c, ctx)
        return c.drawing()

    def _kingdom(self, c: Canvas, state: State) -> None:
        dead = [s.dead for s in state.seats]
        c.put("Kingdom of the Dead ", "class:heading")
        marks = [0] * dead[0] + [1] * dead[1]
        for slot in range(KINGDOM):
            if slot < len(marks):
                c.put(f"[{COUNTER[marks[slot]]}]", f"class:seat{marks[slot]} class:counter")
            else:
                c.put("[ ]", "class:dim")
        extra = len(marks) - KINGDOM
        c.put(f" +{extra}" if extra > 0 else "")
        c.line(f"  {len(marks)}/{KINGDOM}" + ("  a scoring ends this round" if len(marks) >= KINGDOM else ""))

    def _track(self, c: Canvas, state: State) -> None:
        goal = state.win_points
        width = min(goal, _TRACK)
        ruler = "".join("|" if (i * goal // width) % 5 == 0 and i else "-" for i in range(width + 1))
        c.put("Score ", "class:heading")
        c.line("   ".join(f"{SIDES[i]} {s.score}" for i, s in enumerate(state.seats)) + f"   (first to {goal})")
        c.line(f"      0{ruler[1:]}{goal}", "class:dim")
        marks = [" "] * (width + 1)
        styles = [""] * (width + 1)
        for i, s in enumerate(state.seats):
            at = min(width, s.score * width // goal)
            marks[at] = "*" if marks[at] != " " else COUNTER[i]
            styles[at] = f"class:seat{i} class:counter"
        c.put("      ")
        for mark, style in zip(marks, styles):
            c.put(mark, style)
        c.newline()

    def _cartouches(self, c: Canvas, ctx: BoardContext) -> None:
        state: State = ctx.state
        c.line(f"{'':16}{'cartouche 1-4':<14}hand", "class:heading")
        picked = [int(s[5:]) for s in ctx.selection if s.startswith("card:")]
        for i, seat in enumerate(state.seats):
            name = ctx.names[i] if i < len(ctx.names) else ""
            c.put(f"{SIDES[i]:<5}", f"class:seat{i}")
            c.put(f" {name[:9]:<9} ")
            mine = ctx.seat == i
            if seat.cartouches is not None:
                slots = [(str(v), "class:card") for v in seat.cartouches]
            elif mine and ctx.choice is not None:
                slots = [(str(v), "class:card class:mine") for v in ctx.choice[1:5]]
            elif mine and picked:
                slots = [(str(v), "class:card class:mine") for v in picked] + [(" ", "class:dim")] * (4 - len(picked))
            elif mine:
                slots = [(" ", "class:dim")] * 4
            else:
                slots = [("?", "class:facedown")] * 4
            for text, style in slots:
                c.put(f"[{text}]", style)
            c.put("  ")
            if mine and seat.hand is not None and seat.hand_size:
                self._hand(c, seat.hand, picked)
            else:
                c.put(f"{seat.hand_size} card{'s' if seat.hand_size != 1 else ''}" if seat.hand_size else "-",
                      "class:dim")
            c.line(f"  deck {seat.deck_size}")

    def _hand(self, c: Canvas, hand: cards.Counts, picked: list[int]) -> None:
        used = list(picked)
        for v in cards.listed(hand):
            if v in used:
                used.remove(v)
                c.put(f"[{v}]", "class:used")
            else:
                c.put(f"[{v}]", "class:card", spot=f"card:{v}", show_selected=False)

    # -- pointing --------------------------------------------------------------------------------

    def picked(self, selection: tuple[str, ...]) -> str | None:
        """The cards pointed at so far fill the cartouches in order: no card has a target
        to ask for, only the next cartouche its card."""
        chosen = [s[5:] for s in selection if s.startswith("card:")]
        if not chosen:
            return None
        filled = ", ".join(f"cartouche {i + 1}: {v}" for i, v in enumerate(chosen))
        more = f"; now the card for cartouche {len(chosen) + 1}" if len(chosen) < 4 else ""
        return filled + more

    def spots(self, state: State, action: tuple) -> tuple[str, ...] | None:
        kind = action[0]
        if kind in ("remove", "place", "retrieve"):
            return (f"sq:{action[1]}",)
        if kind == "assign":
            return tuple(f"card:{v}" for v in action[1:])
        return None

    def describe(self, state: State, spot: str, names: tuple[str, ...]) -> str:
        kind, _, value = spot.partition(":")
        if kind == "sq":
            sq = int(value)
            owner = state.board[sq]
            what = _COLOUR_NAMES[COLOUR[sq]] + (f" +{BONUS_VALUE[sq]}" if COLOUR[sq] == BONUS else "")
            held = f"a {SIDES[owner]} counter ({_name(names, owner)})" if owner != -1 else "empty"
            return f"square {square_name(sq)} (temple {temple_of(sq)}, {what}): {held}"
        if kind == "card":
            return f"a {value} in your hand"
        return ""

    def situation(self, state: State, names: tuple[str, ...]) -> str:
        who = f"{SIDES[state.actor]} ({_name(names, state.actor)})"
        if state.phase == OVER:
            won = " and ".join(SIDES[w] for w in state.winners) or "nobody (a draw)"
            why = f": {state.ending}" if state.ending else ""
            return f"Round {state.round}. Game over, {won} wins{why}."
        head = f"Round {state.round}, first to {state.win_points}. "
        if state.phase == DRAW:
            return head + f"{who} draws."
        if state.phase == EXCHANGE:
            return head + f"{who} keeps the hand or exchanges it."
        if state.phase == ASSIGN:
            return head + "Both put four cards on their cartouches, in secret."
        if state.phase == TURN_UP:
            return head + "Tie on cartouches 1 and 2: cards are turned up."
        opened = state.seats[state.actor].cartouches
        temples = ("temple 1" if opened[2] == 1 else f"temples 1-{opened[2]}") if opened else "the temples"
        if state.phase == REMOVE:
            return head + f"{who} removes {state.owed} more from {temples}."
        if state.phase == PLACE:
            return head + f"{who} places {state.owed} more in {temples}."
        if state.phase == RETRIEVE:
            return head + f"{who} takes {state.owed} more own counter(s) back."
        return head

    def seat_detail(self, state: State, seat: int) -> str:
        s = state.seats[seat]
        return f"{SIDES[seat]}: supply {s.supply}, deck {s.deck_size}, white {'yes' if s.exchange else 'used'}"


def _name(names: tuple[str, ...], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


BOARD = AtonBoard()
__all__ = ["BOARD", "AtonBoard"]
