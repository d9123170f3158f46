"""The search's view of a position: integer half-moves, play in place, fast playouts.

A :class:`SearchState` is what a tree search (``ai/``) works on instead of the public,
immutable :class:`~engine.base.Position`. It speaks integers, never move text, and a turn
that places two stones (a Whirlwind pair, Io's bound + free opening turn) is split into two
**half-moves** by the same player, so a search tree never lists every pair.

Actions (half-moves) are small integers:

* ``0 .. n_cells-1`` -- place a stone on that cell (the board's cell index, the same index
  :meth:`Board.label <engine.geometry.Board.label>` names; bit ``c`` of a bitboard);
* ``n_cells`` (:attr:`SearchState.pass_action`) -- Coil's ``pass`` in Phase I, and in
  Whirlwind "end the turn after one stone" (offered only as a second half-move, and only
  where the one stone alone is a legal turn). Io has no such action: an opening turn whose
  bound placement leaves no free cell ends by itself, as RULES.md says.

A turn ends by itself after its first half-move when no legal turn continues it (a
single-stone turn, Coil's pass, Black's first Whirlwind turn, an Io bound placement that
leaves no free cell). A half-move is offered only if the turn can be completed legally from it (a first Whirlwind
stone that breaches the diagonal rule is offered only when some second stone mends it).
Turns are exactly the legal moves of the matching ``Position``; after every *whole* turn the
state equals ``Position.play(move_text(turn))`` (same player to move, outcome and scores).
This equality is what ``tests/test_engine_state.py`` checks on random games of every kind.

Each game's fast state lives beside its rules (``coil.CoilState``, ``io.IoState``,
``coral.CoralState``, ``whirlwind.WhirlwindState``); ``Position.search_state()`` returns one.
:class:`PositionState` is a slow reference implementation built on the public ``Position``
alone: the oracle for tests, never used by the search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from .base import Position


def turn_and_winner(position: Position) -> tuple[int, int | None]:
    """``(to_move, winner)`` of ``position`` in the :class:`SearchState` convention: the seat
    to move and ``None`` while in play; once over, ``0`` and the winning seat (``0``: a draw)."""
    out = position.outcome
    if out is None:
        return position._turn, None  # what to_move answers while the game goes on
    return 0, out.winner or 0


class SearchState:
    """Protocol of a mutable position for search (see the module docstring).

    Attributes every implementation has:

    * ``n_cells`` (int) -- cells (or points) of the board; actions are ``0 .. n_cells``.
    * ``pass_action`` (int) -- ``n_cells``.
    * ``to_move`` (int) -- seat (1 or 2) that makes the next half-move; 0 once over.
    * ``winner`` (int or None) -- None while in play; then 1 or 2, or 0 for a draw (Io,
      even board, equal counts).
    * ``mid_turn`` (bool) -- True when the next half-move is the second of a turn.
    * ``ply`` (int) -- whole turns played since the game began (as ``Position.ply``).
    """

    n_cells: int
    pass_action: int
    to_move: int
    winner: int | None
    mid_turn: bool
    ply: int

    def copy(self) -> SearchState:  # pragma: no cover - protocol
        """An independent copy (cheap: a few ints and small lists)."""
        raise NotImplementedError

    def actions(self) -> list[int]:  # pragma: no cover - protocol
        """The legal half-moves, as a new list (empty once the game is over)."""
        raise NotImplementedError

    def play(self, action: int) -> None:  # pragma: no cover - protocol
        """Make one half-move in place.

        Raises ValueError when ``action`` is not among :meth:`actions` (implementations may
        skip the check in their fast path only where documented).
        """
        raise NotImplementedError

    def playout(self, rng: random.Random) -> tuple[int, int, int]:  # pragma: no cover
        """Play random half-moves in place to the end of the game.

        Returns ``(winner, placed1, placed2)``: the winner as :attr:`winner`, and bitboards
        of the cells each seat placed a stone on during this playout (for RAVE/AMAF
        statistics; stones later flipped or removed still count for the seat that placed
        them). The policy is each game's fast uniform-ish one, documented per game.
        """
        raise NotImplementedError

    def label(self, action: int) -> str:  # pragma: no cover - protocol
        """Move-text token of one half-move: a cell label (``"g7"``), ``"pass"``, or ``""``
        for Whirlwind's end-of-turn action."""
        raise NotImplementedError

    def move_text(self, turn: Sequence[int]) -> str:  # pragma: no cover - protocol
        """Canonical move text of a whole turn given as its half-moves, as
        ``Position.legal_moves`` spells it (``"c3 e5"``, ``"g7"``, ``"pass"``)."""
        raise NotImplementedError


    def __init_subclass__(cls, **kwargs: object) -> None:
        """A state class with its own fast path ``_play_unchecked`` (:meth:`play` without
        the legality check) answers :meth:`play_listed` with it."""
        super().__init_subclass__(**kwargs)
        fast = cls.__dict__.get("_play_unchecked")
        if fast is not None:
            setattr(cls, "play_listed", fast)  # noqa: B010  # a method set per class, on purpose

    def play_listed(self, action: int) -> None:
        """Make one half-move that :meth:`actions` listed for this very position (the same
        state, or a copy of it, before any other half-move), without checking it again where
        the state has a fast path (``_play_unchecked``; :meth:`play` otherwise). A search
        descending its tree uses it: a node's children are the actions listed at its
        position. Any other action may corrupt the state (no error is raised)."""
        self.play(action)

    def wins_now(self, action: int) -> bool:
        """True when ``action`` wins the game for the mover at once: it ends the game with
        the mover winning, or (a first half-move that is also a legal one-stone turn) ending
        the turn right after it would. Generic version by copying; fast states override it.
        Raises ValueError as :meth:`play` for an illegal action."""
        seat = self.to_move
        s = self.copy()
        s.play(action)
        if s.winner is not None:
            return s.winner == seat
        if s.mid_turn and s.pass_action in s.actions():
            s.play(s.pass_action)
            return s.winner == seat
        return False


