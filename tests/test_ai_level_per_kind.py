"""A level's settings that differ by game (``ai.Level.per_kind``, issue 24: the recipe's
selection kept where its match won): ``for_kind`` puts a game's own in place,
``changed`` makes a variant that differs everywhere, and the search plays the game's own."""

from __future__ import annotations

from typing import Any

import pytest

import ai
import engine

BASE = ai.Level(1.0, 300, per_kind={"io": {"ref": 100, "unvisited_first": True}})


def test_for_kind_puts_the_games_own_settings_in_place():
    io = BASE.for_kind("io")
    assert (io.ref, io.unvisited_first, io.per_kind) == (100, True, {})
    assert io.for_kind("io") == io                  # applying it again changes nothing
    assert BASE.for_kind("whirlwind") is BASE       # a game with no settings of its own
    with pytest.raises(TypeError):
        ai.Level(1.0, 10, per_kind={"io": {"no_such_field": 1}}).for_kind("io")


def test_changed_wins_over_the_games_own_setting():
    variant = BASE.changed(ref=7)
    assert variant.ref == 7 and variant.for_kind("io").ref == 7
    assert variant.for_kind("io").unvisited_first is True   # the rest of io's stays
    assert BASE.per_kind["io"]["ref"] == 100                  # the level itself is unchanged
    with pytest.raises(TypeError):
        BASE.changed(no_such_field=1)


def test_the_tuning_script_changes_a_setting_in_every_game():
    """benchmarks/ai_tune.py "5:ref=30": level 5 with ref 30 in Io and Whirlwind too, where
    level 5 has a ref of its own (``per_kind``); the rest of those games' settings stay."""
    from bench_support import load_benchmark

    tune = load_benchmark("ai_tune", "bench_ai_tune")
    tuned = tune.parse_settings("5:ref=30,solver=False")
    for kind in ("io", "whirlwind", "coil"):
        assert (tuned.for_kind(kind).ref, tuned.for_kind(kind).solver) == (30, False)
    assert tuned.for_kind("io").unvisited_first is ai.LEVELS[5].for_kind("io").unvisited_first
    assert tune.parse_settings("5") == ai.LEVELS[5]


@pytest.mark.parametrize(("kind", "ref", "first"), [("io", 100, True), ("coil", 50, False)])
def test_the_search_plays_the_games_own_settings(kind, ref, first, monkeypatch):
    made: list[dict[str, Any]] = []
    search = ai.Search

    def spy(state: engine.SearchState, **kw: Any) -> ai.Search:
        made.append(kw)
        return search(state, **kw)

    monkeypatch.setattr(ai, "Search", spy)
    pos = engine.new_game(kind, size=5)
    ai.search_move(pos, BASE.changed(explore=0.1), playouts=50, seed=1)
    assert made and made[0]["ref"] == ref and made[0]["unvisited_first"] is first


@pytest.mark.parametrize(("kind", "level", "budget"),
                         [("coil", 4, 2000), ("coil", 5, 20000), ("io", 4, 4000), ("braincoral", 5, 12000)])
def test_a_levels_search_runs_the_games_own_budget(kind, level, budget, monkeypatch):
    """Issue 24 item 3: in Coil levels 4 and 5 search 2,000 and 20,000 simulations
    (ai.COIL_LEVEL_4/5: 4,000 and 12,000 were no step apart there); other games keep the
    levels' usual budgets. The bot's move and the benchmarks' ladder alike ask for it."""
    from bench_support import load_benchmark

    asked: list[int | None] = []
    run = ai.Search.run

    def spy(self: ai.Search, playouts: int | None = None, deadline: float | None = None) -> None:
        asked.append(playouts)
        run(self, playouts=min(30, playouts or 30), deadline=deadline)  # a short search

    monkeypatch.setattr(ai.Search, "run", spy)
    pos = engine.new_game(kind)
    ai.choose_move(pos, level=level, seed=1)
    assert asked[0] == budget
    bench = load_benchmark("ai", "bench_ai")
    asked.clear()
    bench._player_move(pos, ("level", level, 0.1), 1)
    assert asked[0] == budget // 10
    assert ai.LEVELS[3].playouts < ai.LEVELS[4].for_kind(kind).playouts < ai.LEVELS[5].for_kind(kind).playouts


def test_level_5_lets_a_well_visited_childs_own_mean_take_over_in_io():
    """Issue 24 item 2 (ai.IO_SEARCH): in Io level 5's GRAVE bias is 1e-3, elsewhere the
    recipe's 1e-6. A child's AMAF count in its parent's table is never below its visits, so
    its AMAF weight ``m / (m + n + bias*m*n)`` is at least ``1 / (2 + bias*n)``: at 1e-6
    about half however many visits, at 1e-3 falling as the child is visited."""
    import random

    assert ai.LEVELS[5].for_kind("io").bias == 1e-3
    assert ai.LEVELS[5].for_kind("whirlwind").bias == ai.RECIPE_SEARCH["bias"] == 1e-6
    pos = engine.new_game("io", size=5)
    io = ai.LEVELS[5].for_kind("io")
    weights = {}
    for bias in (1e-6, 1e-3):
        s = ai.level_search(pos.search_state(), "io", io.changed(bias=bias), random.Random(3))
        assert s.bias == bias
        s.run(playouts=3000)
        table = s.root.amaf
        assert table is not None
        amaf_n = table[0] if s.root.to_move == 1 else table[2]
        top = max(s.root.children or [], key=lambda c: c.n)
        for c in s.root.children or []:
            assert amaf_n[c.action] >= c.n
        m, n = amaf_n[top.action], top.n
        weights[bias] = m / (m + n + bias * m * n)
        assert weights[bias] >= 1 / (2 + bias * n)
    assert weights[1e-6] > 0.45 and weights[1e-3] < weights[1e-6] - 0.15
