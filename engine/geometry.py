"""Board geometry shared by every game: cells, labels, neighbours and perimeter.

Implements RULES.md "Boards and coordinates". A board numbers its cells (or points)
``0 .. len(board) - 1``; bit ``i`` of a Python int stands for cell ``i`` so that sets of cells
are bitboards. Cells are ordered row by row from the bottom row, left to right inside a row.

Two families:

* :class:`SquareBoard` -- an ``n x n`` grid (Io cells, Whirlwind points); ``(f, r)`` is
  (file, row), both from 0, row 0 at the bottom.
* :class:`HexBoard` -- pointy-top hexagons in horizontal rows (Coil, the Corals); a cell
  ``(f, r)`` is drawn at ``x = f - r/2``, ``y = r*sqrt(3)/2`` and has the six neighbours
  ``(f±1, r)``, ``(f, r±1)``, ``(f+1, r+1)``, ``(f-1, r-1)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from functools import cache

from .errors import ErrorReason, MoveError

__all__ = [
    "HEX_RING",
    "Board",
    "HexBoard",
    "SquareBoard",
    "bits",
    "file_letter",
    "hex_board",
    "ring_runs",
    "square_board",
]

_CELL_RE = re.compile(r"^([a-z]+)([0-9]+)$")

#: The six neighbour steps ``(df, dr)`` of a hex cell in circular order: right, upper right,
#: upper left, left, lower left, lower right. Steps next to each other in this order (the
#: last and the first included) lead to cells that touch each other.
HEX_RING = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))


def ring_runs(pattern: int) -> tuple[tuple[int, ...], ...]:
    """Maximal circular runs of set bits in a 6-bit ``pattern`` (bit ``k`` = step ``k`` of
    :data:`HEX_RING`), each as a tuple of ring indices: ``()`` for 0, one run of all six
    for ``0b111111``."""
    if pattern == 0b111111:
        return (tuple(range(6)),)
    if pattern == 0:
        return ()
    start = next(k for k in range(6) if not (pattern >> k) & 1)
    runs: list[list[int]] = []
    current: list[int] = []
    for step in range(1, 7):
        k = (start + step) % 6
        if (pattern >> k) & 1:
            current.append(k)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return tuple(tuple(r) for r in runs)


def file_letter(f: int) -> str:
    """Letter(s) naming file ``f`` (0-based): ``a`` .. ``z``, then ``aa``, ``ab`` ...

    Raises ValueError for a negative file.
    """
    if f < 0:
        raise ValueError("file must be >= 0")
    out = ""
    f += 1
    while f:
        f, rem = divmod(f - 1, 26)
        out = chr(97 + rem) + out
    return out


def cells_of(x: int) -> list[int]:
    """The cells set in bitboard ``x`` (a non-negative int), in ascending order: the list
    form of :func:`bits` (faster when every cell is wanted)."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def bits(x: int) -> Iterator[int]:
    """The cells set in bitboard ``x`` (a non-negative int), lowest first, one at a time.

    The lazy form of :meth:`Board.cells_of`, for loops that may stop early.
    """
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class Board:
    """A set of cells with labels, neighbours and a perimeter.

    Attributes (all immutable after construction):

    * ``shape`` -- ``"square"``, ``"hexhex"`` or ``"limping"``; ``size`` -- its size option.
    * ``family`` -- ``"square"`` (:class:`SquareBoard`) or ``"hex"`` (:class:`HexBoard`): how
      the board is drawn and which neighbours a cell has (RULES.md "Boards and coordinates").
    * ``coords[i]`` -- ``(f, r)`` of cell ``i``; ``labels[i]`` -- its text, e.g. ``"g7"``.
    * ``index`` -- dict from ``(f, r)`` to the cell number.
    * ``neighbours[i]`` -- tuple of neighbouring cells (6 on hex boards, 4 orthogonal on
      square boards); ``nmask[i]`` the same as a bitboard.
    * ``perimeter`` -- bitboard of cells with fewer than the full number of neighbours.
    * ``full`` -- bitboard of every cell; ``files`` / ``rows`` -- counts of files and rows.
    """

    shape: str
    size: int
    family: str = ""

    def __init__(self, shape: str, size: int, coords: list[tuple[int, int]], full_degree: int):
        self.shape = shape
        self.size = size
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self.index: dict[tuple[int, int], int] = {c: i for i, c in enumerate(self.coords)}
        self.labels: tuple[str, ...] = tuple(file_letter(f) + str(r + 1) for f, r in self.coords)
        self._by_label: dict[str, int] = {lab: i for i, lab in enumerate(self.labels)}
        self.files = 1 + max(f for f, _ in self.coords)
        self.rows = 1 + max(r for _, r in self.coords)
        by_row: list[list[int]] = [[] for _ in range(self.rows)]
        for i, (_, r) in enumerate(self.coords):
            by_row[r].append(i)
        self._row_cells: tuple[tuple[int, ...], ...] = tuple(map(tuple, by_row))
        nbrs = self._cells_at(self._steps())
        self.neighbours: tuple[tuple[int, ...], ...] = nbrs
        self.nmask: tuple[int, ...] = tuple(sum(1 << j for j in ns) for ns in nbrs)
        self.full: int = (1 << len(self.coords)) - 1
        self.perimeter: int = sum(1 << i for i, ns in enumerate(nbrs) if len(ns) < full_degree)

    @staticmethod
    def _steps() -> tuple[tuple[int, int], ...]:
        raise NotImplementedError

    def point(self, cell: int) -> tuple[float, float]:  # pragma: no cover - abstract
        """Drawing position of ``cell`` in cell units, y growing upwards (each family's own
        geometry: :meth:`SquareBoard.point`, :meth:`HexBoard.point`)."""
        raise NotImplementedError

    def _cells_at(self, steps: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
        """For every cell, the cells one of ``steps`` (``(df, dr)`` pairs) away, in step order,
        leaving out those off the board."""
        index = self.index
        return tuple(
            tuple(index[(f + df, r + dr)] for df, dr in steps if (f + df, r + dr) in index)
            for f, r in self.coords
        )

    def __len__(self) -> int:
        return len(self.coords)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.shape} {self.size}>"

    def label(self, cell: int) -> str:
        """Text of ``cell`` (an int from 0), e.g. ``"g7"``. Raises IndexError when out of range."""
        return self.labels[cell]

    def cell(self, text: str) -> int:
        """Cell number for a label such as ``"G7"`` (case-insensitive, spaces trimmed).

        Raises :class:`engine.MoveError` when the text is not a cell of this board.
        """
        t = text.strip().lower()
        i = self._by_label.get(t)
        if i is None:
            shown = text.strip() or "(nothing)"
            if _CELL_RE.match(t):
                raise MoveError(ErrorReason.OFF_BOARD, text=shown)
            raise MoveError(ErrorReason.NOT_A_CELL, text=shown, example=self.labels[len(self) // 2])
        return i

    def cells_of(self, bits: int) -> list[int]:
        """The cells set in bitboard ``bits``, in ascending order (:func:`cells_of`)."""
        return cells_of(bits)

    def row_cells(self, r: int) -> list[int]:
        """Cells of row ``r`` (from 0 at the bottom), left to right; empty for a row not on the board."""
        return list(self._row_cells[r]) if 0 <= r < self.rows else []

    def component(self, start: int, within: int) -> int:
        """Bitboard of the cells of ``within`` connected to ``start`` through neighbours.

        ``start`` must be in ``within``; returns 0 otherwise.
        """
        if not (within >> start) & 1:
            return 0
        seen = 1 << start
        stack = [start]
        nmask = self.nmask
        while stack:
            c = stack.pop()
            new = nmask[c] & within & ~seen
            if new:
                seen |= new
                while new:
                    low = new & -new
                    stack.append(low.bit_length() - 1)
                    new ^= low
        return seen

    def groups(self, stones: int) -> list[int]:
        """Connected groups of the cells in bitboard ``stones``, each as a bitboard."""
        out = []
        rest = stones
        while rest:
            low = rest & -rest
            g = self.component(low.bit_length() - 1, stones)
            out.append(g)
            rest &= ~g
        return out


class SquareBoard(Board):
    """An ``n x n`` grid. Files ``a..`` left to right, rows ``1..n`` bottom to top.

    ``neighbours`` are the 4 orthogonal ones; ``diagonals[i]`` / ``dmask[i]`` the 4 touching
    at a corner; ``adjacent[i]`` / ``amask[i]`` all 8. ``corners`` is a bitboard of the corners.
    """

    family = "square"

    @staticmethod
    def _steps() -> tuple[tuple[int, int], ...]:
        return ((1, 0), (-1, 0), (0, 1), (0, -1))

    def __init__(self, n: int):
        super().__init__("square", n, [(f, r) for r in range(n) for f in range(n)], 4)
        diag = self._cells_at(((1, 1), (-1, 1), (1, -1), (-1, -1)))
        self.diagonals: tuple[tuple[int, ...], ...] = diag
        self.dmask: tuple[int, ...] = tuple(sum(1 << j for j in ds) for ds in diag)
        self.adjacent: tuple[tuple[int, ...], ...] = tuple(
            a + d for a, d in zip(self.neighbours, diag, strict=True)
        )
        self.amask: tuple[int, ...] = tuple(a | d for a, d in zip(self.nmask, self.dmask, strict=True))
        self.corners: int = sum(1 << self.index[c] for c in ((0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)))

    def point(self, cell: int) -> tuple[float, float]:
        """Drawing position of ``cell`` in cell units: ``(f, r)`` with y growing upwards."""
        f, r = self.coords[cell]
        return (float(f), float(r))


class HexBoard(Board):
    """A hex board, ``shape`` ``"hexhex"`` (side ``size``) or ``"limping"`` (sides size+1 / size).

    Coordinates and labels as RULES.md "Hex boards": rows from the bottom, files slanting
    up-left. ``point(cell)`` gives the drawing position in cell widths.
    """

    family = "hex"

    @staticmethod
    def _steps() -> tuple[tuple[int, int], ...]:
        return ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))

    def __init__(self, shape: str, size: int):
        if shape == "hexhex":
            n = size
            coords = [
                (f, r)
                for r in range(2 * n - 1)
                for f in range(2 * n - 1)
                if abs(f - r) <= n - 1
            ]
        elif shape == "limping":
            m = size
            coords = [
                (f, r)
                for r in range(2 * m)
                for f in range(2 * m)
                if -(m - 1) <= f - r <= m
            ]
        else:
            raise ValueError(f"unknown hex shape {shape!r}")
        super().__init__(shape, size, coords, 6)

    def point(self, cell: int) -> tuple[float, float]:
        """Drawing position of ``cell``: ``(f - r/2, r*sqrt(3)/2)`` in cell widths, y upwards."""
        f, r = self.coords[cell]
        return (f - r / 2, r * math.sqrt(3) / 2)


@cache
def square_board(n: int) -> SquareBoard:
    """The shared :class:`SquareBoard` of side ``n`` (cached; boards are immutable)."""
    return SquareBoard(n)


@cache
def hex_board(shape: str, size: int) -> HexBoard:
    """The shared :class:`HexBoard` for ``shape`` and ``size`` (cached).

    Raises ValueError for an unknown shape.
    """
    return HexBoard(shape, size)
