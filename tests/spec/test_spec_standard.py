"""spec/ as a standard (issue 15): a verifier written from spec/ alone must reach our verdict
on every log. One group of tests per point a second implementation found; the conformance
vectors themselves are tests/spec/test_conformance_vectors.py."""
import json
import random
import re
from pathlib import Path

import pytest

from peerboard import engines
from peerboard.engines.actions import MAX_ACTION_DEPTH  # noqa: F401  (named by the spec's limits table)
from peerboard.engines.options import whole_text
from support.invalid_vectors import Log, _aton_tie_break
from peerboard.protocol.log import failures, schema, secrets
from peerboard.protocol.log.builder import LogBuilder
from peerboard.protocol.log.ledger import LedgerError, Ledger
from peerboard.protocol.log.codec import DecodeError, decode
from peerboard.protocol.log.logfile import frame, frames, header_frame, read_log
from peerboard.protocol.log.records import make_entry
from peerboard.protocol.log.replay import verify_log
from peerboard.engines.canonical import encode
from peerboard.engines.values import evolve
from support.vectors import CASES, VECTORS

SPEC = Path(__file__).resolve().parents[2] / "spec"
LOG_FORMAT = (SPEC / "log-format.md").read_text()


def _table(game="aton", players=2, options=None, seed=3):
    rng = random.Random(seed)
    return LogBuilder.table(
        engines.get(game), options or {}, [f"p{i}" for i in range(players)], [rng.randbytes(32) for _ in range(players)],
        [bytes([i + 1]) * 32 for i in range(players)], b"\x07" * 16, lambda: rng.randbytes(16),
    ), rng


def _random(rng):
    return lambda state, seat, legal: legal[rng.randrange(len(legal))]


def _file(log, *extra):
    entries = [*log.entries, *extra]
    return header_frame() + frame(log.ledger.genesis.record()) + b"".join(frame(e.record()) for e in entries)


# -- 1. one formula, written once, with its bytes -----------------------------------------------


def test_every_domain_string_in_the_spec_is_followed_by_its_zero_byte():
    for page in SPEC.glob("*.md"):
        text = page.read_text().replace("\\|", "|")
        for match in re.finditer(r'"peerboard/[a-z]+/v1" *\|\| *(\S+)', text):
            assert match.group(1) == "0x00", f"{page.name}: {match.group(0)}"


def test_protocol_md_restates_no_formula_of_its_own():
    text = (SPEC / "protocol.md").read_text()
    assert "SHA-256(domain" not in text and "SHA-256(E ||" not in text
    assert 'SHA-256("peerboard/' not in text  # the formulas live in log-format.md, "Hashes"


def _example(label):
    block = LOG_FORMAT[LOG_FORMAT.index("**A worked example**"):LOG_FORMAT.index("## Signatures")]
    line = next(line for line in block.splitlines() if line.strip().startswith(label))
    return line.split()[-1]


def test_the_worked_example_is_what_the_code_computes():
    seed = bytes(range(32))
    assert _example("seed commitment  ") == secrets.seed_commitment(seed).hex()
    action = ("assign", 4, 1, 3, 2)
    assert _example("choice digest") == secrets.choice_digest((action,), b"\xaa" * 16).hex()
    e0 = secrets.round_entropy(0, (b"\x11" * 32, b"\x22" * 32))
    assert _example("E_0  ") == e0.hex()
    block = LOG_FORMAT[LOG_FORMAT.index("public node k = 0"):]
    public, private = re.findall(r"= ([0-9a-f]{64})", block)[:2]
    assert public == secrets.node_entropy(e0, 0).hex()
    assert private == secrets.node_entropy(e0, 1, seed).hex()
    assert "9195a661737369676e04010302" in LOG_FORMAT.replace(" ", "") and encode([action]).hex() == "9195a661737369676e04010302"


