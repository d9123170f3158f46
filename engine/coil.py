"""Coil (Nick Bentley): RULES.md "Coil".

Phase I: the players place *black* stones or pass; a placement that would close a coil is
illegal (**Ruling**). The first pass ends Phase I and makes the passer Black. Phase II: White
(the other seat, who moves next) and Black alternate, each placing their own colour; no
passing. Black wins as soon as the black stones form a coil, White when the board is full
without one.

Internals. The board is a hexhex board (:func:`engine.geometry.hex_board`). Stones are kept as
bitboards in a *padded* layout: cell ``(f, r)`` is bit ``(r + 1) * W + f + 1`` with
``W = 2 * size + 1``, so that a neighbour is always a fixed shift (``±1``, ``±W``, ``±(W+1)``)
and the padding bits (never stones) stand for "off the board". This makes the flood fill from
the off-board region a few shifts per step.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

from .base import (
    GameKind,
    Highlights,
    OptionSpec,
    Outcome,
    Position,
    Stage,
    Termination,
    read_rows,
    register,
    rows_text,
)
from .errors import ErrorReason, IllegalMove, MoveError, PositionError
from .geometry import HEX_RING, bits, hex_board, ring_runs
from .state import SearchState, turn_and_winner

__all__ = ["CoilPosition", "CoilState", "CoilTables", "coil_tables"]

#: :attr:`CoilState._groups`: (union-find parents, per-root group stones, and the bit-sliced
#: black-neighbour counts ``ones``, ``twos``, ``fours``); see ``CoilState._build_groups``.
_Groups = tuple[list[int], dict[int, int], int, int, int]

PASS = -1

# _ARCS[m]: the number of maximal runs of non-black positions around a cell whose ring
# neighbours are black where ``m`` has a bit (bit i = step i of HEX_RING).
_ARCS = tuple(len(ring_runs(63 ^ m)) for m in range(64))
# _RUNS[m]: the number of maximal runs of the ring positions set in ``m`` (0 for 0, 1 for 63).
_RUNS = tuple(len(ring_runs(m)) for m in range(64))


class CoilTables:
    """Precomputed per-board tables for Coil on hexhex ``size`` (padded bitboard layout).

    * ``pad[cell]`` -- padded bit index of board cell ``cell``; ``unpad`` the reverse (dict).
    * ``bit[cell]`` -- ``1 << pad[cell]``.
    * ``cells`` -- bitboard of every board cell; ``perim`` -- of the perimeter cells.
    * ``nm[p]`` -- padded neighbour mask of padded index ``p`` (dict).
    * ``key_base[cell]`` -- shift that brings the cell's neighbour window to bit 0;
      ``key2m`` maps the masked window to the 6-bit ring pattern (bit i = ring neighbour i black).
    * ``ring[cell]`` -- the board cell numbers of the cell's neighbours.
    * ``checks[cell][m]`` -- neighbour masks of the interior ring neighbours that are black in
      pattern ``m`` (candidates for "black cell with six black neighbours").
    """

    def __init__(self, size: int):
        self.size = size
        board = hex_board("hexhex", size)
        self.board = board
        W = 2 * size + 1
        self.W = W
        self.pad = tuple((r + 1) * W + f + 1 for f, r in board.coords)
        self.unpad = {p: i for i, p in enumerate(self.pad)}
        self.bit = tuple(1 << p for p in self.pad)
        self.cells = sum(self.bit)
        self.perim = sum(self.bit[i] for i in board.cells_of(board.perimeter))
        self.nm: dict[int, int] = {}
        for i, (f, r) in enumerate(board.coords):
            m = 0
            for df, dr in HEX_RING:
                j = board.index.get((f + df, r + dr))
                if j is not None:
                    m |= self.bit[j]
            self.nm[self.pad[i]] = m
        offsets = tuple(W + 1 + df + dr * W for df, dr in HEX_RING)
        self.pattern = sum(1 << o for o in offsets)
        self.key2m: dict[int, int] = {}
        for m in range(64):
            self.key2m[sum(1 << offsets[i] for i in range(6) if (m >> i) & 1)] = m
        self.key_base = tuple(p - W - 1 for p in self.pad)
        checks = []
        for f, r in board.coords:
            ring: list[int | None] = []
            for df, dr in HEX_RING:
                j = board.index.get((f + df, r + dr))
                if j is not None and not (board.perimeter >> j) & 1:
                    ring.append(self.nm[self.pad[j]])
                else:
                    ring.append(None)
            checks.append(
                tuple(
                    tuple(nm for k, nm in enumerate(ring) if (m >> k) & 1 and nm is not None)
                    for m in range(64)
                )
            )
        self.checks = tuple(checks)
        self.ring = tuple(
            tuple(j for df, dr in HEX_RING if (j := board.index.get((f + df, r + dr))) is not None)
            for f, r in board.coords
        )
        # black_ring[cell][m]: the neighbours of ``cell`` that are black in ring pattern ``m``
        # (``key2m``), in ``ring`` order
        self.black_ring = tuple(
            tuple(
                tuple(j for i, (df, dr) in enumerate(HEX_RING)
                      if (m >> i) & 1 and (j := board.index.get((f + df, r + dr))) is not None)
                for m in range(64)
            )
            for f, r in board.coords
        )
        # runs of cells numbered consecutively and padded consecutively (the board's rows):
        # (first cell, mask of the run's length, first padded index), for :meth:`padded`
        row_runs: list[tuple[int, int, int]] = []
        start = 0
        for c in range(1, len(self.pad) + 1):
            if c == len(self.pad) or self.pad[c] != self.pad[c - 1] + 1:
                row_runs.append((start, (1 << (c - start)) - 1, self.pad[start]))
                start = c
        self.row_runs = tuple(row_runs)
        # near[cell]: padded neighbour mask of board cell ``cell`` (``nm`` by cell number)
        self.near = tuple(self.nm[p] for p in self.pad)
        # byte_cells[k][v]: the cells of byte value ``v`` at byte ``k`` of a cell bitboard
        self.byte_cells = tuple(
            tuple(tuple(8 * k + i for i in range(8) if (v >> i) & 1) for v in range(256))
            for k in range(len(self.pad) // 8 + 1)
        )

    def padded(self, x: int) -> int:
        """The cell bitboard ``x`` (bit ``c`` = board cell ``c``) in the padded layout, a
        board row at a time."""
        out = 0
        for c, mask, p in self.row_runs:
            out |= ((x >> c) & mask) << p
        return out

    def unpadded(self, x: int) -> int:
        """The padded bitboard ``x`` as a cell bitboard (the reverse of :meth:`padded`;
        padding bits are dropped)."""
        out = 0
        for c, mask, p in self.row_runs:
            out |= ((x >> p) & mask) << c
        return out

    def cells_of(self, x: int) -> list[int]:
        """The cells set in cell bitboard ``x`` (below ``len(pad)``), ascending, decoded a
        byte at a time."""
        out: list[int] = []
        k = 0
        table = self.byte_cells
        for v in x.to_bytes(len(table), "little"):
            if v:
                out += table[k][v]
            k += 1
        return out

    def fives(self, black: int) -> int:
        """Padded bitboard of the board cells with exactly five black neighbours (``black``
        padded)."""
        ones, twos, fours = self.counts(black)
        return ones & ~twos & fours

    def counts(self, black: int) -> tuple[int, int, int]:
        """Every board cell's number of black neighbours (``black`` padded), bit-sliced:
        padded bitboards ``(ones, twos, fours)`` of the count's three binary digits, added
        for every cell at once from the six shifted boards (a carry-save adder)."""
        W = self.W
        W1 = W + 1
        a, b, c = black << 1, black >> 1, black << W
        d, e, f = black >> W, black << W1, black >> W1
        ab = a ^ b
        s1 = ab ^ c
        c1 = (a & b) | (c & ab)
        de = d ^ e
        s2 = de ^ f
        c2 = (d & e) | (f & de)
        ones = s1 ^ s2
        carry = s1 & s2
        twos = c1 ^ c2 ^ carry
        fours = (c1 & c2) | (carry & (c1 ^ c2))
        cells = self.cells
        return ones & cells, twos & cells, fours & cells

    # ---- coil detection ---------------------------------------------------------------
    def flood(self, black: int) -> int:
        """Non-black cells reached from off the board through non-black cells (padded bitboard)."""
        region = self.cells & ~black
        x = region & self.perim
        W = self.W
        W1 = W + 1
        while True:
            y = (x | (x << 1) | (x >> 1) | (x << W) | (x >> W) | (x << W1) | (x >> W1)) & region
            if y == x or y == region:  # nothing new, or nothing left to reach
                return y
            x = y

    def enclosed(self, black: int) -> int:
        """Padded bitboard of every enclosed cell (RULES.md "Coil"), by one flood fill.

        A non-black cell is enclosed when the flood from off the board does not reach it; a
        black cell off the perimeter is enclosed when none of its neighbours is reached.
        """
        reached = self.flood(black)
        out = self.cells & ~black & ~reached
        for p in bits(black & ~self.perim):
            if not self.nm[p] & reached:
                out |= 1 << p
        return out

    def closes_coil(self, black: int, cell: int) -> bool:
        """Whether a black stone on ``cell`` (board cell number) makes a coil.

        ``black`` is the padded bitboard of black stones *with* ``cell`` already added; the
        position before the placement must hold no coil. Only cells next to ``cell`` (and
        ``cell``) can become enclosed black cells, and a non-black cell can only be cut off
        when the non-black positions around ``cell`` (off-board counting as non-black) form
        two or more separate arcs -- then a flood fill decides.
        """
        m = self.key2m[(black >> self.key_base[cell]) & self.pattern]
        if m == 63:
            return True
        for nm in self.checks[cell][m]:
            if black & nm == nm:
                return True
        if _ARCS[m] > 1:  # some non-black cell may be cut off from the outside
            return self.flood(black) != self.cells & ~black
        return False


@cache
def coil_tables(size: int) -> CoilTables:
    """The shared :class:`CoilTables` for hexhex ``size`` (cached)."""
    return CoilTables(size)


class CoilPosition(Position):
    """A Coil position (RULES.md "Coil").

    Slots beyond the base: ``_black`` / ``_white`` (padded bitboards), ``_black_seat``
    (``None`` in Phase I, else the seat that passed) and ``_coil`` (whether the black stones
    form a coil). Seat 1 moves first.
    """

    __slots__ = ("_black", "_white", "_black_seat", "_coil", "_t")

    _black: int
    _white: int
    _black_seat: int | None
    _coil: bool
    _t: CoilTables

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def initial(cls, options: dict[str, Any]) -> CoilPosition:
        """The empty board, Phase I, seat 1 to move."""
        return cls._make(options, 0, None, 1, 0, 0, None, False)

    @classmethod
    def _make(cls, options: dict[str, Any], ply: int, last: str | None, turn: int, black: int,
              white: int, black_seat: int | None, coil: bool) -> CoilPosition:
        p = cls.__new__(cls)
        t = coil_tables(options["size"])
        p._init_base(options, t.board, ply, last, turn)
        p._t = t
        p._black = black
        p._white = white
        p._black_seat = black_seat
        p._coil = coil
        return p

    @classmethod
    def from_body(cls, options: dict[str, Any], ply: int, last: str | None, body: str) -> CoilPosition:
        """Read ``"<rows top to bottom, '/'-separated> <turn> <I|II> <black seat|->"``.

        Rows use ``.`` empty, ``x`` black, ``o`` white. Raises PositionError when the text is
        malformed or describes a position Coil cannot reach (white stones or a coil in
        Phase I, Phase II without a Black seat).
        """
        t = coil_tables(options["size"])
        board = t.board
        parts = body.split(" ")
        if len(parts) != 4:
            raise PositionError("a Coil position needs rows, turn, phase and Black's seat")
        rows_s, turn_s, phase, seat_s = parts
        black, white = read_rows(board, rows_s, t.bit)
        if turn_s not in ("1", "2"):
            raise PositionError("the seat to move must be 1 or 2")
        if phase == "I":
            if seat_s != "-":
                raise PositionError("no one is Black yet in Phase I")
            if white:
                raise PositionError("there are no white stones in Phase I")
            black_seat = None
        elif phase == "II":
            if seat_s not in ("1", "2"):
                raise PositionError("Phase II needs Black's seat (1 or 2)")
            black_seat = int(seat_s)
        else:
            raise PositionError("the Coil phase must be I or II")
        coil = bool(t.enclosed(black))
        if coil and black_seat is None:
            raise PositionError("a coil cannot stand in Phase I")
        return cls._make(options, ply, last, int(turn_s), black, white, black_seat, coil)

    def _body(self) -> str:
        t = self._t
        rows = rows_text(t.board, self._black, self._white, t.bit)
        seat = "-" if self._black_seat is None else str(self._black_seat)
        return f"{rows} {self._turn} {self.phase} {seat}"

    # ---- public surface ---------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"I"`` until someone passes, then ``"II"``."""
        return "I" if self._black_seat is None else "II"

    def colour(self, seat: int) -> str | None:
        """``None`` in Phase I; afterwards ``"black"`` for the seat that passed, else ``"white"``.

        Raises ValueError for a seat other than 1 or 2.
        """
        if seat not in (1, 2):
            raise ValueError("seat must be 1 or 2")
        if self._black_seat is None:
            return None
        return "black" if seat == self._black_seat else "white"

    @property
    def stage(self) -> Stage:
        """:attr:`Stage.COIL_PHASE_I` (place a black stone or pass), then
        :attr:`Stage.COIL_PHASE_II` (RULES.md "Coil")."""
        return Stage.COIL_PHASE_I if self.phase == "I" else Stage.COIL_PHASE_II

    @property
    def last_move_settled_colours(self) -> bool:
        """True right after the first pass, which ends Phase I and makes the passer Black
        (RULES.md "Coil" Phase I; passing is legal only in Phase I, so any pass is the first)."""
        return self.last_move == "pass"

    @property
    def stones(self) -> dict[int, str]:
        """Cell number -> ``"black"`` / ``"white"`` for every stone."""
        t = self._t
        out = {}
        for c, b in enumerate(t.bit):
            if self._black & b:
                out[c] = "black"
            elif self._white & b:
                out[c] = "white"
        return out

    def _natural_outcome(self) -> Outcome | None:
        if self._coil:
            return Outcome(self._black_seat, Termination.COIL)
        if (self._black | self._white) == self._t.cells:
            # a full board holds white stones, so someone has passed and Black is seated
            assert self._black_seat is not None, "Coil board full in Phase I"
            return Outcome(3 - self._black_seat, Termination.BOARD_FULL)
        return None

    @property
    def highlights(self) -> Highlights:
        """``placed``: the last placement (nothing after a pass). Once a coil has won:
        ``enclosed`` -- every enclosed cell; ``winning`` -- the black stones, not themselves
        enclosed, next to an enclosed cell (the loop)."""
        placed = () if self.last_move in (None, "pass") else (self.last_move,)
        if not self._coil or self._forced is not None:
            return Highlights(placed=placed)
        t = self._t
        enc = t.enclosed(self._black)
        ring = 0
        for p in bits(enc):
            ring |= t.nm[p]
        loop = ring & self._black & ~enc
        labels = self.board.labels
        return Highlights(
            placed=placed,
            enclosed=frozenset(labels[t.unpad[p]] for p in bits(enc)),
            winning=frozenset(labels[t.unpad[p]] for p in bits(loop)),
        )

    def search_state(self) -> CoilState:
        """This position as a fast :class:`CoilState` for tree search."""
        return CoilState(self)

    # ---- moves ------------------------------------------------------------------------
    def _empty_cells(self) -> Iterator[int]:
        occ = self._black | self._white
        for c, b in enumerate(self._t.bit):
            if not occ & b:
                yield c

    def legal_moves(self) -> Iterator[str]:
        """Empty cells in board order (in Phase I only those that close no coil), then
        ``"pass"`` in Phase I. Nothing once the game is over."""
        if self.outcome is not None:
            return
        t = self._t
        labels = self.board.labels
        if self._black_seat is None:
            for c in self._empty_cells():
                if not t.closes_coil(self._black | t.bit[c], c):
                    yield labels[c]
            yield "pass"
        else:
            for c in self._empty_cells():
                yield labels[c]

    def _parse(self, tokens: list[str]) -> int:
        if len(tokens) != 1:
            raise MoveError(ErrorReason.COIL_MOVE_FORM)
        if tokens[0] == "pass":
            return PASS
        return self.board.cell(tokens[0])

    def _check(self, move: int) -> None:
        if move == PASS:
            if self._black_seat is not None:
                raise IllegalMove(ErrorReason.COIL_PASS_PHASE)
            return
        t = self._t
        label = self.board.labels[move]
        if (self._black | self._white) & t.bit[move]:
            raise IllegalMove(ErrorReason.OCCUPIED, cell=label)
        if self._black_seat is None and t.closes_coil(self._black | t.bit[move], move):
            raise IllegalMove(ErrorReason.COIL_EARLY_COIL, cell=label)

    def _apply(self, move: int) -> CoilPosition:
        t = self._t
        turn = self._turn
        if move == PASS:
            return self._make(self.options, self.ply + 1, "pass", 3 - turn,
                              self._black, self._white, turn, False)
        b = t.bit[move]
        label = self.board.labels[move]
        if self._black_seat is None or turn == self._black_seat:
            black = self._black | b
            coil = t.closes_coil(black, move)
            return self._make(self.options, self.ply + 1, label, 3 - turn,
                              black, self._white, self._black_seat, coil)
        return self._make(self.options, self.ply + 1, label, 3 - turn,
                          self._black, self._white | b, self._black_seat, False)

    def _random_internal(self, rng: random.Random) -> int:
        """A uniformly random legal move: rejection sampling over empty cells (+ pass in Phase I)."""
        empties = list(self._empty_cells())
        if self._black_seat is not None:
            return rng.choice(empties)
        t = self._t
        n = len(empties)
        while True:
            k = rng.randrange(n + 1)
            if k == n:
                return PASS
            c = empties[k]
            if not t.closes_coil(self._black | t.bit[c], c):
                return c

    def random_playout(self, rng: random.Random | None = None) -> CoilPosition:
        """The final position of a game continued with uniformly random legal moves.

        Same distribution as repeated :meth:`_random_internal` / :meth:`_apply`, done on
        local bitboards: Phase I draws among the empty cells not yet known to close a coil
        plus ``pass`` and rejects (and sets aside) cells that would close one -- a cell that
        closes a coil keeps doing so as black stones are added.
        """
        rng = rng or random.Random()
        if self.outcome is not None:
            return self
        t = self._t
        bits = t.bit
        closes = t.closes_coil
        randrange = rng.randrange
        black, white = self._black, self._white
        turn = self._turn
        black_seat = self._black_seat
        ply = self.ply
        last = None
        occ = black | white
        empties = [c for c in range(len(bits)) if not occ & bits[c]]
        if black_seat is None:
            banned = []
            while True:
                n = len(empties)
                k = randrange(n + 1)
                if k == n:
                    black_seat = turn
                    turn = 3 - turn
                    ply += 1
                    last = PASS
                    break
                c = empties[k]
                nb = black | bits[c]
                empties[k] = empties[-1]
                empties.pop()
                if closes(nb, c):
                    banned.append(c)
                    continue
                black = nb
                turn = 3 - turn
                ply += 1
                last = c
            empties.extend(banned)
        coil = False
        while empties:
            k = randrange(len(empties))
            c = empties[k]
            empties[k] = empties[-1]
            empties.pop()
            ply += 1
            last = c
            if turn == black_seat:
                black |= bits[c]
                turn = 3 - turn
                if closes(black, c):
                    coil = True
                    break
            else:
                white |= bits[c]
                turn = 3 - turn
        text = "pass" if last == PASS else self.board.labels[last] if last is not None else self.last_move
        return self._make(self.options, ply, text, turn, black, white, black_seat, coil)


