"""Who wins: the four categories, then the tie-breaks (rules/asterix.md, "End and scoring")."""
from __future__ import annotations

from peerboard.engines.asterix.board import BOAR, MENHIR, SCORING_KINDS
from peerboard.engines.asterix.state import Pile


def categories_won(piles: tuple[Pile, ...]) -> list[int]:
    """For each seat, how many of the four categories it wins.

    A category goes to the one seat with the most tiles of it; a tie for the most
    (including everyone at zero) wins it for nobody.
    """
    won = [0] * len(piles)
    for kind in SCORING_KINDS:
        best = max(pile[kind] for pile in piles)
        holders = [seat for seat, pile in enumerate(piles) if pile[kind] == best]
        if len(holders) == 1:
            won[holders[0]] += 1
    return won


def ranking_key(piles: tuple[Pile, ...], seat: int, won: list[int]) -> tuple[int, int, int, int]:
    """What decides between seats: categories won, then Menhirs, then Boars, then tiles."""
    pile = piles[seat]
    return (won[seat], pile[MENHIR], pile[BOAR], sum(pile))


def winners(piles: tuple[Pile, ...]) -> list[int]:
    """The seats that share the best ranking key (one seat unless still tied at the end)."""
    won = categories_won(piles)
    keys = [ranking_key(piles, seat, won) for seat in range(len(piles))]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
