"""ai.ratings, the levels' measured Elo ratings (issue 24 item 3), and the README's table that
benchmarks/elo_table.py prints from them: the data is well formed (every level, every game
kind, a rating inside its interval, a measurement described whenever a figure is there) --
not that ratings rise with the level (measured data) -- and the README holds the table the
script prints."""

from __future__ import annotations

import datetime
import math
from pathlib import Path

import pytest
from bench_support import load_benchmark

import ai
import engine
from ai import ratings
from ai.ratings import Measurement, Rating

ROOT = Path(__file__).resolve().parent.parent


elo_table = load_benchmark("elo_table", "elo_table")


def test_every_level_and_every_game_kind_has_an_entry():
    assert ratings.KINDS == tuple(engine.MENU_ORDER)
    assert sorted(ratings.RATINGS) == sorted(ai.LEVELS)
    for level, row in ratings.RATINGS.items():
        assert tuple(row) == ratings.KINDS, level
        for kind, r in row.items():
            assert r is None or isinstance(r, Rating), (level, kind)


def test_every_rating_lies_in_its_interval_and_its_measurement_is_described():
    present = [r for row in ratings.RATINGS.values() for r in row.values() if r is not None]
    for r in present:
        assert all(math.isfinite(x) for x in (r.elo, r.low, r.high)) and r.low <= r.elo <= r.high, r
    how = ratings.MEASURED
    assert how.scale > 0 and how.method
    if present:  # a figure needs its when and how
        assert how.date is not None and datetime.date.fromisoformat(how.date)
        assert isinstance(how.games_per_pair, int) and how.games_per_pair > 0 and how.command
    else:
        assert how.date is None and ratings.measured_kinds() == []


def test_measured_kinds_are_those_with_any_figure():
    table = {level: dict.fromkeys(ratings.KINDS) for level in range(1, 6)}
    assert ratings.measured_kinds(table) == []
    table[4]["whirlwind"] = Rating(1500, 1400, 1600)
    table[1]["io"] = Rating(900, 800, 1000)
    assert ratings.measured_kinds(table) == ["io", "whirlwind"]  # the menu's order


def test_the_readme_holds_the_table_printed_from_the_data():
    block = elo_table.readme_block((ROOT / "README.md").read_text(encoding="utf-8"))
    assert block is not None, "README.md lost the elo-table markers"
    assert block == elo_table.table(), "run: python benchmarks/elo_table.py --write"


def test_the_table_shows_ratings_intervals_and_how_they_were_measured():
    table = {level: dict.fromkeys(ratings.KINDS) for level in range(1, 6)}
    table[3]["coil"] = Rating(1410.4, 1350.0, 1470.6)
    how = Measurement("2026-11-27", 10, 1.0, "python benchmarks/ai.py --elo-games 10")
    text = elo_table.table(table, how)
    rows = text.splitlines()
    assert rows[0] == "| Level | Coil | Io | Brain Coral | Branching Coral | Whirlwind |"
    assert rows[4] == ("| 3 — Club: a careful search | 1410 (1350 to 1471) | not measured yet | "
                       "not measured yet | not measured yet | not measured yet |")
    assert "measured 2026-11-27: 10 games per pair" in text and "`python benchmarks/ai.py --elo-games 10`" in text
    assert "Not measured yet" in elo_table.table(dict.fromkeys(range(1, 6), dict.fromkeys(ratings.KINDS)))


def test_a_saved_round_robin_output_becomes_the_data():
    """The quick run of benchmarks/results (Brain Coral only, 1 game per pair) read back."""
    text = (ROOT / "benchmarks" / "results" / "issue24-ai3-2026-11-26.txt").read_text(encoding="utf-8")
    rows, games, scale = elo_table.parse_output(text)
    assert (games, scale) == (1, 0.05)
    assert rows[1]["braincoral"] == Rating(1150, -480, 1457) and rows[5]["braincoral"] == Rating(2603, 1573, 4086)
    assert ratings.measured_kinds(rows) == ["braincoral"]
    literal = elo_table.literal(rows)
    namespace: dict[str, object] = {"Rating": Rating}
    exec(literal, namespace)  # the literal pasted into ai/ratings.py means the same data
    assert namespace["RATINGS"] == rows


@pytest.mark.parametrize("missing", ["BEGIN", "END"])
def test_writing_needs_the_markers(tmp_path, missing):
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{elo_table.BEGIN}\nold\n{elo_table.END}\n", encoding="utf-8")
    assert elo_table.write_readme(readme) is True and elo_table.write_readme(readme) is False
    assert elo_table.readme_block(readme.read_text(encoding="utf-8")) == elo_table.table()
    readme.write_text(readme.read_text(encoding="utf-8").replace(getattr(elo_table, missing), ""), encoding="utf-8")
    before = readme.read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        elo_table.write_readme(readme)
    assert readme.read_text(encoding="utf-8") == before  # bad input changes nothing
