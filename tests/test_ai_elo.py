"""benchmarks/ai.py's Elo scale (issue 24 item 3): the Bradley-Terry fit (choix) is
anchored, recovers the order and the gap of made-up results, and its bootstrap intervals
hold the point rating. Made-up games, no search: fast."""

from __future__ import annotations

import importlib.util
import math

import pytest
from bench_support import load_benchmark

#: The Bradley-Terry fits need choix (the dev extra); looked up, not imported, at collection
#: (choix imports scipy: a second per test process).
needs_choix = pytest.mark.skipif(importlib.util.find_spec("choix") is None,
                                 reason="the Elo fit needs choix (pip install -e '.[dev]')")


bench = load_benchmark("ai", "bench_ai")


def games(a: str, b: str, wins: int, losses: int, draws: int = 0):
    return [(a, b, 1.0)] * wins + [(a, b, 0.0)] * losses + [(a, b, 0.5)] * draws


@needs_choix
def test_anchor_and_a_known_gap():
    """75% against the anchor is 400 * log10(3) = 190.8 Elo above it (Bradley-Terry's
    Elo form); the anchor keeps its rating; a draw counts half."""
    names = ["A", "UCT 1s"]
    ratings = bench.bradley_terry(names, games("A", "UCT 1s", 30, 10), alpha=1e-9)
    assert ratings["UCT 1s"] == pytest.approx(1500.0)
    assert ratings["A"] - 1500.0 == pytest.approx(400 * math.log10(3), abs=1.0)
    drawn = bench.bradley_terry(names, games("A", "UCT 1s", 20, 0, 20), alpha=1e-9)
    assert drawn["A"] - 1500.0 == pytest.approx(400 * math.log10(3), abs=1.0)


@needs_choix
def test_order_steps_and_intervals():
    names = ["L1", "L2", "UCT 1s"]
    data = (games("L2", "L1", 16, 4) + games("UCT 1s", "L1", 18, 2)
            + games("UCT 1s", "L2", 12, 8))
    table = bench.elo_table(names, data, boots=20)
    assert table["L1"][0] < table["L2"][0] < table["UCT 1s"][0] == pytest.approx(1500.0)
    for rating, lo, hi in table.values():
        assert lo <= rating + 1e-6 and rating <= hi + 1e-6
    steps = bench.elo_steps(names, data, [("L2", "L1")], boots=20)
    d, lo, hi = steps[("L2", "L1")]
    assert d == pytest.approx(table["L2"][0] - table["L1"][0])
    assert lo < d < hi


def test_the_crosstable_shows_every_pairs_score_from_both_sides():
    names = ["L1", "L2", "UCT 1s"]
    data = games("L2", "L1", 3, 1) + games("UCT 1s", "L2", 1, 0, 1)
    header, l1, l2, uct = bench.crosstable(names, data)
    assert header.split() == ["L1", "L2", "UCT", "1s"]
    assert l1.split() == ["L1", "-", "1/4", "-"]            # no game against UCT: "-"
    assert l2.split() == ["L2", "3/4", "-", "0.5/2"]
    assert uct.split() == ["UCT", "1s", "-", "1.5/2", "-"]
    with pytest.raises(KeyError):
        bench.crosstable(names, [("L9", "L1", 1.0)])


@needs_choix
def test_the_round_robins_report_is_read_back_by_the_table_script():
    """Part (h)'s lines for one kind (crosstable, ratings, steps) become ai/ratings.py's
    data through benchmarks/elo_table.py --from, rating for rating."""
    names = ["L1", "L2", "L3", "L4", "L5", "UCT 1s"]
    data = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            data += games(b, a, 3, 1)   # each later player 3/4 against each earlier
    lines = bench.elo_report("whirlwind", names, data, boots=10)
    assert lines[0] == "  whirlwind" and "L5" in lines[2]
    assert [line.split(":")[0].strip() for line in lines if "step" in line] == [
        "step L2-L1", "step L3-L2", "step L4-L3", "step L5-L4"]
    header = ("(h) Elo round robin: L1, L2; 4 games per pair per kind, times x0.1, 60 games; "
              "Bradley-Terry")
    rows, per_pair, scale = load_benchmark("elo_table", "elo_table").parse_output(
        "\n".join([header, *lines]))
    assert (per_pair, scale) == (4, 0.1)
    table = bench.elo_table(names, data, boots=10)
    for level in range(1, 6):
        got = rows[level]["whirlwind"]
        assert got is not None and got.elo == round(table[f"L{level}"][0])


