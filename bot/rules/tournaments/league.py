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
  Within a new division the seed order is: relegated from above, those who stayed (in
  their final order), promoted from below.
* **Leavers** are dropped; their division plays with fewer players.
* **Newcomers** (seed order) fill the lowest division up to ``division_size``; the rest
  form new lowest divisions of ``division_size``.
* **Small divisions**: a division needs :data:`MIN_DIVISION` players; a smaller one joins
  the division below it (the last one: the one above); when the two hold more than
  ``division_size``, they share their players evenly instead (the upper division takes the
  odd player) -- unless that leaves either under :data:`MIN_DIVISION`, then they merge.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .base import PlayerId, check_distinct

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
    check_distinct(players, 2)
    size = rules.division_size
    return _settle([list(players[i:i + size]) for i in range(0, len(players), size)], rules)


def next_season(final: Sequence[Sequence[PlayerId]], *, left: Collection[PlayerId] = (),
                newcomers: Sequence[PlayerId] = (), rules: LeagueRules = LeagueRules()
                ) -> SeasonChange:
    """The next season from this season's ``final`` standings (division 1 first, each from
    first place to last), the players who ``left`` and the ``newcomers`` (seed order).
    Raises ``ValueError`` if a player appears twice, a newcomer is already in, or fewer
    than 2 players remain."""
    everyone = [p for division in final for p in division]
    check_distinct(everyone)
    check_distinct(list(newcomers))
    already = set(newcomers) & set(everyone)
    if already:
        raise ValueError(f"newcomers already in the league: {sorted(already)}")
    gone = frozenset(left) & set(everyone)
    up: list[list[PlayerId]] = [[] for _ in final]  # up[d]: who leaves division d upwards
    down: list[list[PlayerId]] = [[] for _ in final]
    for d in range(len(final) - 1):
        m = movers_between(len(final[d]), len(final[d + 1]), rules)
        down[d] = list(final[d][len(final[d]) - m:])
        up[d + 1] = list(final[d + 1][:m])
    divisions: list[list[PlayerId]] = []
    for d, division in enumerate(final):
        # relegated from above first, then those who stay, then promoted from below
        members = list(down[d - 1]) if d else []
        members += [p for p in division if p not in up[d] and p not in down[d]]
        members += up[d + 1] if d + 1 < len(final) else []
        divisions.append([p for p in members if p not in gone])
    divisions = [d for d in divisions if d] or [[]]
    room = max(0, rules.division_size - len(divisions[-1]))
    divisions[-1] += newcomers[:room]
    rest = list(newcomers[room:])
    divisions += [rest[i:i + rules.division_size] for i in range(0, len(rest), rules.division_size)]
    check_distinct([p for d in divisions for p in d], 2)
    return SeasonChange(_settle(divisions, rules),
                        frozenset(p for ups in up for p in ups) - gone,
                        frozenset(p for downs in down for p in downs) - gone,
                        gone, tuple(newcomers))


def movers_between(upper: int, lower: int, rules: LeagueRules = LeagueRules()) -> int:
    """How many go up and down between divisions of ``upper`` and ``lower`` players:
    ``min(k, max(1, s // 3))`` with ``s`` the smaller size (0 if ``k`` is 0 or a division is
    empty)."""
    smaller = min(upper, lower)
    if smaller == 0:
        return 0
    return min(rules.movers, max(1, smaller // 3))


def _settle(divisions: list[list[PlayerId]], rules: LeagueRules
            ) -> tuple[tuple[PlayerId, ...], ...]:
    """``divisions`` (strongest first) with every division under :data:`MIN_DIVISION` joined
    to its neighbour (the one below; the last: the one above), shared evenly when the two
    exceed ``rules.division_size`` and each half keeps :data:`MIN_DIVISION`."""
    divisions = [d for d in divisions if d]
    while len(divisions) > 1:
        small = next((i for i, d in enumerate(divisions) if len(d) < MIN_DIVISION), None)
        if small is None:
            break
        upper = small if small + 1 < len(divisions) else small - 1
        joint = divisions[upper] + divisions[upper + 1]
        half = (len(joint) + 1) // 2
        if len(joint) > rules.division_size and len(joint) - half >= MIN_DIVISION:
            divisions[upper:upper + 2] = [joint[:half], joint[half:]]
        else:
            divisions[upper:upper + 2] = [joint]
    return tuple(tuple(d) for d in divisions)
