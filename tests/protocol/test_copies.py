"""Copies of one game compared (protocol/log/copies.py; spec/log-format.md, "Copies of a
game"): copies that agree are one game; where they fork, the seats' own signatures say why —
a seat that signed two histories equivocated, a claim one seat signed alone is disputed by
the claimed seat's own entry — and neither a file's name nor the order the copies come in
changes what is found."""
import random

from peerboard import engines
from peerboard.protocol.log import make_entry, read_log, verify_contents
from peerboard.protocol.log.copies import Copy, compare, group
from support.forged import forgery, log_bytes, replayed, table


def copy(name, data):
    contents = read_log(data)
    return Copy(name, contents, verify_contents(contents))


def test_copies_that_agree_are_one_game_and_the_longest_stands():
    f = forgery(1)
    whole = copy("ann.pblog", f.honest)
    same = copy("bob.pblog", f.honest)
    start = copy("watcher.pblog", log_bytes(f.builder, f.honest_entries[:30]))  # (a spectator that left early)
    for order in ([whole, same, start], [start, same, whole]):
        found = compare(order)
        assert found.standing.contents.entries == whole.contents.entries
        assert found.words() == [] and found.fork is None and not found.equivocations and not found.disputes
    assert len(group([whole, same, start])) == 1


def test_a_forged_claim_beside_the_honest_copy_names_the_forger_whichever_comes_first():
    f = forgery(1)
    honest, forged = copy("a.pblog", f.honest), copy("b.pblog", f.forged)
    assert honest.verdict.ok and forged.verdict.ok  # each alone verifies
    assert forged.verdict.ledger.result_body()["winners"] == [f.loser]  # ... and the forged one says the loser won
    findings = [compare([honest, forged]), compare([forged, honest])]
    assert findings[0].words() == findings[1].words()
    found = findings[0]
    assert found.equivocators == (f.loser,) and found.standing is None
    e = found.equivocations[0]
    assert e.at == f.cut and e.first.seq == f.cut and e.first.copy == "b.pblog" and e.second.copy == "a.pblog"
    assert f"seat {f.loser} (p{f.loser}) equivocated: it signed two histories of entry {f.cut}" in found.words()[0]
    # and its claim is contradicted by the claimed seat's own entry there
    d = found.disputes[0]
    assert (d.gone, d.claimer, d.seq, d.evidence.seq, d.evidence.copy) == (f.winner, f.loser, f.cut, f.cut, "a.pblog")


def test_a_forged_claim_beside_a_copy_cut_before_the_forger_signed_again_is_disputed():
    """The claimed seat's copy of the game holds its own entries from the claim's seq on,
    and nothing the forger signed after: no equivocation is proven, the claim is disputed."""
    f = forgery(2, back=2)
    honest = f.honest_entries
    # (up to before the forger's next signature: an entry of its own, or its part of the results)
    stop = next(e.seq for e in honest if e.seq > f.cut and (e.seat == f.loser or e.kind == "results"))
    mine = copy("winner.pblog", log_bytes(f.builder, honest[: stop - 1]))
    found = compare([mine, copy("forged.pblog", f.forged)])
    assert not found.equivocations and found.standing is None
    assert [(d.gone, d.seq) for d in found.disputes] == [(f.winner, f.cut)]
    assert found.disputes[0].evidence.what == "its move"
    assert "is disputed: seat" in found.words()[0]


def test_two_different_entries_one_seat_signed_for_one_seq_are_an_equivocation():
    builder, rng = table(7)
    choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
    for _ in range(12):
        builder.step(choose)
    entries = list(builder.entries)
    # the seat to move signs two different moves for the next seq
    other = replayed(builder, entries)
    seat, kind = builder.ledger.entitled()
    while kind != "move":
        builder.step(choose)
        other = replayed(builder, list(builder.entries))
        seat, kind = builder.ledger.entitled()
    legal = builder.game.legal_actions(builder.state)
    assert len(legal) > 1
    ledger = builder.ledger
    one = make_entry(builder.identities[seat], ledger.next_seq, ledger.head, seat, "move",
                     {"actions": [legal[0]], "nonce": None})
    two = make_entry(builder.identities[seat], ledger.next_seq, ledger.head, seat, "move",
                     {"actions": [legal[1]], "nonce": None})
    a = copy("a.pblog", log_bytes(builder, list(builder.entries) + [one]))
    b = copy("b.pblog", log_bytes(builder, list(builder.entries) + [two]))
    assert a.verdict.ok and b.verdict.ok
    found = compare([a, b])
    assert [(e.seat, e.at) for e in found.equivocations] == [(seat, ledger.next_seq)]
    assert found.disputes == () and found.standing is None


