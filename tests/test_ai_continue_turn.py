"""A two-stone turn's second half-move (``ai.Level.continue_turn``, issue 24's comparison
with the MC-GRAVE recipe): the search goes on from the chosen first half-move's node, its
subtree and visits kept, for the rest of the budget; the move played is a child of that
node. Without the setting, the second half-move is picked from the subtree as it stands."""

from __future__ import annotations

import dataclasses

import pytest

import ai
import engine
from ai.mcts import Node, Search


def _two_stone_turn(kind: str) -> engine.Position:
    pos = engine.new_game(kind)
    pos = pos.play(next(iter(pos.legal_moves())))
    assert pos.stones_this_turn == 2
    return pos


@pytest.mark.parametrize("kind", ["whirlwind", "io"])
def test_the_second_half_move_searches_on_in_the_first_ones_subtree(kind, monkeypatch):
    adopted: list[tuple[Node, int]] = []
    adopt = Search.adopt

    def spy(self: Search, node: Node) -> None:
        adopted.append((node, node.n))
        adopt(self, node)

    monkeypatch.setattr(Search, "adopt", spy)
    pos = _two_stone_turn(kind)
    lv = dataclasses.replace(ai.LEVELS[5], continue_turn=True)
    tree = ai.SearchTree()
    d = ai.search_move(pos, lv, playouts=400, seed=1, tree=tree)
    assert len(adopted) == 1
    first, visits_then = adopted[0]
    assert visits_then > 0                       # the main search's visits are kept
    assert first.n >= visits_then + 100 - 1      # and a quarter of the budget added there
    assert d.playouts == 400 + 100
    assert tree.node in first.children           # the second stone is that node's child
    assert pos.play(d.move).ply == pos.ply + 1   # one legal whole turn


def test_without_it_the_subtree_is_read_as_it_stands(monkeypatch):
    calls: list[Node] = []
    monkeypatch.setattr(Search, "adopt", lambda self, node: calls.append(node))
    pos = _two_stone_turn("whirlwind")
    d = ai.search_move(pos, ai.LEVELS[5].changed(continue_turn=False), playouts=400, seed=1)
    assert calls == [] and d.playouts == 400


def test_level_5_searches_on_in_io_and_whirlwind_only():
    """Where its match against the MC-GRAVE recipe won (``ai.RECIPE_SEARCH``)."""
    assert ai.LEVELS[5].for_kind("io").continue_turn
    assert ai.LEVELS[5].for_kind("whirlwind").continue_turn
    assert not ai.LEVELS[5].for_kind("coil").continue_turn
    assert not any(ai.LEVELS[n].continue_turn for n in range(1, 5))
