"""The house's layering, read from the source (every import, those under TYPE_CHECKING and
inside functions included): protocol/ has no import cycle at all; the log half imports
nothing of the live session; node/, client/ and bench/ reach protocol/ only through its two
faces (peerboard.protocol.log, peerboard.protocol.session), and so does each half the other;
and imports point down: client -> node -> protocol -> engines."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FACES = ("peerboard.protocol.log", "peerboard.protocol.session")
#: each layer's package and the layers it may import (itself included)
LAYERS = {
    "engines": ("engines",),
    "protocol": ("protocol", "engines"),
    "node": ("node", "protocol", "engines"),
    "client": ("client", "node", "protocol", "engines"),
}


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("peerboard",) + parts)


def _modules(*folders: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found[_module_of(path)] = path
    return found


ALL = _modules("engines", "protocol", "node", "client", "bench")


def _face_names(face: str) -> set[str]:
    """The names a face's `__all__` lists."""
    tree = ast.parse(ALL[face].read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return {elt.value for elt in node.value.elts}  # type: ignore[attr-defined]
    return set()


def imports(module: str) -> list[tuple[str, str | None, int]]:
    """(the module imported from, the name imported or None, line) of every import of ours in
    `module`, wherever it stands in the file."""
    path = ALL[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names if alias.name.startswith("peerboard")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            if base.startswith("peerboard"):
                found += [(base, alias.name, node.lineno) for alias in node.names]
    return found


def targets(module: str) -> set[str]:
    """The modules of ours `module` depends on: `from P import name` is P.name when that is
    a module, else P."""
    out = set()
    for base, name, _ in imports(module):
        sub = f"{base}.{name}" if name is not None else None
        out.add(sub if sub in ALL else base)
    return {t for t in out if t in ALL}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one that imports
    itself (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph.get(v, ()):
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_protocol_has_no_import_cycle_type_hints_included():
    protocol = {m for m in ALL if m.startswith("peerboard.protocol")}
    graph = {m: targets(m) & protocol for m in protocol}
    assert _cycles(graph) == []


def test_the_log_imports_nothing_of_the_live_session():
    wrong = [(m, base, line) for m in ALL if m.startswith("peerboard.protocol.log")
             for base, _, line in imports(m) if base.startswith("peerboard.protocol.session")]
    assert wrong == []


def test_the_other_layers_and_the_other_half_import_protocol_only_through_its_faces():
    names = {face: _face_names(face) for face in FACES}
    wrong = []
    for module in ALL:
        own = next((face for face in FACES if module == face or module.startswith(face + ".")), None)
        for base, name, line in imports(module):
            if not base.startswith("peerboard.protocol") or (own is not None and base.startswith(own)):
                continue  # (not protocol, or inside its own half)
            if base in FACES and (name is None or name in names[base]):
                continue
            wrong.append(f"{module}:{line} imports {base}{'' if name is None else ' ' + name}")
    assert wrong == []


def test_imports_point_down_client_node_protocol_engines():
    wrong = []
    for module in ALL:
        layer = module.split(".")[1]
        allowed = LAYERS.get(layer)
        if allowed is None:
            continue  # (bench/ may use every layer)
        for target in targets(module):
            if target.split(".")[1] not in allowed and target != "peerboard":
                wrong.append(f"{module} imports {target}")
    assert wrong == []
