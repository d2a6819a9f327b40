"""The analysis file (spec/analysis.md) and the text report.

The file sits beside its log (`GAME.pblog` -> `GAME.analysis.json`) and names the log by
the hash of its genesis and of its last entry (which chains every entry before it), so a
reader can tell whether an analysis belongs to the log it holds: a log that grew or
changed has another head.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from peerboard.client.analysis.calibrate import calibration_for
from peerboard.client.analysis.judge import BLUNDER, CHECKS, EXTRA, MISTAKE, Z, Judgement, mark_of
from peerboard.client.analysis.positions import Position
from peerboard.client.text import printable
from peerboard.protocol.log import LogContents, fingerprint

FORMAT = "peerboard-analysis"
VERSION = 4
#: the versions `read` takes (1: before marks needed evidence; its moves lack error, sure,
#: extra; 2: its chances are the search's own, not calibrated, and it has no search_* keys;
#: 3: its marks rest on one search, and its moves lack checks)
READABLE = (1, 2, 3, 4)
#: the moves per seat the text report lists
WORST = 3


def path_for(log: Path) -> Path:
    """Where the analysis of `log` is kept: beside it, `.analysis.json` for its suffix."""
    return log.with_name(log.stem + ".analysis.json")


def head_of(contents: LogContents) -> bytes:
    """The hash naming the whole log: its last entry's (the genesis's when it has none)."""
    return contents.entries[-1].hash if contents.entries else contents.genesis.hash


def document(contents: LogContents, file_name: str, judgements: Sequence[Judgement | None],
             found: Sequence[Position], budget: str, seed: int, engine: str) -> dict[str, Any]:
    """The analysis of a log: `judgements` one per position of `found` (None where not judged)."""
    g = contents.genesis.terms
    moves = [_move(j) for j in judgements if j is not None]
    cal = calibration_for(g.game, len(g.seats))
    return {
        "format": FORMAT,
        "version": VERSION,
        "log": {"file": file_name, "game": g.game, "engine": engine, "genesis": contents.genesis.hash.hex(),
                "head": head_of(contents).hex(), "entries": len(contents.entries)},
        "seats": [{"name": s.name, "fingerprint": fingerprint(s.key)} for s in g.seats],
        "settings": {"budget": budget, "seed": seed, "mistake": MISTAKE, "blunder": BLUNDER, "z": Z,
                     "extra": EXTRA, "checks": CHECKS, "calibration": cal.source if cal is not None else ""},
        "decisions": len(found),
        "forced": sum(p.forced for p in found),
        "passes": sum(p.passed and not p.forced for p in found),
        "moves": moves,
    }


def _move(j: Judgement) -> dict[str, Any]:
    return {
        "seq": j.seq, "index": j.index, "seat": j.seat, "kind": j.kind,
        "played": j.played, "preferred": j.preferred,
        "before": list(j.before), "after": list(j.after),
        "drop": round(j.drop, 4), "error": j.error, "sure": round(j.sure, 4), "mark": j.mark,
        "playouts": j.playouts, "played_playouts": j.played_playouts, "preferred_playouts": j.preferred_playouts,
        "extra": j.extra, "checks": j.checks,
    } | ({"search_before": list(j.search_before), "search_after": list(j.search_after), "search_error": j.search_error}
         if j.search_before else {})


def write(path: Path, doc: dict[str, Any]) -> None:
    """Written whole to a new file and renamed over the old: a reader never sees half."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


#: the largest analysis file read (one of a long game is a few MiB): a larger one is refused
MAX_FILE = 32 * 1024 * 1024
#: the longest notation of an action kept in a move record
MAX_NOTATION = 200
MARKS = ("", "mistake", "blunder", "close")


class AnalysisFileError(ValueError):
    """An analysis file that cannot be used, with a sentence saying why; `missing` when
    there is none at all (nothing to tell the person then)."""

    def __init__(self, why: str, missing: bool = False):
        super().__init__(why)
        self.missing = missing


