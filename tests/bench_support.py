"""Benchmark scripts loaded as modules, for the tests of what they compute (the scripts under
``benchmarks/`` are run by path, not imported as a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_benchmark(script: str, module: str) -> ModuleType:
    """``benchmarks/<script>.py`` imported as the module ``module`` (registered in
    ``sys.modules``, as its dataclasses and worker processes need)."""
    spec = importlib.util.spec_from_file_location(module, BENCHMARKS / f"{script}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[module] = mod
    spec.loader.exec_module(mod)
    return mod
