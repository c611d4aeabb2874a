"""The shape of the package: every module of ``president`` imports, and no module imports
itself again through others (an import cycle). A static scan of the import statements:

- those run when a module is imported (at module level, not inside functions or classes,
  not under ``if TYPE_CHECKING:``) form no cycle at all;
- with the imports inside functions added (run later, on first call), the only cycles are
  the known ones of :data:`KNOWN_CYCLES`, which are to be opened.

Imports under ``if TYPE_CHECKING:`` never run (annotations only) and are not counted."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent / "president"

# Import cycles among president's modules that are known and are being opened, each the set
# of modules of one cycle (strongly connected in the graph of imports, those inside
# functions included; at module level there is none). A cycle found that is not within one
# of these fails the test, and so does an entry whose cycle is gone: remove an entry when its
# cycle is opened. (A match and its observations name each other only in annotations, under
# TYPE_CHECKING, which never runs: no cycle here.)
KNOWN_CYCLES: tuple[frozenset[str], ...] = ()

# The rules core: the game itself, which every other part builds on and which needs none of
# them (nor numpy).
CORE = ("cards", "rules", "kernel", "deal", "match", "events", "observation", "actions",
        "narration", "errors")
# What the core never reaches, not even inside a function: the search engine, the players,
# the browser game and the learning environments.
ABOVE_CORE = ("president.search", "president.players", "president.web", "president.env")


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``; a C
    extension by its source, which imports nothing of the package, under the name setup.py
    gives it)."""
    out = {}
    for path in sorted(ROOT.rglob("*.c")):
        # setup.py builds president/native/_x.c as the module president._x
        out[f"president.{path.stem}"] = path
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module, *, in_functions: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run: at module level (inside module-level ``if``,
    ``try`` and ``with`` blocks too), and with ``in_functions`` those in the bodies of
    functions and classes as well; never those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(reversed(node.orelse))
        elif in_functions:
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.ExceptHandler)):
            stack.extend(reversed([c for c in ast.iter_child_nodes(node)
                                   if isinstance(c, (ast.stmt, ast.ExceptHandler))]))
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The modules of president that one import statement of module ``name`` imports."""
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
        bases: list[tuple[str, list[str]]] = [(w, []) for w in wanted]
    else:
        if node.level:
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{node.module}" if node.module else package
        else:
            base = node.module or ""
        bases = [(base, [alias.name for alias in node.names])]
    out = set()
    for base, names in bases:
        subs = [f"{base}.{n}" for n in names if f"{base}.{n}" in MODULES]
        out.update(subs)         # "from package import module" imports that module ...
        if base in MODULES and (not names or len(subs) < len(names)):
            out.add(base)        # ... and a name defined in the package, the package
        if base not in MODULES and base.startswith("president"):
            # "import president.x.y": the deepest module of president it names
            while base and base not in MODULES:
                base = base.rpartition(".")[0]
            if base:
                out.add(base)
    out.discard(name)
    return out


def import_graph(*, in_functions: bool = False) -> dict[str, set[str]]:
    """Module -> the president modules it imports (a static scan): at module level, and with
    ``in_functions`` inside functions too (see :func:`_imports`)."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        if path.suffix != ".py":
            graph[name] = set()
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = set().union(*(_targets(name, path, node)
                                    for node in _imports(tree, in_functions=in_functions)))
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, by loops)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(frozenset(group))
    return groups


def test_the_scan_finds_a_cycle_it_is_shown():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [frozenset({"a", "b", "c"})]
    tree = ast.parse("import os\nfrom .x import y\nif TYPE_CHECKING:\n    from .z import w\n"
                     "def f():\n    from .q import r\ntry:\n    from .t import u\n"
                     "except Exception:\n    from .v import s\n")
    assert [getattr(n, "module", None) for n in _imports(tree, in_functions=False)] == \
        [None, "x", "t", "v"]
    assert [getattr(n, "module", None) for n in _imports(tree, in_functions=True)] == \
        [None, "x", "q", "t", "v"]


def test_records_model_and_read_do_not_import_each_other():
    """The parts of a record (model) are below the reading (read), which is below the whole
    record (record): no import back, not even inside a function."""
    graph = import_graph(in_functions=True)
    assert "president.records.model" in graph["president.records.read"]
    assert "president.records.read" not in graph["president.records.model"]
    assert {"president.records.read", "president.records.model"} <= \
        graph["president.records.record"]
    assert "president.records.record" not in graph["president.records.read"]


def test_no_import_cycle_at_module_level():
    assert import_cycles(import_graph()) == []


def test_no_import_cycles_but_the_known_ones():
    found = import_cycles(import_graph(in_functions=True))
    new = [sorted(g) for g in found if not any(g <= known for known in KNOWN_CYCLES)]
    assert new == [], "new import cycles"
    gone = [sorted(k) for k in KNOWN_CYCLES if not any(g <= k for g in found)]
    assert gone == [], "a known cycle is gone: remove it from KNOWN_CYCLES"


@pytest.mark.parametrize("name", sorted(n for n, path in MODULES.items()
                                         if path.suffix == ".py" and n != "president.__main__"))
def test_every_module_imports(name):
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and not e.name.startswith("president"):
            pytest.skip(f"{name} needs {e.name}, an optional dependency")
        raise