def test_elo_tasks_play_every_pair_with_seats_alternating():
    tasks = bench.elo_tasks(2, 0.1, ["io"])
    n = len(bench.ELO_PLAYERS)
    assert len(tasks) == n * (n - 1) // 2 * 2
    assert {t[4] for t in tasks} == {1, 2}
    uct = next(t for t in tasks if t[1] == "L1 | UCT 4s")
    assert uct[3] == ("uct", pytest.approx(0.4)) and uct[2] == ("level_s", 1, 0.1)


def test_the_grave_match_plays_level_5_as_asked_against_the_recipe():
    """benchmarks/ai.py part (f): level 5 as it is, keeping its tree, or with a candidate
    change, always against MC-GRAVE with its tree kept, seats alternating."""
    import ai

    plain = bench.grave_tasks(2, 1.0, ["io"])
    assert [t[1:5] for t in plain] == [("L5 vs GRAVE", ("level_t", 5, 1.0), ("grave", 1.0, True), s)
                                       for s in (1, 2)]
    reuse = bench.grave_tasks(1, 1.0, ["io"], ours="+tree-reuse")[0]
    assert reuse[1] == "L5 +tree-reuse vs GRAVE" and reuse[2] == ("variant", ai.LEVELS[5], 1.0, True)
    ludii = bench.grave_tasks(1, 0.5, ["coil"], reuse=False, ours="+ludii-selection")[0]
    assert ludii[1] == "L5 +ludii-selection vs GRAVE-noreuse" and ludii[3] == ("grave", 0.5, False)
    level = ludii[2][1]
    assert (level.explore, level.ref, level.bias) == (0.0, 100, 1e-6)
    assert level.playouts == ai.LEVELS[5].playouts and level.solver == ai.LEVELS[5].solver
    without = bench.grave_tasks(1, 1.0, ["whirlwind"], ours="-knowledge")[0]
    assert without[1] == "L5 -knowledge vs GRAVE"
    assert without[2][1].use_knowledge is False and without[2][1].solver is True
    with pytest.raises(KeyError):
        bench.grave_tasks(1, 1.0, ["io"], ours="+no-such-candidate")
    both = bench.grave_tasks(1, 1.0, ["io"], ours="+ludii,+tree-reuse")[0]
    assert both[1] == "L5 +ludii,+tree-reuse vs GRAVE" and both[2][3] is True
    assert both[2][1].unvisited_first is True and both[2][1].ref == 100
    with pytest.raises(KeyError):
        bench.grave_tasks(1, 1.0, ["io"], ours="-knowledge-of-nothing")
    with pytest.raises(KeyError):
        bench.grave_tasks(1, 1.0, ["io"], ours="ludii")


def test_the_grave_match_can_give_level_5_its_own_time_and_one_seat():
    """--grave-ours-seconds / --grave-seat (a time-scaling diagnostic): level 5 at its own
    time, uncapped by its simulation budget with +uncapped, and only in the games of the
    alternating match where it has the asked seat (same seeds); the recipe keeps its time."""
    import ai

    tasks = bench.grave_tasks(3, 1.0, ["braincoral"], ours="+uncapped", ours_seconds=10.0,
                              seat=2)
    assert [(t[4], t[5]) for t in tasks] == [(2, 301), (2, 303), (2, 305)]
    label, spec, theirs = tasks[0][1:4]
    assert label == "L5 +uncapped at 10s vs GRAVE" and theirs == ("grave", 1.0, True)
    assert spec[0] == "variant" and spec[2] == 10.0 and spec[1].playouts is None
    assert spec[1] == ai.LEVELS[5].changed(playouts=None)
    plain = bench.grave_tasks(2, 1.0, ["io"], ours_seconds=4.0)
    assert [(t[1], t[2], t[4], t[5]) for t in plain] == [
        ("L5 at 4s vs GRAVE", ("level_t", 5, 4.0), s, 299 + s) for s in (1, 2)]
    assert [t[5] for t in bench.grave_tasks(2, 1.0, ["io"], seat=1)] == [300, 302]
    fixed = bench.grave_tasks(1, 1.0, ["io"], playouts=100, ours_seconds=4.0)[0]
    assert fixed[1] == "L5 vs GRAVE" and fixed[2][0] == "variant_p"  # a budget, not a time
    with pytest.raises(ValueError):
        bench.grave_tasks(1, 1.0, ["io"], seat=3)


