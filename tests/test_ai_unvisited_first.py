"""Unvisited children first (Ludii's ``QInit.INF``, ``ai.mcts.Search(unvisited_first=True)``,
issue 24's comparison with the MC-GRAVE recipe): every child of a node is visited once, in a
random order kept beside its priors, before any child is visited twice."""

from __future__ import annotations

import random

import pytest

import ai
import engine
from ai.mcts import Search


@pytest.mark.parametrize("kind", ["io", "whirlwind", "braincoral"])
def test_every_root_child_is_visited_once_before_any_twice(kind):
    state = engine.new_game(kind).search_state()
    n_actions = len(state.actions())
    s = Search(state, rng=random.Random(3), unvisited_first=True, decisive_turns=-1)
    s.run(playouts=n_actions - 1)
    kids = s.root.children
    assert kids is not None
    assert sorted(c.n for c in kids) == [0] + [1] * (n_actions - 1)
    s.run(playouts=n_actions)
    assert all(c.n == 1 for c in kids)
    s.run(playouts=4 * n_actions)
    assert max(c.n for c in kids) > 2  # then chosen by value


def test_the_order_is_random_and_the_priors_follow_their_moves():
    state = engine.new_game("io", size=7).search_state()

    def prior(_s, acts):
        return [a / 100 for a in acts]

    orders = []
    for seed in (1, 2):
        s = Search(state, rng=random.Random(seed), unvisited_first=True, prior=prior,
                   prior_weight=0.5)
        s.run(playouts=1)
        assert sorted(s.root.acts) == sorted(state.actions())
        assert s.root.priors == [a / 100 for a in s.root.acts]
        orders.append(s.root.acts)
    assert orders[0] != orders[1] and orders[0] != sorted(orders[0])


def test_off_by_default_an_unvisited_child_waits_for_its_value():
    state = engine.new_game("io").search_state()
    n_actions = len(state.actions())
    s = Search(state, rng=random.Random(3), decisive_turns=-1)
    s.run(playouts=n_actions + 1)
    assert s.root.acts == state.actions()
    assert sum(c.n == 0 for c in s.root.children) > 0


@pytest.mark.parametrize("kind, first, explore", [("io", True, 0.05), ("whirlwind", False, 0.0)])
def test_level_5_visits_every_child_first_in_io_and_not_in_whirlwind(kind, first, explore):
    """Level 5 takes the recipe's selection in both (ref 100; no exploration term in
    Whirlwind; in Io a larger bias and a small exploration term, ``ai.IO_SEARCH``), but in
    Whirlwind an unvisited child waits for its AMAF value (``ai.WHIRLWIND_SEARCH``): after
    as many simulations as the root has children, some are still unvisited while others
    were visited again."""
    lv = ai.LEVELS[5].for_kind(kind)
    state = engine.new_game(kind).search_state()
    s = ai.level_search(state, kind, lv, random.Random(5))
    assert (s.unvisited_first, s.explore, s.ref) == (first, explore, 100)
    n_actions = len(state.actions())
    s.run(playouts=n_actions)
    visits = sorted((c.n for c in s.root.children or []), reverse=True)
    if first:
        assert visits == [1] * n_actions
    else:
        assert visits[0] > 1 and (len(visits) < n_actions or visits[-1] == 0)