def test_the_round_entropy_names_its_domain_and_the_width_of_its_round():
    row = next(line for line in LOG_FORMAT.splitlines() if line.startswith("| round entropy"))
    assert '"peerboard/chance/v1"' in row and "u32(r)" in row
    assert "`u32(n)` is `n` as\n4 bytes big-endian" in LOG_FORMAT


# -- 3. textual numbers --------------------------------------------------------------------------


@pytest.mark.parametrize("text, number", [
    ("0", 0), ("1", 1), ("7", 7), ("10", 10),
    (" 0", None), ("1 ", None), ("+0", None), ("-0", None), ("01", None), ("00", None), ("", None),
    ("\u0660", None), ("\u00b9", None), ("1_0", None), ("0x1", None), ("１", None),
])
def test_a_textual_number_is_ascii_digits_without_sign_space_or_leading_zero(text, number):
    assert whole_text(text) == number


@pytest.mark.parametrize("key", [" 0", "1 ", "\u0660", "+0", "01", "00", "-0", ""])
def test_an_athos_handicap_seat_written_loosely_is_refused_in_one_line(key):
    with pytest.raises(engines.OptionError) as refused:
        engines.get("athos").new_game(2, {"handicap": {key: 1}})
    assert "\n" not in str(refused.value) and "without sign, space or leading zero" in str(refused.value)


def test_an_athos_handicap_seat_in_its_one_form_is_taken():
    assert engines.get("athos").new_game(3, {"handicap": {"0": 1, "2": 3}}).setup.handicap == (1, 0, 3)


def test_a_genesis_with_a_loose_handicap_seat_is_invalid_at_seq_0():
    log, _ = _table("athos", options={"handicap": {"0": 1}})
    assert verify_log(_file(log)).ok
    record = log.ledger.genesis.record()
    record["genesis"]["options"] = {"handicap": {" 0": 1}}
    verdict = verify_log(header_frame() + frame(record))
    assert (verdict.bad_seq, verdict.failure) == (0, "genesis")


# -- 4. where a lie is reported ------------------------------------------------------------------


def _false_seed_game(cheats_in_result):
    """An Asterix game whose seat 0 reveals a false seed at the audit; its results name
    `cheats_in_result`."""
    log, rng = _table("asterix", 2, {"max_rounds": 1})
    while log.ledger.entitled()[1] != "audit":
        log.step(_random(rng))
    log.add("audit", {"seed": bytes(32)})
    log.step(None)  # seat 1's honest audit
    extra = []
    for seat in range(2):
        body = log.ledger.result_body() | {"cheats": cheats_in_result}
        entry = make_entry(log.identities[seat], log.ledger.next_seq + len(extra),
                           (extra[-1] if extra else log.entries[-1]).hash, seat, "result", body)
        extra.append(entry)
    return log, extra


@pytest.mark.parametrize("cheats", [[0], []], ids=["result-names-the-liar", "result-silent"])
def test_a_false_seed_is_reported_at_the_liars_own_audit_entry_whatever_the_result_says(cheats):
    log, results = _false_seed_game(cheats)
    own = next(e.seq for e in log.entries if e.kind == "audit" and e.seat == 0)
    last = log.entries[-1].seq
    assert own < last  # seat 0 audits first: its own entry is not the last audit
    verdict = verify_log(_file(log, *results))
    assert (verdict.bad_seq, verdict.failure) == (own, "audit"), verdict.summary()
    assert "seat 0's revealed seed" in verdict.why


def test_a_false_claim_is_reported_at_the_last_audit_naming_the_entry_that_lied():
    rng = random.Random(8)
    log = LogBuilder.table(engines.get("aton"), {"win_points": 12}, ["a", "b"], [rng.randbytes(32) for _ in range(2)],
                           [b"\x01" * 32, b"\x02" * 32], b"\x09" * 16, lambda: rng.randbytes(16), knows_hidden=False)
    log.play(_random(rng))
    assert log.ledger.cheats
    verdict = verify_log(_file(log))
    audits = [e.seq for e in log.entries if e.kind == "audit"]
    assert (verdict.bad_seq, verdict.failure) == (audits[-1], "audit")
    lied = int(re.search(r"lied at seq (\d+)", verdict.why).group(1))
    assert log.entries[lied - 1].kind == "move" and log.entries[lied - 1].seat in log.ledger.cheats


