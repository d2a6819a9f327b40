"""Wrong codes at a private table, and what they cost the guesser (spec/protocol.md,
"Private tables").

A knock is checked in one SHA-256, so a host that checked every hello would let anyone try
thousands of codes a second. The host counts the wrong codes and backs off, per source (the
network address a hello came from: fresh keys are free, addresses are not) and in total (a
guesser with many addresses): after a wrong code, no knock from that source is checked for
`1 s × 2^(k−1)` (k its wrong codes so far, at most `SOURCE_MOST`), and no knock from anyone
for `max(1 s, W / 10 s)` (W the wrong codes in all, at most `TOTAL_MOST`). A knock that comes
while it waits is not checked at all — right or wrong, it is told to come back — so online
guessing costs at least a second a guess, more as it goes on. Sans-IO: time is an argument.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SOURCE_MOST = 300.0  # seconds: the longest wait one source is given
TOTAL_MOST = 30.0  # seconds: the longest wait everyone is given
SOURCES_KEPT = 1024  # the sources remembered, the one heard longest ago forgotten first


def source_wait(wrong: int) -> float:
    """How long a source that gave `wrong` wrong codes waits after its last one."""
    return 0.0 if wrong <= 0 else min(SOURCE_MOST, 2.0 ** (wrong - 1))


def total_wait(wrong: int) -> float:
    """How long every source waits after the last of `wrong` wrong codes in all."""
    return 0.0 if wrong <= 0 else min(TOTAL_MOST, max(1.0, wrong / 10))


@dataclass
class Guesses:
    """The wrong codes a host was given: how many, and from where."""

    wrong: int = 0  # in all, since the table opened
    last: float = -1e18  # when the last wrong code came
    #: source -> (its wrong codes, when its last one came), the oldest first
    sources: dict[str, tuple[int, float]] = field(default_factory=dict)

    def wait(self, source: str, now: float) -> float:
        """Seconds until a knock from `source` is checked (0: now)."""
        count, at = self.sources.get(source, (0, -1e18))
        return max(0.0, self.last + total_wait(self.wrong) - now, at + source_wait(count) - now)

    def missed(self, source: str, now: float) -> None:
        """A wrong code came from `source` now."""
        count, _ = self.sources.pop(source, (0, 0.0))
        self.sources[source] = (count + 1, now)
        if len(self.sources) > SOURCES_KEPT:
            del self.sources[next(iter(self.sources))]
        self.wrong += 1
        self.last = now

    def from_source(self, source: str) -> int:
        return self.sources.get(source, (0, 0.0))[0]
