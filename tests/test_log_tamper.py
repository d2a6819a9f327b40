"""A saved log is self-verifying: any change to it makes `replay --verify` fail at the
record that was changed, with the reason."""
import random

import pytest

import engines
from client.selfplay import play_one
from engines.playout import random_action
from protocol.builder import LogBuilder
from protocol.identity import Identity
from protocol.logfile import frame, frames, header_frame, read_log
from protocol.records import Entry, Genesis, Seat, make_entry, sign_genesis
from protocol.replay import verify_log

GAME = engines.get("aton")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "game.pblog"
    play_one(GAME, 2, {"win_points": 12}, random.Random(5), path)
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
    assert verdict.entries == len(spans) - 2 and verdict.chain.finished


def _frames_to_check(spans):
    """Every byte of the header, genesis, first two entries and the last entry; a sample elsewhere."""
    whole = {0, 1, 2, 3, len(spans) - 1}
    rng = random.Random(9)
    for index, (start, end) in enumerate(spans):
        positions = range(start, end) if index in whole else rng.sample(range(start, end), 3)
        for pos in positions:
            yield index, pos


def test_flipping_any_byte_fails_at_that_record(saved):
    data, spans = saved
    checked = 0
    for index, pos in _frames_to_check(spans):
        for mask in (0x01, 0x80):
            verdict = verify_log(_flip(data, pos, mask))
            assert not verdict.ok, f"flip at byte {pos} (frame {index}) went unnoticed"
            assert verdict.bad_seq == _seq_of_frame(index), (
                f"flip at byte {pos} in frame {index}: reported {verdict.summary()}"
            )
            checked += 1
    assert checked > 500


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
    assert verify_log(b"").summary() == "invalid at header: empty file: not a peerboard log"
    assert not verify_log(b"\x00\x00\x00\x05hello").ok
    assert not verify_log(bytes(range(256)) * 10).ok


# -- properly signed entries that break the rules ---------------------------------------------


def _table():
    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(2)]
    genesis = Genesis("aton", GAME.version, {}, tuple(Seat(f"p{i}", x.public_key) for i, x in enumerate(ids)), b"\x07" * 16)
    return LogBuilder(sign_genesis(genesis, ids), ids), ids


def _verify(builder, extra):
    g = builder.chain.genesis
    data = header_frame() + frame(g.record()) + b"".join(frame(e.record()) for e in [*builder.entries, extra])
    return verify_log(data)


def test_a_signed_illegal_action_fails_as_illegal():
    log, ids = _table()
    for _ in range(8):
        log.chance(bytes(32))
    bad = make_entry(ids[0], log.chain.next_seq, log.chain.head, 0, "move", {"actions": [("place", 3)]})
    verdict = _verify(log, bad)
    assert verdict.bad_seq == 9 and "illegal action" in verdict.why and "not allowed now" in verdict.why


def test_an_entry_by_the_wrong_seat_fails_as_wrong_seat():
    log, ids = _table()
    for _ in range(8):
        log.chance(bytes(32))
    bad = make_entry(ids[1], log.chain.next_seq, log.chain.head, 1, "move", {"actions": [("keep",)]})
    verdict = _verify(log, bad)
    assert verdict.bad_seq == 9 and "wrong seat" in verdict.why


def test_a_chance_outcome_its_entropy_does_not_pick_fails():
    log, ids = _table()
    entropy = bytes(32)
    picked = GAME.sample_chance(log.state, entropy)
    other = next(a for a in GAME.legal_actions(log.state) if a != picked)
    bad = make_entry(ids[0], 1, log.chain.head, 0, "chance", {"outcome": other, "entropy": entropy})
    verdict = _verify(log, bad)
    assert verdict.bad_seq == 1 and "entropy" in verdict.why


def test_a_result_that_does_not_match_the_game_fails():
    # a whole short game, then the loser's key signs a result that names it the winner
    log, ids = _table()
    rng = random.Random(1)
    while not GAME.is_terminal(log.state):
        if GAME.current(log.state) == engines.CHANCE:
            log.chance(rng.randbytes(32))
        else:
            log.move(random_action(GAME, log.state, rng))
    body = log.chain.result_body()
    body["winners"] = [1 - w for w in body["winners"]] or [0]
    bad = make_entry(ids[0], log.chain.next_seq, log.chain.head, 0, "result", body)
    verdict = _verify(log, bad)
    assert not verdict.ok and verdict.bad_seq == log.chain.next_seq
    assert "result does not match" in verdict.why


def test_a_genesis_signed_by_only_one_seat_fails_at_seq_0():
    log, ids = _table()
    g = log.chain.genesis
    forged = g.record()
    forged["sigs"] = [forged["sigs"][0], forged["sigs"][0]]
    verdict = verify_log(header_frame() + frame(forged))
    assert not verdict.ok and verdict.bad_seq == 0 and "genesis signature of seat 1" in verdict.why