def test_the_grave_match_at_a_fixed_budget_plays_whole_games(monkeypatch):
    """--grave-playouts: both sides at a fixed number of simulations (the recipe's per
    half-move), level 5 changed as asked and keeping its tree; a game is played to its end
    (a small Whirlwind board: two-stone turns on both sides)."""
    tasks = bench.grave_tasks(2, 1.0, ["whirlwind"], ours="+ludii,+continue,+tree-reuse",
                              playouts=30)
    spec, theirs = tasks[0][2], tasks[0][3]
    assert spec[0] == "variant_p" and spec[2] == 30 and spec[3] is True
    assert spec[1].continue_turn and spec[1].unvisited_first
    assert theirs == ("grave", None, True, 30)
    monkeypatch.setitem(bench.GAME_OPTIONS, "whirlwind", {"size": 8})
    for task in tasks:
        key, label, score, plies, _adjudicated, _seed = bench.play_game(task)
        assert (key, label) == ("whirlwind", "L5 +ludii,+continue,+tree-reuse vs GRAVE")
        assert score in (0.0, 0.5, 1.0) and plies >= 3


def test_a_candidates_budget_factor_is_read_alike_by_the_recipe_match_and_the_ablations():
    """One parser of "+NAME"/"-NAME" serves --grave-ours and --ablation: a candidate's
    budget factor (cutoff4-2x: twice the simulations) scales a fixed budget in both, is
    ignored at a time budget, and "+tree-reuse" keeps the tree in both."""
    import ai

    grave = bench.grave_tasks(1, 1.0, ["whirlwind"], ours="+cutoff4-2x", playouts=100)[0][2]
    assert grave[0] == "variant_p" and grave[2] == 200 and grave[1].cutoff == 4
    timed = bench.grave_tasks(1, 1.0, ["whirlwind"], ours="+cutoff4-2x")[0][2]
    assert timed[0] == "variant" and timed[2] == 1.0 and timed[1].cutoff == 4
    ablation = bench.ablation_tasks(1, 1.0, ["whirlwind"], ["+cutoff4-2x", "solver"], 100)
    assert [t[1] for t in ablation] == ["L5 +cutoff4-2x vs L5", "L5 vs -solver"]
    (_, _, a, b, _, _), (_, _, c, d, _, _) = ablation
    assert a[:3] == ("variant_p", ai.LEVELS[5].changed(cutoff=4), 200) and b[2] == 100
    assert b[1] == c[1] == ai.LEVELS[5] and d[1].solver is False and d[2] == 100
    reuse = bench.ablation_tasks(1, 1.0, ["io"], ["+tree-reuse"], 100)[0]
    assert reuse[2] == ("variant_p", ai.LEVELS[5], 100, True) and reuse[3][3] is False
    with pytest.raises(KeyError):
        bench.ablation_tasks(1, 1.0, ["io"], ["+no-such-candidate"])


