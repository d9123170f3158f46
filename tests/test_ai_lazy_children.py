"""The search makes its child nodes lazily (ai/mcts.py, issue 24's speed): a node keeps
its half-moves and makes a child's node only when the selection first picks it. Nothing
the search computes may change: an eager search (every child made at expansion, as before)
must grow the very same tree from the same seed, and ``Node.children`` must still show every
child, in the order of ``actions()``."""

from __future__ import annotations

import random

import pytest

import engine
from ai import knowledge
from ai.mcts import Node, Search

SMALL = {
    "coil": {"size": 5},
    "io": {"size": 6},
    "braincoral": {"shape": "limping", "size": 3},
    "branchingcoral": {"shape": "limping", "size": 3},
    "whirlwind": {"size": 8},
}


class EagerSearch(Search):
    """The search with every child's node made at expansion (the old way)."""

    def _expand(self, node: Node, state) -> None:
        super()._expand(node, state)
        node.children  # noqa: B018  # reading makes every child's node


def _tree(node: Node, depth: int = 4):
    if depth == 0 or node.kids is None:
        return None
    return [(c.action, c.seat, c.n, c.w, c.proven, c.dist, c.prior, c.turn_depth,
             _tree(c, depth - 1)) for c in node.children]


def _search(cls, kind: str, variant: str) -> Search:
    state = engine.new_game(kind, **SMALL[kind]).search_state()
    kw: dict = {"candidates": knowledge.decisive_candidates}
    if variant == "prior":  # progressive bias: the general selection loop
        kw.update(prior=lambda s, acts: [(a * 37 % 11) / 10 for a in acts], prior_weight=0.5)
    if variant == "no-amaf":
        kw.update(use_amaf=False)
    s = cls(state, rng=random.Random(5), **kw)
    s.guard_root()
    s.run(playouts=600)
    return s


@pytest.mark.parametrize("variant", ["grave", "prior", "no-amaf"])
@pytest.mark.parametrize("kind", list(SMALL))
def test_lazy_children_grow_the_tree_an_eager_search_grows(kind, variant):
    lazy = _search(Search, kind, variant)
    made_later = sum(c is None for c in lazy.root.kids or []) + sum(
        c is None for k in lazy.root.kids or [] if k is not None for c in k.kids or [])
    eager = _search(EagerSearch, kind, variant)
    assert lazy.playouts == eager.playouts
    assert _tree(lazy.root) == _tree(eager.root)
    assert lazy.principal_line() == eager.principal_line()
    assert made_later > 0 or lazy.root.proven is not None  # some nodes were left unmade


def test_children_of_an_expanded_node_are_every_action_in_order():
    state = engine.new_game("braincoral", **SMALL["braincoral"]).search_state()
    s = Search(state, rng=random.Random(1), prior=lambda st, acts: [0.25] * len(acts),
               prior_weight=0.5)
    s.run(playouts=3)
    root = s.root
    assert root.kids is not None and None in root.kids  # only the selected were made
    made = {c.action: c for c in root.kids if c is not None}
    kids = root.children
    assert kids is not None and None not in root.kids
    assert [c.action for c in kids] == state.actions()
    for c in kids:
        if c.action in made:
            assert c is made[c.action]  # the same node, statistics kept
        else:
            assert (c.n, c.w, c.proven, c.seat, c.prior, c.turn_depth) == (
                0, 0.0, None, state.to_move, 0.25, 1)
    assert root.children is kids  # made once


def test_a_prior_of_the_wrong_length_is_refused():
    state = engine.new_game("io", **SMALL["io"]).search_state()
    s = Search(state, rng=random.Random(1), prior=lambda st, acts: [0.5], prior_weight=0.5)
    with pytest.raises(ValueError):
        s.run(playouts=3)
