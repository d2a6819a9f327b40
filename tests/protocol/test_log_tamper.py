"""A saved log is self-verifying: any change to it makes `replay --verify` fail at the
record that was changed, with the reason."""
import random

import pytest

from support.budget import LONG
from peerboard import engines
from peerboard.client.selfplay import play_one
from peerboard.protocol.log.builder import LogBuilder
from peerboard.protocol.log.logfile import frame, frames, header_frame, read_log
from peerboard.protocol.log.records import Entry, make_entry
from peerboard.protocol.log.replay import verify_log

GAME = engines.get("aton")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "game.pblog"
    play_one(GAME, 2, {"win_points": 8}, random.Random(5), path)  # 22 records: moves, commits, reveals, audits, results
    data = path.read_bytes()
    spans = [(off, off + 4 + len(raw)) for off, raw, _ in frames(data)]
    return data, spans


def _seq_of_frame(index):
    return None if index == 0 else index - 1  # frame 0 is the header, frame 1 the genesis


def _flip(data, pos, mask=0x01):
    return data[:pos] + bytes([data[pos] ^ mask]) + data[pos + 1 :]


def test_the_untouched_log_is_valid(saved):
    data, spans = saved
    verdict = verify_log(data)
    assert verdict.ok, verdict.summary()
    assert verdict.entries == len(spans) - 2 and verdict.ledger.finished


def _frames_to_check(spans):
    """Every byte of the header, genesis, first two entries and the last entry; a sample
    elsewhere (one byte a record, three with --long: each check re-verifies the log up to the
    record, so the samples cost the square of the game's length). Each byte is flipped once,
    in its lowest bit at even offsets and its highest at odd ones (both bits with --long): a
    msgpack type byte and a length's top bit are both hit in every record."""
    whole = {0, 1, 2, 3, len(spans) - 1}
    rng = random.Random(9)
    for index, (start, end) in enumerate(spans):
        positions = range(start, end) if index in whole else rng.sample(range(start, end), 3 if LONG else 1)
        for pos in positions:
            for mask in (0x01, 0x80) if LONG else ((0x01, 0x80)[pos % 2],):
                yield index, pos, mask


@pytest.mark.timeout(900)  # CPU-bound: on a loaded machine its wall time is several times its CPU time
def test_flipping_any_byte_fails_at_that_record(saved):
    """Slow (about 3-8 s): each flip re-verifies the log up to the record it hit, a thousand times."""
    data, spans = saved
    checked = 0
    for index, pos, mask in _frames_to_check(spans):
        verdict = verify_log(_flip(data, pos, mask))
        assert not verdict.ok, f"flip of {mask:#04x} at byte {pos} (frame {index}) went unnoticed"
        assert verdict.bad_seq == _seq_of_frame(index), (
            f"flip of {mask:#04x} at byte {pos} in frame {index}: reported {verdict.summary()}"
        )
        checked += 1
    assert checked > 1000


def _rebuild(data, spans, order):
    return b"".join(data[spans[i][0] : spans[i][1]] for i in order)


def test_dropping_an_entry_fails_at_its_seq(saved):
    data, spans = saved
    for k in (2, 10, len(spans) - 2):
        order = [i for i in range(len(spans)) if i != k]
        verdict = verify_log(_rebuild(data, spans, order))
        assert not verdict.ok and verdict.bad_seq == k - 1
        assert "out of order" in verdict.why


def test_reordering_two_entries_fails_at_the_first(saved):
    data, spans = saved
    k = 6
    order = list(range(len(spans)))
    order[k], order[k + 1] = order[k + 1], order[k]
    verdict = verify_log(_rebuild(data, spans, order))
    assert not verdict.ok and verdict.bad_seq == k - 1


def test_swapping_two_signatures_fails_at_the_first(saved):
    data, spans = saved
    contents = read_log(data)
    entries = list(contents.entries)
    a, b = entries[4], entries[5]
    entries[4] = Entry(a.seq, a.prev, a.seat, a.kind, a.body, b.sig)
    entries[5] = Entry(b.seq, b.prev, b.seat, b.kind, b.body, a.sig)
    rebuilt = header_frame() + frame(contents.genesis.record()) + b"".join(frame(e.record()) for e in entries)
    verdict = verify_log(rebuilt)
    assert not verdict.ok and verdict.bad_seq == 5 and "bad signature" in verdict.why


def test_a_truncated_file_fails_at_the_cut_record(saved):
    data, spans = saved
    start, end = spans[20]
    verdict = verify_log(data[: start + 7])
    assert not verdict.ok and verdict.bad_seq == 19 and "truncated" in verdict.why


def test_garbage_and_empty_files_are_not_logs():
    assert verify_log(b"").summary() == "invalid at header [header]: empty file: not a peerboard log"
    assert not verify_log(b"\x00\x00\x00\x05hello").ok
    assert not verify_log(bytes(range(256)) * 10).ok


# -- properly signed entries that break the rules ---------------------------------------------


