"""Glicko-2 ratings for Stonecast (issue 13 "Ratings players trust"): pure functions, no I/O.

The algorithm is Mark Glickman's "Example of the Glicko-2 system" (2013 revision), steps 1-8,
implemented here rather than taken from PyPI: the most used package (``glicko2`` 2.1.0) has
a mutable, camel-case ``Player`` API with a class-wide tau and, in its volatility step,
uses the player's rating where the paper uses the rating deviation (``phi``), which only
goes unnoticed in the paper's example because that player is rated exactly 1500.

Decisions (see :data:`TAU`, :data:`PROVISIONAL_RD`, :data:`INACTIVITY_PERIOD_DAYS`):

* **tau = 0.5**, the value of the paper's example, within the 0.3-1.2 range it recommends;
  a smaller tau lets the volatility change less, which suits a few games a month.
* **One rating period per game.** Each rated game updates both players at once, each
  against the other's rating as it was before the game (as lichess does). Correspondence
  games end days apart and players want to see a result move their rating; waiting for a
  batch period would leave them unchanged for weeks.
* **Inactivity.** The deviation grows with time away, as the paper's step 6 does for a
  period without games: before a game, and when a rating is shown, ``phi`` becomes
  ``sqrt(phi^2 + sigma^2 * t)`` with ``t`` the days since the player's last rated game
  divided by :data:`INACTIVITY_PERIOD_DAYS` (7 days), never above the starting 350. An
  established player (RD 50) who stops for a year comes back at about RD 90, for two years
  about RD 118 (provisional again).
* **Provisional** while RD > :data:`PROVISIONAL_RD` (110), shown with a ``?`` (lichess's
  rule); leaderboards list established ratings first (:func:`leaderboard_key`).
* A new player starts at 1500 / 350 / 0.06. A draw scores 0.5.

Ratings are kept per server and game kind; the store keys them, this module does not care:
:func:`replay` takes any hashable key per player.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace

__all__ = [
    "DAY",
    "INACTIVITY_PERIOD_DAYS",
    "PROVISIONAL_RD",
    "SCALE",
    "START_RATING",
    "START_RD",
    "START_VOLATILITY",
    "TAU",
    "GameResult",
    "Rating",
    "leaderboard_key",
    "rate",
    "rate_game",
    "replay",
]

START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
PROVISIONAL_RD = 110.0
INACTIVITY_PERIOD_DAYS = 7.0
SCALE = 173.7178  # Glicko-2 scale factor, 400 / ln 10
DAY = 86400.0
_EPSILON = 0.000001  # convergence tolerance of the volatility iteration (the paper's value)


@dataclass(frozen=True)
class Rating:
    """One player's Glicko-2 rating in one server and game kind.

    ``rating`` and ``rd`` (rating deviation) are on the familiar Glicko scale (1500 start);
    ``volatility`` is sigma on the Glicko-2 scale; ``games`` counts rated games played;
    ``last_played`` is when the last one ended (UNIX seconds, ``None`` before any).
    """

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY
    games: int = 0
    last_played: float | None = None

    def rd_at(self, now: float | None) -> float:
        """The deviation at ``now`` (UNIX seconds): :attr:`rd` grown by the time since
        :attr:`last_played` (module docstring, "Inactivity"), at most :data:`START_RD`.
        ``now`` ``None``, or no game yet, gives :attr:`rd` unchanged."""
        if now is None or self.last_played is None or now <= self.last_played:
            return self.rd
        periods = (now - self.last_played) / (INACTIVITY_PERIOD_DAYS * DAY)
        phi = self.rd / SCALE
        return min(START_RD, SCALE * math.sqrt(phi * phi + self.volatility**2 * periods))

    def provisional(self, now: float | None = None) -> bool:
        """True while the deviation (at ``now``, see :meth:`rd_at`) is above
        :data:`PROVISIONAL_RD`: the rating is shown with a ``?``."""
        return self.rd_at(now) > PROVISIONAL_RD

    def short_text(self, now: float | None = None) -> str:
        """``"1612"``, or ``"1500?"`` while provisional: for leaderboards and board panels."""
        return f"{round(self.rating)}{'?' if self.provisional(now) else ''}"

    def text(self, now: float | None = None) -> str:
        """``"1612 ± 45"`` (``"1500? ± 350"`` while provisional): for /profile."""
        return f"{self.short_text(now)} ± {round(self.rd_at(now))}"


@dataclass(frozen=True)
class GameResult:
    """A finished rated game for :func:`replay`: ``player1``/``player2`` are the keys of seat
    1 and seat 2 (e.g. ``(guild_id, game_kind, user_id)``), ``winner`` is 1, 2 or ``None``
    for a draw, ``at`` is when it ended (UNIX seconds)."""

    player1: Hashable
    player2: Hashable
    winner: int | None
    at: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x)."""
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Rating,
    results: Iterable[tuple[float, float, float]],
    *,
    tau: float = TAU,
) -> Rating:
    """``player``'s rating after one rating period (the paper's steps 2-8).

    ``results`` are ``(opponent rating, opponent RD, score)`` with score 1 (win), 0.5 (draw)
    or 0 (loss), all on the Glicko scale and as they were at the start of the period. With
    no results only the deviation grows (step 6). ``games`` grows by the number of results;
    ``last_played`` is left as it is (:func:`rate_game` sets it). Raises ValueError for a
    score outside 0..1, an RD not above 0 or a tau not above 0.
    """
    if not tau > 0:
        raise ValueError("tau must be above 0")
    mu, phi, sigma = (player.rating - START_RATING) / SCALE, player.rd / SCALE, player.volatility
    opponents = []
    for rating_j, rd_j, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score must be between 0 and 1, not {score!r}")
        if not rd_j > 0:
            raise ValueError(f"a rating deviation must be above 0, not {rd_j!r}")
        opponents.append(((rating_j - START_RATING) / SCALE, rd_j / SCALE, score))
    if not opponents:
        return replace(player, rd=min(START_RD, SCALE * math.sqrt(phi * phi + sigma * sigma)))
    v_inv = 0.0
    gain = 0.0
    for mu_j, phi_j, score in opponents:
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inv
    delta = v * gain
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return replace(
        player,
        rating=START_RATING + SCALE * mu_new,
        rd=min(START_RD, SCALE * phi_new),
        volatility=sigma_new,
        games=player.games + len(opponents),
    )


