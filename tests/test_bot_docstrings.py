"""BRIEF "Standards": every public function and class of bot/ and renderers/ has a docstring
(the same audit tests/test_rules_audit.py makes of engine/): module-level functions and
classes not starting with an underscore, their public methods and properties, and the
handlers of slash commands defined in cogs."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> list[str]:
    """Every module of bot/ (cogs included) and renderers/, by dotted name."""
    names = []
    for package in ("bot", "renderers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _undocumented(name: str) -> list[str]:
    mod = importlib.import_module(name)
    missing = []
    if not (mod.__doc__ or "").strip() and Path(mod.__file__).stat().st_size:
        missing.append(name)  # an empty package marker needs no docstring
    for attr, obj in vars(mod).items():
        if attr.startswith("_") or getattr(obj, "__module__", None) != name:
            continue
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(f"{name}.{attr}")
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if member.startswith("_"):
                    continue
                if isinstance(value, property):
                    value = value.fget
                elif isinstance(value, classmethod | staticmethod):
                    value = value.__func__
                elif inspect.isfunction(getattr(value, "callback", None)):
                    value = value.callback  # a slash command: its handler
                if inspect.isfunction(value) and not (value.__doc__ or "").strip():
                    missing.append(f"{name}.{attr}.{member}")
    return missing


def test_every_public_function_class_and_method_of_bot_and_renderers_has_a_docstring():
    names = _modules()
    assert {"bot.manager", "bot.store", "bot.cogs.games", "renderers", "renderers.render"} <= set(names)
    missing = [m for name in names for m in _undocumented(name)]
    assert missing == []
