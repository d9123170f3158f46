"""Swiss pairing by maximum-weight matching (networkx's ``max_weight_matching``).

Rules (issue 21 "Formats"). Players are ranked by score, then seed order (rating). The
pairing keeps, in priority order (each criterion is a level of the edges' cost, so one unit
of a level outweighs everything below it; "when avoidable" means: by any pairing that keeps
the levels above):

1. **No rematch**: two players who met (any earlier game between them, whatever its
   outcome: a forfeit or no-result game counts as a meeting) are never paired again -- no
   edge joins them. If no pairing without a rematch exists, :class:`~.base.NoLegalPairing`
   is raised: the tournament ends after its last complete round (the documented answer);
   ``allow_rematch=True`` instead allows rematches (and a second bye) at the highest cost,
   as a last resort.
2. **One bye** for an odd field, to the lowest-ranked player who has not had a bye (nor a
   forfeit win) and without whom the others can be paired; a bye scores 1 point
   (:data:`SWISS_BYE_POINTS`). Nobody gets two byes.
3. **No third same seat in a row** (like FIDE's absolute colour rule) when avoidable.
4. **Score groups**: as few pairs across score groups as possible, then the smallest sum
   of squared score differences (two one-step floats rather than one two-step float).
5. **Seat preference**: each player's preference (the seat they had fewer times,
   "strong"; with equal counts the other seat than last time, "mild") met as often as
   possible, strong ones first. In a pair the seats go to whoever's preference is
   stronger; with equal preferences, the higher-ranked player's.
6. **Top half v bottom half** within a score group: place ``i`` of a group of ``g`` meets
   place ``i + g/2`` where the rules above leave a choice -- so round 1 pairs seed 1 v
   n/2+1, 2 v n/2+2, ..., seeds 1, 3, 5... in seat 1 (no preferences yet: the higher
   ranked player takes seat 1 on an even rank index, 0 the top).

Seats are counted over games with a result over the board or none (not forfeits, which were
not played).

Optimality and performance: a field of up to :data:`COMPLETE_UP_TO` players (64) is paired
over every pair of players, so the pairing is the best by every rule above. In a larger
field the graph only has edges between players a few ranks apart and between each player
and the places around its ideal top-half/bottom-half partner; the window doubles until
everyone can be paired (up to the complete graph, which decides ``NoLegalPairing``): the
best pairing within that window, which in rare rounds may pair one more couple across
score groups than a search of every pair would.
A 256-player round pairs in about 0.3-0.9 s on a shared 2-core machine
(``benchmarks/tournament.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .base import (
    Bye,
    Entrant,
    GameRecord,
    NoLegalPairing,
    Outcome,
    Pairing,
    PlayerId,
    Round,
    check_distinct,
)

if TYPE_CHECKING:
    import networkx as nx

SWISS_BYE_POINTS = 1.0
"""Points for a Swiss bye (FIDE's default for a pairing-allocated bye)."""


def pair_swiss(
    entrants: Sequence[Entrant],
    games: Sequence[GameRecord],
    byes: Sequence[Bye],
    round_number: int,
    *,
    allow_rematch: bool = False,
) -> Round:
    """Pair Swiss round ``round_number`` (1-based) of the ``entrants`` still playing (seed
    order; withdrawn players left out), given every earlier game (``games``, all finished:
    every ``outcome`` set, possibly ``NO_RESULT``) and ``byes``. Games and byes of players
    no longer entered still count for their opponents' history.

    Returns the :class:`~.base.Round`: pairings on boards ordered by the higher score (then
    rank) of each pair, and at most one bye. Raises ``ValueError`` for fewer than 2 entrants,
    a duplicate entrant, or a game of an earlier round still unfinished; raises
    :class:`~.base.NoLegalPairing` when no pairing without a rematch exists and
    ``allow_rematch`` is False.
    """
    check_distinct([e.player for e in entrants], 2)
    if round_number < 1:
        raise ValueError(f"round numbers start at 1, not {round_number}")
    unfinished = sorted({g.round for g in games if g.outcome is None})
    if unfinished:
        raise ValueError(f"rounds {unfinished} still have games being played")
    state = _State.of(entrants, games, byes)
    n = len(state.ranked)
    window = n if n <= COMPLETE_UP_TO else _FIRST_WINDOW
    while True:
        matching = _match(state, round_number, window, allow_rematch)
        if len(matching) * 2 >= n:
            break
        if window >= n:
            raise NoLegalPairing(round_number, "every pairing repeats a game or a bye")
        window *= 2
    return _round(state, round_number, matching)


def swiss_scores(
    entrants: Sequence[Entrant], games: Sequence[GameRecord], byes: Sequence[Bye]
) -> dict[int, float]:
    """Each entrant's Swiss score: 1 a win or forfeit win, ½ a draw, :data:`SWISS_BYE_POINTS`
    a bye, 0 otherwise (pending games and no-result games count nothing). Games and byes of
    players not in ``entrants`` are skipped."""
    scores = {e.player: 0.0 for e in entrants}
    for game in games:
        for player in (game.seat1, game.seat2):
            if player in scores:
                scores[player] += game.score(player) or 0.0
    for bye in byes:
        if bye.player in scores:
            scores[bye.player] += SWISS_BYE_POINTS
    return scores


COMPLETE_UP_TO = 64
"""Fields of up to this many players are paired over the complete graph (about 0.1 s for 64
in networkx); larger fields start from :data:`_FIRST_WINDOW`."""

_FIRST_WINDOW = 8
"""In a field larger than :data:`COMPLETE_UP_TO`, at first, edges join a player to the players at most this many ranks away and to those
at most half as many places from its ideal partner in its score group (top half v bottom
half); the window doubles until a pairing of everyone exists (a complete graph of 256
players is too slow for networkx's blossom: ``benchmarks/tournament.py``)."""

_BYE = "bye"  # the bye's node in the graph (player nodes are ints)
_Node = PlayerId | str


@dataclass(frozen=True)
class _State:
    """What pairing reads: players ranked (score, then seed), scores, who met whom, each
    player's seats in order, who had a bye (or a forfeit win), and score groups."""

    ranked: tuple[PlayerId, ...]
    scores: dict[PlayerId, float]
    met: frozenset[frozenset[PlayerId]]
    seats: dict[PlayerId, tuple[int, ...]]
    had_bye: frozenset[PlayerId]
    group_place: dict[PlayerId, tuple[int, int]]  # (place in its score group, group size)
    rank: dict[PlayerId, int]  # place in ``ranked``, 0 the top

    @staticmethod
    def of(entrants: Sequence[Entrant], games: Sequence[GameRecord],
           byes: Sequence[Bye]) -> _State:
        scores = swiss_scores(entrants, games, byes)
        seed = {e.player: i for i, e in enumerate(entrants)}
        ranked = tuple(sorted(scores, key=lambda p: (-scores[p], seed[p])))
        seats: dict[PlayerId, list[int]] = {p: [] for p in ranked}
        for game in sorted(games, key=lambda g: g.round):
            if not game.forfeit:
                for player in (game.seat1, game.seat2):
                    if player in seats:
                        seats[player].append(game.seat_of(player))
        had_bye = {b.player for b in byes}
        had_bye |= {g.seat2 for g in games if g.outcome is Outcome.SEAT1_FORFEIT}
        had_bye |= {g.seat1 for g in games if g.outcome is Outcome.SEAT2_FORFEIT}
        group_place: dict[PlayerId, tuple[int, int]] = {}
        for score in set(scores.values()):
            group = [p for p in ranked if scores[p] == score]
            group_place.update((p, (i, len(group))) for i, p in enumerate(group))
        return _State(ranked, scores, frozenset(frozenset((g.seat1, g.seat2)) for g in games),
                      {p: tuple(h) for p, h in seats.items()}, frozenset(had_bye), group_place,
                      {p: i for i, p in enumerate(ranked)})

    def preference(self, player: PlayerId) -> tuple[int, int]:
        """(wanted seat, strength): strength 2 when the seat counts differ (the fewer one
        wanted), 1 when equal (the other than last time), 0 with no history (seat 0)."""
        history = self.seats[player]
        difference = history.count(1) - history.count(2)
        if difference:
            return (2 if difference > 0 else 1), 2
        if history:
            return 3 - history[-1], 1
        return 0, 0

    def third_in_a_row(self, player: PlayerId, seat: int) -> bool:
        """Would ``seat`` be ``player``'s third of that seat in a row?"""
        return self.seats[player][-2:] == (seat, seat)


def _seat_cost(state: _State, seat1: PlayerId, seat2: PlayerId) -> tuple[int, int]:
    """(third-in-a-row count, unmet preference strength) of seating the pair so."""
    third = state.third_in_a_row(seat1, 1) + state.third_in_a_row(seat2, 2)
    unmet = 0
    for player, seat in ((seat1, 1), (seat2, 2)):
        wanted, strength = state.preference(player)
        unmet += strength if wanted not in (0, seat) else 0
    return third, unmet


def _seated(state: _State, a: PlayerId, b: PlayerId) -> tuple[PlayerId, PlayerId]:
    """The pair (a ranked above b) in seats: fewest third-in-a-rows, then fewest unmet
    preferences, then the higher ranked player's preference, then, with none, the higher
    ranked player in seat 1 on even ranks (seeds 1, 3, 5... in round 1)."""
    forward, backward = _seat_cost(state, a, b), _seat_cost(state, b, a)
    if forward != backward:
        return (a, b) if forward < backward else (b, a)
    wanted, _ = state.preference(a)
    if wanted == 0:
        wanted = 1 if state.rank[a] % 2 == 0 else 2
    return (a, b) if wanted == 1 else (b, a)


def _match(state: _State, round_number: int, window: int,
           allow_rematch: bool) -> set[tuple[_Node, _Node]]:
    """The maximum-weight matching of players within ``window`` ranks (and the bye node).
    The cost of an edge is lexicographic, highest first: rematch (only with
    ``allow_rematch``), the bye's rank from the bottom, third-in-a-rows, a pair across score
    groups, the squared score difference in half points, unmet seat preferences, and the
    distance from the top-half-v-bottom-half partner in the score group."""
    ranked, n = state.ranked, len(state.ranked)
    half_points = 2 * round_number + 2
    levels = [1, n + 1, 2 * n + 1, n + 1, n * half_points * half_points + 1, 4 * n + 1, n * n + 1]
    # levels[k]: how many units of level k one unit of level k - 1 outweighs
    def cost(*parts: int) -> int:
        total = 0
        for part, base in zip(parts, levels, strict=True):
            total = total * base + part
        return total

    edges: list[tuple[_Node, _Node, int]] = []
    if n % 2:
        for rank, player in enumerate(ranked):
            if player not in state.had_bye:
                edges.append((player, _BYE, cost(0, n - 1 - rank, 0, 0, 0, 0, 0)))
            elif allow_rematch:
                edges.append((player, _BYE, cost(1, n - 1 - rank, 0, 0, 0, 0, 0)))
    for a, b in _candidates(state, window):
            rematch = frozenset((a, b)) in state.met
            if rematch and not allow_rematch:
                continue
            third, unmet = _seat_cost(state, *_seated(state, a, b))
            difference = round(2 * abs(state.scores[a] - state.scores[b]))
            (place_a, size), (place_b, _) = state.group_place[a], state.group_place[b]
            spread = abs(abs(place_a - place_b) - size // 2) if not difference else 0
            edges.append((a, b, cost(int(rematch), 0, third, int(difference > 0),
                                     difference * difference, unmet, spread)))
    if not edges:
        return set()
    import networkx as nx  # here, not at import: every bot process loads this module, few pair

    top = max(c for _, _, c in edges) + 1  # weights positive: the matching minimises cost
    graph: nx.Graph[_Node] = nx.Graph()
    graph.add_weighted_edges_from((a, b, top - c) for a, b, c in edges)
    matching: set[tuple[_Node, _Node]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching


def _candidates(state: _State, window: int) -> list[tuple[PlayerId, PlayerId]]:
    """The pairs the graph may join, the better ranked first: players at most ``window``
    ranks apart, and each player with those at most ``window // 2`` places from its ideal
    partner in its score group (place ± half the group's size)."""
    ranked, n = state.ranked, len(state.ranked)
    pairs: set[tuple[int, int]] = set()
    for i, a in enumerate(ranked):
        pairs.update((i, j) for j in range(i + 1, min(n, i + 1 + window)))
        place, size = state.group_place[a]
        start = i - place  # the group's first rank
        for ideal in (place + size // 2, place - size // 2):
            for j in range(max(start, start + ideal - window // 2),
                           min(start + size, start + ideal + window // 2 + 1)):
                if j != i:
                    pairs.add((min(i, j), max(i, j)))
    return [(ranked[i], ranked[j]) for i, j in sorted(pairs)]


def _round(state: _State, round_number: int, matching: set[tuple[_Node, _Node]]) -> Round:
    """The round from a matching: seats by :func:`_seated`, boards by the pair's higher score
    then its better rank, the bye apart."""
    rank = state.rank
    byes = tuple(p for a, b in matching for p in (a, b) if _BYE in (a, b) and isinstance(p, int))
    pairs = [(a, b) if rank[a] < rank[b] else (b, a)
             for a, b in matching if isinstance(a, int) and isinstance(b, int)]
    pairs.sort(key=lambda pair: (-state.scores[pair[0]], rank[pair[0]]))
    return Round(round_number, tuple(Pairing(*_seated(state, a, b)) for a, b in pairs), byes)