# -- 5. failure classes, in order ----------------------------------------------------------------


def test_a_verdict_line_names_its_class_in_brackets():
    data = (VECTORS / "aton.pblog").read_bytes()
    cut = data[:-5]
    assert re.fullmatch(r"invalid at seq \d+ \[truncated\]: .+", verify_log(cut).summary())
    assert verify_log(b"nonsense").summary().startswith("invalid at header [header]: ")


def test_the_first_failing_check_in_class_order_names_the_verdict():
    log, rng = _table()
    while log.ledger.entitled()[1] != "move":
        log.step(_random(rng))
    seat, _ = log.ledger.entitled()
    ledger = log.ledger
    other = 1 - seat

    def entry(seq=None, prev=None, writer=seat, signer=seat, kind="move", body=None):
        e = make_entry(log.identities[signer], seq or ledger.next_seq, prev or ledger.head, writer, kind,
                       body or {"actions": [("keep",)], "nonce": None})
        return e

    cases = [
        (entry(seq=ledger.next_seq + 1, prev=bytes(32), signer=other), "seq"),
        (entry(prev=bytes(32), signer=other, writer=other), "prev"),
        (entry(writer=5, signer=other), "seat"),
        (entry(writer=other, signer=seat, kind="reveal", body={"value": bytes(32)}), "signature"),
        (entry(writer=other, signer=other), "turn"),
        (entry(body={"actions": [("place", 3)], "nonce": bytes(16)}), "commitment"),
        (entry(body={"actions": [("place", 3)], "nonce": None}), "illegal"),
    ]
    for bad, failure in cases:
        verdict = verify_log(_file(log, bad))
        assert (verdict.bad_seq, verdict.failure) == (ledger.next_seq, failure), verdict.summary()
        assert failures.ORDER.index(failure) < len(failures.ORDER)


def test_a_frame_too_long_at_the_end_of_the_file_is_a_frame_failure_not_truncated():
    data = (VECTORS / "aton.pblog").read_bytes()
    verdict = verify_log(data + (2 << 20).to_bytes(4, "big") + b"xy")
    assert verdict.failure == "frame"
    assert verify_log(data + (30).to_bytes(4, "big") + b"xy").failure == "truncated"


def test_every_class_is_a_word_a_program_can_match():
    assert len(set(failures.ORDER)) == len(failures.ORDER) == 18
    assert all(re.fullmatch(r"[a-z]+", c) for c in failures.ORDER)


# -- 6. limits said once -------------------------------------------------------------------------

_NAMESPACE = {**vars(schema), "CHAIN_LENGTH": secrets.CHAIN_LENGTH, "MAX_ACTION_DEPTH": MAX_ACTION_DEPTH}


def _limit_rows():
    table = LOG_FORMAT[LOG_FORMAT.index("| what | limit | name |"):]
    table = table[: table.index("\n\n")]
    rows = []
    for line in table.splitlines()[2:]:
        _, what, limit, name, _ = line.split("|")
        rows.append((what.strip(), limit.strip(), name.strip().strip("`")))
    return rows


def test_every_limit_in_the_spec_is_the_codes():
    for what, limit, name in _limit_rows():
        number = int(re.search(r"\d[\d,]*", limit).group(0).replace(",", ""))
        assert eval(name, _NAMESPACE) == number, f"{what}: the spec says {limit}, {name} is {eval(name, _NAMESPACE)}"


