"""The conformance vectors of spec/vectors/ (spec/log-format.md, "Conformance vectors"):
the reference verifier reaches every verdict the index records, the set covers every
failure class and every game, and the files are exactly what tests/support/invalid_vectors.py
writes from the valid vectors."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import ed25519_point as ed
from support.invalid_vectors import INDEX, build_all, index_text
from peerboard.protocol.log import failures
from peerboard.protocol.log.identity import Identity, verify
from peerboard.protocol.log.logfile import read_log
from peerboard.protocol.log.records import ENTRY_DOMAIN, GENESIS_DOMAIN
from peerboard.protocol.log.replay import verify_log
from peerboard.engines.canonical import encode
from support.vectors import VECTORS

ROOT = Path(__file__).resolve().parents[2]
ITEMS = json.loads(INDEX.read_text())["vectors"]


@pytest.mark.parametrize("item", ITEMS, ids=[i["file"] for i in ITEMS])
def test_the_reference_verifier_reaches_the_indexed_verdict(item):
    verdict = verify_log((VECTORS / item["file"]).read_bytes())
    assert not verdict.ok, f"{item['file']} verified valid"
    assert (verdict.bad_seq, verdict.failure) == (item["seq"], item["class"]), verdict.summary()


def test_the_set_holds_every_failure_class_and_every_game():
    assert {i["class"] for i in ITEMS} == set(failures.ORDER)
    assert {i["game"] for i in ITEMS} == {"aton", "athos", "asterix"}
    assert json.loads(INDEX.read_text())["classes"] == list(failures.ORDER)


def test_every_game_has_a_vector_of_most_classes():
    # the classes a game cannot show: Athos has no reveals; the audit and the result of a
    # game are shown on the two small games (a finished Athos log is large); a resignation's
    # consent on every game
    for game, missing in (("aton", set()), ("asterix", set()), ("athos", {"reveal", "audit"})):
        classes = {i["class"] for i in ITEMS if i["game"] == game}
        assert set(failures.ORDER) - classes == missing, game


def test_the_vectors_are_what_the_script_writes_from_the_valid_ones():
    vectors = build_all()
    assert index_text(vectors) == INDEX.read_text()
    on_disk = sorted(p.name for p in (VECTORS / "invalid").glob("*.pblog"))
    assert on_disk == sorted(f"{v.name}.pblog" for v in vectors)
    for v in vectors:
        assert (VECTORS / "invalid" / f"{v.name}.pblog").read_bytes() == v.data, v.name


@pytest.mark.processes
def test_replay_verify_prints_the_class_in_brackets_and_exits_1():
    files = [str(VECTORS / i["file"]) for i in ITEMS[:3]]
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "replay", "--verify", *files],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 1, out.stderr
    for item, line in zip(ITEMS[:3], out.stdout.splitlines()):
        where = "header" if item["seq"] is None else f"seq {item['seq']}"
        assert f": invalid at {where} [{item['class']}]: " in line


def test_the_spec_lists_the_classes_in_the_verifiers_order():
    text = (ROOT / "spec" / "log-format.md").read_text()
    table = text[text.index("| # | class |"):]
    listed = re.findall(r"^\| \d+ \| `([a-z]+)` \|", table, re.M)
    assert tuple(listed) == failures.ORDER


# -- the signatures of the vectors break libsodium's rules, and only those --------------------


def _lax(key: bytes, message: bytes, sig: bytes) -> bool:
    """What a lax Ed25519 library accepts: any encoding of a point (y taken mod p), S taken
    mod L, and the cofactored equation [8][S]B = [8]R + [8][h]A."""
    a, r = ed.decode(key), ed.decode(sig[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(sig[32:], "little") % ed.L
    h = ed.challenge(sig[:32], key, message)
    left = ed.mul(8, ed.mul(s, ed.BASE))
    right = ed.mul(8, ed.add(r, ed.mul(h, a)))
    return left == right


def _signed_messages(item):
    """(key, message, signature) of every signature in a vector's file that is readable."""
    contents = read_log((VECTORS / item["file"]).read_bytes())
    g = contents.genesis
    message = GENESIS_DOMAIN + encode(g.terms.body())
    out = [(s.key, message, sig) for s, sig in zip(g.terms.seats, g.sigs)]
    for e in contents.entries:
        out.append((g.terms.seats[e.seat].key, e.signing_bytes(), e.sig))
    return out