def _table(knows_hidden=True, players=2, game=GAME, options=None):
    rng = random.Random(3)
    return LogBuilder.table(
        game, options or {}, [f"p{i}" for i in range(players)], [rng.randbytes(32) for _ in range(players)],
        [bytes([i + 1]) * 32 for i in range(players)], b"\x07" * 16, lambda: rng.randbytes(16), knows_hidden,
    )


def _first(log, kind, rng=random.Random(4)):
    """Play on until the next entry is of this kind."""
    while log.ledger.entitled()[1] != kind:
        log.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    return log


def _forge(log, seat, kind, body):
    return make_entry(log.identities[seat], log.ledger.next_seq, log.ledger.head, seat, kind, body)


def _verify(log, *extra):
    g = log.ledger.genesis
    return verify_log(header_frame() + frame(g.record()) + b"".join(frame(e.record()) for e in [*log.entries, *extra]))


def test_a_signed_illegal_action_fails_as_illegal():
    log = _first(_table(), "move")
    seat, _ = log.ledger.entitled()
    verdict = _verify(log, _forge(log, seat, "move", {"actions": [("place", 3)], "nonce": None}))
    assert verdict.bad_seq == log.ledger.next_seq and "illegal action" in verdict.why and "not allowed now" in verdict.why


def test_an_entry_by_the_wrong_seat_fails_as_wrong_seat():
    log = _first(_table(), "move")
    seat, _ = log.ledger.entitled()
    verdict = _verify(log, _forge(log, 1 - seat, "move", {"actions": [("keep",)], "nonce": None}))
    assert verdict.bad_seq == log.ledger.next_seq and "wrong seat" in verdict.why


def test_a_reveal_that_is_not_the_next_hash_chain_value_fails_as_biased():
    log = _table()
    verdict = _verify(log, _forge(log, 0, "reveal", {"value": bytes(32)}))
    assert verdict.bad_seq == 1 and "does not match its hash chain" in verdict.why


def test_a_replayed_old_reveal_fails():
    log = _table()
    log.step(None)  # seat 0's first reveal
    _first(log, "move")
    _first(log, "reveal")
    assert log.ledger.entitled() == (0, "reveal")
    old = log.entries[0].body["value"]
    verdict = _verify(log, _forge(log, 0, "reveal", {"value": old}))
    assert verdict.bad_seq == log.ledger.next_seq and "does not match its hash chain" in verdict.why


def test_a_replayed_old_entry_fails_as_out_of_order():
    log = _first(_table(), "move")
    verdict = _verify(log, log.entries[0])
    assert verdict.bad_seq == log.ledger.next_seq and "out of order" in verdict.why


def test_a_secret_choice_revealed_differently_from_its_commitment_fails():
    log = _first(_table(), "commit")
    rng = random.Random(5)
    log.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])  # seat 0 commits
    log.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])  # seat 1 commits
    seat, kind = log.ledger.entitled()
    assert kind == "move"
    real, nonce = log._chosen[seat]
    other = next(a for a in GAME.legal_actions(log.state) if a != real[0])
    verdict = _verify(log, _forge(log, seat, "move", {"actions": [other], "nonce": nonce}))
    assert verdict.bad_seq == log.ledger.next_seq and "does not match its commitment" in verdict.why


def _finish(log):
    rng = random.Random(1)
    log.play(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    return log


def test_a_result_that_does_not_match_the_game_fails():
    log = _first(_table(), "result")
    body = log.ledger.result_body()
    body["winners"] = [1 - w for w in body["winners"]] or [0]
    verdict = _verify(log, _forge(log, 0, "result", body))
    assert not verdict.ok and verdict.bad_seq == log.ledger.next_seq
    assert "result does not match" in verdict.why


def test_the_audit_names_a_seat_that_claimed_cards_it_did_not_hold():
    # This table's seats follow only the public view, so they assign "cards" that are
    # plausible to an onlooker but are not their hidden hands: only the audit can tell.
    log = _finish(_table(knows_hidden=False))
    assert log.ledger.cheats
    verdict = _verify(log)
    assert not verdict.ok and verdict.failure == "audit" and "the audit: seat" in verdict.why
    # reported at the last audit entry, where every seed is known and the lie is proven;
    # the reason names the move that lied
    audits = [e.seq for e in log.entries if e.kind == "audit"]
    assert verdict.bad_seq == audits[-1]
    liar_seq = int(verdict.why.split("lied at seq ")[1].split()[0])
    assert log.entries[liar_seq - 1].kind == "move"
    assert log.entries[-1].body["cheats"] == tuple(log.ledger.cheats)


def test_an_honest_game_passes_the_audit():
    log = _finish(_table())
    assert log.ledger.cheats == () and _verify(log).ok


def test_a_genesis_signed_by_only_one_seat_fails_at_seq_0():
    log = _table()
    forged = log.ledger.genesis.record()
    forged["sigs"] = [forged["sigs"][0], forged["sigs"][0]]
    verdict = verify_log(header_frame() + frame(forged))
    assert not verdict.ok and verdict.bad_seq == 0 and "genesis signature of seat 1" in verdict.why
