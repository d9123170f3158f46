"""League seasons: divisions, promotion and relegation, newcomers and leavers.

Rules (issue 21 "Formats"):

* **Divisions** hold at most ``division_size`` players (default 8), division 1 the
  strongest. A season is one single round robin per division (:mod:`.roundrobin`).
* **First season**: the entrants in seed order (strongest first) are cut into divisions of
  ``division_size`` from the top.
* **Between seasons**: between divisions ``d`` and ``d + 1`` the top ``m`` of ``d + 1`` go up
  and the bottom ``m`` of ``d`` go down, with ``m = min(k, max(1, s // 3))``, ``k`` the
  league's promote/relegate count (default 2) and ``s`` the smaller of the two divisions'
  sizes (so small divisions move fewer players: 8 and 8 move 2, 5 and 8 move 1).
  Then players who left are dropped, newcomers (seed order) join at the bottom, and the
  order is cut again into divisions of ``division_size``: a gap a leaver leaves is filled
  by the next player down, newcomers enter the lowest division, or a new lowest division
  when it is full.
* **Small last division**: a division needs :data:`MIN_DIVISION` players; when the last one
  would be smaller, the last two divisions share their players evenly (the upper one takes
  the odd player), or, when that gives fewer than :data:`MIN_DIVISION` each, merge.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .base import PlayerId

DEFAULT_DIVISION_SIZE = 8
DEFAULT_MOVERS = 2
MIN_DIVISION = 3
"""The fewest players a division of a season has (a league of fewer has one division)."""


@dataclass(frozen=True)
class LeagueRules:
    """A league's parameters: ``division_size`` (max players a division, >= MIN_DIVISION)
    and ``movers`` (k, promoted and relegated at each boundary, >= 0)."""

    division_size: int = DEFAULT_DIVISION_SIZE
    movers: int = DEFAULT_MOVERS

    def __post_init__(self) -> None:
        if self.division_size < MIN_DIVISION:
            raise ValueError(f"a division holds at least {MIN_DIVISION} players")
        if self.movers < 0:
            raise ValueError("movers cannot be negative")


@dataclass(frozen=True)
class SeasonChange:
    """The next season's ``divisions`` (division 1 first, each in seed order for its round
    robin), plus who ``promoted`` and who was ``relegated`` (as the final standings name
    them), who ``left`` and the ``newcomers`` placed."""

    divisions: tuple[tuple[PlayerId, ...], ...]
    promoted: frozenset[PlayerId]
    relegated: frozenset[PlayerId]
    left: frozenset[PlayerId]
    newcomers: tuple[PlayerId, ...]


def first_season(players: Sequence[PlayerId], rules: LeagueRules = LeagueRules()
                 ) -> tuple[tuple[PlayerId, ...], ...]:
    """The first season's divisions from ``players`` in seed order (at least 2, distinct).
    Raises ``ValueError`` for fewer than 2 players or a duplicate."""
    raise NotImplementedError


def next_season(final: Sequence[Sequence[PlayerId]], *, left: Collection[PlayerId] = (),
                newcomers: Sequence[PlayerId] = (), rules: LeagueRules = LeagueRules()
                ) -> SeasonChange:
    """The next season from this season's ``final`` standings (division 1 first, each from
    first place to last), the players who ``left`` and the ``newcomers`` (seed order).
    Raises ``ValueError`` if a player appears twice, a newcomer is already in, or fewer
    than 2 players remain."""
    raise NotImplementedError


def movers_between(upper: int, lower: int, rules: LeagueRules = LeagueRules()) -> int:
    """How many go up and down between divisions of ``upper`` and ``lower`` players."""
    raise NotImplementedError