def test_a_claim_every_other_seat_signed_stands_beside_the_claimed_seats_own_copy():
    """Three seats: seats 1 and 2 claim seat 0 where it was to move; seat 0's own copy holds
    the move it wrote there, which neither of them took. The claim stands; that copy is set
    aside, and nobody is disputed or named."""
    builder, rng = table(3, "asterix", {"max_rounds": 2}, players=3)
    choose = lambda state, seat, legal: legal[rng.randrange(len(legal))]  # noqa: E731
    while True:
        seat, kind = builder.ledger.entitled()
        if seat == 0 and kind == "move" and len(builder.entries) > 5:
            break
        builder.step(choose)
    before = list(builder.entries)
    stale = replayed(builder, before)
    stale.step(choose)  # seat 0's move, which never reached the others
    claimed = replayed(builder, before)
    claimed.claim(0)
    claimed.play(choose)
    found = compare([copy("seat0.pblog", log_bytes(stale, stale.entries)),
                     copy("seat1.pblog", log_bytes(claimed, claimed.entries))])
    assert not found.equivocations and not found.disputes
    assert found.standing.name == "seat1.pblog" and [c.name for c in found.set_aside] == ["seat0.pblog"]
    assert found.words() == ["seat0.pblog holds entries of a seat the others claimed, which none of them took; "
                             "the claim stands"]


def test_a_signature_in_the_results_commits_its_signer_to_the_history_before_them():
    """The honest game's last entries are all the winner's: what the loser signed after the
    seq it forged a claim at is only its signature of the results — which is enough."""
    f = forgery(2, back=2)
    assert all(e.seat == f.winner for e in f.honest_entries[f.cut - 1:])
    found = compare([copy("honest.pblog", f.honest), copy("forged.pblog", f.forged)])
    assert [(e.seat, e.at) for e in found.equivocations] == [(f.loser, f.cut)]
    assert found.equivocations[0].second.what == "its signature of the results"


def test_a_protest_disputes_the_claim_in_its_own_copy_and_beside_the_claimers():
    """A claim of a present seat, live: the claimer's copy says it won by claim; the claimed
    seat's copy holds its protest, carrying the move the claim displaced. Alone, that copy
    names the dispute; beside the claimer's, the two fork right after the claim, and nobody
    signed two histories: the claim is disputed, whichever copy comes first."""
    from support.forged import disputed

    d = disputed(1)
    mine = copy("claimed.pblog", d.claimed_copy)
    theirs = copy("claimer.pblog", d.claimer_copy)
    assert mine.verdict.ok and mine.verdict.ledger.finished and "disputed" in mine.verdict.summary()
    assert theirs.verdict.ok and theirs.verdict.ledger.result_body()["winners"] == [d.claimer]
    alone = compare([mine])
    assert [(x.gone, x.seq, x.evidence.seq, x.evidence.what) for x in alone.disputes] == [
        (d.claimed, d.claim, d.claim, "its move (its protest carries it)")]
    assert alone.standing is mine
    for order in ([mine, theirs], [theirs, mine]):
        found = compare(order)
        assert not found.equivocations and found.standing is None and found.fork == d.claim + 1
        (x,) = found.disputes
        assert (x.claimer, x.gone, x.seq, x.copy, x.evidence.copy) == (d.claimer, d.claimed, d.claim, "claimed.pblog",
                                                                       "claimed.pblog")
    assert compare([mine, theirs]).words() == compare([theirs, mine]).words()
