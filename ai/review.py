"""Review of a whole game: the search's estimate after every ply and the moves that swung it.

Public surface::

    from ai.review import review_game
    r = review_game("coil", {"size": 5}, ["c3", "pass", ...], level=3, playouts=200, seed=1,
                    progress=lambda done, total: ...)
    r.plies[i]      # PlyReview of move i+1: move played, seat, the search's preferred move
                    # in the position before it, seat 1's chances before and after it
    r.values        # seat 1's chances after 0, 1, ..., n plies (values[0]: the start)
    r.swings        # the plies where the estimate moved most against the mover (Swing)
    r.swings[0].text()   # "move 23, f6: 71% → 32%" (the mover's chances)

A "ply" here is one whole move of the record (one turn: ``"g7"``, ``"c3 e5"``, ``"pass"``).
Every position is searched with :func:`ai.search_move` at the given level, without the
level's noise and always looking at the immediate threats (``Level.sight`` 1: a review
wants the search's best, not a beginner's pick). A finished
position's value is exact (1, 0, or 0.5 for a draw); so is a value the solver proved. The
search's optimism for the side to move is taken out (:func:`remove_tempo`), so the curve
does not zigzag from move to move, and a lone value far from both neighbours' is searched
again with more simulations (:func:`find_spikes`).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine

from . import MAX_SECONDS, _check_level, _check_playouts, _check_seconds, search_move

__all__ = ["DEFAULT_LEVEL", "DEFAULT_PLAYOUTS", "GameReview", "PlyReview", "Swing", "find_spikes",
           "find_swings", "remove_tempo", "review_game"]

#: Level used when none is given (level 3's search settings: knowledge, solver, GRAVE).
DEFAULT_LEVEL = 3
#: Simulations per position when neither ``seconds`` nor ``playouts`` is given. Below about
#: 1000 the estimate of a 14x14 Whirlwind opening is still noise (a best child with a
#: handful of visits, all won); at 1000 a 60-ply game reviews in 15-45 s on one core.
DEFAULT_PLAYOUTS = 1000
#: Plies around a position over which the search's optimism for the side to move is
#: estimated (:func:`remove_tempo`).
TEMPO_WINDOW = 9
#: A position whose value differs from both neighbours' by more than this (same direction)
#: is searched again (:func:`find_spikes`) with RECHECK_FACTOR times the budget.
SPIKE = 0.15
RECHECK_FACTOR = 4
#: A drop smaller than this (in the mover's chances, 0..1) is never called a swing.
MIN_SWING = 0.05


@dataclass(frozen=True)
class PlyReview:
    """One ply of a reviewed game.

    * ``ply`` -- move number, from 1.
    * ``seat`` -- the seat (1 or 2) that played it.
    * ``move`` -- the move played (canonical text).
    * ``preferred`` -- the move the search chose in the position before it (may equal ``move``).
    * ``before`` / ``after`` -- the estimate (0..1) that seat 1 wins, before and after the move.
    * ``exact`` -- True when ``after`` is exact (a finished position, or proved by the solver).
    """

    ply: int
    seat: int
    move: str
    preferred: str
    before: float
    after: float
    exact: bool

    @property
    def drop(self) -> float:
        """How much the move lowered the mover's chances (negative when it raised them)."""
        if self.seat == 1:
            return self.before - self.after
        return self.after - self.before


