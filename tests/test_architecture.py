"""The package's shape, read from its source: the layers import one way only and
without a cycle, the client knows only the wire contract and display code, and each
module is small and says what it is for.

The graph is read statically (every `import` in a module, inside functions and
`TYPE_CHECKING` blocks too), so a cycle hidden in a lazy import or a type hint counts:
both are coupling that a reader has to untangle.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The import package's subpackages and the folders they live in (setup.py maps them).
FOLDERS = {
    "engine": ROOT / "engine",
    "solver": ROOT / "solver",
    "bots": ROOT / "bots",
    "server": ROOT / "server",
    "client": ROOT / "client",
    "cli": ROOT / "cli",
}
#: Who may import whom (ARCHITECTURE in README.md): engine ← solver ← bots ← server, the
#: client on the wire contract alone, the command line at the edge.
MAY_IMPORT = {
    "engine": {"engine"},
    "solver": {"engine", "solver"},
    "bots": {"engine", "solver", "bots"},
    "server": {"engine", "solver", "bots", "server", "v1"},
    "client": {"client", "v1"},
    "cli": {"engine", "solver", "bots", "server", "client", "cli", "v1"},
}
#: What the client may import from outside the package: the standard library and
#: display and transport code, nothing that knows the game.
CLIENT_THIRD_PARTY = {"textual", "rich", "grpc", "google"}
#: The compiled search is one file by design (its helpers are included .pxi files).
LONG_FILES_ALLOWED = {"solver/_search.pyx"}
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    found = {}
    for sub, folder in FOLDERS.items():
        for path in sorted([*folder.rglob("*.py"), *folder.rglob("*.pyx")]):
            if "__pycache__" in path.parts:
                continue
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            found[".".join(["cursedbottle", sub, *parts])] = path
    return found


MODULES = _modules()


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _imports(module: str, path: Path) -> set[str]:
    """Every module of the package this one names in an import, resolved to a module
    that exists (`from x import name` counts `x.name` when that is a module)."""
    if path.suffix == ".pyx":
        return set()  # the compiled search imports nothing of the package but itself
    tree = ast.parse(path.read_text(), str(path))
    package = _package_of(module, path)
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                # `from pkg import module` imports the module; `from pkg import name`, pkg.
                named.add(sub if sub in MODULES else origin)
    out = set()
    for name in named:
        while name and name not in MODULES and name.startswith("cursedbottle."):
            name = name.rpartition(".")[0]
        if name in MODULES and name != module:
            out.add(name)
    return out


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in GRAPH:
        if node not in index:
            visit(node)
    return found


def test_the_scan_sees_the_package():
    assert "cursedbottle.engine.hand" in MODULES and "cursedbottle.client.model" in MODULES
    assert "cursedbottle.engine.cards" in GRAPH["cursedbottle.engine.hand"]


def test_no_import_cycle():
    assert _cycles() == []


def test_the_cycle_finder_finds_one(monkeypatch):
    """The check above can fail: a made-up back edge is a cycle."""
    monkeypatch.setitem(GRAPH, "cursedbottle.engine.cards",
                        GRAPH["cursedbottle.engine.cards"] | {"cursedbottle.engine.hand"})
    assert any("cursedbottle.engine.hand" in c for c in _cycles())


@pytest.mark.parametrize("layer", sorted(FOLDERS))
def test_layers_import_one_way(layer):
    allowed = MAY_IMPORT[layer]
    wrong = {
        module: sorted(n for n in names if n.split(".")[1] not in allowed)
        for module, names in GRAPH.items()
        if module.split(".")[1] == layer
    }
    assert {m: n for m, n in wrong.items() if n} == {}


def test_client_imports_only_the_wire_and_display_code():
    stdlib = set(sys.stdlib_module_names)
    wrong = {}
    for module, path in MODULES.items():
        if not module.startswith("cursedbottle.client"):
            continue
        tops = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                tops.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                tops.add(node.module.split(".")[0])
        bad = tops - stdlib - CLIENT_THIRD_PARTY - {"cursedbottle", "__future__"}
        if bad:
            wrong[module] = sorted(bad)
    assert wrong == {}


def _package_files() -> list[Path]:
    files = []
    for folder in FOLDERS.values():
        for pattern in ("*.py", "*.pyx", "*.pxi", "*.tcss"):
            files += [p for p in folder.rglob(pattern) if "__pycache__" not in p.parts]
    return sorted(files)


def test_no_file_of_the_package_is_long():
    long = {
        str(p.relative_to(ROOT)): n
        for p in _package_files()
        if (n := len(p.read_text().splitlines())) > MAX_LINES
        and str(p.relative_to(ROOT)) not in LONG_FILES_ALLOWED
    }
    assert long == {}


def test_every_module_says_what_it_is_for():
    silent = [
        str(path.relative_to(ROOT))
        for path in MODULES.values()
        if path.suffix == ".py"
        and path.read_text().strip()
        and not ast.get_docstring(ast.parse(path.read_text()))
    ]
    assert silent == []