CRAFTED = [i for i in ITEMS if i["class"] == "signature" and i["file"] not in (
    "invalid/athos-signature-bit-flipped.pblog", "invalid/asterix-signature-genesis-swapped.pblog",
    "invalid/athos-signature-taken-over-seat-signs-with-its-old-key.pblog")]  # (a valid signature, by the wrong key)


@pytest.mark.parametrize("item", CRAFTED, ids=[i["file"] for i in CRAFTED])
def test_a_crafted_signature_passes_a_lax_check_and_fails_libsodiums_rules(item):
    signed = _signed_messages(item)
    refused = [(k, m, s) for k, m, s in signed if not verify(k, m, s)]
    assert refused, "every signature verified"
    # the first refused one is the one the verdict names; a lax library would take it (and
    # every other signature of the log: the vector is valid to such a library)
    assert all(_lax(k, m, s) for k, m, s in refused)


def test_the_rules_each_refuse_what_they_say():
    seed = bytes(range(32))
    me = Identity.from_seed(seed)
    key, message = me.public_key, b"peerboard"
    good = me.sign(message)
    a, _ = ed.scalar(seed)
    s = int.from_bytes(good[32:], "little")
    assert verify(key, message, good) and _lax(key, message, good)
    # 1. S < L
    assert not verify(key, message, good[:32] + (s + ed.L).to_bytes(32, "little"))
    # 2. A canonical, 3. A not of small order: the identity as 01 00…00 and as y = p + 1
    for small in (ed.encode(ed.IDENTITY), (ed.P + 1).to_bytes(32, "little"), ed.encode(ed.torsion8())):
        forged = ed.encode(ed.IDENTITY) + bytes(32)
        assert not verify(small, message, forged)
    # 3. R not of small order, 4. R canonical: R = identity (three encodings), S = h a
    for r_bytes in (ed.encode(ed.IDENTITY), (ed.P + 1).to_bytes(32, "little"), b"\x01" + bytes(30) + b"\x80"):
        sig = ed.sign_with(a, key, r_bytes, 0, message)
        assert _lax(key, message, sig) and not verify(key, message, sig)
    # 4. no cofactor: R = [r]B + T holds only with it
    r = 5
    sig = ed.sign_with(a, key, ed.encode(ed.add(ed.mul(r, ed.BASE), ed.torsion8())), r, message)
    assert _lax(key, message, sig) and not verify(key, message, sig)
    # a key of mixed order is not refused as such: a signature the cofactorless equation holds for verifies
    mixed = ed.encode(ed.add(ed.mul(a, ed.BASE), ed.torsion8()))
    for r in range(1, 200):
        r_bytes = ed.encode(ed.mul(r, ed.BASE))
        if ed.challenge(r_bytes, mixed, message) % 8 == 0:
            assert verify(mixed, message, ed.sign_with(a, mixed, r_bytes, r, message))
            break
    else:
        pytest.fail("no nonce gave h a multiple of 8")


def test_the_spec_names_the_small_order_encodings_the_helper_computes():
    text = (ROOT / "spec" / "log-format.md").read_text()
    t = ed.torsion8()
    for point in (t, ed.mul(3, t)):  # the two y of the four points of order 8
        assert point[1].to_bytes(32, "little").hex() in text
    assert "2^252 + 27742317777372353535851937790883648493" in text and ed.L == 2**252 + 27742317777372353535851937790883648493