def read(path: Path, contents: LogContents) -> dict[str, Any]:
    """The analysis of `contents` kept at `path`; AnalysisFileError when it is not there,
    not an analysis, or of another log (another genesis, or the log has changed since).
    Nothing in the file is trusted (it is nobody's signed word, and may be anyone's): a
    file too large, nested too deep, or with a record that is not as spec/analysis.md says
    is refused whole, in one sentence."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE + 1)
    except FileNotFoundError:
        raise AnalysisFileError(f"no analysis beside the log ({path.name})", missing=True) from None
    except OSError as exc:
        raise AnalysisFileError(f"{path.name} cannot be read ({exc.strerror})") from None
    if len(data) > MAX_FILE:
        raise AnalysisFileError(f"{path.name} is larger than an analysis file can be ({MAX_FILE // 2**20} MiB)")
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise AnalysisFileError(f"{path.name} is not an analysis file (nested too deep)") from None
    except (UnicodeDecodeError, ValueError) as exc:  # (json.JSONDecodeError is a ValueError)
        raise AnalysisFileError(f"{path.name} is not an analysis file ({printable(str(exc), 120)})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") not in READABLE:
        raise AnalysisFileError(f"{path.name} is not a version {' or '.join(map(str, READABLE))} analysis file")
    log = doc.get("log")
    if not isinstance(log, dict) or log.get("head") != head_of(contents).hex():
        raise AnalysisFileError(f"{path.name} analyses another log, or this log before it changed: analyse it again")
    seats = len(contents.genesis.terms.seats)
    moves = doc.get("moves")
    if (not isinstance(doc.get("seats"), list) or len(doc["seats"]) != seats or not isinstance(moves, list)
            or not all(_well_formed(m, seats, len(contents.entries)) for m in moves)):
        raise AnalysisFileError(f"{path.name} has a record that is not as spec/analysis.md says")
    return doc


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number JSON has")


def _chance(v: Any) -> bool:
    return type(v) in (int, float) and 0 <= v <= 1


def _well_formed(m: Any, seats: int, entries: int) -> bool:
    if not isinstance(m, dict):
        return False
    try:
        return (type(m["seq"]) is int and 1 <= m["seq"] <= entries and type(m["index"]) is int and m["index"] >= 0
                and type(m["seat"]) is int and 0 <= m["seat"] < seats
                and all(isinstance(m[k], str) and len(m[k]) <= MAX_NOTATION for k in ("played", "preferred"))
                and m["mark"] in MARKS and type(m["drop"]) in (int, float) and -1 <= m["drop"] <= 1
                and all(isinstance(m[k], list) and len(m[k]) == seats and all(_chance(v) for v in m[k])
                        for k in ("before", "after"))
                # (version 2's evidence: absent from a version 1 file, a number when there)
                and all(type(m.get(k, 0)) in (int, float) and 0 <= m.get(k, 0) <= 1
                        for k in ("error", "sure", "search_error"))
                # (version 3's search's own chances: absent where not calibrated)
                and all(isinstance(m.get(k, []), list) and len(m.get(k, [])) in (0, seats)
                        and all(_chance(v) for v in m.get(k, [])) for k in ("search_before", "search_after"))
                and all(type(m.get(k, 0)) is int and m.get(k, 0) >= 0
                        for k in ("playouts", "played_playouts", "preferred_playouts", "extra", "checks")))
    except (KeyError, TypeError):
        return False


def report(doc: dict[str, Any], boards: dict[tuple[int, int], str] | None = None) -> str:
    """The header (what was judged, the budget, what a mark means), then per seat how many
    marks and the costliest marked moves, each with the better move (and the position,
    for those in `boards`); the count printed is the count listed, or says how many of it."""
    lines = []
    log, seats, settings = doc["log"], doc["seats"], doc["settings"]
    judged = len(doc["moves"])
    skipped = []
    if doc.get("forced"):
        skipped.append(f"{doc['forced']} forced")
    if doc.get("passes"):
        skipped.append(f"{doc['passes']} passes")
    lines.append(f"{printable(log['file'], 80)}: {log['game']}, {judged} moves judged of {doc['decisions']} decisions"
                 + (f" ({', '.join(skipped)}: not the seat's own choice)" if skipped else "")
                 + f", budget {settings['budget']}, seed {settings['seed']}")
    mistake, blunder = _pct(settings["mistake"]), _pct(settings["blunder"])
    checks = settings.get("checks", 0)
    checked = (f"; a move that looks like a mistake is searched again {checks} times, each with its own luck, "
               f"and judged by their mean and spread" if checks else "")
    lines.append(f"marks: a mistake lost at least {mistake} of the mover's chance of winning, a blunder {blunder}, "
                 f"the search at least 97.5% sure of it (more playouts where in doubt, up to "
                 f"{settings.get('extra', 1):g}x the budget{checked}); close: looked like a mistake, not sure at this budget")
    lines.append(chance_line(doc))
    for seat, who in enumerate(seats):
        own = [m for m in doc["moves"] if m["seat"] == seat]
        count = {mark: sum(m["mark"] == mark for m in own) for mark in ("blunder", "mistake", "close")}
        lines.append(f"seat {seat} {printable(who['name'], 40)} ({who['fingerprint']}): {len(own)} moves judged, "
                     f"{_count(count['blunder'], 'blunder')}, {_count(count['mistake'], 'mistake')}, "
                     f"{count['close']} close")
        marked = sorted((m for m in own if m["mark"] in ("blunder", "mistake")),
                        key=lambda m: (-m["drop"], m["seq"], m["index"]))
        for m in marked[:WORST]:
            sure = f", sure {_pct(m['sure'])}" if "sure" in m else ""
            margin = f" ±{100 * Z * m['error']:.0f}" if m.get("error") else ""
            lines.append(f"  seq {m['seq']} {m['mark']}: played {printable(m['played'], 60)} "
                         f"({_pct(m['before'][seat])} -> {_pct(m['after'][seat])}{margin}{sure}); "
                         f"better {printable(m['preferred'], 60)}")
            board = (boards or {}).get((m["seq"], m["index"]))
            if board:
                lines.extend("    " + row for row in board.splitlines())
        if len(marked) > WORST:
            lines.append(f"  ({WORST} of the {len(marked)} marked moves shown, the costliest; all are in the analysis file)")
    return "\n".join(lines)


def chance_line(doc: dict[str, Any]) -> str:
    """What the chances printed are: calibrated to who won (and to what), or the search's own."""
    log, seats = doc["log"], len(doc["seats"])
    source = doc["settings"].get("calibration")
    if source and isinstance(source, str):
        return f"chances: calibrated to who won ({printable(source, 160)})"
    if doc.get("version", VERSION) < 3:
        return "chances: the search's own (an analysis from before chances were calibrated: analyse again)"
    return (f"chances: the search's own, not calibrated (no calibration for {printable(str(log['game']), 40)} "
            f"at {seats} seats)")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%"


__all__ = ["AnalysisFileError", "FORMAT", "VERSION", "document", "head_of", "mark_of", "path_for", "read",
           "report", "write"]
