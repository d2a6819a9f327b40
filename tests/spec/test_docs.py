"""README.md and the manual (docs/) say only what is true of this checkout: every link and
every path they name resolves (a link's anchor too), every `peerboard …` command they show
parses with the real command line parser (parsed, never run), and their code examples run:
the SDK bot, `verify_file`, the `selfplay` lines (with small counts)."""
from __future__ import annotations

import re
import shlex
import unicodedata
from pathlib import Path

import pytest

from peerboard.client.cli import build_parser
from peerboard.client.usage import UsageError

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", ROOT / "tests" / "README.md", *(ROOT / "docs").glob("*.md")])
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
#: a path the prose names: a folder of the repository, then more of it (no placeholder)
PATH = re.compile(r"^(?:engines|protocol|node|client|spec|tests|bench|examples|docs)/[\w./-]*$")
PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b")  # NAME, GAME, FILE ...: a path standing for many


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _prose(text: str) -> str:
    """The text outside fenced code blocks."""
    return FENCE.sub("", text)


def _blocks(text: str, *languages: str) -> list[str]:
    return [body for language, body in FENCE.findall(text) if language in languages]


def slug(heading: str) -> str:
    """A heading's anchor as MkDocs (Python-Markdown's toc) makes it."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} +(.+?) *$", _prose(path.read_text()), re.M)}


def links() -> list[tuple[Path, str]]:
    return [(doc, target) for doc in DOCS for target in LINK.findall(_prose(doc.read_text()))
            if not re.match(r"[a-z]+:", target)]


def test_every_link_in_the_readme_and_the_manual_resolves_with_its_anchor():
    broken, checked = [], links()
    for doc, target in checked:
        where, _, anchor = target.partition("#")
        path = (doc.parent / where).resolve() if where else doc
        if not path.exists():
            broken.append(f"{_name(doc)}: {target} (no such file)")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{_name(doc)}: {target} (no heading makes #{anchor})")
    assert len(checked) > 60, f"only {len(checked)} links found: the check reads less than it should"
    assert not broken, "\n".join(broken)


#: a file of the repository named in the running text, e.g. (spec/log-format.md, "Names")
NAMED_FILE = re.compile(r"(?<![\w/.~-])(?:engines|protocol|node|client|spec|tests|bench|examples|docs)/[\w/-]+\.(?:py|md|js|json)\b")


def test_every_path_the_prose_names_exists():
    named = {(doc, span) for doc in DOCS for span in CODE_SPAN.findall(_prose(doc.read_text()))
             if PATH.match(span) and not PLACEHOLDER.search(span)}
    named |= {(doc, path) for doc in DOCS for path in NAMED_FILE.findall(_prose(doc.read_text()))
              if not PLACEHOLDER.search(path)}
    missing = [f"{_name(doc)}: {span}" for doc, span in sorted(named) if not (ROOT / span).exists()]
    assert len(named) > 20
    assert not missing, "\n".join(missing)


def commands(spans: bool = True) -> list[tuple[str, str]]:
    """Every `peerboard …` command a reader might type: the lines of shell blocks, and (with
    `spans`) the code spans of the prose that are commands (COMMAND standing for none)."""
    found = []
    for doc in DOCS:
        text = doc.read_text()
        for block in _blocks(text, "", "sh", "bash", "console"):
            found += [(_name(doc), line.strip()) for line in block.splitlines()
                      if re.match(r"peerboard( +[-a-z]| *$| +#)", line.strip())]
        found += [(_name(doc), span) for span in CODE_SPAN.findall(_prose(text))
                  if spans and re.match(r"peerboard [a-z-]+ ", span) and not re.search(r"COMMAND|…", span)]
    return found


def test_every_peerboard_command_shown_parses_with_the_real_parser(capsys):
    refused, shown = [], commands()
    for doc, line in shown:
        argv = shlex.split(line, comments=True)[1:]
        argv = argv[:argv.index(">")] if ">" in argv else argv  # (the shell's redirection)
        try:
            build_parser().parse_args(argv)
        except UsageError as exc:
            refused.append(f"{doc}: {line}\n    peerboard: {exc}")
        except SystemExit as exc:  # (--help and --version print and stop: that parsed)
            if exc.code not in (0, None):
                refused.append(f"{doc}: {line}\n    exit {exc.code}")
    capsys.readouterr()
    assert len(shown) > 50, f"only {len(shown)} commands found"
    assert not refused, "\n".join(refused)


# -- the code examples run ----------------------------------------------------------------------

def _python_blocks(doc: Path) -> list[str]:
    return _blocks(doc.read_text(), "python")


def _first_bot(doc: Path) -> str:
    [block] = [b for b in _python_blocks(doc) if b.startswith("# first.py")]
    return block


@pytest.mark.parametrize("doc", ["README.md", "docs/bots.md"])
def test_the_first_bot_shown_plays_a_tournament_against_greedy(doc, tmp_path, monkeypatch, capsys):
    from peerboard.client.cli import main

    (tmp_path / "first.py").write_text(_first_bot(ROOT / doc))
    monkeypatch.chdir(tmp_path)  # (a bot module is found in the current directory first)
    monkeypatch.delitem(__import__("sys").modules, "first", raising=False)
    assert main(["selfplay", "aton", "--players", "first:FirstBot,greedy", "--games", "2", "--seed", "3"]) == 0
    table = capsys.readouterr().out
    assert "first" in table and "greedy" in table


def test_verify_file_as_shown_gives_the_verdict_replay_verify_prints(tmp_path, monkeypatch, capsys):
    from peerboard.client.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["selfplay", "aton", "--games", "1", "--seed", "5", "--save", "games", "--option", "win_points=10"]) == 0
    [log] = (tmp_path / "games").glob("*.pblog")
    log.rename(tmp_path / "game.pblog")
    capsys.readouterr()
    [example] = [b for b in _python_blocks(ROOT / "docs" / "saved-games.md") if "verify_file" in b]
    exec(compile(example, "docs/saved-games.md", "exec"), {})
    shown = capsys.readouterr().out
    assert main(["replay", "game.pblog", "--verify"]) == 0
    assert shown.strip() == capsys.readouterr().out.strip() and shown.startswith("valid: aton")


def _small(line: str) -> list[str]:
    """A selfplay line of the manual with small counts: one game of at most 300 moves, one job,
    a short search."""
    argv = shlex.split(line, comments=True)[1:]
    out, i = [], 0
    while i < len(argv):
        word = argv[i]
        if word in ("--games", "--jobs", "--budget"):
            out += [word, {"--games": "1", "--jobs": "1", "--budget": "10"}[word]]
            i += 2
            continue
        out.append(re.sub(r"@[\d.]+s?\b", "@10", word) if i > 0 and argv[i - 1] == "--players" else word)
        i += 1
    return out + ["--max-moves", "300"]


@pytest.mark.processes  # (the `exec` line runs examples/random_bot.py as a program)
@pytest.mark.timeout(900)  # CPU-bound: on a loaded machine its wall time is several times its CPU time
def test_the_selfplay_lines_of_the_manual_play_with_small_counts(tmp_path, monkeypatch, capsys):
    from peerboard.client.cli import main

    lines = [line for _, line in commands(spans=False)
             if line.startswith("peerboard selfplay ") and "first:" not in line]
    assert len(lines) >= 5
    for line in lines:
        monkeypatch.chdir(ROOT)  # (--exec names examples/ from the checkout; --save is made absolute)
        argv = [str(tmp_path / a) if a.endswith("/") else a for a in _small(line)]
        assert main(argv) == 0, f"{line}:\n{capsys.readouterr()}"
    capsys.readouterr()
