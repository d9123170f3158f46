"""Glicko-2 worked out step by step for the tests (not a test module): Glickman's "Example
of the Glicko-2 system", steps 1-8, for one game against one opponent, written apart from
:mod:`bot.rules.glicko2` (the volatility's root found by plain bisection instead of the Illinois
algorithm), plus the growth of the deviation with inactivity that Stonecast applies."""

from __future__ import annotations

import math

SCALE = 173.7178
TAU = 0.5


def grown(rd: float, volatility: float, days: float) -> float:
    """The deviation after ``days`` without a game: sqrt(phi^2 + sigma^2 t), t = days / 7,
    at most 350."""
    phi = rd / SCALE
    return min(350.0, SCALE * math.sqrt(phi * phi + volatility * volatility * days / 7.0))


def by_hand(rating: float, rd: float, volatility: float, opp_rating: float, opp_rd: float,
            score: float) -> tuple[float, float, float]:
    """(rating, RD, volatility) after one game scoring ``score`` (1, 0.5, 0)."""
    mu, phi = (rating - 1500.0) / SCALE, rd / SCALE                     # step 2
    mu_j, phi_j = (opp_rating - 1500.0) / SCALE, opp_rd / SCALE
    g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j ** 2 / math.pi ** 2)          # step 3
    e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
    v = 1.0 / (g * g * e * (1.0 - e))
    delta = v * g * (score - e)                                          # step 4
    a = math.log(volatility ** 2)                                        # step 5

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / TAU ** 2

    lo, hi = a - 30.0, a + 30.0  # f(lo) > 0 > f(hi): f decreases through its one root
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    sigma = math.exp(lo / 2)
    phi_star = math.sqrt(phi ** 2 + sigma ** 2)                          # step 6
    phi_new = 1.0 / math.sqrt(1.0 / phi_star ** 2 + 1.0 / v)             # step 7
    mu_new = mu + phi_new ** 2 * g * (score - e)
    return 1500.0 + SCALE * mu_new, SCALE * phi_new, sigma               # step 8


def game(one: tuple[float, float, float], two: tuple[float, float, float], winner: int | None):
    """Both players' (rating, RD, volatility) after a game between them (winner seat, or
    ``None`` for a draw), each against the other as before it."""
    s1 = 0.5 if winner is None else float(winner == 1)
    return (by_hand(one[0], one[1], one[2], two[0], two[1], s1),
            by_hand(two[0], two[1], two[2], one[0], one[1], 1.0 - s1))


NEW = (1500.0, 350.0, 0.06)