def test_every_limit_of_a_log_record_in_the_code_is_in_the_spec():
    names = {name for _, _, name in _limit_rows()}
    wanted = {"RECORD_LIMITS.size", "RECORD_LIMITS.depth", "RECORD_LIMITS.length", "RECORD_LIMITS.text",
              "MAX_SEATS", "MAX_NAME", "MAX_GAME", "MAX_ACTIONS_PER_ENTRY", "MAX_ACTION_DEPTH", "KEY_BYTES",
              "SIG_BYTES", "HASH_BYTES", "TABLE_BYTES", "NONCE_BYTES", "CHAIN_LENGTH"}
    assert wanted <= names
    # the constants of protocol/log/schema.py are each a log's (above) or a message's (spec/protocol.md)
    messages = {"MAX_ADDR", "MAX_REASON", "MAX_CHAT", "PROTOCOL_VERSION"}
    constants = {k for k, v in vars(schema).items() if k.isupper() and type(v) is int}
    assert constants <= {n.split(".")[0] for n in names} | messages | {"MAX_SEATS"}


def test_the_specs_action_depth_examples_hold():
    deepest, refused = re.findall(r"`(\[\"a\", .*?)`", LOG_FORMAT[LOG_FORMAT.index("The depth limit of an ACTION"):])[:2]

    def action(text):
        return json.loads(text, object_hook=None, parse_int=int)

    def tupled(v):
        return tuple(tupled(x) for x in v) if isinstance(v, list) else v

    assert schema.ACTION.ok(tupled(action(deepest)))
    assert not schema.ACTION.ok(tupled(action(refused)))


def test_a_record_nested_16_deep_decodes_and_17_does_not():
    def nested(depth):
        value: object = []
        for _ in range(depth - 1):
            value = [value]
        return value

    assert decode(encode(nested(16))) == eval("(" * 15 + "()" + ",)" * 15)
    with pytest.raises(DecodeError, match="nested deeper than 16"):
        decode(encode(nested(17)))


# -- 7. hash chains never run dry ----------------------------------------------------------------


def test_a_seats_reveals_run_on_from_one_chain_into_the_next():
    s = secrets.SeatSecrets.from_master(bytes(32))
    n = secrets.CHAIN_LENGTH
    assert secrets.sha256(s.reveal(1)) == s.tip(0)
    assert secrets.sha256(s.reveal(n)) == s.reveal(n - 1)
    assert secrets.sha256(s.reveal(n + 1)) == s.tip(1) != s.tip(0)
    assert s.next_tip(n) == s.tip(1) and s.next_tip(2 * n) == s.tip(2)


def test_at_the_edge_of_a_4096_value_chain_a_new_chain_comes_before_the_round():
    log, rng = _table()
    n = secrets.CHAIN_LENGTH
    # jump both seats to their last value but one, as if 4,094 rounds had been played
    ledger = log.ledger
    values = tuple(log.secrets[i].reveal(n - 2) for i in range(2))
    log.ledger = evolve(ledger, chain_values=values, chain_used=(n - 2, n - 2), chain_left=(2, 2))
    kinds: list[str] = []
    while kinds.count("reveal") < 6:
        kinds.append(log.step(_random(rng)).kind)
    # the 4,095th and 4,096th reveals came from the first chain; then, before the next
    # round's first reveal, seat 0 and seat 1 each committed a new tip
    at = kinds.index("chain")
    assert kinds[at:at + 4] == ["chain", "chain", "reveal", "reveal"]
    assert kinds[:at].count("reveal") == 4
    assert log.ledger.chain_left == (n - 1, n - 1) and log.ledger.chain_used == (n + 1, n + 1)


def test_a_reveal_where_a_new_chain_is_due_is_refused_and_so_is_an_early_chain():
    log, rng = _table()
    n = secrets.CHAIN_LENGTH
    values = tuple(log.secrets[i].reveal(n) for i in range(2))
    log.ledger = evolve(log.ledger, chain_values=values, chain_used=(n, n), chain_left=(0, 0))
    assert log.ledger.entitled() == (0, "chain")
    # the reveal the seat would have made from an endless chain: refused, it is not its turn
    forged = make_entry(log.identities[0], log.ledger.next_seq, log.ledger.head, 0, "reveal",
                        {"value": log.secrets[0].reveal(n + 1)})
    with pytest.raises(LedgerError) as refused:
        log.ledger.check(forged)
    assert refused.value.failure == "turn"
    log.step(None)  # seat 0's chain entry
    early = make_entry(log.identities[0], log.ledger.next_seq, log.ledger.head, 0, "chain", {"tip": bytes(32)})
    with pytest.raises(LedgerError) as refused:
        log.ledger.check(early)
    assert refused.value.failure == "turn"  # seat 1's chain is due, then the reveals


