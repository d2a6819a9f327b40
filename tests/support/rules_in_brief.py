"""The rules in brief of a game, checked as functions of its name (spec/engine-contract.md,
"How an engine is written"): tests/client/test_game_pieces.py runs them for every game
registered when the tests are collected, tests/engines/test_new_game.py for Pig, registered
inside its test. Each gives None when all is well, else the sentence saying what is wrong.

A text block in Markdown ends at its closing fence, so the engine's text is compared
without its trailing newlines: a `RULES_IN_BRIEF` written with one is the same words.
"""
from __future__ import annotations

import re
from pathlib import Path

from peerboard import engines
from peerboard.client.tui.help import help_text

ROOT = Path(__file__).resolve().parents[2]
SPEC_GAMES = ROOT / "spec" / "games"
SECTION = re.compile(r"^## The rules in brief\n.*?^```text\n(.*?)\n```$", re.S | re.M)


def spec_differs(name: str, folder: Path = SPEC_GAMES) -> str | None:
    """Whether the engine's `rules_text` and the section "## The rules in brief" of its spec
    (`folder/NAME.md`) are the same words, or both absent."""
    text = engines.get(name).rules_text().rstrip("\n")
    path = folder / f"{name}.md"
    if not path.exists():
        return f"{name} has no spec: {path.relative_to(ROOT)} is missing"
    found = SECTION.search(path.read_text())
    if not text:
        return None if found is None else f"{path.name} has rules in brief that its engine does not give"
    if found is None:
        return f'{path.name} has no "## The rules in brief" section with a text block'
    return None if found.group(1) == text else f"the engine's rules_text and {path.name} differ"


def help_misses(name: str) -> str | None:
    """Whether the help screen (F1) shows the rules the engine gives, or, for a game without
    them, names the spec file where its rules are."""
    game = engines.get(name)
    shown = help_text(name, "keys", [("F1", "Help")])
    text = game.rules_text().rstrip("\n")
    wanted = text or f"its rules are in spec/games/{name}.md"
    return None if wanted in shown else f"the help for {name} does not show {wanted[:60]!r}"
