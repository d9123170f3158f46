"""Game knowledge for the search: priors (progressive bias) and candidate filters.

A prior is a value in [0, 1] per legal half-move (0.5 = no opinion); the search adds
``PRIOR_WEIGHT * prior / (n + 1)`` to a child's selection value (progressive bias,
Chaslot et al. 2008), so knowledge steers the first visits and fades as statistics grow.
Everything here reads only the documented attributes of the engine's fast search states
(``engine.io.IoState``, ``engine.whirlwind.WhirlwindState``...); for any other state (the
slow reference ``PositionState``) it falls back to nothing: no prior, every candidate.

What is used where was measured with ``benchmarks/ai.py --ablation knowledge`` (see the
README): a piece of knowledge that did not win was left out.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from engine import CoilState, IoState, SearchState, WhirlwindState, cells_of

if TYPE_CHECKING:
    from .mcts import PriorFn

#: Weight of the prior in the selection value (progressive bias: weight * prior / (n + 1)).
PRIOR_WEIGHT = 0.5




@cache
def _file_masks(n: int) -> tuple[int, int]:
    full = (1 << (n * n)) - 1
    not_first = full & ~sum(1 << (r * n) for r in range(n))
    not_last = full & ~sum(1 << (r * n + n - 1) for r in range(n))
    return not_first, not_last


def _orth(x: int, n: int, full: int) -> int:
    """Orthogonal neighbours of the points of bitboard ``x`` on an n x n grid (cell = r*n+f)."""
    not_first, not_last = _file_masks(n)
    return ((x << n) | (x >> n) | ((x & not_last) << 1) | ((x & not_first) >> 1)) & full


def second_half_candidates(state: SearchState, first: int) -> list[int]:
    """Second half-moves worth testing for a win in one after ``first`` (``state`` is
    mid-turn, the first stone on the board).

    Whirlwind: unless the first stone already joins the mover's edges (then every second
    stone wins), a winning second stone is part of the chain, so it touches (orthogonally)
    a stone of the mover's -- only the legal partners that do are returned, plus the
    end-of-turn action when legal. Other games: every legal half-move.
    """
    if isinstance(state, WhirlwindState):
        t = state.tables
        own = state.own
        if t.joins(state.to_move, own, 1 << state.first):
            return state.actions()  # the first stone already joins: any second one wins
        cand = state.partners & _orth(own, t.n, t.full)
        out = cells_of(cand)
        if state.singles >> state.first & 1:
            out.append(state.pass_action)
        return out
    return state.actions()


def blocked_only_by_occupying(state: SearchState) -> bool:
    """True when an opponent's winning turn can only be stopped by a stone on one of its
    points. Whirlwind (RULES.md "Whirlwind"): a chain joins through the mover's own stones
    and the diagonal rule reads only their own stones, so the other colour changes nothing
    but the points it takes. Other games (captures, scores, coils): False."""
    return isinstance(state, WhirlwindState)


def decisive_candidates(state: SearchState, actions: list[int]) -> list[int]:
    """The half-moves among ``actions`` that can possibly win at once, for the search's
    decisive-move checks (``wins_now`` is called on these only). Cheap necessary
    conditions from the rules:

    * Coil: nothing wins in Phase I; White wins only by filling the last empty cell; a
      black stone that closes a coil touches at least two black stones.
    * Io: only the stone that fills the board can end the game.
    * Whirlwind: a winning stone touches (orthogonally) a stone of the mover's.
    * The Corals and other states: every action.
    """
    if isinstance(state, CoilState):
        if state.black_seat is None:
            return []
        empty = state.empty
        if state.to_move != state.black_seat:
            return actions if empty & (empty - 1) == 0 else []
        nmask = state.board.nmask
        black = state.black
        out = []
        for a in actions:
            if a < state.n_cells:
                m = nmask[a] & black
                if m & (m - 1):
                    out.append(a)
        return out
    if isinstance(state, IoState):
        empty = state.empty
        return actions if empty & (empty - 1) == 0 else []
    if isinstance(state, WhirlwindState):
        if state.mid_turn:
            return second_half_candidates(state, state.first)
        t = state.tables
        near = _orth(state.own, t.n, t.full)
        return [a for a in actions if near >> a & 1]
    return actions


# -- Coil -----------------------------------------------------------------------------------
#: The features of :func:`coil_pass_features`, in order.
COIL_PASS_FEATURES = ("size", "stones", "inner", "one")
#: Logistic model of the pass's value (bias, then one weight per feature of
#: :data:`COIL_PASS_FEATURES`), fitted by ``benchmarks/coil_pass.py`` (see its docstring and
#: benchmarks/results/issue24-coil-2026-11-26.txt for the run and its calibration table).
COIL_PASS_MODEL = (-3.552, 0.243, 0.150, 0.015, 1.794)


def coil_pass_features(state: CoilState, actions: list[int]) -> list[float] | None:
    """The features of a Coil Phase I position for the value of passing (RULES.md "Coil",
    Phase I): the board's side, the black stones, the black stones off the perimeter, and
    1.0 when exactly one empty cell would close a coil (else 0.0). ``actions`` are the
    state's legal half-moves (in Phase I the empty cells that close no coil, then the
    pass). None when two or more empty cells close a coil: then passing wins outright
    (White blocks one, Black closes another). Raises ValueError outside Phase I."""
    if state.black_seat is not None:
        raise ValueError("the pass is evaluated in Phase I only")
    threats = state.empty.bit_count() - (len(actions) - 1)
    if threats >= 2:
        return None
    black = state.black
    return [float(state.tables.size), float(black.bit_count()),
            float((black & ~state.board.perimeter).bit_count()), float(threats == 1)]


def coil_pass_value_of(features: list[float] | None) -> float:
    """The model's value (0..1) of passing for features from :func:`coil_pass_features`
    (1.0 for None, a proven win)."""
    if features is None:
        return 1.0
    z = COIL_PASS_MODEL[0] + sum(w * f for w, f in zip(COIL_PASS_MODEL[1:], features, strict=True))
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def coil_pass_value(state: CoilState, actions: list[int]) -> float:
    """Estimated chance (0..1) that passing now wins for the mover in Coil's Phase I: the
    chance that Black (the passer) wins the Phase II that follows from this board with
    White to move (RULES.md "Coil"). 1.0 when two or more empty cells close a coil (a
    proven win); else a logistic model of a few features (:func:`coil_pass_features`,
    :data:`COIL_PASS_MODEL`) calibrated against short searches of the position after the
    pass (``benchmarks/coil_pass.py``). ``actions`` as :func:`coil_pass_features`."""
    return coil_pass_value_of(coil_pass_features(state, actions))


def coil_prior(state: CoilState, actions: list[int]) -> list[float] | None:
    """Coil (RULES.md "Coil"): in Phase I the pass gets :func:`coil_pass_value` as its
    prior, the placements no opinion (0.5); in Phase II no opinion (None). Not switched on
    (see :data:`_PRIORS`): level 5 with it lost its match against level 5 without."""
    if state.black_seat is not None:
        return None
    out = [0.5] * len(actions)
    out[-1] = coil_pass_value(state, actions)  # the pass is the last action in Phase I
    return out


# -- Io -------------------------------------------------------------------------------------
@cache
def _io_tables(n: int) -> tuple[list[float], list[tuple[int, int]]]:
    """Static priors of an n x n Io board: corners high, edges above average, and the
    cells diagonally next to a corner (which hand the corner over) low while that corner is
    empty -- returned as (base prior per cell, [(x-cell, its corner)])."""
    base = []
    for c in range(n * n):
        r, f = divmod(c, n)
        edge = r in (0, n - 1) or f in (0, n - 1)
        corner = r in (0, n - 1) and f in (0, n - 1)
        base.append(0.9 if corner else (0.65 if edge else 0.5))
    xs = []
    for r, f, dr, df in ((0, 0, 1, 1), (0, n - 1, 1, -1), (n - 1, 0, -1, 1), (n - 1, n - 1, -1, -1)):
        xs.append(((r + dr) * n + f + df, r * n + f))
    return base, xs


def io_prior(state: IoState, actions: list[int]) -> list[float] | None:
    """Io (RULES.md "Io"): corners and edges are stable, so prefer them; avoid the cell
    diagonally next to an empty corner. In the opening (bound and free stones) no opinion."""
    if state.opening:
        return None
    base, xs = _io_tables(state.tables.n)
    empty = state.empty
    low = {x for x, corner in xs if empty >> corner & 1}
    return [0.15 if a in low else base[a] for a in actions]


# -- Whirlwind ------------------------------------------------------------------------------
def _reach_layers(state: WhirlwindState, own: int, edge: int, goal: int) -> list[int]:
    """Cumulative reach of a colour (stones ``own``) from ``edge``: layer k is the set of
    points (own stones and empty points) joined to ``edge`` by an orthogonal path that
    places at most k stones on empty points; layers stop at the first that touches
    ``goal`` (the other edge) or when they stop growing."""
    t = state.tables
    empty = state.empty
    cur = t.flood(own & edge, own)
    layers = [cur]
    while not cur & goal:
        front = ((t.orth(cur) | edge) & empty) & ~cur
        if not front:
            break
        cur = t.flood(cur | front, own | cur | front)
        layers.append(cur)
    return layers


def chain_distance(state: WhirlwindState, seat: int) -> tuple[int | None, int]:
    """``(d, points)``: the fewest stones ``seat`` must still place to join its two edges
    with an orthogonal chain (RULES.md "Whirlwind", Win), counting its stones on the board
    as free and the other colour's as walls (None when no path is left), and the bitboard
    of the empty points on some such shortest path (0 when none). A 0-1 shortest path over
    the seat's chains, by bitboard layers from each edge (the diagonal rule is not read: a
    lower bound). A seat at d <= 2 wins next turn unless stopped."""
    t = state.tables
    own = state.black if seat == 1 else state.white
    ea, eb = t.edges[seat]
    la = _reach_layers(state, own, ea, eb)
    if not la[-1] & eb:
        return None, 0
    d = len(la) - 1
    lb = _reach_layers(state, own, eb, ea)
    empty = state.empty
    on_path = 0
    for i in range(1, d + 1):
        exact = la[i] & ~la[i - 1]
        j = d + 1 - i
        if j < len(lb):
            on_path |= exact & lb[j]
    return d, on_path & empty


def whirlwind_prior(state: WhirlwindState, actions: list[int]) -> list[float] | None:
    """Whirlwind (RULES.md "Whirlwind"), by chain distance (:func:`chain_distance`, the
    shortest-path measure of Hex programs): a stone on one of the mover's shortest paths
    to a connection is preferred, one on the opponent's (a block) too, most when it is on
    both; a stone orthogonally next to either colour's stones a little; ending the turn
    with one stone (:attr:`~engine.whirlwind.WhirlwindState.pass_action`) is disfavoured
    (a second stone is nearly always worth placing)."""
    t = state.tables
    me = state.to_move
    _, mine = chain_distance(state, me)
    _, theirs = chain_distance(state, 3 - me)
    near = t.orth(state.black | state.white)
    out = []
    for a in actions:
        if a >= state.n_cells:
            out.append(0.2)
            continue
        v = 0.4
        if mine >> a & 1:
            v += 0.3
        if theirs >> a & 1:
            v += 0.25
        if near >> a & 1:
            v += 0.05
        out.append(v)
    return out


#: Priors in use, by state class. None of the priors above won its measured match, level 5
#: with it against level 5 without: Io 3/8 at 0.3 s a move; Whirlwind's chain-distance prior
#: 14/30 at 1,000 simulations a move, size 10 (benchmarks/results/issue24-whirl-2026-11-26.txt);
#: Coil's pass prior 13/32 (26-58%), hexhex 5 at 2,000 simulations a move
#: (benchmarks/results/issue24-coil-2026-11-26.txt). So none is switched on; they stay for the
#: next round of tuning (Coil's: ``{"CoilState": coil_prior}`` here).
_PRIORS: dict[str, PriorFn] = {}


def prior_for(state: SearchState) -> PriorFn | None:
    """The prior function for ``state``'s game, or None when there is none (see
    :data:`ai.mcts.PriorFn`)."""
    return _PRIORS.get(type(state).__name__)