@pytest.fixture
def short_chains(monkeypatch):
    """Hash chains of 2 values, so a short game runs through several of them."""
    monkeypatch.setattr(secrets, "CHAIN_LENGTH", 2)
    from peerboard.protocol.log import ledger as protocol_ledger

    monkeypatch.setattr(protocol_ledger, "CHAIN_LENGTH", 2)


def test_a_game_that_spends_its_chains_verifies(short_chains):
    log, rng = _table("aton", options={"win_points": 15})
    log.play(_random(rng))
    kinds = [e.kind for e in log.entries]
    assert kinds.count("chain") >= 4
    verdict = verify_log(_file(log))
    assert verdict.ok and verdict.ledger.finished, verdict.summary()
    # a chain entry comes only right before a reveal round, or before another chain entry
    for i, kind in enumerate(kinds):
        if kind == "chain":
            assert kinds[i + 1] in ("chain", "reveal") and kinds[i - 1] in ("move", "chain")


def test_nodes_commit_their_new_chains_themselves(short_chains):
    from peerboard.protocol.session.session import Phase
    from support.simnet import SimNet

    net = SimNet(5, drop=0.0, dup=0.0, delay=(0.001, 0.02))
    nodes = net.table("asterix", 2, {"max_rounds": 2})
    assert net.run(lambda: net.finished(nodes), max_time=600)
    logs = [[e.encoded for e in n.disk.entries] for n in nodes]
    assert logs[0] == logs[1]
    entries = nodes[0].disk.entries
    assert sum(e.kind == "chain" for e in entries) >= 2
    data = header_frame() + frame(nodes[0].disk.genesis.record()) + b"".join(frame(e.encoded) for e in entries)
    assert verify_log(data).ok and all(n.session.phase is Phase.OVER for n in nodes)


# -- 8. facts written where an implementer looks -------------------------------------------------


def _kinds(data):
    return [(e.seat, e.kind) for e in read_log(data).entries]


def _vector(name):
    return (VECTORS / f"{name}.pblog").read_bytes()


def test_athos_has_no_chance_so_its_log_holds_only_moves_audits_and_results():
    assert {k for _, k in _kinds(_vector("athos"))} == {"move", "audit", "result"}
    assert "Athos has **no chance nodes**" in (SPEC / "games" / "athos.md").read_text()


def test_asterix_seats_start_with_three_potions_as_the_spec_says():
    assert engines.get("asterix").new_game(5).potions == (3,) * 5
    assert "Every seat starts with **3 potions**" in (SPEC / "games" / "asterix.md").read_text()


def test_an_athos_handicap_ends_without_end_turn():
    game = engines.get("athos")
    state = game.new_game(2, {"handicap": {"0": 2}})
    for _ in range(2):
        assert ("end_turn",) not in game.legal_actions(state)
        state = game.apply(state, game.legal_actions(state)[0])
    assert state.phase == "move" and game.current(state) == 0
    assert "**without `end_turn`**" in (SPEC / "games" / "athos.md").read_text()


def test_what_may_follow_a_reveal_round_or_a_chance_entry():
    logs = [_vector(name) for name, _, _ in CASES] + [_aton_tie_break(Log.of("aton"), more=6).data()]
    saw_chance = False
    for data in logs:
        kinds = [k for _, k in _kinds(data)]
        for before, after in zip(kinds, kinds[1:]):
            if before == "chance":
                saw_chance = True
                assert after in ("chance", "move", "commit", "audit")
            if after == "reveal" and before != "reveal":
                assert before in ("move", "chain")  # a round starts after a move (or the genesis)
        assert kinds[0] in ("reveal", "chain", "move")
    assert saw_chance
    assert "**What may follow what.**" in LOG_FORMAT