def test_the_time_odds_match_can_play_level_5_as_it_was():
    """--odds-ours -recipe: level 5 without the recipe's selection and continued search
    (ai.RECIPE_SEARCH) in Io and Whirlwind, at 1 s against UCT at 4 s."""
    import ai

    plain = bench.odds_tasks(2, 1.0, ["io"])
    assert [t[2:5] for t in plain] == [(("level_t", 5, 1.0), ("uct", 4.0), s) for s in (1, 2)]
    old = bench.odds_tasks(1, 0.5, ["io"], ours="-recipe")[0]
    assert old[1] == "L5 -recipe vs UCT at 4x time" and old[3] == ("uct", 2.0)
    assert old[2][0] == "variant" and old[2][2] == 0.5
    for kind in ("io", "whirlwind"):
        was = old[2][1].for_kind(kind)
        assert (was.explore, was.ref, was.bias, was.unvisited_first, was.continue_turn,
                was.time_share) == (None, None, 1e-5, False, False, 0.95)
        assert was.endgame == ai.LEVELS[5].endgame and was.playouts == ai.LEVELS[5].playouts
    assert ai.LEVELS[5].for_kind("io").unvisited_first is True   # level 5 itself unchanged


def test_the_unvisited_first_variant_drops_only_that_part_of_the_recipe():
    """--grave-ours=-unvisited-first / --odds-ours=-unvisited-first: level 5 with an
    unvisited child valued by its AMAF mean in every game, the rest of its Io settings kept."""
    import ai

    spec = bench.odds_tasks(1, 1.0, ["io"], ours="-unvisited-first")[0][2]
    io = spec[1].for_kind("io")
    assert spec[0] == "variant" and io.unvisited_first is False
    assert (io.explore, io.ref, io.continue_turn) == (ai.IO_SEARCH["explore"], 100, True)
    assert spec[1].for_kind("whirlwind") == ai.LEVELS[5].for_kind("whirlwind")


def test_a_matchs_win_rate_is_printed_as_an_elo_difference_with_its_interval(monkeypatch, capsys):
    """A head-to-head match (the ladder's step between two levels) prints the Elo gap its win
    rate means, 400 log10(p / (1 - p)), and the gaps at its Wilson interval's ends; a clean
    sweep is an unbounded gap, not an error."""
    assert bench.elo_gap(0.75) == pytest.approx(400 * math.log10(3))
    assert bench.elo_gap(0.5) == 0.0
    assert bench.elo_gap(0.25) == pytest.approx(-400 * math.log10(3))
    assert bench.elo_gap(1.0) == math.inf and bench.elo_gap(0.0) == -math.inf

    results = [("coil", "L5 vs L4", 1.0, 40, True, 5000 + g) for g in range(3)]
    results.append(("coil", "L5 vs L4", 0.0, 40, True, 5003))
    monkeypatch.setattr(bench, "run_games", lambda tasks, workers: iter(results))
    tasks = [("coil", "L5 vs L4", None, None, 1 + g % 2, 5000 + g) for g in range(4)]
    bench.run_matches("step", tasks, 1, by_seat=True)
    out = capsys.readouterr().out
    lo, hi = bench.wilson(3, 4)
    assert f"Elo difference {bench.elo_gap(0.75):+.0f}" in out
    assert f"95% CI {bench.elo_gap(lo):+.0f} to {bench.elo_gap(hi):+.0f}" in out
    assert "as seat 1:   2.0/2" in out and "as seat 2:   1.0/2" in out


def test_the_matches_boards_take_a_size_for_every_kind_and_a_shape_for_the_corals(monkeypatch):
    """--size and --shape: every kind at the size, the Corals alone in the shape (hexhex 5
    has 61 cells, RULES.md "Hex boards"), and the matches' titles say so."""
    import engine

    monkeypatch.setattr(bench, "GAME_OPTIONS", {})
    assert bench.set_boards(None, None) == "" and bench.GAME_OPTIONS == {}
    assert bench.set_boards(5, "hexhex") == ", size 5, Corals hexhex"
    assert bench.GAME_OPTIONS["io"] == {"size": 5}
    assert bench.GAME_OPTIONS["braincoral"] == {"size": 5, "shape": "hexhex"}
    pos = engine.new_game("braincoral", **bench.GAME_OPTIONS["braincoral"])
    assert len(pos.board) == 61
    monkeypatch.setattr(bench, "GAME_OPTIONS", {})
    assert bench.set_boards(None, "hexhex") == ", Corals hexhex"
    assert bench.GAME_OPTIONS == {"braincoral": {"shape": "hexhex"},
                                  "branchingcoral": {"shape": "hexhex"}}
