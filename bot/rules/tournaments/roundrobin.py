"""Round robins, single and double, by Berger tables (the circle method).

Rules (issue 21 "Formats"):

* ``n`` players in seed order; an odd field gets a phantom player: whoever is paired with
  it has the round's bye (counts nothing, see :mod:`.standings`). A single round robin has
  ``n - 1`` rounds (``n`` for odd ``n``), every pair meets exactly once.
* Seats follow FIDE's Berger tables: every player's seat-1 and seat-2 counts differ by at
  most one (a player with a bye in an odd field: likewise over the games they play).
* A double round robin repeats the single one with every game's seats swapped, so every
  pair meets twice, once in each seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import Pairing, PlayerId, Round, check_distinct


def round_robin(players: Sequence[PlayerId], *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a round robin of ``players`` (seed order, at least 2, distinct):
    ``n - 1`` rounds for even ``n``, ``n`` for odd (each with one bye), twice as many when
    ``double``. Pairings within a round are in board order (Berger's table order).
    Raises ``ValueError`` for fewer than 2 players or a player given twice."""
    check_distinct(players, 2)
    n = len(players)
    m = n + n % 2  # with the phantom player (index m - 1) of an odd field
    rounds: list[Round] = []
    for r in range(m - 1):
        # the circle method: index m - 1 stays, the others turn one step a round; the fixed
        # player alternates seats by round, a turning player is in seat 1 exactly when its
        # distance d = (p - r) mod (m - 1) is odd, so it alternates from round to round
        # except next to its game against the fixed player
        tables = [(r, m - 1) if r % 2 == 0 else (m - 1, r)]
        for i in range(1, m // 2):
            x, y = (r + i) % (m - 1), (r - i) % (m - 1)
            tables.append((x, y) if i % 2 == 1 else (y, x))
        pairings = [Pairing(players[a], players[b]) for a, b in tables if n not in (a, b)]
        byes = tuple(players[a + b - n] for a, b in tables if n in (a, b))
        rounds.append(Round(r + 1, tuple(pairings), byes))
    if double:
        rounds += [Round(len(rounds) + r.number,
                         tuple(Pairing(p.seat2, p.seat1) for p in r.pairings), r.byes)
                   for r in list(rounds)]
    return tuple(rounds)


def round_count(player_count: int, *, double: bool = False) -> int:
    """How many rounds :func:`round_robin` makes for ``player_count`` players (>= 2).
    Raises ``ValueError`` for fewer than 2."""
    if player_count < 2:
        raise ValueError(f"at least 2 players are needed, not {player_count}")
    return (player_count + player_count % 2 - 1) * (2 if double else 1)