def test_a_reveal_round_never_follows_a_reveal_round_directly():
    for name, players, _ in CASES:
        kinds = [k for _, k in _kinds(_vector(name))]
        run = 0
        for kind in kinds:
            run = run + 1 if kind == "reveal" else 0
            assert run <= players  # one round: one reveal per seat, then never another at once


def test_atons_secret_choice_commits_seat_0_then_1_then_reveals_in_that_order():
    entries = read_log(_vector("aton")).entries
    for i, e in enumerate(entries):
        if e.kind == "commit" and e.seat == 0:
            four = [(x.seat, x.kind, x.kind == "move" and x.body["nonce"] is not None) for x in entries[i:i + 4]]
            assert four == [(0, "commit", False), (1, "commit", False), (0, "move", True), (1, "move", True)]
    assert "`commit` by seat 0, then by seat 1" in (SPEC / "games" / "aton.md").read_text()


def test_every_seats_result_is_the_same_and_its_winners_ascend():
    for name, _, _ in CASES:
        results = [e.body for e in read_log(_vector(name)).entries if e.kind == "result"]
        assert all(r == results[0] for r in results)
        assert list(results[0]["winners"]) == sorted(results[0]["winners"])
    assert "winning seats in ascending order" in LOG_FORMAT


def test_a_log_cut_between_frames_is_valid_so_far_and_inside_a_frame_is_truncated():
    data = _vector("aton")
    spans = [(off, off + 4 + len(raw)) for off, raw, _ in frames(data)]
    between = verify_log(data[: spans[30][1]])
    assert between.ok and not between.ledger.finished and "unfinished, next: seat" in between.summary()
    inside = verify_log(data[: spans[30][1] + 9])
    assert (inside.bad_seq, inside.failure) == (30, "truncated")
    assert "*valid so far*" in LOG_FORMAT


# -- 9. the genesis's protocol, and the bounds the Limits section states in words (issue 23) ----


@pytest.mark.parametrize("protocol, failure", [
    (1, None), (-1, "genesis"), (0, "genesis"), (2, "genesis"), (2**64 - 1, "genesis"), (-2**63, "genesis"),
    ("1", "schema"), (True, "schema"), (None, "schema"), (b"\x01", "schema"),
])
def test_a_genesis_protocol_is_any_integer_by_its_shape_and_only_1_starts_a_game(protocol, failure):
    log, _ = _table()
    record = log.ledger.genesis.record()
    record["genesis"]["protocol"] = protocol
    verdict = verify_log(header_frame() + frame(record))
    if failure is None:
        assert verdict.ok, verdict.summary()
    else:
        assert (verdict.bad_seq, verdict.failure) == (0, failure), verdict.summary()
    assert "`protocol` is an integer other than 1 (−1 included)" in LOG_FORMAT


def _entry_verdict(log, seq=None, seat=None, body=None, kind="move"):
    seat_ = log.ledger.entitled()[0] if seat is None else seat
    identity = log.identities[seat_ if 0 <= seat_ < len(log.identities) else 0]
    entry = make_entry(identity, log.ledger.next_seq if seq is None else seq, log.ledger.head, seat_, kind,
                       body or {"actions": [("keep",)], "nonce": None})
    return verify_log(_file(log, entry))


@pytest.mark.parametrize("change, failure", [
    (dict(seq=0), "schema"), (dict(seq=-1), "schema"), (dict(seq=2**64 - 1), "seq"),
    (dict(seat=-1), "schema"), (dict(seat=8), "schema"), (dict(seat=7), "seat"),
])
def test_the_lower_bounds_said_in_words_are_the_codes(change, failure):
    log, rng = _table()
    while log.ledger.entitled()[1] != "move":
        log.step(_random(rng))
    assert _entry_verdict(log, **change).failure == failure
    assert "an entry's `seq` ≥ 1 (`seq` 0 or below is `schema`" in LOG_FORMAT


