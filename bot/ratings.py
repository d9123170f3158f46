"""Elo ratings for Stonecast (issue 5 "Ratings"): pure functions, no I/O.

Ratings are kept per server (guild) and game kind. Everyone starts at :data:`START`. After a
rated game each player's rating moves by ``K * (score - expected)``, where ``score`` is 1 for
a win, 0.5 for a draw and 0 for a loss, ``expected = 1 / (1 + 10 ** ((opponent - own) / 400))``
and ``K`` is :data:`K_NEW` for a player's first :data:`NEW_GAMES` rated games in that kind and
server, then :data:`K_ESTABLISHED`.
"""

from __future__ import annotations

__all__ = ["K_ESTABLISHED", "K_NEW", "NEW_GAMES", "START", "expected_score", "k_factor", "update"]

START = 1500.0
K_NEW = 40.0
K_ESTABLISHED = 20.0
NEW_GAMES = 10


def expected_score(own: float, opponent: float) -> float:
    """Expected score (0..1) of a player rated ``own`` against one rated ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - own) / 400.0))


def k_factor(games_played: int) -> float:
    """K for a player who has finished ``games_played`` rated games before this one."""
    return K_NEW if games_played < NEW_GAMES else K_ESTABLISHED


def update(
    rating1: float, games1: int, rating2: float, games2: int, winner: int | None
) -> tuple[float, float]:
    """New ratings ``(seat 1, seat 2)`` after a game won by seat ``winner`` (``None``: a draw).

    ``games1`` / ``games2`` are the rated games each had finished before this one (they pick
    each player's K). Raises ValueError for a winner other than 1, 2 or None.
    """
    if winner not in (1, 2, None):
        raise ValueError("winner must be 1, 2 or None")
    score1 = 0.5 if winner is None else (1.0 if winner == 1 else 0.0)
    e1 = expected_score(rating1, rating2)
    new1 = rating1 + k_factor(games1) * (score1 - e1)
    new2 = rating2 + k_factor(games2) * ((1.0 - score1) - (1.0 - e1))
    return new1, new2
