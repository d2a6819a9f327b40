"""Writes the table of protocol/log/writers.py into spec/log-format.md ("Who writes the next
entry"), between its two markers: `python tests/support/writers_table.py`.
tests/spec/test_writers_table.py checks that the spec holds it word for word."""
from __future__ import annotations

import sys
from pathlib import Path

from peerboard.protocol.log.writers import markdown

SPEC = Path(__file__).resolve().parents[2] / "spec" / "log-format.md"
BEGIN = "<!-- the table of protocol/log/writers.py (python tests/support/writers_table.py writes it) -->\n"
END = "<!-- the end of the table of protocol/log/writers.py -->\n"


def spec_table(text: str) -> str:
    """The table between the markers of the spec's `text`; ValueError if they are not there."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[start:text.index(END, start)].strip("\n") + "\n"


def written(text: str) -> str:
    """`text` with the table between its markers written again from the module."""
    start = text.index(BEGIN) + len(BEGIN)
    # (blank lines around it: a Markdown table ends at a blank line)
    return text[:start] + "\n" + markdown() + "\n" + text[text.index(END, start):]


if __name__ == "__main__":
    before = SPEC.read_text()
    after = written(before)
    SPEC.write_text(after)
    print(f"{SPEC}: {'unchanged' if after == before else 'the table written again'}")
    sys.exit(0)