def test_a_results_scores_are_any_integers_by_their_shape():
    from peerboard.protocol.log.records import entry_from_record
    body = {"winners": (), "scores": (-2**63, 2**64 - 1), "state": bytes(32), "cheats": ()}
    record = {"seq": 1, "prev": bytes(32), "seat": 0, "kind": "result", "body": body, "sig": bytes(64)}
    assert entry_from_record(record).body["scores"] == (-2**63, 2**64 - 1)


# -- 10. Aton's record, field by field, as spec/games/aton.md "State hash" defines it --------------


def _aton_spec_actor(state):
    """`actor` by the words of the spec's table (not the engine's own code)."""
    seats, phase = state.seats, state.phase
    if phase == "draw":
        return next(i for i in (0, 1) if seats[i].hand_size < 4)
    if phase == "exchange":
        return next(i for i in (0, 1) if seats[i].exchange and i not in state.decided)
    if phase == "assign":
        return next(i for i in (0, 1) if seats[i].cartouches is None)
    if phase == "turn-up":
        return len(state.turned)
    return None  # remove, place, retrieve: order[0] then order[1], checked along the way


def test_atons_record_fields_are_set_and_cleared_as_the_spec_says():
    game = engines.get("aton")
    seen = {"tie": 0, "overflow": 0, "refill": 0, "over": 0}
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_game(2, {"win_points": rng.choice([30, 80])})
        finished_first = 0  # order[0] of the latest round both seats finished
        for _ in range(3000):
            if game.is_terminal(state):
                seen["over"] += 1
                assert state.owed == 0 and state.turned == ()
                break
            phase = state.phase
            assert state.turned == () or (phase == "turn-up" and len(state.turned) == 1)
            assert (state.owed >= 1) == (phase in ("remove", "place", "retrieve")), (phase, state.owed)
            assert (state.order == ()) == (phase in ("draw", "exchange", "assign", "turn-up"))
            assert state.last_first == finished_first
            want = _aton_spec_actor(state)
            if want is not None:
                assert state.actor == want, (phase, state.actor, want)
            elif phase in ("remove", "place", "retrieve"):
                assert state.actor in state.order
            if phase == "turn-up":
                seen["tie"] += 1
                deck = state.seats[state.actor].unseen  # the hand is empty: the deck is `unseen`
                assert state.seats[state.actor].hand_size == 0
                public = game.view(state, None)
                offered = [a for a, _ in game.chance_weights(public)]
                assert offered == [("turn", v) for v in (1, 2, 3, 4) if deck[v - 1]]
                assert game.chance_weights(public) == game.chance_weights(game.view(state, 1 - state.actor))
            action = rng.choice(game.legal_actions(state))
            after = game.apply(state, action)
            if phase == "place" and after.phase != "place" and after.phase != "over":
                me = state.actor
                before_s, after_s = state.seats[me], after.seats[me]
                left = state.owed - (1 if action[0] == "place" else 0)
                supply = before_s.supply - (1 if action[0] == "place" else 0)
                went = after_s.dead - before_s.dead
                if after.round == state.round and after.phase != "retrieve":
                    assert went == min(left, supply) if left and supply else went == 0, (left, supply, went)
                    seen["overflow"] += went > 0
            for i in (0, 1):
                b, a = state.seats[i], after.seats[i]
                if any(b.discards) and not any(a.discards):
                    # a refill: only of an empty deck, right before that seat's draw or turn-up
                    seen["refill"] += 1
                    assert after.phase in ("draw", "turn-up") and after.actor == i
            if after.phase != "over" and after.round != state.round:
                finished_first = state.order[0] if state.phase != "retrieve" else state.last_first
                assert after.decided == ()
            elif after.phase != "over":
                assert set(state.decided) <= set(after.decided)  # never cleared within a round
            if phase == "place" and after.phase == "retrieve":
                finished_first = state.order[0]
            state = after
    assert all(seen.values()), seen
    text = (SPEC / "games" / "aton.md").read_text()
    assert "`min(owed, supply)`" in text and "**An empty deck** is refilled at exactly two moments" in text