class PositionState(SearchState):
    """Reference :class:`SearchState` built on the public :class:`Position` only (slow).

    Half-moves are derived from ``Position.legal_moves()``: a first half-move is any cell
    that starts a legal turn (either cell of a Whirlwind pair, which may be given in either
    order; only the bound cell of an Io pair), and a second half-move completes it.
    Meant as a test oracle at small board sizes; it lists every legal turn of a position
    once (positions are immutable: the list is kept until the state moves on).
    """

    def __init__(self, position: Position, pending: tuple[int, ...] = ()):
        self.board = position.board
        self.n_cells = len(position.board)
        self.pass_action = self.n_cells
        self._listed: tuple[Position, list[tuple[int, ...]]] | None = None
        self._set(position, pending)

    def _set(self, position: Position, pending: tuple[int, ...]) -> None:
        """Stand at ``position`` with the first half-moves ``pending``; the protocol's
        attributes follow from them (``to_move`` 0 and ``winner`` the seat, 0 for a draw,
        once over)."""
        self.position = position
        self.pending = pending
        self.to_move = position.to_move or 0
        out = position.outcome
        self.winner = None if out is None else out.winner or 0
        self.mid_turn = bool(pending)
        self.ply = position.ply

    # -- protocol -----------------------------------------------------------------------
    def copy(self) -> PositionState:
        """A copy (positions are immutable, so this shares them)."""
        return PositionState(self.position, self.pending)

    def _cell(self, token: str) -> int:
        return self.pass_action if token == "pass" else self.board.cell(token)

    def _turns(self) -> list[tuple[int, ...]]:
        """Every legal turn as a tuple of half-moves, in each order the game accepts (the
        caller must not change the list)."""
        if self._listed is not None and self._listed[0] is self.position:
            return self._listed[1]
        out: list[tuple[int, ...]] = []
        for text in self.position.legal_moves():
            cells = tuple(self._cell(t) for t in text.split())
            out.append(cells)
            if len(cells) == 2:
                flipped = f"{self.board.label(cells[1])} {self.board.label(cells[0])}"
                if self.position.is_legal(flipped):
                    out.append((cells[1], cells[0]))
        self._listed = (self.position, out)
        return out

    def actions(self) -> list[int]:
        """Legal half-moves, ascending."""
        if self.position.outcome is not None:
            return []
        turns = self._turns()
        if not self.pending:
            return sorted({t[0] for t in turns})
        (p,) = self.pending
        seconds = {t[1] for t in turns if len(t) == 2 and t[0] == p}
        if (p,) in turns:
            seconds.add(self.pass_action)
        return sorted(seconds)

    def play(self, action: int) -> None:
        """Make one half-move; ValueError when it is not legal here."""
        if action not in self.actions():
            raise ValueError(f"half-move {action} is not legal here")
        turns = self._turns()
        if self.pending:
            turn = self.pending if action == self.pass_action else self.pending + (action,)
            self._set(self.position.play(self.move_text(turn)), ())
        elif any(len(t) == 2 and t[0] == action for t in turns):
            self._set(self.position, (action,))
        else:
            self._set(self.position.play(self.move_text((action,))), ())

    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        """Uniform random half-moves to the end; see :meth:`SearchState.playout`."""
        placed = {1: 0, 2: 0}
        while self.winner is None:
            seat = self.to_move
            a = rng.choice(self.actions())
            if a < self.n_cells:
                placed[seat] |= 1 << a
            self.play(a)
        return self.winner, placed[1], placed[2]

    def label(self, action: int) -> str:
        """Cell label, ``"pass"`` (Coil) or ``""`` (end of a one-stone Whirlwind turn)."""
        if action == self.pass_action:
            return "pass" if self.position.kind == "coil" else ""
        return self.board.label(action)

    def move_text(self, turn: Sequence[int]) -> str:
        """Canonical text of a whole turn (via the engine's own move parser)."""
        tokens = sorted(self.label(a) for a in turn if self.label(a))
        for text in self.position.legal_moves():
            if sorted(text.split()) == tokens:
                return text
        raise ValueError(f"{' '.join(tokens)!r} is not a legal turn here")


class RandRange(Protocol):
    """What a fast playout draws with: ``randrange(k)``, a uniform int in ``0 .. k-1``
    (``random.Random`` and :class:`QuickRandom` both answer it)."""

    def randrange(self, k: int, /) -> int: ...


class QuickRandom:
    """A stand-in for ``random.Random`` in fast playouts: ``randrange(k)`` (``k >= 1``) is
    ``int(rng.random() * k)``, several times cheaper than ``Random.randrange``; its bias,
    under ``k / 2**53``, is far below anything a playout can show. Only ``randrange`` is
    offered. Used by the Io and Whirlwind states' playouts."""

    __slots__ = ("randrange",)

    def __init__(self, rng: random.Random):
        rnd = rng.random
        self.randrange: Callable[[int], int] = lambda k: int(rnd() * k)
