"""How much of a property test or a sweep of seeds a run plays. The default run (`make check`,
`make test`) plays a third of each, enough to catch a rule broken anywhere common; `--long`
(tests/conftest.py sets PEERBOARD_LONG=1 for it) plays all of it. The examples a property
test draws are new every run, so the default runs cover the whole over time."""
from __future__ import annotations

import os

LONG = os.environ.get("PEERBOARD_LONG") == "1"


def examples(n: int) -> int:
    """A hypothesis test's max_examples: `n` with --long, a third of it (at least 50) otherwise."""
    return n if LONG else max(50, n // 3)


def seeds(n: int) -> range:
    """The seeds of a sweep: all `n` with --long, a third of them (at least 2) otherwise."""
    return range(n if LONG else min(n, max(2, n // 3)))
