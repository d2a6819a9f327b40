"""`peerboard replay FILE --html OUT` and `peerboard replay FILE --svg SEQ [--as SEAT] [-o OUT]`:
a saved game as one page, or one of its positions as a picture."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from peerboard.client.exitcode import ExitCode
from peerboard.client.usage import UsageError


def write(path: Path, args: argparse.Namespace) -> ExitCode:
    from peerboard.client.tui.replay import load

    source, verdict = load(path, view_as=args.view_as)
    if source is None:
        print(verdict.summary(), file=sys.stderr)
        return ExitCode.INVALID
    if args.svg is not None:
        return _svg(source, path, args)
    return _html(source, Path(args.html))


def _html(source, out: Path) -> ExitCode:
    from peerboard.client.page import build

    started = time.process_time()
    page = build(source, source.view_as)
    _write(out, page.html)
    size = len(page.html.encode("utf-8"))
    views = f", {page.views} views" if page.views > 1 else ""
    analysed = ", with its analysis" if source.analysis is not None else (
        f" ({source.analysis_note})" if source.analysis_note and "no analysis beside" not in source.analysis_note
        else "")
    print(f"wrote {out}: {page.positions} positions{views}{analysed}, {size / 1024:.0f} KiB "
          f"in {time.process_time() - started:.1f} s of CPU")
    return ExitCode.DONE


def _svg(source, path: Path, args: argparse.Namespace) -> ExitCode:
    import peerboard.svg
    from peerboard.client.page.builder import last_actions

    if not 0 <= args.svg <= source.last:
        raise UsageError(f"--svg {args.svg}: this log's positions are 0 (the start) to {source.last}")
    last, before = last_actions(source, args.svg)
    names = [name for name, _ in source.seats]
    svg = peerboard.svg.board(source.game, source.states[args.svg], source.view_as, last=last, names=names,
                              before=before)
    if args.output == "-":
        sys.stdout.write(svg)
        return ExitCode.DONE
    seen = "" if source.view_as is None else f"-as{source.view_as}"
    out = Path(args.output) if args.output else Path(f"{path.stem}-{args.svg}{seen}.svg")
    _write(out, svg)
    print(f"wrote {out}: the position after entry {args.svg} of {source.last}")
    return ExitCode.DONE


def _write(out: Path, text: str) -> None:
    """Whole or not at all: a new file renamed over the old."""
    if out.is_dir():
        raise UsageError(f"{out} is a folder; name the file to write")
    if not out.parent.exists():
        raise UsageError(f"no such folder: {out.parent}")
    tmp = out.with_name(out.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