def _reach(graph: dict[str, set[str]], start: list[str]) -> set[str]:
    """The modules of ``start`` and every module they import, directly or through others."""
    seen = set(start)
    todo = list(start)
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _outside_imports(path: Path) -> set[str]:
    """The top-level names of the packages outside president that a module imports (inside
    functions too; not under ``if TYPE_CHECKING:``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in _imports(tree, in_functions=True):
        if isinstance(node, ast.Import):
            out.update(alias.name.partition(".")[0] for alias in node.names)
        elif not node.level and node.module:
            out.add(node.module.partition(".")[0])
    out.discard("president")
    return out


def test_the_search_engine_is_below_the_players():
    """president.search (play-outs, compiled glue, endgame solver, worlds) imports nothing
    of president.players, not even inside a function: the players build on the engine."""
    graph = import_graph(in_functions=True)
    search = [m for m in MODULES if m == "president.search" or m.startswith("president.search.")]
    assert {"president.search.endgame", "president.search.compiled",
            "president.search.playout_policies", "president.search.worlds"} <= set(search)
    found = {m: sorted(n for n in graph[m] if n.startswith("president.players"))
             for m in search}
    assert {m: n for m, n in found.items() if n} == {}
    reached = _reach(graph, search)
    assert not [m for m in reached if m.startswith("president.players")]
    # the players do use it
    assert "president.search.endgame" in graph["president.players.intermediate"]


# The search engine's modules, each importing (of the engine) only those before it.
SEARCH_LAYERS = ("playout_state", "playout_policies", "knowledge", "compiled", "endgame",
                 "fastsim", "worlds", "world_chain")


def test_the_search_engine_is_in_layers():
    graph = import_graph(in_functions=True)
    assert {m for m in MODULES if m.startswith("president.search.")} == \
        {f"president.search.{m}" for m in SEARCH_LAYERS}
    for i, name in enumerate(SEARCH_LAYERS):
        below = {f"president.search.{m}" for m in SEARCH_LAYERS[:i]}
        uses = {m for m in graph[f"president.search.{name}"] if m.startswith("president.search")}
        assert uses <= below, (name, sorted(uses - below))
    assert graph["president.search"] == set()   # the package itself imports nothing


def test_the_rules_core_needs_nothing_above_it():
    """The rules core (cards, rules, kernel, deal, match, events, observation, actions,
    narration, errors) reaches, through every import it makes (inside functions too),
    neither the search engine, the players, the browser game nor the environments, and
    none of what it reaches imports numpy."""
    graph = import_graph(in_functions=True)
    core = [m for m in MODULES if m.split(".")[1:2] and m.split(".")[1] in CORE]
    assert {"president.kernel", "president.match", "president.rules.presets"} <= set(core)
    reached = _reach(graph, core)
    assert sorted(m for m in reached if m.startswith(ABOVE_CORE)) == []
    numpy_users = sorted(m for m in reached if MODULES[m].suffix == ".py"
                         and "numpy" in _outside_imports(MODULES[m]))
    assert numpy_users == []


def test_the_scan_of_outside_imports():
    assert _outside_imports(ROOT / "env" / "vector.py") >= {"numpy"}
    assert "numpy" not in _outside_imports(ROOT / "kernel.py")


@pytest.mark.parametrize("name", ["playout_state", "fastsim", "compiled", "endgame",
                                  "knowledge", "world_chain"])
def test_the_former_paths_of_the_search_engine_give_its_modules(name):
    """The modules of president.search were first under president.players; importing the
    old path gives the very same module (so setting a name on one sets it on the other)."""
    old = importlib.import_module(f"president.players.{name}")
    new = importlib.import_module(f"president.search.{name}")
    assert old is new
    # the package's attribute: this module, or (loaded by file, as by pytest's doctest
    # collection) the old module object, which forwards every name to it
    held = getattr(importlib.import_module("president.players"), name)
    assert all(getattr(held, n) is getattr(new, n) for n in new.__all__)


def test_the_former_play_out_policies_module_keeps_its_names():
    """president.players.playout_policies still gives every name it gave, the
    ``intermediate`` player's whole choice included (now in president.search.endgame)."""
    from president.players import playout_policies as old
    from president.search import endgame, playout_policies

    assert set(old.__all__) >= {"PLAYOUTS", "random_playout", "greedy_playout",
                                "climbing_playout", "intermediate_choice",
                                "intermediate_playout", "simple_code", "mixed_playout",
                                "MIXED_STYLES", "playout"}
    assert all(hasattr(old, n) for n in old.__all__)
    assert old.intermediate_choice is endgame.intermediate_choice
    assert old.mixed_playout is playout_policies.mixed_playout


def test_a_former_path_loaded_by_file_still_stands_for_the_new_module(monkeypatch):
    """A tool that loads the old file by path and keeps that module object (as pytest's
    doctest collection does) reads and sets the new module's names through it."""
    import importlib.util
    import sys

    from president.search import compiled

    spec = importlib.util.spec_from_file_location("president.players.compiled",
                                                  ROOT / "players" / "compiled.py")
    assert spec is not None and spec.loader is not None
    shim = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "president.players.compiled", shim)
    spec.loader.exec_module(shim)
    assert shim is not compiled and sys.modules["president.players.compiled"] is compiled
    assert shim.__name__ == "president.players.compiled"
    assert shim.__all__ == compiled.__all__
    assert shim._ext is compiled._ext and shim.endgame_search is compiled.endgame_search
    monkeypatch.setattr(shim, "_ext", None)
    assert compiled._ext is None
    monkeypatch.undo()
    assert compiled._ext is not None or not compiled.AVAILABLE
