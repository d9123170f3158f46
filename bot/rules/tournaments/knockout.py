"""Knockout brackets: seeding, byes, matches of 1 or 2 games, tie-breaks, advancement.

Rules (issue 21 "Formats"):

* **Bracket**: the field (seed order, seed 1 the highest rated) is placed in a bracket of
  size ``B``, the next power of two, in the standard order (1 v B, 2 v B-1, ... placed so
  that seeds 1 and 2 can meet only in the final, 1-4 only in the semi-finals, ...). The
  ``B - n`` missing seeds are byes: the top seeds advance from round 1 without playing.
* **A match** has 1 or 2 games. In game 1 the higher seed (lower seed number; in later rounds
  the better seed of the two) takes seat 1; in game 2 the seats are swapped. The match
  score is the sum of game points (forfeits count as wins; a no-result game counts nothing).
* **Tie-break**: a level match (including a single drawn or no-result game) gets **one
  extra game** with the seats reversed from the match's last game. The player who wins it
  advances; if it is level too (a draw or no result), the higher seed advances.
* **Advancement**: the winners of matches ``2i`` and ``2i + 1`` of a round meet in match
  ``i`` of the next round, until one player is left.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .base import GameRecord, Pairing, PlayerId, check_distinct


@dataclass(frozen=True)
class Match:
    """One knockout match: ``round`` (1-based), ``slot`` (0-based position in that round's
    bracket, top to bottom), ``high`` (the better seed of the two) and ``low`` (``None``:
    ``high`` has a bye and advances without playing)."""

    round: int
    slot: int
    high: PlayerId
    low: PlayerId | None


class MatchStatus(enum.Enum):
    """Where a match stands (see :class:`MatchState`)."""

    PLAYING = "playing"  # a scheduled game is not finished yet
    NEEDS_GAME = "needs_game"  # the next game (regular or tie-break) is to be started
    DECIDED = "decided"  # ``winner`` advances


@dataclass(frozen=True)
class MatchState:
    """A match's state after its games: ``status``; ``winner`` when decided; ``next_game``,
    the pairing of the game to start when ``NEEDS_GAME``; ``score``: (high's points, low's
    points) over all its games so far."""

    status: MatchStatus
    winner: PlayerId | None
    next_game: Pairing | None
    score: tuple[float, float]


def first_round(seeds: Sequence[PlayerId]) -> tuple[Match, ...]:
    """Round 1 of a knockout of ``seeds`` (seed order, at least 2, distinct): ``B / 2``
    matches for a bracket of ``B`` (the next power of two), the top ``B - n`` seeds with a bye
    (``low is None``). Raises ``ValueError`` for fewer than 2 players or a duplicate."""
    check_distinct(seeds, 2)
    order = bracket_order(1 << round_count(len(seeds)))
    return tuple(Match(1, slot, seeds[order[2 * slot] - 1],
                       seeds[order[2 * slot + 1] - 1] if order[2 * slot + 1] <= len(seeds) else None)
                 for slot in range(len(order) // 2))


def bracket_order(size: int) -> tuple[int, ...]:
    """The standard seed order of a bracket of ``size`` (a power of two, at least 2) slots:
    ``(1, 8, 4, 5, 2, 7, 3, 6)`` for 8 -- consecutive pairs meet in round 1, and seeds 1 and 2
    are in opposite halves. Raises ``ValueError`` if ``size`` is not a power of two >= 2."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two slots, at least 2, not {size}")
    order = [1, 2]
    while len(order) < size:
        # each seed s meets, in the next round down, the seed that adds up with it to 2k + 1
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return tuple(order)


def match_state(match: Match, games: Sequence[GameRecord], games_per_match: int) -> MatchState:
    """The state of ``match`` given its ``games`` so far (those between its two players in its
    round, in the order they were started). ``games_per_match`` is 1 or 2. A bye is decided
    at once for ``high``. Raises ``ValueError`` for a bad ``games_per_match`` or a game of
    other players, or more games than the match and its tie-break game."""
    if games_per_match not in (1, 2):
        raise ValueError(f"a match has 1 or 2 games, not {games_per_match}")
    if match.low is None:
        return MatchState(MatchStatus.DECIDED, match.high, None, (0.0, 0.0))
    high, low = match.high, match.low
    for game in games:
        if {game.seat1, game.seat2} != {high, low}:
            raise ValueError(f"game {game} is not between {high} and {low}")
    if len(games) > games_per_match + 1:
        raise ValueError(f"{len(games)} games in a match of {games_per_match} and a tie-break")
    score = (sum(g.score(high) or 0.0 for g in games), sum(g.score(low) or 0.0 for g in games))
    if any(g.outcome is None for g in games):
        return MatchState(MatchStatus.PLAYING, None, None, score)
    if len(games) < games_per_match:
        # game 1: the better seed in seat 1; game 2: seats swapped
        pairing = Pairing(high, low) if len(games) % 2 == 0 else Pairing(low, high)
        return MatchState(MatchStatus.NEEDS_GAME, None, pairing, score)
    if score[0] != score[1]:
        return MatchState(MatchStatus.DECIDED, high if score[0] > score[1] else low, None, score)
    if len(games) == games_per_match:
        last = games[-1]  # the tie-break game reverses the last game's seats
        return MatchState(MatchStatus.NEEDS_GAME, None, Pairing(last.seat2, last.seat1), score)
    return MatchState(MatchStatus.DECIDED, high, None, score)  # level after the tie-break


def next_round(matches: Sequence[Match], winners: Sequence[PlayerId],
               seeds: Sequence[PlayerId]) -> tuple[Match, ...]:
    """The next round's matches from a round's ``matches`` (all of one round, in slot order)
    and their ``winners`` (same order). ``seeds`` (seed order) decides who is ``high``.
    Raises ``ValueError`` if the round had a single match (it was the final), a winner is
    not one of its match's players, or the counts differ."""
    if len(matches) != len(winners):
        raise ValueError(f"{len(matches)} matches but {len(winners)} winners")
    if len(matches) < 2 or len(matches) % 2:
        raise ValueError(f"a round of {len(matches)} matches has no next round")
    for match, winner in zip(matches, winners, strict=True):
        if winner not in (match.high, match.low):
            raise ValueError(f"{winner} did not play in match {match.slot}")
    seed = {p: i for i, p in enumerate(seeds)}
    missing = set(winners) - set(seed)
    if missing:
        raise ValueError(f"winners without a seed: {sorted(missing)}")
    following = []
    for slot in range(len(winners) // 2):
        a, b = sorted(winners[2 * slot:2 * slot + 2], key=seed.__getitem__)
        following.append(Match(matches[0].round + 1, slot, a, b))
    return tuple(following)


def round_count(player_count: int) -> int:
    """Rounds of a knockout of ``player_count`` players (>= 2): log2 of the bracket size.
    Raises ``ValueError`` for fewer than 2."""
    if player_count < 2:
        raise ValueError(f"at least 2 players are needed, not {player_count}")
    return (player_count - 1).bit_length()
