"""`resume` never destroys a log (issue 22, points 1 and 3). The only thing it ever cuts is a
torn tail — the record a crash cut short while it was being appended — and that is kept in a
file beside the log first. Any other damage, wherever it is, is refused in one line that
names the seq and the failure class exactly as `replay --verify` does, and the file stays as
it was, byte for byte. Everything resume keeps is checked as `replay --verify` checks it."""
from __future__ import annotations

import pytest

from support.stored_games import build, log_bytes, spans, store
from peerboard.client import cli
from peerboard.client.tui.lobby_source import NetworkLobby
from peerboard.node.gamefiles import GameDamaged, GameFiles, unfinished_games
from peerboard.protocol.log.logfile import frame
from peerboard.protocol.log.records import make_entry
from peerboard.protocol.log.replay import verify_log


@pytest.fixture(scope="module")
def finished():
    return build("aton", seed=3)


@pytest.fixture(scope="module")
def unfinished():
    return build("aton", seed=4, entries=60)


def _flip(data: bytes, pos: int, mask: int = 0x01) -> bytes:
    return data[:pos] + bytes([data[pos] ^ mask]) + data[pos + 1:]


def _aside(directory):
    return sorted(directory.glob("*.torn"))


def _refused(path) -> GameDamaged:
    with pytest.raises(GameDamaged) as refused:
        GameFiles.reopen(path)
    return refused.value


@pytest.mark.parametrize("kept", [1, 3, 4, 5, 40, -1])
def test_a_torn_tail_is_the_only_thing_cut_and_it_is_kept_aside_beside_the_log(tmp_path, unfinished, kept):
    whole = log_bytes(unfinished)
    nxt = build("aton", seed=4, entries=61).entries[-1]  # the entry being appended when the crash came
    torn = frame(nxt.encoded)[:kept]
    path = store(tmp_path, unfinished, whole + torn)
    files, contents = GameFiles.reopen(path)
    files.close()
    assert path.read_bytes() == whole and len(contents.entries) == 60
    (aside,) = _aside(tmp_path)
    assert aside.read_bytes() == torn and aside.name == f"game.{len(whole)}.torn"
    assert files.set_aside == aside


def test_a_garbled_length_prefix_mid_log_is_refused_as_replay_verify_names_it_and_nothing_is_cut(
        tmp_path, finished):
    data = log_bytes(finished)
    start, _ = spans(data)[len(spans(data)) // 2]
    # the length now runs past the end of the file, over every record after it: to a reader
    # that looks cut short, as a torn tail does, but whole records lie behind it
    damaged = data[:start] + (len(data) - start).to_bytes(4, "big") + data[start + 4:]
    path = store(tmp_path, finished, damaged)
    refused = _refused(path)
    assert verify_log(damaged).summary() in str(refused) and "\n" not in str(refused)
    assert "[truncated]" in str(refused)
    assert path.read_bytes() == damaged and not _aside(tmp_path)
    assert str(_refused(path)) == str(refused)  # (refused again, not "open elsewhere": its lock was let go)


def test_a_bad_signature_in_the_next_to_last_entry_is_refused_at_that_seq_not_the_last_dropped(tmp_path, unfinished):
    data = log_bytes(unfinished)
    _, end = spans(data)[-2]  # entry 59; its signature is its record's last 64 bytes
    damaged = _flip(data, end - 10)
    path = store(tmp_path, unfinished, damaged)
    refused = _refused(path)
    assert "invalid at seq 59 [signature]" in str(refused)
    assert path.read_bytes() == damaged


def test_any_damage_names_the_seq_and_class_replay_verify_names(tmp_path, finished):
    data = log_bytes(finished)
    for n, (start, end) in enumerate(spans(data)[2::7]):
        for pos in (start + 2, (start + end) // 2, end - 1):
            damaged = _flip(data, pos, 0x04)
            path = store(tmp_path / f"{n}-{pos}", finished, damaged)
            assert verify_log(damaged).summary() in str(_refused(path))
            assert path.read_bytes() == damaged


def test_an_invalid_log_that_holds_every_result_is_called_invalid_not_over(tmp_path, finished, monkeypatch, capsys):
    data = log_bytes(finished)
    start, end = spans(data)[5]
    damaged = _flip(data, end - 3)  # entry 4's signature; the results are all still there
    path = store(tmp_path / "games", finished, damaged)
    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path))
    assert cli.main(["resume", str(path), "--headless"]) == 2
    said = capsys.readouterr()
    assert "invalid at seq 4 [signature]" in said.err and "over" not in said.err + said.out
    assert said.err.count("\n") == 1 and "The 3 entries before it are sound" in said.err and "a copy of the log from another player" in said.err
    assert path.read_bytes() == damaged


