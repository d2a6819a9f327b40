"""Test only (tests/lan/test_lan_disputes.py): `peerboard` changed, as any player could change
it in a few lines, to claim the other seat of a two-seat game while that seat is present and
playing (issue 39).

    python tests/programs/cheating_claimer.py AFTER PEERBOARD-ARGS...

runs `peerboard PEERBOARD-ARGS...` in this process; once its log holds AFTER entries and the
other seat is the one to move, its session believes that seat silent since long ago, so its
seat (a `--headless` one claims a claimable seat at once) claims it: a claim signed by one
seat alone, of a seat that is there. Nothing in peerboard itself knows of this file.
"""
from __future__ import annotations

import sys

from peerboard.client.cli import main
from peerboard.protocol.session.play import Play

LONG_AGO = 1e9


def plant(after: int) -> None:
    real_tick, real_away = Play.tick, Play.away_for
    claimed: set[int] = set()

    def tick(self: Play, now: float, beat: bool) -> list:
        ledger = self.ledger
        if self.seat is not None and len(self.entries) >= after and ledger.may_end():
            other, kind = ledger.entitled()
            if other != self.seat and kind == "move":
                self.away.add(other)  # (it is not: it is thinking about its move)
                claimed.add(other)
        return real_tick(self, now, beat)

    def away_for(self: Play, index: int, now: float) -> float | None:
        return LONG_AGO if index in claimed else real_away(self, index, now)

    Play.tick = tick
    Play.away_for = away_for


if __name__ == "__main__":
    plant(int(sys.argv[1]))
    sys.exit(main(sys.argv[2:]))
