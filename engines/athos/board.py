"""The Athos board as data: hexes, their names and colours, start areas, the summit, adjacency.

This is the reconstruction drawn in rules/athos.md (no public source gives the printed graph).
Nothing here knows a rule; a faithful scan of the printed board could replace this one file.

Every place a monk can stand is a *node*, numbered once at import:

* hexes `0 … 131`, row by row from the valley (`a1 … a17`, `b1 … b16`, …, `k1 … k7`);
* the start areas `A … E` (`132 … 136`), each one node holding any number of monks;
* the summit (`137`).

Hexes use axial coordinates `(q, r)`: row `r = 0 … 10` (a … k) holds `q = 0 … 16 − r`.
"""
from __future__ import annotations

ROW_LETTERS = "abcdefghijk"
ROWS = len(ROW_LETTERS)

#: colour names, their one-letter forms and the rows each colour covers (valley to summit)
COLOURS = ("green", "yellow", "orange", "brown", "white")
COLOUR_LETTERS = ("G", "Y", "O", "B", "W")
_COLOUR_OF_ROW = (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4)

#: start area -> the hexes (q, r) it touches
_START_TOUCHES = {
    "A": ((1, 0), (2, 0), (3, 0)),
    "B": ((4, 0), (5, 0), (6, 0)),
    "C": ((7, 0), (8, 0), (9, 0)),
    "D": ((10, 0), (11, 0), (12, 0)),
    "E": ((13, 0), (14, 0), (15, 0)),
}
START_NAMES = ("A", "B", "C", "D", "E")
SUMMIT_NAME = "summit"


def _row_length(r: int) -> int:
    return 17 - r


#: (q, r) of every hex, in node order
COORDS: tuple[tuple[int, int], ...] = tuple(
    (q, r) for r in range(ROWS) for q in range(_row_length(r))
)
HEX_COUNT = len(COORDS)
_INDEX = {qr: i for i, qr in enumerate(COORDS)}

#: node numbers of the start areas and the summit
START_AREAS: tuple[int, ...] = tuple(HEX_COUNT + i for i in range(len(START_NAMES)))
SUMMIT = HEX_COUNT + len(START_NAMES)
NODE_COUNT = SUMMIT + 1

#: node -> its name ("a1", "k7", "A", "summit")
NODE_NAMES: tuple[str, ...] = (
    tuple(f"{ROW_LETTERS[r]}{q + 1}" for q, r in COORDS) + START_NAMES + (SUMMIT_NAME,)
)
#: hex -> colour index into COLOURS
HEX_COLOUR: tuple[int, ...] = tuple(_COLOUR_OF_ROW[r] for _, r in COORDS)


def _hex_neighbours(q: int, r: int) -> list[int]:
    around = ((q + 1, r), (q - 1, r), (q, r + 1), (q - 1, r + 1), (q, r - 1), (q + 1, r - 1))
    return [_INDEX[qr] for qr in around if qr in _INDEX]


def _adjacency() -> tuple[tuple[int, ...], ...]:
    links: list[set[int]] = [set() for _ in range(NODE_COUNT)]
    for i, (q, r) in enumerate(COORDS):
        links[i].update(_hex_neighbours(q, r))
    for area, name in zip(START_AREAS, START_NAMES):
        for qr in _START_TOUCHES[name]:
            links[area].add(_INDEX[qr])
            links[_INDEX[qr]].add(area)
    for q in range(_row_length(ROWS - 1)):
        top = _INDEX[(q, ROWS - 1)]
        links[SUMMIT].add(top)
        links[top].add(SUMMIT)
    # sorted, so every walk over the board visits neighbours in one fixed order
    return tuple(tuple(sorted(s)) for s in links)


#: node -> its neighbouring nodes, ascending
NEIGHBOURS: tuple[tuple[int, ...], ...] = _adjacency()
