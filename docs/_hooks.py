"""MkDocs hooks for the manual (mkdocs.yml): the site shows the pages of docs/ and the files
of the repository they link to, and its navigation lists only the pages that exist.

The pages link to the standard and the figures where they sit in the repository
(`../spec/protocol.md`, `../bench/RESULTS.md`), so the links work in a checkout as they are.
Those files are outside docs/: `on_files` adds each one a page links to, at its place in the
repository (`spec/protocol.md`), and `on_page_markdown` points the link there. Pages that
other work adds later (docs/analysis.md, docs/research.md ...) are named in the navigation
ahead of time; `on_config` leaves out those not written yet, so the build never breaks."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

LINK = re.compile(r"(\]\()([^)\s#]+)([^)]*\))")


def _repo(config) -> Path:
    return Path(config["config_file_path"]).resolve().parent


def _outside(page_src: str, target: str, docs: Path, repo: Path) -> str | None:
    """The repository path of a link's target outside docs/ (None: a page's own link)."""
    if "://" in target or target.startswith(("/", "mailto:")):
        return None
    path = (docs / posixpath.dirname(page_src) / target).resolve()
    if docs in path.parents or not path.is_file() or repo not in path.parents:
        return None
    return path.relative_to(repo).as_posix()


def _existing(nav, docs: Path):
    kept = []
    for item in nav:
        if isinstance(item, dict):
            (title, value), = item.items()
            if isinstance(value, list):
                value = _existing(value, docs)
                if value:
                    kept.append({title: value})
            elif "://" in value or (docs / value).is_file():
                kept.append(item)
        elif "://" in item or (docs / item).is_file():
            kept.append(item)
    return kept


def on_config(config, **kwargs):
    config["nav"] = _existing(config["nav"], Path(config["docs_dir"]))
    return config


def on_files(files, config, **kwargs):
    docs, repo = Path(config["docs_dir"]).resolve(), _repo(config)
    wanted: set[str] = set()
    for page in list(files.documentation_pages()):
        for _, target, _ in LINK.findall(Path(page.abs_src_path).read_text(encoding="utf-8")):
            where = _outside(page.src_uri, target, docs, repo)
            if where is not None:
                wanted.add(where)
    for where in sorted(wanted):
        if files.get_file_from_path(where) is None:
            files.append(File(where, str(repo), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown, page, config, files, **kwargs):
    docs, repo = Path(config["docs_dir"]).resolve(), _repo(config)

    def point(m: re.Match) -> str:
        if page.file.abs_src_path and docs not in Path(page.file.abs_src_path).resolve().parents:
            return m.group(0)  # (a repository file shown as it is: its links are its own)
        where = _outside(page.file.src_uri, m.group(2), docs, repo)
        if where is None:
            return m.group(0)
        return m.group(1) + posixpath.relpath(where, posixpath.dirname(page.file.src_uri) or ".") + m.group(3)

    return LINK.sub(point, markdown)