def rate_game(
    seat1: Rating, seat2: Rating, winner: int | None, at: float, *, tau: float = TAU
) -> tuple[Rating, Rating]:
    """New ratings ``(seat 1, seat 2)`` after one rated game that ended at ``at`` (UNIX
    seconds), won by seat ``winner`` (``None``: a draw). One game is one rating period: each
    player is rated against the other's rating and deviation before the game, the deviations
    first grown by inactivity up to ``at`` (:meth:`Rating.rd_at`); both get ``last_played =
    at``. Raises ValueError for a winner other than 1, 2 or None.
    """
    if winner not in (1, 2, None):
        raise ValueError("winner must be 1, 2 or None")
    score1 = 0.5 if winner is None else (1.0 if winner == 1 else 0.0)
    one = replace(seat1, rd=seat1.rd_at(at))
    two = replace(seat2, rd=seat2.rd_at(at))
    new1 = rate(one, [(two.rating, two.rd, score1)], tau=tau)
    new2 = rate(two, [(one.rating, one.rd, 1.0 - score1)], tau=tau)
    return replace(new1, last_played=at), replace(new2, last_played=at)


def replay(results: Iterable[GameResult], *, tau: float = TAU) -> dict[Hashable, Rating]:
    """Everyone's rating after the rated games ``results``, applied in the order given
    (the caller sorts them by end time), everyone starting from :class:`Rating()`. Used by
    the migration from Elo: the answer is what :func:`rate_game` would have given game by
    game. Raises ValueError for a game a player plays against themself or a bad winner.
    """
    table: dict[Hashable, Rating] = {}
    for game in results:
        if game.player1 == game.player2:
            raise ValueError(f"a player cannot play themself: {game.player1!r}")
        one = table.get(game.player1, Rating())
        two = table.get(game.player2, Rating())
        table[game.player1], table[game.player2] = rate_game(one, two, game.winner, game.at, tau=tau)
    return table


def leaderboard_key(rating: Rating, now: float | None = None) -> tuple[bool, float]:
    """Sort key for a leaderboard: established ratings first, then highest rating first
    (``sorted(ratings, key=leaderboard_key)``)."""
    return (rating.provisional(now), -rating.rating)
