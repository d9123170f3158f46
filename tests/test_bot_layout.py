"""bot/'s folders show its architecture (issue 20, items 3 and 5): each package imports only
what its docstring (and ``bot/__init__``'s map) allows, no cog module is imported from outside
the cogs, the import graph of ``bot`` has no cycle (of the imports that run), and no module is
over 400 lines. As ``tests/test_engine_knowledge.py`` checks for ``engine``,
``ai`` and ``renderers``, the graph is read from the source with ``ast``: every import counts,
those under ``if TYPE_CHECKING:`` and inside functions too (a type checker follows them)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from graph_support import find_cycle

import bot
from bot.front.cogs import EXTENSIONS

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"

# package -> the parts of bot it may import (besides itself); engine, ai, renderers and
# third-party libraries are free. "bot.front" may import everything but ``bot.__main__``.
ALLOWED = {
    "bot.rules": {"bot.texts"},  # pure rules of play; the wording layer is pure too
    # the wording layer: no Discord side, no store; it reads the manager's data vocabulary
    # (bot.manager.errors' Refusal, the values it words: mostly type-only) and the rules' types
    "bot.texts": {"bot.manager", "bot.rules"},
    "bot.store": {"bot.rules", "bot.config"},  # alembic's env reads the database target
    # never the Discord side, the workers or the texts: it returns data, the front words it
    "bot.manager": {"bot.store", "bot.rules"},
    "bot.workers": {"bot.manager", "bot.rules", "bot.texts"},  # never the Discord side
    "bot.config": {"bot.store"},
    "bot.front": {"bot.manager", "bot.store", "bot.rules", "bot.texts", "bot.workers", "bot.config", "bot"},
}
# sub-packages held to less than their package: the tournament rules (issue 21) are pure data
# in, data out, and word nothing (the front words their results through bot.texts)
NARROWER = {"bot.rules.tournaments": set[str]()}
PACKAGES = ("bot.front", "bot.rules", "bot.workers")  # new in issue 20: docstring says what each may import


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in BOT.rglob("*.py") if "migrations/versions" not in p.as_posix()}


def _is_module(name: str) -> bool:
    path = ROOT / Path(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _type_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under an ``if TYPE_CHECKING:`` block (imports for type hints
    only, never executed)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                skipped.update(id(n) for n in ast.walk(stmt))
    return skipped


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The syntax tree of ``path`` (parsed once: the graphs below read every module twice)."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imports(name: str, path: Path, *, runtime: bool = False) -> set[str]:
    """The modules of ``bot`` that module ``name`` (at ``path``) imports, however written;
    ``runtime``: only those executed (not under ``if TYPE_CHECKING:``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = _tree(path)
    skipped = _type_only(tree) if runtime else set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "bot")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "bot":
                continue
            for alias in node.names:  # ``from bot import texts`` imports the module bot.texts
                full = f"{target}.{alias.name}"
                found.add(full if _is_module(full) else target)
    found.discard(name)
    return found


@functools.cache
def graph() -> dict[str, set[str]]:
    """Module -> the modules of ``bot`` it imports (built on first use: only the worker that
    runs these tests parses the package)."""
    return {name: _imports(name, path) for name, path in MODULES.items()}


def _with_packages(imported: set[str], name: str) -> set[str]:
    """``imported`` and the packages above each (importing ``bot.manager.errors`` runs
    ``bot/manager/__init__.py`` first), but not ``name``'s own."""
    out = set(imported)
    for target in imported:
        parts = target.split(".")
        out.update(".".join(parts[:i]) for i in range(2, len(parts)))
    out.discard(name)
    return {m for m in out if not name.startswith(m + ".")}


# what runs at import: an import cycle is a cycle of these (a type-only import runs nothing;
# a module's import runs the packages above it first)
@functools.cache
def runtime_graph() -> dict[str, set[str]]:
    """Module -> what its import runs (see above), built on first use."""
    return {name: _with_packages(_imports(name, path, runtime=True), name)
            for name, path in MODULES.items()}