def test_this_seats_own_last_entry_that_the_rules_refuse_is_kept_aside_like_a_torn_tail(tmp_path, unfinished):
    """A seat's own move offered by the engine leaves before it is re-run; when the re-run
    refuses it (an engine fault) and the process dies before taking it back, the log ends
    with it. It was never acknowledged: resume keeps it aside and goes on before it."""
    whole = log_bytes(unfinished)
    ledger = unfinished.ledger
    seat = 0
    own = make_entry(unfinished.identities[seat], ledger.next_seq, ledger.head, seat, "move",
                     {"actions": [("no-such-action",)], "nonce": None})
    path = store(tmp_path, unfinished, whole + frame(own.encoded))
    files, contents = GameFiles.reopen(path)
    files.close()
    assert path.read_bytes() == whole and len(contents.entries) == 60
    (aside,) = _aside(tmp_path)
    assert aside.read_bytes() == frame(own.encoded) and "own last entry" in files.set_aside_why


def test_a_peers_last_entry_that_does_not_check_out_is_refused_not_dropped(tmp_path, unfinished):
    whole = log_bytes(unfinished)
    ledger = unfinished.ledger
    theirs = make_entry(unfinished.identities[1], ledger.next_seq, ledger.head, 1, "move",
                        {"actions": [("no-such-action",)], "nonce": None})
    path = store(tmp_path, unfinished, whole + frame(theirs.encoded))
    _refused(path)
    assert path.read_bytes() == whole + frame(theirs.encoded)


def test_the_lobby_and_the_offer_mark_a_damaged_log_and_never_list_it_as_resumable(tmp_path, unfinished):
    data = log_bytes(unfinished)
    start, _ = spans(data)[30]
    good = store(tmp_path, unfinished, name="good.pblog")
    bad = store(tmp_path, unfinished, _flip(data, start + 3, 0x80), name="bad.pblog")
    damaged = []
    assert [p for p, _ in unfinished_games(tmp_path, damaged=damaged)] == [good]
    assert [p for p, _ in damaged] == [bad] and "invalid at seq 29 [" in damaged[0][1]
    lobby = NetworkLobby(port=1, games=tmp_path)
    snapshot = lobby.snapshot()
    assert [u.path for u in snapshot.unfinished] == [good]
    assert "Damaged, not offered" in snapshot.status and "bad.pblog" in snapshot.status


def test_a_log_where_a_seat_lied_in_its_audit_is_no_damage_and_resumes_whole(tmp_path):
    """replay --verify calls such a log invalid at the audit that proves the lie; that is how
    the game went, though: it goes on to its result, which names the cheat."""
    log = build("aton", seed=7, entries=0)
    choose = lambda state, seat, legal: legal[0]  # noqa: E731
    while log.ledger.entitled() != (0, "audit"):
        log.step(choose)
    log.add("audit", {"seed": bytes(32)})  # not the seed seat 0's genesis commits to
    data = log_bytes(log)
    assert "[audit]" in verify_log(data).summary()
    path = store(tmp_path, log, data)
    files, contents = GameFiles.reopen(path)
    files.close()
    assert path.read_bytes() == data and len(contents.entries) == len(log.entries) and not _aside(tmp_path)


def test_the_start_up_offer_says_a_damaged_log_is_not_offered_and_offers_the_sound_one(tmp_path, unfinished,
                                                                                      monkeypatch, capsys):
    from peerboard.client.cli import build_parser
    from peerboard.client.lan.reading import read_options
    from peerboard.client.lan.resume import _offer_resume

    data = log_bytes(unfinished)
    start, _ = spans(data)[30]
    good = store(tmp_path / "games", unfinished, name="aton-good.pblog")
    bad = store(tmp_path / "games", unfinished, _flip(data, start + 3, 0x80), name="aton-bad.pblog")
    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path))
    assert _offer_resume(read_options(build_parser().parse_args(["host", "aton"]))) is None  # (no terminal)
    out = capsys.readouterr().out
    assert f"not offered: {bad} is damaged: invalid at seq 29 [" in out
    assert [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("  1.")] == [str(good)]
