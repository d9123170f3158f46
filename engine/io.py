"""Io (Christian Freeling): RULES.md "Io".

Seat 1 is White and moves first. The opening ("one-bound-one-free"): White's first turn is
one stone on a non-corner cell; every later opening turn is a *bound* stone next to (8
directions) the last stone the opponent placed, then a *free* stone on an empty non-corner
cell whose on-board neighbours are all empty. When the bound stone leaves no free cell the
turn is the bound stone alone, the opening ends and the opponent moves first in the main
phase: one stone anywhere empty. Othello-style captures in all 8 directions follow every
placement. The game ends when the board is full; more stones wins (equal: a draw, **Ruling**).

Internals: bitboards over the board's cell numbers (:func:`engine.geometry.square_board`), with
per-board ray tables for captures. Captures never change which cells are occupied, so the free
cells only depend on occupancy.
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
    Stage,
    Termination,
    first_matching,
    prefix_tokens,
    read_rows,
    register,
    rows_text,
    stones_of,
)
from .errors import ErrorReason, IllegalMove, MoveError, PositionError
from .geometry import bits, cells_of, square_board
from .state import QuickRandom, RandRange, SearchState, turn_and_winner

__all__ = ["IoPosition", "IoState", "IoTables", "io_tables"]

PASS = "pass"
#: An Io move in internal form: the cells placed (one, or bound then free), or PASS (which
#: _check refuses: Io has no passing).
IoMove = tuple[int, ...] | str
WHITE_SEAT = 1

_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


class IoTables:
    """Precomputed per-board tables for Io on an ``n x n`` board.

    * ``bit[c]`` -- ``1 << c``; ``full`` -- every cell; ``corners``.
    * ``am[c]`` -- the 8 adjacent cells; ``near[c]`` -- ``am[c]`` plus ``c`` itself.
    * ``freeable`` -- every non-corner cell (a free stone needs, in addition, an empty
      neighbourhood).
    * ``rays[c]`` -- for each direction with at least two cells beyond ``c``:
      ``(first, ray, up)`` -- the adjacent cell's bit, the bitboard of the whole ray beyond
      ``c``, and whether the ray runs towards higher cell numbers.
    """

    def __init__(self, n: int):
        board = square_board(n)
        self.board = board
        self.n = n
        self.bit = tuple(1 << c for c in range(len(board)))
        self.full = board.full
        self.corners = board.corners
        self.am = board.amask
        self.near = tuple(m | (1 << c) for c, m in enumerate(board.amask))
        self.freeable = board.full & ~board.corners
        rays = []
        for f, r in board.coords:
            mine = []
            for df, dr in _DIRS:
                cells = []
                ff, rr = f + df, r + dr
                while 0 <= ff < n and 0 <= rr < n:
                    cells.append(rr * n + ff)
                    ff += df
                    rr += dr
                if len(cells) >= 2:
                    mine.append((1 << cells[0], sum(1 << x for x in cells), cells[1] > cells[0]))
            rays.append(tuple(mine))
        self.rays = tuple(rays)

    def flips(self, c: int, me: int, opp: int) -> int:
        """Opponent stones turned by a stone of the mover on ``c`` (bitboard; RULES.md "Capture").

        ``me`` / ``opp`` -- the mover's and the opponent's stones (bitboards).
        """
        if not opp & self.am[c]:
            return 0
        out = 0
        for first, ray, up in self.rays[c]:
            if opp & first:
                blockers = ray & ~opp
                if not blockers:
                    continue
                if up:
                    fb = blockers & -blockers
                    if fb & me:
                        out |= ray & (fb - 1)
                else:
                    fb = 1 << (blockers.bit_length() - 1)
                    if fb & me:
                        out |= ray & ~((fb << 1) - 1)
        return out


@cache
def io_tables(n: int) -> IoTables:
    """The shared :class:`IoTables` for an ``n x n`` board (cached)."""
    return IoTables(n)


_LABEL_RE = re.compile(r"^[a-z]+[0-9]+$")


class IoPosition(Position):
    """An Io position (RULES.md "Io").

    Slots beyond the base: ``_white`` / ``_black`` (bitboards), ``_opening`` (True during the
    one-bound-one-free opening), ``_anchor`` (cell of the last stone the opponent of the
    seat to move placed -- the bound stone must touch it -- or ``None`` before White's first
    stone and in the main phase) and ``_flipped`` (stones turned by the last move).
    """

    __slots__ = ("_white", "_black", "_opening", "_anchor", "_flipped", "_t")

    _white: int  # bitboards: bit c = cell c
    _black: int
    _opening: bool
    _anchor: int | None
    _flipped: int
    _t: IoTables

    two_placements = True

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def initial(cls, options: dict[str, Any]) -> IoPosition:
        """The empty board, opening, White (seat 1) to move."""
        return cls._make(options, 0, None, 1, 0, 0, True, None, 0)

    @classmethod
    def _make(cls, options: dict[str, Any], ply: int, last: str | None, turn: int, white: int,
              black: int, opening: bool, anchor: int | None, flipped: int) -> IoPosition:
        p = cls.__new__(cls)
        t = io_tables(options["size"])
        p._init_base(options, t.board, ply, last, turn)
        p._t = t
        p._white = white
        p._black = black
        p._opening = opening
        p._anchor = anchor
        p._flipped = flipped
        return p

    @classmethod
    def from_body(cls, options: dict[str, Any], ply: int, last: str | None, body: str) -> IoPosition:
        """Read ``"<rows top to bottom, '/'-separated> <turn> <opening|main> <anchor|-> <flipped|->"``.

        Rows use ``.`` empty, ``x`` black, ``o`` white; ``anchor`` is the cell the next bound
        stone must touch; ``flipped`` the comma-separated cells turned by the last move.
        Raises PositionError for malformed text or a position the opening cannot continue from.
        """
        t = io_tables(options["size"])
        board = t.board
        parts = body.split(" ")
        if len(parts) != 5:
            raise PositionError("an Io position needs rows, turn, phase, anchor and flipped stones")
        rows_s, turn_s, phase, anchor_s, flipped_s = parts
        black, white = read_rows(board, rows_s)
        if turn_s not in ("1", "2"):
            raise PositionError("the seat to move must be 1 or 2")
        turn = int(turn_s)
        if phase not in ("opening", "main"):
            raise PositionError("the Io phase must be opening or main")
        opening = phase == "opening"
        occ = white | black
        anchor = None
        if anchor_s != "-":
            if not _LABEL_RE.match(anchor_s):
                raise PositionError(f"bad anchor cell {anchor_s!r}")
            anchor = board.cell(anchor_s)
        if opening:
            if not occ:
                if turn != WHITE_SEAT or anchor is not None:
                    raise PositionError("White places the first stone, with nothing to touch")
            else:
                if anchor is None:
                    raise PositionError("the opening needs the cell the bound stone must touch")
                theirs = black if turn == WHITE_SEAT else white
                if not theirs & t.bit[anchor]:
                    raise PositionError("the bound stone must touch a stone of the opponent")
                if not t.am[anchor] & ~occ:
                    raise PositionError("no bound placement exists in this opening position")
        else:
            if anchor is not None:
                raise PositionError("the main phase has no bound stone")
            if not occ:
                raise PositionError("the main phase cannot start on an empty board")
        flipped = 0
        if flipped_s != "-":
            mover = white if turn != WHITE_SEAT else black
            for lab in flipped_s.split(","):
                if not _LABEL_RE.match(lab):
                    raise PositionError(f"bad flipped cell {lab!r}")
                c = board.cell(lab)
                if not mover & t.bit[c]:
                    raise PositionError(f"{lab} was not turned by the last move")
                flipped |= t.bit[c]
        return cls._make(options, ply, last, turn, white, black, opening, anchor, flipped)

    def _body(self) -> str:
        rows = rows_text(self.board, self._black, self._white)
        anchor = "-" if self._anchor is None else self.board.labels[self._anchor]
        labels = self.board.labels
        flipped = ",".join(labels[c] for c in bits(self._flipped)) or "-"
        return f"{rows} {self._turn} {self.phase} {anchor} {flipped}"

    # ---- public surface ---------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"opening"`` (one-bound-one-free) or ``"main"``."""
        return "opening" if self._opening else "main"

    @property
    def stones_this_turn(self) -> int:
        """2 (bound then free) in the opening after White's first stone, else 1 (RULES.md "Io");
        an opening turn with no free cell left is the bound stone alone."""
        return 2 if self._opening and self.ply > 0 else 1

    def colour(self, seat: int) -> str:
        """Seat 1 is ``"white"``, seat 2 ``"black"``. Raises ValueError for another seat."""
        if seat not in (1, 2):
            raise ValueError("seat must be 1 or 2")
        return "white" if seat == WHITE_SEAT else "black"

    @property
    def stage(self) -> Stage:
        """In the opening :attr:`Stage.IO_FIRST_STONE` (White's first stone, not on a corner)
        or :attr:`Stage.IO_BOUND_THEN_FREE`; then :attr:`Stage.IO_MAIN` (RULES.md "Io")."""
        if not self._opening:
            return Stage.IO_MAIN
        return Stage.IO_BOUND_THEN_FREE if self.stones_this_turn == 2 else Stage.IO_FIRST_STONE

    @property
    def scores(self) -> dict[int, int]:
        """Current stone counts: ``{1: white stones, 2: black stones}``."""
        return {1: self._white.bit_count(), 2: self._black.bit_count()}

    @property
    def stones(self) -> dict[int, str]:
        """Cell number -> ``"black"`` / ``"white"`` for every stone."""
        return stones_of(self._black, self._white)

    def _natural_outcome(self) -> Outcome | None:
        if (self._white | self._black) != self._t.full:
            return None
        w, b = self._white.bit_count(), self._black.bit_count()
        winner = 1 if w > b else 2 if b > w else None
        return Outcome(winner, Termination.STONES, {1: w, 2: b})

    @property
    def highlights(self) -> Highlights:
        """``placed`` -- the cells of the last move in order; ``flipped`` -- stones it turned."""
        placed = tuple(self.last_move.split()) if self.last_move else ()
        labels = self.board.labels
        return Highlights(placed=placed, flipped=frozenset(labels[c] for c in bits(self._flipped)))

    # ---- move generation --------------------------------------------------------------
    def _bounds(self, anchor: int) -> list[int]:
        """Cells the bound stone may go on (opening turns after White's first, ``anchor``
        being :attr:`_anchor`), in board order."""
        t = self._t
        return list(bits(t.am[anchor] & ~(self._white | self._black)))

    def _near_occ(self) -> int:
        t = self._t
        near = 0
        for c in bits(self._white | self._black):
            near |= t.near[c]
        return near

    def legal_moves(self) -> Iterator[str]:
        """Canonical legal moves: single cells (``"e5"``) or opening pairs ``"bound free"``,
        in board order of the bound cell, then of the free cell. Nothing once over."""
        if self.outcome is not None:
            return
        t = self._t
        labels = self.board.labels
        occ = self._white | self._black
        if not self._opening:
            for c in bits(t.full & ~occ):
                yield labels[c]
        elif self._anchor is None:
            for c in bits(t.freeable & ~occ):
                yield labels[c]
        else:
            near = self._near_occ()
            for b in self._bounds(self._anchor):
                free = t.freeable & ~(near | t.near[b])
                if not free:
                    yield labels[b]
                else:
                    lb = labels[b]
                    for f in bits(free):
                        yield f"{lb} {labels[f]}"

    def complete(self, prefix: str, limit: int | None = 25) -> list[str]:
        """Legal moves, or legal bound placements, starting with ``prefix`` (case-insensitive).

        In an opening turn with two placements: while the first cell is still being typed,
        the distinct legal bound cells starting with it; once it is complete (``"c3"`` being a
        legal bound cell, or followed by a space) the full legal moves starting with the text.
        Elsewhere as :meth:`Position.complete`. At most ``limit`` results (all when ``None``).
        Raises TypeError when ``prefix`` is not a string.
        """
        if not self._opening or self._anchor is None or self.outcome is not None:
            return super().complete(prefix, limit)
        tokens, trailing_space = prefix_tokens(prefix)
        if limit is not None and limit <= 0:
            return []
        t = self._t
        labels = self.board.labels
        bounds = self._bounds(self._anchor)
        bound_labels = [labels[b] for b in bounds]
        if len(tokens) <= 1 and not trailing_space and (not tokens or tokens[0] not in bound_labels):
            start = tokens[0] if tokens else ""
            out = [lb for lb in bound_labels if lb.startswith(start)]
            return out if limit is None else out[:limit]
        if len(tokens) > 2 or tokens[0] not in bound_labels:
            return []
        p = " ".join(tokens)
        b = bounds[bound_labels.index(tokens[0])]
        free = t.freeable & ~(self._near_occ() | t.near[b])
        lb = labels[b]
        if not free:
            return [lb] if lb.startswith(p) and not trailing_space else []
        return first_matching((f"{lb} {labels[f]}" for f in bits(free)), p, limit)

    # ---- playing ----------------------------------------------------------------------
    def _parse(self, tokens: list[str]) -> IoMove:
        if tokens == [PASS]:
            return PASS
        if len(tokens) > 2:
            raise MoveError(ErrorReason.IO_MOVE_FORM)
        return tuple(self.board.cell(tok) for tok in tokens)

    def _check(self, move: IoMove) -> None:
        if isinstance(move, str):  # PASS, the only text _parse gives
            raise IllegalMove(ErrorReason.IO_NO_PASSING)
        t = self._t
        labels = self.board.labels
        occ = self._white | self._black
        first = move[0]
        if occ & t.bit[first]:
            raise IllegalMove(ErrorReason.OCCUPIED, cell=labels[first])
        if not self._opening:
            if len(move) != 1:
                raise IllegalMove(ErrorReason.IO_OPENING_OVER)
            return
        if self._anchor is None:
            if len(move) != 1:
                raise IllegalMove(ErrorReason.IO_FIRST_SINGLE)
            if t.corners & t.bit[first]:
                raise IllegalMove(ErrorReason.IO_FIRST_CORNER)
            return
        if not t.am[self._anchor] & t.bit[first]:
            raise IllegalMove(ErrorReason.IO_BOUND_TOUCHES, anchor=labels[self._anchor])
        free = t.freeable & ~(self._near_occ() | t.near[first])
        if len(move) == 1:
            if free:
                example = labels[(free & -free).bit_length() - 1]
                raise IllegalMove(ErrorReason.IO_FREE_MUST_FOLLOW, cell=labels[first], example=example)
            return
        if not free:
            raise IllegalMove(ErrorReason.IO_NO_FREE_CELL, cell=labels[first])
        second = move[1]
        lab = labels[second]
        if second == first:
            raise IllegalMove(ErrorReason.IO_SAME_CELL, cell=lab)
        if occ & t.bit[second]:
            raise IllegalMove(ErrorReason.OCCUPIED, cell=lab)
        if t.corners & t.bit[second]:
            raise IllegalMove(ErrorReason.IO_FREE_CORNER, cell=lab)
        if not free & t.bit[second]:
            raise IllegalMove(ErrorReason.IO_NOT_FREE, cell=lab)

    def _apply(self, move: tuple[int, ...]) -> IoPosition:
        t = self._t
        turn = self._turn
        if turn == WHITE_SEAT:
            me, opp = self._white, self._black
        else:
            me, opp = self._black, self._white
        first = move[0]
        flipped = t.flips(first, me, opp)
        me |= t.bit[first] | flipped
        opp &= ~flipped
        opening = self._opening
        anchor = None
        if len(move) == 2:
            me |= t.bit[move[1]]  # a free stone never captures
            anchor = move[1]
        elif opening:
            if self._anchor is None:
                anchor = first  # White's first stone
            else:
                opening = False  # bound stone alone: the opening ends
        white, black = (me, opp) if turn == WHITE_SEAT else (opp, me)
        text = " ".join(self.board.labels[c] for c in move)
        return self._make(self.options, self.ply + 1, text, 3 - turn, white, black, opening, anchor, flipped)

    def search_state(self) -> IoState:
        """This position as a fast :class:`IoState` for tree search."""
        return IoState(self)

    # ---- random play ------------------------------------------------------------------
    def _random_internal(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random legal move (internal form).

        Opening turns: each bound cell weighs as many moves as it leaves free cells (or one
        when it leaves none); the free cell is then uniform among those.
        """
        t = self._t
        occ = self._white | self._black
        if not self._opening:
            return (rng.choice(list(bits(t.full & ~occ))),)
        if self._anchor is None:
            return (rng.choice(list(bits(t.freeable & ~occ))),)
        return self._random_opening(rng, self._near_occ(), t.am[self._anchor] & ~occ)

    def _random_opening(self, rng: random.Random, near: int, bounds: int) -> tuple[int, ...]:
        t = self._t
        options = []
        total = 0
        for b in bits(bounds):
            free = t.freeable & ~(near | t.near[b])
            w = free.bit_count() or 1
            options.append((b, free, w))
            total += w
        k = rng.randrange(total)
        for b, free, w in options:
            if k < w:
                if not free:
                    return (b,)
                for f in bits(free):
                    if k == 0:
                        return (b, f)
                    k -= 1
            k -= w
        raise AssertionError("unreachable")  # pragma: no cover

    def random_playout(self, rng: random.Random | None = None) -> IoPosition:
        """The final position of a game continued with uniformly random legal moves.

        The opening goes through :meth:`_random_internal` / :meth:`_apply`; the main phase
        runs on local bitboards (a uniformly random empty cell each ply, captures applied).
        """
        rng = rng or random.Random()
        pos = self
        while pos.outcome is None and pos._opening:
            pos = pos._apply(pos._random_internal(rng))
        if pos.outcome is not None:
            return pos
        turn = pos._turn
        if turn == WHITE_SEAT:
            me, opp = pos._white, pos._black
        else:
            me, opp = pos._black, pos._white
        me, opp, plies, _, _, c, flipped = _main_playout(pos._t, me, opp, rng)
        if plies % 2:
            turn = 3 - turn
        ply = pos.ply + plies
        # ``me`` is now the seat to move (``turn``).
        white, black = (me, opp) if turn == WHITE_SEAT else (opp, me)
        return self._make(self.options, ply, self.board.labels[c], turn, white, black, False, None, flipped)


def _main_playout(t: IoTables, me: int, opp: int, rng: RandRange,
                  record: list[int] | None = None) -> tuple[int, int, int, int, int, int, int]:
    """Main phase to the full board with uniformly random empty cells (RULES.md "Io",
    Main phase and Capture), on bitboards.

    ``me`` / ``opp`` -- stones of the seat to move and of the other seat. Returns
    ``(me, opp, plies, placed_me, placed_opp, last, flipped)``: the final stones, the
    stones again split by seat *to move at the end* (``me`` is the original mover's when
    ``plies`` is even), how many stones were placed, the cells each of those two seats
    placed, the last cell placed (-1 if none) and the stones it turned. When ``record`` is
    a list, each placed cell is appended to it in order. Raises nothing.
    """
    bits = t.bit
    am = t.am
    rays = t.rays
    randrange = rng.randrange
    occ = me | opp
    empties = [c for c in range(len(bits)) if not occ & bits[c]]
    pm = po = 0
    plies = 0
    flipped = 0
    c = -1
    while empties:
        k = randrange(len(empties))
        c = empties[k]
        empties[k] = empties[-1]
        empties.pop()
        if record is not None:
            record.append(c)
        flipped = 0
        b = bits[c]
        pm |= b
        if opp & am[c]:  # IoTables.flips, inlined: a call per ply costs ~10% here
            for first, ray, up in rays[c]:
                if opp & first:
                    blockers = ray & ~opp
                    if blockers:
                        if up:
                            fb = blockers & -blockers
                            if fb & me:
                                flipped |= ray & (fb - 1)
                        else:
                            fb = 1 << (blockers.bit_length() - 1)
                            if fb & me:
                                flipped |= ray & ~((fb << 1) - 1)
            me |= b | flipped
            opp ^= flipped
        else:
            me |= b
        me, opp = opp, me
        pm, po = po, pm
        plies += 1
    return me, opp, plies, pm, po, c, flipped




class IoState(SearchState):
    """Fast :class:`engine.state.SearchState` for Io (RULES.md "Io"); see that module for
    the protocol. Made by :meth:`IoPosition.search_state`.

    Half-moves: White's first turn is one non-corner cell. Each later opening turn is the
    *bound* cell (an empty cell adjacent to :attr:`anchor`), then -- when the bound stone
    leaves a free cell -- the *free* cell (mid-turn; there is no pass). A bound stone that
    leaves no free cell ends the turn and the opening by itself. Main phase: one empty cell.

    Read-only attributes (besides the protocol's ``n_cells``, ``pass_action``, ``to_move``,
    ``winner``, ``mid_turn``, ``ply``; ``winner`` 0 is a draw):

    * ``tables`` -- the board's :class:`IoTables` (``bit``, ``am``, ``near``, ``corners``...).
    * ``white`` / ``black`` -- bitboards of the stones (seat 1 is White, seat 2 Black).
    * ``opening`` -- True during the one-bound-one-free opening.
    * ``anchor`` -- the cell the next bound stone must touch (the opponent's last stone) at
      the start of an opening turn; -1 before White's first stone, mid-turn and in the main
      phase.
    * ``free`` -- mid-turn: bitboard of the cells the free stone may take; else 0.
    * ``last`` -- the last stone placed by either seat (-1 on an empty board).
    * ``near`` -- bitboard of every stone and its 8 neighbours (a free cell is a non-corner
      cell outside it).

    Properties ``own`` / ``opp`` / ``empty`` give the mover's stones, the other seat's and
    the empty cells. :meth:`play` checks legality; :meth:`_play_unchecked` does not.
    """

    __slots__ = ("tables", "n_cells", "pass_action", "to_move", "winner", "mid_turn", "ply",
                 "white", "black", "opening", "anchor", "free", "last", "near")

    def __init__(self, position: IoPosition):
        """The state of ``position`` (any IoPosition, finished or not)."""
        t = position._t
        self.tables = t
        self.n_cells = len(t.bit)
        self.pass_action = self.n_cells
        self.white = position._white
        self.black = position._black
        self.opening = position._opening
        self.anchor = -1 if position._anchor is None else position._anchor
        self.free = 0
        self.mid_turn = False
        self.ply = position.ply
        self.near = position._near_occ()
        self.last = -1
        if position.last_move:
            self.last = position.board.cell(position.last_move.split()[-1])
        self.to_move, self.winner = turn_and_winner(position)

    # -- read-only views ------------------------------------------------------------------
    @property
    def own(self) -> int:
        """Bitboard of the stones of the seat to move (White's when the game is over)."""
        return self.black if self.to_move == 2 else self.white

    @property
    def opp(self) -> int:
        """Bitboard of the other seat's stones."""
        return self.white if self.to_move == 2 else self.black

    @property
    def empty(self) -> int:
        """Bitboard of the empty cells."""
        return self.tables.full & ~(self.white | self.black)

    def scores(self) -> dict[int, int]:
        """Stone counts ``{1: white, 2: black}``, as :attr:`IoPosition.scores`."""
        return {1: self.white.bit_count(), 2: self.black.bit_count()}

    # -- protocol -------------------------------------------------------------------------
    def copy(self) -> IoState:
        """An independent copy (attribute copies only)."""
        s = IoState.__new__(IoState)
        s.tables = self.tables
        s.n_cells = self.n_cells
        s.pass_action = self.pass_action
        s.to_move = self.to_move
        s.winner = self.winner
        s.mid_turn = self.mid_turn
        s.ply = self.ply
        s.white = self.white
        s.black = self.black
        s.opening = self.opening
        s.anchor = self.anchor
        s.free = self.free
        s.last = self.last
        s.near = self.near
        return s

    def _action_mask(self) -> int:
        """Bitboard of the legal half-moves (0 once over)."""
        if self.winner is not None:
            return 0
        if self.mid_turn:
            return self.free
        t = self.tables
        occ = self.white | self.black
        if not self.opening:
            return t.full & ~occ
        if self.anchor < 0:
            return t.freeable & ~occ
        return t.am[self.anchor] & ~occ

    def actions(self) -> list[int]:
        """Legal half-moves, ascending: empty cells (main phase), non-corner empty cells
        (White's first stone), empty cells next to :attr:`anchor` (bound), or the free cells
        (mid-turn). Empty once over. RULES.md "Io", Opening and Main phase."""
        return cells_of(self._action_mask())

    def play(self, action: int) -> None:
        """Make one half-move in place. Raises ValueError when it is not in :meth:`actions`."""
        if not (isinstance(action, int) and 0 <= action < self.n_cells
                and self._action_mask() >> action & 1):
            raise ValueError(f"half-move {action} is not legal here")
        self._play_unchecked(action)

    def _play_unchecked(self, c: int) -> None:
        """:meth:`play` without the legality check: ``c`` must be in :meth:`actions`
        (anything else corrupts the state). For the search, after :meth:`actions`."""
        t = self.tables
        b = t.bit[c]
        seat = self.to_move
        self.last = c
        self.near |= t.near[c]
        if self.mid_turn:  # the free stone: never captures, ends the turn
            if seat == 1:
                self.white |= b
            else:
                self.black |= b
            self.mid_turn = False
            self.free = 0
            self.anchor = c
            self._end_turn(seat)
            return
        if seat == 1:
            me, opp = self.white, self.black
        else:
            me, opp = self.black, self.white
        flipped = t.flips(c, me, opp)
        me |= b | flipped
        opp &= ~flipped
        if seat == 1:
            self.white, self.black = me, opp
        else:
            self.black, self.white = me, opp
        if self.opening:
            if self.anchor < 0:  # White's first stone
                self.anchor = c
            else:
                self.anchor = -1
                free = t.freeable & ~self.near
                if free:
                    self.free = free
                    self.mid_turn = True
                    return
                self.opening = False  # bound stone alone: the opening ends
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        self.ply += 1
        if (self.white | self.black) == self.tables.full:
            w, b = self.white.bit_count(), self.black.bit_count()
            self.winner = 1 if w > b else 2 if b > w else 0
            self.to_move = 0
        else:
            self.to_move = 3 - seat

    def wins_now(self, action: int) -> bool:
        """True when ``action`` fills the board with the mover ahead (RULES.md "Io", End);
        only the last empty cell of the main phase can (a free cell keeps empty neighbours,
        and the opening leaves at least two empty cells next to the anchor). Raises
        ValueError for an illegal action."""
        mask = self._action_mask()
        if not (isinstance(action, int) and 0 <= action < self.n_cells and mask >> action & 1):
            raise ValueError(f"half-move {action} is not legal here")
        if self.opening or self.mid_turn or mask != self.tables.bit[action]:
            return False
        s = self.copy()
        s._play_unchecked(action)
        return s.winner == self.to_move

    def playout(self, rng: random.Random,
                moves: list[tuple[int, ...]] | None = None) -> tuple[int, int, int]:
        """Play to the full board in place (RULES.md "Io"); see :meth:`SearchState.playout`.

        Policy: uniform over the legal half-moves at each step (in the opening, a uniform
        bound cell, then a uniform free cell; unlike :meth:`IoPosition.random_playout`,
        which weighs each opening turn equally), then a uniformly random empty cell each
        main-phase ply on local bitboards, drawn with :class:`engine.state.QuickRandom`.
        When ``moves`` is a list, each whole turn played is appended to it as a tuple of
        half-moves (an open turn's as its remaining half-move only). Returns ``(winner,
        placed1, placed2)``.
        """
        placed = [0, 0, 0]
        turn: list[int] = []
        while self.winner is None and (self.opening or self.mid_turn):
            seat = self.to_move
            acts = self.actions()
            a = acts[rng.randrange(len(acts))]
            placed[seat] |= 1 << a
            self._play_unchecked(a)
            turn.append(a)
            if not self.mid_turn:
                if moves is not None:
                    moves.append(tuple(turn))
                turn = []
        if self.winner is not None:
            return self.winner, placed[1], placed[2]
        seat = self.to_move
        if seat == 1:
            me, opp = self.white, self.black
        else:
            me, opp = self.black, self.white
        record: list[int] | None = [] if moves is not None else None
        me, opp, plies, pm, po, c, _ = _main_playout(self.tables, me, opp, QuickRandom(rng), record)
        if record is not None and moves is not None:
            moves.extend((x,) for x in record)
        if plies % 2:
            seat = 3 - seat
        # ``me`` / ``pm`` are now the stones / placements of ``seat``.
        if seat == 1:
            self.white, self.black = me, opp
            placed[1] |= pm
            placed[2] |= po
        else:
            self.black, self.white = me, opp
            placed[2] |= pm
            placed[1] |= po
        self.ply += plies
        if c >= 0:
            self.last = c
        self.near = self.tables.full
        w, b = self.white.bit_count(), self.black.bit_count()
        self.winner = 1 if w > b else 2 if b > w else 0
        self.to_move = 0
        return self.winner, placed[1], placed[2]

    def label(self, action: int) -> str:
        """The cell's label (``"e5"``). Raises IndexError for a number off the board."""
        return self.tables.board.labels[action]

    def move_text(self, turn: Sequence[int]) -> str:
        """Text of a whole turn: ``"e5"`` or bound then free, ``"c3 e5"`` (Io's order)."""
        labels = self.tables.board.labels
        return " ".join(labels[a] for a in turn)


KIND = register(
    GameKind(
        key="io",
        title="Io",
        summary="Othello-style captures after a bound-and-free opening; the full board's majority wins.",
        options=(
            OptionSpec("size", int, 9, "number of cells along each side of the square board", minimum=5, maximum=19),
        ),
        position_class=IoPosition,
        ends=(Termination.STONES,),
        move_format="`c3 e5` (bound then free) in the opening, one cell (`e5`) afterwards",
        colours={1: "white", 2: "black"},
    )
)
