"""A claim of a present seat over real processes on loopback (issue 39; spec/protocol.md,
"What a claim proves"): a two-seat Aton game between an honest `--headless` host and a
joiner changed, as any player could change it in a few lines, to claim the host while the
host is there and thinking (tests/programs/cheating_claimer.py). The honest node does not
take "you were claimed" as the truth: it says what the other seat did, keeps its signed
protest in its log, and its copy says the game is disputed, with no result. `replay
--verify` over both copies names the dispute; `ratings --json` never rates it."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from support.lanhelp import LOOPBACK, ROOT, Procs, join_args, logs, verify

pytestmark = pytest.mark.processes


def peerboard(*args: str, home) -> subprocess.CompletedProcess:
    env = dict(os.environ, PEERBOARD_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "peerboard.client.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=str(ROOT), env=env)


def test_a_present_seat_claimed_by_a_changed_client_protests_and_the_claim_is_disputed(tmp_path):
    procs = Procs(tmp_path)
    try:
        honest = procs.start("honest", "host", "aton", "--players", "2", "--no-beacon", "--bind", LOOPBACK,
                             "--patience", "300", "--headless", "--think", "1")
        cheat = procs.start("cheat", "6", "join", *join_args(honest), "--bind", LOOPBACK, "--headless",
                            "--think", "0.02", entry=["tests/programs/cheating_claimer.py"])
        said = honest.wait_for(r"Seat 1 \(.*?\) claimed your seat at entry (\d+), as if you had been away longer than "
                               r"the table's patience \(300 s\)\. You were here: this node has kept your signed protest "
                               r"in this game's log \(entry (\d+)\)", 90)
        claim, protest = int(said.group(1)), int(said.group(2))
        assert protest == claim + 1
        honest.wait_for("the game ends disputed, with no result", 5)
        cheat.wait_for(r"disputes your claim of entry \d+: its signed protest", 60)
        assert honest.wait(60) == 0, honest.text()[-2000:]
        assert cheat.wait(60) == 0, cheat.text()[-2000:]
        assert "You were away longer than the table's patience and were claimed" not in honest.text()
        mine, theirs = logs(honest.home)[0], logs(cheat.home)[0]
        assert verify(mine).startswith("valid: aton") and "— disputed: seat 0" in verify(mine)
        assert f"protested at seq {protest}" in verify(mine) and verify(mine).rstrip().endswith("no result")
        # the claimer's own copy: the protest too, if it came before the claimer wrote its end;
        # else its end, as it wrote it (it won by claim there) — compared, the two say disputed
        assert verify(theirs) == verify(mine) or " won, scores " in verify(theirs)
        both = peerboard("replay", "--verify", str(mine), str(theirs), home=tmp_path / "x")
        assert both.returncode == 0, both.stdout + both.stderr
        assert f"the claim of seat 0 (" in both.stdout and f") at entry {claim}, signed by seat 1 (" in both.stdout
        assert "is disputed: seat 0 (" in both.stdout and "equivocated" not in both.stdout
        club = tmp_path / "club"
        club.mkdir()
        for n, path in enumerate((mine, theirs)):
            (club / f"{n}.pblog").write_bytes(path.read_bytes())
        for rate_claims in ([], ["--rate-claims"]):
            out = peerboard("ratings", str(club), "--json", *rate_claims, home=tmp_path / "x")
            doc = json.loads(out.stdout)
            (game,) = doc["results"]
            assert game["kind"] == "disputed" and not game["rated"] and doc["ladders"] == {}
            assert [(d["seat"], d["seq"]) for d in doc["disputes"]] == [(0, claim)]
    finally:
        procs.close()