@dataclass(frozen=True)
class Swing:
    """A ply where the estimate moved against the player who moved.

    ``ply``, ``seat``, ``move``, ``preferred`` as in :class:`PlyReview`; ``before`` and
    ``after`` are the *mover's* chances (0..1) before and after the move.
    """

    ply: int
    seat: int
    move: str
    preferred: str
    before: float
    after: float

    @property
    def drop(self) -> float:
        """``before - after``: how much the move cost the mover (0..1)."""
        return self.before - self.after

    def text(self) -> str:
        """The swing in words, e.g. ``"move 23, f6: 71% → 32%"`` (the mover's chances)."""
        return f"move {self.ply}, {self.move}: {pct(self.before)} → {pct(self.after)}"


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: ``kind``, ``options``, ``plies`` (one :class:`PlyReview` per move),
    ``start`` (seat 1's chances before the first move), ``swings`` (biggest drops first),
    ``outcome`` (the final position's :class:`engine.Outcome`, or None for an unfinished
    record, e.g. one ended by resignation: the resignation is not a move), and
    ``playouts`` (simulations run in all)."""

    kind: str
    options: Mapping[str, object]
    plies: tuple[PlyReview, ...]
    start: float
    swings: tuple[Swing, ...]
    outcome: engine.Outcome | None
    playouts: int

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): kind, options, start, plies, swings, outcome
        (``{"winner", "reason"}`` or None) and playouts; read back by
        :func:`renderers.chart.review_from_dict` for the chart."""
        out = self.outcome
        return {
            "kind": self.kind, "options": dict(self.options), "start": self.start,
            "plies": [dataclasses.asdict(p) for p in self.plies],
            "swings": [dataclasses.asdict(s) for s in self.swings],
            "outcome": None if out is None else {"winner": out.winner,
                                                 "reason": str(getattr(out.reason, "value", out.reason))},
            "playouts": self.playouts,
        }

    @property
    def values(self) -> list[float]:
        """Seat 1's chances after 0, 1, ..., n plies (``values[0]`` is the start)."""
        return [self.start] + [p.after for p in self.plies]


def pct(value: float) -> str:
    """A chance 0..1 as a whole percentage, ``"71%"``."""
    return f"{round(value * 100)}%"


def _seat1(value: float, to_move: int) -> float:
    return value if to_move == 1 else 1.0 - value


def _exact(position: engine.Position) -> float:
    assert position.outcome is not None  # called for a finished position only
    winner = position.outcome.winner
    return 0.5 if winner is None else (1.0 if winner == 1 else 0.0)


def _seat1_values(own: Sequence[float], movers: Sequence[int | None]) -> list[float]:
    return [v if m is None else _seat1(v, m) for v, m in zip(own, movers, strict=True)]


def find_spikes(values: Sequence[float], exact: Sequence[bool],
                threshold: float = SPIKE) -> list[int]:
    """Indices of positions (not the first or last, not exact) whose value differs from both
    neighbours' by more than ``threshold``, in the same direction."""
    out = []
    for i in range(1, len(values) - 1):
        if exact[i]:
            continue
        a, b = values[i] - values[i - 1], values[i] - values[i + 1]
        if a * b > 0 and min(abs(a), abs(b)) > threshold:
            out.append(i)
    return out


def remove_tempo(own: Sequence[float], exact: Sequence[bool], movers: Sequence[int | None],
                 window: int = TEMPO_WINDOW) -> list[float]:
    """``own`` (each position's value for its player to move) without the search's
    optimism for the player to move.

    A search's value is the best of many moves' noisy means, and random playouts favour
    whoever moves first: it reads a few percent high for the side to move, so raw values
    along a game zigzag. Assuming most moves of a game cost little, half of the apparent
    drop per move is that optimism; it is estimated at each position as the median of
    those halves over the ``window`` plies around it (only between two searched, unproved
    positions of different players to move) and subtracted (clamped to 0..1). Exact
    values (``exact``, or ``movers`` None: a finished position) are kept as they are.
    """
    n = len(own)
    halves: list[tuple[int, float]] = []
    for i in range(1, n):
        if (movers[i - 1] is not None and movers[i] is not None and movers[i - 1] != movers[i]
                and not exact[i - 1] and not exact[i]):
            halves.append((i, (own[i - 1] + own[i] - 1.0) / 2))
    reach = window // 2
    out = []
    for i in range(n):
        if exact[i] or movers[i] is None:
            out.append(own[i])
            continue
        near = [h for j, h in halves if i - reach <= j <= i + reach + 1]
        t = statistics.median(near) if near else 0.0
        out.append(min(1.0, max(0.0, own[i] - t)))
    return out


def find_swings(plies: Sequence[PlyReview], count: int = 3,
                minimum: float = MIN_SWING) -> tuple[Swing, ...]:
    """The ``count`` plies whose moves lowered the mover's chances most (at least
    ``minimum``), biggest drop first (earlier ply first on a tie), as :class:`Swing`."""
    ranked = sorted((p for p in plies if p.drop >= minimum), key=lambda p: (-p.drop, p.ply))
    out = []
    for p in ranked[:count]:
        b, a = (p.before, p.after) if p.seat == 1 else (1 - p.before, 1 - p.after)
        out.append(Swing(p.ply, p.seat, p.move, p.preferred, b, a))
    return tuple(out)


def review_game(kind: str, options: Mapping[str, object] | None, moves: Sequence[str], *,
                level: int = DEFAULT_LEVEL, seconds: float | None = None,
                playouts: int | None = None, seed: int | None = None, swings: int = 3,
                progress: Callable[[int, int], object] | None = None) -> GameReview:
    """Search every position of a game and return its :class:`GameReview`.

    ``kind``/``options``/``moves`` as :func:`engine.replay` (moves are whole turns as text).
    Each unfinished position is searched at ``level`` (1-5; its noise is switched off and
    it always looks at wins and threats in one, ``Level.sight`` 1) with
    ``seconds`` per position and/or ``playouts`` per position (neither given:
    :data:`DEFAULT_PLAYOUTS`; with ``playouts`` alone and a ``seed`` the review is
    repeatable). ``swings`` is how many swings to name. ``progress(done, total)`` is called
    after each searched position (``done`` from 1 to ``total``, the positions searched;
    ``total`` grows once, near the end, by the few positions searched again, see
    :func:`find_spikes`).

    Raises engine's GameError / OptionError / MoveError / IllegalMove for a record that does
    not replay (before any search runs), ValueError for a bad level, seconds or playouts.
    """
    lv = dataclasses.replace(_check_level(level), noise=False, sight=1.0)
    seconds = _check_seconds(seconds)
    playouts = _check_playouts(playouts)
    if seconds is None and playouts is None:
        playouts = DEFAULT_PLAYOUTS
    if isinstance(swings, bool) or not isinstance(swings, int) or swings < 0:
        raise ValueError(f"swings must be a whole number of at least 0, not {swings!r}")
    if isinstance(moves, str):
        raise ValueError("moves must be a list of move texts, not one string")
    positions = [engine.new_game(kind, **dict(options or {}))]
    for i, mv in enumerate(moves, 1):
        if positions[-1].is_over:
            raise engine.IllegalMove(engine.ErrorReason.GAME_OVER).at_move(i, mv)
        try:
            positions.append(positions[-1].play(mv))
        except (engine.MoveError, engine.IllegalMove) as e:
            raise e.at_move(i, mv) from None

    seeds = random.Random(seed) if seed is not None else None
    total = sum(1 for p in positions if not p.is_over)
    done = 0
    spent = 0
    own: list[float] = []          # the search's value for the player to move (exact: seat 1's)
    exact: list[bool] = []
    preferred: list[str | None] = []
    for pos in positions:
        if pos.is_over:
            own.append(_exact(pos))
            exact.append(True)
            preferred.append(None)
            continue
        d = search_move(pos, lv, seconds=seconds, playouts=playouts,
                        seed=None if seeds is None else seeds.getrandbits(63))
        spent += d.playouts
        own.append(d.value)
        exact.append(d.proven)
        preferred.append(d.move)
        done += 1
        if progress is not None:
            progress(done, total)
    movers = [p.to_move for p in positions]
    values = _seat1_values(remove_tempo(own, exact, movers), movers)

    # A position whose estimate jumps away from both neighbours is most often noise (a best
    # move with few visits): search it again with RECHECK_FACTOR times the budget and keep
    # the weighted mean (the value, not the preferred move, which stays the first search's).
    spikes = find_spikes(values, exact)
    total += len(spikes)
    for i in spikes:
        more_p = None if playouts is None else playouts * RECHECK_FACTOR
        more_s = None if seconds is None else min(MAX_SECONDS, seconds * RECHECK_FACTOR)
        d = search_move(positions[i], lv, seconds=more_s, playouts=more_p,
                        seed=None if seeds is None else seeds.getrandbits(63))
        spent += d.playouts
        own[i] = d.value if d.proven else (own[i] + RECHECK_FACTOR * d.value) / (RECHECK_FACTOR + 1)
        exact[i] = d.proven
        done += 1
        if progress is not None:
            progress(done, total)
    if spikes:
        values = _seat1_values(remove_tempo(own, exact, movers), movers)

    plies = tuple(
        PlyReview(ply=i, seat=positions[i - 1].to_move,  # type: ignore[arg-type]  # a position a move was played from is not over: to_move is a seat
                  move=positions[i].last_move or moves[i - 1],
                  preferred=preferred[i - 1] or "", before=values[i - 1], after=values[i],
                  exact=exact[i])
        for i in range(1, len(positions))
    )
    return GameReview(kind=positions[0].kind, options=dict(positions[0].options), plies=plies,
                      start=values[0], swings=find_swings(plies, swings),
                      outcome=positions[-1].outcome, playouts=spent)