# -- 11. canonical integers and key order, byte by byte ---------------------------------------------


@pytest.mark.parametrize("hex_bytes, value", [
    ("cd012c", 300), ("7f", 127), ("cc80", 128), ("e0", -32), ("d0df", -33), ("cf" + "ff" * 8, 2**64 - 1),
    ("d1012c", None), ("d005", None), ("cc05", None), ("d0e0", None), ("d1ff80", None), ("d1ff7f", -129),
])
def test_an_integer_is_canonical_only_in_its_shortest_form_unsigned_when_not_negative(hex_bytes, value):
    if value is None:
        with pytest.raises(DecodeError, match="not in canonical form"):
            decode(bytes.fromhex(hex_bytes))
    else:
        assert decode(bytes.fromhex(hex_bytes)) == value and encode(value).hex() == hex_bytes
    assert "(300 is `cd 012c`, never `d1 012c`)" in LOG_FORMAT


def test_map_keys_sort_by_their_utf8_bytes_not_by_their_encoding():
    assert encode({"t": 1, "seq": 2}).hex() == "82a373657102a17401"  # "seq" < "t", though a1 < a3
    assert encode({"é": 1, "z": 2, "za": 3}).hex() == "83" + "a17a02" + "a27a6103" + "a2c3a901"
    assert '`"seq"` comes before `"t"`' in LOG_FORMAT


# -- 12. every integer bound of a log record is one the spec states (Limits, and the prose after it)


_PROBES = (-2**63, -1, 0, 1, 7, 8, 64, 65, 2**64 - 1)
#: field -> the probes its shape accepts, as spec/log-format.md states them ("Limits": a seat
#: number 0..7, `seq` ≥ 1, the genesis's `protocol` and a result's `scores` any integer)
_STATED = {
    ("the genesis", "protocol"): set(_PROBES),
    ("an entry", "seq"): {1, 7, 8, 64, 65, 2**64 - 1},
    ("an entry", "seat"): {0, 1, 7},
    ("a result body", "winners"): {0, 1, 7},
    ("a result body", "cheats"): {0, 1, 7},
    ("a resign body", "seat"): {0, 1, 7},
    ("a claim body", "gone"): {0, 1, 7},
    ("a takeover body", "gone"): {0, 1, 7},
    ("a result body", "scores"): set(_PROBES),
    ("a results body", "winners"): {0, 1, 7},  # (a `results` body holds a result's fields: "Limits" says "a result's")
    ("a results body", "cheats"): {0, 1, 7},
    ("a results body", "scores"): set(_PROBES),
    # lists whose items are judged elsewhere: a seat map each (SEAT), an ACTION's atoms (the engine)
    ("the genesis", "seats"): set(_PROBES),
    ("a chance body", "outcome"): set(_PROBES),
}


def test_every_integer_bound_of_a_record_is_stated_in_the_spec():
    shapes = [schema.GENESIS, schema.SEAT, schema.ENTRY, schema.SIGNED_GENESIS, *schema.BODIES.values()]
    found = {}
    for shape in shapes:
        for key, ok in shape.fields:
            plain = {v for v in _PROBES if ok(v)}
            listed = {v for v in _PROBES if ok((v,))}
            if plain or listed:
                found[(shape.name, key)] = plain or listed
    assert found == _STATED
    limits = LOG_FORMAT[LOG_FORMAT.index("## Limits"):LOG_FORMAT.index("## The file")]
    for words in ("`seq` ≥ 1", "a seat number (`seat`, `winners`, `cheats`, a resign body's `seat`, a claim body's `gone`, a takeover body's `gone`, a TAKEN's `seat` and `runner`)", "`protocol` (any integer",
                  "each of a result's\n  `scores`"):
        assert words in limits, words
