"""BRIEF "Standards": every public function and class of bot/ and renderers/ has a docstring
(the audit tests/test_rules_audit.py makes of engine/, from tests/docstring_support.py)."""

from __future__ import annotations

from pathlib import Path

from docstring_support import undocumented

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> list[str]:
    """Every non-empty module of bot/ (cogs included) and renderers/, by dotted name."""
    names = []
    for package in ("bot", "renderers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if not path.stat().st_size:  # an empty package marker
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_public_function_class_and_method_of_bot_and_renderers_has_a_docstring():
    names = _modules()
    assert {"bot.manager", "bot.store", "bot.front.cogs.play", "renderers", "renderers.render"} <= set(names)
    missing = [m for name in names for m in undocumented(name)]
    assert missing == []
