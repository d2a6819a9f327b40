"""Who writes the next entry is one table (protocol/log/writers.py), and spec/log-format.md
shows that table: the same rows, word for word, every kind of entry in it, every row of it
met by the conformance vectors."""

import pytest

from peerboard.protocol.log import read_log
from peerboard.protocol.log.ledger import Ledger, LedgerError
from peerboard.protocol.log.schema import BODIES
from peerboard.protocol.log.writers import DUE, IN_PLACE, due, markdown
from support.vectors import VECTORS
from support.writers_table import SPEC, spec_table

VALID = sorted(VECTORS.glob("*.pblog"))


def test_the_spec_shows_the_table_the_ledger_consults():
    assert spec_table(SPEC.read_text()) == markdown(), \
        "spec/log-format.md's table is not protocol/log/writers.py's: run python tests/support/writers_table.py"


def test_every_kind_of_entry_has_a_row_of_the_table():
    kinds = {row.kind for row in DUE if row.kind is not None} | set(IN_PLACE)
    assert kinds == set(BODIES)


def test_the_table_reads_top_to_bottom_each_stage_ending_in_a_row_that_always_holds():
    stages = list(dict.fromkeys(row.stage for row in DUE))
    assert [row.stage for row in DUE] == sorted((row.stage for row in DUE), key=stages.index)  # grouped
    for stage in stages:
        assert [row for row in DUE if row.stage is stage][-1].when.words in ("always", "otherwise")


def _rows_met() -> tuple[set, set]:
    """The rows of `DUE` that named an entry due somewhere in the valid vectors (or the end
    of one), and the kinds of `IN_PLACE` that stood in place of one."""
    rows, in_place = set(), set()
    for path in VALID:
        if path.name.startswith("athos-engine-"):
            continue  # (an older engine's log: invalid at its genesis)
        contents = read_log(path.read_bytes())
        ledger = Ledger.start(contents.genesis)
        for entry in contents.entries:
            rows.add(DUE.index(due(ledger)))
            if entry.kind in IN_PLACE:
                in_place.add(entry.kind)
            ledger = ledger.check(entry)
        rows.add(DUE.index(due(ledger)))
        with pytest.raises(LedgerError, match="result is signed by every seat|a protest|protested"):
            ledger.entitled()  # every valid vector is finished (its result signed, or a protest ended it)
    return rows, in_place


def test_every_row_of_the_table_is_met_in_the_conformance_vectors():
    rows, in_place = _rows_met()
    # (a `chain` entry comes after 4,096 reveals of one seat: more than a vector holds;
    # tests/spec/test_spec_standard.py spends a chain to meet that row)
    assert [DUE[i].kind for i in range(len(DUE)) if i not in rows] == ["chain"]
    assert in_place == set(IN_PLACE)
