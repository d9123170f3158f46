"""Exact endgame solving: when few cells are left empty, the end is searched to the last
stone by alpha-beta instead of sampled.

Io (RULES.md "Io", Main phase and End) ends when the board is full and every main-phase
turn is one stone on any empty cell with no passing, so a position with ``k`` empty cells
is exactly ``k`` plies from its end: a negamax over win / draw / loss (values +1 / 0 / -1
for the side to move) with alpha-beta pruning (Knuth & Moore 1975), on the fast state's
bitboards (``IoState.white`` / ``black``, ``IoTables.flips``), solves it. Moves are ordered
corners first, then by stones turned, so a winning move usually cuts the rest off early;
positions met again by another move order are looked up in a transposition table.

Only Io has a solver so far (:func:`solver_for` returns None for the other games).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine import IoState, IoTables, SearchState, cells_of

#: A root solver: (state, node_limit, deadline) -> [(action, value)] (see
#: :func:`io_solve_root`), or None when it could not solve the position.
RootSolver = Callable[[SearchState, int, "float | None"], "list[tuple[int, int]] | None"]


class _OutOfNodes(Exception):
    """The node budget ran out before the position was solved."""




class _IoSolver:
    """Negamax with alpha-beta over an Io main phase (one stone a ply, no passing)."""

    def __init__(self, tables: IoTables, node_limit: int, deadline: float | None = None):
        self.flips = tables.flips
        self.bit = tables.bit
        self.corners = tables.corners
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.table: dict[tuple[int, int], tuple[int, int]] = {}

    def ordered(self, me: int, opp: int, empty: int) -> list[tuple[int, int]]:
        """(cell, stones it turns) for every empty cell: corners first, then most turned."""
        flips = self.flips
        corners = self.corners
        moves = []
        for c in cells_of(empty):
            f = flips(c, me, opp)
            key = f.bit_count() + (100 if corners >> c & 1 else 0)
            moves.append((key, c, f))
        moves.sort(reverse=True)
        return [(c, f) for _, c, f in moves]

    def value(self, me: int, opp: int, empty: int, alpha: int, beta: int) -> int:
        """+1 / 0 / -1: the result for the side to move (stones ``me``) with perfect play,
        clamped to the window (``alpha``, ``beta``) as alpha-beta does."""
        self.nodes += 1
        if self.nodes & 4095 == 0 and (self.nodes > self.node_limit or (
                self.deadline is not None and time.perf_counter() > self.deadline)):
            raise _OutOfNodes
        if empty & (empty - 1) == 0:  # one empty cell (or none): the last stone is forced
            if empty:
                b = empty
                c = b.bit_length() - 1
                f = self.flips(c, me, opp)
                me |= b | f
                opp &= ~f
            d = me.bit_count() - opp.bit_count()
            return 1 if d > 0 else (-1 if d < 0 else 0)
        key = (me, opp)
        hit = self.table.get(key)
        if hit is not None:
            lo, hi = hit
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        a0, b0 = alpha, beta
        best = -2
        bit = self.bit
        for c, f in self.ordered(me, opp, empty):
            b = bit[c]
            v = -self.value(opp & ~f, me | b | f, empty ^ b, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        # store as bounds: a fail-low result is an upper bound, a fail-high a lower one
        lo, hi = -1, 1
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best


def io_solve_root(state: SearchState, node_limit: int,
                  deadline: float | None = None) -> list[tuple[int, int]] | None:
    """Solve an Io main-phase position exactly (see the module): ``[(action, value)]`` for
    the empty cells searched, value for the player to move (+1 win, 0 draw, -1 loss). The
    best value in the list is exact and belongs to the best move; the others are upper
    bounds (each later move is only tested for doing better); moves after a win are left
    out. Returns None in the opening, mid-turn, or when ``node_limit`` positions or the
    ``deadline`` (a ``time.perf_counter()`` value, checked between root moves and every
    4096 positions) were not enough. Raises nothing."""
    if not isinstance(state, IoState):  # solver_for gives this solver for Io states only
        return None
    if state.winner is not None or state.opening or state.mid_turn:
        return None
    me, opp = state.own, state.opp
    empty = state.empty
    solver = _IoSolver(state.tables, node_limit, deadline)
    clock = time.perf_counter
    out: list[tuple[int, int]] = []
    best = -1
    try:
        for c, f in solver.ordered(me, opp, empty):
            b = solver.bit[c]
            if deadline is not None and clock() > deadline:
                return None
            # the first move with the full window, the others only to see if they do better
            child = (opp & ~f, me | b | f, empty ^ b)
            if not out:
                v = -solver.value(*child, -1, 1)
            else:
                v = -solver.value(*child, -best - 1, -best)  # null window (best, best + 1)
                if best < v < 1:
                    v = -solver.value(*child, -1, -best)  # better: how much better
            out.append((c, v))
            best = max(best, v)
            if v == 1:
                break
    except _OutOfNodes:
        return None
    return out


_SOLVERS: dict[str, RootSolver] = {"IoState": io_solve_root}


def solver_for(state: SearchState) -> RootSolver | None:
    """The exact root solver for ``state``'s game, or None (only Io has one)."""
    return _SOLVERS.get(type(state).__name__)


def empty_count(state: SearchState) -> int | None:
    """Empty cells of ``state`` when its game has a solver (Io), else None."""
    if isinstance(state, IoState):
        return state.empty.bit_count()
    return None



class TreeSolver:
    """Exact values for the tree's nodes (``ai.mcts.Search``'s ``exact``): Io main-phase
    positions with at most ``empties`` empty cells are solved (see the module) within
    ``node_limit`` positions each; one transposition table serves every node of a search,
    since positions recur under other move orders. Calling it with a state returns
    ``(value, turns)``: +1 / 0 / -1 for the player to move and the turns left (Io's main
    phase lasts one turn per empty cell whatever is played), or None (too many empties, not solved within the limit,
    the opening, mid-turn, over, or another game)."""

    def __init__(self, empties: int, node_limit: int):
        self.empties = empties
        self.node_limit = node_limit
        self.solver: _IoSolver | None = None
        self.solved = 0
        self.failed = 0

    def __call__(self, state: SearchState) -> tuple[int, int] | None:
        if not isinstance(state, IoState):
            return None
        if state.winner is not None or state.opening or state.mid_turn:
            return None
        empty = state.empty
        if empty.bit_count() > self.empties:
            return None
        if self.solver is None:
            self.solver = _IoSolver(state.tables, self.node_limit)
        solver = self.solver
        solver.nodes = 0
        try:
            v = solver.value(state.own, state.opp, empty, -1, 1)
        except _OutOfNodes:
            self.failed += 1
            return None
        self.solved += 1
        return v, empty.bit_count()
