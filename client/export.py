"""A verified log written out for people (the notation) or programs (JSON)."""
from __future__ import annotations

import json
from typing import Any

from peerboard.protocol.log import Ledger, LedgerError, LogContents, audited_seeds, fingerprint, result_in


def _json_value(value: Any) -> Any:
    """An option's value as JSON can hold it: a genesis may carry any canonical value, bin
    included (written as hex), whatever the game then makes of it."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    return value


def _steps(contents: LogContents) -> list[dict[str, Any]]:
    """Each entry that checks out, with its actions and the chance outcomes it brought
    about in the game's notation (hidden draws shown once the audit revealed them)."""
    steps = []
    try:
        ledger = Ledger.start(contents.genesis, audited_seeds(contents))
    except LedgerError:
        return steps
    for entry in contents.entries:
        game, state = ledger.game, ledger.state
        try:
            ledger = ledger.check(entry)
        except LedgerError:
            break  # the export ends where the log stops checking out
        texts: list[str] = []
        if entry.kind == "move":
            # the ledger took them: each is legal where it stands, so the engine can write it
            for action in entry.body["actions"]:
                texts.append(game.format_action(state, action))
                state = game.apply(state, action)
        step = {
            "seq": entry.seq, "seat": entry.seat, "kind": entry.kind, "actions": texts,
            "chance": [ledger.game.format_action(before, o) for before, o in ledger.outcomes],
        }
        result = result_in(entry)  # (a `result`, or the `results` of an end together)
        if result is not None:
            step["winners"] = list(result["winners"])
            step["scores"] = list(result["scores"])
            step["cheats"] = list(result["cheats"])
            if "ending" in result:  # how a game ended otherwise than by its rules (spec/log-format.md, "Endings")
                ending = result["ending"]
                step["ending"] = {"how": ending["how"], "seats": list(ending["seats"]), "seq": ending["seq"],
                                  "unchecked": list(ending["unchecked"])}
        elif entry.kind == "resign":
            step["resigned"] = entry.body["seat"]
        elif entry.kind == "claim":
            step["claimed"] = entry.body["gone"]
        elif entry.kind == "agree":
            step["agreed"] = entry.body["how"]
        elif entry.kind == "protest":  # (the claimed seat disputes the claim before it: spec/protocol.md)
            step["protested"] = [e["seq"] for e in entry.body["entries"]]
        steps.append(step)
    return steps


def as_text(contents: LogContents) -> str:
    g = contents.genesis.terms
    lines = [f"# peerboard log: {g.game} (engine {g.engine}, protocol {g.protocol})"]
    if g.options:
        lines.append("# options: " + json.dumps(_json_value(dict(g.options)), sort_keys=True))
    for i, seat in enumerate(g.seats):
        lines.append(f"# seat {i}: {seat.name} ({fingerprint(seat.key)})")
    for step in _steps(contents):
        if step["kind"] in ("result", "results"):
            won = ",".join(map(str, step["winners"])) or "none"
            body = f"winners {won}; scores {' '.join(map(str, step['scores']))}"
            if step["cheats"]:
                body += f"; the audit names seat(s) {','.join(map(str, step['cheats']))}"
            if "ending" in step:
                body += f"; {step['ending']['how']} at entry {step['ending']['seq']}"
        elif step["kind"] == "resign":
            body = f"seat {step['resigned']} resigns"
        elif step["kind"] == "claim":
            body = f"seat {step['claimed']} is claimed: gone for good"
        elif step["kind"] == "agree":
            body = f"every seat agrees: {step['agreed']}"
        elif step["kind"] == "protest":
            carried = step["protested"]
            kept = f"entr{'ies' if len(carried) > 1 else 'y'} {', '.join(map(str, carried))}"
            body = "disputes the claim: it was here" + (f" (its own {kept} carried)" if carried else "")
        else:
            body = "; ".join(step["actions"])
        if step["chance"]:
            body += ("  " if body else "") + "-> " + ", ".join(step["chance"])
        lines.append(f"{step['seq']:>5}  seat {step['seat']}  {step['kind']:<6}  {body}")
    return "\n".join(lines)


def as_json(contents: LogContents) -> str:
    g = contents.genesis.terms
    doc = {
        "game": g.game,
        "engine": g.engine,
        "protocol": g.protocol,
        "options": _json_value(dict(g.options)),
        "seats": [{"name": s.name, "key": s.key.hex(), "fingerprint": fingerprint(s.key)} for s in g.seats],
        "entries": _steps(contents),
    }
    return json.dumps(doc, indent=1)
