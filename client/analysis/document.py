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

from peerboard.client.analysis.judge import BLUNDER, MISTAKE, Judgement, mark_of
from peerboard.client.text import printable
from peerboard.protocol.log import LogContents, fingerprint

FORMAT = "peerboard-analysis"
VERSION = 1
#: the moves per seat the text report lists
WORST = 3


def path_for(log: Path) -> Path:
    """Where the analysis of `log` is kept: beside it, `.analysis.json` for its suffix."""
    return log.with_name(log.stem + ".analysis.json")


def head_of(contents: LogContents) -> bytes:
    """The hash naming the whole log: its last entry's (the genesis's when it has none)."""
    return contents.entries[-1].hash if contents.entries else contents.genesis.hash


def document(contents: LogContents, file_name: str, judgements: Sequence[Judgement | None], positions: int,
             budget: str, seed: int, engine: str) -> dict[str, Any]:
    g = contents.genesis.terms
    moves = [_move(j) for j in judgements if j is not None]
    return {
        "format": FORMAT,
        "version": VERSION,
        "log": {"file": file_name, "game": g.game, "engine": engine, "genesis": contents.genesis.hash.hex(),
                "head": head_of(contents).hex(), "entries": len(contents.entries)},
        "seats": [{"name": s.name, "fingerprint": fingerprint(s.key)} for s in g.seats],
        "settings": {"budget": budget, "seed": seed, "mistake": MISTAKE, "blunder": BLUNDER},
        "decisions": positions,
        "moves": moves,
    }


def _move(j: Judgement) -> dict[str, Any]:
    return {
        "seq": j.seq, "index": j.index, "seat": j.seat, "kind": j.kind,
        "played": j.played, "preferred": j.preferred,
        "before": list(j.before), "after": list(j.after),
        "drop": round(j.drop, 4), "mark": j.mark,
        "playouts": j.playouts, "played_playouts": j.played_playouts, "preferred_playouts": j.preferred_playouts,
    }


def write(path: Path, doc: dict[str, Any]) -> None:
    """Written whole to a new file and renamed over the old: a reader never sees half."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


#: the largest analysis file read (one of a long game is a few MiB): a larger one is refused
MAX_FILE = 32 * 1024 * 1024
#: the longest notation of an action kept in a move record
MAX_NOTATION = 200
MARKS = ("", "mistake", "blunder")


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
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise AnalysisFileError(f"{path.name} is not a version {VERSION} analysis file")
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
                        for k in ("before", "after")))
    except (KeyError, TypeError):
        return False


def report(doc: dict[str, Any], boards: dict[tuple[int, int], str] | None = None) -> str:
    """Per seat: how many mistakes and blunders, and the moves that cost it most, each
    with the better move (and the position, for those in `boards`)."""
    lines = []
    log, seats = doc["log"], doc["seats"]
    lines.append(f"{printable(log['file'], 80)}: {log['game']}, {len(doc['moves'])} moves judged of "
                 f"{doc['decisions']} decisions, budget {doc['settings']['budget']}, seed {doc['settings']['seed']}")
    for seat, who in enumerate(seats):
        own = [m for m in doc["moves"] if m["seat"] == seat]
        mistakes = sum(m["mark"] == "mistake" for m in own)
        blunders = sum(m["mark"] == "blunder" for m in own)
        lines.append(f"seat {seat} {printable(who['name'], 40)} ({who['fingerprint']}): {len(own)} moves, "
                     f"{mistakes} mistake(s), {blunders} blunder(s)")
        worst = sorted(own, key=lambda m: (-m["drop"], m["seq"], m["index"]))[:WORST]
        for m in worst:
            if m["drop"] <= 0:
                break
            mark = f" {m['mark']}" if m["mark"] else ""
            lines.append(f"  seq {m['seq']}{mark}: played {printable(m['played'], 60)} "
                         f"({_pct(m['before'][seat])} -> {_pct(m['after'][seat])}); "
                         f"better {printable(m['preferred'], 60)} ({_pct(m['before'][seat])})")
            board = (boards or {}).get((m["seq"], m["index"]))
            if board:
                lines.extend("    " + row for row in board.splitlines())
    return "\n".join(lines)


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%"


__all__ = ["AnalysisFileError", "FORMAT", "VERSION", "document", "head_of", "mark_of", "path_for", "read",
           "report", "write"]
