"""Issue 20.1: the manager's services by composition -- the graph of who takes whom in its
constructor is acyclic, no service module reaches into another's private names, and no
service calls a private method of a service it was given."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from pathlib import Path

from graph_support import find_cycle

from bot.manager import services as wiring
from bot.manager.core import Service

MANAGER = Path(__file__).resolve().parents[1] / "bot" / "manager"


def _service_classes() -> dict[str, type]:
    """Class name -> class of every service :func:`build_services` makes."""
    out = {}
    for f in dataclasses.fields(wiring.Services):
        cls = getattr(wiring, f.type) if isinstance(f.type, str) else f.type
        out[cls.__name__] = cls
    return out


def _graph() -> dict[str, set[str]]:
    """Service class name -> the service class names its constructor takes (read from the
    annotations of its parameters)."""
    classes = _service_classes()
    graph = {}
    for name, cls in classes.items():
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        deps = set()
        for p in params:
            ann = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
            if ann in classes:
                deps.add(ann)
            else:
                assert ann == "ManagerCore", f"{name}({p.name}: {ann}) takes something else than a service or the core"
        graph[name] = deps
    return graph


def test_the_service_graph_is_a_dag_of_services_over_the_core():
    graph = _graph()
    assert len(graph) == 15
    assert all(issubclass(cls, Service) for cls in _service_classes().values())
    assert find_cycle(graph) is None
    # the shared services depend on no use case
    assert graph["SettingsService"] == set() and graph["RatingsService"] == set()
    assert graph["OutboxService"] == {"SettingsService"}
    assert graph["PlayService"] >= {"SettingsService", "OutboxService", "RatingsService",
                                     "EndingsService", "LookupService"}
    assert "ComputerService" in graph["ProfileService"] and "PlayService" in graph["ComputerService"]


def test_the_cycle_finder_finds_afind_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_build_services_hands_each_service_the_ones_its_constructor_names():
    from bot.manager.core import ManagerCore

    core = ManagerCore.__new__(ManagerCore)  # the wiring only, no database
    built = wiring.build_services(core)
    by_class = {type(s).__name__: s for s in vars(built).values()}
    for name, deps in _graph().items():
        service = by_class[name]
        assert service.core is core
        taken = {type(v).__name__ for v in vars(service).values() if isinstance(v, Service)}
        assert taken == deps, name


def _service_modules() -> list[Path]:
    return [MANAGER / f"{inspect.getmodule(cls).__name__.rsplit('.', 1)[1]}.py"
            for cls in _service_classes().values()]


def test_no_service_module_imports_private_names_of_another():
    services = {p.stem for p in _service_modules()}
    bad = []
    for path in sorted(set(_service_modules())):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in services:
                bad += [f"{path.stem}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert bad == []


def test_no_service_calls_a_private_method_of_another():
    """``self.<service>._x(...)``: a private method reached through a service given to this
    one (``self._x(...)`` is the service's own, or the core toolkit it inherits)."""
    given = re.compile(r"self\.(settings|outbox|ratings|endings|privacy|lookup|turns|challenges|tournaments"
                       r"|play|conditional|clocks|computer|core)\._[a-z_]*\(")
    bad = [f"{p.stem}: {m.group(0)}" for p in sorted(set(_service_modules()))
           for m in given.finditer(p.read_text())]
    assert bad == []
