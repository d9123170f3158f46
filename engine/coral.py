"""Brain Coral and Branching Coral (Dale W. Walton): RULES.md "Brain Coral" and "Branching Coral".

Both games place one stone per turn on a hex board (limping or hexhex) and share most of their
code here; they differ in the placement rule, Branching Coral's captures and the bonus options.

Internal form: ``black`` / ``white`` are bitboards over the board's cells (bit ``i`` = cell
``i`` of :class:`engine.geometry.HexBoard`), a move is a cell number (``-1`` for ``pass``).

Fast legality. Every reachable position keeps the *drain invariant*: every empty cell reaches
an empty perimeter cell through empty cells (Brain Coral by its placement rule; Branching
Coral by its placement rule plus the fact that a captured stone had exactly one other empty
neighbour left, which drains). Think of "outside" as one node joined to every empty perimeter
cell; the invariant says the empty cells plus outside are connected. Filling cell ``c`` breaks
it only when ``c`` is a cut point of that graph. Walking the six positions around ``c`` in
circular order (an off-board position is outside), if the empty-or-outside positions form one
contiguous arc they stay joined without ``c``; otherwise each arc that does not touch outside
is flooded until it meets an empty perimeter cell.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from .base import (
    GameKind,
    Highlights,
    OptionSpec,
    Outcome,
    Position,
    Termination,
    read_rows,
    register,
    rows_text,
    stones_of,
)
from .errors import ErrorReason, IllegalMove, MoveError, OptionError, PositionError
from .geometry import HEX_RING, HexBoard, bits, hex_board, ring_runs
from .state import SearchState, turn_and_winner

__all__ = ["BrainCoralPosition", "BranchingCoralPosition", "CoralPosition", "CoralState",
           "largest_group", "score_pair"]

SIZE_RANGE = {"limping": (2, 10), "hexhex": (3, 11)}
COLOURS = {1: "black", 2: "white"}
_PASS = -1

_RUNS = tuple(ring_runs(p) for p in range(64))


class _Tables:
    """Precomputed per-board tables for the fast legality test (one per board, cached)."""

    __slots__ = ("nmask", "perimeter", "off", "ring", "runs_to_check", "n")

    def __init__(self, board: HexBoard):
        self.n = len(board)
        self.nmask = board.nmask
        self.perimeter = board.perimeter
        off = []
        ring = []
        for f, r in board.coords:
            o = 0
            cells = []
            for k, (df, dr) in enumerate(HEX_RING):
                j = board.index.get((f + df, r + dr))
                if j is None:
                    o |= 1 << k
                    cells.append(-1)
                else:
                    cells.append(j)
            off.append(o)
            ring.append(tuple(cells))
        self.off = tuple(off)
        # ring[c]: ((ring bit, cell bit), ...) for the on-board ring positions of c.
        self.ring = tuple(
            tuple((1 << k, 1 << j) for k, j in enumerate(cells) if j >= 0) for cells in ring
        )
        # runs_to_check[c][pattern]: for a pattern with two or more arcs, the first cell of
        # each arc that has no off-board position (such an arc must be flooded); else None.
        table = []
        for c in range(self.n):
            per: list[tuple[int, ...] | None] = []
            for pat in range(64):
                runs = _RUNS[pat]
                if len(runs) <= 1:
                    per.append(None)
                    continue
                starts = tuple(
                    ring[c][run[0]] for run in runs if not any(ring[c][k] < 0 for k in run)
                )
                per.append(starts)
            table.append(tuple(per))
        self.runs_to_check = tuple(table)

    def drains_without(self, c: int, empty: int) -> bool:
        """True when every empty cell except ``c`` still reaches an empty perimeter cell once
        ``c`` is filled, given that all of ``empty`` (which contains ``c``) drains now."""
        pat = self.off[c]
        for kb, cb in self.ring[c]:
            if empty & cb:
                pat |= kb
        starts = self.runs_to_check[c][pat]
        if not starts:
            return True
        avail = empty & ~(1 << c)
        nmask = self.nmask
        perim = self.perimeter
        for s in starts:
            seen = frontier = 1 << s
            while True:
                if frontier & perim:
                    break
                new = 0
                while frontier:
                    low = frontier & -frontier
                    new |= nmask[low.bit_length() - 1]
                    frontier ^= low
                new &= avail & ~seen
                if not new:
                    return False
                seen |= new
                frontier = new
        return True

    def brain_legal(self, c: int, empty: int) -> bool:
        """Brain Coral placement test for empty cell ``c`` (see module docstring)."""
        nm = self.nmask[c]
        rest = empty & ~(1 << c)
        if not nm & rest:
            return False
        stones = nm & ~empty
        nmask = self.nmask
        while stones:
            low = stones & -stones
            if not nmask[low.bit_length() - 1] & rest:
                return False
            stones ^= low
        return self.drains_without(c, empty)

    def branching_legal(self, c: int, empty: int) -> bool:
        """Branching Coral placement test for empty cell ``c``."""
        if (self.nmask[c] & empty).bit_count() < 2:
            return False
        return self.drains_without(c, empty)

    def branching_captures(self, c: int, empty_after: int, occupied: int) -> int:
        """Bitboard of the stones next to ``c`` with fewer than two empty neighbours in
        ``empty_after`` (the empty cells once ``c`` is filled, before removals)."""
        out = 0
        adj = self.nmask[c] & occupied
        nmask = self.nmask
        while adj:
            low = adj & -adj
            if (nmask[low.bit_length() - 1] & empty_after).bit_count() < 2:
                out |= low
            adj ^= low
        return out


@cache
def _tables(shape: str, size: int) -> _Tables:
    return _Tables(hex_board(shape, size))


def drains(board: HexBoard, empty: int) -> bool:
    """True when every cell of bitboard ``empty`` reaches an empty perimeter cell through
    cells of ``empty`` (RULES.md "Brain Coral", placement). A plain flood, used for checks."""
    reached = 0
    seeds = empty & board.perimeter
    for s in board.cells_of(seeds):
        if not (reached >> s) & 1:
            reached |= board.component(s, empty)
    return reached == empty


def largest_group(nmask: tuple[int, ...], stones: int) -> tuple[int, int]:
    """(largest group as a bitboard, number of groups) of the stones in bitboard ``stones``
    (RULES.md "Brain Coral", score). ``nmask`` is the board's neighbour masks. Of several
    largest groups of equal size, the one holding the lowest-numbered cell."""
    best = 0
    size = 0
    n = 0
    rest = stones
    while rest:
        low = rest & -rest
        frontier = nmask[low.bit_length() - 1] & stones
        if not frontier:  # a lone stone
            n += 1
            if not size:
                best, size = low, 1
            rest ^= low
            continue
        seen = frontier | low
        while frontier:
            new = 0
            while frontier:
                b = frontier & -frontier
                new |= nmask[b.bit_length() - 1]
                frontier ^= b
            frontier = new & stones & ~seen
            seen |= frontier
        n += 1
        k = seen.bit_count()
        if k > size:
            best, size = seen, k
        rest &= ~seen
    return best, n


def score_pair(bonus: str, big1: int, groups1: int, big2: int, groups2: int,
               captures: tuple[int, int]) -> tuple[int, int]:
    """Scores (seat 1, seat 2) from each seat's largest group size and group count and the
    opponent stones each has captured, under the ``bonus`` option (RULES.md "Brain Coral" and
    "Branching Coral", score)."""
    if bonus == "own":
        return big1 + groups1, big2 + groups2
    if bonus == "opponent":
        return big1 + groups2, big2 + groups1
    if bonus == "captures":
        return big1 + captures[0], big2 + captures[1]
    return big1, big2


_REMOVED_RE = re.compile(r"^([a-z]+[0-9]+):([xo])$")


class CoralPosition(Position):
    """A Brain Coral or Branching Coral position (RULES.md "Brain Coral", "Branching Coral").

    Seat 1 is Black and moves first, seat 2 White; a move is one cell label (``"d4"``). The
    game ends when the player to move has no legal placement; :attr:`scores` are always the
    current scores (largest group plus bonus).
    """

    __slots__ = ("black", "white", "captures", "removed_black", "removed_white", "_no_moves",
                 "_score_cache")

    board: HexBoard
    black: int  # bitboards: bit c = cell c
    white: int
    captures: tuple[int, int]  # stones each seat (1, 2) has captured (Branching Coral)
    removed_black: int  # stones the last move removed (bitboards)
    removed_white: int
    _no_moves: bool | None  # None until asked
    # ({1: score, 2: score}, Black's largest group, White's largest group), None until asked
    _score_cache: tuple[dict[int, int], int, int] | None

    branching = False

    # ---- construction ---------------------------------------------------------------------
    @classmethod
    def initial(cls, options: dict[str, Any]) -> CoralPosition:
        """The empty starting board for ``options`` (already validated)."""
        board = hex_board(options["shape"], options["size"])
        return cls._make(options, board, 0, None, 1, 0, 0, (0, 0), (0, 0))

    @classmethod
    def _make(cls, options: dict[str, Any], board: HexBoard, ply: int, last: str | None, turn: int,
              black: int, white: int, captures: tuple[int, int],
              removed: tuple[int, int]) -> CoralPosition:
        p = cls.__new__(cls)
        p._init_base(options, board, ply, last, turn)
        p.black = black
        p.white = white
        p.captures = captures
        p.removed_black, p.removed_white = removed
        p._no_moves = None
        p._score_cache = None
        return p

    @property
    def _tables(self) -> _Tables:
        return _tables(self.board.shape, self.board.size)

    # ---- rules ----------------------------------------------------------------------------
    def _legal(self, c: int, empty: int) -> bool:
        t = self._tables
        return t.branching_legal(c, empty) if self.branching else t.brain_legal(c, empty)

    def _empty(self) -> int:
        return self.board.full & ~(self.black | self.white)

    def _legal_cells(self) -> Iterator[int]:
        empty = self._empty()
        legal = self._legal
        for c in bits(empty):
            if legal(c, empty):
                yield c

    def _has_move(self) -> bool:
        if self._no_moves is None:
            self._no_moves = next(self._legal_cells(), None) is None
        return not self._no_moves

    def _natural_outcome(self) -> Outcome | None:
        if self._has_move():
            return None
        s = self.scores
        winner: int | None
        if s[1] != s[2]:
            winner = 1 if s[1] > s[2] else 2
        else:
            winner = self._last_placer()
        return Outcome(winner, Termination.SCORE, s)

    def _last_placer(self) -> int | None:
        """Seat that placed the last stone (None before the first move)."""
        return 3 - self._turn if self.ply > 0 else None

    def colour(self, seat: int) -> str:
        """``"black"`` for seat 1, ``"white"`` for seat 2. Raises ValueError for another seat."""
        if seat not in (1, 2):
            raise ValueError("seat must be 1 or 2")
        return COLOURS[seat]

    def _score_parts(self) -> tuple[dict[int, int], int, int]:
        if self._score_cache is None:
            bg, bn = largest_group(self.board.nmask, self.black)
            wg, wn = largest_group(self.board.nmask, self.white)
            s1, s2 = score_pair(self.options["bonus"], bg.bit_count(), bn, wg.bit_count(), wn,
                                self.captures)
            self._score_cache = ({1: s1, 2: s2}, bg, wg)
        return self._score_cache

    @property
    def scores(self) -> dict[int, int]:
        """Current scores ``{1: n, 2: m}``: largest group plus the bonus option's points."""
        return dict(self._score_parts()[0])

    @property
    def stones(self) -> dict[int, str]:
        """Cell number -> ``"black"`` / ``"white"`` for every stone on the board."""
        return stones_of(self.black, self.white)

    @property
    def highlights(self) -> Highlights:
        """Last placement, stones removed by it (Branching Coral), each seat's largest group
        (``groups``), and once over both largest groups as ``winning``.

        When a seat has several largest groups of equal size, the one holding the
        lowest-numbered cell is shown.
        """
        labels = self.board.labels
        _, bg, wg = self._score_parts()
        groups = {
            1: frozenset(labels[c] for c in self.board.cells_of(bg)),
            2: frozenset(labels[c] for c in self.board.cells_of(wg)),
        }
        removed = {labels[c]: "black" for c in self.board.cells_of(self.removed_black)}
        removed.update({labels[c]: "white" for c in self.board.cells_of(self.removed_white)})
        winning = groups[1] | groups[2] if self.outcome is not None else frozenset()
        placed = (self.last_move,) if self.last_move else ()
        return Highlights(placed=placed, removed=removed, winning=winning, groups=groups)

    def search_state(self) -> CoralState:
        """This position as a fast :class:`CoralState` for tree search."""
        return CoralState(self)

    # ---- moves ----------------------------------------------------------------------------
    def legal_moves(self) -> Iterator[str]:
        """Labels of the legal placements, by cell number (bottom row first); none once over."""
        if self.outcome is not None:
            return
        labels = self.board.labels
        for c in self._legal_cells():
            yield labels[c]

    def _parse(self, tokens: list[str]) -> int:
        if len(tokens) != 1:
            raise MoveError(ErrorReason.CORAL_MOVE_FORM, game=self.title,
                            example=self.board.labels[len(self.board) // 2])
        if tokens[0] == "pass":
            return _PASS
        return self.board.cell(tokens[0])

    def _check(self, move: int) -> None:
        if move == _PASS:
            raise IllegalMove(ErrorReason.NO_PASSING, game=self.title)
        label = self.board.labels[move]
        empty = self._empty()
        if not (empty >> move) & 1:
            raise IllegalMove(ErrorReason.OCCUPIED, cell=label)
        t = self._tables
        nmask = t.nmask[move]
        rest = empty & ~(1 << move)
        if self.branching:
            if (nmask & empty).bit_count() < 2:
                raise IllegalMove(ErrorReason.CORAL_TWO_EMPTY, cell=label)
        else:
            if not nmask & rest:
                raise IllegalMove(ErrorReason.CORAL_NO_EMPTY_NEIGHBOUR, cell=label)
            for s in self.board.cells_of(nmask & ~empty):
                if not t.nmask[s] & rest:
                    raise IllegalMove(ErrorReason.CORAL_SMOTHERS, cell=label, other=self.board.labels[s])
        if not t.drains_without(move, empty):
            raise IllegalMove(ErrorReason.CORAL_CUTS_OFF, cell=label)

    def _apply(self, move: int) -> CoralPosition:
        black, white, caps, removed = self._place(move)
        return self._make(
            self.options, self.board, self.ply + 1, self.board.labels[move], 3 - self._turn,
            black, white, caps, removed,
        )

    def _place(self, c: int) -> tuple[int, int, tuple[int, int], tuple[int, int]]:
        """(black, white, captures, removed) after the player to move places on ``c``."""
        cb = 1 << c
        black, white = self.black, self.white
        if self._turn == 1:
            black |= cb
        else:
            white |= cb
        caps = self.captures
        removed = (0, 0)
        if self.branching:
            occ = black | white
            gone = self._tables.branching_captures(c, self.board.full & ~occ, occ)
            if gone:
                gb, gw = gone & black, gone & white
                black &= ~gone
                white &= ~gone
                taken = gw.bit_count() if self._turn == 1 else gb.bit_count()
                caps = (caps[0] + taken, caps[1]) if self._turn == 1 else (caps[0], caps[1] + taken)
                removed = (gb, gw)
        return black, white, caps, removed

    # ---- random play ----------------------------------------------------------------------
    def _random_internal(self, rng: random.Random) -> int:
        cells = list(self._legal_cells())
        if not cells:
            raise IllegalMove(ErrorReason.GAME_OVER)
        return rng.choice(cells)

    def random_playout(self, rng: random.Random | None = None) -> CoralPosition:
        """The final position of the game continued with uniformly random legal placements.

        Each placement is uniform among the legal ones: cells are drawn uniformly from a
        candidate list and tested, an illegal one is dropped. A dropped cell stays illegal
        until a capture empties cells (filling cells never makes an illegal cell legal), at
        which point every empty cell becomes a candidate again.
        """
        if self.outcome is not None:
            return self
        rng = rng or random.Random()
        t = self._tables
        legal = t.branching_legal if self.branching else t.brain_legal
        full = self.board.full
        black, white = self.black, self.white
        turn = self._turn
        caps = self.captures
        ply = self.ply
        last = None
        removed = (self.removed_black, self.removed_white)
        empty = full & ~(black | white)
        cand = self.board.cells_of(empty)
        randrange = rng.randrange
        branching = self.branching
        captures = t.branching_captures
        while cand:
            i = randrange(len(cand))
            c = cand[i]
            cand[i] = cand[-1]
            cand.pop()
            if not legal(c, empty):
                continue
            cb = 1 << c
            empty ^= cb
            if turn == 1:
                black |= cb
            else:
                white |= cb
            removed = (0, 0)
            if branching:
                gone = captures(c, empty, black | white)
                if gone:
                    gb, gw = gone & black, gone & white
                    black ^= gb
                    white ^= gw
                    empty |= gone
                    if turn == 1:
                        caps = (caps[0] + gw.bit_count(), caps[1])
                    else:
                        caps = (caps[0], caps[1] + gb.bit_count())
                    removed = (gb, gw)
                    cand = self.board.cells_of(empty)
            turn = 3 - turn
            ply += 1
            last = c
        if last is None:
            return self
        end = self._make(
            self.options, self.board, ply, self.board.labels[last], turn, black, white, caps, removed
        )
        end._no_moves = True
        return end

    # ---- text -----------------------------------------------------------------------------
    def _body(self) -> str:
        """Rows top to bottom (``.``/``x``/``o``, ``/`` between rows), then the seat to move.

        Branching Coral adds the opponent stones each seat has captured (``b,w``) and the
        stones the last move removed (``label:x`` / ``label:o`` joined by commas, or ``-``).
        """
        text = f"{rows_text(self.board, self.black, self.white)} {self._turn}"
        if self.branching:
            labels = self.board.labels
            br = self.removed_black
            gone = ",".join(
                f"{labels[c]}:{'x' if (br >> c) & 1 else 'o'}"
                for c in self.board.cells_of(self.removed_black | self.removed_white)
            )
            text += f" {self.captures[0]},{self.captures[1]} {gone or '-'}"
        return text

    @classmethod
    def from_body(cls, options: dict[str, Any], ply: int, last: str | None, body: str) -> CoralPosition:
        """Read :meth:`_body` text back. Raises PositionError for a malformed body, or for a
        board no game can reach (an empty cell cut off from the edge; in Brain Coral also a
        stone with no empty neighbour)."""
        board = hex_board(options["shape"], options["size"])
        parts = body.split(" ")
        want = 4 if cls.branching else 2
        if len(parts) != want:
            raise PositionError("the board part of the position text has the wrong number of fields")
        black, white = read_rows(board, parts[0])
        if parts[1] not in ("1", "2"):
            raise PositionError("the seat to move must be 1 or 2")
        turn = int(parts[1])
        caps = (0, 0)
        rb = rw = 0
        if cls.branching:
            cs = parts[2].split(",")
            if len(cs) != 2 or not all(x.isdigit() for x in cs):
                raise PositionError("captures must be two counts, e.g. 0,3")
            caps = (int(cs[0]), int(cs[1]))
            if parts[3] != "-":
                for item in parts[3].split(","):
                    m = _REMOVED_RE.match(item)
                    if not m:
                        raise PositionError(f"bad removed stone {item!r}")
                    c = board.cell(m.group(1))
                    if ((black | white | rb | rw) >> c) & 1:
                        raise PositionError(f"removed cell {m.group(1)} is not empty or listed twice")
                    if m.group(2) == "x":
                        rb |= 1 << c
                    else:
                        rw |= 1 << c
        if last is not None and not ((black | white) >> board.cell(last)) & 1:
            raise PositionError("the last move must name a stone on the board")
        empty = board.full & ~(black | white)
        if not drains(board, empty):
            raise PositionError("an empty cell is cut off from the edge; no game reaches this board")
        if not cls.branching:
            for c in board.cells_of(black | white):
                if not board.nmask[c] & empty:
                    raise PositionError(f"the stone on {board.labels[c]} has no empty neighbour")
        return cls._make(options, board, ply, last, turn, black, white, caps, (rb, rw))


class CoralState(SearchState):
    """Fast mutable search view of a Brain or Branching Coral position (RULES.md "Brain
    Coral", "Branching Coral"; protocol in :mod:`engine.state`).

    Every turn is one half-move: an action is a cell number ``0 .. n_cells-1`` (there is no
    pass; :attr:`pass_action` is never legal). Built by :meth:`CoralPosition.search_state`.

    Read-only attributes for the search (bit ``c`` = cell ``c`` of :attr:`board`):

    * ``black`` / ``white`` -- stones of seat 1 (Black) and seat 2 (White); the colour of a
      seat never changes, so ``stones(seat)`` is ``black`` for seat 1.
    * ``empty`` (property) -- the empty cells.
    * ``captures`` -- ``(c1, c2)``: opponent stones each seat has captured (Branching Coral).
    * ``branching`` -- True for Branching Coral; ``bonus`` -- the bonus option's value.
    * ``board`` -- the :class:`~engine.geometry.HexBoard`; ``nmask`` its neighbour masks;
      ``perimeter`` its perimeter bitboard.
    * ``to_move``, ``winner``, ``mid_turn`` (always False), ``ply`` as the protocol says.

    Rules helpers for a playout policy or priors: :meth:`is_legal` (one cell),
    :meth:`scores`, and the module's :func:`largest_group` (``largest_group(state.nmask,
    state.black)`` gives Black's largest group and group count).

    Mutating these attributes from outside breaks the state; use :meth:`play`.
    """

    __slots__ = ("board", "n_cells", "pass_action", "to_move", "winner", "mid_turn", "ply",
                 "black", "white", "captures", "branching", "bonus", "_t", "_legal", "nmask",
                 "perimeter")

    def __init__(self, position: CoralPosition):
        """The state of ``position`` (a :class:`CoralPosition`, finished or not)."""
        t = position._tables
        self._t = t
        self.board = position.board
        self.nmask = t.nmask
        self.perimeter = t.perimeter
        self.n_cells = t.n
        self.pass_action = t.n
        self.branching = position.branching
        self.bonus = position.options["bonus"]
        self._legal = t.branching_legal if self.branching else t.brain_legal
        self.black = position.black
        self.white = position.white
        self.captures = position.captures
        self.ply = position.ply
        self.mid_turn = False
        self.to_move, self.winner = turn_and_winner(position)

    @property
    def empty(self) -> int:
        """Bitboard of the empty cells."""
        return ((1 << self.n_cells) - 1) & ~(self.black | self.white)

    def stones(self, seat: int) -> int:
        """Bitboard of ``seat``'s stones (seat 1 Black, seat 2 White). ValueError otherwise."""
        if seat == 1:
            return self.black
        if seat == 2:
            return self.white
        raise ValueError("seat must be 1 or 2")

    def copy(self) -> CoralState:
        """An independent copy (attribute copies only; the tables are shared)."""
        s = CoralState.__new__(CoralState)
        s._t = self._t
        s.board = self.board
        s.nmask = self.nmask
        s.perimeter = self.perimeter
        s.n_cells = self.n_cells
        s.pass_action = self.pass_action
        s.branching = self.branching
        s.bonus = self.bonus
        s._legal = self._legal
        s.black = self.black
        s.white = self.white
        s.captures = self.captures
        s.ply = self.ply
        s.mid_turn = False
        s.to_move = self.to_move
        s.winner = self.winner
        return s

    def is_legal(self, cell: int) -> bool:
        """Whether a stone on ``cell`` (a cell number) is a legal placement now (the
        placement rule of the game; legality does not depend on colour). False once the game
        is over or for an occupied cell. Raises IndexError for a cell off the board."""
        if self.winner is not None:
            return False
        empty = ((1 << self.n_cells) - 1) & ~(self.black | self.white)
        if not (empty >> cell) & 1:
            return False
        return self._legal(cell, empty)

    def actions(self) -> list[int]:
        """The legal placements as cell numbers, ascending; empty once the game is over."""
        if self.winner is not None:
            return []
        empty = ((1 << self.n_cells) - 1) & ~(self.black | self.white)
        legal = self._legal
        out = []
        e = empty
        while e:
            low = e & -e
            c = low.bit_length() - 1
            if legal(c, empty):
                out.append(c)
            e ^= low
        return out

    def play(self, action: int) -> None:
        """Place the mover's stone on cell ``action``, with Branching Coral's captures, and
        end the game when the next player has no legal placement.

        Raises ValueError (changing nothing) when the game is over or the placement is not
        legal (an occupied cell, ``pass_action``, a cell the placement rule forbids).
        """
        if (self.winner is not None or not isinstance(action, int)
                or not 0 <= action < self.n_cells or not self.is_legal(action)):
            raise ValueError(f"half-move {action!r} is not legal here")
        self._play_unchecked(action)

    def _play_unchecked(self, c: int) -> None:
        """:meth:`play` without the legality check: ``c`` must be a legal placement."""
        cb = 1 << c
        black, white = self.black, self.white
        seat = self.to_move
        if seat == 1:
            black |= cb
        else:
            white |= cb
        empty = ((1 << self.n_cells) - 1) & ~(black | white)
        if self.branching:
            gone = self._t.branching_captures(c, empty, black | white)
            if gone:
                gb, gw = gone & black, gone & white
                black ^= gb
                white ^= gw
                empty |= gone
                c1, c2 = self.captures
                if seat == 1:
                    self.captures = (c1 + gw.bit_count(), c2)
                else:
                    self.captures = (c1, c2 + gb.bit_count())
        self.black, self.white = black, white
        self.ply += 1
        legal = self._legal
        e = empty
        while e:
            low = e & -e
            if legal(low.bit_length() - 1, empty):
                self.to_move = 3 - seat
                return
            e ^= low
        self._finish(seat)

    def _finish(self, last: int) -> int:
        """Set :attr:`winner` from the scores and return it; ``last`` placed the last stone
        (ties)."""
        s1, s2 = self._score_pair()
        winner = self.winner = 1 if s1 > s2 else 2 if s2 > s1 else last
        self.to_move = 0
        return winner

    def _score_pair(self) -> tuple[int, int]:
        nmask = self.nmask
        bg, bn = largest_group(nmask, self.black)
        wg, wn = largest_group(nmask, self.white)
        return score_pair(self.bonus, bg.bit_count(), bn, wg.bit_count(), wn, self.captures)

    def scores(self) -> dict[int, int]:
        """Current scores ``{1: n, 2: m}`` as :attr:`CoralPosition.scores` (largest group
        plus the bonus option's points)."""
        s1, s2 = self._score_pair()
        return {1: s1, 2: s2}

    def wins_now(self, action: int) -> bool:
        """True when placing on ``action`` ends the game (the last legal placement) with the
        mover winning. Raises ValueError for an illegal action, as :meth:`play`."""
        seat = self.to_move
        s = self.copy()
        s.play(action)
        return s.winner == seat

    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        """Play uniformly random legal placements in place to the end (the policy of
        :meth:`CoralPosition.random_playout`: a cell drawn uniformly from the candidates is
        tested and dropped when illegal; a capture makes every empty cell a candidate again).

        Returns ``(winner, placed1, placed2)`` as :meth:`SearchState.playout` says.
        """
        if self.winner is not None:
            return self.winner, 0, 0
        legal = self._legal
        black, white = self.black, self.white
        seat = self.to_move
        c1, c2 = self.captures
        occ = black | white
        empty = ((1 << self.n_cells) - 1) & ~occ
        cand = [c for c in range(self.n_cells) if not (occ >> c) & 1]
        rand = rng.random  # int(rand() * n) is a uniform index, faster than randrange
        captures = self._t.branching_captures if self.branching else None
        p1 = p2 = 0  # cells each seat placed on
        ply = self.ply
        if captures is None:  # Brain Coral: nothing is removed, so a tighter loop
            while cand:
                i = int(rand() * len(cand))
                c = cand[i]
                cand[i] = cand[-1]
                cand.pop()
                if legal(c, empty):
                    empty ^= 1 << c
                    if seat == 1:
                        p1 |= 1 << c
                        seat = 2
                    else:
                        p2 |= 1 << c
                        seat = 1
            self.black, self.white = black | p1, white | p2
            self.ply = ply + (p1 | p2).bit_count()
            return self._finish(3 - seat), p1, p2
        while cand:
            i = int(rand() * len(cand))
            c = cand[i]
            cand[i] = cand[-1]
            cand.pop()
            if not legal(c, empty):
                continue
            cb = 1 << c
            empty ^= cb
            ply += 1
            if seat == 1:
                black |= cb
                p1 |= cb
                seat = 2
            else:
                white |= cb
                p2 |= cb
                seat = 1
            gone = captures(c, empty, black | white)
            if gone:
                gb, gw = gone & black, gone & white
                black ^= gb
                white ^= gw
                empty |= gone
                if seat == 2:  # Black just placed
                    c1 += gw.bit_count()
                else:
                    c2 += gb.bit_count()
                cand = [c for c in range(self.n_cells) if (empty >> c) & 1]
        self.black, self.white = black, white
        self.captures = (c1, c2)
        self.ply = ply
        return self._finish(3 - seat), p1, p2

    def label(self, action: int) -> str:
        """Cell label of ``action`` (``"d4"``). Raises IndexError for a non-cell."""
        return self.board.labels[action]

    def move_text(self, turn: Sequence[int]) -> str:
        """Move text of a whole turn (one cell). Raises ValueError for another length."""
        if len(turn) != 1:
            raise ValueError("a Coral turn is one half-move")
        return self.board.labels[turn[0]]


class BrainCoralPosition(CoralPosition):
    """Brain Coral (RULES.md "Brain Coral"): after a placement every empty cell drains to an
    empty perimeter cell and every stone keeps an empty neighbour."""

    __slots__ = ()
    branching = False


class BranchingCoralPosition(CoralPosition):
    """Branching Coral (RULES.md "Branching Coral"): the cell needs two empty neighbours, the
    board must drain right after placement, then neighbouring stones of either colour left
    with fewer than two empty neighbours are removed together."""

    __slots__ = ()
    branching = True


def _check_size(options: dict[str, Any]) -> None:
    """Size range per shape: limping 2..10, hexhex 3..11. Raises OptionError."""
    lo, hi = SIZE_RANGE[options["shape"]]
    if not lo <= options["size"] <= hi:
        raise OptionError(ErrorReason.SIZE_FOR_SHAPE, shape=options["shape"], low=lo, high=hi, size=options["size"])


def _options(bonus_choices: tuple[str, ...], bonus_help: str) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec("shape", str, "limping", "board shape: limping (sides m+1 and m) or hexhex",
                   choices=("limping", "hexhex")),
        OptionSpec("size", int, 4, "board size: limping 2-10, hexhex 3-11", minimum=2, maximum=11,
                   range_text="from 2 to 10 on a limping board, or from 3 to 11 on a hexhex board",
                   ranges=tuple(("shape", shape, lo, hi) for shape, (lo, hi) in SIZE_RANGE.items())),
        OptionSpec("bonus", str, "own", bonus_help, choices=bonus_choices),
    )


register(GameKind(
    key="braincoral",
    title="Brain Coral",
    summary="Place stones so that every empty cell still drains to the edge; biggest group wins.",
    options=_options(("own", "opponent", "none"),
                     "bonus point per group: own, opponent or none"),
    position_class=BrainCoralPosition,
    validate_extra=_check_size,
    ends=(Termination.SCORE,),
    move_format="one cell, e.g. `d4`",
    colours=dict(COLOURS),
))

register(GameKind(
    key="branchingcoral",
    title="Branching Coral",
    summary="Brain Coral with breathing room: stones need two empty neighbours or are captured.",
    options=_options(("own", "opponent", "captures", "none"),
                     "bonus: per own group, per opponent group, per captured stone, or none"),
    position_class=BranchingCoralPosition,
    validate_extra=_check_size,
    ends=(Termination.SCORE,),
    move_format="one cell, e.g. `d4`",
    colours=dict(COLOURS),
))
