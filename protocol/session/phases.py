"""How a session moves from phase to phase (spec/protocol.md, "Phases").

A session's phase changes only by a milestone, and only as `TRANSITIONS` says: the table
is the whole of it. HALTED is final: nothing takes a session out of it. OVER is final for
the game: nothing takes it back to forming or playing, and only a halt leaves it (a fault
of ours, or a desync or an equivocation that the last acks or a late proof show: the game
is over, but it must not look as if all were well).
"""
from __future__ import annotations

import enum

from peerboard.protocol.session.surface import Phase


class Milestone(enum.Enum):
    """What moves a session to another phase."""

    PROPOSED = "proposed"  # the host proposed a genesis (or a new one, in place of the last)
    WITHDRAWN = "withdrawn"  # the host withdrew its proposal: a seat was lost while signing
    STARTED = "started"  # the genesis is complete and signed by every seat
    ENDED = "ended"  # every seat has signed the result
    HALTED = "halted"  # a desync, an equivocation, or an internal fault of ours


F, S, P, O, H = Phase.FORMING, Phase.SIGNING, Phase.PLAYING, Phase.OVER, Phase.HALTED
M = Milestone
#: (spec/protocol.md, "Phases") phase -> milestone -> the phase it leads to; a milestone
#: missing from a phase's row cannot happen there
TRANSITIONS: dict[Phase, dict[Milestone, Phase]] = {
    # a seat or a spectator handed the whole genesis starts even if it missed the proposal
    F: {M.PROPOSED: S, M.STARTED: P, M.HALTED: H},
    S: {M.PROPOSED: S, M.WITHDRAWN: F, M.STARTED: P, M.HALTED: H},
    P: {M.ENDED: O, M.HALTED: H},
    O: {M.HALTED: H},
    H: {},
}
del F, S, P, O, H, M


class TransitionError(RuntimeError):
    """A milestone where the phase table has none: a bug of the session (its fault, not a peer's)."""


def next_phase(phase: Phase, milestone: Milestone) -> Phase:
    """The phase `milestone` leads to from `phase`; TransitionError if it cannot happen there."""
    try:
        return TRANSITIONS[phase][milestone]
    except KeyError:
        raise TransitionError(f"a session in phase {phase.name} cannot have {milestone.value}") from None
