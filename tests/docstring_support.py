"""The docstring audit shared by the engine and the bot/renderers tests (not a test module).

BRIEF "Standards": every public function and class has a docstring. Public means a
module-level function or class whose name does not start with an underscore, its methods
and properties not starting with one, and the handler of a slash command defined on a class.
"""

from __future__ import annotations

import importlib
import inspect


def undocumented(name: str) -> list[str]:
    """Dotted names of the public objects of module ``name`` without a docstring (the module
    itself included when it has none)."""
    mod = importlib.import_module(name)
    missing = [] if (mod.__doc__ or "").strip() else [name]
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
