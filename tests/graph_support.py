"""A cycle of a dependency graph, for the tests of bot's import graph and service graph."""

from __future__ import annotations

import graphlib
from collections.abc import Mapping, Set


def find_cycle(graph: Mapping[str, Set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (node -> the nodes it depends on) as its nodes in order, the
    first repeated at the end (``["a", "b", "a"]``), or ``None`` when the graph is acyclic
    (the standard library's :class:`graphlib.TopologicalSorter`, whose ``CycleError``
    carries the cycle)."""
    try:
        graphlib.TopologicalSorter({node: set(deps) for node, deps in graph.items()}).prepare()
    except graphlib.CycleError as e:
        cycle = list(e.args[1])
        return cycle[::-1]  # graphlib lists it against the edges' direction
    return None