class CoilState(SearchState):
    """Fast mutable search view of a Coil position (RULES.md "Coil"; protocol in
    :mod:`engine.state`).

    Actions: a cell number ``0 .. n_cells-1`` places a stone (black in Phase I; the mover's
    colour in Phase II); :attr:`pass_action` (``n_cells``) is the Phase I pass, which ends
    Phase I and makes the mover Black. Every turn is one half-move (``mid_turn`` is always
    False). Built by :meth:`CoilPosition.search_state`.

    Read-only attributes for the search (bit ``c`` = cell ``c`` of :attr:`board` unless said):

    * ``black`` / ``white`` -- the black and white stones.
    * ``empty`` (property) -- the empty cells.
    * ``black_seat`` -- ``None`` in Phase I, else the seat playing Black (who passed);
      ``phase`` (property) -- ``"I"`` or ``"II"``.
    * ``pblack`` -- the black stones in the *padded* layout of :class:`CoilTables`
      (``tables.bit[c]`` is cell ``c``), for ``tables.closes_coil(pblack | tables.bit[c], c)``
      on hypothetical stones; ``tables`` -- the shared :class:`CoilTables`.
    * ``board`` -- the hexhex :class:`~engine.geometry.HexBoard`.
    * ``to_move``, ``winner``, ``mid_turn``, ``ply`` as the protocol says.

    Two writable settings (default False; copies keep them): ``tactics`` makes
    :meth:`playout` see coil threats of a ring of six, as the search (``ai``) wants; with
    ``loops`` as well it sees every loop one stone from closing, however large
    (:meth:`_playout_loops`). False keeps the uniform policy of
    :meth:`CoilPosition.random_playout`.

    Mutating these attributes from outside breaks the state; use :meth:`play`.
    """

    __slots__ = ("board", "tables", "n_cells", "pass_action", "to_move", "winner", "mid_turn",
                 "ply", "black", "white", "pblack", "black_seat", "_full", "tactics", "loops",
                 "_groups")

    def __init__(self, position: CoilPosition):
        """The state of ``position`` (a :class:`CoilPosition`, finished or not)."""
        t = position._t
        self.tables = t
        self.board = t.board
        n = len(t.bit)
        self.n_cells = n
        self.pass_action = n
        self._full = (1 << n) - 1
        black = white = 0
        for c, b in enumerate(t.bit):
            if position._black & b:
                black |= 1 << c
            elif position._white & b:
                white |= 1 << c
        self.black = black
        self.white = white
        self.pblack = position._black
        self.black_seat = position._black_seat
        self.ply = position.ply
        self.mid_turn = False
        self.to_move, self.winner = turn_and_winner(position)
        self.tactics = False
        self.loops = False
        self._groups: _Groups | None = None

    @property
    def empty(self) -> int:
        """Bitboard of the empty cells."""
        return self._full & ~(self.black | self.white)

    @property
    def phase(self) -> str:
        """``"I"`` until someone passes, then ``"II"`` (RULES.md "Coil")."""
        return "I" if self.black_seat is None else "II"

    def closes_coil(self, cell: int) -> bool:
        """Whether a black stone on empty ``cell`` (a cell number) would form a coil with the
        black stones now on the board (RULES.md "Coil", coil). In Phase I such a placement
        is illegal; in Phase II it wins for Black. Raises IndexError for a cell off the board;
        the answer for an occupied cell is meaningless."""
        t = self.tables
        return t.closes_coil(self.pblack | t.bit[cell], cell)

    def copy(self) -> CoilState:
        """An independent copy (attribute copies only; the tables are shared)."""
        s = CoilState.__new__(CoilState)
        s.tables = self.tables
        s.board = self.board
        s.n_cells = self.n_cells
        s.pass_action = self.pass_action
        s._full = self._full
        s.black = self.black
        s.white = self.white
        s.pblack = self.pblack
        s.black_seat = self.black_seat
        s.ply = self.ply
        s.mid_turn = False
        s.to_move = self.to_move
        s.winner = self.winner
        s.tactics = self.tactics
        s.loops = self.loops
        g = self._groups
        if g is None and self.loops and self.tactics and self.winner is None:
            g = self._groups = self._build_groups()  # once, for the state the search copies
        s._groups = None if g is None else (g[0][:], g[1].copy(), g[2], g[3], g[4])
        return s

    def _build_groups(self) -> _Groups:
        """The black groups for :meth:`_playout_loops`, built from the black stones:
        ``(parent, gmask, ones, twos, fours)`` -- a union-find over cells whose root is each
        group's highest cell; per root the group's stones (padded bitboard), keyed in
        ascending order; and every cell's number of black neighbours, bit-sliced
        (:meth:`CoilTables.counts`). Kept in ``_groups`` while the search's settings
        (``tactics`` and ``loops``) want it: copies copy it and :meth:`_play_unchecked`
        updates it, so a playout need not rebuild it."""
        t = self.tables
        bit = t.bit
        ring = t.ring
        black = self.black
        parent = list(range(self.n_cells))
        gmask: dict[int, int] = {}
        x = black
        while x:  # ascending, so each group's root is its highest cell
            low = x & -x
            c = low.bit_length() - 1
            x ^= low
            g = bit[c]
            for y in ring[c]:
                if y < c and black >> y & 1:
                    r = parent[y]
                    while parent[r] != r:
                        r = parent[r]
                    if r != c:
                        parent[r] = c
                        g |= gmask.pop(r)
            gmask[c] = g
        ones, twos, fours = t.counts(self.pblack)
        return parent, gmask, ones, twos, fours

    def _join(self, c: int, groups: _Groups) -> _Groups:
        """``groups`` (:meth:`_build_groups`, updated in place where it can) with the black
        stone just placed on ``c``: it joins the groups of its black neighbours, whose root
        becomes the highest cell, and counts as a neighbour of the cells around it."""
        parent, gmask, ones, twos, fours = groups
        t = self.tables
        roots = [c]
        for y in t.ring[c]:
            if self.black >> y & 1:
                r = parent[y]
                while parent[r] != r:
                    r = parent[r]
                parent[y] = r
                if r not in roots:
                    roots.append(r)
        top = max(roots)
        g = t.bit[c]
        for r in roots:
            if r != c:
                g |= gmask.pop(r)
            parent[r] = top
        gmask[top] = g
        inc = t.near[c]
        k1 = ones & inc
        k2 = twos & k1
        return parent, gmask, ones ^ inc, twos ^ k1, fours | k2

    def actions(self) -> list[int]:
        """Legal half-moves, ascending: in Phase I the empty cells whose stone closes no coil,
        then ``pass_action``; in Phase II every empty cell; nothing once the game is over."""
        if self.winner is not None:
            return []
        t = self.tables
        e = self._full & ~(self.black | self.white)
        if self.black_seat is None:
            pblack = self.pblack
            if pblack:  # only a cell next to a black stone can close a coil
                W = t.W
                W1 = W + 1
                x = e & t.unpadded((pblack << 1) | (pblack >> 1) | (pblack << W)
                                   | (pblack >> W) | (pblack << W1) | (pblack >> W1))
                closes = t.closes_coil
                bit = t.bit
                while x:
                    low = x & -x
                    x ^= low
                    c = low.bit_length() - 1
                    if closes(pblack | bit[c], c):
                        e ^= low
            out = t.cells_of(e)
            out.append(self.pass_action)
            return out
        return t.cells_of(e)

    def _is_legal(self, action: int) -> bool:
        if self.winner is not None or not isinstance(action, int):
            return False
        if action == self.pass_action:
            return self.black_seat is None
        if not 0 <= action < self.n_cells or ((self.black | self.white) >> action) & 1:
            return False
        return self.black_seat is not None or not self.closes_coil(action)

    def play(self, action: int) -> None:
        """Make one turn in place: a placement (black in Phase I, the mover's colour in
        Phase II, ending the game on a coil or a full board) or the Phase I pass.

        Raises ValueError (changing nothing) when the game is over or ``action`` is not legal
        (an occupied cell, a Phase I stone that would close a coil, a pass in Phase II).
        """
        if not self._is_legal(action):
            raise ValueError(f"half-move {action!r} is not legal here")
        self._play_unchecked(action)

    def _play_unchecked(self, c: int) -> None:
        """:meth:`play` without the legality check: ``c`` must be legal."""
        seat = self.to_move
        self.ply += 1
        if c == self.pass_action:
            self.black_seat = seat
            self.to_move = 3 - seat
            return
        black_seat = self.black_seat
        if black_seat is None or seat == black_seat:
            t = self.tables
            self.black |= 1 << c
            self.pblack |= t.bit[c]
            if black_seat is not None and t.closes_coil(self.pblack, c):
                self.winner = black_seat
                self.to_move = 0
                self._groups = None
                return
            if self._groups is not None:
                self._groups = self._join(c, self._groups)
        else:
            self.white |= 1 << c
        if black_seat is not None and self.black | self.white == self._full:
            self.winner = 3 - black_seat
            self.to_move = 0
            return
        self.to_move = 3 - seat

    def wins_now(self, action: int) -> bool:
        """True when ``action`` wins at once: Black's stone closing a coil in Phase II, or
        White filling the last empty cell. Nothing wins in Phase I. Raises ValueError for an
        illegal action, as :meth:`play`."""
        if not self._is_legal(action):
            raise ValueError(f"half-move {action!r} is not legal here")
        black_seat = self.black_seat
        if black_seat is None:
            return False
        if self.to_move == black_seat:
            return self.closes_coil(action)
        return (self._full & ~(self.black | self.white)) == 1 << action

    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        """Play uniformly random legal half-moves in place to the end; returns ``(winner,
        placed1, placed2)`` as :meth:`SearchState.playout` says.

        Policy, as :meth:`CoilPosition.random_playout`: in Phase I each turn is uniform over
        the legal half-moves (the empty cells that close no coil, and ``pass``), drawn by
        rejection -- a cell found to close a coil is set aside for the rest of Phase I, since
        it keeps doing so as black stones are added; in Phase II uniform over empty cells.
        With :attr:`tactics` set (the search's setting), Phase II sees coil threats
        (:meth:`_phase2_tactics`), among them the cells Phase I found to close a coil; with
        :attr:`loops` too, every threat however large the loop (:meth:`_playout_loops`).
        """
        if self.winner is not None:
            return self.winner, 0, 0
        if self.tactics and self.loops:
            return self._playout_loops(rng)
        t = self.tables
        bit = t.bit
        closes = t.closes_coil
        rand = rng.random  # int(rand() * n) is a uniform index, faster than randrange
        pblack = self.pblack
        occ = self.black | self.white
        seat = self.to_move
        black_seat = self.black_seat
        ply = self.ply
        empties = [c for c in range(self.n_cells) if not (occ >> c) & 1]
        p1 = p2 = 0  # cell bitboards of the stones each seat places
        tactics = self.tactics
        banned = []
        if black_seat is None:
            while True:
                n = len(empties)
                k = int(rand() * (n + 1))
                if k == n:
                    black_seat = seat
                    seat = 3 - seat
                    ply += 1
                    break
                c = empties[k]
                nb = pblack | bit[c]
                empties[k] = empties[-1]
                empties.pop()
                if closes(nb, c):
                    banned.append(c)
                    continue
                pblack = nb
                if seat == 1:
                    p1 |= 1 << c
                    seat = 2
                else:
                    p2 |= 1 << c
                    seat = 1
                ply += 1
            empties.extend(banned)
        white_seat = 3 - black_seat
        winner = white_seat
        pb = pw = 0  # Phase II stones of Black and of White
        if tactics:
            winner, pb, pw, pblack = self._phase2_tactics(
                empties, self.black | self.white | p1 | p2, pblack, seat, black_seat, rand,
                banned)
            empties = []
        elif seat == white_seat and empties:
            k = int(rand() * len(empties))
            pw = 1 << empties[k]
            empties[k] = empties[-1]
            empties.pop()
        while empties:  # Black's stone, then White's
            k = int(rand() * len(empties))
            c = empties[k]
            empties[k] = empties[-1]
            empties.pop()
            pb |= 1 << c
            pblack |= bit[c]
            if closes(pblack, c):
                winner = black_seat
                break
            if not empties:
                break
            k = int(rand() * len(empties))
            pw |= 1 << empties[k]
            empties[k] = empties[-1]
            empties.pop()
        self.black |= p1 | p2 | pb
        self.white |= pw
        self.pblack = pblack
        self.black_seat = black_seat
        # one ply per stone placed, plus a pass if Phase I ended here
        self.ply = ply + (pb | pw).bit_count()
        self.winner = winner
        self.to_move = 0
        if black_seat == 1:
            return winner, p1 | pb, p2 | pw
        return winner, p1 | pw, p2 | pb

    def _phase2_tactics(self, empties: list[int], occ: int, pblack: int, seat: int,
                        black_seat: int, rand: Callable[[], float], known: list[int]) -> tuple[int, int, int, int]:
        """Phase II of :meth:`playout` with coil threats (when :attr:`tactics` is set).

        A *threat* here is the one empty cell of a ring of six whose other five cells are
        black (a black stone there closes a coil around the ring's centre). Black plays an
        open threat (and wins); White blocks one; otherwise each plays a uniformly random
        empty cell. Larger loops are left to chance, except the cells of ``known`` (empty
        cells found in Phase I to close a coil), which are threats from the start.
        ``empties`` (the empty cells, as a list) is consumed; ``occ`` is the bitboard of
        the occupied cells. Returns
        ``(winner, black stones, white stones, pblack)``.
        """
        t = self.tables
        bit = t.bit
        ring = t.ring
        closes = t.closes_coil
        white_seat = 3 - black_seat
        # black neighbours of each cell; five can only be around an inner cell (an edge
        # cell has four neighbours at most), and six would be a coil already
        cnt = [0] * self.n_cells
        threats = list(known)
        x = occ & ~self.white
        while x:
            low = x & -x
            for y in ring[low.bit_length() - 1]:
                k = cnt[y] + 1
                cnt[y] = k
                if k == 5:
                    threats.extend(e for e in ring[y] if not (occ >> e) & 1)
            x ^= low
        pb = pw = 0
        if seat == white_seat and empties:
            if threats:  # White blocks a threat
                c = threats[0]
                empties.remove(c)
            else:
                k = int(rand() * len(empties))
                c = empties[k]
                empties[k] = empties[-1]
                empties.pop()
            pw = 1 << c
            occ |= pw
        while empties:
            if threats:
                for e in threats:
                    if not (occ >> e) & 1:  # an open threat: Black closes the coil
                        return black_seat, pb | 1 << e, pw, pblack | bit[e]
                threats = []
            k = int(rand() * len(empties))
            c = empties[k]
            empties[k] = empties[-1]
            empties.pop()
            b = 1 << c
            pb |= b
            occ |= b
            pblack |= bit[c]
            if closes(pblack, c):
                return black_seat, pb, pw, pblack
            if not empties:
                break
            for y in ring[c]:
                k = cnt[y] + 1
                cnt[y] = k
                if k == 5:
                    for e in ring[y]:
                        if not (occ >> e) & 1:
                            threats.append(e)
            if threats:  # White blocks a threat
                c = threats[0]
                empties.remove(c)
            else:
                k = int(rand() * len(empties))
                c = empties[k]
                empties[k] = empties[-1]
                empties.pop()
            pw |= 1 << c
            occ |= 1 << c
        return white_seat, pb, pw, pblack

    def _playout_loops(self, rng: random.Random) -> tuple[int, int, int]:
        """:meth:`playout` when :attr:`tactics` and :attr:`loops` are set: Phase I as the
        uniform policy; Phase II sees every coil threat -- an empty cell whose black stone
        would close a coil, around a ring of six or a larger loop. Black plays an open
        threat (and wins); White blocks one (the first found); otherwise each plays a
        uniformly random empty cell (the policy of :meth:`_phase2_tactics`, which sees
        rings of six only).

        Method: the black groups are kept in a union-find (per group, its stones as a padded
        bitboard; the state keeps them across plays and copies, :meth:`_build_groups`). For a position with no coil, a black stone
        on ``e`` closes one exactly when (a) a black neighbour of ``e`` has all its other
        neighbours black (``CoilTables.checks``; six black neighbours of ``e`` itself would
        mean a coil already), or (b) two of the separate runs of black cells around ``e``
        belong to one group: the stone closes a cycle of black cells, and the non-black
        neighbour of ``e`` between the two runs on the cycle's inside is enclosed (a cycle
        of board cells encloses no off-board position, the hexhex board being convex);
        conversely, cutting a region off the outside needs such a cycle (the outer boundary
        of a connected region of a triangulated plane is connected). So (b) stands in for
        RULES.md's flood fill, in Phase I's legality test as in Phase II's win test. After
        a black stone on ``c`` merges groups, the new threats of kind (b) are among the
        empty cells next to two of the pieces merged (``c`` alone and each group it
        touched) -- the part of the board that changed; kind (a) is found by counting
        black neighbours (bit-sliced, :meth:`CoilTables.counts`), as the ring tactics do.
        A cycle around a cell has six stones at least, so a group of four stones or fewer
        makes no threat of kind (b) and is not searched for one.
        """
        t = self.tables
        bit = t.bit
        ring = t.ring
        checks = t.checks
        key2m = t.key2m
        key_base = t.key_base
        pattern = t.pattern
        unpad = t.unpad
        W = t.W
        W1 = W + 1
        runs = _RUNS
        rand = rng.random
        pblack = self.pblack
        black = self.black
        occ = black | self.white
        seat = self.to_move
        black_seat = self.black_seat
        ply = self.ply
        free = self._full & ~occ
        empties = t.cells_of(free)
        pempty = t.padded(free)
        black_ring = t.black_ring
        nbrs = t.near
        groups = self._groups
        if groups is None:
            parent, gmask, ones, twos, fours = self._build_groups()
        else:  # kept by the state; this playout uses them up
            parent, kept, ones, twos, fours = groups
            gmask = {r: kept[r] for r in sorted(kept)}  # the order a rebuild has
            self._groups = None
        p1 = p2 = 0  # cell bitboards of the stones each seat places
        banned = []
        if black_seat is None:
            while True:
                k = int(rand() * (len(empties) + 1))
                if k == len(empties):
                    black_seat = seat
                    seat = 3 - seat
                    ply += 1
                    break
                c = empties[k]
                empties[k] = empties[-1]
                empties.pop()
                b = bit[c]
                nb = pblack | b
                m = key2m[(pblack >> key_base[c]) & pattern]
                closes = False
                for nm in checks[c][m]:
                    if nb & nm == nm:
                        closes = True
                        break
                roots = []
                if not closes and m:
                    for y in black_ring[c][m]:
                        r = parent[y]
                        while parent[r] != r:
                            r = parent[r]
                        parent[y] = r
                        if r not in roots:
                            roots.append(r)
                    closes = runs[m] > len(roots)
                if closes:
                    banned.append(c)
                    continue
                g = b
                for r in roots:
                    parent[r] = c
                    g |= gmask.pop(r)
                gmask[c] = g
                inc = nbrs[c]  # one more black neighbour for each cell around c
                k1 = ones & inc
                fours |= twos & k1
                ones ^= inc
                twos ^= k1
                pblack = nb
                pempty ^= b
                if seat == 1:
                    p1 |= 1 << c
                    seat = 2
                else:
                    p2 |= 1 << c
                    seat = 1
                ply += 1
            empties.extend(banned)
        white_seat = 3 - black_seat
        # the threats at the start of Phase II: Phase I's banned cells, kind (a), kind (b)
        threats = banned
        five = ones & ~twos & fours
        while five:
            low = five & -five
            five ^= low
            for e in ring[unpad[low.bit_length() - 1]]:
                if pempty & bit[e]:
                    threats.append(e)
        for g in gmask.values():
            if g.bit_count() < 5:  # a cycle around a cell has six stones at least
                continue
            near = ((g << 1) | (g >> 1) | (g << W) | (g >> W) | (g << W1) | (g >> W1)) & pempty
            while near:
                low = near & -near
                near ^= low
                e = unpad[low.bit_length() - 1]
                if runs[key2m[(g >> key_base[e]) & pattern]] > 1:
                    threats.append(e)
        pb = pw = 0  # Phase II stones of Black and of White
        winner = white_seat
        if seat == white_seat and empties:
            if threats:  # White blocks a threat
                c = threats[0]
                empties.remove(c)
            else:
                k = int(rand() * len(empties))
                c = empties[k]
                empties[k] = empties[-1]
                empties.pop()
            pw = 1 << c
            pempty ^= bit[c]
        while empties:
            if threats:
                e = -1
                for e in threats:
                    if pempty & bit[e]:  # an open threat: Black closes the coil
                        break
                else:
                    e = -1
                if e >= 0:
                    pb |= 1 << e
                    pblack |= bit[e]
                    winner = black_seat
                    break
                threats = []
            k = int(rand() * len(empties))
            c = empties[k]
            empties[k] = empties[-1]
            empties.pop()
            b = bit[c]
            pb |= 1 << c
            pempty ^= b
            pblack |= b
            m = key2m[(pblack >> key_base[c]) & pattern]
            for nm in checks[c][m]:
                if pblack & nm == nm:
                    winner = black_seat
                    break
            if winner == black_seat:
                break
            # merge c with the groups it touches; two runs in one group close a cycle
            pieces = [b]
            g = b
            for y in black_ring[c][m]:
                r = parent[y]
                while parent[r] != r:
                    r = parent[r]
                parent[y] = r
                if r != c:
                    parent[r] = c
                    h = gmask.pop(r)
                    pieces.append(h)
                    g |= h
            if runs[m] > len(pieces) - 1:
                winner = black_seat
                break
            gmask[c] = g
            if not empties:
                break
            inc = nbrs[c]  # one more black neighbour for each cell around c
            k1 = ones & inc
            k2 = twos & k1
            ones ^= inc
            twos ^= k1
            fours |= k2
            five = inc & ones & ~twos & fours  # the cells around c now with five
            if five:
                for y in ring[c]:
                    if five & bit[y]:
                        for e in ring[y]:
                            if pempty & bit[e]:
                                threats.append(e)
            # empty cells next to two pieces: new cycles one stone away (around a cell: six
            # stones at least, so a group of four or fewer with one more closes none)
            if len(pieces) > 1 and g.bit_count() >= 5:
                seen = nbrs[c]
                two = 0
                for h in pieces[1:]:
                    hn = (h << 1) | (h >> 1) | (h << W) | (h >> W) | (h << W1) | (h >> W1)
                    two |= seen & hn
                    seen |= hn
                two &= pempty
                while two:
                    low = two & -two
                    two ^= low
                    e = unpad[low.bit_length() - 1]
                    if runs[key2m[(g >> key_base[e]) & pattern]] > 1:
                        threats.append(e)
            if threats:  # White blocks a threat
                c = threats[0]
                empties.remove(c)
            else:
                k = int(rand() * len(empties))
                c = empties[k]
                empties[k] = empties[-1]
                empties.pop()
            pw |= 1 << c
            pempty ^= bit[c]
        self.black |= p1 | p2 | pb
        self.white |= pw
        self.pblack = pblack
        self.black_seat = black_seat
        self.ply = ply + (pb | pw).bit_count()
        self.winner = winner
        self.to_move = 0
        if black_seat == 1:
            return winner, p1 | pb, p2 | pw
        return winner, p1 | pw, p2 | pb

    def label(self, action: int) -> str:
        """Cell label of ``action`` (``"g7"``) or ``"pass"``. Raises IndexError otherwise."""
        if action == self.pass_action:
            return "pass"
        return self.board.labels[action]

    def move_text(self, turn: Sequence[int]) -> str:
        """Move text of a whole turn (one half-move). Raises ValueError for another length."""
        if len(turn) != 1:
            raise ValueError("a Coil turn is one half-move")
        return self.label(turn[0])


def _summary() -> str:
    return "Place black stones until someone passes and takes Black; Black then wins by closing a loop."


KIND = register(
    GameKind(
        key="coil",
        title="Coil",
        summary=_summary(),
        options=(
            OptionSpec("size", int, 7, "side of the hexagonal board (cells per edge)", minimum=5, maximum=12),
        ),
        position_class=CoilPosition,
        ends=(Termination.COIL, Termination.BOARD_FULL),
        move_format="one cell (`g7`), or `pass` during Phase I",
    )
)