def _package(name: str) -> str:
    """The part of bot a module belongs to: ``bot.front``, ``bot.rules``, ..., ``bot.config``,
    ``bot.__main__`` or ``bot`` (the package's map)."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else name


def test_the_graph_is_read_from_every_kind_of_import():
    # relative, absolute, "from package import module", and type-only imports all count
    assert "bot.front.client" in graph()["bot.front.cogs.play"]  # under TYPE_CHECKING
    assert "bot.texts" in graph()["bot.front.cogs.play"]  # from bot import texts
    assert "bot.rules.timecontrol" in graph()["bot.manager.core"]  # from ..rules import timecontrol
    assert "bot.workers.procs" in graph()["bot.workers.search_jobs"]  # from .procs import
    assert len(MODULES) > 60


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_part_of_bot_imports_only_what_it_may(package):
    wrong = {name: sorted(t for t in targets if _package(t) not in ALLOWED[package] | {package})
             for name, targets in graph().items() if _package(name) == package}
    assert {name: t for name, t in wrong.items() if t} == {}


@pytest.mark.parametrize("package", sorted(NARROWER))
def test_each_narrower_sub_package_imports_only_what_it_may(package):
    members = {name for name in MODULES if name == package or name.startswith(package + ".")}
    assert members, package
    wrong = {name: sorted(t for t in graph()[name] if not (t == package or t.startswith(package + "."))
                          and not any(t == a or t.startswith(a + ".") for a in NARROWER[package]))
             for name in members}
    assert {name: t for name, t in wrong.items() if t} == {}


def test_the_rules_are_pure_and_the_manager_knows_no_discord():
    for name, path in MODULES.items():
        if _package(name) in ("bot.rules", "bot.texts", "bot.manager", "bot.store", "bot.workers"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            libs = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            libs |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
                     if isinstance(n, ast.ImportFrom) and n.level == 0}
            assert "discord" not in libs, name


def test_no_cog_module_is_imported_from_outside_the_cogs():
    cogs = set(EXTENSIONS)
    assert cogs and all(c in MODULES for c in cogs)
    outside = {name: sorted(targets & cogs) for name, targets in graph().items()
               if not name.startswith("bot.front.cogs.") and targets & cogs}
    assert outside == {}


def test_no_cog_is_looked_up_by_a_name_string():
    # discord.py's get_cog is called once: in StonecastBot.cog, with the name the cog's class
    # declares; everywhere else a cog is reached by its class (bot.cog(TurnsCog))
    calls = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                calls += [(name, fn.name, ast.unparse(c.args[0]) if c.args else "")
                          for c in ast.walk(fn) if isinstance(c, ast.Call)
                          and isinstance(c.func, ast.Attribute) and c.func.attr == "get_cog"]
    assert calls == [("bot.front.client", "cog", "kind.__cog_name__")]


def test_the_cycle_finder_finds_afind_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle_in_bot():
    assert find_cycle(runtime_graph()) is None


@pytest.mark.parametrize("package", PACKAGES)
def test_each_new_package_says_what_it_is_and_what_it_may_import(package):
    doc = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8")))
    assert doc and "May import" in doc
    for module in (m for m in MODULES if m.startswith(package + ".") and m.count(".") == 2):
        assert f":mod:`{module}`" in doc, module


def test_the_map_of_bot_names_every_part():
    doc = bot.__doc__
    for part in ("bot.front", "bot.rules", "bot.workers", "bot.manager", "bot.store", "bot.texts", "bot.config"):
        assert f":mod:`{part}`" in doc, part


def test_nothing_loose_at_the_top_of_bot():
    loose = sorted(p.name for p in BOT.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "config.py"]


# over 400 lines and not split yet (issue 20); the list only shrinks, and is empty since
# bot/store/db.py was split (bot.store.sql, bot.store.errors, bot.store.migrate)
TOO_LONG_YET: set[str] = set()


def test_no_module_of_bot_is_over_400_lines():
    long = {name: n for name, path in MODULES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert set(long) <= TOO_LONG_YET, long
