"""Glicko-2 (bot/rules/glicko2.py): Glickman's worked example, per-game periods, inactivity,
the provisional marker and the replay used by the migration from Elo."""

import math
from dataclasses import replace

import pytest

from bot.rules import glicko2
from bot.rules.glicko2 import DAY, GameResult, Rating, leaderboard_key, rate, rate_game, replay


def test_paper_worked_example():
    # "Example of the Glicko-2 system", Glickman: 1500/200/0.06 beats 1400/30, loses to
    # 1550/100 and 1700/300 in one rating period, tau 0.5.
    player = Rating(1500.0, 200.0, 0.06)
    new = rate(player, [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)], tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert new.games == 3


def test_volatility_uses_the_deviation_not_the_rating():
    # The PyPI package puts mu where the paper has phi in f(x); with a rating far from 1500 the
    # two differ. Here the steps are written out by hand from the paper for a 1800 player.
    player = Rating(1800.0, 80.0, 0.06)
    new = rate(player, [(1400.0, 50.0, 0.0)])
    mu, phi, sigma = 300 / glicko2.SCALE, 80 / glicko2.SCALE, 0.06
    mu_j, phi_j = -100 / glicko2.SCALE, 50 / glicko2.SCALE
    g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g * g * e * (1 - e))
    delta = v * g * (0 - e)
    a = math.log(sigma**2)

    def f(x):
        return math.exp(x) * (delta**2 - phi**2 - v - math.exp(x)) / (
            2 * (phi**2 + v + math.exp(x)) ** 2) - (x - a) / 0.25

    # bisection for the root of f, independent of the Illinois iteration in the module
    lo, hi = a - 10, a + 10 if f(a + 10) < 0 else a + 20
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    sigma_new = math.exp(lo / 2)
    phi_new = 1 / math.sqrt(1 / (phi**2 + sigma_new**2) + 1 / v)
    assert new.volatility == pytest.approx(sigma_new, rel=1e-6)
    assert new.rd == pytest.approx(phi_new * glicko2.SCALE, rel=1e-6)
    assert new.rating == pytest.approx(1500 + glicko2.SCALE * (mu + phi_new**2 * g * (0 - e)), rel=1e-6)


def test_empty_period_only_grows_the_deviation():
    player = Rating(1600.0, 100.0, 0.06)
    new = rate(player, [])
    assert new.rating == 1600.0 and new.volatility == 0.06 and new.games == 0
    assert new.rd == pytest.approx(glicko2.SCALE * math.sqrt((100 / glicko2.SCALE) ** 2 + 0.06**2))


def test_rate_game_is_one_period_for_each_player_against_pre_game_values():
    one, two = Rating(1500.0, 200.0, 0.06), Rating(1400.0, 30.0, 0.06)
    new1, new2 = rate_game(one, two, 1, at=1000.0)
    assert new1 == replace(rate(one, [(1400.0, 30.0, 1.0)]), last_played=1000.0)
    assert new2.rating == pytest.approx(rate(two, [(1500.0, 200.0, 0.0)]).rating)
    assert new1.rating > 1500 and new2.rating < 1400
    assert new1.games == new2.games == 1 and new1.last_played == new2.last_played == 1000.0


def test_draw_between_equals_changes_no_rating_and_shrinks_both_deviations():
    new1, new2 = rate_game(Rating(), Rating(), None, at=0.0)
    assert new1.rating == pytest.approx(1500.0) and new2.rating == pytest.approx(1500.0)
    assert new1.rd < 350 and new2.rd == pytest.approx(new1.rd)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="winner"):
        rate_game(Rating(), Rating(), 3, at=0.0)
    with pytest.raises(ValueError, match="score"):
        rate(Rating(), [(1500.0, 100.0, 2.0)])
    with pytest.raises(ValueError, match="deviation"):
        rate(Rating(), [(1500.0, 0.0, 1.0)])
    with pytest.raises(ValueError, match="tau"):
        rate(Rating(), [], tau=0)
    with pytest.raises(ValueError, match="themself"):
        replay([GameResult("a", "a", 1, 0.0)])


def test_deviation_grows_with_inactivity_up_to_the_start_value():
    r = Rating(1700.0, 50.0, 0.06, games=40, last_played=0.0)
    assert r.rd_at(None) == 50.0 and r.rd_at(0.0) == 50.0
    year = r.rd_at(365 * DAY)
    assert year == pytest.approx(glicko2.SCALE * math.sqrt((50 / glicko2.SCALE) ** 2 + 0.06**2 * 365 / 7))
    assert 85 < year < 95 and not r.provisional(365 * DAY)
    assert r.provisional(2 * 365 * DAY)
    assert r.rd_at(1000 * 365 * DAY) == glicko2.START_RD
    # A game after a long break starts from the grown deviation: the rating moves more.
    fresh = rate_game(r, Rating(1700.0, 50.0, 0.06, last_played=0.0), 1, at=1.0)[0]
    rusty = rate_game(r, Rating(1700.0, 50.0, 0.06, last_played=2 * 365 * DAY), 1,
                      at=2 * 365 * DAY)[0]
    assert rusty.rating - 1700 > fresh.rating - 1700


def test_provisional_marker_and_texts():
    assert Rating().provisional() and Rating().short_text() == "1500?"
    assert Rating().text() == "1500? ± 350"
    settled = Rating(1612.4, 45.2, 0.06, games=30)
    assert not settled.provisional()
    assert settled.short_text() == "1612" and settled.text() == "1612 ± 45"
    assert Rating(1500, 110.0).provisional() is False and Rating(1500, 110.01).provisional()


def test_leaderboard_lists_established_ratings_first():
    a = Rating(1900.0, 200.0)  # high but provisional
    b = Rating(1600.0, 60.0)
    c = Rating(1700.0, 90.0)
    assert sorted([a, b, c], key=leaderboard_key) == [c, b, a]


def test_replay_matches_game_by_game_updates():
    games = [
        GameResult(("g", "io", 1), ("g", "io", 2), 1, 10.0),
        GameResult(("g", "io", 2), ("g", "io", 3), None, 20.0 + 30 * DAY),
        GameResult(("g", "io", 3), ("g", "io", 1), 1, 30.0 + 30 * DAY),
        GameResult(("g", "coil", 1), ("g", "coil", 3), 2, 40.0 + 30 * DAY),
    ]
    table = replay(games)
    p1, p2 = rate_game(Rating(), Rating(), 1, 10.0)
    p2, p3 = rate_game(p2, Rating(), None, 20.0 + 30 * DAY)
    p3, p1 = rate_game(p3, p1, 1, 30.0 + 30 * DAY)
    c1, c3 = rate_game(Rating(), Rating(), 2, 40.0 + 30 * DAY)
    assert table == {
        ("g", "io", 1): p1, ("g", "io", 2): p2, ("g", "io", 3): p3,
        ("g", "coil", 1): c1, ("g", "coil", 3): c3,
    }
    assert table[("g", "io", 1)].games == 2 and table[("g", "coil", 3)].games == 1
    assert replay([]) == {}
